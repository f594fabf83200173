import { z } from 'zod';
import { AUTH_CACHE_PREFIX, AUTH_SCHEMA, AuthStore, authMigrations } from '@pitwall/auth';
import { MemoryCache, RedisCache, type Cache } from '@pitwall/cache';
import { createPool, migrate } from '@pitwall/db';
import { AppError, createLogger, loadConfig, optionalPrefixVar, POSTGRES_URL, REDIS_URL, urlVar } from '@pitwall/service-kit';
import { asksForHelp, parseCommand, usage, UsageError } from './commands';

const configSchema = z.object({
  /** The auth database; with the embedded default, the URL `npm start` prints. */
  DATABASE_URL: urlVar(POSTGRES_URL),
  /** Optional: the gateways' Redis, so that revocations evict cached keys at once. */
  REDIS_URL: urlVar(REDIS_URL).optional(),
  /** The gateways' REDIS_PREFIX (default pitwall:auth:): revocation must evict the keys they cache under it. */
  REDIS_PREFIX: optionalPrefixVar(AUTH_CACHE_PREFIX),
  /** Log level of the CLI's own logs (default warn, so output stays readable). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
});

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

export interface AdminOptions {
  env?: NodeJS.ProcessEnv;
  io?: AdminIo;
  /** Redis key prefix of the auth cache; tests isolate themselves with a random one. */
  cachePrefix?: string;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const consoleIo: AdminIo = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

/** Runs one admin command; resolves to the process exit code and never throws. */
export async function runAdmin(argv: string[], { env = process.env, io = consoleIo, cachePrefix = AUTH_CACHE_PREFIX }: AdminOptions = {}): Promise<number> {
  if (asksForHelp(argv)) {
    io.out(usage());
    return EXIT_OK;
  }
  let parsed: ReturnType<typeof parseCommand>;
  let config: z.infer<typeof configSchema>;
  try {
    parsed = parseCommand(argv);
    if (!env['DATABASE_URL']) throw new UsageError('DATABASE_URL is not set. Point it at the Pitwall database, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/pitwall (with `npm start`, use the URL it prints).');
    try {
      config = loadConfig(configSchema, env);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message) io.err(`error: ${err.message}\n`);
    io.err(usage());
    return EXIT_USAGE;
  }

  const logger = createLogger('admin', config.LOG_LEVEL);
  const pool = createPool({ url: config.DATABASE_URL, applicationName: 'pitwall-admin', logger, max: 2 });
  const cache: Cache = config.REDIS_URL ? new RedisCache(config.REDIS_URL, config.REDIS_PREFIX ?? cachePrefix, logger) : new MemoryCache();
  try {
    await migrate(pool, { schema: AUTH_SCHEMA, migrations: authMigrations, logger });
    const store = new AuthStore(pool, cache, logger);
    await parsed.command.run({ store, print: io.out, warn: (l) => io.err(`warning: ${l}`), sharedCache: Boolean(config.REDIS_URL) }, parsed.args);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof AppError && err.status === 400) {
      io.err(`error: ${err.message}`);
      return EXIT_USAGE;
    }
    io.err(`error: ${err instanceof AppError ? err.message : describe(err)}`);
    return EXIT_FAILURE;
  } finally {
    await cache.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
  }
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: { message: string }[] };
  if (e?.code === 'ECONNREFUSED' || e?.errors?.length) return `cannot reach the database (${e.errors?.[0]?.message ?? e.message}); is DATABASE_URL right and the server running?`;
  return e?.message ?? String(err);
}
