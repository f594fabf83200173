import type { Cache } from './types';

interface Entry {
  value: string;
  expiresAt: number | null;
}

/** In-process cache for the embedded default: same semantics as RedisCache within one process. */
export class MemoryCache implements Cache {
  readonly shared = false;
  private readonly entries = new Map<string, Entry>();
  /** Sets of places: holder → when its lease runs out (ms). */
  private readonly places = new Map<string, Map<string, number>>();
  // Expired entries are dropped on read and by a periodic sweep, so keys that are never read again cannot pile up.
  private readonly sweeper = setInterval(() => this.sweep(), 60_000);

  constructor(private readonly maxEntries = 100_000) {
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, e] of this.entries) if (e.expiresAt !== null && e.expiresAt <= now) this.entries.delete(key);
    for (const [key, places] of this.places) {
      for (const [holder, until] of places) if (until <= now) places.delete(holder);
      if (places.size === 0) this.places.delete(key);
    }
  }

  /** Past the cap the oldest entry goes (a Map iterates in insertion order). */
  private store(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  private live(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (e && e.expiresAt !== null && e.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }
  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    return keys.map((key) => this.live(key)?.value ?? null);
  }
  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    this.store(key, { value, expiresAt: ttlSeconds ? Date.now() + ttlSeconds * 1000 : null });
  }
  async del(...keys: string[]): Promise<void> {
    for (const k of keys) this.entries.delete(k);
  }
  async incr(key: string, ttlSeconds: number): Promise<number> {
    const e = this.live(key);
    const value = (e ? Number(e.value) : 0) + 1;
    this.store(key, { value: String(value), expiresAt: e?.expiresAt ?? Date.now() + ttlSeconds * 1000 });
    return value;
  }
  async takePlaces(steps: readonly { key: string; limit: number }[], holder: string, leaseMs: number): Promise<number> {
    let taken = 0;
    for (const { key, limit } of steps) {
      const places = this.livePlaces(key, true);
      if (!places.has(holder) && places.size >= limit) break;
      places.set(holder, Date.now() + leaseMs);
      taken++;
    }
    return taken;
  }
  async renewPlaces(keys: readonly string[], holder: string, leaseMs: number): Promise<void> {
    for (const key of keys) {
      const places = this.livePlaces(key, false);
      if (places?.has(holder)) places.set(holder, Date.now() + leaseMs);
    }
  }
  async releasePlaces(keys: readonly string[], holder: string): Promise<void> {
    for (const key of keys) {
      const places = this.places.get(key);
      places?.delete(holder);
      if (places?.size === 0) this.places.delete(key);
    }
  }
  async countPlaces(key: string): Promise<number> {
    return this.livePlaces(key, false)?.size ?? 0;
  }
  /** A set's places with the lapsed ones dropped (created when `create`). */
  private livePlaces(key: string, create: true): Map<string, number>;
  private livePlaces(key: string, create: false): Map<string, number> | undefined;
  private livePlaces(key: string, create: boolean): Map<string, number> | undefined {
    let places = this.places.get(key);
    const now = Date.now();
    if (places) for (const [holder, until] of places) if (until <= now) places.delete(holder);
    if (!places && create) this.places.set(key, (places = new Map()));
    return places;
  }
  async isReady(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
    this.places.clear();
  }
}
