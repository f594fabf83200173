import request from 'supertest';
import { DistributedStack, readJson, type Member } from './support/distributed';

let stack: DistributedStack;
let admin: Member;

beforeAll(async () => {
  stack = await DistributedStack.start();
  admin = await stack.member('admin');
});
afterAll(async () => {
  await stack?.stop();
});

const json = (m: Member, extra: Record<string, string> = {}) => ({ ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json', ...extra });

describe('Championships through gateway → RabbitMQ → entity-service → PostgreSQL', () => {
  test('when a championship is created, read, listed, updated and deleted, then each step answers as wire.md says', async () => {
    const created = await admin.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'GT World Challenge 2026' }, { Name: 'Year', Value: '2026' }] });
    expect(created).toMatchObject({ success: true, statusCode: 201 });
    const id = created.returnValue?.Id as string;
    expect(created.returnValue).toEqual({ Id: id, Parameters: { Name: 'GT World Challenge 2026', Year: 2026, Description: null }, Events: [], AttachedFiles: [] });

    const got = await admin.client.getChampionshipById(id);
    expect(got.returnValue).toEqual(created.returnValue);

    const listed = await admin.client.getAllChampionships();
    expect(listed.returnValue?.map((c) => c.Id)).toContain(id);

    const updated = await admin.client.updateChampionship(id, { ParameterUpdates: [{ Name: 'Name', Value: 'GTWC Europe' }, { Name: 'Year', Value: null }] });
    expect(updated).toMatchObject({ success: true, statusCode: 200 });
    expect((await admin.client.getChampionshipById(id)).returnValue?.Parameters).toEqual({ Name: 'GTWC Europe', Year: null, Description: null });

    expect(await admin.client.deleteChampionship(id)).toMatchObject({ success: true, statusCode: 204 });
    expect(await admin.client.getChampionshipById(id)).toMatchObject({ success: false, statusCode: 404 });
    expect(await admin.client.deleteChampionship(id)).toMatchObject({ success: false, statusCode: 404 });
  });

  test('when parametersToInclude names Name and Events.Name, then only those are returned, events nested', async () => {
    const c = (await admin.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'ELMS' }, { Name: 'Year', Value: '2026' }] })).returnValue!;
    const e = await admin.client.addEvent(c.Id, { ParameterUpdates: [{ Name: 'Name', Value: 'Monza' }, { Name: 'StartDate', Value: '2026-04-10T02:00:00+02:00' }] });
    expect(e.returnValue?.Parameters).toEqual({ Name: 'Monza', StartDate: '2026-04-10T00:00:00.000Z', EndDate: null, Venue: null });
    const projected = await admin.client.getChampionshipById(c.Id, 'Name,Events.Name');
    expect(projected.returnValue).toEqual({ Id: c.Id, Parameters: { Name: 'ELMS' }, Events: [{ Id: e.returnValue?.Id, Parameters: { Name: 'Monza' } }] });
    const bad = await admin.client.getChampionshipById(c.Id, 'Name,Events.Nope');
    expect(bad).toMatchObject({ success: false, statusCode: 400 });
    expect(bad.problem?.errors?.['parametersToInclude']?.[0]).toContain('Events.Nope');
  });

  test('when LastModifiedTimeMaxAllowedValue is older than the last write, then the update is a 409 and nothing changes', async () => {
    const c = (await admin.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'Before' }] })).returnValue!;
    const res = await fetch(`${stack.baseUrl}/Championships/${c.Id}`, {
      method: 'PUT',
      headers: json(admin),
      body: JSON.stringify({ lastModifiedTimeMaxAllowedValue: '2020-04-01T10:00:00.000Z', parameterUpdates: [{ name: 'Name', value: 'After' }] }),
    });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = await readJson(res);
    expect(problem).toMatchObject({ type: 'about:blank', title: 'Conflict', status: 409, instance: `/Championships/${c.Id}` });
    expect(problem.detail).toContain('after LastModifiedTimeMaxAllowedValue');
    expect((await admin.client.getChampionshipById(c.Id)).returnValue?.Parameters).toEqual({ Name: 'Before', Year: null, Description: null });

    const got = await fetch(`${stack.baseUrl}/Championships/${c.Id}`, { headers: json(admin) });
    const stamp = got.headers.get('x-last-modified-time') as string;
    const ok = await admin.client.updateChampionship(c.Id, { LastModifiedTimeMaxAllowedValue: stamp, ParameterUpdates: [{ Name: 'Name', Value: 'After' }] });
    expect(ok.statusCode).toBe(200);
    const stale = await admin.client.updateChampionship(c.Id, { LastModifiedTimeMaxAllowedValue: stamp, ParameterUpdates: [{ Name: 'Name', Value: 'Again' }] });
    expect(stale.statusCode).toBe(409);
  });
});

describe('validation (400, field named, nothing written)', () => {
  const put = (id: string, body: unknown) => fetch(`${stack.baseUrl}/Championships/${id}`, { method: 'PUT', headers: json(admin), body: JSON.stringify(body) });

  test.each([
    ['an unknown property', { ParameterUpdates: [{ Name: 'Name', Value: 'x' }], ParameterUpdate: [] }, 'ParameterUpdate', 'unknown property'],
    ['a wrong type', { ParameterUpdates: [{ Name: 'Name', Value: 42 }] }, 'ParameterUpdates[0].Value', ''],
    ['an unconvertible parameter value', { ParameterUpdates: [{ Name: 'Name', Value: 'x' }, { Name: 'Year', Value: 'next year' }] }, 'ParameterUpdates[1].Value', "Year is an Integer; 'next year' is not a whole number"],
    ['an unknown parameter name', { ParameterUpdates: [{ Name: 'Colour', Value: 'red' }] }, 'ParameterUpdates[0].Name', "Championships has no parameter named 'Colour'"],
  ])('when the body has %s, then 400 names the field and the entity is unchanged', async (_what, body, field, message) => {
    const c = (await admin.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'Untouched' }] })).returnValue!;
    const res = await put(c.Id, body);
    expect(res.status).toBe(400);
    const problem = await readJson(res);
    expect(problem.title).toBe('Bad Request');
    expect(Object.keys(problem.errors)).toEqual([field]);
    if (message) expect(problem.errors[field]).toEqual([message]);
    expect((await admin.client.getChampionshipById(c.Id)).returnValue?.Parameters).toEqual({ Name: 'Untouched', Year: null, Description: null });
  });

  test('when a create body is invalid, then nothing is created', async () => {
    const before = (await admin.client.getAllChampionships()).returnValue!.length;
    const res = await fetch(`${stack.baseUrl}/Championships`, { method: 'POST', headers: json(admin), body: JSON.stringify({ ParameterUpdates: [{ Name: 'Year', Value: '20x6' }] }) });
    expect(res.status).toBe(400);
    const malformed = await fetch(`${stack.baseUrl}/Championships`, { method: 'POST', headers: json(admin), body: '{"ParameterUpdates": [' });
    expect(malformed.status).toBe(400);
    expect((await readJson(malformed)).detail).toContain('not valid JSON');
    // Bytes that are not UTF-8 (a Latin-1 'é', a lone continuation byte) are refused, not stored as U+FFFD.
    for (const bad of [Buffer.from([0xe9]), Buffer.from([0xff, 0xfe]), Buffer.from([0xed, 0xa0, 0x80])]) {
      const body = Buffer.concat([Buffer.from('{"ParameterUpdates":[{"Name":"Name","Value":"Caf'), bad, Buffer.from('"}]}')]);
      const res = await fetch(`${stack.baseUrl}/Championships`, { method: 'POST', headers: json(admin), body });
      expect(res.status).toBe(400);
      expect(await readJson(res)).toMatchObject({ type: 'about:blank', status: 400, detail: 'The request body is not valid UTF-8' });
    }
    const notJson = await fetch(`${stack.baseUrl}/Championships`, { method: 'POST', headers: { ...json(admin), 'Content-Type': 'text/plain' }, body: 'hello' });
    expect(notJson.status).toBe(415);
    expect((await admin.client.getAllChampionships()).returnValue!.length).toBe(before);
    // The same body in UTF-8 is created.
    const utf8 = await fetch(`${stack.baseUrl}/Championships`, { method: 'POST', headers: json(admin), body: Buffer.from('{"ParameterUpdates":[{"Name":"Name","Value":"Café 🏁"}]}') });
    expect(utf8.status).toBe(201);
    expect((await readJson(utf8)).Parameters.Name).toBe('Café 🏁');
  });

  test('when parametersToInclude is oversized, then 400 names it', async () => {
    const many = Array.from({ length: 201 }, (_, i) => `P${i}`).join(',');
    const res = await fetch(`${stack.baseUrl}/Championships?parametersToInclude=${many}`, { headers: json(admin) });
    expect(res.status).toBe(400);
    expect(Object.keys((await readJson(res)).errors)).toEqual(['parametersToInclude']);
  });

  test('when a GET search body is sent as a form, then 415 instead of a misleading validation error', async () => {
    const res = await request(stack.baseUrl)
      .get('/Tyres/Search')
      .set({ ApiKey: admin.apiKey, AccountId: admin.accountId })
      .type('form')
      .send({ AssociatedModelSearchMode: '0' });
    expect(res.status).toBe(415);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  test('when the id in the path is not a GUID, then 400 names it', async () => {
    const res = await fetch(`${stack.baseUrl}/Championships/not-a-guid`, { headers: json(admin) });
    expect(res.status).toBe(400);
    expect((await readJson(res)).errors).toEqual({ id: ['is not a GUID'] });
  });

  test('when a GET carries the older wrappers\' {} body, then it is tolerated', async () => {
    const res = await request(stack.baseUrl).get('/Championships').set(json(admin)).send({});
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
  });
});

describe('request ids and service documents', () => {
  test('when X-Request-Id is sent, then it is echoed, is the problem traceId and reaches the entity-service log', async () => {
    const res = await fetch(`${stack.baseUrl}/Championships/00000000-0000-4000-8000-000000000000`, { headers: json(admin, { 'X-Request-Id': 'trace-me-123' }) });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('trace-me-123');
    expect((await readJson(res)).traceId).toBe('trace-me-123');
    // The id travelled over the bus into the entity-service's log line (its stdout reaches us a moment later).
    const entityLog = () => stack.stack.procs.find((p) => p.name === 'entity-service')?.output ?? '';
    for (const until = Date.now() + 5000; !entityLog().includes('trace-me-123') && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    expect(entityLog()).toContain('trace-me-123');
  });

  test('when no X-Request-Id is sent, then one is generated', async () => {
    const res = await fetch(`${stack.baseUrl}/Championships`, { headers: json(admin) });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('when the OpenAPI document and its page are asked for, then both answer without a key', async () => {
    const doc = await readJson(await fetch(`${stack.baseUrl}/swagger/v1/swagger.json`));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/Championships/{id}'].put.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/UpdateModel');
    expect(doc.paths['/RunSheets/{id}'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/RunSheet');
    expect(doc.paths['/Tyres/Search'].post.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Tyre' } });
    const page = await fetch(`${stack.baseUrl}/swagger`);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  test('when health is asked for, then liveness and readiness (with each dependency) answer', async () => {
    expect((await fetch(`${stack.baseUrl}/health`)).status).toBe(200);
    const ready = await readJson(await fetch(`${stack.baseUrl}/health/ready`));
    expect(ready).toEqual({ status: 'ready', dependencies: { database: 'up', cache: 'up', bus: 'up', 'entity-service': 'up', 'timing-service': 'up', 'simulation-service': 'up', 'datafile-service': 'up', blobStore: 'up' } });
  });
});
