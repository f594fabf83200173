import { z } from 'zod';
import { UrlSigner, attachmentUrlSettings, blobStoreFromConfig, blobStoreSettings, urlSigningSecret } from '@pitwall/blob-store';
import { EXCHANGES, SERVICES, type AttachmentAvailableEvent, type EntityChangedEvent } from '@pitwall/contracts';
import { createOutbox } from '@pitwall/messaging';
import { defineService } from '@pitwall/service-host';
import { intVar } from '@pitwall/service-kit';
import { ENTITY_SCHEMA, entityMigrations } from './data-access/migrations';
import { releaseBlobs, type AttachmentContext } from './domain/attachments/attachment-context';
import { drainDatabaseBytes, sweepAbandonedUploads } from './domain/attachments/maintenance';
import { EntityStore } from './domain/entity-store';
import { ReadCache } from './domain/read-cache';
import { commandContext, entityCommands } from './entry-points/bus/entity-commands';

const EntityServiceConfig = z.object({
  /** Memory for rendered read replies (get, list, search), in MiB; 0 turns the cache off. */
  READ_CACHE_MB: intVar(64),
  // Attached files: where their bytes are (BLOB_STORE, BLOB_DIR, S3_*) and the URLs handed out for them.
  ...blobStoreSettings,
  ...attachmentUrlSettings,
  /** Uploads still below AvailableOnServer this long after their prepare are swept, in seconds (default a day). */
  ATTACHMENT_ABANDONED_AFTER_S: intVar(24 * 3600),
  /** How often the sweep runs, in seconds; 0 turns it off. */
  ATTACHMENT_SWEEP_INTERVAL_S: intVar(3600),
});

/** Owns the `entity` schema, answers entity and attachment commands, publishes entity events. */
export const entityService = defineService({
  name: 'entity-service',
  config: EntityServiceConfig,
  database: { schema: ENTITY_SCHEMA, migrations: entityMigrations },
  build: async ({ bus, pool, logger, config }) => {
    if (!pool) throw new Error('entity-service needs its database');
    // Events are written with their write and published after its commit; what fails now is retried (outbox).
    const outbox = createOutbox<EntityChangedEvent | AttachmentAvailableEvent>({ pool, schema: ENTITY_SCHEMA, publish: (routingKey, event, headers) => bus.publish(EXCHANGES.entityEvents, routingKey, event, headers), logger });
    const requestHeaders = (): Record<string, string> => {
      const requestId = commandContext.getStore()?.requestId;
      return requestId ? { requestId } : {};
    };
    const blobs = blobStoreFromConfig(config);
    const cache = new ReadCache(config.READ_CACHE_MB * 1024 * 1024);
    const attachments: AttachmentContext = {
      pool,
      outbox,
      cache,
      blobs,
      signer: new UrlSigner(urlSigningSecret(config.URL_SIGNING_SECRET, config.DATA_DIR)),
      urlTtlSeconds: config.UPLOAD_URL_TTL_S,
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      logger,
    };
    const store = new EntityStore(pool, outbox, cache, requestHeaders, (keys) => releaseBlobs(attachments, keys));
    // Bytes from before the blob store move out of PostgreSQL before the service answers (idempotent).
    await drainDatabaseBytes(attachments);
    const sweep = config.ATTACHMENT_SWEEP_INTERVAL_S
      ? setInterval(() => void sweepAbandonedUploads(attachments, config.ATTACHMENT_ABANDONED_AFTER_S).catch((err: unknown) => logger.warn({ err }, 'sweep of abandoned uploads failed')), config.ATTACHMENT_SWEEP_INTERVAL_S * 1000)
      : undefined;
    sweep?.unref();
    outbox.start();
    return {
      store,
      attachments,
      stop: async () => {
        clearInterval(sweep);
        await outbox.stop();
        await blobs.close();
      },
    };
  },
  bus: { service: SERVICES.entity, commands: ({ store, attachments }, { logger }) => entityCommands(store, logger, attachments) },
});
