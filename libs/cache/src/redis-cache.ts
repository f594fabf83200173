import Redis, { type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { errorFields, urlAddress } from '@pitwall/service-kit';
import { CircuitBreaker, type BreakerState } from './circuit-breaker';
import { NearKeys, type NearKeysOptions } from './near-keys';
import { CacheUnavailableError, type Cache } from './types';

/** KEYS: the counters in order; ARGV[1]: the expiry of a created counter (s); ARGV[i + 1]: KEYS[i]'s limit. */
// Places are members of a sorted set scored by when their lease runs out (ms on the server's clock, TIME): lapsed ones
// are dropped before a set is counted; a set lives as long as its longest lease.
const NOW_MS = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";
const TAKE_PLACES = `${NOW_MS}
local lease = tonumber(ARGV[1])
local taken = 0
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if not redis.call('ZSCORE', key, ARGV[2]) and redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then break end
  redis.call('ZADD', key, now + lease, ARGV[2])
  if redis.call('PTTL', key) < lease then redis.call('PEXPIRE', key, lease) end
  taken = taken + 1
end
return taken`;
const RENEW_PLACES = `${NOW_MS}
local lease = tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  local lapses = redis.call('ZSCORE', key, ARGV[2])
  if lapses and tonumber(lapses) > now then
    redis.call('ZADD', key, now + lease, ARGV[2])
    if redis.call('PTTL', key) < lease then redis.call('PEXPIRE', key, lease) end
  end
end
return 0`;
const COUNT_PLACES = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`;

export interface RedisCacheOptions {
  /** Keys whose values this process keeps near, told by Redis when they change (see `NearKeys`); none by default. */
  near?: NearKeysOptions;
  /** Longest a command may take before it fails and counts against the breaker (default 500 ms). */
  commandTimeoutMs?: number;
  /** Longest a connection attempt may take (default 1000 ms). */
  connectTimeoutMs?: number;
  /** Failed commands in a row that open the breaker (default 3); a lost connection opens it at once. */
  breakerFailures?: number;
  /** While open, how often Redis is probed (default 1000 ms); also the longest pause between reconnection attempts. */
  breakerProbeMs?: number;
  /**
   * Key prefixes (after the cache's own) whose entries are deleted when Redis is back after the breaker opened, before
   * the cache is used again: entries that changes made meanwhile could not evict (a revoked key's) must not come back.
   */
  forgetAfterOutage?: readonly string[];
}

/** The server answered (a script's or a command's own error): Redis is there, nothing for the breaker to count. */
const serverAnswered = (err: unknown): boolean => err instanceof Error && err.name === 'ReplyError';

/**
 * Redis-backed cache; every key carries `prefix` so test runs and deployments never see each other's keys.
 *
 * Redis is a cache, never waited on: no command is queued while disconnected, each has a short timeout, and a circuit
 * breaker refuses calls at once (`CacheUnavailableError`) after failures in a row or a lost connection, so callers
 * answer without it at their normal speed. While open it probes Redis by itself (at once when ioredis reconnects) and
 * closes on the first probe that Redis answers, after forgetting the entries `forgetAfterOutage` names.
 */
export class RedisCache implements Cache {
  readonly shared = true;
  private readonly client: Redis;
  private readonly near: NearKeys | undefined;
  private readonly breaker: CircuitBreaker;
  private readonly commandTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private bypassing = false;
  /** Where Redis is, for the log: scheme, host and port, never the URL's password. */
  private readonly address: string;
  /** The last socket error since Redis last answered (a refused connect, a reset): why a lost connection was lost. */
  private socketError: string | undefined;

  constructor(url: string, private readonly prefix: string, private readonly logger?: Logger, private readonly options: RedisCacheOptions = {}) {
    this.commandTimeoutMs = options.commandTimeoutMs ?? 500;
    this.address = urlAddress(url);
    this.connectTimeoutMs = options.connectTimeoutMs ?? 1000;
    const probeMs = options.breakerProbeMs ?? 1000;
    const connection: RedisOptions = {
      commandTimeout: this.commandTimeoutMs,
      connectTimeout: this.connectTimeoutMs,
      // How long a closing socket may linger (ioredis waits its full 2 s even for one that never connected).
      disconnectTimeout: this.commandTimeoutMs,
      // Keeps reconnecting (never gives up), at most a probe interval apart, so a probe soon finds Redis back.
      retryStrategy: (times) => Math.min(times * 50, probeMs),
    };
    this.client = new Redis(url, { ...connection, keyPrefix: prefix, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.client.on('error', (err) => {
      this.socketError = errorFields(err).reason;
      logger?.debug({ dependency: 'Redis', address: this.address, reason: this.socketError }, 'redis error');
    });
    this.breaker = new CircuitBreaker('redis', {
      failureThreshold: options.breakerFailures ?? 3,
      probeIntervalMs: probeMs,
      probe: () => this.probe(),
      onChange: (state, cause) => this.logChange(state, cause),
    });
    this.client.on('close', () => this.breaker.trip(new Error(`connection to redis lost: ${this.socketError ?? 'closed by the server or the network'}`)));
    this.client.on('ready', () => {
      this.socketError = undefined;
      this.breaker.probeSoon();
    });
    this.near = options.near ? new NearKeys(this.client, url, prefix, options.near, logger, connection) : undefined;
  }

  /** `closed` while Redis answers; `open` or `probing` while it is bypassed (readiness says `cache: degraded`). */
  get breakerState(): BreakerState {
    return this.breaker.state;
  }

  async get(key: string): Promise<string | null> {
    if (!this.near?.covers(key)) return this.guarded(() => this.client.get(key));
    return ((await this.getMany([key])) as [string | null])[0];
  }
  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    return this.guarded(() => this.read(keys));
  }
  private async read(keys: readonly string[]): Promise<(string | null)[]> {
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
    await this.guarded(() => (ttlSeconds ? this.client.set(key, value, 'EX', ttlSeconds) : this.client.set(key, value)));
  }
  async del(...keys: string[]): Promise<void> {
    this.near?.changing(keys);
    if (keys.length) await this.guarded(() => this.client.del(...keys));
  }
  /** Reads of near keys served from this process's memory, values kept, and whether tracking is on (none without `near`). */
  nearStats(): ReturnType<NearKeys['stats']> | undefined {
    return this.near?.stats();
  }
  async incr(key: string, ttlSeconds: number): Promise<number> {
    this.near?.changing([key]);
    const answers = await this.guarded(() => this.client.multi().incr(key).expire(key, ttlSeconds, 'NX').exec());
    const [[err, value]] = answers as [[Error | null, number], unknown];
    if (err) throw err;
    return value;
  }
  async takePlaces(steps: readonly { key: string; limit: number }[], holder: string, leaseMs: number): Promise<number> {
    if (steps.length === 0) return 0;
    const taken = await this.guarded(() => this.client.eval(TAKE_PLACES, steps.length, ...steps.map((s) => s.key), leaseMs, holder, ...steps.map((s) => s.limit)));
    return Number(taken);
  }
  async renewPlaces(keys: readonly string[], holder: string, leaseMs: number): Promise<void> {
    if (keys.length) await this.guarded(() => this.client.eval(RENEW_PLACES, keys.length, ...keys, leaseMs, holder));
  }
  async releasePlaces(keys: readonly string[], holder: string): Promise<void> {
    if (keys.length) await this.guarded(() => this.client.multi(keys.map((key) => ['zrem', key, holder])).exec());
  }
  async countPlaces(key: string): Promise<number> {
    return Number(await this.guarded(() => this.client.eval(COUNT_PLACES, 1, key)));
  }
  /** False at once while the breaker is open (Redis is being bypassed), else whether Redis answers a ping. */
  async isReady(): Promise<boolean> {
    if (this.breaker.state !== 'closed') return false;
    try {
      return (await this.guarded(() => this.client.ping())) === 'PONG';
    } catch {
      return false;
    }
  }
  async close(): Promise<void> {
    this.breaker.stop();
    await this.near?.close();
    await this.client.quit().catch(() => this.client.disconnect());
  }
  /** For tests: removes every key under this cache's prefix. */
  async clear(): Promise<void> {
    const keys = await this.client.keys(`${this.prefix}*`);
    if (keys.length) await this.client.del(...keys.map((k) => k.slice(this.prefix.length)));
  }

  /** Runs a command through the breaker: refused at once while open; an unreachable Redis is a `CacheUnavailableError`. */
  private async guarded<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await this.breaker.run(async () => {
        if (this.client.status !== 'ready') await this.connected();
        return await command();
      }, (err) => !serverAnswered(err));
    } catch (err) {
      if (serverAnswered(err)) throw err;
      throw new CacheUnavailableError(`redis cache unavailable: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Waits for a connection being made (at start-up) at most as long as a connection attempt may take, instead of an offline queue. */
  private connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.client.off('close', onClose);
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => done();
      const onClose = () => done(new Error('redis connection closed'));
      const timer = setTimeout(() => done(new Error(`redis not connected within ${this.connectTimeoutMs} ms`)), this.connectTimeoutMs);
      this.client.once('ready', onReady);
      this.client.once('close', onClose);
    });
  }

  /** Redis answers again: forget what the outage may have left stale, then the breaker closes. */
  private async probe(): Promise<void> {
    if (this.client.status !== 'ready') throw new Error(`redis connection is ${this.client.status}`);
    await this.client.ping();
    for (const prefix of this.options.forgetAfterOutage ?? []) await this.forgetUnder(prefix);
  }

  private async forgetUnder(prefix: string): Promise<void> {
    // SCAN's pattern does not get ioredis's keyPrefix (DEL's names do); glob characters of the prefixes are escaped.
    const pattern = `${(this.prefix + prefix).replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length) await this.client.del(...keys.map((k) => k.slice(this.prefix.length)));
      cursor = next;
    } while (cursor !== '0');
  }

  /** The breaker's cause, with the socket's own error when the cause is only a command's failure ("Connection is closed."). */
  private reasonOf(cause: unknown): string {
    const own = cause === undefined ? undefined : errorFields(cause).reason;
    if (!own) return this.socketError ?? 'unknown';
    return this.socketError && !own.includes(this.socketError) ? `${own} (${this.socketError})` : own;
  }

  /** Once per outage, not per failed probe. */
  private logChange(state: BreakerState, cause: unknown): void {
    if (state === 'open' && !this.bypassing) this.logger?.warn({ dependency: 'Redis', address: this.address, reason: this.reasonOf(cause) }, 'redis unavailable: cache bypassed until it answers again');
    else if (state === 'closed' && this.bypassing) this.logger?.info({ address: this.address }, 'redis answers again: cache in use');
    this.bypassing = state !== 'closed';
  }
}
