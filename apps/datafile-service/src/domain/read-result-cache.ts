/**
 * Encoded answers of channel reads, kept by the content of the files they were read from: a dataset's content key is
 * the hashes of its blobs, so an answer under it never goes stale (the same request on the same bytes is the same
 * answer); entries go when their dataset is dropped (its files replaced or deleted) or, past `maxBytes`, least
 * recently used first. An answer larger than an eighth of the bound is not kept. `maxBytes` 0 turns it off.
 */
export class ReadResultCache {
  private readonly entries = new Map<string, { contentKey: string; bytes: Uint8Array }>();
  private held = 0;

  constructor(readonly maxBytes: number) {
    if (!(Number.isSafeInteger(maxBytes) && maxBytes >= 0)) throw new RangeError(`cache bound ${maxBytes} is not a byte count`);
  }

  /** The cache key of a read of `contentKey`: everything that shapes its answer. */
  static keyOf(contentKey: string, read: unknown): string {
    return `${contentKey}\u0000${JSON.stringify(read)}`;
  }

  get(key: string): Uint8Array | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.bytes;
  }

  set(contentKey: string, key: string, bytes: Uint8Array): void {
    if (bytes.byteLength > this.maxBytes / 8) return;
    this.remove(key);
    this.entries.set(key, { contentKey, bytes });
    this.held += bytes.byteLength;
    while (this.held > this.maxBytes) {
      const [oldest] = this.entries.keys();
      this.remove(oldest as string);
    }
  }

  /** Drops every answer read from `contentKey`'s files; returns how many. */
  deleteAll(contentKey: string): number {
    let dropped = 0;
    for (const [key, entry] of [...this.entries]) {
      if (entry.contentKey !== contentKey) continue;
      this.remove(key);
      dropped++;
    }
    return dropped;
  }

  get heldBytes(): number {
    return this.held;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.bytes.byteLength;
  }
}
