import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import type { Pool } from 'pg';
import type { Piscina } from 'piscina';
import { holdWhileUnavailable } from './hold-while-unavailable';
import { StoppablePool } from './stoppable-pool';
import type { z } from 'zod';
import { createBus, failFastBus, ServicePresence, type Bus, type Subscription } from '@pitwall/bus';
import { createPool, databaseAnswers, migrate } from '@pitwall/db';
import { createLogger, errorFields, healthRouter, isDatabaseUnreachable, listen, listenRefusal, MAX_HEADER_BYTES, loadConfig, Metrics, notFoundHandler, problemHandler, type HealthChecks, type HttpEntryPoint, type Logger } from '@pitwall/service-kit';
import type { PartsCleanUp, ServiceConfig, ServiceContext, ServiceDefinition, ServiceParts, SharedTransports } from './definition';
import { BaseServiceConfig } from './settings';

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Transports shared with the other definitions of this process. */
  shared?: SharedTransports;
}

export interface RunningService<P extends ServiceParts = ServiceParts> {
  /** Base URL of its HTTP entry point, or of its health endpoint. */
  address: string;
  /** Base URL of its internal port: `/health`, `/health/ready` and `/metrics` (a service's `address` too). */
  internal: string;
  /** The public HTTP port, for a definition with an HTTP part. */
  port?: number;
  /** What the definition's `build` made (e.g. the gateway's auth store). */
  parts: P;
  /**
   * HTTP first (every request taken answered, within `graceMs`), then consumers, then the definition's clean-up, worker
   * pools and connections. `graceEndsAt` (ms since the epoch): when the grace ends, if not SHUTDOWN_GRACE_MS from now
   * (the one-process stack gives its services the grace its gateway began with).
   */
  stop(graceEndsAt?: number): Promise<void>;
  /** SHUTDOWN_GRACE_MS: how long a stop waits for the requests taken to be answered. */
  graceMs: number;
}

/**
 * The one host: validated config, owned schema migrated, worker pools, bus consumer and subscriptions, the HTTP
 * entry point or an internal health endpoint (`/health`, `/health/ready`), and an orderly stop.
 */
export async function startService<S extends z.ZodObject, P extends ServiceParts>(
  definition: ServiceDefinition<S, P>,
  options: StartOptions = {},
): Promise<RunningService<P>> {
  const { name } = definition;
  const shared = options.shared ?? {};
  const schema = definition.config ? BaseServiceConfig.extend(definition.config.shape) : BaseServiceConfig;
  const config = loadConfig(schema, options.env ?? process.env) as ServiceConfig<S>;
  const logger = createLogger(name);
  // On its own a service must reach the others through RabbitMQ; an in-process bus only makes sense when shared.
  if (!shared.bus && !config.AMQP_URL) throw new Error(`Invalid configuration:\n  AMQP_URL: is required when ${name} runs as its own process (amqp://...)`);
  if (definition.database && !config.DATABASE_URL) throw new Error(`Invalid configuration:\n  DATABASE_URL: is required by ${name} (postgres://...)`);

  const closers: (() => Promise<unknown>)[] = [];
  const graceMs = config.SHUTDOWN_GRACE_MS;
  // One grace for the whole stop, from its start: the HTTP servers, and the claim port, wait for their requests until it ends.
  let graceEndsAt: number | undefined;
  const graceEnd = (): number => graceEndsAt ?? Date.now() + graceMs;
  let stopBegun = false;
  // Every part is stopped even when one fails to (a pool left running would keep the process alive); the first
  // failure is thrown once all are done.
  const stopAll = async (endsAt?: number): Promise<void> => {
    stopBegun = true;
    graceEndsAt ??= endsAt ?? Date.now() + graceMs;
    const failures: unknown[] = [];
    for (const close of closers.splice(0).reverse()) await close().catch((err: unknown) => failures.push(err));
    if (failures.length) throw failures[0];
  };
  try {
    let pool: Pool | undefined;
    if (definition.database && config.DATABASE_URL) {
      const p = createPool({ url: config.DATABASE_URL, applicationName: name, logger, statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS, idleInTransactionTimeoutMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS });
      pool = p;
      closers.push(() => p.end());
      await untilDatabaseAnswers(config.DATABASE_URL, name, config.STARTUP_WAIT_S, logger);
      await definition.database.beforeMigrate?.(p, { config, logger });
      await migrate(p, { schema: definition.database.schema, migrations: definition.database.migrations, logger });
    }
    const rawBus: Bus = shared.bus ?? createBus({ url: config.AMQP_URL, prefix: config.BUS_PREFIX, logger, requestTimeoutMs: config.BUS_TIMEOUT_MS, publishWindow: config.BUS_PUBLISH_WINDOW, maxMessageBytes: config.BUS_MAX_MESSAGE_BYTES });
    if (!shared.bus) closers.push(() => rawBus.close());
    // A service's own requests to another (the entity-service, mostly) fail at once when that one has no running
    // instance, as the gateway's routes do (the gateway, with an HTTP entry, wraps its bus itself for its clients).
    let bus = rawBus;
    if (!definition.http) {
      const presence = new ServicePresence(rawBus, { intervalMs: config.SERVICE_PRESENCE_INTERVAL_MS, logger });
      presence.start();
      closers.push(async () => presence.stop());
      bus = failFastBus(rawBus, presence);
    }
    const workers: Record<string, Piscina> = {};
    for (const w of definition.pools ?? []) {
      const heap = w.heapLimit?.(config);
      const filename = isAbsolute(w.entry) ? w.entry : join(config.WORKER_DIR ?? __dirname, w.entry);
      // Checked now, naming the setting: the pool would only fail at its first task, with "Cannot find module".
      if (!isAbsolute(w.entry) && !existsSync(filename)) {
        const where = config.WORKER_DIR ? 'holds' : "is unset, and the running bundle's folder holds";
        throw new Error(`Invalid configuration:\n  WORKER_DIR: ${where} no ${w.entry} (the bundle of the ${w.name} worker pool); it must be the folder the build writes it to, beside the app's main.js`);
      }
      const pool = new StoppablePool(
        {
          filename,
          ...(w.maxThreads ? { maxThreads: w.maxThreads } : {}),
          ...(w.workerData ? { workerData: w.workerData(config) } : {}),
          ...(heap?.mb ? { resourceLimits: { maxOldGenerationSizeMb: heap.mb } } : {}),
        },
        logger,
        heap?.mb ? heap.outOfMemory : undefined,
      );
      workers[w.name] = pool;
      closers.push(() => pool.destroy());
    }
    const metrics = new Metrics(name);
    for (const [poolName, workerPool] of Object.entries(workers)) {
      metrics.gauge(`pitwall_${poolName}_pool_queue`, `Tasks of the ${poolName} worker pool waiting for a thread`, () => workerPool.queueSize);
      metrics.gauge(`pitwall_${poolName}_pool_threads`, `Threads of the ${poolName} worker pool`, () => workerPool.threads.length);
    }
    const ctx: ServiceContext<ServiceConfig<S>> = { name, config, logger, bus, pool, workers, shared, metrics, graceEnd };
    const parts = ((await definition.build?.(ctx)) ?? {}) as P;
    const cleanUp = (parts as PartsCleanUp).stop;
    if (typeof cleanUp === 'function') closers.push(() => cleanUp.call(parts));

    const consumers: Subscription[] = [];
    closers.push(async () => {
      for (const c of consumers) await c.close();
    });
    const drain = (parts as PartsCleanUp).drain;
    if (typeof drain === 'function') closers.push(async () => drain.call(parts));
    // Before the drain: what the drain hands back as new messages (a simulation job a stopping instance was running)
    // is not delivered to this instance again, which would only requeue it until its queue's delivery limit
    // dead-lettered it. No request or event is taken after this; those in flight go on.
    closers.push(async () => {
      await Promise.all(consumers.map((c) => c.stopConsuming()));
    });
    // First on stop: events held while a dependency is unavailable go back to their queues at once.
    const stopping = new AbortController();
    closers.push(async () => stopping.abort());
    for (const s of definition.subscriptions ?? []) {
      const queue = s.perInstance ? `${s.queue}.${randomUUID()}` : s.queue;
      const handler = holdWhileUnavailable(s.handler(parts, ctx), { logger, queue, signal: stopping.signal });
      consumers.push(await bus.subscribe(s.exchange, queue, s.bindingKeys, handler, { ...(s.prefetch ? { prefetch: s.prefetch } : {}), ...(s.perInstance ? { perInstance: true } : {}) }));
    }
    if (definition.bus) {
      const handler = definition.bus.commands(parts, ctx);
      consumers.unshift(
        await bus.serve(definition.bus.service, async (request) => {
          if (request.type === 'ping') return 'pong';
          const timed = metrics.busCommands.startTimer({ command: request.type });
          try {
            const reply = await handler(request);
            timed({ outcome: 'ok' });
            return reply;
          } catch (err) {
            const status = (err as { status?: unknown }).status;
            timed({ outcome: typeof status === 'number' ? String(status) : 'error' });
            throw err;
          }
        }),
      );
    }
    await definition.started?.(parts, ctx);
    definition.metrics?.(parts, metrics);

    const checks: HealthChecks = {
      ...(pool ? { database: async () => (await (pool as Pool).query('SELECT 1')).rowCount === 1 } : {}),
      bus: () => bus.isReady(),
      ...definition.health?.(parts, ctx),
    };
    // The internal port: the health endpoints (a service's only HTTP) and the metrics, which the public entry never
    // serves. An app with a public entry has one too, on HEALTH_PORT like the others.
    const internalApp = express();
    internalApp.disable('x-powered-by');
    internalApp.use(healthRouter(checks, metrics, () => stopBegun));
    // What fails there (a gauge that throws) or is not there answers problem+json, as the public port does.
    internalApp.use(notFoundHandler);
    internalApp.use(problemHandler(logger));
    const internal = await listen(internalApp, config.HEALTH_PORT, config.HEALTH_HOST, graceMs, { logger, what: 'health port' }).catch((err: unknown) => {
      throw listenRefusal(err, { port: 'HEALTH_PORT', host: 'HEALTH_HOST' });
    });
    closers.push(() => internal.stop(graceEnd()));
    if (!definition.http) {
      logger.info({ health: internal.bound }, `${name} started; health and metrics on ${internal.bound}`);
      return { address: internal.address, internal: internal.address, parts, stop: stopAll, graceMs };
    }
    // The public entry takes URLs as long as the API's longest names need; the health ports keep Node's limit.
    const http: HttpEntryPoint = await listen(definition.http.app(parts, ctx, checks), definition.http.port(config), definition.http.host?.(config) ?? '0.0.0.0', graceMs, {
      maxHeaderSize: MAX_HEADER_BYTES,
      bodyIdleTimeoutMs: definition.http.bodyIdleTimeoutMs?.(config) ?? 0,
      responseIdleTimeoutMs: definition.http.responseIdleTimeoutMs?.(config) ?? 0,
      logger,
      what: 'public HTTP server',
      ...(definition.http.connectionLimits ? { connectionLimits: definition.http.connectionLimits(config) } : {}),
    }).catch((err: unknown) => {
      throw listenRefusal(err, definition.http?.variables ?? { port: 'PORT', host: 'HOST' });
    });
    // Stopped first: every request it took is answered before the consumers, the bus and the pools they need close.
    closers.push(() => http.stop(graceEnd()));
    // Where each is bound (0.0.0.0: every interface), not the loopback URL `address` gives callers on this machine.
    logger.info({ address: http.bound, internal: internal.bound }, `${name} listening on ${http.bound}; health and metrics on ${internal.bound}`);
    return { address: http.address, internal: internal.address, port: http.port, parts, stop: stopAll, graceMs };
  } catch (err) {
    await stopAll().catch(() => undefined);
    throw err;
  }
}

/** First and longest pause between tries of a database that does not answer yet at start. */
const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5_000;
/** The longest one try may take (a connection attempt to a host that drops packets), and the shortest. */
const LONGEST_TRY_MS = 10_000;
const SHORTEST_TRY_MS = 1_000;

/**
 * Resolves once the database answers, trying again with doubling pauses while it is unreachable (refused, starting,
 * failing over, not resolvable yet, not answering a connection) for at most `waitS` seconds (STARTUP_WAIT_S), each
 * try bounded by the time left. Any other failure (a wrong password, an unknown database) ends the start at once.
 */
async function untilDatabaseAnswers(url: string, name: string, waitS: number, logger: Logger): Promise<void> {
  const deadline = Date.now() + waitS * 1000;
  for (let attempt = 1, pause = FIRST_PAUSE_MS; ; attempt++, pause = Math.min(2 * pause, LONGEST_PAUSE_MS)) {
    try {
      await databaseAnswers(url, Math.min(LONGEST_TRY_MS, Math.max(SHORTEST_TRY_MS, deadline - Date.now())), name);
      if (attempt > 1) logger.info({ attempts: attempt }, 'database reachable; starting');
      return;
    } catch (err) {
      if (!isDatabaseUnreachable(err)) throw err;
      // A refused connection to a host of two addresses is an AggregateError with no message of its own: errorFields reads the first.
      const { reason } = errorFields(err);
      if (Date.now() + pause > deadline) throw new Error(`the database did not answer within STARTUP_WAIT_S (${waitS} s): ${reason}`, { cause: err });
      logger.warn({ err: reason, attempt, retryInMs: pause }, 'database not reachable yet; the start waits for it (STARTUP_WAIT_S)');
      await sleep(pause);
    }
  }
}
