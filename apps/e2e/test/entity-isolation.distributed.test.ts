import { ENTITY_TYPES, type EntityTypeDef } from '@pitwall/contracts';
import { StackDatabase } from './support/database';
import { DistributedStack } from './support/distributed';
import { Api, EntityFactory, TYPES_WITH_REFERENCES, updates, type Built } from './support/entities';

// Two accounts, each with its own admin: nothing one account holds may be seen, changed or used by the other.
let stack: DistributedStack;
let db: StackDatabase;
let owner: Api;
let intruder: Api;
let ownerFactory: EntityFactory;
let intruderFactory: EntityFactory;

beforeAll(async () => {
  stack = await DistributedStack.shared();
  db = new StackDatabase(stack);
  owner = new Api(stack.baseUrl, await stack.member('admin'));
  intruder = new Api(stack.baseUrl, await stack.member('admin'));
  ownerFactory = new EntityFactory(owner);
  intruderFactory = new EntityFactory(intruder);
});
afterAll(async () => {
  await db?.close();
  await stack?.stop();
});

const byName = (t: EntityTypeDef): [string, EntityTypeDef] => [t.plural, t];

// Users are read-only over the API (no entity to plant in another account); their refusals are in entity-crud.
describe.each(ENTITY_TYPES.filter((t) => !t.readOnly).map(byName))('%s of another account', (plural, type) => {
  let theirs: Built;
  beforeAll(async () => {
    theirs = await ownerFactory.build(plural);
  });

  test('when another account\'s member gets, updates or deletes it, then each is a 404 and it is unchanged', async () => {
    expect((await intruder.get(plural, theirs.entity.Id)).status).toBe(404);
    expect((await intruder.update(plural, theirs.entity.Id, { ParameterUpdates: updates({ Name: 'Mine_now' }) })).status).toBe(404);
    expect((await intruder.delete(plural, theirs.entity.Id)).status).toBe(404);
    const still = await owner.get(plural, theirs.entity.Id);
    expect(still.status).toBe(200);
    expect(still.body).toEqual(theirs.entity);
  });

  test('when another account\'s member lists by its parent ids or creates under them, then each is a 404', async () => {
    if (type.parents.length === 0) {
      const listed = await intruder.list(plural);
      expect(listed.status).toBe(200);
      expect(listed.body.map((e: { Id: string }) => e.Id)).not.toContain(theirs.entity.Id);
      return;
    }
    expect((await intruder.list(plural, theirs.parentIds)).status).toBe(404);
    for (const parent of type.parents) expect((await intruder.list(plural, { [parent.key]: theirs.parentIds[parent.key] as string })).status).toBe(404);
    const ownParents = await intruderFactory.parentsFor(type);
    // Every mix of own and foreign parents: any foreign one makes the parent chain unknown.
    for (const parent of type.parents) {
      const mixed = { ...ownParents, [parent.key]: theirs.parentIds[parent.key] as string };
      const created = await intruder.create(plural, mixed, { ParameterUpdates: updates({ Name: 'Sneaky' }) });
      expect(created.status).toBe(404);
    }
    expect((await owner.list(plural, theirs.parentIds)).body).toHaveLength(1);
  });
});

describe.each(TYPES_WITH_REFERENCES.filter((t) => t.plural !== 'EventCars').map(byName))('%s referencing another account\'s entity', (plural, type) => {
  test.each(type.parameters.filter((p) => p.type === 'Reference').map((p) => [p.name, p.references as string]))(
    'when %s names another account\'s %s, then create and update are a 400 naming the value and nothing is written',
    async (name, references) => {
      const foreign = await ownerFactory.build(references, { allParameters: false });
      const parentIds = await intruderFactory.parentsFor(type);
      const created = await intruder.create(plural, parentIds, { ParameterUpdates: updates({ Name: 'Ref', [name]: foreign.entity.Id }) });
      expect(created.status).toBe(400);
      expect(created.body.errors['ParameterUpdates[1].Value'][0]).toContain(name);
      if (type.parents.length) expect((await intruder.list(plural, parentIds)).body).toEqual([]);

      const mine = await intruderFactory.build(plural, { parentIds, allParameters: false });
      const updated = await intruder.update(plural, mine.entity.Id, { ParameterUpdates: updates({ [name]: foreign.entity.Id }) });
      expect(updated.status).toBe(400);
      expect(updated.body.errors['ParameterUpdates[0].Value'][0]).toContain(name);
      expect((await intruder.get(plural, mine.entity.Id)).body.Parameters).toHaveProperty(name, null);
    },
  );
});

describe('projections across accounts', () => {
  test('when an account\'s run sheet holds another account\'s SetupId (data written behind the API), then Setup.* reveals none of its parameters', async () => {
    const theirSetup = await ownerFactory.build('Setups');
    const myRunSheet = await intruderFactory.build('RunSheets', { allParameters: false });
    await db.setParameter(myRunSheet.entity.Id, 'SetupId', theirSetup.entity.Id);
    const res = await intruder.get('RunSheets', myRunSheet.entity.Id, 'Name,Setup.*');
    expect(res.status).toBe(200);
    expect(res.body.Parameters.Setup).toEqual({ Id: theirSetup.entity.Id, Parameters: {} });
    expect(JSON.stringify(res.body)).not.toContain(theirSetup.entity.Parameters['Name'] as string);
  });

  test('when an account\'s event car holds another account\'s CarId, then Events.Cars.Car.* reveals none of its parameters', async () => {
    const theirCar = await ownerFactory.build('Cars');
    const myEventCar = await intruderFactory.build('EventCars');
    await db.setParameter(myEventCar.entity.Id, 'CarId', theirCar.entity.Id);
    const eventId = myEventCar.parentIds['eventId'] as string;
    const championships = (await intruder.list('Championships', {}, 'Events.Cars.Car.*')).body;
    const event = championships.flatMap((c: { Events: { Id: string }[] }) => c.Events).find((e: { Id: string }) => e.Id === eventId);
    expect(event.Cars).toHaveLength(1);
    expect(event.Cars[0].Parameters.Car).toEqual({ Id: theirCar.entity.Id, Parameters: {} });
    expect(JSON.stringify(championships)).not.toContain(theirCar.entity.Parameters['Name'] as string);
  });

  test('when another account\'s member reads with a deep projection, then its own tree holds nothing of the other account', async () => {
    const theirs = await ownerFactory.build('EventCars');
    const mine = await intruderFactory.build('EventCars');
    const tree = await intruder.list('Championships', {}, '*,Events.*,Events.Cars.*,Events.Cars.Car.*,Events.Sessions.*');
    const text = JSON.stringify(tree.body);
    expect(text).toContain(mine.entity.Id);
    for (const id of [theirs.entity.Id, theirs.parentIds['eventId'] as string, theirs.parentIds['carId'] as string]) expect(text).not.toContain(id);
  });
});
