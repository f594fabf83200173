import type { BlobStore } from './types';

/** How long one probe's answer stands: readiness polled every second costs the store one request per few seconds. */
export const BLOB_STORE_PROBE_TTL_MS = 3000;

/**
 * The blob store's readiness check for `/health/ready`: a cheap probe (S3 HeadBucket, a stat of the directory) whose
 * answer is kept `ttlMs`; concurrent checks share one probe.
 */
export function blobStoreReadiness(store: Pick<BlobStore, 'probe'>, ttlMs = BLOB_STORE_PROBE_TTL_MS): () => Promise<boolean> {
  let last: { at: number; up: Promise<boolean> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= ttlMs) {
      last = {
        at: now,
        up: store.probe().then(
          () => true,
          () => false,
        ),
      };
    }
    return last.up;
  };
}
