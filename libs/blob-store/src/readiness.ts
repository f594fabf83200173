import { errorFields, type Logger } from '@pitwall/service-kit';
import type { BlobStore } from './types';

/** How long one probe's answer stands: readiness polled every second costs the store one request per few seconds. */
export const BLOB_STORE_PROBE_TTL_MS = 3000;

/**
 * The blob store's readiness check for `/health/ready`: a cheap probe (S3 HeadBucket, a stat of the directory) whose
 * answer is kept `ttlMs`; concurrent checks share one probe. With a logger, a change of state is logged once: the store
 * unavailable (a warn naming the dependency and the probe's cause: `EROFS`, `connect ECONNREFUSED`, which readiness
 * alone does not say), and available again.
 */
export function blobStoreReadiness(store: Pick<BlobStore, 'probe'>, ttlMs = BLOB_STORE_PROBE_TTL_MS, logger?: Logger): () => Promise<boolean> {
  let last: { at: number; up: Promise<boolean> } | undefined;
  let wasUp: boolean | undefined;
  const changed = (up: boolean, err?: unknown) => {
    if (up === wasUp) return up;
    if (!up) {
      const cause = (err as { cause?: unknown } | null)?.cause ?? err;
      const { reason, code } = errorFields(cause);
      logger?.warn({ dependency: 'blob store', cause: reason, ...(code ? { code } : {}) }, 'blob store unavailable: the routes that need it answer 503 until it answers again');
    } else if (wasUp === false) logger?.info({ dependency: 'blob store' }, 'blob store available again');
    wasUp = up;
    return up;
  };
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= ttlMs) {
      last = {
        at: now,
        up: store.probe().then(
          () => changed(true),
          (err: unknown) => changed(false, err),
        ),
      };
    }
    return last.up;
  };
}

/** `blobStoreReadiness` with its changes logged, probed once now: the store's state is in the log from the start. */
export function watchedBlobStore(store: Pick<BlobStore, 'probe'>, logger: Logger): () => Promise<boolean> {
  const check = blobStoreReadiness(store, BLOB_STORE_PROBE_TTL_MS, logger);
  void check();
  return check;
}
