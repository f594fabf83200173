import { StackDatabase } from './support/database';
import { DistributedStack } from './support/distributed';
import { Api, EntityFactory, updates } from './support/entities';

let stack: DistributedStack;
let db: StackDatabase;

beforeAll(async () => {
  stack = await DistributedStack.shared();
  db = new StackDatabase(stack);
});
afterAll(async () => {
  await db?.close();
  await stack?.stop();
});

/** A fresh account with a championship holding one of everything under it. */
async function buildChampionshipTree() {
  const member = await stack.member('admin');
  const api = new Api(stack.baseUrl, member);
  const factory = new EntityFactory(api);
  const runSheet = await factory.build('RunSheets', { allParameters: false });
  const sessionId = runSheet.parentIds['sessionId'] as string;
  const carId = runSheet.parentIds['carId'] as string;
  const session = (await api.get('Sessions', sessionId)).body;
  const eventId = await eventOf(api, sessionId);
  const championshipId = (await api.list('Championships')).body[0].Id as string;
  const lap = (await api.create('Laps', { runSheetId: runSheet.entity.Id }, { ParameterUpdates: updates({ Name: 'Lap 1' }) })).body;
  const sector = (await api.create('LapSectors', { lapId: lap.Id }, { ParameterUpdates: updates({ Name: 'S1' }) })).body;
  const trap = (await api.create('LapSpeedTraps', { lapId: lap.Id }, { ParameterUpdates: updates({ Name: 'Trap' }) })).body;
  const setup = (await api.create('Setups', { eventId, carId }, { ParameterUpdates: updates({ Name: 'Setup A' }) })).body;
  const eventCarData = (await api.create('EventCarDatas', { eventId, carId }, {})).body;
  const sessionCarData = (await api.create('SessionCarDatas', { sessionId, carId }, {})).body;
  const eventCar = (await api.list('EventCars', { eventId })).body[0];
  await db.addAttachedFile(member.accountId, runSheet.entity.Id, { fileName: 'run.ld', groupName: 'DataFile_Logged', size: 10 });
  await db.addAttachedFile(member.accountId, lap.Id, { fileName: 'lap.ld', groupName: 'DataFile_Logged', size: 10 });
  const children: [string, string][] = [
    ['Events', eventId],
    ['Sessions', session.Id],
    ['EventCars', eventCar.Id],
    ['Setups', setup.Id],
    ['EventCarDatas', eventCarData.Id],
    ['SessionCarDatas', sessionCarData.Id],
    ['RunSheets', runSheet.entity.Id],
    ['Laps', lap.Id],
    ['LapSectors', sector.Id],
    ['LapSpeedTraps', trap.Id],
  ];
  return { member, api, championshipId, carId, children };
}

async function eventOf(api: Api, sessionId: string): Promise<string> {
  for (const c of (await api.list('Championships')).body)
    for (const e of (await api.list('Events', { championshipId: c.Id })).body) if ((await api.list('Sessions', { eventId: e.Id })).body.some((s: { Id: string }) => s.Id === sessionId)) return e.Id;
  throw new Error('no event');
}

describe('DELETE /Championships/{id}', () => {
  test('when a championship with events, sessions, run sheets, laps, sectors, event cars and setups is deleted, then every child is gone and no orphan row is left', async () => {
    const { member, api, championshipId, carId, children } = await buildChampionshipTree();
    // The run sheet's track configuration, driver, setup references live outside the championship: only the tree goes.
    const before = await db.countEntities(member.accountId);
    expect(await db.countAttachedFiles(member.accountId)).toBe(2);

    expect((await api.delete('Championships', championshipId)).status).toBe(204);

    for (const [plural, id] of children) expect([plural, (await api.get(plural, id)).status]).toEqual([plural, 404]);
    expect((await api.get('Cars', carId)).status).toBe(200);
    expect(await db.countEntities(member.accountId)).toBe(before - 1 - children.length);
    expect(await db.countAttachedFiles(member.accountId)).toBe(0);
    expect(await db.countOrphans()).toBe(0);
  });
});

describe('DELETE /Cars/{id}', () => {
  test('when a car entered in an event is deleted, then its EventCars, Setups, car data and RunSheets (with laps) go, the event and session stay', async () => {
    const { member, api, carId, children } = await buildChampionshipTree();
    const byType = Object.fromEntries(children);
    const before = await db.countEntities(member.accountId);

    expect((await api.delete('Cars', carId)).status).toBe(204);

    for (const plural of ['EventCars', 'Setups', 'EventCarDatas', 'SessionCarDatas', 'RunSheets', 'Laps', 'LapSectors', 'LapSpeedTraps']) expect([plural, (await api.get(plural, byType[plural] as string)).status]).toEqual([plural, 404]);
    for (const plural of ['Events', 'Sessions']) expect([plural, (await api.get(plural, byType[plural] as string)).status]).toEqual([plural, 200]);
    expect((await api.get('Events', byType['Events'] as string, 'Cars.*')).body.Cars).toEqual([]);
    expect(await db.countEntities(member.accountId)).toBe(before - 9);
    expect(await db.countOrphans()).toBe(0);
  });
});

describe('DELETE of an entity that others reference', () => {
  test('when an entity that others reference is deleted, then their references to it and to what went with it are cleared', async () => {
    const member = await stack.member('admin');
    const api = new Api(stack.baseUrl, member);
    const factory = new EntityFactory(api);
    const runSheet = await factory.build('RunSheets', { allParameters: false });
    const driver = (await api.create('Drivers', {}, { ParameterUpdates: updates({ Name: 'A. Driver' }) })).body;
    const track = (await api.create('Tracks', {}, { ParameterUpdates: updates({ Name: 'Monza' }) })).body;
    const configuration = (await api.create('TrackConfigurations', { trackId: track.Id }, { ParameterUpdates: updates({ Name: 'GP' }) })).body;
    const session = (await api.create('Sessions', { eventId: await eventOf(api, runSheet.parentIds['sessionId'] as string) }, { ParameterUpdates: updates({ Name: 'FP2', TrackConfigurationId: configuration.Id }) })).body;
    expect((await api.update('RunSheets', runSheet.entity.Id, { ParameterUpdates: updates({ DriverId: driver.Id, Name: 'Run 1' }) })).status).toBe(200);

    expect((await api.delete('Drivers', driver.Id)).status).toBe(204);
    // The track goes with its configuration: the session's reference to the configuration is cleared too.
    expect((await api.delete('Tracks', track.Id)).status).toBe(204);

    const read = await api.get('RunSheets', runSheet.entity.Id, 'Name,DriverId,Driver.*');
    expect(read.body.Parameters).toEqual({ Name: 'Run 1', DriverId: null, Driver: null });
    expect((await api.get('Sessions', session.Id, 'TrackConfigurationId')).body.Parameters).toEqual({ TrackConfigurationId: null, TrackConfiguration: null });
    expect(await db.countOrphans()).toBe(0);
  });
});
