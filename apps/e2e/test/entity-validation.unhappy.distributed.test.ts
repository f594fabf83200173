import request from 'supertest';
import { DistributedStack } from './support/distributed';
import { Api, EntityFactory, withEntityStack, suffix, updates } from './support/entities';

let stack: DistributedStack;
let api: Api;
let factory: EntityFactory;
withEntityStack((f) => ({ stack, api, factory } = f));

describe('request bodies with property names that are also JavaScript object members', () => {
  test.each([
    ['POST /Cars', 'constructor', { constructor: { x: 1 } }, ['constructor']],
    ['POST /Cars', 'toString', { toString: 1, ParameterUpdates: [] }, ['toString']],
    ['POST /Cars', 'valueOf in a parameter update', { ParameterUpdates: [{ Name: 'Name', Value: 'a', valueOf: 1 }] }, ['ParameterUpdates[0].valueOf']],
    ['POST /Cars', '__proto__', JSON.parse('{"__proto__": {"ParameterUpdates": [{"Name": "Name", "Value": "x"}]}}'), ['__proto__']],
  ])('when %s carries %s, then it is a 400 naming it as unknown and nothing is created', async (_route, _what, body, paths) => {
    const before = (await api.list('Cars')).body.length;

    const res = await api.send('POST', '/Cars', body);

    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    for (const path of paths) expect(res.body.errors[path]).toEqual(['unknown property']);
    expect((await api.list('Cars')).body.length).toBe(before);
  });

  test('when an update or a search carries such names at any depth, then it is a 400, never a 500', async () => {
    const runSheet = await factory.build('RunSheets', { allParameters: false });

    const update = await api.update('RunSheets', runSheet.entity.Id, { CollectionUpdateModels: { Laps: [{ constructor: 1 }] } });
    const topLevel = await api.update('RunSheets', runSheet.entity.Id, { hasOwnProperty: 1 });
    const search = await api.send('POST', '/Tyres/Search', { AssociatedModelSearchMode: 0, AccountId: api.member.accountId, hasOwnProperty: 1 });
    const protoCollection = await api.update('RunSheets', runSheet.entity.Id, JSON.parse('{"CollectionUpdateModels": {"__proto__": [{"Delete": true}]}}'));

    expect(update.status).toBe(400);
    expect(update.body.errors['CollectionUpdateModels.Laps[0].constructor']).toEqual(['unknown property']);
    expect(topLevel.status).toBe(400);
    expect(topLevel.body.errors['hasOwnProperty']).toEqual(['unknown property']);
    expect(search.status).toBe(400);
    expect(search.body.errors['hasOwnProperty']).toEqual(['unknown property']);
    expect(protoCollection.status).toBe(400);
    expect(protoCollection.body.errors['CollectionUpdateModels.__proto__']).toEqual(['unknown property']);
  });

  test('when the query string names __proto__ or constructor, then it is a 400 naming the parameter', async () => {
    for (const name of ['__proto__', 'constructor']) {
      const res = await api.send('GET', `/Cars?${name}=x`);
      expect(res.status).toBe(400);
      expect(res.body.errors[name]).toEqual(['unknown query parameter']);
      expect(res.body.detail).toBe(`unknown query parameter '${name}'`);
    }
    const two = await api.send('GET', '/Cars?foo=1&bar=2');
    expect(two.body.detail).toBe("The query string is not valid: unknown query parameter 'foo'; unknown query parameter 'bar'");
  });
});

describe('values of the wrong type', () => {
  test.each([
    [{ Index: 1.5 }, 'Index'],
    [{ Index: '1' }, 'Index'],
    [{ CopyAll: 'yes' }, 'CopyAll'],
    [{ ParameterUpdates: [{ Name: 'Name', Value: 7 }] }, 'ParameterUpdates[0].Value'],
  ])('when the create body is %j, then the 400 says what is wrong with %s rather than that it is missing', async (body, path) => {
    const res = await api.send('POST', '/Cars', body);

    expect(res.status).toBe(400);
    expect(res.body.errors[path]).toHaveLength(1);
    expect(res.body.errors[path][0]).not.toBe('is required');
  });

  test('when a required property is absent, then the 400 still says it is required', async () => {
    const res = await api.send('POST', '/Cars', { ParameterUpdates: [{ Value: 'x' }] });

    expect(res.status).toBe(400);
    expect(res.body.errors['ParameterUpdates[0].Name']).toEqual(['is required']);
  });

  test.each([
    ['EndDate', '2026-02-30'],
    ['EndDate', '2026-04-12T24:00:00Z'],
  ])('when %s is %s, then it is a 400 naming it and nothing changes', async (name, value) => {
    const event = await factory.build('Events', { allParameters: false });

    const res = await api.update('Events', event.entity.Id, { ParameterUpdates: updates({ [name]: value }) });

    expect(res.status).toBe(400);
    expect(res.body.errors['ParameterUpdates[0].Value'][0]).toContain(`${name} is a DateTime`);
    expect((await api.get('Events', event.entity.Id, name)).body.Parameters).toEqual(event.entity.Parameters[name] === undefined ? {} : { [name]: event.entity.Parameters[name] });
  });
});

describe('GET /Tyres/Search with a body and no Content-Type', () => {
  test('when the body is JSON, then it is read as the search body', async () => {
    const car = await factory.build('Cars', { allParameters: false });
    const tyre = await api.create('Tyres', {}, { ParameterUpdates: updates({ Name: `Set ${suffix()}`, CarId: car.entity.Id }) });

    const res = await request(stack.baseUrl)
      .get('/Tyres/Search')
      .set({ ApiKey: api.member.apiKey, AccountId: api.member.accountId })
      .unset('Content-Type')
      .send(Buffer.from(JSON.stringify({ AssociatedModelSearchMode: 3, CarId: car.entity.Id })));

    expect(res.status).toBe(200);
    expect(res.body.map((t: { Id: string }) => t.Id)).toEqual([tyre.body.Id]);
  });
});

describe('an entity path of an account the key is not a member of', () => {
  test('when it is read, then the 404 names the path', async () => {
    const outsider = await stack.member('admin');
    const car = await factory.build('Cars', { allParameters: false });

    const res = await fetch(`${stack.baseUrl}/Cars/${car.entity.Id}`, { headers: { ApiKey: outsider.apiKey, AccountId: api.member.accountId } });
    const body = (await res.json()) as { detail: string };

    expect(res.status).toBe(404);
    expect(body.detail).toBe(`/Cars/${car.entity.Id} is not in this account`);
  });
});

describe('custom parameter definitions and the values stored under them', () => {
  const define = (def: Record<string, string>) => api.create('ParameterDefinitions', {}, { ParameterUpdates: updates(def) });

  test('when a definition is named like a collection of its type, then it is a 400 naming the collection', async () => {
    for (const name of ['Laps', 'attachedfiles']) {
      const res = await define({ Name: name, EntityType: 'RunSheets', ParameterType: 'Double' });
      expect(res.status).toBe(400);
      expect(res.body.errors['Name'][0]).toMatch(/the collection (Laps|AttachedFiles)/);
    }
  });

  test('when entities hold values of a parameter, then its definition can be neither deleted nor retyped until they are cleared', async () => {
    const name = `Fuel${suffix().replace(/[^a-z0-9]/gi, '')}`;
    const definition = (await define({ Name: name, EntityType: 'Cars', ParameterType: 'Double' })).body;
    const car = (await api.create('Cars', {}, { ParameterUpdates: updates({ Name: 'Car 7', [name]: '42.5' }) })).body;

    const deleted = await api.delete('ParameterDefinitions', definition.Id);
    const retyped = await api.update('ParameterDefinitions', definition.Id, { ParameterUpdates: updates({ ParameterType: 'Boolean' }) });

    expect(deleted.status).toBe(409);
    expect(deleted.body.detail).toBe(`1 Cars hold a value of ${name}: set it to null on them before the definition can be deleted`);
    expect(retyped.status).toBe(409);
    expect((await api.get('Cars', car.Id, name)).body.Parameters).toEqual({ [name]: 42.5 });

    // A change that does not alter what the parameter is (its unit) is fine; clearing the values frees the definition.
    expect((await api.update('ParameterDefinitions', definition.Id, { ParameterUpdates: updates({ Unit: 'l' }) })).status).toBe(200);
    expect((await api.update('Cars', car.Id, { ParameterUpdates: updates({ [name]: null }) })).status).toBe(200);
    expect((await api.delete('ParameterDefinitions', definition.Id)).status).toBe(204);
    expect((await api.get('Cars', car.Id)).body.Parameters[name]).toBeUndefined();
  });
});

describe('methods a path does not have', () => {
  test.each([
    ['PATCH', '/Cars/00000000-0000-4000-8000-000000000001', 'GET, HEAD, PUT, DELETE'],
    ['PUT', '/Cars', 'GET, HEAD, POST'],
    ['DELETE', '/Tyres/Search', 'GET, HEAD, POST'],
  ])('when %s %s is sent, then it is a 405 naming the methods it has (HEAD wherever GET is)', async (method, path, allow) => {
    const res = await api.send(method, path, method === 'DELETE' ? undefined : {});

    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 405, title: 'Method Not Allowed' });
    // HEAD, which Allow lists, is answered as GET is (headers alone), not refused.
    const [head, get] = [await api.send('HEAD', path), await api.send('GET', path)];
    expect(head.status).toBe(get.status);
  });
});
