import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { createLogger, makeDirectorySync, type Logger } from '@pitwall/service-kit';
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
  /** A connection that has not given the password this long after it opened is closed (default 10 s). */
  loginTimeoutMs?: number;
}

export interface EmbeddedPostgres {
  /**
   * Connection string for pg, e.g. postgres://postgres:<password>@127.0.0.1:54321/postgres: the password is new on
   * every start (the server asks every connection for it), so only a process told the URL connects.
   */
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
  makeDirectorySync(dataDir);
  const logger = options.logger ?? createLogger('embedded-postgres');
  const host = options.host ?? '127.0.0.1';
  const pgliteOptions = options.sharedBuffers ? { postgresqlconf: [`shared_buffers = ${options.sharedBuffers}`] } : {};
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    await initialiseInChildProcess(dataDir, pgliteOptions);
    logger.info({ dataDir }, 'embedded postgres data directory initialised');
  }
  const db = await PGlite.create(dataDir, pgliteOptions);
  const password = randomBytes(24).toString('hex');
  const server = new SerialisingPgliteServer({ db, host, port: options.port ?? 0, logger, idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs ?? 30_000, sessionWaitTimeoutMs: options.sessionWaitTimeoutMs, password, ...(options.loginTimeoutMs !== undefined ? { loginTimeoutMs: options.loginTimeoutMs } : {}) });
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
    url: `postgres://postgres:${password}@${host}:${port}/postgres`,
    port,
    stop: () =>
      (stopping ??= (async () => {
        await server.stop();
        await db.close();
        logger.info({ dataDir }, 'embedded postgres stopped');
      })()),
  };
}

/** How long the first start's initdb may take before it is given up (it takes 2-4 s on two cores). */
const INITDB_TIMEOUT_MS = 120_000;

/**
 * A new data directory is initialised (PGlite's initdb) in a short-lived child process, so that the serving process
 * opens it as on any later start. initdb run in place leaves ~90 MB resident in the process for good (measured: an
 * idle first `npm start` 399-461 MB against 312-336 MB when the directory was initialised elsewhere), memory that
 * neither closing that PGlite instance nor a full garbage collection gives back.
 */
async function initialiseInChildProcess(dataDir: string, pgliteOptions: { postgresqlconf?: string[] }): Promise<void> {
  const script = `try {
  const { PGlite } = await import(process.env.PGLITE_MODULE);
  const db = await PGlite.create(process.env.PGLITE_DATA_DIR, JSON.parse(process.env.PGLITE_OPTIONS));
  await db.close();
} catch (err) {
  process.stderr.write(String(err instanceof Error ? err.message : err));
  process.exitCode = 1;
}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, PGLITE_MODULE: pathToFileURL(require.resolve('@electric-sql/pglite')).href, PGLITE_DATA_DIR: dataDir, PGLITE_OPTIONS: JSON.stringify(pgliteOptions) },
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: INITDB_TIMEOUT_MS,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done, fail) => {
    child.once('error', fail);
    child.once('close', (c, s) => done([c, s]));
  });
  if (code !== 0 || !existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(`initialising the embedded database in ${dataDir} failed (${signal ? `signal ${signal}` : `exit ${code}`}): ${stderr.trim() || 'no output'}`);
  }
}
