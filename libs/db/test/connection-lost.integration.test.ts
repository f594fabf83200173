import pg from 'pg';
import pino from 'pino';
import { causeFields, createLogger, inRequestScope, toAppError } from '@pitwall/service-kit';
import { BrokenConnection, createPool, inTransaction, withConnection, withTransaction } from '../src';
import { createTestDatabase, TEST_DATABASE_ADMIN_URL, type TestDatabase } from '../src/testing';

const logger = createLogger('db-test');

/** Terminates the backend `pid` from an admin connection, as an operator or a failover would. */
async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

/** Lets the terminated connection's error and end events reach the client (they come on later ticks). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('a checked-out client whose backend is terminated', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => void uncaught.push(err);
  // Jest's own handler would fail the test anyway; this one makes the count the assertion.
  let jestHandlers: NodeJS.UncaughtExceptionListener[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ url: db.url, applicationName: 'db-test', logger, max: 2 });
    await pool.query('CREATE TABLE laps (id serial PRIMARY KEY, n int NOT NULL)');
  });
  beforeEach(() => {
    uncaught.length = 0;
    jestHandlers = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onUncaught);
  });
  afterEach(() => {
    process.removeListener('uncaughtException', onUncaught);
    for (const h of jestHandlers) process.on('uncaughtException', h);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  test('when it is terminated between two statements of a transaction, then the write rolls back as a 503 with Retry-After, nothing escapes, and the pool goes on', async () => {
    const attempt = withTransaction(pool, async (c) => {
      await c.query('INSERT INTO laps (n) VALUES (1)');
      const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await terminate((rows[0] as { pid: number }).pid);
      await settle();
      await c.query('INSERT INTO laps (n) VALUES (2)');
    });
    const err = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    await settle();
    expect(uncaught).toEqual([]);
    expect(toAppError(err)).toMatchObject({ status: 503, catastrophic: false, retryAfterSeconds: 1 });
    expect((await pool.query('SELECT count(*)::int AS n FROM laps')).rows[0].n).toBe(0);
  });

  test('when it is terminated while a statement runs, then the statement fails as a 503, nothing escapes, and the connection is replaced', async () => {
    const pids = new Set<number>();
    const err = await withConnection(pool, async (c) => {
      const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const pid = (rows[0] as { pid: number }).pid;
      pids.add(pid);
      const sleeping = c.query('SELECT pg_sleep(5)');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await terminate(pid);
      await sleeping;
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await settle();
    expect(uncaught).toEqual([]);
    expect(toAppError(err)).toMatchObject({ status: 503, catastrophic: false });
    // Every connection the pool hands out now is a live one, none of them the terminated backend.
    for (let i = 0; i < 3; i += 1) {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(pids.has((rows[0] as { pid: number }).pid)).toBe(false);
    }
  });

  test('when every backend is terminated while the clients sit in the pool, then the next queries run on new connections', async () => {
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
    const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [new URL(db.url).pathname.slice(1)]);
    await admin.end();
    await settle();
    expect(uncaught).toEqual([]);
    expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
  });

  test('when the connection is lost on the COMMIT, then the answer is a 504 saying the outcome is unknown, to retry with the same key', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const client = { query: async (text: string) => (text === 'BEGIN' ? { rows: [] } : Promise.reject(lost)) } as unknown as pg.PoolClient;
    const err = await inTransaction(client, async () => 'written').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BrokenConnection);
    expect((err as BrokenConnection).original).toMatchObject({ status: 504, retryAfterSeconds: 1, type: 'urn:pitwall:problem:outcome-unknown', message: expect.stringContaining('it may or may not have taken effect') });
  });
});

describe('the log line of a lost connection', () => {
  test('when an idle pooled client\'s backend is terminated, then one warn line gives the error\'s message and code, not the client (nor its cancel key)', async () => {
    const db = await createTestDatabase();
    const lines: string[] = [];
    const captured = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const pool = createPool({ url: db.url, applicationName: 'db-test-idle', logger: captured, max: 1 });
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await terminate((rows[0] as { pid: number }).pid);
      for (const end = Date.now() + 5000; lines.length === 0 && Date.now() < end; ) await settle();
      expect(lines.map((l) => JSON.parse(l))).toEqual([
        expect.objectContaining({ level: 40, msg: 'idle PostgreSQL client failed; the pool drops it', applicationName: 'db-test-idle', code: '57P01', reason: 'terminating connection due to administrator command' }),
      ]);
      expect(Object.keys(JSON.parse(lines[0] as string))).not.toEqual(expect.arrayContaining(['err']));
      expect(lines[0]).not.toMatch(/secretKey|processID|stack/);
      expect((lines[0] as string).length).toBeLessThan(400);
    } finally {
      await pool.end();
      await db.drop();
    }
  });

  test('when a client in use for a request loses its backend, then the warn line names PostgreSQL and the request id, and the request\'s error names PostgreSQL as its cause', async () => {
    const db = await createTestDatabase();
    const lines: string[] = [];
    const captured = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const pool = createPool({ url: db.url, applicationName: 'db-test-in-use', logger: captured, max: 1 });
    try {
      const err = await inRequestScope('request-in-use', () =>
        withConnection(pool, async (c) => {
          const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          // The connection's end is told (its 'error') while the client is still held for the request.
          const ended = new Promise((resolve) => c.once('error', resolve));
          const sleeping = c.query('SELECT pg_sleep(5)').then(() => undefined, (e: unknown) => e);
          await new Promise((resolve) => setTimeout(resolve, 100));
          await terminate((rows[0] as { pid: number }).pid);
          const failed = await sleeping;
          await ended;
          throw failed;
        }),
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      await settle();
      const inUse = lines.map((l) => JSON.parse(l)).filter((l) => l.msg.startsWith('PostgreSQL connection lost while in use'));
      expect(inUse).toEqual([expect.objectContaining({ level: 40, dependency: 'PostgreSQL', requestId: 'request-in-use', applicationName: 'db-test-in-use' })]);
      expect(causeFields(toAppError(err))).toMatchObject({ dependency: 'PostgreSQL' });
    } finally {
      await pool.end();
      await db.drop();
    }
  });

  test('when the database refuses connections, then the request\'s error names PostgreSQL and the refusal (address and port) as its cause, which the client\'s detail does not', async () => {
    const closed = createPool({ url: 'postgres://pitwall@127.0.0.1:1/none', applicationName: 'db-test-refused', logger: pino({ level: 'silent' }), max: 1 });
    try {
      for (const attempt of [() => withTransaction(closed, async () => 'never'), () => closed.query('SELECT 1')]) {
        const appError = toAppError(await attempt().then(() => undefined, (e: unknown) => e));
        expect({ status: appError.status, detail: appError.message, cause: causeFields(appError) }).toEqual({
          status: 503,
          detail: 'A connection the request needed was lost; the request was not completed, retry it',
          cause: { dependency: 'PostgreSQL', cause: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' },
        });
      }
    } finally {
      await closed.end();
    }
  });
});
