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
   * Places of a bounded set, each held by a holder until it gives it back or its lease runs out (a holder that died
   * frees its places by itself within `leaseMs`). Takes a place in each step's set in order, atomically, in one round
   * trip, while the set holds fewer live places than its limit; the first that is full stops the walk and it and the
   * later ones are left as they are. A place the holder already has counts as taken, its lease renewed. Returns how
   * many sets the holder now has a place in, counted from the first (a slot and then a place in a queue, say).
   */
  takePlaces(steps: readonly { key: string; limit: number }[], holder: string, leaseMs: number): Promise<number>;
  /** Extends the holder's live places in these sets to `leaseMs` from now (a place that ran out is not taken again). */
  renewPlaces(keys: readonly string[], holder: string, leaseMs: number): Promise<void>;
  /** Gives the holder's places in these sets back. */
  releasePlaces(keys: readonly string[], holder: string): Promise<void>;
  /** The live places of a set. */
  countPlaces(key: string): Promise<number>;
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
