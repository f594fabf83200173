import { randomUUID } from 'node:crypto';
import Redis, { type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

/** The channel Redis sends its invalidation messages to, when a tracking client redirects them to a subscriber. */
const INVALIDATE_CHANNEL = '__redis__:invalidate';
/** Canary keys (one per process, under the first near prefix): their own invalidation proves the path still works. */
const CANARY = 'near-keys-canary:';

/** The subscriber connection's name in `CLIENT LIST`: a cache's invalidations, by its key prefix. */
export function subscriberName(keyPrefix: string): string {
  return `near-keys:${keyPrefix.replace(/[^\x21-\x7e]/g, '_')}`;
}

export interface NearKeysOptions {
  /**
   * Key prefixes (after the cache's own prefix) whose values this process keeps in its memory, e.g. `['key:', 'role:']`.
   * They must not overlap (Redis refuses overlapping broadcast prefixes).
   */
  prefixes: readonly string[];
  /**
   * Longest a near entry is trusted without asking Redis again (default 2000 ms; never past the key's own expiry).
   * Invalidation makes a change seen at once; this bounds what a lost invalidation could cost.
   */
  maxAgeMs?: number;
  /** Entries kept at most; past it the oldest goes (default 10,000). */
  maxEntries?: number;
}

interface NearEntry {
  value: string;
  expiresAt: number;
}

const now = (): number => performance.now();

/**
 * Values of some keys kept in this process, told by Redis when they change: Redis's server-assisted client-side
 * caching (`CLIENT TRACKING ... BCAST PREFIX`). Every change of a key under the prefixes (a set, a delete, an
 * expiry, by any client) makes Redis send the key's name to this process's subscriber connection, which drops the
 * entry; a value is kept only while tracking is proven on and nothing changed between sending the read and its answer.
 *
 * The path is proven end to end, not assumed: after turning tracking on, and then every `maxAgeMs / 2`, this process
 * changes a canary key of its own under a near prefix and keeps values only once Redis's invalidation of it has come
 * back on the subscriber. A canary that does not come back in time (a subscriber connection that died silently, a
 * redirect to a client that is not ours) drops every entry and reconnects the subscriber. Whenever either connection
 * ends, every entry is dropped at once (on the socket's end, before ioredis reports the close) and nothing is kept
 * until the path is proven again. A Redis that refuses tracking (an ACL, a proxy) leaves this off: every read then
 * goes to Redis, as without it.
 */
export class NearKeys {
  private readonly entries = new Map<string, NearEntry>();
  private readonly subscriber: Redis;
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly canaryKey: string;
  /** Tracking is on and its invalidations were seen to arrive: values may be kept. */
  private armed = false;
  /** Bumped by every invalidation, local change and lost connection: a read whose answer comes after a bump is not kept. */
  private epoch = 0;
  /** Bumped by every end of the client's connection, and of the subscriber's: an arming overtaken by one does not arm. */
  private clientConnections = 0;
  private subscriberConnections = 0;
  private subscriberId: number | undefined;
  /** What to do when the invalidation of the canary change being awaited comes. */
  private canaryArrived: (() => void) | undefined;
  private canarySeq = 0;
  /** Arming runs one at a time (a second `CLIENT TRACKING ON` while on is refused). */
  private arming: Promise<void> = Promise.resolve();
  private readonly watch: NodeJS.Timeout;
  private closed = false;
  private hits = 0;
  private fills = 0;

  constructor(
    private readonly client: Redis,
    url: string,
    /** The cache's own key prefix (ioredis `keyPrefix`), which invalidation messages carry. */
    private readonly keyPrefix: string,
    private readonly options: NearKeysOptions,
    private readonly logger?: Logger,
    /** The cache's timeouts and reconnection pace, which the subscriber connection shares. */
    connection: RedisOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 2000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.canaryKey = `${options.prefixes[0] ?? ''}${CANARY}${randomUUID()}`;
    // Not resubscribed by ioredis: after a reconnect its id must be read before it subscribes (a subscribed RESP2
    // connection cannot ask), and tracking redirected to the new id.
    this.subscriber = new Redis(url, { ...connection, autoResubscribe: false, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false, connectionName: subscriberName(keyPrefix) });
    this.subscriber.on('error', (err) => logger?.debug({ dependency: 'Redis', err: err.message }, 'redis error (near keys subscriber)'));
    this.subscriber.on('connect', () => this.onSocketEnd(this.subscriber, () => this.subscriberLost()));
    this.subscriber.on('close', () => this.subscriberLost());
    this.subscriber.on('ready', () => void this.subscribe());
    this.subscriber.on('messageBuffer', (channel: Buffer, message: unknown) => {
      if (channel.toString() === INVALIDATE_CHANNEL) this.invalidate(message);
    });
    this.client.on('connect', () => this.onSocketEnd(this.client, () => this.clientLost()));
    this.client.on('close', () => this.clientLost());
    this.client.on('ready', () => this.track());
    this.watch = setInterval(() => {
      if (this.armed) this.track();
    }, Math.max(50, this.maxAgeMs / 2));
    this.watch.unref();
  }

  covers(key: string): boolean {
    return this.options.prefixes.some((p) => key.startsWith(p));
  }

  /** The kept value of a covered key, or undefined: ask Redis. */
  lookup(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.hits++;
    return entry.value;
  }

  /** Taken just before a read is sent: `keep` stores its answers only if nothing changed since. */
  ticket(): { epoch: number; sentAt: number } | undefined {
    return this.armed ? { epoch: this.epoch, sentAt: now() } : undefined;
  }

  /** Keeps a value Redis answered for a read sent under `ticket`, for at most `ttlMs` (the key's own remaining life, -1: none). */
  keep(ticket: { epoch: number; sentAt: number } | undefined, key: string, value: string, ttlMs: number): void {
    if (ticket === undefined || ticket.epoch !== this.epoch || !this.armed || ttlMs === -2 || ttlMs === 0) return;
    const life = ttlMs > 0 ? Math.min(ttlMs, this.maxAgeMs) : this.maxAgeMs;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: ticket.sentAt + life });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.fills++;
  }

  /** This process changes `keys`: forgotten at once (Redis's own message follows), and reads already sent are not kept. */
  changing(keys: readonly string[]): void {
    if (!keys.some((key) => this.covers(key))) return;
    this.epoch++;
    for (const key of keys) this.entries.delete(key);
  }

  /** Reads served from memory and values kept since start (for tests and diagnostics). */
  stats(): { hits: number; fills: number; entries: number; tracking: boolean } {
    return { hits: this.hits, fills: this.fills, entries: this.entries.size, tracking: this.armed };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watch);
    this.drop();
    await this.client.del(this.canaryKey).catch(() => undefined);
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }

  /** Drops every entry and keeps nothing until the path is proven again. */
  private drop(): void {
    this.armed = false;
    this.forgetAll();
  }

  /** Drops every entry, and the answers of reads already sent. */
  private forgetAll(): void {
    this.epoch++;
    this.entries.clear();
  }

  private clientLost(): void {
    this.clientConnections++;
    this.drop();
  }

  private subscriberLost(): void {
    this.subscriberConnections++;
    this.subscriberId = undefined;
    this.drop();
  }

  /** The socket's own end, which comes before ioredis's `close` (other I/O may run between the two). */
  private onSocketEnd(redis: Redis, lost: () => void): void {
    const socket = (redis as unknown as { stream?: NodeJS.EventEmitter }).stream;
    socket?.once('end', lost);
  }

  private invalidate(message: unknown): void {
    // A flush (null) or a name that is not ours: forget everything rather than guess.
    if (!Array.isArray(message)) return this.forgetAll();
    let onlyCanaries = true;
    for (const name of message as Buffer[]) {
      const full = name.toString();
      if (!full.startsWith(this.keyPrefix)) return this.forgetAll();
      const key = full.slice(this.keyPrefix.length);
      if (key === this.canaryKey) this.canaryArrived?.();
      if (this.options.prefixes.some((p) => key.startsWith(p + CANARY))) continue;
      onlyCanaries = false;
      this.entries.delete(key);
    }
    // A canary (this process's or another's) is no entry anyone keeps: reads in flight may still be kept.
    if (!onlyCanaries) this.epoch++;
  }

  /** On every (re)connection of the subscriber: learn its id, subscribe, then prove tracking redirected to it. */
  private async subscribe(): Promise<void> {
    const at = this.subscriberConnections;
    try {
      const id = Number(await this.subscriber.client('ID'));
      await this.subscriber.subscribe(INVALIDATE_CHANNEL);
      if (at !== this.subscriberConnections || this.closed) return;
      this.subscriberId = id;
      this.track();
    } catch (err) {
      if (at !== this.subscriberConnections || this.closed) return;
      this.logger?.warn({ dependency: 'Redis', err: (err as Error).message }, 'near keys: could not subscribe to invalidations; reconnecting it');
      this.subscriber.disconnect(true);
    }
  }

  /** Turns tracking on (again) and proves it with the canary; queued, so two never interleave. */
  private track(): void {
    this.arming = this.arming.then(() => this.armOnce()).catch(() => undefined);
  }

  private async armOnce(): Promise<void> {
    const client = this.clientConnections;
    const subscriber = this.subscriberConnections;
    const id = this.subscriberId;
    if (id === undefined || this.closed || this.client.status !== 'ready' || this.subscriber.status !== 'ready') return;
    const current = () => client === this.clientConnections && subscriber === this.subscriberConnections && id === this.subscriberId && !this.closed;
    try {
      if (!this.armed) {
        // Off first: a tracking client cannot switch its redirect or prefixes while on.
        await this.client.call('CLIENT', 'TRACKING', 'OFF');
        await this.client.call('CLIENT', 'TRACKING', 'ON', 'REDIRECT', String(id), 'BCAST', ...this.options.prefixes.flatMap((p) => ['PREFIX', this.keyPrefix + p]));
      }
      const proven = await this.canary();
      if (!current()) return;
      if (proven) {
        if (!this.armed) this.epoch++;
        this.armed = true;
        return;
      }
      this.logger?.warn({ dependency: 'Redis' }, 'near keys: an invalidation did not come back in time; entries dropped, subscriber reconnected');
      this.drop();
      this.subscriber.disconnect(true);
    } catch (err) {
      if (!current()) return;
      this.drop();
      this.logger?.warn({ dependency: 'Redis', err: (err as Error).message }, 'near keys: redis refused CLIENT TRACKING; reads go to redis');
    }
  }

  /** Changes the canary key and waits (at most `maxAgeMs / 2`) for its invalidation on the subscriber. */
  private async canary(): Promise<boolean> {
    const arrived = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), Math.max(50, this.maxAgeMs / 2));
      this.canaryArrived = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    try {
      await this.client.set(this.canaryKey, String(++this.canarySeq), 'PX', Math.max(1000, this.maxAgeMs * 5));
      return await arrived;
    } finally {
      this.canaryArrived = undefined;
    }
  }
}
