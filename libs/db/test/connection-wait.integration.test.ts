import type pg from 'pg';
import { createLogger, toAppError } from '@pitwall/service-kit';
import { createPool, withConnection, withTransaction } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

const logger = createLogger('db-test');

describe('waiting for a pooled connection (withConnection / withTransaction waitUntil)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ url: db.url, applicationName: 'db-wait-test', logger, max: 1 });
    await pool.query('CREATE TABLE laps (id serial PRIMARY KEY, n int NOT NULL)');
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  /** Holds the pool's only connection for `ms`. */
  const holdOnly = (ms: number) => withConnection(pool, () => new Promise((resolve) => setTimeout(resolve, ms)));

  test('when the only connection is busy past the wait, then the caller gets the 503 of a pool wait and nothing is written', async () => {
    const held = holdOnly(1500);
    const refused = await withTransaction(pool, (c) => c.query('INSERT INTO laps (n) VALUES (1)'), { waitUntil: Date.now() + 300 }).catch((err: unknown) => err);
    expect(toAppError(refused)).toMatchObject({ status: 503 });
    await held;
    expect((await pool.query('SELECT count(*)::int AS n FROM laps WHERE n = 1')).rows[0]).toEqual({ n: 0 });
  });

  test('when the only connection frees up within the wait, then the write runs once it is free', async () => {
    const held = holdOnly(700);
    await withTransaction(pool, (c) => c.query('INSERT INTO laps (n) VALUES (2)'), { waitUntil: Date.now() + 5000 });
    await held;
    expect((await pool.query('SELECT count(*)::int AS n FROM laps WHERE n = 2')).rows[0]).toEqual({ n: 1 });
  });

  test('when a wait gave up and the connection comes later, then it goes back to the pool and serves the next caller', async () => {
    const held = holdOnly(500);
    await expect(withConnection(pool, async () => 'never', { waitUntil: Date.now() + 100 })).rejects.toThrow('timeout exceeded when trying to connect');
    await held;
    // One connection in all: had the late one been kept by the abandoned wait, this would wait and fail.
    expect(await withConnection(pool, async (c) => (await c.query('SELECT 1 AS one')).rows[0], { waitUntil: Date.now() + 2000 })).toEqual({ one: 1 });
    expect(pool.totalCount).toBe(1);
  });
});
