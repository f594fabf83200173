import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { BusEvent } from '@pitwall/bus';
import { ENTITY_COMMANDS, ENTITY_TIMING_BATCH_COMMAND, EXCHANGES, SERVICES, TIMING_COMMANDS, TIMING_INDEX_MAX, type CallerContext, type TimingLevel, type TimingUpdate } from '@pitwall/contracts';
import { entityService } from '@pitwall/entity-service';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { timingService } from '../../src/definition';

interface Entity {
  Id: string;
  Parameters: Record<string, unknown>;
  [collection: string]: unknown;
}

/** A session with a track configuration (3 sectors, 2 speed traps), a car entered in its event and a driver. */
interface Fixture {
  caller: CallerContext;
  ids: { accountId: string; championshipId: string; eventId: string; sessionId: string; carId: string };
  sectors: string[];
  speedTraps: string[];
  driverId: string;
  otherEventId: string;
  otherSessionId: string;
  unenteredCarId: string;
  foreignSectorId: string;
}

describe('timing updates by index (timing-service and entity-service in-process, real PostgreSQL)', () => {
  let stack: InProcessStack;
  let address: string;
  const timingEvents: BusEvent[] = [];
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService);
    address = (await stack.start(timingService)).address;
    await stack.bus.subscribe(EXCHANGES.timingEvents, 'test.timing-events', ['timing.#'], async (e) => void timingEvents.push(e));
  });
  afterAll(() => stack.stop());

  const create = async (caller: CallerContext, type: string, parentIds: Record<string, string>, parameters: Record<string, string> = {}): Promise<string> => {
    const created = await stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.create, {
      caller,
      type,
      parentIds,
      body: { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) },
    });
    return created.Id;
  };

  async function fixture(): Promise<Fixture> {
    const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
    const track = await create(caller, 'Tracks', {});
    const configuration = await create(caller, 'TrackConfigurations', { trackId: track });
    const sectors = [];
    for (const n of [1, 2, 3]) sectors.push(await create(caller, 'TrackSectorDefinitions', { trackConfigurationId: configuration }, { Name: `S${n}` }));
    const speedTraps = [];
    for (const n of [1, 2]) speedTraps.push(await create(caller, 'TrackSpeedTrapDefinitions', { trackConfigurationId: configuration }, { Name: `ST${n}` }));
    const otherConfiguration = await create(caller, 'TrackConfigurations', { trackId: track });
    const foreignSectorId = await create(caller, 'TrackSectorDefinitions', { trackConfigurationId: otherConfiguration });
    const championshipId = await create(caller, 'Championships', {});
    const eventId = await create(caller, 'Events', { championshipId });
    const otherEventId = await create(caller, 'Events', { championshipId });
    const sessionId = await create(caller, 'Sessions', { eventId }, { TrackConfigurationId: configuration });
    const otherSessionId = await create(caller, 'Sessions', { eventId: otherEventId }, { TrackConfigurationId: configuration });
    const carId = await create(caller, 'Cars', {});
    const unenteredCarId = await create(caller, 'Cars', {});
    await create(caller, 'EventCars', { eventId, carId });
    const driverId = await create(caller, 'Drivers', {}, { Name: 'A. Driver' });
    return { caller, ids: { accountId: caller.accountId, championshipId, eventId, sessionId, carId }, sectors, speedTraps, driverId, otherEventId, otherSessionId, unenteredCarId, foreignSectorId };
  }

  const update = (f: Fixture, type: TimingLevel, body: Partial<TimingUpdate>, caller: CallerContext = f.caller): Promise<Entity> =>
    stack.bus.request<Entity>(SERVICES.timing, TIMING_COMMANDS.update, { caller, type, body: { ...f.ids, runIndex: 0, ...body } });

  const runSheets = async (f: Fixture): Promise<Entity[]> =>
    stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller: f.caller, type: 'RunSheets', parentIds: { sessionId: f.ids.sessionId, carId: f.ids.carId } });

  const eventsOf = (f: Fixture): BusEvent[] => timingEvents.filter((e) => (e.payload as { accountId: string }).accountId === f.caller.accountId);

  test('when a run is updated with a driver, pit times and a property, then the run at that index is created and answered with them', async () => {
    const f = await fixture();
    await create(f.caller, 'ParameterDefinitions', {}, { Name: 'FuelAdded', EntityType: 'RunSheets', ParameterType: 'Double' });
    const run = await update(f, 'RunSheets', {
      runIndex: 2,
      driverId: f.driverId.toUpperCase(),
      pitInTime: '2026-04-12T12:03:07.250Z',
      pitInSessionTime: 1834.5,
      properties: [{ name: 'FuelAdded', value: '42.5' }],
    });
    expect(run.Parameters).toMatchObject({ Name: 'Run 3', DriverId: f.driverId, PitInTime: '2026-04-12T12:03:07.250Z', PitInSessionTime: 1834.5, FuelAdded: 42.5 });
    expect(run['Laps']).toEqual([]);
    expect((await runSheets(f)).map((r) => r.Id)).toEqual([run.Id]);
  });

  test('when laps are updated by stint lap number, then the out lap is 0 and the laps of a run are numbered from it, each created once', async () => {
    const f = await fixture();
    const outLap = await update(f, 'Laps', { stintLapNumber: 0 });
    const lap1 = await update(f, 'Laps', { stintLapNumber: 1, properties: [{ name: 'LapTime', value: '91.234' }] });
    const again = await update(f, 'Laps', { stintLapNumber: 1, properties: [{ name: 'LapTime', value: '91.5' }] });
    expect(outLap.Parameters).toMatchObject({ Name: 'Out Lap', StintLapNumber: 0 });
    expect(lap1.Parameters).toMatchObject({ Name: 'Lap 1', StintLapNumber: 1, LapTime: 91.234 });
    expect(again.Id).toBe(lap1.Id);
    expect(again.Parameters['LapTime']).toBe(91.5);
    const [run] = await runSheets(f);
    const read = await stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.get, { caller: f.caller, type: 'RunSheets', id: (run as Entity).Id, include: ['Laps.*'] });
    expect((read['Laps'] as Entity[]).map((l) => l.Parameters['StintLapNumber'])).toEqual([0, 1]);
  });

  test('when a sector and a speed trap are updated, then they hang under the lap, named by their definitions', async () => {
    const f = await fixture();
    const sector = await update(f, 'LapSectors', { runIndex: 1, stintLapNumber: 3, sectorId: f.sectors[1] as string, properties: [{ name: 'SectorTime', value: '30.1' }] });
    const trap = await update(f, 'LapSpeedTraps', { runIndex: 1, stintLapNumber: 3, speedTrapId: f.speedTraps[0] as string, properties: [{ name: 'Speed', value: '311.4' }] });
    expect(sector.Parameters).toMatchObject({ Name: 'S2', TrackSectorDefinitionId: f.sectors[1], SectorTime: 30.1 });
    expect(trap.Parameters).toMatchObject({ Name: 'ST1', TrackSpeedTrapDefinitionId: f.speedTraps[0], Speed: 311.4 });
    const { Id: lapId } = await update(f, 'Laps', { runIndex: 1, stintLapNumber: 3 });
    const lap = await stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.get, { caller: f.caller, type: 'Laps', id: lapId, include: ['LapSectors.*', 'LapSpeedTraps.*'] });
    expect((lap['LapSectors'] as Entity[]).map((s) => s.Id)).toEqual([sector.Id]);
    expect((lap['LapSpeedTraps'] as Entity[]).map((s) => s.Id)).toEqual([trap.Id]);
  });

  test('when the same update is delivered twice, then nothing changes the second time and no second event is published', async () => {
    const f = await fixture();
    const body = { runIndex: 0, stintLapNumber: 2, sectorId: f.sectors[0] as string, properties: [{ name: 'SectorTime', value: '29.9' }] };
    const first = await update(f, 'LapSectors', body);
    const second = await update(f, 'LapSectors', body);
    expect(second).toEqual(first);
    // A marker update after the repeat: once its event is in, every event of the repeat would be too.
    await update(f, 'RunSheets', { properties: [{ name: 'Name', value: 'marker' }] });
    await waitFor(() => eventsOf(f).some((e) => e.routingKey === 'timing.run.updated'));
    expect(eventsOf(f).map((e) => [e.routingKey, (e.payload as { part?: string }).part])).toEqual([
      ['timing.run.created', undefined],
      ['timing.lap.updated', 'lap'],
      ['timing.lap.updated', 'sector'],
      ['timing.run.updated', undefined],
    ]);
  });

  test('when a pit in asks for the next run, then run runIndex + 1 exists at once, exactly once under a repeat and under racing pit-ins', async () => {
    const f = await fixture();
    const pitIn = { runIndex: 0, pitInTime: '2026-04-12T12:00:00.000Z', pitInSessionTime: 600, shouldCreateNextRun: true };
    await Promise.all([update(f, 'RunSheets', pitIn), update(f, 'RunSheets', pitIn), update(f, 'RunSheets', { ...pitIn, pitInSessionTime: 601 })]);
    await update(f, 'RunSheets', pitIn);
    const runs = await runSheets(f);
    expect(runs.map((r) => r.Parameters['Name'])).toEqual(['Run 1', 'Run 2']);
    await waitFor(() => eventsOf(f).filter((e) => e.routingKey === 'timing.run.created').length >= 2);
    await update(f, 'RunSheets', { runIndex: 1, properties: [{ name: 'Name', value: 'marker' }] });
    await waitFor(() => eventsOf(f).some((e) => e.routingKey === 'timing.run.updated' && (e.payload as { runIndex: number }).runIndex === 1));
    const created = eventsOf(f).filter((e) => e.routingKey === 'timing.run.created');
    expect(created.map((e) => [(e.payload as { runIndex: number }).runIndex, (e.payload as { createdByPitIn: boolean }).createdByPitIn])).toEqual([
      [0, false],
      [1, true],
    ]);
  });

  test('when updates of two cars are sent without waiting, then each car ends with its last update and the updates of a car were applied in the order sent', async () => {
    const f = await fixture();
    const secondCar = await create(f.caller, 'Cars', {});
    await create(f.caller, 'EventCars', { eventId: f.ids.eventId, carId: secondCar });
    const sends: Promise<Entity>[] = [];
    for (let i = 1; i <= 20; i++) {
      sends.push(update(f, 'Laps', { stintLapNumber: 1, properties: [{ name: 'LapTime', value: String(90 + i) }] }));
      sends.push(update(f, 'Laps', { carId: secondCar, stintLapNumber: 1, properties: [{ name: 'LapTime', value: String(200 + i) }] }));
    }
    await Promise.all(sends);
    expect((await update(f, 'Laps', { stintLapNumber: 1 })).Parameters['LapTime']).toBe(110);
    expect((await update(f, 'Laps', { carId: secondCar, stintLapNumber: 1 })).Parameters['LapTime']).toBe(220);
  });

  test('when the entity-service gets a batch, then each update has its own outcome in order: a refused one or one past its deadline writes nothing, a repeated command id answers its first reply, the rest commit', async () => {
    const f = await fixture();
    const lap = (n: number, value: string) => ({ caller: f.caller, type: 'Laps' as const, body: { ...f.ids, runIndex: 0, stintLapNumber: n, properties: [{ name: 'LapTime', value }] } });
    const items = [
      { ...lap(1, '91.5'), headers: { commandId: 'request:one', commandHash: 'h1' } },
      { ...lap(2, '92.5'), body: { ...lap(2, '92.5').body, carId: f.unenteredCarId }, headers: { commandId: 'request:two', commandHash: 'h2' } },
      { ...lap(1, '91.5'), headers: { commandId: 'request:one', commandHash: 'h1' } },
      { ...lap(3, '93.5'), headers: { commandId: 'request:three', commandHash: 'h3' } },
      { ...lap(4, '94.5'), headers: { commandId: 'request:four', commandHash: 'h4' }, deadline: Date.now() - 1000 },
    ];

    const outcomes = await stack.bus.request<{ ok: boolean; body?: Entity; error?: { status: number; errors: Record<string, string[]> } }[]>(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, { items });

    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true, true, false]);
    expect(outcomes[1]?.error).toMatchObject({ status: 400, errors: { carId: ['the car is not entered in the event'] } });
    // An update whose deadline had passed is refused alone: the others still commit.
    expect(outcomes[4]?.error).toMatchObject({ status: 504, type: 'urn:pitwall:problem:deadline-passed' });
    expect(outcomes[2]?.body).toEqual(outcomes[0]?.body);
    const [run] = await runSheets(f);
    const laps = await stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller: f.caller, type: 'Laps', parentIds: { runSheetId: run?.Id as string } });
    expect(laps.map((l) => [l.Parameters['StintLapNumber'], l.Parameters['LapTime']])).toEqual([
      [1, 91.5],
      [3, 93.5],
    ]);
  });

  test('when an update of a batch is refused after it wrote a level, then its writes and events are undone and the others commit, each published once', async () => {
    const f = await fixture();
    const headers = (n: number) => ({ commandId: `request:partial-${n}`, commandHash: `p${n}` });
    const items = [
      { caller: f.caller, type: 'Laps' as const, body: { ...f.ids, runIndex: 0, stintLapNumber: 1, properties: [{ name: 'LapTime', value: '90.1' }] }, headers: headers(1) },
      // Run 3 is upserted, then the pit-in rule refuses the update (no pit in on the run): run 3 must not remain.
      { caller: f.caller, type: 'RunSheets' as const, body: { ...f.ids, runIndex: 3, shouldCreateNextRun: true }, headers: headers(2) },
      { caller: f.caller, type: 'Laps' as const, body: { ...f.ids, runIndex: 0, stintLapNumber: 2, properties: [{ name: 'LapTime', value: '90.2' }] }, headers: headers(3) },
    ];

    type Outcome = { ok: boolean; body?: Entity; error?: { status: number; errors: Record<string, string[]> } };
    const outcomes = await stack.bus.request<Outcome[]>(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, { items });

    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]?.error).toMatchObject({ status: 400, errors: { shouldCreateNextRun: [expect.stringContaining('needs a pit in')] } });
    // The same batch again (a redelivery): the accepted updates answer their recorded replies, the refused one is
    // refused again, and nothing more is written or published.
    const again = await stack.bus.request<Outcome[]>(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, { items });
    expect(again.map((o) => o.ok)).toEqual([true, false, true]);
    expect([again[0]?.body, again[2]?.body]).toEqual([outcomes[0]?.body, outcomes[2]?.body]);
    const runs = await runSheets(f);
    expect(runs).toHaveLength(1);
    const laps = await stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller: f.caller, type: 'Laps', parentIds: { runSheetId: runs[0]?.Id as string } });
    expect(laps.map((l) => [l.Parameters['StintLapNumber'], l.Parameters['LapTime']])).toEqual([
      [1, 90.1],
      [2, 90.2],
    ]);
    // A marker update after the batch: once its event is in, every event of the batch would be too.
    await update(f, 'RunSheets', { properties: [{ name: 'Name', value: 'marker' }] });
    await waitFor(() => eventsOf(f).some((e) => e.routingKey === 'timing.run.updated'));
    expect(eventsOf(f).map((e) => [e.routingKey, (e.payload as { runIndex: number }).runIndex, (e.payload as { stintLapNumber?: number }).stintLapNumber])).toEqual([
      ['timing.run.created', 0, undefined],
      ['timing.lap.updated', 0, 1],
      ['timing.lap.updated', 0, 2],
      ['timing.run.updated', 0, undefined],
    ]);
  });

  test("when a car's timing lock is held (a batch of that car still running), then its next update waits for it and then applies", async () => {
    const f = await fixture();
    const holder = new pg.Client({ connectionString: stack.databaseUrl });
    await holder.connect();
    try {
      // The key the entity-service locks a car's timing updates under (lockTimingCar, timingCarLocksSql).
      const key = [f.caller.accountId.toLowerCase(), f.ids.sessionId.toLowerCase(), f.ids.carId.toLowerCase()];
      await holder.query(`SELECT pg_advisory_lock(hashtext('entity.timing:' || $1 || ':' || $2 || ':' || $3))`, key);
      let answered = false;
      const pending = update(f, 'Laps', { stintLapNumber: 1, properties: [{ name: 'LapTime', value: '88.8' }] }).then((lap) => {
        answered = true;
        return lap;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(answered).toBe(false);
      expect(await runSheets(f)).toEqual([]);
      await holder.query(`SELECT pg_advisory_unlock(hashtext('entity.timing:' || $1 || ':' || $2 || ':' || $3))`, key);
      expect((await pending).Parameters['LapTime']).toBe(88.8);
    } finally {
      await holder.end();
    }
  });

  test('when run sheets, laps, sectors and speed traps were created with the standard POSTs first, then the feed takes each over at its place (alone, in a batch, by a pit-in) instead of making a second', async () => {
    const f = await fixture();
    const list = (type: string, parentIds: Record<string, string>) => stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller: f.caller, type, parentIds });
    const car = { sessionId: f.ids.sessionId, carId: f.ids.carId };
    const first = await create(f.caller, 'RunSheets', car, { Name: 'Planned run' });
    const second = await create(f.caller, 'RunSheets', car, { Name: 'Planned run 2' });
    const outLap = await create(f.caller, 'Laps', { runSheetId: first }, { StintLapNumber: '0' });
    const s1 = await create(f.caller, 'LapSectors', { lapId: outLap }, { TrackSectorDefinitionId: (f.sectors[0] as string).toUpperCase() });
    const trap = await create(f.caller, 'LapSpeedTraps', { lapId: outLap }, { TrackSpeedTrapDefinitionId: f.speedTraps[1] as string });
    const lap2 = await create(f.caller, 'Laps', { runSheetId: first }, { StintLapNumber: '2' });

    const run = await update(f, 'RunSheets', { driverId: f.driverId });
    expect([run.Id, run.Parameters['Name'], run.Parameters['DriverId']]).toEqual([first, 'Planned run', f.driverId]);
    expect((await update(f, 'Laps', { stintLapNumber: 0, properties: [{ name: 'LapTime', value: '101.5' }] })).Id).toBe(outLap);
    expect((await update(f, 'LapSectors', { stintLapNumber: 0, sectorId: f.sectors[0] as string })).Id).toBe(s1);
    expect((await update(f, 'LapSpeedTraps', { stintLapNumber: 0, speedTrapId: f.speedTraps[1] as string, properties: [{ name: 'Speed', value: '301.2' }] })).Id).toBe(trap);
    // A sector of another definition is a new one beside it.
    expect((await update(f, 'LapSectors', { stintLapNumber: 0, sectorId: f.sectors[1] as string })).Id).not.toBe(s1);

    // In a batch: lap 2 taken over, lap 3 created, in one transaction.
    const item = (n: number) => ({ caller: f.caller, type: 'Laps' as const, body: { ...f.ids, runIndex: 0, stintLapNumber: n, properties: [{ name: 'LapTime', value: `9${n}.5` }] } as TimingUpdate, headers: { commandId: `request:adopt-${n}-${randomUUID()}`, commandHash: `a${n}` } });
    const outcomes = await stack.bus.request<{ ok: boolean }[]>(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, { items: [item(2), item(3)] });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    const laps = await list('Laps', { runSheetId: first });
    expect(laps.map((l) => [l.Parameters['StintLapNumber'], l.Parameters['LapTime']])).toEqual([
      [0, 101.5],
      [2, 92.5],
      [3, 93.5],
    ]);
    expect(laps[1]?.Id).toBe(lap2);

    // A pit-in's next run is the planned run at index 1; a repeat changes nothing.
    const pitIn = { pitInSessionTime: 1834.5, shouldCreateNextRun: true };
    await update(f, 'RunSheets', pitIn);
    await update(f, 'RunSheets', pitIn);
    const runs = await runSheets(f);
    expect(runs.map((r) => [r.Id, r.Parameters['Name']])).toEqual([
      [first, 'Planned run'],
      [second, 'Planned run 2'],
    ]);
    expect((await list('LapSpeedTraps', { lapId: outLap })).map((t) => [t.Id, t.Parameters['Speed']])).toEqual([[trap, 301.2]]);
    // Taking a run over publishes no timing.run.created (the feed did not create it), but timing.run.updated when the
    // update changed it: the driver set on the first run, its pit in. Waited for, as events leave after the commit.
    await waitFor(() => eventsOf(f).filter((e) => e.routingKey === 'timing.run.updated').length >= 2);
    expect(eventsOf(f).filter((e) => e.routingKey === 'timing.run.updated').map((e) => (e.payload as { runId: string }).runId)).toEqual([first, first]);
    expect(eventsOf(f).filter((e) => e.routingKey === 'timing.run.created')).toEqual([]);
  });

  test('when a standard PUT moves a feed lap to another StintLapNumber or a feed sector to another definition, then the feed follows it: the old place gets a new entity, updates for the new place reach the moved one', async () => {
    const f = await fixture();
    const put = (type: string, id: string, parameters: Record<string, string>) =>
      stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.update, { caller: f.caller, type, id, body: { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) } });
    const lapTime = (n: number, value: string) => ({ stintLapNumber: n, properties: [{ name: 'LapTime', value }] });
    const moved = await update(f, 'Laps', lapTime(1, '90.1'));
    const sector = await update(f, 'LapSectors', { stintLapNumber: 1, sectorId: f.sectors[0] as string, properties: [{ name: 'SectorTime', value: '30.1' }] });

    await put('Laps', moved.Id, { StintLapNumber: '3' });
    // Alone, then in a batch (the bulk path leaves a batch that takes an entity over to the update-by-update one).
    const atOldPlace = await update(f, 'Laps', lapTime(1, '91.1'));
    const item = (n: number, value: string) => ({ caller: f.caller, type: 'Laps' as const, body: { ...f.ids, runIndex: 0, ...lapTime(n, value) } as TimingUpdate, headers: { commandId: `request:moved-${n}-${randomUUID()}`, commandHash: `m${n}` } });
    const outcomes = await stack.bus.request<{ ok: boolean }[]>(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, { items: [item(3, '93.3'), item(1, '91.5')] });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);

    expect(atOldPlace.Id).not.toBe(moved.Id);
    const run = (await runSheets(f))[0] as Entity;
    const laps = await stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller: f.caller, type: 'Laps', parentIds: { runSheetId: run.Id } });
    // Both at position 1 (a PUT does not move a lap in the list): compared in stint lap order.
    expect(laps.map((l) => [l.Id, l.Parameters['StintLapNumber'], l.Parameters['LapTime']]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      [atOldPlace.Id, 1, 91.5],
      [moved.Id, 3, 93.3],
    ]);

    // The lap is now numbered 3, its sector was on S1: moved to S3 by a PUT, S1's update makes a new sector, S3's finds it.
    await put('LapSectors', sector.Id, { TrackSectorDefinitionId: f.sectors[2] as string });
    const newS1 = await update(f, 'LapSectors', { stintLapNumber: 3, sectorId: f.sectors[0] as string, properties: [{ name: 'SectorTime', value: '31.1' }] });
    const s3 = await update(f, 'LapSectors', { stintLapNumber: 3, sectorId: f.sectors[2] as string, properties: [{ name: 'SectorTime', value: '33.3' }] });
    expect(newS1.Id).not.toBe(sector.Id);
    expect([s3.Id, s3.Parameters['TrackSectorDefinitionId'], s3.Parameters['SectorTime']]).toEqual([sector.Id, f.sectors[2], 33.3]);
    expect(newS1.Parameters['TrackSectorDefinitionId']).toBe(f.sectors[0]);
  });

  describe('ids that do not belong together are 400 with the reason; nothing is written', () => {
    test.each([
      ['a championship of no such id', (_f: Fixture) => ({ championshipId: randomUUID() }), 'championshipId'],
      ['an event of another championship', (f: Fixture) => ({ championshipId: f.ids.eventId }), 'championshipId'],
      ['a session of another event', (f: Fixture) => ({ sessionId: f.otherSessionId }), 'sessionId'],
      ['an event the session is not in', (f: Fixture) => ({ eventId: f.otherEventId }), 'sessionId'],
      ['a car not entered in the event', (f: Fixture) => ({ carId: f.unenteredCarId }), 'carId'],
      ['a car of no such id', (_f: Fixture) => ({ carId: randomUUID() }), 'carId'],
      ['a driver of no such id', (_f: Fixture) => ({ driverId: randomUUID() }), 'driverId'],
      ['an accountId other than the AccountId header', (_f: Fixture) => ({ accountId: randomUUID() }), 'accountId'],
      ['a property the run sheets do not have', (_f: Fixture) => ({ properties: [{ name: 'NoSuchThing', value: '1' }] }), 'properties[0].name'],
      ['a property value of the wrong type', (_f: Fixture) => ({ properties: [{ name: 'PitInSessionTime', value: 'soon' }] }), 'properties[0].value'],
      ['a driver property naming a Car', (f: Fixture) => ({ properties: [{ name: 'DriverId', value: f.ids.carId }] }), 'properties[0].value'],
      ['shouldCreateNextRun without a pit in', (_f: Fixture) => ({ shouldCreateNextRun: true }), 'shouldCreateNextRun'],
      ['driverId and a DriverId property both', (f: Fixture) => ({ driverId: f.driverId, properties: [{ name: 'Name', value: 'x' }, { name: 'driverid', value: f.driverId }] }), 'properties[1].name'],
      ['pitInTime and a PitInTime property both', (_f: Fixture) => ({ pitInTime: '2026-04-12T11:00:00Z', properties: [{ name: 'PitInTime', value: '2026-04-12T10:00:00Z' }] }), 'properties[0].name'],
      ['pitOutSessionTime and a PitOutSessionTime property both', (_f: Fixture) => ({ pitOutSessionTime: 5, properties: [{ name: 'PitOutSessionTime', value: '6' }] }), 'properties[0].name'],
      ['a pit in creating the next run at the largest runIndex (a run past it could never be addressed)', (_f: Fixture) => ({ runIndex: TIMING_INDEX_MAX, pitInSessionTime: 1, shouldCreateNextRun: true }), 'shouldCreateNextRun'],
    ])('when the run update names %s, then it is 400 naming the field', async (_what, change, field) => {
      const f = await fixture();
      await expect(update(f, 'RunSheets', change(f))).rejects.toMatchObject({ status: 400, errors: { [field]: [expect.any(String)] } });
      expect(await runSheets(f)).toEqual([]);
    });


    test('when an update has several things wrong, then one 400 names every field with its reason, the car not entered among them', async () => {
      const f = await fixture();
      const wrong = { sessionId: f.otherSessionId, carId: f.unenteredCarId, driverId: randomUUID(), sectorId: f.speedTraps[0] as string };
      const refusal = update(f, 'LapSectors', { ...wrong, stintLapNumber: undefined });
      await expect(refusal).rejects.toMatchObject({
        status: 400,
        errors: {
          stintLapNumber: ['is required'],
          sessionId: [expect.stringContaining('is not a session of event')],
          carId: ['the car is not entered in the event'],
          driverId: [expect.stringContaining('was not found')],
        },
      });
      const { message } = (await refusal.catch((e: Error) => e)) as Error;
      expect(message).toEqual(expect.stringContaining(`Car ${f.unenteredCarId} is not entered in event ${f.ids.eventId}`));
      expect(message).toEqual(expect.stringContaining('stintLapNumber is required'));
      expect(await runSheets(f)).toEqual([]);
    });
    test('when ids and properties are wrong together, then one 400 names all of them: a property that does not convert, an unknown one, one that moves the lap, one given twice', async () => {
      const f = await fixture();
      const lap = update(f, 'Laps', {
        carId: randomUUID(),
        stintLapNumber: 1,
        properties: [{ name: 'LapTime', value: 'abc' }, { name: 'Nope', value: '1' }, { name: 'StintLapNumber', value: '3' }],
      });
      await expect(lap).rejects.toMatchObject({
        status: 400,
        errors: {
          carId: [expect.stringContaining('was not found in the account')],
          'properties[0].value': [expect.stringContaining("LapTime is a Double; 'abc' is not a number")],
          'properties[1].name': ["Laps has no parameter named 'Nope'"],
          'properties[2].name': [expect.stringContaining('where this update points')],
        },
      });
      const { message } = (await lap.catch((e: Error) => e)) as Error;
      const sentences = ['was not found in the account', "LapTime is a Double; 'abc' is not a number", "Laps has no parameter named 'Nope'", 'StintLapNumber is set from stintLapNumber, not through properties'];
      expect(sentences.map((sentence) => message.indexOf(sentence))).toEqual([...sentences.map((sentence) => message.indexOf(sentence))].sort((a, b) => a - b));
      for (const sentence of sentences) expect(message).toContain(sentence);
      const run = update(f, 'RunSheets', { driverId: f.driverId, properties: [{ name: 'DriverId', value: f.driverId }, { name: 'PitInSessionTime', value: 'soon' }] });
      await expect(run).rejects.toMatchObject({ status: 400, errors: { 'properties[0].name': [expect.stringContaining('also set by driverId')], 'properties[1].value': [expect.any(String)] } });
      expect(await runSheets(f)).toEqual([]);
    });

    test('when an update names 40 unknown properties of 20,000 characters, then the 400 repeats each name cut at 200 characters, and its detail the first 8 and how many more', async () => {
      const f = await fixture();
      const long = (i: number) => `${i}`.padEnd(20_000, 'N');
      const lap = update(f, 'Laps', { stintLapNumber: 1, properties: Array.from({ length: 40 }, (_, i) => ({ name: long(i), value: '1' })) });
      const refused = (await lap.catch((e: unknown) => e)) as { status: number; message: string; errors: Record<string, string[]> };
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.errors)).toHaveLength(40);
      expect(refused.errors['properties[7].name']).toEqual([`Laps has no parameter named '${long(7).slice(0, 200)}…'`]);
      const shown = Array.from({ length: 8 }, (_, i) => `Laps has no parameter named '${long(i).slice(0, 200)}…'`);
      expect(refused.message).toBe(`${shown.join('; ')}; and 32 more, each in errors`);
      expect(await runSheets(f)).toEqual([]);
    });

    test("when an update names another account's championship, event, session, car and driver, then it is 400 naming each, alone and in a batch, and neither account changes", async () => {
      const f = await fixture();
      const other = await fixture();
      const theirs = { championshipId: other.ids.championshipId, eventId: other.ids.eventId, sessionId: other.ids.sessionId, carId: other.ids.carId, driverId: other.driverId };
      const notFound = [expect.stringContaining('was not found in the account')];
      const named = { championshipId: notFound, eventId: notFound, sessionId: notFound, carId: notFound, driverId: notFound };
      await expect(update(f, 'RunSheets', theirs)).rejects.toMatchObject({ status: 400, errors: named });

      // In a batch, beside updates of the caller's own car (the bulk path): refused alone, the others commit.
      const lap = (n: number, ids: Partial<TimingUpdate> = {}) => ({
        caller: f.caller,
        type: 'Laps' as const,
        body: { ...f.ids, runIndex: 0, stintLapNumber: n, properties: [{ name: 'LapTime', value: `9${n}.5` }], ...ids },
        headers: { commandId: `request:foreign-${n}`, commandHash: `f${n}` },
      });
      type Outcome = { ok: boolean; error?: { status: number; errors: Record<string, string[]> } };
      const outcomes = await stack.bus.request<Outcome[]>(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, { items: [lap(1), lap(2, theirs), lap(3)] });
      expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
      expect(outcomes[1]?.error).toMatchObject({ status: 400, errors: named });

      const [run] = await runSheets(f);
      const laps = await stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller: f.caller, type: 'Laps', parentIds: { runSheetId: run?.Id as string } });
      expect(laps.map((l) => l.Parameters['StintLapNumber'])).toEqual([1, 3]);
      expect(await runSheets(other)).toEqual([]);
    });

    test("when a sector or speed trap is not a definition of the session's track configuration, then it is 400 naming the field", async () => {
      const f = await fixture();
      await expect(update(f, 'LapSectors', { stintLapNumber: 1, sectorId: f.foreignSectorId })).rejects.toMatchObject({ status: 400, errors: { sectorId: [expect.stringContaining('TrackConfiguration')] } });
      await expect(update(f, 'LapSectors', { stintLapNumber: 1, sectorId: f.speedTraps[0] as string })).rejects.toMatchObject({ status: 400, errors: { sectorId: [expect.any(String)] } });
      await expect(update(f, 'LapSpeedTraps', { stintLapNumber: 1, speedTrapId: f.sectors[0] as string })).rejects.toMatchObject({ status: 400, errors: { speedTrapId: [expect.any(String)] } });
      expect(await runSheets(f)).toEqual([]);
    });

    test("when properties would set the parameter that addresses a lap, sector or speed trap, then it is 400 naming it, alone and in a batch, and the level keeps its place", async () => {
      const f = await fixture();
      const lap = await update(f, 'Laps', { stintLapNumber: 2 });
      const moves = [
        { type: 'Laps' as const, body: { stintLapNumber: 2, properties: [{ name: 'LapTime', value: '90.1' }, { name: 'stintlapnumber', value: '5' }] }, field: 'properties[1].name' },
        { type: 'LapSectors' as const, body: { stintLapNumber: 2, sectorId: f.sectors[0] as string, properties: [{ name: 'TrackSectorDefinitionId', value: f.foreignSectorId }] }, field: 'properties[0].name' },
        { type: 'LapSpeedTraps' as const, body: { stintLapNumber: 2, speedTrapId: f.speedTraps[0] as string, properties: [{ name: 'TrackSpeedTrapDefinitionId', value: f.speedTraps[1] as string }] }, field: 'properties[0].name' },
      ];
      for (const move of moves) await expect(update(f, move.type, move.body)).rejects.toMatchObject({ status: 400, errors: { [move.field]: [expect.stringContaining('where this update points')] } });

      // In a batch (the bulk path), refused alone.
      const item = (n: number, body: Partial<TimingUpdate>) => ({ caller: f.caller, type: 'Laps' as const, body: { ...f.ids, runIndex: 0, ...body } as TimingUpdate, headers: { commandId: `request:address-${n}-${randomUUID()}`, commandHash: `a${n}` } });
      const outcomes = await stack.bus.request<{ ok: boolean; error?: { status: number } }[]>(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, {
        items: [item(1, { stintLapNumber: 3 }), item(2, moves[0]?.body as Partial<TimingUpdate>), item(3, { stintLapNumber: 4 })],
      });
      expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
      expect(outcomes[1]?.error).toMatchObject({ status: 400 });

      const laps = await stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller: f.caller, type: 'Laps', parentIds: { runSheetId: (await runSheets(f))[0]?.Id as string } });
      expect(laps.map((l) => [l.Id === lap.Id, l.Parameters['StintLapNumber'], l.Parameters['LapTime'] ?? null])).toEqual([
        [true, 2, null],
        [false, 3, null],
        [false, 4, null],
      ]);
      const sectors = await stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller: f.caller, type: 'LapSectors', parentIds: { lapId: lap.Id } });
      expect(sectors).toEqual([]);
    });

    test('when the session has no track configuration, then a sector update is 400 saying so', async () => {
      const f = await fixture();
      const bare = await create(f.caller, 'Sessions', { eventId: f.ids.eventId });
      await expect(update(f, 'LapSectors', { sessionId: bare, stintLapNumber: 1, sectorId: f.sectors[0] as string })).rejects.toMatchObject({
        status: 400,
        errors: { sectorId: ['the session has no TrackConfiguration'] },
      });
    });

    test('when a reader sends an update, then it is 403', async () => {
      const f = await fixture();
      await expect(update(f, 'RunSheets', {}, { ...f.caller, role: 'reader' })).rejects.toMatchObject({ status: 403 });
      expect(await runSheets(f)).toEqual([]);
    });
  });

  test('when its health endpoints are asked, then it is alive and ready with the bus up', async () => {
    const ready = await fetch(`${address}/health/ready`);
    expect(await ready.json()).toEqual({ status: 'ready', dependencies: { bus: 'up' } });
  });

  test('when pinged, then it answers pong on its request queue', async () => {
    expect(await stack.bus.request(SERVICES.timing, 'ping', {})).toBe('pong');
  });
});

async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
