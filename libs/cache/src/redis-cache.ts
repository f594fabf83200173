import Redis from 'ioredis';
import type { Logger } from 'pino';
import type { Cache } from './types';

/** KEYS: the counters in order; ARGV[1]: the expiry of a created counter (s); ARGV[i + 1]: KEYS[i]'s limit. */
const INCR_WHILE_BELOW = `
local taken = 0
for i, key in ipairs(KEYS) do
  if (tonumber(redis.call('GET', key)) or 0) >= tonumber(ARGV[i + 1]) then break end
  if redis.call('INCR', key) == 1 then redis.call('EXPIRE', key, ARGV[1]) end
  taken = taken + 1
end
return taken`;

/** Redis-backed cache; every key carries `prefix` so test runs and deployments never see each other's keys. */
export class RedisCache implements Cache {
  readonly shared = true;
  private readonly client: Redis;

  constructor(url: string, private readonly prefix: string, logger?: Logger) {
    this.client = new Redis(url, { keyPrefix: prefix, maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.client.on('error', (err) => logger?.warn({ err: err.message }, 'redis error'));
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(key);
  }
  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    return keys.length ? this.client.mget(...keys) : [];
  }
  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    if (ttlSeconds) await this.client.set(key, value, 'EX', ttlSeconds);
    else await this.client.set(key, value);
  }
  async del(...keys: string[]): Promise<void> {
    if (keys.length) await this.client.del(...keys);
  }
  async incr(key: string, ttlSeconds: number): Promise<number> {
    const [[, value]] = (await this.client.multi().incr(key).expire(key, ttlSeconds, 'NX').exec()) as [[null, number], unknown];
    return value;
  }
  async incrWhileBelow(steps: readonly { key: string; limit: number }[], ttlSeconds: number): Promise<number> {
    if (steps.length === 0) return 0;
    const taken = await this.client.eval(INCR_WHILE_BELOW, steps.length, ...steps.map((s) => s.key), ttlSeconds, ...steps.map((s) => s.limit));
    return Number(taken);
  }
  async decr(key: string): Promise<number> {
    // Lua keeps the floor at 0 atomically, so a lost increment can never drive a limit negative.
    const v = await this.client.eval("local v = redis.call('DECR', KEYS[1]); if v < 0 then redis.call('SET', KEYS[1], 0, 'KEEPTTL'); return 0 end; return v", 1, key);
    return Number(v);
  }
  async isReady(): Promise<boolean> {
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }
  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
  /** For tests: removes every key under this cache's prefix. */
  async clear(): Promise<void> {
    const keys = await this.client.keys(`${this.prefix}*`);
    if (keys.length) await this.client.del(...keys.map((k) => k.slice(this.prefix.length)));
  }
}
