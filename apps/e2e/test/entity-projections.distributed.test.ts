import { StackDatabase } from './support/database';
import { DistributedStack, type Member } from './support/distributed';
import { Api, EntityFactory, suffix, updates } from './support/entities';

let stack: DistributedStack;
let db: StackDatabase;
let admin: Member;
let api: Api;
let factory: EntityFactory;

beforeAll(async () => {
  stack = await DistributedStack.shared();
  db = new StackDatabase(stack);
  admin = await stack.member('admin');
  api = new Api(stack.baseUrl, admin);
  factory = new EntityFactory(api);
});
afterAll(async () => {
  await db?.close();
  await stack?.stop();
});

/** A run sheet with a driver, a setup and two laps. */
async function buildRunSheet() {
  const runSheet = await factory.build('RunSheets');
  const laps = [];
  for (const n of [0, 1]) laps.push((await api.create('Laps', { runSheetId: runSheet.entity.Id }, { ParameterUpdates: updates({ Name: `Lap ${n}`, StintLapNumber: `${n}`, LapTime: `${91 + n}.25` }) })).body);
  return { runSheet, laps };
}

describe('GET /RunSheets/{id} with parametersToInclude', () => {
  test('when it is absent or *, then every parameter, references as {Id, Parameters: {}} and empty collections', async () => {
    const { runSheet } = await buildRunSheet();
    const absent = await api.get('RunSheets', runSheet.entity.Id);
    const star = await api.get('RunSheets', runSheet.entity.Id, '*');
    expect(star.body).toEqual(absent.body);
    expect(star.body.Laps).toEqual([]);
    expect(star.body.AttachedFiles).toEqual([]);
    const driverId = runSheet.entity.Parameters['DriverId'];
    expect(star.body.Parameters.Driver).toEqual({ Id: driverId, Parameters: {} });
    expect(star.body.Parameters.PitInTime).toBe('2026-04-10T12:03:07.250Z');
    expect(star.body.Parameters.PitInSessionTime).toBe(12.5);
  });

  test('when it is Laps.LapTime, then the laps are populated, each with only LapTime, in order', async () => {
    const { runSheet, laps } = await buildRunSheet();
    const res = await api.get('RunSheets', runSheet.entity.Id, 'Laps.LapTime');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Id: runSheet.entity.Id, Parameters: {}, Laps: laps.map((l, i) => ({ Id: l.Id, Parameters: { LapTime: 91.25 + i } })) });
  });

  test('when it is Setup.*, then the referenced setup is nested with all its parameters', async () => {
    const { runSheet } = await buildRunSheet();
    const setupId = runSheet.entity.Parameters['SetupId'] as string;
    const setup = (await api.get('Setups', setupId)).body;
    const res = await api.get('RunSheets', runSheet.entity.Id, 'Name,Setup.*');
    expect(res.body).toEqual({ Id: runSheet.entity.Id, Parameters: { Name: runSheet.entity.Parameters['Name'], SetupId: setupId, Setup: { Id: setupId, Parameters: setup.Parameters } } });
  });

  test('when it names parameters of a reference (Driver.ShortName), then only those are nested', async () => {
    const { runSheet } = await buildRunSheet();
    const res = await api.get('RunSheets', runSheet.entity.Id, 'Driver.ShortName');
    const driverId = runSheet.entity.Parameters['DriverId'] as string;
    const driver = (await api.get('Drivers', driverId)).body;
    expect(res.body.Parameters).toEqual({ DriverId: driverId, Driver: { Id: driverId, Parameters: { ShortName: driver.Parameters.ShortName } } });
  });

  test('when it is AttachedFiles.*, then the attached file records come with every field; AttachedFiles.FileName only that', async () => {
    const { runSheet } = await buildRunSheet();
    const fileId = await db.addAttachedFile(admin.accountId, runSheet.entity.Id, { fileName: 'monza_r3.ld', groupName: 'DataFile_Logged', size: 1234 });
    const all = await api.get('RunSheets', runSheet.entity.Id, 'AttachedFiles.*');
    expect(all.body).toEqual({
      Id: runSheet.entity.Id,
      Parameters: {},
      AttachedFiles: [
        {
          Id: fileId,
          Parameters: { FileName: 'monza_r3.ld', FileSize: 1234, UseCompression: true, ServerAttachedFileState: 2, AttachedFileGroupName: 'DataFile_Logged', CreatedTime: '2026-04-12T12:03:07.250Z' },
        },
      ],
    });
    const one = await api.get('RunSheets', runSheet.entity.Id, 'Name,AttachedFiles.FileName');
    expect(one.body.AttachedFiles).toEqual([{ Id: fileId, Parameters: { FileName: 'monza_r3.ld' } }]);
  });

  test.each([
    ['Nope', 'Nope'],
    ['Laps.Nope', 'Laps.Nope'],
    ['Name,Laps.LapTime.Seconds', 'Laps.LapTime.Seconds'],
    ['Setup.Nope', 'Setup.Nope'],
    ['AttachedFiles.*.x', 'AttachedFiles.*.x'],
    ['Laps.AttachedFiles.Nope', 'Laps.AttachedFiles.Nope'],
    // Every type has attachments now (the real system's 52 attachment paths), so a nested AttachedFiles is valid; its unknown fields are not.
    ['Laps.LapSectors.AttachedFiles.Size', 'Laps.LapSectors.AttachedFiles.Size'],
  ])('when it is %s, then it is a 400 naming %s', async (include, named) => {
    const { runSheet } = await buildRunSheet();
    const res = await api.get('RunSheets', runSheet.entity.Id, include);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.errors.parametersToInclude[0]).toContain(`'${named}'`);
  });

  test('when several paths are unknown, then one 400 names each', async () => {
    const { runSheet } = await buildRunSheet();
    const res = await api.get('RunSheets', runSheet.entity.Id, 'Bogus,Name,Laps.Nope,Setup.*');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ parametersToInclude: ["unknown property path 'Bogus'", "unknown property path 'Laps.Nope'"] });
    expect(res.body.detail).toBe("parametersToInclude names unknown property paths: 'Bogus', 'Laps.Nope'");
  });
});

describe('GET /Championships with Events.Cars.Car.*', () => {
  test('when a car is entered in an event, then each event lists its cars with the referenced Car nested with all parameters', async () => {
    const eventCar = await factory.build('EventCars');
    const eventId = eventCar.parentIds['eventId'] as string;
    const carId = eventCar.parentIds['carId'] as string;
    const car = (await api.get('Cars', carId)).body;
    const championships = (await api.list('Championships', {}, 'Events.Cars.Car.*')).body;
    const championship = championships.find((c: { Events: { Id: string }[] }) => c.Events.some((e) => e.Id === eventId));
    expect(championship).toEqual({ Id: championship.Id, Parameters: {}, Events: [{ Id: eventId, Parameters: {}, Cars: [{ Id: eventCar.entity.Id, Parameters: { CarId: carId, Car: { Id: carId, Parameters: car.Parameters } } }] }] });
    // The real system's x['Parameters']['Car']['Parameters']['Number'].
    expect(championship.Events[0].Cars[0].Parameters.Car.Parameters.Number).toBe(car.Parameters.Number);
  });

  test('when it is Events.Cars.Car.Number, then the nested car carries only Number', async () => {
    const eventCar = await factory.build('EventCars');
    const res = await api.get('Events', eventCar.parentIds['eventId'] as string, 'Cars.Car.Number');
    const car = (await api.get('Cars', eventCar.parentIds['carId'] as string)).body;
    expect(res.body.Cars[0].Parameters.Car).toEqual({ Id: car.Id, Parameters: { Number: car.Parameters.Number } });
  });
});

describe('custom parameters in projection paths', () => {
  test('when an account defines FuelAdded and a TyreSetId reference on RunSheets, then FuelAdded, Runs.FuelAdded and TyreSet.* project them', async () => {
    const s = suffix().replace(/[^a-z0-9]/gi, '');
    const fuel = `FuelAdded${s}`;
    const tyreRef = `TyreSet${s}Id`;
    const definitions: Record<string, string>[] = [
      { Name: fuel, EntityType: 'RunSheets', ParameterType: 'Double', Unit: 'l' },
      { Name: tyreRef, EntityType: 'RunSheets', ParameterType: 'Reference', ReferencedEntityType: 'Tyres' },
    ];
    for (const def of definitions)
      expect((await api.create('ParameterDefinitions', {}, { ParameterUpdates: updates(def) })).status).toBe(201);
    const tyre = await factory.build('Tyres', { allParameters: false });
    const { runSheet } = await buildRunSheet();
    expect((await api.update('RunSheets', runSheet.entity.Id, { ParameterUpdates: updates({ [fuel]: '42.5', [tyreRef]: tyre.entity.Id }) })).status).toBe(200);

    expect((await api.get('RunSheets', runSheet.entity.Id, fuel)).body.Parameters).toEqual({ [fuel]: 42.5 });
    const nested = await api.get('RunSheets', runSheet.entity.Id, `${tyreRef.slice(0, -2)}.*`);
    expect(nested.body.Parameters).toEqual({ [tyreRef]: tyre.entity.Id, [tyreRef.slice(0, -2)]: { Id: tyre.entity.Id, Parameters: tyre.entity.Parameters } });
    const session = await api.get('Sessions', runSheet.parentIds['sessionId'] as string, `RunSheets.${fuel}`);
    expect(session.body.RunSheets).toEqual([{ Id: runSheet.entity.Id, Parameters: { [fuel]: 42.5 } }]);
    // A custom parameter is the account's own: on another type the name is unknown.
    expect((await api.get('Sessions', runSheet.parentIds['sessionId'] as string, fuel)).status).toBe(400);
  });
});
