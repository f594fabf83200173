import { Api, EntityFactory, withEntityStack, updates, withNulls } from './support/entities';

let api: Api;
let factory: EntityFactory;
withEntityStack((f) => ({ api, factory } = f));

const names = (list: { Parameters: { Name?: string } }[]) => list.map((e) => e.Parameters.Name);

describe('PUT /RunSheets/{id} with CollectionUpdateModels', () => {
  test('when laps are added, changed and deleted in one update, then the collection reads back that way', async () => {
    const runSheet = await factory.build('RunSheets', { allParameters: false });
    const parent = { runSheetId: runSheet.entity.Id };
    const a = (await api.create('Laps', parent, { ParameterUpdates: updates({ Name: 'A', StintLapNumber: '1', LapTime: '90.5' }) })).body;
    const b = (await api.create('Laps', parent, { ParameterUpdates: updates({ Name: 'B' }) })).body;
    const res = await api.update('RunSheets', runSheet.entity.Id, {
      ParameterUpdates: updates({ Name: 'Run 1' }),
      CollectionUpdateModels: {
        laps: [
          { Id: a.Id, ParameterUpdates: updates({ LapTime: '89.75' }) },
          { Id: b.Id, Delete: true },
          { Id: null, ParameterUpdates: updates({ Name: 'C', StintLapNumber: '2' }) },
        ],
      },
    });
    expect(res.status).toBe(200);
    const laps = (await api.list('Laps', parent)).body;
    expect(names(laps)).toEqual(['A', 'C']);
    expect(laps[0].Parameters).toEqual(withNulls('Laps', { Name: 'A', StintLapNumber: 1, LapTime: 89.75 }));
    expect(laps[1].Parameters).toEqual(withNulls('Laps', { Name: 'C', StintLapNumber: 2 }));
    expect((await api.get('Laps', b.Id)).status).toBe(404);
  });

  test('when one item is invalid, then it is a 400 naming its path and nothing of the update is written', async () => {
    const runSheet = await factory.build('RunSheets', { allParameters: false });
    const parent = { runSheetId: runSheet.entity.Id };
    const a = (await api.create('Laps', parent, { ParameterUpdates: updates({ Name: 'A' }) })).body;
    const res = await api.update('RunSheets', runSheet.entity.Id, {
      ParameterUpdates: updates({ Name: 'Changed' }),
      CollectionUpdateModels: { Laps: [{ Id: a.Id, Delete: true }, { ParameterUpdates: updates({ LapTime: 'fast' }) }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(['CollectionUpdateModels.Laps[1].ParameterUpdates[0].Value']);
    expect(names((await api.list('Laps', parent)).body)).toEqual(['A']);
    expect((await api.get('RunSheets', runSheet.entity.Id)).body.Parameters.Name).toBe(runSheet.entity.Parameters['Name']);
  });

  test('when an item Id belongs to another run sheet, or the collection is unknown, then it is a 400 naming it', async () => {
    const mine = await factory.build('RunSheets', { allParameters: false });
    const other = await factory.build('RunSheets', { allParameters: false });
    const foreignLap = (await api.create('Laps', { runSheetId: other.entity.Id }, { ParameterUpdates: updates({ Name: 'Theirs' }) })).body;
    const stolen = await api.update('RunSheets', mine.entity.Id, { CollectionUpdateModels: { Laps: [{ Id: foreignLap.Id, Delete: true }] } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors).toHaveProperty(['CollectionUpdateModels.Laps[0].Id']);
    expect((await api.get('Laps', foreignLap.Id)).status).toBe(200);
    const unknown = await api.update('RunSheets', mine.entity.Id, { CollectionUpdateModels: { Tyres: [] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toHaveProperty(['CollectionUpdateModels.Tyres']);
  });

  test('when an event adds a car through its Cars collection, then the car is entered (an EventCar with that CarId)', async () => {
    const event = await factory.build('Events', { allParameters: false });
    const car = await factory.build('Cars', { allParameters: false });
    const res = await api.update('Events', event.entity.Id, { CollectionUpdateModels: { Cars: [{ ParameterUpdates: updates({ CarId: car.entity.Id }) }] } });
    expect(res.status).toBe(200);
    const cars = (await api.get('Events', event.entity.Id, 'Cars.Car.Name')).body.Cars;
    expect(cars).toHaveLength(1);
    expect(cars[0].Parameters.Car).toEqual({ Id: car.entity.Id, Parameters: { Name: car.entity.Parameters['Name'] } });
    expect((await api.create('Setups', { eventId: event.entity.Id, carId: car.entity.Id }, {})).status).toBe(201);
  });
  test('when a session adds a run through its RunSheets collection, then CarId names the car and is not stored as a parameter', async () => {
    const run = await factory.build('RunSheets', { allParameters: false });
    const { sessionId, carId } = run.parentIds as { sessionId: string; carId: string };
    const res = await api.update('Sessions', sessionId, { CollectionUpdateModels: { RunSheets: [{ ParameterUpdates: updates({ CarId: carId, Name: 'Run 2' }) }] } });
    expect(res.status).toBe(200);
    const runs = (await api.send('GET', `/RunSheets?sessionId=${sessionId}&carId=${carId}`)).body as { Parameters: Record<string, unknown> }[];
    expect(runs.map((r) => r.Parameters['Name'])).toEqual([run.entity.Parameters['Name'], 'Run 2']);
    expect(runs[1]?.Parameters).not.toHaveProperty('CarId');
    const missing = await api.update('Sessions', sessionId, { CollectionUpdateModels: { RunSheets: [{ ParameterUpdates: updates({ Name: 'Run 3' }) }] } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toHaveProperty(['CollectionUpdateModels.RunSheets[0].ParameterUpdates']);
  });
});
