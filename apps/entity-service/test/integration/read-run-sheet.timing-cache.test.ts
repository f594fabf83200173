import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent, TimingLevel, TimingUpdate } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { ReadCache } from '../../src/domain/read-cache';
import { entityTestDatabase } from '../support/count-statements';

// A timing update writes only under its run sheet: it must end the cached reads of that run and of the account-wide
// reads (lists), and leave the cached reads of other runs (another car's run sheet) in place.
const silent = pino({ level: 'silent' });
const database = entityTestDatabase();

type Json = { Id: string; Parameters: Record<string, unknown>; Laps?: Json[] };

/** A session of an event with two cars entered, and a store with the read cache on. */
async function liveSession() {
  const outbox = createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: silent });
  const store = new EntityStore(database.pool, outbox, new ReadCache(16 * 1024 * 1024));
  // A write answers before its events' publication (and its outbox delete) ends: counted reads start after it.
  const settled = () => outbox.settled();
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  const create = async (type: string, parentIds: Record<string, string>, parameters: Record<string, string> = {}) =>
    (JSON.parse((await store.create(caller, type, parentIds, { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) })).json.toString('utf8')) as Json).Id;
  const trackId = await create('Tracks', {});
  const configuration = await create('TrackConfigurations', { trackId });
  const championshipId = await create('Championships', {});
  const eventId = await create('Events', { championshipId });
  const sessionId = await create('Sessions', { eventId }, { TrackConfigurationId: configuration });
  const cars = [await create('Cars', {}), await create('Cars', {})];
  for (const carId of cars) await create('EventCars', { eventId, carId });
  const lapTime = async (car: number, value: string) => {
    const body: TimingUpdate = { accountId: caller.accountId, championshipId, eventId, sessionId, carId: cars[car] as string, runIndex: 0, stintLapNumber: 1, properties: [{ name: 'LapTime', value }] };
    await store.applyTimingUpdate(caller, 'Laps' as TimingLevel, body);
  };
  const read = async (runId: string) => {
    await settled();
    const before = database.statements();
    const reply = await store.get(caller, 'RunSheets', runId, ['Name', 'Laps.LapTime']);
    return { run: JSON.parse(reply.json.toString('utf8')) as Json, queries: database.statements() - before };
  };
  const listRuns = async (car?: number) => {
    await settled();
    const before = database.statements();
    const reply = await store.list(caller, 'RunSheets', car === undefined ? { sessionId } : { sessionId, carId: cars[car] as string }, ['Name', 'Laps.LapTime']);
    return { runs: JSON.parse(reply.json.toString('utf8')) as Json[], queries: database.statements() - before };
  };
  const readWith = async (runId: string, include: string[]) => JSON.parse((await store.get(caller, 'RunSheets', runId, include)).json.toString('utf8')) as Json & { Parameters: Record<string, Json> };
  return { store, caller, cars, sessionId, create, lapTime, read, readWith, listRuns };
}

describe('EntityStore.get RunSheets while a timing feed writes another run', () => {
  test("when a timing update writes run A, then run B's cached read is still answered from the cache (one query) and run A's next read renders again and shows the update", async () => {
    const s = await liveSession();
    await s.lapTime(0, '91.5');
    await s.lapTime(1, '92.5');
    const runA = (await s.listRuns(0)).runs[0]?.Id as string;
    const runB = (await s.listRuns(1)).runs[0]?.Id as string;
    await s.read(runA);
    const cachedB = await s.read(runB);
    expect((await s.read(runB)).queries).toBe(1);

    await s.lapTime(0, '89.25');
    const b = await s.read(runB);
    const a = await s.read(runA);

    expect(b.queries).toBe(1);
    expect(b.run).toEqual(cachedB.run);
    expect(a.queries).toBeGreaterThan(1);
    expect(a.run.Laps?.[0]?.Parameters).toEqual({ LapTime: 89.25 });
  });

  test('when a timing update writes a run, then a cached account-wide read (the list of run sheets) renders again and shows it', async () => {
    const s = await liveSession();
    await s.lapTime(0, '91.5');
    await s.listRuns(0);
    expect((await s.listRuns(0)).queries).toBe(1);

    await s.lapTime(0, '88.75');
    const after = await s.listRuns(0);

    expect(after.queries).toBeGreaterThan(1);
    expect(after.runs[0]?.Laps?.[0]?.Parameters).toEqual({ LapTime: 88.75 });
  });

  test("when run B's projection follows a reference into run A (a custom ReferenceLapId, a lap's own ReferenceLapId), then a timing update of run A shows in run B's next read", async () => {
    const s = await liveSession();
    for (const type of ['RunSheets', 'Laps'])
      await s.create('ParameterDefinitions', {}, { Name: 'ReferenceLapId', EntityType: type, ParameterType: 'Reference', ReferencedEntityType: 'Laps' });
    await s.lapTime(0, '70');
    await s.lapTime(1, '72');
    const runA = (await s.listRuns(0)).runs[0] as Json;
    const runB = (await s.listRuns(1)).runs[0] as Json;
    const lapA = runA.Laps?.[0]?.Id as string;
    const lapB = runB.Laps?.[0]?.Id as string;
    await s.store.update(s.caller, 'RunSheets', runB.Id, { ParameterUpdates: [{ Name: 'ReferenceLapId', Value: lapA }] });
    await s.store.update(s.caller, 'Laps', lapB, { ParameterUpdates: [{ Name: 'ReferenceLapId', Value: lapA }] });
    const onRun = ['ReferenceLap.LapTime'];
    const onLap = ['Laps.ReferenceLap.LapTime'];
    const lapTimes = async () => {
      const [run, laps] = [await s.readWith(runB.Id, onRun), await s.readWith(runB.Id, onLap)];
      return [run.Parameters['ReferenceLap']?.Parameters['LapTime'], laps.Laps?.[0]?.Parameters['ReferenceLap']];
    };
    expect(await lapTimes()).toEqual([70, { Id: lapA, Parameters: { LapTime: 70 } }]);
    expect(await lapTimes()).toEqual([70, { Id: lapA, Parameters: { LapTime: 70 } }]);

    await s.lapTime(0, '69.5');
    expect(await lapTimes()).toEqual([69.5, { Id: lapA, Parameters: { LapTime: 69.5 } }]);
    // Once found out, such a read is still answered from the cache while nothing is written.
    const before = database.statements();
    await s.readWith(runB.Id, onRun);
    expect(database.statements() - before).toBe(1);
  });

  test("when run B's projection follows a reference out of the run and then collections back into runs (MySession.RunSheets.Laps), then a timing update of run A shows in run B's next read", async () => {
    const s = await liveSession();
    await s.create('ParameterDefinitions', {}, { Name: 'MySessionId', EntityType: 'RunSheets', ParameterType: 'Reference', ReferencedEntityType: 'Sessions' });
    await s.lapTime(0, '70');
    await s.lapTime(1, '72');
    const runB = (await s.listRuns(1)).runs[0] as Json;
    await s.store.update(s.caller, 'RunSheets', runB.Id, { ParameterUpdates: [{ Name: 'MySessionId', Value: s.sessionId }] });
    const include = ['MySession.RunSheets.Laps.LapTime'];
    const lapTimes = async () => {
      const session = (await s.readWith(runB.Id, include)).Parameters['MySession'] as unknown as { RunSheets: Json[] };
      return session.RunSheets.flatMap((run) => (run.Laps ?? []).map((lap) => lap.Parameters['LapTime'])).sort();
    };
    expect(await lapTimes()).toEqual([70, 72]);
    expect(await lapTimes()).toEqual([70, 72]);

    await s.lapTime(0, '69.5');
    expect(await lapTimes()).toEqual([69.5, 72]);
  });

  test("when a write outside the timing scopes changes the account, then a run's cached read renders again", async () => {
    const s = await liveSession();
    await s.lapTime(0, '91.5');
    const runA = (await s.listRuns(0)).runs[0]?.Id as string;
    await s.read(runA);
    expect((await s.read(runA)).queries).toBe(1);

    await s.store.update(s.caller, 'RunSheets', runA, { ParameterUpdates: [{ Name: 'Name', Value: 'Long run' }] });
    const after = await s.read(runA);

    expect(after.queries).toBeGreaterThan(1);
    expect(after.run.Parameters).toEqual({ Name: 'Long run' });
  });
});
