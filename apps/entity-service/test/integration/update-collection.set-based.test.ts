import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox, type PublishMessage } from '@pitwall/messaging';
import type { CallerContext, CollectionItemUpdate, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { entityTestDatabase } from '../support/count-statements';

// A collection update is written set-based: its statement count must not grow with its items.
const silent = pino({ level: 'silent' });
const database = entityTestDatabase();
let base = 0;
/** Statements since the last `resetStatements()`. */
const statementsSince = () => database.statements() - base;
const resetStatements = () => {
  base = database.statements();
};

/** A run sheet with `laps` laps (Lap 0 … Lap n-1), inserted in bulk. */
async function seedRunSheet(accountId: string, laps: number): Promise<{ runSheetId: string; lapIds: string[] }> {
  const runSheetId = randomUUID();
  await database.pool.query(
    `INSERT INTO entity.entities (id, account_id, type, position, parameters, created_at, modified_at) VALUES ($1, $2, 'RunSheets', 0, '{"Name":"Run 1"}', now(), now())`,
    [runSheetId, accountId],
  );
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO entity.entities (id, account_id, type, parent_id, position, parameters, created_at, modified_at)
     SELECT gen_random_uuid(), $2, 'Laps', $1, n, jsonb_build_object('Name', 'Lap ' || n, 'StintLapNumber', n), now(), now()
     FROM generate_series(0, $3 - 1) AS n ORDER BY n RETURNING id::text`,
    [runSheetId, accountId, laps],
  );
  return { runSheetId, lapIds: rows.map((r) => r.id) };
}

function storeRecording(): { store: EntityStore; published: EntityChangedEvent[]; settled: () => Promise<void> } {
  const published: EntityChangedEvent[] = [];
  const publish: PublishMessage<EntityChangedEvent> = async (_key, event) => void published.push(event);
  // Every write's events as one outbox batch, small or large: the statements compared are then the entity path's.
  const outbox = createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish, logger: silent, batchFrom: 1 });
  // A write answers before its events' publication ends: `settled` waits for it, so its statements are counted too.
  return { store: new EntityStore(database.pool, outbox), published, settled: () => outbox.settled() };
}

/** `added` new laps after the seeded ones, then a change to every seeded lap but the first, which is deleted. */
function lapItems(lapIds: string[], added: number): CollectionItemUpdate[] {
  const [first, ...rest] = lapIds as [string, ...string[]];
  return [
    { Id: first, Delete: true },
    ...rest.map((Id, i) => ({ Id, ParameterUpdates: [{ Name: 'LapTime', Value: String(90 + i / 100) }] })),
    ...Array.from({ length: added }, (_, i) => ({ ParameterUpdates: [{ Name: 'Name', Value: `New ${i}` }, { Name: 'StintLapNumber', Value: String(lapIds.length + i) }] })),
  ];
}

async function lapsOf(accountId: string, runSheetId: string): Promise<{ id: string; name: string; lapTime: number | null; position: number }[]> {
  const { rows } = await database.pool.query<{ id: string; name: string; lap_time: number | null; position: number }>(
    `SELECT id::text, parameters->>'Name' AS name, (parameters->>'LapTime')::float8 AS lap_time, position FROM entity.entities
     WHERE account_id = $1 AND type = 'Laps' AND parent_id = $2 ORDER BY position`,
    [accountId, runSheetId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, lapTime: r.lap_time, position: r.position }));
}

const newCaller = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'editor' });

describe('EntityStore.update RunSheets with CollectionUpdateModels.Laps', () => {
  test('when 2,000 laps are added, changed and deleted, then it takes as many statements as 20, and each lap has its event in item order', async () => {
    const { store, published, settled } = storeRecording();
    const caller = newCaller();
    const small = await seedRunSheet(caller.accountId, 10);
    resetStatements();
    await store.update(caller, 'RunSheets', small.runSheetId, { CollectionUpdateModels: { Laps: lapItems(small.lapIds, 10) } });
    await settled();
    const smallStatements = statementsSince();

    const large = await seedRunSheet(caller.accountId, 1000);
    published.length = 0;
    resetStatements();
    await store.update(caller, 'RunSheets', large.runSheetId, { CollectionUpdateModels: { Laps: lapItems(large.lapIds, 1000) } });
    await settled();

    expect(statementsSince()).toBe(smallStatements);
    const laps = await lapsOf(caller.accountId, large.runSheetId);
    expect(laps).toHaveLength(1999);
    expect(laps.map((l) => l.name)).toEqual([...large.lapIds.slice(1).map((_, i) => `Lap ${i + 1}`), ...Array.from({ length: 1000 }, (_, i) => `New ${i}`)]);
    expect(laps[0]?.lapTime).toBe(90);
    expect(laps[998]?.lapTime).toBe(99.98);
    // New laps are appended after the highest position, in item order.
    expect(laps.slice(999).map((l) => l.position)).toEqual(Array.from({ length: 1000 }, (_, i) => 1000 + i));

    // The run sheet's event first, then one per item in item order.
    expect(published).toHaveLength(2001);
    expect(published[0]).toMatchObject({ action: 'updated', entityType: 'RunSheet', entityId: large.runSheetId });
    expect(published[1]).toMatchObject({ action: 'deleted', entityType: 'Lap', entityId: large.lapIds[0] });
    expect(published.slice(2, 1001).map((e) => [e.action, e.entityId])).toEqual(large.lapIds.slice(1).map((id) => ['updated', id]));
    expect(published.slice(1001).map((e) => e.action)).toEqual(Array(1000).fill('created'));
    expect(published.slice(1001).map((e) => e.entityId)).toEqual(laps.slice(999).map((l) => l.id));
    expect(published[2]?.changedParameters).toEqual(['LapTime']);
  });

  test('when the same lap is changed twice in one update, then the second change builds on the first', async () => {
    const { store, published } = storeRecording();
    const caller = newCaller();
    const { runSheetId, lapIds } = await seedRunSheet(caller.accountId, 1);
    const lap = lapIds[0] as string;
    await store.update(caller, 'RunSheets', runSheetId, {
      CollectionUpdateModels: { Laps: [{ Id: lap, ParameterUpdates: [{ Name: 'LapTime', Value: '91' }] }, { Id: lap, ParameterUpdates: [{ Name: 'Name', Value: 'Out lap' }] }] },
    });
    expect(await lapsOf(caller.accountId, runSheetId)).toEqual([{ id: lap, name: 'Out lap', lapTime: 91, position: 0 }]);
    expect(published.slice(1).map((e) => e.changedParameters)).toEqual([['LapTime'], ['Name']]);
  });

  test('when an item after many good ones is bad, then it is a 400 naming that item and nothing is written', async () => {
    const { store, published } = storeRecording();
    const caller = newCaller();
    const { runSheetId, lapIds } = await seedRunSheet(caller.accountId, 3);
    const items: CollectionItemUpdate[] = [
      ...lapItems(lapIds, 500),
      { Id: randomUUID(), ParameterUpdates: [{ Name: 'LapTime', Value: '90' }] },
      { ParameterUpdates: [{ Name: 'LapTime', Value: 'fast' }] },
    ];
    await expect(store.update(caller, 'RunSheets', runSheetId, { CollectionUpdateModels: { Laps: items } })).rejects.toMatchObject({
      status: 400,
      errors: { 'CollectionUpdateModels.Laps[503].Id': expect.any(Array) },
    });
    expect(await lapsOf(caller.accountId, runSheetId)).toEqual(lapIds.map((id, i) => ({ id, name: `Lap ${i}`, lapTime: null, position: i })));
    expect(published).toEqual([]);
  });
});

describe('a collection update that deletes items others refer to', () => {
  test('when a lap is deleted through its run sheet\'s collection, then a Reference to it (or to one of its sectors) elsewhere is set to null, with an updated event, as a delete of the lap does', async () => {
    const { store, published, settled } = storeRecording();
    const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
    const { runSheetId, lapIds } = await seedRunSheet(caller.accountId, 3);
    const [gone, kept] = lapIds as [string, string];
    const parameters = (updates: Record<string, string>) => ({ ParameterUpdates: Object.entries(updates).map(([Name, Value]) => ({ Name, Value })) });
    await store.create(caller, 'ParameterDefinitions', {}, parameters({ Name: 'BestLapId', EntityType: 'RunSheets', ParameterType: 'Reference', ReferencedEntityType: 'Laps' }));
    await store.create(caller, 'ParameterDefinitions', {}, parameters({ Name: 'KeySectorId', EntityType: 'Cars', ParameterType: 'Reference', ReferencedEntityType: 'LapSectors' }));
    const sector = JSON.parse((await store.create(caller, 'LapSectors', { lapId: gone }, parameters({ Name: 'S1' }))).json.toString('utf8')) as { Id: string };
    const car = JSON.parse((await store.create(caller, 'Cars', {}, parameters({ Name: 'Car 7', KeySectorId: sector.Id }))).json.toString('utf8')) as { Id: string };
    await store.update(caller, 'RunSheets', runSheetId, parameters({ BestLapId: gone }));
    const other = JSON.parse((await store.create(caller, 'Cars', {}, parameters({ Name: 'Car 8' }))).json.toString('utf8')) as { Id: string };
    await store.update(caller, 'Cars', other.Id, parameters({ Name: 'Car 8' }));
    await settled();
    published.length = 0;

    await store.update(caller, 'RunSheets', runSheetId, { CollectionUpdateModels: { Laps: [{ Id: gone, Delete: true }, { Id: kept, ParameterUpdates: [{ Name: 'LapTime', Value: '91.2' }] }] } });
    await settled();
    const read = async (type: string, id: string) => (JSON.parse((await store.get(caller, type, id)).json.toString('utf8')) as { Parameters: Record<string, unknown> }).Parameters;
    expect((await read('RunSheets', runSheetId))['BestLapId']).toBeNull();
    expect((await read('Cars', car.Id))['KeySectorId']).toBeNull();
    expect(published.filter((e) => e.action === 'updated' && (e.entityId === runSheetId || e.entityId === car.Id)).map((e) => e.changedParameters).sort()).toEqual([['BestLapId'], ['KeySectorId']]);
    expect((await lapsOf(caller.accountId, runSheetId)).map((l) => l.id)).not.toContain(gone);
  });
});
