import { join } from 'node:path';
import { z } from 'zod';
import { UrlSigner, attachmentUrlSettings, blobStoreFromConfig, blobStoreSettings, urlSigningSecret, watchedBlobStore } from '@pitwall/blob-store';
import { AUTH_CACHE_PREFIX, AUTH_NEAR_PREFIXES, AUTH_SCHEMA, AuthStore, authMigrations } from '@pitwall/auth';
import { ClaimRedeemer, claimRedeemerSettings, claimSecret, InProcessBus, ServicePresence } from '@pitwall/bus';
import { MemoryCache, RedisCache, redisCacheOptions, redisCacheSettings, type Cache } from '@pitwall/cache';
import { DEFAULT_TIMING_PARTITIONS, EXCHANGES, MAX_TIMING_PARTITIONS, SERVICES } from '@pitwall/contracts';
import { defineService } from '@pitwall/service-host';
import { hostVar, intVar, memoryShareBytesVar, msVar, portVar, prefixVar, REDIS_URL, urlVar } from '@pitwall/service-kit';
import { buildGateway } from './app';
import { HeldAnswers } from './domain/held-answers';
import { DEFAULT_RESPONSE_COMPRESSION } from './entry-points/http/response-encoding';
import { ReadLimiter } from './domain/read-limiter';

/** Bytes of each unit BODY_LIMIT may be written in (as express's body parser reads them: 1kb is 1024 bytes). */
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 * 1024 };
/**
 * The largest BODY_LIMIT: a JSON body is parsed whole in memory, several times its size, and sent to its service as
 * one bus message (RabbitMQ refuses messages over 128 MiB by default); the timing-service batches updates within
 * TIMING_BATCH_MAX_BYTES, so its messages keep under that bound too.
 */
const MAX_BODY_LIMIT = { text: '64mb', bytes: 64 * 1024 * 1024 };
const bodyLimitVar = z
  .string()
  .superRefine((value, ctx) => {
    const size = /^([0-9]+)(b|kb|mb)$/i.exec(value);
    const bytes = size ? Number(size[1]) * (SIZE_UNITS[(size[2] as string).toLowerCase()] as number) : NaN;
    if (!(bytes >= 1 && bytes <= MAX_BODY_LIMIT.bytes)) ctx.addIssue({ code: 'custom', message: `must be a size from 1b to ${MAX_BODY_LIMIT.text} in b, kb or mb, such as 1mb or 512kb` });
  })
  .default('1mb');

const GatewayConfig = z.object({
  PORT: portVar(8080),
  HOST: hostVar('0.0.0.0'),
  REDIS_URL: urlVar(REDIS_URL).optional(),
  REDIS_PREFIX: prefixVar(AUTH_CACHE_PREFIX),
  // Redis is a cache, never waited on: command and connection timeouts, and the breaker that bypasses it.
  ...redisCacheSettings,
  /** Data file reads one user may run at once, across the replicas sharing REDIS_URL (default 4, at least 1)... */
  DATAFILE_READS_PER_USER: intVar(4),
  /** ...and how many more may wait for a slot before a read is refused with 429 (default 8; 0: none wait). */
  DATAFILE_READ_QUEUE: intVar(8, { min: 0 }),
  /** The telemetry viewer's built assets (tools/build-viewer.mjs), served at /viewer; default: `viewer/` beside the running bundle. */
  VIEWER_DIR: z.string().min(1).optional(),
  /** Partition queues of the timing-service: must equal the timing-service's TIMING_PARTITIONS (docs/timing.md). */
  TIMING_PARTITIONS: intVar(DEFAULT_TIMING_PARTITIONS, { max: MAX_TIMING_PARTITIONS }),
  /** A write waits for its service BUS_TIMEOUT_MS plus this per MiB of its JSON body (ms, default 60000; 0: none): big writes answer at their commit. */
  BUS_TIMEOUT_MS_PER_MB: msVar(60_000, { min: 0 }),
  /** The largest JSON body (default 1mb, 1b to 64mb); a larger one is a 413. */
  BODY_LIMIT: bodyLimitVar,
  /** The longest pause in a request body (ms, default 30000; 0: none): a client that stops sending part-way is answered 408 and its connection closed. */
  BODY_IDLE_TIMEOUT_MS: msVar(30_000, { min: 0 }),
  /** Connections open at once at most (default 8192; 0: none): one more is answered 503 and closed. */
  HTTP_MAX_CONNECTIONS: intVar(8192, { min: 0 }),
  /** Connections one client address may hold open at once (default 512; 0: none): one more is answered 429 and closed. */
  HTTP_MAX_CONNECTIONS_PER_CLIENT: intVar(512, { min: 0 }),
  /**
   * The longest a response in progress waits for its client to accept a byte (ms, default 60000; 0: none): a client
   * that stops reading has its connection closed, the transfer aborted, and what the answer held let go.
   */
  RESPONSE_IDLE_TIMEOUT_MS: msVar(60_000, { min: 0 }),
  // Attached file bytes stream through the gateway's signed URLs (filesystem backend) into the blob store.
  ...blobStoreSettings,
  ...attachmentUrlSettings,
  // Large data file answers are fetched from the instance that made them, by the claim it replied (docs/architecture.md).
  ...claimRedeemerSettings,
  /** Bytes of large read answers kept to send again when the service says they still are the answer (default 64 MiB; 0: none). */
  HELD_ANSWERS_BYTES: memoryShareBytesVar(64 * 1024 * 1024),
  /** Answers compressed as their Accept-Encoding asks (zstd, gzip, br: docs/api.md), `on` (default) or `off`. */
  RESPONSE_COMPRESSION: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  /** Bodies of fewer bytes are sent as they are (default 8192; 0: every body the client lets be compressed). */
  RESPONSE_COMPRESSION_MIN_BYTES: intVar(DEFAULT_RESPONSE_COMPRESSION.minBytes, { min: 0 }),
});

/** The public HTTP entry: owns the `auth` schema (auth store over the pool and the cache), routes onto the bus. */
export const gateway = defineService({
  name: 'gateway',
  config: GatewayConfig,
  database: { schema: AUTH_SCHEMA, migrations: authMigrations },
  build: async ({ bus, pool, logger, config, shared, name }) => {
    if (!pool) throw new Error('gateway needs its database');
    const presence = new ServicePresence(bus, { intervalMs: config.SERVICE_PRESENCE_INTERVAL_MS, logger });
    presence.start(Object.values(SERVICES));
    // The keys' and roles' entries are kept near (Redis says when one changes): no Redis round trip per request. While
    // Redis cannot be reached the auth store reads PostgreSQL; when it returns, the auth entries that revocations made
    // meanwhile could not evict are forgotten before it is used again.
    const cache: Cache =
      shared.cache ??
      (config.REDIS_URL ? new RedisCache(config.REDIS_URL, config.REDIS_PREFIX, logger, { ...redisCacheOptions(config), near: { prefixes: AUTH_NEAR_PREFIXES }, forgetAfterOutage: AUTH_NEAR_PREFIXES }) : new MemoryCache());
    // Membership changes leave through the auth outbox: published here after their commit, and the admin CLI's
    // (which has no bus) by this outbox's retry of left-overs. The entity-service mirrors them as Users entities.
    const auth = new AuthStore(pool, cache, logger, { publishMembershipEvent: (key, event, headers) => bus.publish(EXCHANGES.authEvents, key, event, headers), maxMessageBytes: config.BUS_MAX_MESSAGE_BYTES });
    auth.events.start();
    const readLimiter = new ReadLimiter(cache, { perUser: config.DATAFILE_READS_PER_USER, queue: config.DATAFILE_READ_QUEUE }, logger);
    const blobs = blobStoreFromConfig(config);
    const attachments = { blobs, signer: new UrlSigner(urlSigningSecret(config.URL_SIGNING_SECRET, config.DATA_DIR, logger)), maxUploadBytes: config.MAX_UPLOAD_BYTES };
    const claims = new ClaimRedeemer({ secret: claimSecret(config.CLAIM_SECRET, !shared.bus, name, logger), inProcess: config.CLAIM_IN_PROCESS === 'true', logger });
    const heldAnswers = config.HELD_ANSWERS_BYTES > 0 ? new HeldAnswers(config.HELD_ANSWERS_BYTES) : undefined;
    return {
      auth,
      cache,
      readLimiter,
      attachments,
      presence,
      claims,
      heldAnswers,
      stop: async () => {
        presence.stop();
        claims.close();
        await auth.events.stop();
        await readLimiter.close();
        if (!shared.cache) await cache.close();
        await blobs.close();
      },
    };
  },
  // An in-process bus (npm start) keeps its queues in the process's memory: a membership snapshot published there
  // and not yet mirrored went with a killed process (its outbox row already deleted). Every account's members are
  // announced again at start; the entity-service mirrors each version once.
  started: async ({ auth }, { shared, logger }) => {
    if (!(shared.bus instanceof InProcessBus)) return;
    const accounts = await auth.announceAllMembers();
    if (accounts) logger.debug({ accounts }, 'account members announced again (the in-process bus keeps nothing across a restart)');
  },
  metrics: ({ heldAnswers }, metrics) => {
    if (heldAnswers) metrics.gauge('pitwall_gateway_held_answer_bytes', 'Bytes of large read answers held for their next request (HELD_ANSWERS_BYTES)', () => heldAnswers.heldBytes);
  },
  // An unreachable cache slows nothing and refuses nothing (the database answers), and without the blob store only the
  // routes that need it answer 503: the gateway stays ready, and says which part is degraded.
  health: ({ cache, attachments }, { logger }) => {
    // Probed once at start too: an unwritable or absent store is logged with its cause as the process starts.
    const blobStore = watchedBlobStore(attachments.blobs, logger);
    return { cache: async () => (await cache.isReady()) || 'degraded', blobStore: async () => (await blobStore()) || 'degraded' };
  },
  http: {
    port: (config) => config.PORT,
    host: (config) => config.HOST,
    bodyIdleTimeoutMs: (config) => config.BODY_IDLE_TIMEOUT_MS,
    connectionLimits: (config) => ({ total: config.HTTP_MAX_CONNECTIONS, perClient: config.HTTP_MAX_CONNECTIONS_PER_CLIENT }),
    responseIdleTimeoutMs: (config) => config.RESPONSE_IDLE_TIMEOUT_MS,
    app: ({ auth, readLimiter, attachments, presence, claims, heldAnswers }, { bus, logger, config, metrics }, checks) => buildGateway({ bus, auth, logger, metrics, claims, ...(heldAnswers ? { heldAnswers } : {}), bodyLimit: config.BODY_LIMIT, checks, readLimiter, attachments, presence, viewerDir: config.VIEWER_DIR ?? join(__dirname, 'viewer'), partitions: { [SERVICES.timing]: config.TIMING_PARTITIONS }, commandTimeout: { baseMs: config.BUS_TIMEOUT_MS, perMbMs: config.BUS_TIMEOUT_MS_PER_MB }, responseCompression: { enabled: config.RESPONSE_COMPRESSION === 'on', minBytes: config.RESPONSE_COMPRESSION_MIN_BYTES } }),
  },
});

/** The shared-cache key counting a user's admitted data file reads (tests watch it). */
export { admittedKey } from './domain/read-limiter';
