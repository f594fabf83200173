import { contentKey } from '@pitwall/blob-store';
import type { EventHandler } from '@pitwall/bus';
import { ATTACHMENT_AVAILABLE_ROUTING_KEY, ATTACHMENT_DELETED_ROUTING_KEY } from '@pitwall/contracts';
import type { Logger } from '@pitwall/service-kit';
import { dropEntityDatasets, type DatasetCaches } from '../../domain/cache-invalidation';

/** The entity events that change what an entity's datasets are (docs/events.md). */
export const CACHE_EVENT_KEYS = [ATTACHMENT_AVAILABLE_ROUTING_KEY, ATTACHMENT_DELETED_ROUTING_KEY, 'entity.*.deleted'];

/** Thin entry point: an attachment or entity event drops the entity's cached datasets in this instance. */
export function cacheEvents(caches: DatasetCaches, logger: Logger): EventHandler {
  return async (event) => {
    const payload = (event.payload ?? {}) as { entityId?: unknown; blobSha256?: unknown };
    if (typeof payload.entityId !== 'string') return;
    // The file that became available is content-addressed: its blob key is its hash's.
    const available = event.routingKey === ATTACHMENT_AVAILABLE_ROUTING_KEY && typeof payload.blobSha256 === 'string' ? contentKey(payload.blobSha256) : undefined;
    const entityId = payload.entityId;
    const dropped = await dropEntityDatasets(caches, entityId, available);
    if (dropped.contentKeys) logger.debug({ entityId, routingKey: event.routingKey, ...dropped }, 'dropped cached datasets');
  };
}
