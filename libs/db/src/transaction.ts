import type pg from 'pg';
import { AppError, OUTCOME_UNKNOWN_SENTENCE, OUTCOME_UNKNOWN_TYPE, isConnectionLost, markDependency } from '@pitwall/service-kit';

/** Runs `fn` inside BEGIN/COMMIT on one client; any throw rolls back and is rethrown. The client is always released. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>, options: ConnectionWait = {}): Promise<T> {
  return run(pool, 'BEGIN', fn, options);
}

/**
 * Runs `fn`'s reads in one read-only snapshot (REPEATABLE READ): every query sees the database as of its first one,
 * so a read made of several queries never mixes states before and after a concurrent write.
 */
export async function withReadSnapshot<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return run(pool, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn);
}

async function run<T>(pool: pg.Pool, begin: string, fn: (client: pg.PoolClient) => Promise<T>, options: ConnectionWait = {}): Promise<T> {
  return withConnection(pool, (client) => inTransaction(client, fn, begin), options);
}

/** How long `withConnection` waits for a pooled connection when the caller gives no time of its own. */
export const DEFAULT_CONNECTION_WAIT_MS = 10_000;

export interface ConnectionWait {
  /**
   * Wait for a free connection until this time (ms since the epoch): a command's deadline, so a big write queued
   * behind others of its size waits as long as its caller does. Default: `DEFAULT_CONNECTION_WAIT_MS` from now.
   */
  waitUntil?: number;
}

/** pg's own words for a pool wait that timed out: `toAppError` answers them with a 503 (nothing was done). */
const POOL_WAIT_TIMED_OUT = 'timeout exceeded when trying to connect';

/** A pooled connection, waited for until `until`; one that comes after the wait gave up goes straight back. */
function acquire(pool: pg.Pool, until: number): Promise<pg.PoolClient> {
  const connecting = pool.connect();
  return new Promise((resolve, reject) => {
    let gaveUp = false;
    const timer = setTimeout(() => {
      gaveUp = true;
      connecting.then((client) => client.release(), () => undefined);
      reject(markDependency(new Error(POOL_WAIT_TIMED_OUT), 'PostgreSQL'));
    }, Math.max(0, until - Date.now()));
    connecting.then(
      (client) => {
        if (gaveUp) return;
        clearTimeout(timer);
        resolve(client);
      },
      (err: unknown) => {
        if (gaveUp) return;
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * Holds one pooled connection for `fn` (several transactions, or session state such as a session-level lock) and
 * gives it back. A connection that could not roll back (`BrokenConnection`, whose original failure is rethrown), that
 * was lost (`isConnectionLost`) or that `fn` passed to `discard` is dropped from the pool instead.
 */
export async function withConnection<T>(pool: pg.Pool, fn: (client: pg.PoolClient, discard: (reason: Error) => void) => Promise<T>, options: ConnectionWait = {}): Promise<T> {
  const client = await acquire(pool, options.waitUntil ?? Date.now() + DEFAULT_CONNECTION_WAIT_MS);
  let broken: Error | undefined;
  try {
    return await fn(client, (reason) => void (broken ??= reason));
  } catch (err) {
    if (err instanceof BrokenConnection) {
      broken ??= err.cause as Error;
      throw err.original;
    }
    if (isConnectionLost(err)) broken ??= err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * One transaction on a client the caller holds (`withConnection`): for work that needs the same connection across
 * transactions, such as a session-level lock held over two attempts. `begin` and `commit` may carry more statements
 * in the same round trip (a simple query, no parameters: `BEGIN; SELECT pg_advisory_lock(...)`); after a `COMMIT`
 * that fails, PostgreSQL runs none of the statements after it. A client that cannot even roll back is reported
 * as a `BrokenConnection` carrying the original failure (`withConnection` then drops the client and rethrows it).
 */
export async function inTransaction<T>(client: pg.PoolClient, fn: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN', commit = 'COMMIT'): Promise<T> {
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query(commit).catch((err: unknown) => {
      if (!isConnectionLost(err)) throw err;
      // The COMMIT may have reached the server before the connection went: not a 503 (which promises nothing was done)
      // but the 504 of a write whose outcome is unknown, which a retry under the same Idempotency-Key settles (the
      // gateway adds that advice, or, for a write sent without a key, what to do instead).
      throw new AppError(504, `The connection to the database was lost while the write committed. ${OUTCOME_UNKNOWN_SENTENCE}`, {
        type: OUTCOME_UNKNOWN_TYPE,
        retryAfterSeconds: 1,
        cause: err,
      });
    });
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackErr) {
      // A connection that cannot even roll back must not go back into the pool.
      throw new BrokenConnection(err, rollbackErr as Error);
    }
    throw err;
  }
}

/** The failure of a transaction whose connection could not roll back: `original` is the failure, `cause` the rollback's. */
export class BrokenConnection extends Error {
  constructor(
    readonly original: unknown,
    cause: Error,
  ) {
    super(`the connection could not roll back: ${cause.message}`, { cause });
  }
}
