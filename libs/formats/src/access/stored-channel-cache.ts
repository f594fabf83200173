import { ByteLru } from './byte-lru';
import { type StoredChannel, storedChannelBytes } from './stored-channel';

/**
 * Least-recently-used cache of stored channels keyed by (blob hash, channel name), bounded in bytes. A channel larger
 * than the whole bound is not kept. No I/O: the service decides what to load and put.
 */
export class StoredChannelCache {
  private readonly lru: ByteLru<StoredChannel>;

  constructor(readonly maxBytes: number) {
    this.lru = new ByteLru(maxBytes);
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.lru.bytes;
  }

  get size(): number {
    return this.lru.size;
  }

  get(blobHash: string, channel: string): StoredChannel | undefined {
    return this.lru.get(cacheKey(blobHash, channel));
  }

  set(blobHash: string, channel: string, value: StoredChannel): void {
    this.delete(blobHash, channel);
    const bytes = storedChannelBytes(value);
    if (bytes > this.maxBytes) return;
    this.lru.set(cacheKey(blobHash, channel), value, bytes, blobHash);
  }

  delete(blobHash: string, channel: string): boolean {
    return this.lru.delete(cacheKey(blobHash, channel));
  }

  /** Drops every entry under `blobHash` (each channel, and each range of one); returns how many went. */
  deleteAll(blobHash: string): number {
    return this.lru.deleteGroup(blobHash);
  }

  clear(): void {
    this.lru.clear();
  }
}

// A NUL cannot occur in a hex hash, so no (hash, name) pair collides with another.
const cacheKey = (blobHash: string, channel: string) => `${blobHash}\u0000${channel}`;
