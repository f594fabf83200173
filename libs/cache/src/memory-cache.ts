import type { Cache } from './types';

interface Entry {
  value: string;
  expiresAt: number | null;
}

/** In-process cache for the embedded default: same semantics as RedisCache within one process. */
export class MemoryCache implements Cache {
  private readonly entries = new Map<string, Entry>();

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
  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: ttlSeconds ? Date.now() + ttlSeconds * 1000 : null });
  }
  async del(...keys: string[]): Promise<void> {
    for (const k of keys) this.entries.delete(k);
  }
  async incr(key: string, ttlSeconds: number): Promise<number> {
    const e = this.live(key);
    const value = (e ? Number(e.value) : 0) + 1;
    this.entries.set(key, { value: String(value), expiresAt: e?.expiresAt ?? Date.now() + ttlSeconds * 1000 });
    return value;
  }
  async decr(key: string): Promise<number> {
    const e = this.live(key);
    const value = Math.max(0, (e ? Number(e.value) : 0) - 1);
    this.entries.set(key, { value: String(value), expiresAt: e?.expiresAt ?? null });
    return value;
  }
  async isReady(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {
    this.entries.clear();
  }
}
