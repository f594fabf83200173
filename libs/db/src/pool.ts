import pg from 'pg';
import { currentRequestId, errorFields, markDependency, type Logger } from '@pitwall/service-kit';

export interface PoolOptions {
  /** `postgres://user@host:port/database` */
  url: string;
  /** Shown in `pg_stat_activity`, so an operator can tell the services apart. */
  applicationName: string;
  logger: Logger;
  /** Maximum open connections (default 10). */
  max?: number;
  /**
   * PostgreSQL's `statement_timeout` of every connection (ms; 0 or unset: none): a statement running longer is
   * cancelled (SQLSTATE 57014, a 503 through `toAppError`), its transaction rolled back.
   */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL's `idle_in_transaction_session_timeout` (ms; 0 or unset: none): a session left idle inside a transaction
   * this long (its process stopped, its event loop held) is ended by the server, so its locks do not outlive it.
   */
  idleInTransactionTimeoutMs?: number;
  /** The longest wait for a connection, its opening included (default POOL_WAIT_BOUND_MS): a one-shot tool's bound. */
  connectionWaitMs?: number;
}

/** The pool's own bound on a wait for a connection: above any deadline a request may carry. */
export const POOL_WAIT_BOUND_MS = 180_000;

/**
 * A pg Pool whose every client has an `error` listener for its whole life. The pool's own covers idle clients only: a
 * checked-out client whose connection drops (backend terminated, server restart, network) would emit `error` with no
 * listener and end the process. With it, the statement in flight fails (a 503 to retry, `toAppError`), and the
 * pool discards the client on release (it is no longer queryable) and opens a new one when next needed.
 */
export function createPool({ url, applicationName, logger, max = 10, statementTimeoutMs, idleInTransactionTimeoutMs, connectionWaitMs = POOL_WAIT_BOUND_MS }: PoolOptions): pg.Pool {
  // The wait for a free connection is the caller's (`withConnection`: a command's deadline, else 10 s); the pool's own
  // bound is only the longest any caller may ask for (a data file read's 120 s), and the time to open a connection.
  // The session's bounds are SET by the first statement of each new connection, before the pool hands it to anyone
  // (pg-pool's onConnect; a failure there ends the connection and fails the caller's wait), not sent as startup
  // parameters, which a PgBouncer in front refuses ("unsupported startup parameter") unless told to drop them.
  const settings = [
    ...(statementTimeoutMs ? [`SET statement_timeout = ${wholeMs(statementTimeoutMs)}`] : []),
    ...(idleInTransactionTimeoutMs ? [`SET idle_in_transaction_session_timeout = ${wholeMs(idleInTransactionTimeoutMs)}`] : []),
  ].join('; ');
  const pool = new pg.Pool({
    connectionString: url,
    application_name: applicationName,
    max,
    connectionTimeoutMillis: connectionWaitMs,
    idleTimeoutMillis: 30_000,
    ...(settings ? { onConnect: async (client: pg.PoolClient) => void (await client.query(settings)) } : {}),
  });
  // The message and code only: a pg error carries its client (some 3 KB, the backend's cancel key among them).
  pool.on('error', (err) => logger.warn({ ...errorFields(err), applicationName, dependency: 'PostgreSQL' }, 'idle PostgreSQL client failed; the pool drops it'));
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      // The statement in flight fails with this very error: its request's log line names the database as its cause.
      markDependency(err, 'PostgreSQL');
      // An idle client's loss is reported by the pool's listener above; this one speaks for clients in use.
      const requestId = checkedOutFor.get(client);
      if (!isIdle(pool, client)) logger.warn({ ...errorFields(err), applicationName, dependency: 'PostgreSQL', ...(requestId ? { requestId } : {}) }, 'PostgreSQL connection lost while in use; its statement fails and the client is discarded');
    });
  });
  tellCheckouts(pool);
  return pool;
}

/** The request each client in use was checked out for (`currentRequestId` at the checkout), for its loss's log line. */
const checkedOutFor = new WeakMap<object, string | undefined>();

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * Every checkout (pg-pool's `query` checks out through `connect` too) records the request it serves, and a connection
 * that could not be opened (`connect ECONNREFUSED 127.0.0.1:5432`, a bare socket error) is marked as PostgreSQL's, so
 * the request's log line names the database as what failed.
 */
function tellCheckouts(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  const checkout = (callback?: ConnectCallback): Promise<pg.PoolClient> | undefined => {
    const requestId = currentRequestId();
    if (callback) {
      return connect((err, client, done) => {
        if (err) markDependency(err, 'PostgreSQL');
        else if (client) checkedOutFor.set(client, requestId);
        callback(err, client, done);
      });
    }
    return (connect() as Promise<pg.PoolClient>).then(
      (client) => {
        checkedOutFor.set(client, requestId);
        return client;
      },
      (err: unknown) => {
        throw markDependency(err, 'PostgreSQL');
      },
    );
  };
  pool.connect = checkout as typeof pool.connect;
}

function wholeMs(ms: number): number {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`a database timeout must be a whole number of milliseconds, not ${ms}`);
  return ms;
}

/** Whether the pool holds `client` idle (node-postgres keeps its idle clients in `_idle`). */
function isIdle(pool: pg.Pool, client: pg.PoolClient): boolean {
  const idle = (pool as unknown as { _idle?: { client: unknown }[] })._idle;
  return idle?.some((item) => item.client === client) ?? false;
}

/**
 * Resolves when the database at `url` takes a connection and answers `SELECT 1` within `timeoutMs` (a connection of
 * its own, closed after), else rejects with the driver's error (a connection attempt to a host that drops packets
 * fails at `timeoutMs`, not at the operating system's connect timeout).
 */
export async function databaseAnswers(url: string, timeoutMs: number, applicationName: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: applicationName, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
