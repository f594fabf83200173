import { randomUUID } from 'node:crypto';
import { CacheUnavailableError, MemoryCache, type Cache } from '@pitwall/cache';
import { AppError, type Logger } from '@pitwall/service-kit';

export interface ReadLimits {
  /** Reads of one user running at once (across every gateway replica sharing the cache). */
  perUser: number;
  /** Reads of one user waiting for a slot; one more is a 429. */
  queue: number;
  /** Seconds a refused caller is told to wait (Retry-After). */
  retryAfterSeconds?: number;
}

/**
 * A read's places (admitted, running) are leases this long, renewed every READ_LEASE_RENEW_MS while it is admitted: a
 * replica that died (kill -9) holding places frees them within this time, and a place is never counted after its
 * read ended.
 */
export const READ_LEASE_MS = 15_000;
const READ_LEASE_RENEW_MS = 5_000;
/** Renewals stop after this long, whatever happens to the read: a place whose release was lost cannot be held for ever. */
export const READ_LEASE_MAX_HOLD_MS = 30 * 60_000;
const POLL_MS = 20;

/**
 * Per-user concurrency of the expensive reads (data file access), counted in the shared cache (Redis in production)
 * so the bound holds across gateway replicas: `perUser` run, `queue` more wait (polling for a free slot), and a
 * read beyond both is refused at once with a 429 and Retry-After.
 *
 * While the shared cache cannot be reached, reads are counted in this process instead, with the same limits: each
 * replica then admits up to `perUser` running and `queue` waiting reads of a user on its own (the bound is per
 * replica until the cache is back). A read is never refused, nor failed, for want of the cache.
 */
export class ReadLimiter {
  /** The counters of this process, used while the shared cache is unavailable. */
  private readonly local: MemoryCache | undefined;

  constructor(
    private readonly cache: Cache,
    readonly limits: ReadLimits,
    private readonly logger?: Logger,
  ) {
    this.local = cache.shared === true ? new MemoryCache() : undefined;
  }

  /** Admits a read of `userId`: resolves with its release once it may run; a 429 AppError when the queue is full. */
  async acquire(userId: string, signal?: AbortSignal): Promise<() => Promise<void>> {
    if (!this.local) return this.acquireIn(this.cache, userId, signal);
    try {
      return await this.acquireIn(this.cache, userId, signal);
    } catch (err) {
      if (!(err instanceof CacheUnavailableError)) throw err;
      this.logger?.debug({ err: err.message }, 'read limiter: shared cache unavailable; counting in this process');
      return this.acquireIn(this.local, userId, signal);
    }
  }

  async close(): Promise<void> {
    await this.local?.close();
  }

  private async acquireIn(cache: Cache, userId: string, signal?: AbortSignal): Promise<() => Promise<void>> {
    const admitted = admittedKey(userId);
    const running = runningKey(userId);
    const holder = randomUUID();
    // One round trip in the common case: a place among the admitted, then a running slot if one is free.
    const taken = await cache.takePlaces(
      [
        { key: admitted, limit: this.limits.perUser + this.limits.queue },
        { key: running, limit: this.limits.perUser },
      ],
      holder,
      READ_LEASE_MS,
    );
    if (taken === 0) throw new ReadLimitError(this.limits);
    // Held places are renewed while the read is admitted; a renewal the cache misses lets them lapse (counted in no
    // one's favour: the read goes on).
    const holdUntil = Date.now() + READ_LEASE_MAX_HOLD_MS;
    const renewal = setInterval(() => {
      if (Date.now() > holdUntil) clearInterval(renewal);
      else void cache.renewPlaces([admitted, running], holder, READ_LEASE_MS).catch(() => undefined);
    }, READ_LEASE_RENEW_MS);
    renewal.unref();
    const giveBack = async () => {
      clearInterval(renewal);
      await cache.releasePlaces([running, admitted], holder).catch(() => undefined);
    };
    try {
      // Admitted but queued: wait (polling) for a running slot.
      if (taken === 1) {
        while ((await cache.takePlaces([{ key: running, limit: this.limits.perUser }], holder, READ_LEASE_MS)) === 0) {
          if (signal?.aborted) throw signal.reason;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      }
      // The caller went while the places were taken: they are not handed to a read that will not run.
      if (signal?.aborted) throw signal.reason;
    } catch (err) {
      // A cache lost while waiting cannot take the place back: its lease lapses (READ_LEASE_MS).
      await giveBack();
      throw err;
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await giveBack();
    };
  }
}

/** A 429 that says when to come back. */
export class ReadLimitError extends AppError {
  constructor(limits: ReadLimits) {
    super(429, `Too many concurrent data file reads: ${limits.perUser} run and ${limits.queue} wait per user (DATAFILE_READS_PER_USER is ${limits.perUser}, DATAFILE_READ_QUEUE is ${limits.queue}); retry later`, { retryAfterSeconds: limits.retryAfterSeconds ?? 1 });
  }
}

// Sorted sets of leases (`places:`), never the counters (strings) an earlier version kept under `reads:admitted:`.
export const admittedKey = (userId: string) => `reads:places:admitted:${userId}`;
export const runningKey = (userId: string) => `reads:places:running:${userId}`;
