import type pg from 'pg';
import pino from 'pino';
import { createPool, migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { ENTITY_SCHEMA, entityMigrations } from '../../src/data-access/migrations';

/**
 * Counts every statement sent through the pool, by pool.query or by a client from pool.connect() (pool.query runs
 * on a client it lends itself, so counting at the clients counts each statement once). `count()` reads the total.
 */
export function countStatements(p: pg.Pool): { count: () => number } {
  let statements = 0;
  const wrap = <T extends { query: (...args: never[]) => unknown }>(target: T): void => {
    const original = target.query.bind(target) as (...args: unknown[]) => unknown;
    (target as { query: unknown }).query = (...args: unknown[]) => {
      statements++;
      return original(...args);
    };
  };
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
  return { count: () => statements };
}

/**
 * A fresh database with the entity schema for the tests of one file: created and migrated before them, dropped
 * after; `statements()` counts every statement sent through its pool so far.
 */
export function entityTestDatabase(): { readonly pool: pg.Pool; statements: () => number } {
  const silent = pino({ level: 'silent' });
  let db: TestDatabase | undefined;
  let pool: pg.Pool | undefined;
  let counter: { count: () => number } | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ url: db.url, applicationName: 'entity-service-test', logger: silent });
    await migrate(pool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, logger: silent });
    counter = countStatements(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });
  return {
    get pool(): pg.Pool {
      if (!pool) throw new Error('the test database is made in beforeAll: use it in a test or a hook');
      return pool;
    },
    statements: () => counter?.count() ?? 0,
  };
}
