import Redis from 'ioredis';
import type { Logger } from 'pino';

/** The subscriber connection's name in `CLIENT LIST`: a cache's invalidations, by its key prefix. */
export function subscriberName(keyPrefix: string): string {
  return `near-keys:${keyPrefix.replace(/[^\x21-\x7e]/g, '_')}`;
}

/** The channel Redis sends its invalidation messages to, when a tracking client redirects them to a subscriber. */
const INVALIDATE_CHANNEL = '__redis__:invalidate';

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

/**
 * Values of some keys kept in this process, told by Redis when they change: Redis's server-assisted client-side
 * caching (`CLIENT TRACKING ... BCAST PREFIX`). Every change of a key under the prefixes (a set, a delete, an
 * expiry, by any client) makes Redis send the key's name to this process's subscriber connection, which drops the
 * entry; a value is kept only while tracking is on and nothing changed between sending the read and its answer.
 *
 * Whenever either connection drops, every entry is dropped and nothing is kept until tracking is on again, since
 * invalidations may have been missed meanwhile. A Redis that refuses tracking (an ACL, a proxy) leaves this off:
 * every read then goes to Redis, as without it.
 */
export class NearKeys {
  private readonly entries = new Map<string, NearEntry>();
  private readonly subscriber: Redis;
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  /** Tracking is on for the current connections, with invalidations redirected to the current subscriber. */
  private armed = false;
  /** Bumped by every invalidation, local change and lost connection: a read whose answer comes after a bump is not kept. */
  private epoch = 0;
  /** Bumped by every lost connection, so an arming that was overtaken by one does not arm. */
  private connections = 0;
  private subscriberId: number | undefined;
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
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 2000;
    this.maxEntries = options.maxEntries ?? 10_000;
    // Not resubscribed by ioredis: after a reconnect its id must be read before it subscribes (a subscribed RESP2
    // connection cannot ask), and tracking redirected to the new id.
    this.subscriber = new Redis(url, { autoResubscribe: false, maxRetriesPerRequest: 2, lazyConnect: false, connectionName: subscriberName(keyPrefix) });
    this.subscriber.on('error', (err) => logger?.warn({ err: err.message }, 'redis error (near keys subscriber)'));
    this.subscriber.on('close', () => {
      this.subscriberId = undefined;
      this.lost();
    });
    this.subscriber.on('ready', () => void this.subscribe());
    this.subscriber.on('messageBuffer', (channel: Buffer, message: unknown) => {
      if (channel.toString() === INVALIDATE_CHANNEL) this.invalidate(message);
    });
    this.client.on('close', () => this.lost());
    this.client.on('ready', () => void this.track());
  }

  covers(key: string): boolean {
    return this.options.prefixes.some((p) => key.startsWith(p));
  }

  /** The kept value of a covered key, or undefined: ask Redis. */
  lookup(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.hits++;
    return entry.value;
  }

  /** Taken just before a read is sent: `keep` stores its answers only if nothing changed since. */
  ticket(): number | undefined {
    return this.armed ? this.epoch : undefined;
  }

  /** Keeps a value Redis answered for a read sent under `ticket`, for at most `ttlMs` (the key's own remaining life, -1: none). */
  keep(ticket: number | undefined, key: string, value: string, sentAt: number, ttlMs: number): void {
    if (ticket === undefined || ticket !== this.epoch || !this.armed || ttlMs === -2 || ttlMs === 0) return;
    const life = ttlMs > 0 ? Math.min(ttlMs, this.maxAgeMs) : this.maxAgeMs;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: sentAt + life });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.fills++;
  }

  /** This process changes `keys`: forgotten at once (Redis's own message follows), and reads already sent are not kept. */
  changing(keys: readonly string[]): void {
    this.epoch++;
    for (const key of keys) this.entries.delete(key);
  }

  /** Reads served from memory and values kept since start (for tests and diagnostics). */
  stats(): { hits: number; fills: number; entries: number; tracking: boolean } {
    return { hits: this.hits, fills: this.fills, entries: this.entries.size, tracking: this.armed };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.lost();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }

  private lost(): void {
    this.armed = false;
    this.connections++;
    this.epoch++;
    this.entries.clear();
  }

  private invalidate(message: unknown): void {
    this.epoch++;
    // A flush (null) or a name that is not ours: forget everything rather than guess.
    if (!Array.isArray(message)) {
      this.entries.clear();
      return;
    }
    for (const name of message as Buffer[]) {
      const full = name.toString();
      if (!full.startsWith(this.keyPrefix)) {
        this.entries.clear();
        return;
      }
      this.entries.delete(full.slice(this.keyPrefix.length));
    }
  }

  /** On every (re)connection of the subscriber: learn its id, subscribe, then redirect tracking to it. */
  private async subscribe(): Promise<void> {
    const at = this.connections;
    try {
      const id = Number(await this.subscriber.client('ID'));
      await this.subscriber.subscribe(INVALIDATE_CHANNEL);
      if (at !== this.connections || this.closed) return;
      this.subscriberId = id;
      await this.track();
    } catch (err) {
      this.logger?.warn({ err: (err as Error).message }, 'near keys: could not subscribe to invalidations; reads go to redis');
    }
  }

  /** On every (re)connection of the client, and after the subscriber's: tracking on, redirected to the subscriber. */
  private async track(): Promise<void> {
    const at = this.connections;
    const id = this.subscriberId;
    if (id === undefined || this.closed || this.client.status !== 'ready' || this.subscriber.status !== 'ready') return;
    try {
      // Off first: a tracking client cannot switch its redirect or prefixes while on.
      await this.client.call('CLIENT', 'TRACKING', 'OFF');
      await this.client.call('CLIENT', 'TRACKING', 'ON', 'REDIRECT', String(id), 'BCAST', ...this.options.prefixes.flatMap((p) => ['PREFIX', this.keyPrefix + p]));
      if (at === this.connections && id === this.subscriberId && !this.closed) {
        this.epoch++;
        this.armed = true;
      }
    } catch (err) {
      this.logger?.warn({ err: (err as Error).message }, 'near keys: redis refused CLIENT TRACKING; reads go to redis');
    }
  }
}
