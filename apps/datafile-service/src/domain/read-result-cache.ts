import { answerTag } from '@pitwall/bus';
import { ByteLru } from '@pitwall/formats';

/**
 * Encoded answers of channel reads, kept by the content of the files they were read from: a dataset's content key is
 * the hashes of its blobs, so an answer under it never goes stale (the same request on the same bytes is the same
 * answer); entries go when their dataset is dropped (its files replaced or deleted) or, past `maxBytes`, least
 * recently used first. An answer larger than an eighth of the bound is not kept. `maxBytes` 0 turns it off.
 */
export class ReadResultCache {
  private readonly lru: ByteLru<Uint8Array>;

  constructor(readonly maxBytes: number) {
    this.lru = new ByteLru(maxBytes);
  }

  /**
   * The cache key of a read of `contentKey`: everything that shapes its answer (with math channels, the definitions
   * they evaluate and the values of the parameters they read, mathDependenciesOf: a changed definition or value is
   * another key, so nothing kept goes stale).
   */
  static keyOf(contentKey: string, read: unknown, definitions?: readonly unknown[]): string {
    // Hashed: a batch may name thousands of channels and a math chain reach thousands of definitions, and the bound
    // counts the answers' bytes, not their keys'.
    const parts = definitions ? [JSON.stringify(read), JSON.stringify(definitions)] : [JSON.stringify(read)];
    return `${contentKey}\u0000${answerTag(contentKey, ...parts)}`;
  }

  get(key: string): Uint8Array | undefined {
    return this.lru.get(key);
  }

  set(contentKey: string, key: string, bytes: Uint8Array): void {
    if (bytes.byteLength > this.maxBytes / 8) return;
    this.lru.set(key, bytes, bytes.byteLength, contentKey);
  }

  /** Drops every answer read from `contentKey`'s files; returns how many. */
  deleteAll(contentKey: string): number {
    return this.lru.deleteGroup(contentKey);
  }

  get heldBytes(): number {
    return this.lru.bytes;
  }
}
