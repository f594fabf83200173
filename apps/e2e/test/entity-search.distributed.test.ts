import { DistributedStack, type Member } from './support/distributed';
import { Api, EntityFactory, withNulls, type Answer } from './support/entities';

let stack: DistributedStack;
let admin: Member;
let api: Api;

beforeAll(async () => {
  stack = await DistributedStack.shared();
  admin = await stack.member('admin');
  api = new Api(stack.baseUrl, admin);
});
afterAll(async () => {
  await stack?.stop();
});

type Verb = 'GET' | 'POST';
const search = (a: Api, verb: Verb, plural: string, body: unknown, include?: string): Promise<Answer> => {
  const path = `/${plural}/Search${include ? `?parametersToInclude=${encodeURIComponent(include)}` : ''}`;
  return verb === 'GET' ? a.getWithBody(path, body) : a.send('POST', path, body);
};
const sorted = (list: { Id: string }[]) => list.map((e) => e.Id).sort();

/**
 * In a fresh account: a championship with an event, two cars, and four items of `plural`:
 * full (championship, event, car), eventOnly (event, other car), carOnly (car), bare (none).
 */
async function buildAssociations(plural: string) {
  const member = await stack.member('admin');
  const a = new Api(stack.baseUrl, member);
  const f = new EntityFactory(a);
  const event = await f.build('Events', { allParameters: false });
  const championshipId = event.parentIds['championshipId'] as string;
  const eventId = event.entity.Id;
  const carId = (await f.build('Cars', { allParameters: false })).entity.Id;
  const otherCarId = (await f.build('Cars', { allParameters: false })).entity.Id;
  const item = async (params: Record<string, string>) => (await f.build(plural, { allParameters: false, parameters: params })).entity.Id;
  const items = {
    full: await item({ ChampionshipId: championshipId, EventId: eventId, CarId: carId }),
    eventOnly: await item({ EventId: eventId, CarId: otherCarId }),
    carOnly: await item({ CarId: carId }),
    bare: await item({}),
  };
  return { member, api: a, championshipId, eventId, carId, items };
}

describe.each(['Tyres', 'IssueListIssues', 'AssemblyIterations'])('%s/Search', (plural) => {
  let world: Awaited<ReturnType<typeof buildAssociations>>;
  beforeAll(async () => {
    world = await buildAssociations(plural);
    // Another account's items with the same shape must never show up.
    await buildAssociations(plural);
  });

  describe.each<Verb>(['GET', 'POST'])('as %s with a JSON body', (verb) => {
    test.each([
      [0, 'the account', (w: typeof world) => ({ AccountId: w.member.accountId }), ['full', 'eventOnly', 'carOnly', 'bare']],
      [1, 'the championship', (w: typeof world) => ({ ChampionshipId: w.championshipId }), ['full']],
      [2, 'the event', (w: typeof world) => ({ EventId: w.eventId }), ['full', 'eventOnly']],
      [3, 'the car', (w: typeof world) => ({ CarId: w.carId }), ['full', 'carOnly']],
      [4, 'the event and car', (w: typeof world) => ({ EventId: w.eventId, CarId: w.carId }), ['full']],
    ] as const)('when AssociatedModelSearchMode is %i, then the items associated with %s are returned', async (mode, _what, ids, expected) => {
      const res = await search(world.api, verb, plural, { AssociatedModelSearchMode: mode, ...ids(world) });
      expect(res.status).toBe(200);
      expect(sorted(res.body)).toEqual(expected.map((k) => world.items[k]).sort());
    });

    test.each([
      [0, 'AccountId'],
      [1, 'ChampionshipId'],
      [2, 'EventId'],
      [3, 'CarId'],
      [4, 'CarId'],
    ])('when mode %i is sent without %s, then it is a 400 naming it', async (mode, missing) => {
      const body: Record<string, unknown> = { AssociatedModelSearchMode: mode, EventId: mode === 4 ? world.eventId : undefined };
      const res = await search(world.api, verb, plural, body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual([missing]);
    });

    test('when mode 0 names another account, then it is a 400 naming AccountId', async () => {
      const other = await stack.member('admin');
      const res = await search(world.api, verb, plural, { AssociatedModelSearchMode: 0, AccountId: other.accountId });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty('AccountId');
    });

    test('when another mode also names an account, then it must be the header\'s (null is not naming one)', async () => {
      const other = await stack.member('admin');
      const res = await search(world.api, verb, plural, { AssociatedModelSearchMode: 3, CarId: world.carId, AccountId: other.accountId });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ AccountId: ['must be the account named in the AccountId header'] });
      for (const AccountId of [world.member.accountId.toUpperCase(), null]) {
        const ok = await search(world.api, verb, plural, { AssociatedModelSearchMode: 3, CarId: world.carId, AccountId });
        expect(ok.status).toBe(200);
      }
    });
  });

  test('when parametersToInclude is given, then the results are projected', async () => {
    const res = await search(world.api, 'GET', plural, { AssociatedModelSearchMode: 4, EventId: world.eventId, CarId: world.carId }, 'Name,Car.Name');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(Object.keys(res.body[0].Parameters).sort()).toEqual(['Car', 'CarId', 'Name']);
    expect(res.body[0].Parameters.Car.Parameters).toHaveProperty('Name');
  });

  test('when the ids are upper-case, then they still match', async () => {
    const res = await search(world.api, 'POST', plural, { AssociatedModelSearchMode: 3, CarId: world.carId.toUpperCase() });
    expect(sorted(res.body)).toEqual([world.items.full, world.items.carOnly].sort());
  });

  test('when a non-member searches the account, then it is a 403', async () => {
    const outsider = await stack.member('admin');
    const res = await new Api(stack.baseUrl, { ...outsider, accountId: world.member.accountId }).send('POST', `/${plural}/Search`, { AssociatedModelSearchMode: 0, AccountId: world.member.accountId });
    expect(res.status).toBe(403);
  });
});

describe('GET /Tyres/Search (examples.md, Search)', () => {
  test('when parametersToInclude is *,TyreWearMeasurements.*, then each tyre comes with its measurements', async () => {
    const world = await buildAssociations('Tyres');
    const measurement = await world.api.create('TyreWearMeasurements', { tyreId: world.items.full }, { ParameterUpdates: [{ Name: 'TreadDepth', Value: '7.5' }] });
    const res = await search(world.api, 'GET', 'Tyres', { AssociatedModelSearchMode: 4, AccountId: world.member.accountId, EventId: world.eventId, CarId: world.carId }, '*,TyreWearMeasurements.*');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].Parameters).toMatchObject({ EventId: world.eventId, CarId: world.carId });
    expect(res.body[0].TyreWearMeasurements).toEqual([{ Id: measurement.body.Id, Parameters: withNulls('TyreWearMeasurements', { TreadDepth: 7.5 }), TyreWearMeasurementItems: [], AttachedFiles: [] }]);
  });
});

describe('Search of a type that is not searchable', () => {
  test.each(['Cars', 'Championships', 'Laps'])('when %s/Search is called with GET or POST, then it is a 404', async (plural) => {
    expect((await search(api, 'GET', plural, { AssociatedModelSearchMode: 0, AccountId: admin.accountId })).status).toBe(404);
    expect((await search(api, 'POST', plural, { AssociatedModelSearchMode: 0, AccountId: admin.accountId })).status).toBe(404);
  });
});

describe('Search body validation', () => {
  test('when the body has an unknown property or an unknown mode, then it is a 400 naming it', async () => {
    const typo = await search(api, 'POST', 'Tyres', { AssociatedModelSearchMode: 0, AccountId: admin.accountId, CarID2: 'x' });
    expect(typo.status).toBe(400);
    expect(typo.body.errors).toHaveProperty('CarID2');
    for (const [AssociatedModelSearchMode, message] of [[7, 'must be 0, 1, 2, 3 or 4 (a number)'], ['0', 'must be 0, 1, 2, 3 or 4 (a number)'], [1.5, 'must be 0, 1, 2, 3 or 4 (a number)'], [null, 'is required'], [undefined, 'is required']] as const) {
      const mode = await search(api, 'POST', 'Tyres', { AssociatedModelSearchMode, AccountId: admin.accountId });
      expect(mode.status).toBe(400);
      expect(mode.body.errors).toEqual({ AssociatedModelSearchMode: [message] });
    }
  });
});
