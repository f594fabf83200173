/** A shared key/value cache with counters, Redis in production and in-memory in the embedded default. */
export interface Cache {
  /**
   * True when every process sees the same entries (Redis), so one process can evict what another cached; false for
   * the in-process twin, whose entries only expire.
   */
  readonly shared?: boolean;
  get(key: string): Promise<string | null>;
  /** Several keys in one round trip: their values in the same order, null for a key that is not there. */
  getMany(keys: readonly string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  /** Increments a counter, setting its expiry when it is created; returns the new value. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /**
   * Counters taken in order, atomically, in one round trip: each step's counter is incremented while it is below its
   * limit (expiry set when it is created); the first that is at its limit stops the walk, and it and the later ones
   * are left as they are. Returns how many were incremented (a slot and then a place in a queue, say).
   */
  incrWhileBelow(steps: readonly { key: string; limit: number }[], ttlSeconds: number): Promise<number>;
  /** Decrements a counter (never below 0); returns the new value. */
  decr(key: string): Promise<number>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A cache call that failed because the cache could not be reached in time, or is being bypassed after such failures
 * (its circuit is open). The cache is not the authority for anything: a caller answers without it.
 */
export class CacheUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CacheUnavailableError';
  }
}
