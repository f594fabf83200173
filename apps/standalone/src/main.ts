import { join, resolve } from 'node:path';
import { z } from 'zod';
import { InProcessBus, type Bus } from '@pitwall/bus';
import { MemoryCache, type Cache } from '@pitwall/cache';
import { startEmbeddedPostgres } from '@pitwall/db';
import { applyV8Flags, BusSettings, ShutdownSettings } from '@pitwall/service-host';
import { createLogger, holdInfoLogs, installProcessHandlers, listenRefusal, loadConfig, makeDirectorySync, msVar, portVar, POSTGRES_URL, REDIS_URL, SHUTDOWN_CLOSE_MS, urlVar } from '@pitwall/service-kit';
import { checkSettings, composeStack } from './compose';
import { demoRunSheetLines, seedDemoRunSheet } from './demo-run-sheet';
import { demoSimulationLines, egressAllowance, startDemoStandIn } from './demo-simulation';
import { freePort } from './free-port';

/**
 * `npm start`: the five deployable apps in one process, composed from their definitions by import. Each part is
 * embedded unless its environment variable names a real server: DATABASE_URL (else PGlite served over the
 * Postgres wire protocol), AMQP_URL (else the in-process bus), REDIS_URL (else an in-memory cache).
 */
export const Config = BusSettings.extend({
  ...ShutdownSettings.shape,
  PORT: portVar(8080),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: urlVar(POSTGRES_URL).optional(),
  /** Embedded database: how long a statement waits for the single session before it is refused (a 503 with Retry-After). */
  EMBEDDED_DB_WAIT_MS: msVar(5000),
  /** Embedded database: its local port (0: a free one), e.g. to look inside with psql. */
  EMBEDDED_DB_PORT: portVar(0),
  /** Embedded database: PostgreSQL's shared_buffers; PGlite's memory grows to hold them and never gives them back. */
  EMBEDDED_DB_SHARED_BUFFERS: z.string().regex(/^\d+(kB|MB|GB)$/, 'must be a size such as 16MB').default('16MB'),
  REDIS_URL: urlVar(REDIS_URL).optional(),
  /** The stand-in external simulation system the demo account uses: its local port (0: a free one), or -1 for none. */
  SIMULATION_STANDIN_PORT: portVar(0, { none: -1 }),
});

/** Settings whose default differs in npm start from the app's own (an operator's value still wins). */
const STANDALONE_DEFAULTS = {
  // One process: a claimed answer is taken from the desk in memory and a repeated one is a result-cache hit, so a held
  // copy in the gateway would only hold the same bytes twice.
  HELD_ANSWERS_BYTES: '0',
};

export async function main(): Promise<void> {
  applyV8Flags();
  const logger = createLogger('standalone');
  // Start-up and the demo's seeding log a line per migration and per request: only warnings and errors show until the
  // banner, which is the last thing printed (the key, the viewer, the first curls); request lines follow it.
  const releaseInfoLogs = holdInfoLogs();
  const config = loadConfig(Config, process.env);
  // Every app's settings before anything starts (the embedded database takes seconds): a bad one is refused at once.
  for (const warning of checkSettings({ ...STANDALONE_DEFAULTS, ...process.env })) logger.warn(warning);
  // PORT=0: a free port chosen now, so the signed URLs (and the demo's seeding through them) name the real one.
  const port = config.PORT || (await freePort());
  const dataDir = resolve(config.DATA_DIR);
  makeDirectorySync(dataDir);
  const closers: (() => Promise<void>)[] = [];

  let databaseUrl = config.DATABASE_URL;
  let embeddedPg: { stop(): Promise<void> } | undefined;
  if (!databaseUrl) {
    const pg = await startEmbeddedPostgres({ dataDir: join(dataDir, 'pg'), port: config.EMBEDDED_DB_PORT, sessionWaitTimeoutMs: config.EMBEDDED_DB_WAIT_MS, sharedBuffers: config.EMBEDDED_DB_SHARED_BUFFERS });
    databaseUrl = pg.url;
    embeddedPg = pg;
    logger.info({ port: pg.port }, 'embedded PostgreSQL (PGlite) serving');
  }
  const shared: { bus?: Bus; cache?: Cache } = {};
  if (!config.AMQP_URL) shared.bus = new InProcessBus({ prefix: config.BUS_PREFIX, logger, requestTimeoutMs: config.BUS_TIMEOUT_MS });
  if (!config.REDIS_URL) shared.cache = new MemoryCache();

  // The demo's simulation system starts first, so the egress policy allows exactly its host:port (and what the
  // operator's EGRESS_ALLOW adds); it stops after the services, so a job still running keeps its system.
  const standIn = config.SIMULATION_STANDIN_PORT < 0 ? undefined : await startDemoStandIn(config.SIMULATION_STANDIN_PORT).catch((err: unknown) => {
    const refusal = listenRefusal(err, { port: 'SIMULATION_STANDIN_PORT', host: '127.0.0.1' });
    logger.warn({ err: refusal.message }, 'the demo external simulation system did not start; the rest runs without it');
    return undefined;
  });

  // Blobs (DATA_DIR/blobs), the URL signing secret and the simulation connection key live under the one data
  // directory (unless configured); signed URLs name this port.
  const env = {
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    SIMULATION_SECRET_KEY_FILE: join(dataDir, 'simulation-secret-key'),
    ...STANDALONE_DEFAULTS,
    ...process.env,
    EGRESS_ALLOW: egressAllowance(process.env['EGRESS_ALLOW'], standIn),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    // The embedded database is one session shared by every connection: its own EMBEDDED_DB_WAIT_MS bounds a wait for
    // it, and a server-side timeout ending that session would end every connection's.
    ...(embeddedPg ? { DB_STATEMENT_TIMEOUT_MS: '0', DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0' } : {}),
    HEALTH_PORT: '0',
    PORT: String(port),
  };
  const stack = await composeStack(env, shared);
  const gateway = { port: stack.gateway.port as number, auth: stack.gateway.parts.auth };

  // Stop taking requests first (every request taken answered, within SHUTDOWN_GRACE_MS), then the services (finishing
  // their messages), then the shared transports.
  closers.push(() => stack.stop());
  if (shared.bus) closers.push(() => (shared.bus as Bus).close());
  if (shared.cache) closers.push(() => (shared.cache as Cache).close());
  if (embeddedPg) closers.push(() => (embeddedPg as { stop(): Promise<void> }).stop());
  if (standIn) closers.push(() => standIn.stop());
  installProcessHandlers(logger, closers, config.SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS);

  const demo = await gateway.auth.ensureDemoAccount({ keyFile: join(dataDir, 'demo-api-key') });
  const base = `http://localhost:${gateway.port}`;
  const credentials = { accountId: demo.accountId, apiKey: demo.apiKey as string };
  const demoRunSheet = await seedDemoRunSheet(base, credentials, dataDir);
  const simulationLines = await demoSimulationLines({ base, apiKey: demo.apiKey, accountId: demo.accountId, dataDir, standIn, logger });
  // The details first, then what a newcomer needs at once at the bottom of the terminal: the key, the viewer, two curls.
  process.stdout.write(
    [
      '',
      ...demoRunSheetLines(base, credentials, demoRunSheet),
      '',
      ...simulationLines,
      `API document: ${base}/swagger`,
      // Its port changes at every start: psql, or the admin CLI in another terminal (DATABASE_URL), need it.
      ...(embeddedPg ? [`Embedded PostgreSQL (PGlite): ${databaseUrl}`] : []),
      '',
      `Pitwall is running on ${base}  (database: ${embeddedPg ? 'embedded PGlite' : 'DATABASE_URL'}, bus: ${config.AMQP_URL ? 'RabbitMQ' : 'in-process'}, cache: ${config.REDIS_URL ? 'Redis' : 'in-memory'})`,
      `Telemetry viewer: ${base}/viewer  (enter the ApiKey below)`,
      `AccountId: ${demo.accountId}`,
      `ApiKey: ${demo.apiKey}`,
      '',
      'Try:',
      `  curl -s ${base}/Championships -H 'ApiKey: ${demo.apiKey}' -H 'AccountId: ${demo.accountId}'`,
      `  curl -s -X POST ${base}/Championships -H 'ApiKey: ${demo.apiKey}' -H 'AccountId: ${demo.accountId}' -H 'Content-Type: application/json' -d '{"ParameterUpdates":[{"Name":"Name","Value":"GT World Challenge 2026"}]}'`,
      '',
    ].join('\n'),
  );
  releaseInfoLogs();
}

if (require.main === module) {
  main().catch((err) => {
    createLogger('standalone').fatal({ err: err instanceof Error ? err.message : err }, 'failed to start');
    process.exit(1);
  });
}
