/** A shared key/value cache with counters, Redis in production and in-memory in the embedded default. */
export interface Cache {
  /**
   * True when every process sees the same entries (Redis), so one process can evict what another cached; false for
   * the in-process twin, whose entries only expire.
   */
  readonly shared?: boolean;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  /** Increments a counter, setting its expiry when it is created; returns the new value. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /** Decrements a counter (never below 0); returns the new value. */
  decr(key: string): Promise<number>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}
