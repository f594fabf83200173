import express from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import { createBus, type Bus, type RequestHandler, type Subscription } from '@pitwall/bus';
import { createPool, migrate, type Migration } from '@pitwall/db';
import { createLogger, healthRouter, installProcessHandlers, intVar, listen, loadConfig, type Logger } from '@pitwall/service-kit';

/** Settings every bus service reads (each key is its environment variable). */
export const BaseServiceConfig = z.object({
  DATABASE_URL: z.string().optional(),
  AMQP_URL: z.string().optional(),
  BUS_PREFIX: z.string().default('pitwall.'),
  BUS_TIMEOUT_MS: intVar(10_000),
  HEALTH_PORT: intVar(0),
});

export interface ServiceContext<C> {
  config: C;
  logger: Logger;
  bus: Bus;
  /** Present when the service declares a database. */
  pool: Pool | undefined;
}

export interface ServiceParts {
  /** Answers the service's request queue; `ping` is answered for it. */
  handler: RequestHandler;
  /** Extra consumers (event subscriptions) to close on stop. */
  subscriptions?: Subscription[];
  /** Extra clean-up, run after consumers stop and before connections close. */
  stop?: () => Promise<void>;
}

export interface ServiceHandle {
  /** The health endpoint's base URL. */
  address: string;
  stop(): Promise<void>;
}

export interface HostOptions<S extends z.ZodObject> {
  name: string;
  /** The bus service (request queue) it serves. */
  busService: string;
  /** The app's own settings, merged with BaseServiceConfig. */
  config?: S;
  /** The schema it owns and its migrations; DATABASE_URL becomes required. */
  database?: { schema: string; migrations: Migration[] };
  env?: NodeJS.ProcessEnv;
  /** Shared transports for the single-process embedded stack. */
  shared?: { bus?: Bus };
  build(ctx: ServiceContext<z.infer<typeof BaseServiceConfig> & z.infer<S>>): Promise<ServiceParts>;
}

/**
 * Runs one bus service: validated config, owned schema migrated, bus consumer, `/health` and `/health/ready`,
 * and an orderly stop (HTTP, then consumers, then connections).
 */
export async function hostService<S extends z.ZodObject>(options: HostOptions<S>): Promise<ServiceHandle> {
  const schema = options.config ? BaseServiceConfig.extend(options.config.shape) : BaseServiceConfig;
  const config = loadConfig(schema, options.env ?? process.env) as z.infer<typeof BaseServiceConfig> & z.infer<S>;
  const logger = createLogger(options.name);
  // On its own a service must reach the others through RabbitMQ; an in-process bus only makes sense when shared.
  if (!options.shared?.bus && !config.AMQP_URL) throw new Error(`Invalid configuration:\n  AMQP_URL: is required when ${options.name} runs as its own process (amqp://...)`);
  let pool: Pool | undefined;
  if (options.database) {
    if (!config.DATABASE_URL) throw new Error(`Invalid configuration:\n  DATABASE_URL: is required by ${options.name} (postgres://...)`);
    pool = createPool({ url: config.DATABASE_URL, applicationName: options.name, logger });
    await migrate(pool, { schema: options.database.schema, migrations: options.database.migrations, logger });
  }
  const bus = options.shared?.bus ?? createBus({ url: config.AMQP_URL, prefix: config.BUS_PREFIX, logger, requestTimeoutMs: config.BUS_TIMEOUT_MS });
  const parts = await options.build({ config, logger, bus, pool });
  const consumer = await bus.serve(options.busService, async (request) => (request.type === 'ping' ? 'pong' : parts.handler(request)));
  const app = express();
  app.use(
    healthRouter({
      ...(pool ? { database: async () => (await (pool as Pool).query('SELECT 1')).rowCount === 1 } : {}),
      bus: () => bus.isReady(),
    }),
  );
  const http = await listen(app, config.HEALTH_PORT);
  logger.info({ health: http.address }, `${options.name} started`);
  return {
    address: http.address,
    stop: async () => {
      await http.stop();
      await consumer.close();
      for (const s of parts.subscriptions ?? []) await s.close();
      await parts.stop?.();
      if (!options.shared?.bus) await bus.close();
      await pool?.end();
    },
  };
}

/** The `require.main === module` tail of every app: start, install process handlers, exit 1 on a failed start. */
export function runMain(name: string, start: () => Promise<{ stop(): Promise<void> }>): void {
  let logger: Logger;
  try {
    logger = createLogger(name);
  } catch (err) {
    process.stderr.write(`${name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  start().then(
    (handle) => installProcessHandlers(logger, [handle.stop]),
    (err) => {
      logger.fatal({ err: err instanceof Error ? err.message : err }, `${name} failed to start`);
      process.exit(1);
    },
  );
}
export * from './dispatch';
