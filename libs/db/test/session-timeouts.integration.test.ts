import type pg from 'pg';
import { createLogger, toAppError } from '@pitwall/service-kit';
import { createPool, migrate, withTransaction } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

const logger = createLogger('db-test');

describe('the pool bounds a statement and a transaction left idle (DB_STATEMENT_TIMEOUT_MS, DB_IDLE_IN_TRANSACTION_TIMEOUT_MS)', () => {
  let db: TestDatabase;
  let bounded: pg.Pool;
  let other: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    bounded = createPool({ url: db.url, applicationName: 'db-timeouts-test', logger, max: 2, statementTimeoutMs: 300, idleInTransactionTimeoutMs: 400 });
    other = createPool({ url: db.url, applicationName: 'db-timeouts-other', logger, max: 1 });
    await other.query('CREATE TABLE laps (id int PRIMARY KEY, n int NOT NULL)');
    await other.query('INSERT INTO laps VALUES (1, 0)');
  });
  afterAll(async () => {
    await bounded.end();
    await other.end();
    await db.drop();
  });

  const valueOfLap1 = async () => (await other.query<{ n: number }>('SELECT n FROM laps WHERE id = 1')).rows[0]?.n;

  test('when a statement runs past the statement timeout, then it is cancelled, its transaction leaves nothing, the answer is a 503 naming DB_STATEMENT_TIMEOUT_MS, and the pool serves on', async () => {
    const failure = await withTransaction(bounded, async (c) => {
      await c.query('UPDATE laps SET n = 1 WHERE id = 1');
      await c.query('SELECT pg_sleep(3)');
    }).catch((err: unknown) => err);
    expect(toAppError(failure)).toMatchObject({ status: 503, retryAfterSeconds: 1, message: expect.stringContaining('DB_STATEMENT_TIMEOUT_MS') });
    expect(await valueOfLap1()).toBe(0);
    expect((await bounded.query('SHOW statement_timeout')).rows[0]).toEqual({ statement_timeout: '300ms' });
  });

  test('when a transaction is left idle past the idle timeout, then the server ends it: its lock is freed, its write is not kept, and the pool serves on', async () => {
    let release!: () => void;
    let updated!: () => void;
    const idle = new Promise<void>((resolve) => (release = resolve));
    const holding = new Promise<void>((resolve) => (updated = resolve));
    const stuck = withTransaction(bounded, async (c) => {
      await c.query('UPDATE laps SET n = 2 WHERE id = 1');
      updated();
      await idle; // the process holding the transaction stops doing anything
      await c.query('SELECT 1');
    }).catch((err: unknown) => err);
    await holding;
    // The stuck transaction holds the row's lock and never lets go: only the server ending its session frees it for
    // another writer (which would otherwise give up at its own lock_timeout with 55P03).
    await other.query("SET lock_timeout = '10s'; UPDATE laps SET n = 3 WHERE id = 1; RESET lock_timeout");
    release();
    expect(toAppError(await stuck)).toMatchObject({ status: 503 });
    expect(await valueOfLap1()).toBe(3);
    expect((await bounded.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
  });

  test('when a migration runs longer than the statement timeout, then it still applies', async () => {
    const { applied } = await migrate(bounded, { schema: 'slow', logger, migrations: [{ version: 1, name: 'slow', sql: "SELECT pg_sleep(0.6); CREATE TABLE slow.t (id int)" }] });
    expect(applied).toEqual([1]);
  });
});
