import { type StoredChannel, storedChannelBytes } from './stored-channel';

/**
 * Least-recently-used cache of stored channels keyed by (blob hash, channel name), bounded in bytes. A channel larger
 * than the whole bound is not kept. No I/O: the service decides what to load and put.
 */
export class StoredChannelCache {
  private readonly entries = new Map<string, { value: StoredChannel; bytes: number }>();
  private held = 0;

  constructor(readonly maxBytes: number) {
    if (!(Number.isSafeInteger(maxBytes) && maxBytes >= 0)) throw new RangeError(`cache bound ${maxBytes} is not a byte count`);
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  get(blobHash: string, channel: string): StoredChannel | undefined {
    const key = cacheKey(blobHash, channel);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: moving the entry to the end makes the first entry the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(blobHash: string, channel: string, value: StoredChannel): void {
    const key = cacheKey(blobHash, channel);
    this.delete(blobHash, channel);
    const bytes = storedChannelBytes(value);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }

  delete(blobHash: string, channel: string): boolean {
    const key = cacheKey(blobHash, channel);
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.held -= entry.bytes;
    return true;
  }

  /** Drops every entry under `blobHash` (each channel, and each range of one); returns how many went. */
  deleteAll(blobHash: string): number {
    const prefix = cacheKey(blobHash, '');
    let dropped = 0;
    for (const [key, entry] of [...this.entries]) {
      if (!key.startsWith(prefix)) continue;
      this.entries.delete(key);
      this.held -= entry.bytes;
      dropped++;
    }
    return dropped;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }
}

// A NUL cannot occur in a hex hash, so no (hash, name) pair collides with another.
const cacheKey = (blobHash: string, channel: string) => `${blobHash}\u0000${channel}`;
