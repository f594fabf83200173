import { ENTITY_TYPES } from '@pitwall/contracts';
import { Api, EntityFactory, withEntityStack, suffix, updates, withNulls } from './support/entities';

// wire.md §3, §3b and §4 as the official wrappers and examples exercise them, through the gateway.
let api: Api;
let factory: EntityFactory;
withEntityStack((f) => ({ api, factory } = f));

/** A run sheet with its session, car (entered in the event) and parents. */
async function runSheet(): Promise<{ id: string; sessionId: string; carId: string }> {
  const built = await factory.build('RunSheets', { allParameters: false });
  return { id: built.entity.Id, sessionId: built.parentIds['sessionId'] as string, carId: built.parentIds['carId'] as string };
}

describe('GET with parametersToInclude: a requested parameter is always present (wire.md §4)', () => {
  test('when a lap has no LapTime yet, then Laps.LapTime gives it as null, as runsheet_laps indexes it', async () => {
    const run = await runSheet();
    const timed = await api.create('Laps', { runSheetId: run.id }, { ParameterUpdates: updates({ Name: 'Lap 1', StintLapNumber: '1', LapTime: '91.5' }) });
    const untimed = await api.create('Laps', { runSheetId: run.id }, { ParameterUpdates: updates({ Name: 'Lap 2', StintLapNumber: '2' }) });
    const res = await api.get('RunSheets', run.id, 'Laps.LapTime');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      Id: run.id,
      Parameters: {},
      Laps: [
        { Id: timed.body.Id, Parameters: { LapTime: 91.5 } },
        { Id: untimed.body.Id, Parameters: { LapTime: null } },
      ],
    });
    // The script's loop: lap['Parameters']['LapTime'] for every lap of every run of the session.
    const runs = await api.list('RunSheets', { sessionId: run.sessionId, carId: run.carId }, 'Name,Laps.LapTime,Laps.StintLapNumber');
    const times = runs.body.flatMap((r: { Laps: { Parameters: Record<string, unknown> }[] }) => r.Laps.map((lap) => [lap.Parameters['StintLapNumber'], lap.Parameters['LapTime']]));
    expect(times).toEqual([
      [1, 91.5],
      [2, null],
    ]);
  });

  test('when a read asks for every parameter (absent or *), then built-in and custom parameters without a value are null', async () => {
    const fuel = `Fuel${suffix()}`;
    const def = await api.create('ParameterDefinitions', {}, { ParameterUpdates: updates({ Name: fuel, EntityType: 'RunSheets', ParameterType: 'Double' }) });
    expect(def.status).toBe(201);
    const run = await runSheet();
    for (const include of [undefined, '*']) {
      const res = await api.get('RunSheets', run.id, include);
      expect(res.status).toBe(200);
      expect(res.body.Parameters).toEqual(withNulls('RunSheets', { Name: expect.any(String), [fuel]: null }));
    }
    expect((await api.get('RunSheets', run.id, `${fuel},PitInTime`)).body.Parameters).toEqual({ [fuel]: null, PitInTime: null });
  });

  test('when a requested reference is unset, then its id is null, and so is the entity asked for beside it (get_run_setups reads SetupId)', async () => {
    const run = await runSheet();
    const res = await api.get('RunSheets', run.id, 'SetupId,Driver.Name');
    expect(res.status).toBe(200);
    expect(res.body.Parameters).toEqual({ SetupId: null, Setup: null, DriverId: null, Driver: null });
  });
});

describe('Id paths in parametersToInclude (wire.md §4)', () => {
  test('when Id,Events is asked of a championship, then it answers its Id and its events, and no parameter', async () => {
    const event = await factory.build('Events', { allParameters: false });
    const championshipId = event.parentIds['championshipId'] as string;
    const res = await api.get('Championships', championshipId, 'Id,Events');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Id: championshipId, Parameters: {}, Events: [event.entity] });
  });

  test("when Cars,Cars.Car.Id is asked of an event (the wrapper's own test), then each entered car carries its Car's Id", async () => {
    const eventCar = await factory.build('EventCars', { allParameters: false });
    const { eventId, carId } = eventCar.parentIds as { eventId: string; carId: string };
    const res = await api.get('Events', eventId, 'Cars,Cars.Car.Id');
    expect(res.status).toBe(200);
    expect(res.body.Cars).toEqual([{ ...eventCar.entity, Parameters: { ...eventCar.entity.Parameters, CarId: carId, Car: { Id: carId, Parameters: {} } } }]);
  });

  test('when a path ends in an unknown name after Id, then it is still a 400 naming it', async () => {
    const event = await factory.build('Events', { allParameters: false });
    const res = await api.get('Events', event.entity.Id, 'Id.Name');
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("'Id.Name'");
  });
});

describe('DateTime and Enum as the wrappers write them (wire.md §3)', () => {
  test.each([
    ['no offset (UTC)', '2026-04-10T14:03:07', '2026-04-10T14:03:07.000Z'],
    ['7 fractional digits (.NET round trip)', '2026-04-10T14:03:07.1234567Z', '2026-04-10T14:03:07.123Z'],
    ['7 digits and an offset', '2026-04-10T14:03:07.1234567+02:00', '2026-04-10T12:03:07.123Z'],
    ["the Python wrapper's ';' before the fraction", '2026-04-10T14:03:07;123456Z', '2026-04-10T14:03:07.123Z'],
  ])('when a DateTime is sent with %s, then it reads back as UTC with milliseconds', async (_what, raw, typed) => {
    const event = await factory.build('Events', { parameters: { StartDate: raw } });
    expect(event.entity.Parameters['StartDate']).toBe(typed);
    expect((await api.get('Events', event.entity.Id, 'StartDate')).body.Parameters).toEqual({ StartDate: typed });
  });

  test("when LastModifiedTimeMaxAllowedValue is in the Python wrapper's ';' form, then it is honoured: 409 before the last change, 200 after", async () => {
    const event = await factory.build('Events', { allParameters: false });
    const modified = new Date(Date.parse((await api.get('Events', event.entity.Id)).headers.get('x-last-modified-time') as string));
    const python = (d: Date) => `${d.toISOString().slice(0, 19)};${String(d.getUTCMilliseconds()).padStart(3, '0')}000Z`;
    const stale = await api.update('Events', event.entity.Id, { LastModifiedTimeMaxAllowedValue: python(new Date(modified.getTime() - 1000)), ParameterUpdates: updates({ Name: 'Stale' }) });
    expect(stale.status).toBe(409);
    const fresh = await api.update('Events', event.entity.Id, { LastModifiedTimeMaxAllowedValue: python(new Date(modified.getTime() + 1000)), ParameterUpdates: updates({ Name: 'Fresh' }) });
    expect(fresh.status).toBe(200);
    // .NET's form: no offset, 7 digits.
    const later = new Date(Date.now() + 60_000).toISOString().replace('Z', '0000');
    expect((await api.update('Events', event.entity.Id, { LastModifiedTimeMaxAllowedValue: later, ParameterUpdates: updates({ Name: 'Later' }) })).status).toBe(200);
    expect((await api.get('Events', event.entity.Id, 'Name')).body.Parameters).toEqual({ Name: 'Later' });
  });

  test('when LastModifiedTimeMaxAllowedValue is not a date-time, then it is a 400 naming it', async () => {
    const event = await factory.build('Events', { allParameters: false });
    const res = await api.update('Events', event.entity.Id, { LastModifiedTimeMaxAllowedValue: '2026-02-30T10:00:00;000000Z', ParameterUpdates: updates({ Name: 'x' }) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('LastModifiedTimeMaxAllowedValue');
  });

  test('when an Enum is sent as its 0-based index, then it stores the value; an index out of range is a 400 naming the value', async () => {
    const event = await factory.build('Events', { allParameters: false });
    const ok = await api.create('AmbientMeasurements', { eventId: event.entity.Id }, { ParameterUpdates: updates({ AmbientMeasurementDataSource: '2' }) });
    expect(ok.status).toBe(201);
    expect(ok.body.Parameters.AmbientMeasurementDataSource).toBe('Imported');
    const bad = await api.create('AmbientMeasurements', { eventId: event.entity.Id }, { ParameterUpdates: updates({ Name: 'x', AmbientMeasurementDataSource: '4' }) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty(['ParameterUpdates[1].Value']);
  });
});

describe("the wrappers' request shapes", () => {
  test('when a create carries every CreateModel field in PascalCase and a GET carries {}, then both are accepted', async () => {
    const res = await api.send('POST', '/Championships', { CopyFromId: null, CopyFromLast: false, CopyAll: false, Index: null, ParameterUpdates: [{ Name: 'Name', Value: 'GTWC' }, { Name: 'Description', Value: 'Sprint and endurance' }] });
    expect(res.status).toBe(201);
    const got = await api.getWithBody(`/Championships/${res.body.Id}?parametersToInclude=Name,Description`, {});
    expect(got.status).toBe(200);
    expect(got.body.Parameters).toEqual({ Name: 'GTWC', Description: 'Sprint and endurance' });
    const listed = await api.getWithBody('/Championships?parametersToInclude=Id', {});
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual({ Id: res.body.Id, Parameters: {} });
  });
});

describe('the real system types of wire.md §3b', () => {
  test('when write_weather_data writes an event\'s weather, then it is listed by eventId with typed values', async () => {
    const event = await factory.build('Events', { allParameters: false });
    const res = await api.send('POST', `/AmbientMeasurements?eventId=${event.entity.Id}`, {
      CopyFromId: null,
      CopyFromLast: false,
      CopyAll: false,
      Index: null,
      ParameterUpdates: updates({ MeasurementTime: '2026-04-10T14:00:00;000000Z', AirTemperature: '21.5', TrackTemperature: '34', WindSpeed: '3.2', AmbientMeasurementDataSource: '2' }),
    });
    expect(res.status).toBe(201);
    const listed = await api.list('AmbientMeasurements', { eventId: event.entity.Id });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([res.body]);
    expect(res.body.Parameters).toEqual(
      withNulls('AmbientMeasurements', { MeasurementTime: '2026-04-10T14:00:00.000Z', AirTemperature: 21.5, TrackTemperature: 34, WindSpeed: 3.2, AmbientMeasurementDataSource: 'Imported' }),
    );
    // An event lists only Sessions and Cars (examples.md): its weather is read by eventId.
    expect(Object.keys((await api.get('Events', event.entity.Id)).body)).toEqual(['Id', 'Parameters', 'Sessions', 'Cars', 'AttachedFiles']);
  });

  test('when tyre_wear_measurements reads a tyre with its measurements and their items, then the nesting is there and deleting the tyre removes them', async () => {
    const tyre = await factory.build('Tyres', { allParameters: false });
    const measurement = await api.create('TyreWearMeasurements', { tyreId: tyre.entity.Id }, { ParameterUpdates: updates({ Name: 'After FP1', TreadDepth: '6.5' }) });
    const items = [];
    for (const [position, depth] of [
      ['Inner', '6.4'],
      ['Middle', '6.6'],
      ['Outer', '6.1'],
    ])
      items.push((await api.create('TyreWearMeasurementItems', { tyreWearMeasurementId: measurement.body.Id }, { ParameterUpdates: updates({ Position: position as string, Depth: depth as string }) })).body);
    const res = await api.get('Tyres', tyre.entity.Id, 'Name,TyreWearMeasurements.Name,TyreWearMeasurements.TyreWearMeasurementItems.*');
    expect(res.status).toBe(200);
    expect(res.body.TyreWearMeasurements).toHaveLength(1);
    const read = res.body.TyreWearMeasurements[0];
    expect(read.TyreWearMeasurementItems.map((i: { Parameters: Record<string, unknown> }) => [i.Parameters['Position'], i.Parameters['Depth']])).toEqual([
      ['Inner', 6.4],
      ['Middle', 6.6],
      ['Outer', 6.1],
    ]);
    expect(read.TyreWearMeasurementItems[0].Parameters).toEqual(withNulls('TyreWearMeasurementItems', { Position: 'Inner', Depth: 6.4 }));

    expect((await api.delete('Tyres', tyre.entity.Id)).status).toBe(204);
    expect((await api.get('TyreWearMeasurements', measurement.body.Id)).status).toBe(404);
    for (const item of items) expect((await api.get('TyreWearMeasurementItems', item.Id)).status).toBe(404);
  });

  test("when an event car is given a SetupDefinitionId and a championship a Description, then they read back", async () => {
    const eventCar = await factory.build('EventCars', { allParameters: false });
    const setupDefinitionId = '3d1c2b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    expect((await api.update('EventCars', eventCar.entity.Id, { ParameterUpdates: updates({ SetupDefinitionId: setupDefinitionId }) })).status).toBe(200);
    expect((await api.get('EventCars', eventCar.entity.Id, 'SetupDefinitionId')).body.Parameters).toEqual({ SetupDefinitionId: setupDefinitionId });
    const championship = await factory.build('Championships', { parameters: { Description: 'Endurance' } });
    expect((await api.get('Championships', championship.entity.Id, 'Description')).body.Parameters).toEqual({ Description: 'Endurance' });
  });

  test('when tyres are searched with a TyreSpecificationId, then only the tyres of that specification answer', async () => {
    const soft = await factory.build('TyreSpecifications', { allParameters: false });
    const hard = await factory.build('TyreSpecifications', { allParameters: false });
    const car = await factory.build('Cars', { allParameters: false });
    const onSoft = await factory.build('Tyres', { allParameters: false, parameters: { TyreSpecificationId: soft.entity.Id, CarId: car.entity.Id } });
    const onHard = await factory.build('Tyres', { allParameters: false, parameters: { TyreSpecificationId: hard.entity.Id, CarId: car.entity.Id } });
    const ids = (body: { Id: string }[]) => body.map((t) => t.Id);
    const byCar = await api.getWithBody('/Tyres/Search?parametersToInclude=Id', { AssociatedModelSearchMode: 3, CarId: car.entity.Id });
    expect(ids(byCar.body).sort()).toEqual([onSoft.entity.Id, onHard.entity.Id].sort());
    const softOnly = await api.getWithBody('/Tyres/Search?parametersToInclude=TyreSpecificationId', { AssociatedModelSearchMode: 3, CarId: car.entity.Id, TyreSpecificationId: soft.entity.Id });
    expect(softOnly.status).toBe(200);
    expect(softOnly.body).toEqual([{ Id: onSoft.entity.Id, Parameters: { TyreSpecificationId: soft.entity.Id, TyreSpecification: { Id: soft.entity.Id, Parameters: {} } } }]);
    // Only a type that declares the filter takes it.
    const elsewhere = await api.getWithBody('/TyreSets/Search', { AssociatedModelSearchMode: 3, CarId: car.entity.Id, TyreSpecificationId: soft.entity.Id });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.errors).toHaveProperty('TyreSpecificationId');
  });

  test('when tyres are listed with tyreSpecificationId, then only the tyres of that specification answer; another type refuses the filter', async () => {
    const soft = await factory.build('TyreSpecifications', { allParameters: false });
    const hard = await factory.build('TyreSpecifications', { allParameters: false });
    const onSoft = await factory.build('Tyres', { allParameters: false, parameters: { TyreSpecificationId: soft.entity.Id } });
    await factory.build('Tyres', { allParameters: false, parameters: { TyreSpecificationId: hard.entity.Id } });
    const softOnly = await api.list('Tyres', { tyreSpecificationId: soft.entity.Id }, 'Id');
    expect(softOnly.status).toBe(200);
    expect(softOnly.body).toEqual([{ Id: onSoft.entity.Id, Parameters: {} }]);
    const elsewhere = await api.list('TyreSets', { tyreSpecificationId: soft.entity.Id });
    expect(elsewhere.status).toBe(400);
  });

  test.each(['TyreSets', 'BrakeDiscs', 'BrakePads', 'BrakeSets'])('when %s are searched by their association parameters, then they answer like Tyres', async (plural) => {
    const car = await factory.build('Cars', { allParameters: false });
    const mine = await factory.build(plural, { allParameters: false, parameters: { CarId: car.entity.Id } });
    await factory.build(plural, { allParameters: false });
    const res = await api.getWithBody(`/${plural}/Search?parametersToInclude=CarId`, { AssociatedModelSearchMode: 3, CarId: car.entity.Id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ Id: mine.entity.Id, Parameters: { CarId: car.entity.Id, Car: { Id: car.entity.Id, Parameters: {} } } }]);
  });

  test('when an event is deleted, then its weather, tyre wear sheets and the session lists beside the run sheets go with it', async () => {
    const sheet = await factory.build('TyreWearSheets', { allParameters: false });
    const eventId = sheet.parentIds['eventId'] as string;
    const weather = await api.create('AmbientMeasurements', { eventId }, { ParameterUpdates: updates({ AirTemperature: '20' }) });
    const session = await api.create('Sessions', { eventId }, { ParameterUpdates: updates({ Name: 'FP1' }) });
    const planned = await api.create('PlannedRuns', { sessionId: session.body.Id, carId: sheet.parentIds['carId'] as string }, { ParameterUpdates: updates({ Name: 'Run plan 1' }) });
    expect(planned.status).toBe(201);
    const lap = await api.create('PlannedLaps', { plannedRunId: planned.body.Id }, { ParameterUpdates: updates({ TargetLapTime: '92.1' }) });
    expect(lap.status).toBe(201);
    expect((await api.delete('Events', eventId)).status).toBe(204);
    for (const [plural, id] of [
      ['TyreWearSheets', sheet.entity.Id],
      ['AmbientMeasurements', weather.body.Id],
      ['PlannedRuns', planned.body.Id],
      ['PlannedLaps', lap.body.Id],
    ])
      expect((await api.get(plural as string, id as string)).status).toBe(404);
  });
});

describe('the OpenAPI document and the client cover every type', () => {
  test('when the document is fetched, then every registry type has its get, list, create, update and delete paths', async () => {
    const doc = (await (await fetch(`${api.baseUrl}/swagger/v1/swagger.json`)).json()) as { paths: Record<string, object>; components: { schemas: Record<string, { properties: object }> } };
    for (const type of ENTITY_TYPES) {
      expect(Object.keys(doc.paths[`/${type.plural}`] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
      expect(Object.keys(doc.paths[`/${type.plural}/{id}`] ?? {})).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
    }
    expect(doc.components.schemas['SearchBody']?.properties).toHaveProperty('TyreSpecificationId');
  });

  test('when the generated client writes and reads an event\'s weather, then it gets the typed measurement back', async () => {
    const event = await factory.build('Events', { allParameters: false });
    const client = api.member.client;
    const added = await client.addAmbientMeasurement(event.entity.Id, { ParameterUpdates: updates({ AirTemperature: '19.5', AmbientMeasurementDataSource: '0' }) });
    expect(added.statusCode).toBe(201);
    const listed = await client.getAllAmbientMeasurementsForEvent(event.entity.Id, 'AirTemperature,AmbientMeasurementDataSource');
    expect(listed.returnValue).toEqual([{ Id: added.returnValue?.Id, Parameters: { AirTemperature: 19.5, AmbientMeasurementDataSource: 'Weather Station' } }]);
  });
});
