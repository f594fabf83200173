import type { StoredChannelCache } from '@pitwall/formats';
import type { Datasets } from './datasets';
import type { DecompressedCache } from './decompressed-cache';
import type { ReadResultCache } from './read-result-cache';

/** The caches a dataset's reads fill: its open catalogue, its stored channels, its decompressed copies. */
export interface DatasetCaches {
  datasets: Datasets;
  cache: StoredChannelCache;
  decompressed: DecompressedCache;
  /** Encoded answers by content (absent: none kept). */
  results?: ReadResultCache;
}

/**
 * Drops what is cached of an entity's datasets: when one of its attachments was deleted or the entity was, all of
 * it; when a file became available (new, or replacing another), all but the datasets already made of that file
 * (`availableBlobKey`): every other set of files it had may have changed. Idempotent: a redelivered event drops
 * nothing more. Reads never depend on it for correctness (each read resolves its files through the entity-service
 * first); it frees what no read of the entity's current files would use.
 */
export async function dropEntityDatasets(caches: DatasetCaches, entityId: string, availableBlobKey?: string): Promise<{ contentKeys: number; copies: number }> {
  const { contentKeys, compressedBlobKeys } = caches.datasets.invalidate(entityId, availableBlobKey);
  for (const key of contentKeys) {
    caches.cache.deleteAll(key);
    caches.results?.deleteAll(key);
  }
  await Promise.all(compressedBlobKeys.map((key) => caches.decompressed.drop(key)));
  return { contentKeys: contentKeys.length, copies: compressedBlobKeys.length };
}
