import { randomUUID } from 'node:crypto';
import { ENTITY_TYPES, collectionNamesOf, type EntityTypeDef } from '@pitwall/contracts';
import { Api, EntityFactory, withEntityStack, expectedEntity, suffix, updates, withNulls, type EntityStack } from './support/entities';

// The registry is the list of types: a type added there is covered here without editing this file.
let api: Api;
let factory: EntityFactory;
let fixture: EntityStack;
withEntityStack((f) => ({ api, factory } = fixture = f));

const byName = (t: EntityTypeDef): [string, EntityTypeDef] => [t.plural, t];

// Users are read-only (membership is the admin CLI's): their reads and refusals are tested below.
const WRITABLE_TYPES = ENTITY_TYPES.filter((t) => !t.readOnly);

describe.each(WRITABLE_TYPES.map(byName))('%s: get, list by parent ids, create, update, copy, delete', (plural, type) => {
  test('when created with a value for every built-in parameter, then the 201 body and a GET show them typed, with every collection', async () => {
    const built = await factory.build(plural);
    const expected = expectedEntity(type, built.entity.Id, built.samples);
    expect(built.entity).toEqual(expected);
    expect(built.entity.Id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const got = await api.get(plural, built.entity.Id);
    expect(got.status).toBe(200);
    expect(got.headers.get('x-last-modified-time')).toMatch(/Z$/);
    expect(got.body).toEqual(expected);
    expect(Object.keys(got.body).slice(2)).toEqual(collectionNamesOf(type));
    if (type.features.attachments) expect(got.body.AttachedFiles).toEqual([]);
    else expect(got.body).not.toHaveProperty('AttachedFiles');
  });

  test('when listed by its parent ids, then the list holds it and no sibling of another parent', async () => {
    const mine = await factory.build(plural, { allParameters: false });
    const other = await factory.build(plural, { allParameters: false });
    if (type.parents.length === 0) {
      const all = await api.list(plural);
      expect(all.status).toBe(200);
      expect(all.body.map((e: { Id: string }) => e.Id)).toEqual(expect.arrayContaining([mine.entity.Id, other.entity.Id]));
      return;
    }
    const both = await api.list(plural, mine.parentIds);
    expect(both.status).toBe(200);
    expect(both.body).toEqual([mine.entity]);
    for (const parent of type.parents) {
      const one = await api.list(plural, { [parent.key]: mine.parentIds[parent.key] as string });
      expect(one.status).toBe(200);
      expect(one.body.map((e: { Id: string }) => e.Id)).toEqual([mine.entity.Id]);
    }
    const none = await api.list(plural);
    expect(none.status).toBe(400);
  });

  test('when parent ids travel in the body instead of the query, then it is created under them', async () => {
    if (type.parents.length === 0) return;
    const { parentIds } = await factory.build(plural, { allParameters: false });
    // A second child under the same parents: event cars are unique per (event, car), so give them a new car.
    const parents = plural === 'EventCars' ? { ...parentIds, carId: (await factory.build('Cars', { allParameters: false })).entity.Id } : parentIds;
    const res = await api.send('POST', `/${plural}`, { ...parents, ParameterUpdates: updates({ Name: `Body ${suffix()}` }) });
    expect(res.status).toBe(201);
    const listed = await api.list(plural, parents);
    expect(listed.body.map((e: { Id: string }) => e.Id)).toContain(res.body.Id);
  });

  test('when parent ids travel in the query and the body, then the body must name the same parents', async () => {
    if (type.parents.length === 0) return;
    const { parentIds } = await factory.build(plural, { allParameters: false });
    // Event cars are unique per (event, car): each create enters another car.
    const parentsOfOne = async () => (plural === 'EventCars' ? { ...parentIds, carId: (await factory.build('Cars', { allParameters: false })).entity.Id } : parentIds);
    const parents = await parentsOfOne();
    const [key] = Object.keys(parents) as [string];
    const before = (await api.list(plural, parents)).body.length;
    const other = { ...parents, [key]: randomUUID() };
    for (const [body, message] of [
      [other, `the body's ${other[key]} is not the query's ${parents[key]!.toLowerCase()}`],
      [{ ...parents, [key]: 'nope' }, 'is not a GUID'],
      [{ ...parents, [key]: 42 }, 'must be a GUID string'],
      // Two spellings of one parent: which was meant is not guessed (the last had silently won).
      [{ ...parents, [`${key[0]!.toUpperCase()}${key.slice(1)}`]: other[key] }, 'must be given once'],
    ] as const) {
      const res = await api.create(plural, parents, { ...body, ParameterUpdates: updates({ Name: `Both ${suffix()}` }) });
      expect(res.status).toBe(400);
      expect(res.body.errors[key]).toEqual([message]);
    }
    expect((await api.list(plural, parents)).body).toHaveLength(before);
    // The same ids (in another case), or null as a wrapper sends an unset field, are the query's.
    const sameParents = await parentsOfOne();
    const same = await api.create(plural, sameParents, { ...Object.fromEntries(Object.entries(sameParents).map(([k, v]) => [k, v.toUpperCase()])), ParameterUpdates: updates({ Name: `Same ${suffix()}` }) });
    expect(same.status).toBe(201);
    const unsetParents = await parentsOfOne();
    const unset = await api.create(plural, unsetParents, { ...Object.fromEntries(Object.keys(unsetParents).map((k) => [k, null])), ParameterUpdates: updates({ Name: `Unset ${suffix()}` }) });
    expect(unset.status).toBe(201);
    // The nil GUID is a .NET model's unset Guid: not given either.
    const nilParents = await parentsOfOne();
    const nil = await api.create(plural, nilParents, { ...Object.fromEntries(Object.keys(nilParents).map((k) => [k, '00000000-0000-0000-0000-000000000000'])), ParameterUpdates: updates({ Name: `Nil ${suffix()}` }) });
    expect(nil.status).toBe(201);
  });

  test('when created with CopyFromId, then it holds the copied parameters with the ParameterUpdates applied after the copy', async () => {
    const source = await factory.build(plural);
    // Event cars are unique per (event, car): the copy enters another car, whose id its CarId then holds.
    const parents = plural === 'EventCars' ? { ...source.parentIds, carId: (await factory.build('Cars', { allParameters: false })).entity.Id } : source.parentIds;
    const name = `Copy_${suffix()}${plural === 'ParameterDefinitions' ? 'Id' : ''}`;
    const res = await api.create(plural, parents, { CopyFromId: source.entity.Id, ParameterUpdates: updates({ Name: name }) });
    expect(res.status).toBe(201);
    expect(res.body.Id).not.toBe(source.entity.Id);
    const expected = { ...source.entity.Parameters, Name: name };
    if (plural === 'EventCars') Object.assign(expected, { CarId: parents.carId, Car: { Id: parents.carId, Parameters: {} } });
    expect(res.body.Parameters).toEqual(expected);
    expect((await api.get(plural, res.body.Id)).body.Parameters).toEqual(expected);
  });

  test('when updated, then the change is read back and a parameter set to null reads back as null', async () => {
    const built = await factory.build(plural);
    // A math channel's Expression and a viewer layout's Layout are required: its Unit, or Description, is the optional one set to null.
    const optional = type.parameters.find((p) => p.type !== 'Reference' && p.name !== 'Name' && p.name !== 'Expression' && p.name !== 'Layout' && plural !== 'ParameterDefinitions');
    const res = await api.update(plural, built.entity.Id, { ParameterUpdates: updates({ Name: `Renamed_${suffix()}${plural === 'ParameterDefinitions' ? 'Id' : ''}`, ...(optional ? { [optional.name]: null } : {}) }) });
    expect(res.status).toBe(200);
    const got = await api.get(plural, built.entity.Id);
    expect(got.body.Parameters.Name).toMatch(/^Renamed_/);
    if (optional) expect(got.body.Parameters).toHaveProperty(optional.name, null);
    expect(Date.parse(got.headers.get('x-last-modified-time') as string)).toBeGreaterThan(0);
  });

  test('when deleted, then it answers 204 and is gone (404 on get, update and delete)', async () => {
    const built = await factory.build(plural, { allParameters: false });
    expect((await api.delete(plural, built.entity.Id)).status).toBe(204);
    expect((await api.get(plural, built.entity.Id)).status).toBe(404);
    expect((await api.update(plural, built.entity.Id, { ParameterUpdates: updates({ Name: 'x' }) })).status).toBe(404);
    expect((await api.delete(plural, built.entity.Id)).status).toBe(404);
    if (type.parents.length) expect((await api.list(plural, built.parentIds)).body).toEqual([]);
  });
});

describe.each(ENTITY_TYPES.filter((t) => t.readOnly).map(byName))('%s: read-only (the admin CLI manages membership)', (plural) => {
  /** The member names the list shows once the membership events went round (gateway outbox -> RabbitMQ -> entity-service). */
  const eventually = async (expected: string[]): Promise<unknown[]> => {
    const until = Date.now() + 20_000;
    for (;;) {
      const res = await api.list(plural);
      expect(res.status).toBe(200);
      const names = (res.body as { Parameters: { Name: string } }[]).map((u) => u.Parameters.Name).sort();
      if (JSON.stringify(names) === JSON.stringify([...expected].sort()) || Date.now() > until) {
        expect(names).toEqual([...expected].sort());
        return res.body as unknown[];
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  test('when members are added to and removed from the account (as the admin CLI does), then the list follows: each member one entity with Name and Email', async () => {
    const admin = (await fixture.stack.auth.getUser(fixture.admin.userId))?.name as string;
    await eventually([admin]);
    const name = `engineer-${suffix()}`;
    const user = await fixture.stack.auth.createUser(name, `${name}@example.com`);
    await fixture.stack.auth.addMembership(fixture.admin.accountId, user.id, 'reader');
    const users = (await eventually([admin, name])) as { Id: string; Parameters: Record<string, unknown> }[];
    const added = users.find((u) => u.Parameters['Name'] === name) as { Id: string; Parameters: Record<string, unknown> };
    expect(added.Parameters).toEqual({ Name: name, Email: `${name}@example.com` });
    expect((await api.get(plural, added.Id)).body).toMatchObject({ Id: added.Id, Parameters: { Name: name } });

    await fixture.stack.auth.removeMembership(fixture.admin.accountId, user.id);
    await eventually([admin]);
    expect((await api.get(plural, added.Id)).status).toBe(404);
  });

  test('when created, updated or deleted, then it is a 403 saying why, and nothing is written', async () => {
    const admin = (await fixture.stack.auth.getUser(fixture.admin.userId))?.name as string;
    const before = await eventually([admin]);
    const id = (before[0] as { Id: string }).Id;
    for (const res of [await api.create(plural, {}, { ParameterUpdates: updates({ Name: 'Intruder' }) }), await api.update(plural, id, { ParameterUpdates: updates({ Name: 'x' }) }), await api.delete(plural, id)]) {
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.detail).toMatch(/read-only.*admin CLI/);
    }
    expect((await api.list(plural)).body).toEqual(before);
  });
});

describe('EventCars and entered cars', () => {
  test('when a car is entered twice in the same event, then the second is a 409', async () => {
    const { parentIds } = await factory.build('EventCars', { allParameters: false });
    const again = await api.create('EventCars', parentIds, {});
    expect(again.status).toBe(409);
  });

  test("when an entered car's CarId is changed, directly or as an item of the event's Cars, then 400 names that ParameterUpdate", async () => {
    const { entity, parentIds } = await factory.build('EventCars', { allParameters: false });
    const other = await factory.build('Cars', { allParameters: false });
    const direct = await api.update('EventCars', entity.Id, { ParameterUpdates: updates({ Name: 'Renamed', CarId: other.entity.Id }) });
    expect(direct.status).toBe(400);
    expect(direct.body.errors).toEqual({ 'ParameterUpdates[1].Value': ['CarId is the entered car (carId) and cannot be changed'] });
    const item = await api.update('Events', parentIds['eventId'] as string, { CollectionUpdateModels: { Cars: [{ Id: entity.Id, ParameterUpdates: updates({ CarId: other.entity.Id }) }] } });
    expect(item.status).toBe(400);
    expect(item.body.errors).toEqual({ 'CollectionUpdateModels.Cars[0].ParameterUpdates[0].Value': ['CarId is the entered car (carId) and cannot be changed'] });
    expect((await api.get('EventCars', entity.Id)).body.Parameters.CarId).toBe(parentIds['carId']);
  });

  test.each(ENTITY_TYPES.filter((t) => t.requiresEventCar).map(byName))('when a %s is created for a car not entered in the event, then it is a 400 naming carId', async (plural, type) => {
    const firstParent = await factory.build((type.parents[0] as { type: string }).type, { allParameters: false });
    const car = await factory.build('Cars', { allParameters: false });
    const res = await api.create(plural, { [(type.parents[0] as { key: string }).key]: firstParent.entity.Id, carId: car.entity.Id }, {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('carId');
  });
});

describe('validation that needs both the gateway and the entity-service (examples.md, Validation)', () => {
  test('when the body has an unknown property and an unconvertible value, then one 400 names both and nothing is written', async () => {
    const event = await factory.build('Events');
    const res = await api.update('Events', event.entity.Id, { ParameterUpdates: [{ Name: 'StartDate', Value: 'next tuesday' }], ParameterUpdate: [] });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ title: 'Bad Request', status: 400, detail: 'The request body is not valid', instance: `/Events/${event.entity.Id}` });
    expect(res.body.errors).toEqual({
      ParameterUpdate: ['unknown property'],
      'ParameterUpdates[0].Value': ["StartDate is a DateTime; 'next tuesday' is not an ISO 8601 date"],
    });
    expect((await api.get('Events', event.entity.Id)).body).toEqual(event.entity);
  });

  test('when the body has only an unknown property, then it is a 400 naming it and nothing is written', async () => {
    const event = await factory.build('Events');
    const put = await api.update('Events', event.entity.Id, { ParameterUpdates: updates({ Name: 'Changed' }), parameterUpdatez: [] });
    expect(put.status).toBe(400);
    expect(put.body.errors).toEqual({ parameterUpdatez: ['unknown property'] });
    expect((await api.get('Events', event.entity.Id)).body).toEqual(event.entity);
    const post = await api.create('Events', event.parentIds, { ParameterUpdates: updates({ Name: 'New', Year: '2026' }), CopyFromLst: true });
    expect(post.status).toBe(400);
    expect(post.body.errors).toEqual({ CopyFromLst: ['unknown property'], 'ParameterUpdates[1].Name': ["Events has no parameter named 'Year'"] });
    expect((await api.list('Events', event.parentIds)).body).toHaveLength(1);
  });
});

describe('POST /Events (examples.md, Create)', () => {
  test('when an event is created, then the 201 body is exactly the example: Sessions, Cars and AttachedFiles', async () => {
    const championship = await factory.build('Championships', { allParameters: false });
    const res = await api.create('Events', { championshipId: championship.entity.Id }, { ParameterUpdates: updates({ Name: 'Monza', StartDate: '2026-04-10T00:00:00.000Z' }) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ Id: res.body.Id, Parameters: withNulls('Events', { Name: 'Monza', StartDate: '2026-04-10T00:00:00.000Z' }), Sessions: [], Cars: [], AttachedFiles: [] });
    expect(Object.keys(res.body)).toEqual(['Id', 'Parameters', 'Sessions', 'Cars', 'AttachedFiles']);
  });
});
