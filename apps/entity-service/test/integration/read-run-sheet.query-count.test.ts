import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createOutbox } from '@pitwall/messaging';
import type { CallerContext, EntityChangedEvent } from '@pitwall/contracts';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';
import { ReadCache } from '../../src/domain/read-cache';
import { entityTestDatabase } from '../support/count-statements';

// The read model loads nested data one query per projection node: the count must not grow with the rows.
const silent = pino({ level: 'silent' });
const database = entityTestDatabase();
let base = 0;
/** Statements since the last `resetStatements()`. */
const statementsSince = () => database.statements() - base;
const resetStatements = () => {
  base = database.statements();
};

/** A run sheet with `laps` laps of three sectors each, inserted in bulk (the store's write path is not under test). */
async function seedRunSheet(accountId: string, laps: number): Promise<string> {
  const runSheetId = randomUUID();
  await database.pool.query(
    `INSERT INTO entity.entities (id, account_id, type, position, parameters, created_at, modified_at) VALUES ($1, $2, 'RunSheets', 0, '{"Name":"Run 1"}', now(), now())`,
    [runSheetId, accountId],
  );
  await database.pool.query(
    `WITH laps AS (
       INSERT INTO entity.entities (id, account_id, type, parent_id, position, parameters, created_at, modified_at)
       SELECT gen_random_uuid(), $2, 'Laps', $1, n, jsonb_build_object('Name', 'Lap ' || n, 'StintLapNumber', n, 'LapTime', 90 + n / 100.0), now(), now()
       FROM generate_series(0, $3 - 1) AS n
       RETURNING id, position)
     INSERT INTO entity.entities (id, account_id, type, parent_id, position, parameters, created_at, modified_at)
     SELECT gen_random_uuid(), $2, 'LapSectors', laps.id, s, jsonb_build_object('Name', 'S' || (s + 1), 'SectorTime', 30 + s), now(), now()
     FROM laps, generate_series(0, 2) AS s`,
    [runSheetId, accountId, laps],
  );
  return runSheetId;
}

async function countedRead(store: EntityStore, caller: CallerContext, id: string) {
  resetStatements();
  const reply = await store.get(caller, 'RunSheets', id, ['Laps.LapTime', 'Laps.LapSectors.*']);
  return { entity: JSON.parse(reply.json.toString('utf8')) as Record<string, unknown>, queries: statementsSince() };
}

const newCaller = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'admin' });

describe('EntityStore.get RunSheets with Laps.LapTime,Laps.LapSectors.*', () => {
  test('when the run sheet has 300 laps of 3 sectors, then it takes as many queries as with 10 laps, and few', async () => {
    const store = new EntityStore(database.pool, createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: silent }));
    const caller = newCaller();
    const small = await countedRead(store, caller, await seedRunSheet(caller.accountId, 10));
    const large = await countedRead(store, caller, await seedRunSheet(caller.accountId, 300));

    const laps = large.entity['Laps'] as { Parameters: Record<string, unknown>; LapSectors: unknown[] }[];
    expect(laps).toHaveLength(300);
    expect(laps[299]?.Parameters).toEqual({ LapTime: 92.99 });
    expect(laps.every((l) => l.LapSectors.length === 3)).toBe(true);
    expect((small.entity['Laps'] as unknown[]).length).toBe(10);

    expect(large.queries).toBe(small.queries);
    // Four that read entities (parameter definitions, the run sheet, its laps, their sectors), plus the snapshot's
    // BEGIN and COMMIT and the account's version.
    expect(large.queries).toBeLessThanOrEqual(7);
  });

  test('when the account was not written since the last read, then the next read is answered with one query', async () => {
    const store = new EntityStore(database.pool, createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: silent }), new ReadCache(16 * 1024 * 1024));
    const caller = newCaller();
    const id = await seedRunSheet(caller.accountId, 300);

    const first = await countedRead(store, caller, id);
    const second = await countedRead(store, caller, id);

    expect(second.entity).toEqual(first.entity);
    expect((second.entity['Laps'] as unknown[]).length).toBe(300);
    expect(second.queries).toBe(1);
  });

  test('when the account was written since the last read, then the next read renders again and shows the write', async () => {
    const store = new EntityStore(database.pool, createOutbox<EntityChangedEvent>({ pool: database.pool, schema: ENTITY_SCHEMA, publish: async () => undefined, logger: silent }), new ReadCache(16 * 1024 * 1024));
    const caller = newCaller();
    const id = await seedRunSheet(caller.accountId, 10);
    const before = await countedRead(store, caller, id);
    const lap = (before.entity['Laps'] as { Id: string }[])[9] as { Id: string };

    await store.update(caller, 'Laps', lap.Id, { ParameterUpdates: [{ Name: 'LapTime', Value: '88.5' }] });
    const after = await countedRead(store, caller, id);

    expect((after.entity['Laps'] as { Parameters: Record<string, unknown> }[])[9]?.Parameters).toEqual({ LapTime: 88.5 });
    expect(after.queries).toBeGreaterThan(1);
  });
});
