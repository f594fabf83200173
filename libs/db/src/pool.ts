import pg from 'pg';
import type { Logger } from '@pitwall/service-kit';

export interface PoolOptions {
  /** `postgres://user@host:port/database` */
  url: string;
  /** Shown in `pg_stat_activity`, so an operator can tell the services apart. */
  applicationName: string;
  logger: Logger;
  /** Maximum open connections (default 10). */
  max?: number;
}

/**
 * A pg Pool with an `error` handler attached: an idle client whose connection drops (server restart, network)
 * is logged and discarded by the pool instead of crashing the process.
 */
export function createPool({ url, applicationName, logger, max = 10 }: PoolOptions): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, application_name: applicationName, max, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 });
  pool.on('error', (err) => logger.error({ err, applicationName }, 'idle PostgreSQL client failed; the pool drops it'));
  return pool;
}
