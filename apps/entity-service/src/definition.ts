import { join } from 'node:path';
import { z } from 'zod';
import { UrlSigner, attachmentUrlSettings, blobStoreFromConfig, blobStoreSettings, urlSigningSecret, watchedBlobStore } from '@pitwall/blob-store';
import { ACCOUNT_MEMBERS_ROUTING_KEY, EXCHANGES, SERVICES, SUBSCRIPTION_QUEUES, type AttachmentAvailableEvent, type AttachmentDeletedEvent, type EntityChangedEvent } from '@pitwall/contracts';
import { commandOf, createInbox, createOutbox } from '@pitwall/messaging';
import { defineService } from '@pitwall/service-host';
import { DEFAULT_LZ4_LIMITS } from '@pitwall/formats';
import { intVar, memoryShareMiBVar, msVar, secondsVar } from '@pitwall/service-kit';
import { ENTITY_SCHEMA, entityMigrations } from './data-access/migrations';
import { Slots, releaseBlobs, type AttachmentContext } from './domain/attachments/attachment-context';
import { moveLegacyBytes, sweepAbandonedUploads, sweepUnreferencedBlobs } from './domain/attachments/maintenance';
import { EntityStore } from './domain/entity-store';
import { ReadCache } from './domain/read-cache';
import { DEFAULT_RULE_LIMITS, VIEWER_LAYOUT_MAX_LENGTH } from './domain/type-rules';
import { DEFAULT_MAX_READ_BYTES, DEFAULT_MAX_READ_ENTITIES } from './domain/read-model';
import { DEFAULT_MAX_COPY_ENTITIES } from './domain/copy-entity';
import { DEFAULT_MAX_DELETE_ENTITIES } from './domain/delete-entity';
import { commandContext, entityCommands } from './entry-points/bus/entity-commands';

const EntityServiceConfig = z.object({
  /** Memory for rendered read replies (get, list, search), in MiB, at most half of the machine's; 0 turns the cache off. */
  READ_CACHE_MB: memoryShareMiBVar(64),
  // Attached files: where their bytes are (BLOB_STORE, BLOB_DIR, S3_*) and the URLs handed out for them.
  ...blobStoreSettings,
  ...attachmentUrlSettings,
  /** Uploads still below AvailableOnServer this long after their prepare are swept, in seconds (default a day). */
  ATTACHMENT_ABANDONED_AFTER_S: secondsVar(24 * 3600),
  /** How often the sweep runs, in seconds; 0 turns it off. */
  ATTACHMENT_SWEEP_INTERVAL_S: secondsVar(3600, { min: 0 }),
  /** Decompressed bytes per compressed byte of an LZ4 upload, declared content size or not; more is a 409 at finalise (default 64). */
  LZ4_MAX_RATIO: intVar(DEFAULT_LZ4_LIMITS.maxRatio),
  /** Decompressed bytes of one LZ4 upload at most; more is a 409 at finalise (default 4 GiB). */
  LZ4_MAX_DECOMPRESSED_BYTES: intVar(DEFAULT_LZ4_LIMITS.maxBytes),
  /** How often blobs no record refers to are swept from the store, in seconds (default an hour); 0 turns it off. */
  BLOB_SWEEP_INTERVAL_S: secondsVar(3600, { min: 0 }),
  /** Blobs younger than this are never swept, in seconds (default an hour): a finalise in progress owns them. */
  BLOB_SWEEP_GRACE_S: secondsVar(3600),
  /** Math channels one account may hold; one more is a 409 naming this variable (each write checks them all, each read compiles them). */
  MAX_MATH_CHANNELS: intVar(DEFAULT_RULE_LIMITS.maxMathChannels),
  /** Custom parameter definitions one account may hold, all types together (every request reads them all); more is a 409. Default 2,000. */
  MAX_PARAMETER_DEFINITIONS: intVar(DEFAULT_RULE_LIMITS.maxParameterDefinitions),
  /** Distinct (parent, second parent) pairs one collection update may add items under (a lock each); more is a 400. Default 1,000. */
  MAX_COLLECTION_PAIRS: intVar(DEFAULT_RULE_LIMITS.maxCollectionPairs),
  /** Distinct parameters (param("Name")) one math channel may read through the definitions it reads; a write past it is a 400 naming this variable (default 1,024). */
  MAX_MATH_PARAMS: intVar(DEFAULT_RULE_LIMITS.maxMathParams),
  /** Characters a viewer layout's Layout may hold; more is a 400 naming this variable (default and most 32,768: the longest link the viewer reads, so a longer layout could never be applied). */
  MAX_VIEWER_LAYOUT_LENGTH: intVar(DEFAULT_RULE_LIMITS.maxViewerLayoutLength, { max: VIEWER_LAYOUT_MAX_LENGTH }),
  /** Viewer layouts one account may hold; one more is a 409 naming this variable (the viewer lists them all at sign-in). */
  MAX_VIEWER_LAYOUTS: intVar(DEFAULT_RULE_LIMITS.maxViewerLayouts),
  /** Entities one get, list or search may write out, nested ones and every copy of an included reference counted; more is a 413 (default 1,000,000: a run sheet of 10,000 laps with 20 sectors each is 210,001). */
  ENTITY_READ_MAX_ENTITIES: intVar(DEFAULT_MAX_READ_ENTITIES),
  /** Bytes of JSON one get, list or search answer may hold (one bus message); more is a 413 naming it. Default 64 MiB. */
  ENTITY_READ_MAX_BYTES: intVar(DEFAULT_MAX_READ_BYTES),
  /** Entities one create with CopyAll may copy below its source; more is a 413 naming this variable, before any is read (default 50,000). */
  ENTITY_COPY_MAX_ENTITIES: intVar(DEFAULT_MAX_COPY_ENTITIES),
  /**
   * Entities one delete may remove (the entity and everything below it; a collection update's deletes together); more
   * is a 413 naming this variable, counted before anything is locked or changed (default 50,000: within BUS_TIMEOUT_MS's
   * default 10 s with room to spare).
   */
  ENTITY_DELETE_MAX_ENTITIES: intVar(DEFAULT_MAX_DELETE_ENTITIES),
  /** 0 turns the command inbox off (writes are then not idempotent): for the inbox benchmark only. */
  COMMAND_INBOX: intVar(1, { min: 0, max: 1 }),
  /**
   * Test-only: holds each write's answer this many ms after its commit, so a kill -9 test can kill the service
   * between a commit and its reply with certainty. 0 (the default) in every real deployment.
   */
  TEST_HOLD_REPLY_AFTER_COMMIT_MS: msVar(0, { min: 0 }),
  /** Test-only: holds each write this many ms inside its transaction, before its deadline check. 0 in deployments. */
  TEST_HOLD_BEFORE_COMMIT_MS: msVar(0, { min: 0 }),
});

/** A test-only pause (`TEST_HOLD_*`), or nothing when it is 0. */
const hold = (ms: number): (() => Promise<void>) | undefined => (ms > 0 ? () => new Promise<void>((resolve) => setTimeout(resolve, ms)) : undefined);

/** The entity-service's queue of membership events (its instances compete for it). */
export const MEMBERS_QUEUE = SUBSCRIPTION_QUEUES.members;

/** Owns the `entity` schema, answers entity and attachment commands, publishes entity events. */
/** Threads of the pool that checks LZ4 uploads at finalise (finalises of more wait their turn before reading). */
const LZ4_THREADS = 2;

export const entityService = defineService({
  name: 'entity-service',
  config: EntityServiceConfig,
  database: {
    schema: ENTITY_SCHEMA,
    migrations: entityMigrations,
    // Bytes kept in PostgreSQL before the blob store move into it before the migration that drops their table.
    beforeMigrate: async (pool, { config, logger }) => void (await moveLegacyBytes(pool, () => blobStoreFromConfig(config), logger)),
  },
  // The finalise of an LZ4 upload checks its frames here (decompressing, keeping nothing): off the event loop.
  pools: [{ name: 'lz4', entry: 'lz4.worker.entry.js', source: join(__dirname, 'lz4.worker.entry.ts'), maxThreads: LZ4_THREADS }],
  build: async ({ bus, pool, logger, config, workers }) => {
    if (!pool) throw new Error('entity-service needs its database');
    // Events are written with their write and published after its commit; what fails now is retried (outbox).
    // Timing events (`timing.*`, written by timing updates) share the outbox and go to their own exchange.
    const exchangeOf = (routingKey: string) => (routingKey.startsWith('timing.') ? EXCHANGES.timingEvents : EXCHANGES.entityEvents);
    const outbox = createOutbox<EntityChangedEvent | AttachmentAvailableEvent | AttachmentDeletedEvent>({ pool, schema: ENTITY_SCHEMA, publish: (routingKey, event, headers) => bus.publish(exchangeOf(routingKey), routingKey, event, headers), logger, maxMessageBytes: config.BUS_MAX_MESSAGE_BYTES });
    const requestHeaders = (): Record<string, string> => {
      const requestId = commandContext.getStore()?.requestId;
      return requestId ? { requestId } : {};
    };
    // Each command is recorded with its reply in its write's transaction: a redelivery or a retry takes effect once.
    const inbox = config.COMMAND_INBOX ? createInbox({ pool, schema: ENTITY_SCHEMA, logger }) : undefined;
    const currentCommand = () => {
      const current = commandContext.getStore();
      return { command: (accountId: string) => commandOf(current?.headers ?? {}, accountId), ...(current?.deadline === undefined ? {} : { deadline: current.deadline }) };
    };
    const beforeCommit = hold(config.TEST_HOLD_BEFORE_COMMIT_MS);
    const afterCommit = hold(config.TEST_HOLD_REPLY_AFTER_COMMIT_MS);
    const blobs = blobStoreFromConfig(config);
    const cache = new ReadCache(config.READ_CACHE_MB * 1024 * 1024);
    const attachments: AttachmentContext = {
      pool,
      outbox,
      cache,
      blobs,
      signer: new UrlSigner(urlSigningSecret(config.URL_SIGNING_SECRET, config.DATA_DIR, logger)),
      urlTtlSeconds: config.UPLOAD_URL_TTL_S,
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
      lz4: { maxBytes: config.LZ4_MAX_DECOMPRESSED_BYTES, maxRatio: config.LZ4_MAX_RATIO },
      ...(workers['lz4'] ? { lz4Pool: workers['lz4'], lz4Slots: new Slots(LZ4_THREADS) } : {}),
      publicBaseUrl: config.PUBLIC_BASE_URL,
      logger,
      ...(inbox ? { inbox } : {}),
      currentCommand,
      eventHeaders: requestHeaders,
    };
    const store = new EntityStore(pool, outbox, cache, requestHeaders, {
      ...(inbox ? { inbox } : {}),
      currentCommand,
      ...(beforeCommit ? { beforeCommit } : {}),
      ...(afterCommit ? { afterCommit } : {}),
      releaseBlobs: (keys) => releaseBlobs(attachments, keys),
      ruleLimits: { maxMathChannels: config.MAX_MATH_CHANNELS, maxMathParams: config.MAX_MATH_PARAMS, maxViewerLayoutLength: config.MAX_VIEWER_LAYOUT_LENGTH, maxViewerLayouts: config.MAX_VIEWER_LAYOUTS, maxParameterDefinitions: config.MAX_PARAMETER_DEFINITIONS, maxCollectionPairs: config.MAX_COLLECTION_PAIRS },
      maxReadEntities: config.ENTITY_READ_MAX_ENTITIES,
      maxReadBytes: config.ENTITY_READ_MAX_BYTES,
      maxCopyEntities: config.ENTITY_COPY_MAX_ENTITIES,
      maxDeleteEntities: config.ENTITY_DELETE_MAX_ENTITIES,
      maxReplyBytes: config.BUS_MAX_MESSAGE_BYTES,
    });
    const sweep = config.ATTACHMENT_SWEEP_INTERVAL_S
      ? setInterval(() => void sweepAbandonedUploads(attachments, config.ATTACHMENT_ABANDONED_AFTER_S).catch((err: unknown) => logger.warn({ err }, 'sweep of abandoned uploads failed')), config.ATTACHMENT_SWEEP_INTERVAL_S * 1000)
      : undefined;
    sweep?.unref();
    const blobSweep = config.BLOB_SWEEP_INTERVAL_S
      ? setInterval(() => void sweepUnreferencedBlobs(attachments, config.BLOB_SWEEP_GRACE_S).catch((err: unknown) => logger.warn({ err }, 'sweep of unreferenced blobs failed')), config.BLOB_SWEEP_INTERVAL_S * 1000)
      : undefined;
    blobSweep?.unref();
    outbox.start();
    inbox?.start();
    return {
      store,
      attachments,
      stop: async () => {
        clearInterval(sweep);
        clearInterval(blobSweep);
        await outbox.stop();
        await inbox?.stop();
        await blobs.close();
      },
    };
  },
  // Probed once at start too: an unwritable or absent store is logged with its cause as the process starts.
  health: ({ attachments }, { logger }) => ({ blobStore: watchedBlobStore(attachments.blobs, logger) }),
  bus: { service: SERVICES.entity, commands: ({ store, attachments }, { logger }) => entityCommands(store, logger, attachments) },
  subscriptions: [
    {
      // The gateway's membership snapshots: each account's members mirrored as its read-only Users entities.
      exchange: EXCHANGES.authEvents,
      queue: MEMBERS_QUEUE,
      bindingKeys: [ACCOUNT_MEMBERS_ROUTING_KEY],
      handler: ({ store }, { logger }) => async (event) => {
        const { applied } = await store.mirrorMembers(event.payload);
        logger.debug({ accountId: (event.payload as { accountId?: string }).accountId, applied }, 'account members mirrored as Users');
      },
    },
  ],
});
