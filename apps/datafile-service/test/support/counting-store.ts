import type { BlobStore } from '@pitwall/blob-store';

/** The blob store with the bytes of its ranged reads counted: what a read or an open cost in bytes from the store. */
export function countingStore(inner: BlobStore): BlobStore & { bytesRead: number } {
  const counted = Object.create(inner) as BlobStore & { bytesRead: number };
  counted.bytesRead = 0;
  counted.readRange = async (key, offset, length) => {
    const chunk = await inner.readRange(key, offset, length);
    counted.bytesRead += chunk.byteLength;
    return chunk;
  };
  return counted;
}
