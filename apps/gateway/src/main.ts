import { z } from 'zod';
import { AUTH_CACHE_PREFIX, AuthStore, authMigrations } from '@pitwall/auth';
import { createBus, type Bus } from '@pitwall/bus';
import { MemoryCache, RedisCache, type Cache } from '@pitwall/cache';
import { createPool, migrate } from '@pitwall/db';
import { runMain } from '@pitwall/service-host';
import { createLogger, intVar, listen, loadConfig } from '@pitwall/service-kit';
import { buildGateway } from './app';

const Config = z.object({
  PORT: intVar(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required (postgres://...)'),
  REDIS_URL: z.string().optional(),
  REDIS_PREFIX: z.string().default(AUTH_CACHE_PREFIX),
  AMQP_URL: z.string().optional(),
  BUS_PREFIX: z.string().default('pitwall.'),
  BUS_TIMEOUT_MS: intVar(10_000),
  BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/i, 'must be a size such as 1mb or 512kb').default('1mb'),
});

export interface GatewayHandle {
  address: string;
  port: number;
  auth: AuthStore;
  stop(): Promise<void>;
}

/** Composition root: config, auth store (pool + cache), bus, HTTP entry point. */
export async function start(env: NodeJS.ProcessEnv = process.env, shared: { bus?: Bus; cache?: Cache } = {}): Promise<GatewayHandle> {
  const config = loadConfig(Config, env);
  const logger = createLogger('gateway');
  if (!shared.bus && !config.AMQP_URL) throw new Error('Invalid configuration:\n  AMQP_URL: is required when the gateway runs as its own process (amqp://...)');
  const pool = createPool({ url: config.DATABASE_URL, applicationName: 'gateway', logger });
  await migrate(pool, { schema: 'auth', migrations: authMigrations, logger });
  const cache = shared.cache ?? (config.REDIS_URL ? new RedisCache(config.REDIS_URL, config.REDIS_PREFIX, logger) : new MemoryCache());
  const auth = new AuthStore(pool, cache, logger);
  const bus = shared.bus ?? createBus({ url: config.AMQP_URL, prefix: config.BUS_PREFIX, logger, requestTimeoutMs: config.BUS_TIMEOUT_MS });
  const app = buildGateway({
    bus,
    auth,
    logger,
    bodyLimit: config.BODY_LIMIT,
    checks: { database: async () => (await pool.query('SELECT 1')).rowCount === 1, cache: () => cache.isReady() },
  });
  const http = await listen(app, config.PORT, config.HOST);
  logger.info({ address: http.address }, 'gateway listening');
  return {
    address: http.address,
    port: http.port,
    auth,
    stop: async () => {
      await http.stop();
      if (!shared.bus) await bus.close();
      if (!shared.cache) await cache.close();
      await pool.end();
    },
  };
}

if (require.main === module) runMain('gateway', () => start());
