/**
 * Least-recently-used entries bounded in bytes, each in a group that can be dropped at once (for example every entry
 * read from one blob). The callers decide what is too large to keep; `set` evicts the least recently used entries
 * until the total is within `maxBytes` again.
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number; group: string }>();
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

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: moving the entry to the end makes the first entry the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` (replacing what `key` held), then drops the least recently used entries beyond the bound. */
  set(key: string, value: V, bytes: number, group: string): void {
    this.delete(key);
    this.entries.set(key, { value, bytes, group });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.held -= entry.bytes;
    return true;
  }

  /** Drops every entry of `group`; returns how many went. */
  deleteGroup(group: string): number {
    let dropped = 0;
    for (const [key, entry] of [...this.entries]) {
      if (entry.group !== group) continue;
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
