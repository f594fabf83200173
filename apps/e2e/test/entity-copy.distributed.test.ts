import { DistributedStack } from './support/distributed';
import { Api, EntityFactory, withEntityStack, suffix, updates, withNulls } from './support/entities';

let stack: DistributedStack;
let api: Api;
let factory: EntityFactory;
withEntityStack((f) => ({ stack, api, factory } = f));

const ids = (list: { Id: string }[]) => list.map((e) => e.Id);
const names = (list: { Parameters: { Name?: string } }[]) => list.map((e) => e.Parameters.Name);

/** A run sheet with two laps of two sectors each. */
async function buildRunSheetWithLaps() {
  const runSheet = await factory.build('RunSheets');
  for (const lap of [0, 1]) {
    const created = await api.create('Laps', { runSheetId: runSheet.entity.Id }, { ParameterUpdates: updates({ Name: `Lap ${lap}`, StintLapNumber: `${lap}`, LapTime: `${90 + lap}.5` }) });
    for (const sector of [1, 2]) {
      await api.create('LapSectors', { lapId: created.body.Id }, { ParameterUpdates: updates({ Name: `S${sector}`, SectorTime: `${30 + sector}.25` }) });
    }
  }
  return runSheet;
}

const DEEP = '*,Laps.*,Laps.LapSectors.*';

/** An entity tree without ids, to compare a copy with its source. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const withoutIds = (e: any): unknown => (Array.isArray(e) ? e.map(withoutIds) : e && typeof e === 'object' ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'Id').map(([k, v]) => [k, withoutIds(v)])) : e);

describe('POST /RunSheets with CopyFromId and CopyAll', () => {
  test('when a run sheet is copied with CopyAll, then its laps and their sectors are copied with new ids and the source is untouched', async () => {
    const source = await buildRunSheetWithLaps();
    const before = (await api.get('RunSheets', source.entity.Id, DEEP)).body;
    const copy = await api.create('RunSheets', source.parentIds, { CopyFromId: source.entity.Id, CopyAll: true, ParameterUpdates: updates({ Name: 'Copy' }) });
    expect(copy.status).toBe(201);
    const copied = (await api.get('RunSheets', copy.body.Id, DEEP)).body;
    expect(copied.Parameters).toEqual({ ...before.Parameters, Name: 'Copy' });
    expect(withoutIds(copied.Laps)).toEqual(withoutIds(before.Laps));
    expect(copied.Laps).toHaveLength(2);
    expect(copied.Laps[0].LapSectors).toHaveLength(2);
    const allIds = new Set([...ids(copied.Laps), ...copied.Laps.flatMap((l: { LapSectors: { Id: string }[] }) => ids(l.LapSectors))]);
    for (const id of [...ids(before.Laps), ...before.Laps.flatMap((l: { LapSectors: { Id: string }[] }) => ids(l.LapSectors))]) expect(allIds.has(id)).toBe(false);
    expect((await api.get('RunSheets', source.entity.Id, DEEP)).body).toEqual(before);
  });

  test('when a run sheet is copied without CopyAll, then only its parameters are copied', async () => {
    const source = await buildRunSheetWithLaps();
    const copy = await api.create('RunSheets', source.parentIds, { CopyFromId: source.entity.Id });
    expect(copy.status).toBe(201);
    expect(copy.body.Parameters).toEqual(source.entity.Parameters);
    expect(copy.body.Laps).toEqual([]);
    expect((await api.list('Laps', { runSheetId: copy.body.Id })).body).toEqual([]);
  });

  test('when a championship is copied with CopyAll, then its events come along with their sessions, entered cars and setups', async () => {
    const setup = await factory.build('Setups');
    const eventId = setup.parentIds['eventId'] as string;
    const event = (await api.get('Events', eventId)).body;
    const championshipId = await parentChampionshipOf(eventId);
    await api.create('Sessions', { eventId }, { ParameterUpdates: updates({ Name: 'FP1', SessionType: 'Practice' }) });
    const include = '*,Events.*,Events.Sessions.*,Events.Cars.*';
    const before = (await api.get('Championships', championshipId, include)).body;
    const copy = await api.create('Championships', {}, { CopyFromId: championshipId, CopyAll: true });
    expect(copy.status).toBe(201);
    const copied = (await api.get('Championships', copy.body.Id, include)).body;
    expect(withoutIds(copied)).toEqual(withoutIds(before));
    expect(copied.Events[0].Parameters.Name).toBe(event.Parameters.Name);
    expect(copied.Events[0].Id).not.toBe(eventId);
    expect(copied.Events[0].Cars[0].Parameters.CarId).toBe(setup.parentIds['carId']);
    const copiedSetups = (await api.list('Setups', { eventId: copied.Events[0].Id, carId: setup.parentIds['carId'] as string })).body;
    expect(copiedSetups.map((x: { Parameters: unknown }) => x.Parameters)).toEqual([setup.entity.Parameters]);
    expect(copiedSetups[0].Id).not.toBe(setup.entity.Id);
  });

  test('when an event is copied with CopyAll, then a run sheet referencing a setup of that event references the copied setup', async () => {
    const setup = await factory.build('Setups', { allParameters: false });
    const { eventId, carId } = setup.parentIds as { eventId: string; carId: string };
    const session = (await api.create('Sessions', { eventId }, { ParameterUpdates: updates({ Name: 'FP2' }) })).body;
    const run = await api.create('RunSheets', { sessionId: session.Id, carId }, { ParameterUpdates: updates({ Name: 'Run 1', SetupId: setup.entity.Id }) });
    expect(run.status).toBe(201);
    const championshipId = await parentChampionshipOf(eventId);
    const copy = await api.create('Events', { championshipId }, { CopyFromId: eventId, CopyAll: true });
    expect(copy.status).toBe(201);
    const copiedSetup = (await api.list('Setups', { eventId: copy.body.Id, carId })).body[0];
    const copiedSession = (await api.list('Sessions', { eventId: copy.body.Id })).body[0];
    const copiedRun = (await api.list('RunSheets', { sessionId: copiedSession.Id, carId })).body[0];
    expect(copiedRun.Parameters.SetupId).toBe(copiedSetup.Id);
    expect(copiedSetup.Id).not.toBe(setup.entity.Id);
    expect((await api.get('RunSheets', run.body.Id)).body.Parameters.SetupId).toBe(setup.entity.Id);
  });

  test('when CopyFromId names another account\'s entity, then it is a 400 naming CopyFromId and nothing is created', async () => {
    const other = await stack.member('admin');
    const foreign = await new EntityFactory(new Api(stack.baseUrl, other)).build('Championships');
    const before = (await api.list('Championships')).body.length;
    const res = await api.create('Championships', {}, { CopyFromId: foreign.entity.Id, CopyAll: true });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('CopyFromId');
    expect((await api.list('Championships')).body).toHaveLength(before);
  });

  test('when CopyFromId names an entity of another type, then it is a 400 naming CopyFromId', async () => {
    const car = await factory.build('Cars');
    const res = await api.create('Championships', {}, { CopyFromId: car.entity.Id });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('CopyFromId');
  });
});

async function parentChampionshipOf(eventId: string): Promise<string> {
  for (const c of (await api.list('Championships')).body) {
    if (ids((await api.list('Events', { championshipId: c.Id })).body).includes(eventId)) return c.Id;
  }
  throw new Error(`no championship holds event ${eventId}`);
}

describe('POST with CopyFromLast', () => {
  test('when CopyFromLast is set, then the last sibling\'s parameters are copied and the ParameterUpdates applied after', async () => {
    const first = await factory.build('RunSheets');
    const second = await api.create('RunSheets', first.parentIds, { ParameterUpdates: updates({ Name: 'Run 2', PitInSessionTime: '100.5', PitOutSessionTime: '200.25' }) });
    const third = await api.create('RunSheets', first.parentIds, { CopyFromLast: true, ParameterUpdates: updates({ Name: 'Run 3', PitOutSessionTime: null }) });
    expect(third.status).toBe(201);
    expect(third.body.Parameters).toEqual(withNulls('RunSheets', { Name: 'Run 3', PitInSessionTime: 100.5 }));
    expect(second.body.Parameters.PitOutSessionTime).toBe(200.25);
    expect(names((await api.list('RunSheets', first.parentIds)).body)).toEqual([first.entity.Parameters['Name'], 'Run 2', 'Run 3']);
  });

  test('when CopyFromLast and CopyAll are set, then the last sibling\'s children are copied too', async () => {
    const source = await buildRunSheetWithLaps();
    const copy = await api.create('RunSheets', source.parentIds, { CopyFromLast: true, CopyAll: true });
    expect(copy.status).toBe(201);
    const laps = (await api.list('Laps', { runSheetId: copy.body.Id }, 'Name,LapSectors.Name')).body;
    expect(laps.map((l: { Parameters: { Name: string }; LapSectors: { Parameters: { Name: string } }[] }) => [l.Parameters.Name, names(l.LapSectors)])).toEqual([
      ['Lap 0', ['S1', 'S2']],
      ['Lap 1', ['S1', 'S2']],
    ]);
  });

  test('when laps were created out of their StintLapNumber order, then CopyFromLast copies the last lap of the list, not the last created', async () => {
    const runSheet = await factory.build('RunSheets');
    const parent = { runSheetId: runSheet.entity.Id };
    for (const [name, n, time] of [['Lap 2', '2', '61.5'], ['Lap 5', '5', '60.25'], ['Lap 3', '3', '62']] as const) {
      expect((await api.create('Laps', parent, { ParameterUpdates: updates({ Name: name, StintLapNumber: n, LapTime: time }) })).status).toBe(201);
    }
    expect(names((await api.list('Laps', parent)).body)).toEqual(['Lap 2', 'Lap 3', 'Lap 5']);
    const copy = await api.create('Laps', parent, { CopyFromLast: true, ParameterUpdates: updates({ Name: 'Lap 6', StintLapNumber: '6' }) });
    expect(copy.status).toBe(201);
    expect(copy.body.Parameters).toEqual(withNulls('Laps', { Name: 'Lap 6', StintLapNumber: 6, LapTime: 60.25 }));
  });

  test('when CopyFromLast is set and there is no sibling yet, then it is created from the ParameterUpdates alone', async () => {
    const runSheet = await factory.build('RunSheets');
    const res = await api.create('Laps', { runSheetId: runSheet.entity.Id }, { CopyFromLast: true, ParameterUpdates: updates({ Name: 'Out lap', StintLapNumber: '0' }) });
    expect(res.status).toBe(201);
    expect(res.body.Parameters).toEqual(withNulls('Laps', { Name: 'Out lap', StintLapNumber: 0 }));
  });
});

describe('POST with Index', () => {
  test('when laps are inserted at index 0 and in the middle, then the list order reflects it', async () => {
    const runSheet = await factory.build('RunSheets');
    const parent = { runSheetId: runSheet.entity.Id };
    for (const n of ['A', 'B', 'C']) await api.create('Laps', parent, { ParameterUpdates: updates({ Name: n }) });
    expect((await api.create('Laps', parent, { Index: 0, ParameterUpdates: updates({ Name: 'first' }) })).status).toBe(201);
    expect((await api.create('Laps', parent, { Index: 2, ParameterUpdates: updates({ Name: 'middle' }) })).status).toBe(201);
    await api.create('Laps', parent, { Index: -1, ParameterUpdates: updates({ Name: 'appended' }) });
    await api.create('Laps', parent, { Index: 99, ParameterUpdates: updates({ Name: 'beyond' }) });
    const expected = ['first', 'A', 'middle', 'B', 'C', 'appended', 'beyond'];
    expect(names((await api.list('Laps', parent)).body)).toEqual(expected);
    expect(names((await api.get('RunSheets', runSheet.entity.Id, 'Laps.Name')).body.Laps)).toEqual(expected);
  });

  test('when laps are inserted concurrently at index 0 and appended concurrently, then the originals keep their order between them', async () => {
    for (let round = 0; round < 3; round++) {
      const runSheet = await factory.build('RunSheets', { allParameters: false });
      const parent = { runSheetId: runSheet.entity.Id };
      for (const n of ['A', 'B', 'C']) await api.create('Laps', parent, { ParameterUpdates: updates({ Name: n }) });
      const answers = await Promise.all([
        ...[1, 2, 3, 4].map((i) => api.create('Laps', parent, { Index: 0, ParameterUpdates: updates({ Name: `front${i}` }) })),
        ...[1, 2, 3, 4].map((i) => api.create('Laps', parent, { ParameterUpdates: updates({ Name: `back${i}` }) })),
      ]);
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
      const listed = names((await api.list('Laps', parent)).body) as string[];
      expect(listed).toHaveLength(11);
      expect(listed.slice(0, 4).every((n) => n.startsWith('front'))).toBe(true);
      expect(listed.slice(4, 7)).toEqual(['A', 'B', 'C']);
      expect(listed.slice(7).every((n) => n.startsWith('back'))).toBe(true);
    }
  });

  test('when a sibling was deleted, then Index still counts the remaining siblings', async () => {
    const runSheet = await factory.build('RunSheets');
    const parent = { runSheetId: runSheet.entity.Id };
    const created = [];
    for (const n of ['A', 'B', 'C', 'D']) created.push((await api.create('Laps', parent, { ParameterUpdates: updates({ Name: n }) })).body);
    await api.delete('Laps', created[1].Id);
    await api.create('Laps', parent, { Index: 2, ParameterUpdates: updates({ Name: 'new' }) });
    expect(names((await api.list('Laps', parent)).body)).toEqual(['A', 'C', 'new', 'D']);
  });

  test('when a run sheet is copied to index 0 with CopyFromId, then it is the first run and carries the copied parameters', async () => {
    const first = await factory.build('RunSheets');
    await api.create('RunSheets', first.parentIds, { ParameterUpdates: updates({ Name: `Run ${suffix()}` }) });
    const copy = await api.create('RunSheets', first.parentIds, { CopyFromId: first.entity.Id, Index: 0, ParameterUpdates: updates({ Name: 'Run 0' }) });
    expect(copy.status).toBe(201);
    const listed = (await api.list('RunSheets', first.parentIds)).body;
    expect(ids(listed)[0]).toBe(copy.body.Id);
    expect(listed[0].Parameters).toEqual({ ...first.entity.Parameters, Name: 'Run 0' });
    expect(ids(listed)[1]).toBe(first.entity.Id);
  });
});
