import { z } from 'zod';
import { AUTH_CACHE_PREFIX, AUTH_SCHEMA, AuthStore, authMigrations } from '@pitwall/auth';
import { MemoryCache, RedisCache, redisCacheOptions, redisCacheSettings, type Cache } from '@pitwall/cache';
import { createPool, migrate } from '@pitwall/db';
import { AppError, createLogger, loadConfig, LOG_FORMATS, logFormat, msVar, optionalPrefixVar, POSTGRES_URL, REDIS_URL, urlVar } from '@pitwall/service-kit';
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
  /** json or pretty (default: pretty when stderr is a terminal); the logs go to stderr, the command's output to stdout. */
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
  /** The longest wait for a database connection, its opening included (default 10 s): a wrong host fails, not hangs. */
  DB_CONNECT_TIMEOUT_MS: msVar(10_000),
  /** The services' bounds on a statement and on a session idle in a transaction, here too (0: none). */
  DB_STATEMENT_TIMEOUT_MS: msVar(120_000, { min: 0 }),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: msVar(60_000, { min: 0 }),
  /** The gateways' Redis timeouts and breaker, so that an eviction waits as long as theirs. */
  ...redisCacheSettings,
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
  /** The delay of a change's second eviction (default 2 s, awaited before the CLI ends); tests shorten it. */
  secondEvictionDelayMs?: number;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** The change is committed, but the gateways' Redis did not take its eviction: they may accept the old entry for its TTL. */
export const EXIT_NOT_EVICTED = 3;

const consoleIo: AdminIo = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

/** Runs one admin command; resolves to the process exit code and never throws. */
export async function runAdmin(argv: string[], { env = process.env, io = consoleIo, cachePrefix = AUTH_CACHE_PREFIX, secondEvictionDelayMs }: AdminOptions = {}): Promise<number> {
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

  // Logs go to stderr: stdout is the command's output (a list piped to a file, a key to copy).
  const logger = createLogger('admin', config.LOG_LEVEL, logFormat(config.LOG_FORMAT, Boolean(process.stderr.isTTY)), process.stderr);
  const pool = createPool({
    url: config.DATABASE_URL,
    applicationName: 'pitwall-admin',
    logger,
    max: 2,
    connectionWaitMs: config.DB_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  });
  const cache: Cache = config.REDIS_URL ? new RedisCache(config.REDIS_URL, config.REDIS_PREFIX ?? cachePrefix, logger, redisCacheOptions(config)) : new MemoryCache();
  let notEvicted: Error | undefined;
  try {
    if (parsed.command.writes) await migrate(pool, { schema: AUTH_SCHEMA, migrations: authMigrations, logger });
    else await requireAuthSchema(pool);
    // The CLI ends right after the command: a change's second eviction is awaited, not left to a timer.
    const store = new AuthStore(pool, cache, logger, { awaitSecondEviction: true, secondEvictionDelayMs, onEvictionFailed: (err) => (notEvicted ??= err) });
    await parsed.command.run({ store, print: io.out, warn: (l) => io.err(`warning: ${l}`), sharedCache: Boolean(config.REDIS_URL) }, parsed.args);
    if (notEvicted) {
      io.err(
        `warning: the change is committed, but the gateways' Redis (REDIS_URL) did not take its eviction (${notEvicted.message}): gateways that cached the old entry may accept it until it expires (about a minute). Run the command again once Redis answers.`,
      );
      return EXIT_NOT_EVICTED;
    }
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

/**
 * The read-only commands change nothing, not even the schema: a DATABASE_URL naming another database (of the same
 * server) is told so instead of being given an empty `auth` schema.
 */
async function requireAuthSchema(pool: ReturnType<typeof createPool>): Promise<void> {
  const { rows } = await pool.query<{ found: boolean }>("SELECT to_regclass('auth.api_keys') IS NOT NULL AS found");
  if (!rows[0]?.found) throw new Error('the database DATABASE_URL names has no Pitwall auth schema (auth.api_keys): is it the Pitwall database? The gateway creates it at its first start, as does any admin command that writes');
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: { message: string }[] };
  if (e?.code === 'ECONNREFUSED' || e?.errors?.length) return `cannot reach the database (${e.errors?.[0]?.message ?? e.message}); is DATABASE_URL right and the server running?`;
  return e?.message ?? String(err);
}
