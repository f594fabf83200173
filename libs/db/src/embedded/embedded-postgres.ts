import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createLogger, type Logger } from '@pitwall/service-kit';
import { SerialisingPgliteServer } from './serialising-server';

export interface EmbeddedPostgresOptions {
  /** Directory holding the database files; created if missing, reused on the next start. */
  dataDir: string;
  /** TCP port on 127.0.0.1 (default 0: a free port, see the returned `port`). */
  port?: number;
  host?: string;
  logger?: Logger;
  /** See SerialisingServerOptions (default 30 s). */
  idleInTransactionTimeoutMs?: number;
  /** See SerialisingServerOptions (default: wait as long as it takes). */
  sessionWaitTimeoutMs?: number;
  /**
   * PostgreSQL's shared buffer pool (`shared_buffers`, e.g. `16MB`; default PostgreSQL's 128MB). PGlite's WebAssembly
   * memory grows to hold it and never shrinks: it is most of the embedded process's resident memory.
   */
  sharedBuffers?: string;
}

export interface EmbeddedPostgres {
  /** Connection string for pg, e.g. postgres://postgres@127.0.0.1:54321/postgres */
  url: string;
  port: number;
  /** Closes client connections, the server, then PGlite (flushing to disk). Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * PostgreSQL without installing PostgreSQL: PGlite on a persistent data directory, served over the wire protocol
 * so every service keeps using pg Pools and the same SQL as against a real server. Any number of pools and pool
 * sizes may connect; statements are serialised per unit and whole transactions (see SerialisingPgliteServer).
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const logger = options.logger ?? createLogger('embedded-postgres');
  const host = options.host ?? '127.0.0.1';
  const db = await PGlite.create(dataDir, options.sharedBuffers ? { postgresqlconf: [`shared_buffers = ${options.sharedBuffers}`] } : {});
  const server = new SerialisingPgliteServer({ db, host, port: options.port ?? 0, logger, idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs ?? 30_000, sessionWaitTimeoutMs: options.sessionWaitTimeoutMs });
  let port: number;
  try {
    port = await server.start();
  } catch (err) {
    await db.close();
    throw err;
  }
  logger.info({ dataDir, port }, 'embedded postgres listening');
  let stopping: Promise<void> | undefined;
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    port,
    stop: () =>
      (stopping ??= (async () => {
        await server.stop();
        await db.close();
        logger.info({ dataDir }, 'embedded postgres stopped');
      })()),
  };
}
