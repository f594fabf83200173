import Redis from 'ioredis';
import type { Logger } from 'pino';
import { NearKeys, type NearKeysOptions } from './near-keys';
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

export interface RedisCacheOptions {
  /** Keys whose values this process keeps near, told by Redis when they change (see `NearKeys`); none by default. */
  near?: NearKeysOptions;
}

/** Redis-backed cache; every key carries `prefix` so test runs and deployments never see each other's keys. */
export class RedisCache implements Cache {
  readonly shared = true;
  private readonly client: Redis;
  private readonly near: NearKeys | undefined;

  constructor(url: string, private readonly prefix: string, logger?: Logger, options: RedisCacheOptions = {}) {
    this.client = new Redis(url, { keyPrefix: prefix, maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.client.on('error', (err) => logger?.warn({ err: err.message }, 'redis error'));
    this.near = options.near ? new NearKeys(this.client, url, prefix, options.near, logger) : undefined;
  }

  async get(key: string): Promise<string | null> {
    if (!this.near?.covers(key)) return this.client.get(key);
    return ((await this.getMany([key])) as [string | null])[0];
  }
  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    const near = this.near;
    if (!near) return this.client.mget(...keys);
    const values: (string | null)[] = new Array<string | null>(keys.length).fill(null);
    const asked: number[] = [];
    keys.forEach((key, i) => {
      const kept = near.covers(key) ? near.lookup(key) : undefined;
      if (kept === undefined) asked.push(i);
      else values[i] = kept;
    });
    if (asked.length === 0) return values;
    const ticket = near.ticket();
    const names = asked.map((i) => keys[i] as string);
    if (ticket === undefined) {
      (await this.client.mget(...names)).forEach((v, j) => (values[asked[j] as number] = v));
      return values;
    }
    // With their remaining lives, so that a kept value never outlives the key.
    const multi = this.client.multi().mget(...names);
    for (const name of names) multi.pttl(name);
    const answers = await multi.exec();
    if (!answers) throw new Error('redis refused the read of near keys');
    for (const [err] of answers) if (err) throw err;
    const fetched = answers[0]?.[1] as (string | null)[];
    fetched.forEach((value, j) => {
      const i = asked[j] as number;
      values[i] = value;
      if (value !== null && near.covers(names[j] as string)) near.keep(ticket, names[j] as string, value, Number(answers[j + 1]?.[1]));
    });
    return values;
  }
  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    this.near?.changing([key]);
    if (ttlSeconds) await this.client.set(key, value, 'EX', ttlSeconds);
    else await this.client.set(key, value);
  }
  async del(...keys: string[]): Promise<void> {
    this.near?.changing(keys);
    if (keys.length) await this.client.del(...keys);
  }
  /** Reads of near keys served from this process's memory, values kept, and whether tracking is on (none without `near`). */
  nearStats(): ReturnType<NearKeys['stats']> | undefined {
    return this.near?.stats();
  }
  async incr(key: string, ttlSeconds: number): Promise<number> {
    this.near?.changing([key]);
    const [[, value]] = (await this.client.multi().incr(key).expire(key, ttlSeconds, 'NX').exec()) as [[null, number], unknown];
    return value;
  }
  async incrWhileBelow(steps: readonly { key: string; limit: number }[], ttlSeconds: number): Promise<number> {
    if (steps.length === 0) return 0;
    this.near?.changing(steps.map((s) => s.key));
    const taken = await this.client.eval(INCR_WHILE_BELOW, steps.length, ...steps.map((s) => s.key), ttlSeconds, ...steps.map((s) => s.limit));
    return Number(taken);
  }
  async decr(key: string): Promise<number> {
    this.near?.changing([key]);
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
    await this.near?.close();
    await this.client.quit().catch(() => this.client.disconnect());
  }
  /** For tests: removes every key under this cache's prefix. */
  async clear(): Promise<void> {
    const keys = await this.client.keys(`${this.prefix}*`);
    if (keys.length) await this.client.del(...keys.map((k) => k.slice(this.prefix.length)));
  }
}
