import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createInbox, createOutbox } from '@pitwall/messaging';
import { TIMING_BATCH_REPLY_TOO_LARGE, type CallerContext, type EntityChangedEvent, type TimingLevel, type TimingUpdate } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { timingRowRepository } from '../../src/data-access/timing-row-repository';
import type { TimingBatchItem, TimingBatchOutcome } from '../../src/domain/timing/timing-batch';
import { EntityStore } from '../../src/domain/entity-store';
import { entityTestDatabase } from '../support/count-statements';

// A batch of timing updates is applied in bulk (statements per batch, timing-bulk.ts) when it can be, else update by
// update. Both must give the same answers, rows and events: the same feed is applied both ways, in two accounts
// built alike, and everything a client or subscriber sees is compared, ids aside.
const silent = pino({ level: 'silent' });
const database = entityTestDatabase();

type Json = { Id: string };

/** An account with a session (3 sectors, 2 speed traps on its track), two cars entered, one not, and two drivers. */
async function account(options: { maxReplyBytes?: number; beforeCommit?: () => Promise<void> } = {}) {
  const published: string[] = [];
  const outbox = createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async (key, payload) => void published.push(`${key} ${JSON.stringify(payload)}`), logger: silent });
  const inbox = createInbox({ pool: database.pool, schema: ENTITY_SCHEMA, logger: silent });
  const store = new EntityStore(database.pool, outbox, undefined, () => ({}), { inbox });
  // The same account's store with the bus's bound on a reply (BUS_MAX_MESSAGE_BYTES).
  const bounded = new EntityStore(database.pool, outbox, undefined, () => ({}), { inbox, ...options });
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  const names = new Map<string, string>();
  const create = async (name: string, type: string, parentIds: Record<string, string>, parameters: Record<string, string> = {}) => {
    const id = (JSON.parse((await store.create(caller, type, parentIds, { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) })).json.toString('utf8')) as Json).Id;
    names.set(id, name);
    return id;
  };
  const trackId = await create('track', 'Tracks', {});
  const configuration = await create('configuration', 'TrackConfigurations', { trackId });
  const sectors = [await create('s1', 'TrackSectorDefinitions', { trackConfigurationId: configuration }, { Name: 'S1' }), await create('s2', 'TrackSectorDefinitions', { trackConfigurationId: configuration }, { Name: 'S2' })];
  const traps = [await create('t1', 'TrackSpeedTrapDefinitions', { trackConfigurationId: configuration }, { Name: 'ST1' })];
  const championshipId = await create('championship', 'Championships', {});
  const eventId = await create('event', 'Events', { championshipId });
  const sessionId = await create('session', 'Sessions', { eventId }, { TrackConfigurationId: configuration });
  const cars = [await create('car0', 'Cars', {}), await create('car1', 'Cars', {})];
  for (const carId of cars) await create('entry', 'EventCars', { eventId, carId });
  const unentered = await create('unentered', 'Cars', {});
  const drivers = [await create('d0', 'Drivers', {}, { Name: 'A' }), await create('d1', 'Drivers', {}, { Name: 'B' })];
  published.length = 0;
  return { store, bounded, caller, names, published, ids: { accountId: caller.accountId, championshipId, eventId, sessionId }, cars, unentered, sectors, traps, drivers };
}
type Account = Awaited<ReturnType<typeof account>>;

/** The feed, for one account: runs, laps, sectors and traps of two cars, changes, repeats, a pit in and refusals. */
function feed(a: Account): { type: TimingLevel; body: TimingUpdate }[] {
  const at = (car: number, body: Partial<TimingUpdate>) => ({ ...a.ids, carId: a.cars[car] as string, runIndex: 0, ...body }) as TimingUpdate;
  const lapTime = (value: string) => [{ name: 'LapTime', value }];
  return [
    { type: 'RunSheets', body: at(0, { driverId: a.drivers[0], pitOutSessionTime: 10 }) },
    { type: 'Laps', body: at(1, { stintLapNumber: 0, properties: lapTime('101.5') }) },
    { type: 'LapSectors', body: at(0, { stintLapNumber: 0, sectorId: a.sectors[0], properties: [{ name: 'SectorTime', value: '30.1' }] }) },
    { type: 'LapSpeedTraps', body: at(0, { stintLapNumber: 0, speedTrapId: a.traps[0], properties: [{ name: 'Speed', value: '301.2' }] }) },
    // Refused: a car not entered in the event (nothing written), then the next update goes on.
    { type: 'Laps', body: { ...at(0, { stintLapNumber: 1 }), carId: a.unentered } },
    { type: 'LapSectors', body: at(0, { stintLapNumber: 0, sectorId: a.sectors[1], properties: [{ name: 'SectorTime', value: '31.7' }] }) },
    { type: 'Laps', body: at(0, { stintLapNumber: 0, properties: lapTime('99.9') }) },
    // The same lap time again (changes nothing), then another one (changes it).
    { type: 'Laps', body: at(0, { stintLapNumber: 0, properties: lapTime('99.9') }) },
    { type: 'Laps', body: at(0, { stintLapNumber: 0, properties: lapTime('98.8') }) },
    // Refused after the run is found: the pit-in rule needs a pit in first.
    { type: 'RunSheets', body: at(1, { shouldCreateNextRun: true }) },
    { type: 'RunSheets', body: at(0, { pitInSessionTime: 200 }) },
    { type: 'RunSheets', body: at(0, { shouldCreateNextRun: true }) },
    { type: 'RunSheets', body: at(0, { runIndex: 1, driverId: a.drivers[1], pitOutSessionTime: 260 }) },
    { type: 'LapSectors', body: at(0, { runIndex: 1, stintLapNumber: 0, sectorId: a.sectors[0], properties: [{ name: 'SectorTime', value: '33.3' }] }) },
    // Refused: a sector that is not a definition of the session's track configuration.
    { type: 'LapSectors', body: at(1, { stintLapNumber: 0, sectorId: a.drivers[0] }) },
    { type: 'Laps', body: at(1, { stintLapNumber: 1, properties: [...lapTime('100.25'), { name: 'Name', value: 'Flying' }] }) },
  ];
}

const items = (a: Account, prefix: string): TimingBatchItem[] =>
  feed(a).map(({ type, body }, i) => ({ caller: a.caller, type, body, headers: { commandId: `${prefix}:${i}`, commandHash: `h${i}` } }));

/** What a client and a subscriber see, as text with every id named (fixture ids by name, new ones by first appearance) and times blanked. */
async function seen(a: Account, outcomes: TimingBatchOutcome[]): Promise<string> {
  const { rows } = await database.pool.query<{ type: string; id: string; parent_id: string; parameters: unknown; timing_key: string }>(
    `SELECT type, id::text, parent_id::text, parameters, timing_key FROM entity.entities WHERE account_id = $1 AND timing_key IS NOT NULL ORDER BY type, timing_key, parameters::text`,
    [a.caller.accountId],
  );
  const text = JSON.stringify({
    answers: outcomes.map((o) => (o.ok ? { ok: o.reply.json.toString('utf8'), modified: !!o.reply.lastModifiedTime, id: o.reply.entityId } : { error: o.error.status, errors: o.error.errors })),
    events: a.published,
  });
  const names = new Map(a.names);
  const name = (id: string) => {
    if (!names.has(id)) names.set(id, `new${names.size}`);
    return names.get(id) as string;
  };
  const named = text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, name).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'T');
  const stored = rows.map((r) => `${r.type} under ${name(r.parent_id)} at ${r.timing_key.replace(/[0-9a-f-]{36}/g, name)}: ${JSON.stringify(r.parameters)}`.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, name));
  return `${named}\n${stored.sort().join('\n')}`;
}

const until = async (check: () => boolean) => {
  for (const end = Date.now() + 5000; !check() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
};

describe('timing batches in bulk', () => {
  test('when a feed is applied as one batch and the same feed update by update, then the answers, the stored rows and the events are the same, and the batch took fewer statements than it has updates', async () => {
    const bulk = await account();
    const alone = await account();

    const before = database.statements();
    const inBulk = await bulk.store.applyTimingBatch(items(bulk, 'bulk'));
    const bulkStatements = database.statements() - before;
    const oneByOne: TimingBatchOutcome[] = [];
    for (const item of items(alone, 'alone')) oneByOne.push(...(await alone.store.applyTimingBatch([item])));
    await until(() => bulk.published.length >= alone.published.length && alone.published.length > 0);

    expect(inBulk.map((o) => o.ok)).toEqual([true, true, true, true, false, true, true, true, true, false, true, true, true, true, false, true]);
    expect(await seen(bulk, inBulk)).toEqual(await seen(alone, oneByOne));
    expect(bulkStatements).toBeLessThan(feed(bulk).length);
  });

  test('when a batch applied in bulk is delivered again, then every accepted update answers its recorded reply, the refused ones are refused again, and nothing more is written or published', async () => {
    const a = await account();
    const batch = items(a, 'again');
    const first = await a.store.applyTimingBatch(batch);
    await until(() => a.published.length > 0);
    const afterFirst = await seen(a, first);
    const publishedFirst = a.published.length;

    const second = await a.store.applyTimingBatch(batch);
    await new Promise((r) => setTimeout(r, 200));

    expect(a.published).toHaveLength(publishedFirst);
    expect(await seen(a, second)).toEqual(afterFirst);
  });

  test("when batches end (in bulk, update by update after a refusal, alone), then no car's timing lock is left held, and ids with quotes are refused, not run as SQL", async () => {
    const a = await account();
    const batch = items(a, 'locks');
    const bad = { ...(batch[1] as TimingBatchItem), headers: { commandId: 'locks:bad', commandHash: 'b' }, body: { ...(batch[1] as TimingBatchItem).body, properties: [{ name: 'Name', value: 'Out\u0000lap' }] } };
    const quoted = { ...(batch[0] as TimingBatchItem), headers: { commandId: 'locks:quoted', commandHash: 'q' }, body: { ...(batch[0] as TimingBatchItem).body, carId: "x'); SELECT pg_advisory_lock(1); --\\" } };
    const held = async () =>
      Number((await database.pool.query<{ n: string }>(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).rows[0]?.n);

    const inBulk = await a.store.applyTimingBatch(batch.slice(0, 4));
    expect(inBulk.map((o) => o.ok)).toEqual([true, true, true, true]);
    expect(await held()).toBe(0);
    const fellBack = await a.store.applyTimingBatch([batch[5] as TimingBatchItem, bad, batch[6] as TimingBatchItem]);
    expect(fellBack.map((o) => o.ok)).toEqual([true, false, true]);
    expect(await held()).toBe(0);
    const alone = await a.store.applyTimingBatch([quoted]);
    const withOthers = await a.store.applyTimingBatch([{ ...quoted, headers: { commandId: 'locks:quoted2', commandHash: 'q2' } }, batch[8] as TimingBatchItem]);
    // Not a GUID (the gateway refuses it first): refused here too, and the text after the quote never ran as SQL.
    expect([...alone, ...withOthers].map((o) => o.ok)).toEqual([false, false, true]);
    expect(await held()).toBe(0);
  });

  test("when another account's editor sends updates naming this account's session and car, then they are refused without waiting on this account's feed", async () => {
    const victim = await account();
    // The victim's feed has its run and lap, and a batch of its car is being applied (it holds the car's lock).
    expect((await victim.store.applyTimingBatch(items(victim, 'victim').slice(0, 2))).map((o) => o.ok)).toEqual([true, true]);
    const held = await database.pool.connect();
    try {
      await held.query('BEGIN');
      await timingRowRepository.lockTimingCar(held, victim.caller.accountId, victim.ids.sessionId, victim.cars[0] as string);
      const intruder = await account();
      const aimed = (body: Partial<TimingUpdate>, type: TimingLevel): TimingBatchItem => ({
        caller: intruder.caller,
        type,
        body: { ...victim.ids, accountId: intruder.caller.accountId, carId: victim.cars[0] as string, runIndex: 0, ...body } as TimingUpdate,
        headers: { commandId: `intruder:${randomUUID()}`, commandHash: 'h' },
      });
      const alone = await victim.store.applyTimingBatch([aimed({ driverId: null }, 'RunSheets')]);
      const batch = await victim.store.applyTimingBatch([aimed({}, 'RunSheets'), aimed({ stintLapNumber: 0 }, 'Laps'), aimed({ stintLapNumber: 1 }, 'Laps')]);
      const refusal = `400 Championship ${victim.ids.championshipId} was not found in the account; Event ${victim.ids.eventId} was not found in the account; Session ${victim.ids.sessionId} was not found in the account; Car ${victim.cars[0]} was not found in the account`;
      expect([...alone, ...batch].map((o) => (o.ok ? 'ok' : `${o.error.status} ${o.error.message}`))).toEqual([refusal, refusal, refusal, refusal]);
    } finally {
      await held.query('ROLLBACK');
      held.release();
    }
  });

  test("when a batch's locks cannot be taken (its BEGIN is cancelled while it waits), then the batch fails whole and nothing of it is applied without them", async () => {
    const a = await account();
    const batch = items(a, 'cancelled').slice(0, 4);
    const held = await database.pool.connect();
    try {
      // Another batch of the same car holds its lock.
      await held.query(`SELECT pg_advisory_lock(hashtext('entity.timing:' || $1 || ':' || $2 || ':' || $3))`, [a.caller.accountId, a.ids.sessionId, a.cars[0]]);
      const applying = a.store.applyTimingBatch(batch).then(
        () => 'applied',
        (err: Error) => err.message,
      );
      let waiting: string | undefined;
      for (const end = Date.now() + 5000; !waiting && Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
        const { rows } = await held.query<{ pid: string }>(`SELECT pid::text FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'BEGIN;%pg_advisory_lock%' AND datname = current_database()`);
        waiting = rows[0]?.pid;
      }
      await held.query('SELECT pg_cancel_backend($1::int)', [waiting]);

      expect(await applying).toMatch(/cancel/);
      const { rows } = await held.query(`SELECT 1 FROM entity.entities WHERE account_id = $1 AND timing_key IS NOT NULL`, [a.caller.accountId]);
      expect(rows).toEqual([]);
    } finally {
      await held.query(`SELECT pg_advisory_unlock_all()`);
      held.release();
    }
    expect((await a.store.applyTimingBatch(batch)).map((o) => o.ok)).toEqual([true, true, true, true]);
  });

  test('when a batch repeats a command id, then it is applied update by update: the repeat answers the first reply', async () => {
    const a = await account();
    const batch = items(a, 'repeat').slice(0, 3);
    const outcomes = await a.store.applyTimingBatch([...batch, batch[1] as TimingBatchItem]);

    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true]);
    expect(outcomes[3]?.ok && outcomes[3].reply.json.toString('utf8')).toEqual(outcomes[1]?.ok && outcomes[1].reply.json.toString('utf8'));
  });

  test('when the answers of a batch would be more bytes than one bus message takes (BUS_MAX_MESSAGE_BYTES), then nothing of it is written: several are refused with the type that has the timing-service halve them, one alone with a 413 of its own', async () => {
    const a = await account({ maxReplyBytes: 2500 });
    const rows = async () => Number((await database.pool.query<{ n: string }>('SELECT count(*) AS n FROM entity.entities WHERE account_id = $1', [a.caller.accountId])).rows[0]?.n);
    const before = await rows();
    const batch = items(a, 'big').slice(0, 4);
    // In bulk, and update by update (a repeated command id takes that path).
    for (const attempt of [batch, [...batch, batch[1] as TimingBatchItem]]) {
      const refused = await a.bounded.applyTimingBatch(attempt).catch((err: unknown) => err);
      expect(refused).toMatchObject({ status: 413, type: TIMING_BATCH_REPLY_TOO_LARGE, message: expect.stringMatching(/^The answers to these \d timing updates would be about \d+ bytes, more than one message of the broker takes \(BUS_MAX_MESSAGE_BYTES is 2500\): nothing was changed/) });
    }
    // One update whose entity alone is larger.
    const big = { ...(batch[0] as TimingBatchItem), body: { ...(batch[0] as TimingBatchItem).body, properties: [{ name: 'Name', value: 'Out lap '.repeat(400) }] } };
    const one = await a.bounded.applyTimingBatch([big]).catch((err: unknown) => err);
    expect(one).toMatchObject({ status: 413, type: undefined, message: expect.stringMatching(/^The answer to this timing update \(its entity\) would be about \d+ bytes/) });
    await new Promise((r) => setTimeout(r, 100));
    expect(await rows()).toBe(before);
    expect(a.published).toEqual([]);

    // Halved as the timing-service does, each half fits and commits.
    const halves = [...(await a.bounded.applyTimingBatch(batch.slice(0, 2))), ...(await a.bounded.applyTimingBatch(batch.slice(2)))];
    expect(halves.map((o) => o.ok)).toEqual([true, true, true, true]);
    expect(await rows()).toBeGreaterThan(before);
  });

  test("when a batch applied update by update holds a repeat already answered from the inbox whose deadline passes before the commit, then that repeat answers its recorded reply and does not hold the others' commit", async () => {
    const a = await account({ beforeCommit: () => new Promise((resolve) => setTimeout(resolve, 150)) });
    const batch = items(a, 'late').slice(0, 3);
    const first = await a.store.applyTimingBatch([batch[0] as TimingBatchItem]);
    // The repeat's deadline passes while the batch runs; the repeated command id takes the batch update by update.
    const late = { ...(batch[0] as TimingBatchItem), deadline: Date.now() + 50 };
    const outcomes = await a.bounded.applyTimingBatch([late, batch[1] as TimingBatchItem, batch[2] as TimingBatchItem, batch[1] as TimingBatchItem]);

    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true]);
    expect(outcomes[0]?.ok && outcomes[0].reply.json.toString('utf8')).toBe(first[0]?.ok && first[0].reply.json.toString('utf8'));
  });

  test('when an update of a batch has a value the database refuses, then the batch goes update by update: only that update is refused (400) and the others commit', async () => {
    const a = await account();
    const batch = items(a, 'refused').slice(0, 4);
    // A NUL character cannot be stored in jsonb: the bulk insert fails as a whole, the updates alone do not.
    const bad = { ...(batch[1] as TimingBatchItem), body: { ...(batch[1] as TimingBatchItem).body, properties: [{ name: 'Name', value: 'Out\u0000lap' }] } };
    const outcomes = await a.store.applyTimingBatch([batch[0] as TimingBatchItem, bad, batch[2] as TimingBatchItem, batch[3] as TimingBatchItem]);

    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true, true]);
    expect(outcomes[1]?.ok === false && outcomes[1].error.status).toBe(400);
  });
});
