import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import pino from 'pino';
import { createPool, migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import type { CallerContext } from '@pitwall/contracts';
import { ENTITY_SCHEMA, entityMigrations } from '../../src/data-access/migrations';
import { EntityStore } from '../../src/domain/entity-store';

// The read model loads nested data one query per projection node: the count must not grow with the rows.
let db: TestDatabase;
let pool: pg.Pool;
let statements = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool({ url: db.url, applicationName: 'entity-service-test', logger: pino({ level: 'silent' }) });
  await migrate(pool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: pino({ level: 'silent' }) });
  countStatements(pool);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

/**
 * Counts every statement sent through the pool, by pool.query or by a client from pool.connect(). pool.query runs
 * on a client it lends itself, so counting at the clients counts each statement once.
 */
function countStatements(p: pg.Pool): void {
  const wrap = <T extends { query: (...args: never[]) => unknown }>(target: T): void => {
    const original = target.query.bind(target) as (...args: unknown[]) => unknown;
    (target as { query: unknown }).query = (...args: unknown[]) => {
      statements++;
      return original(...args);
    };
  };
  // pool.query lends itself a client through the callback form of connect: both forms must hand out counted clients.
  const connect = p.connect.bind(p) as (callback?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => Promise<pg.PoolClient> | undefined;
  const counted = new WeakSet<pg.PoolClient>();
  const track = (client: pg.PoolClient | undefined): void => {
    if (client && !counted.has(client)) {
      wrap(client);
      counted.add(client);
    }
  };
  (p as { connect: unknown }).connect = (callback?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => {
    if (callback) return connect((err, client, done) => (track(client), callback(err, client, done)));
    return (connect() as Promise<pg.PoolClient>).then((client) => (track(client), client));
  };
}

/** A run sheet with `laps` laps of three sectors each, inserted in bulk (the store's write path is not under test). */
async function seedRunSheet(accountId: string, laps: number): Promise<string> {
  const runSheetId = randomUUID();
  await pool.query(
    `INSERT INTO entity.entities (id, account_id, type, position, parameters, created_at, modified_at) VALUES ($1, $2, 'RunSheets', 0, '{"Name":"Run 1"}', now(), now())`,
    [runSheetId, accountId],
  );
  await pool.query(
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
  statements = 0;
  const { entity } = await store.get(caller, 'RunSheets', id, ['Laps.LapTime', 'Laps.LapSectors.*']);
  return { entity, queries: statements };
}

describe('EntityStore.get RunSheets with Laps.LapTime,Laps.LapSectors.*', () => {
  test('when the run sheet has 300 laps of 3 sectors, then it takes as many queries as with 10 laps, and few', async () => {
    const store = new EntityStore(pool, async () => undefined);
    const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'admin' };
    const small = await countedRead(store, caller, await seedRunSheet(caller.accountId, 10));
    const large = await countedRead(store, caller, await seedRunSheet(caller.accountId, 300));

    const laps = large.entity['Laps'] as { Parameters: Record<string, unknown>; LapSectors: unknown[] }[];
    expect(laps).toHaveLength(300);
    expect(laps[299]?.Parameters).toEqual({ LapTime: 92.99 });
    expect(laps.every((l) => l.LapSectors.length === 3)).toBe(true);
    expect((small.entity['Laps'] as unknown[]).length).toBe(10);

    expect(large.queries).toBe(small.queries);
    expect(large.queries).toBeLessThanOrEqual(4);
  });
});
