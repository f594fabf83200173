import type { BlobStore } from '@pitwall/blob-store';
import type { ByteSource } from '@pitwall/formats';

/** A ByteSource over ranged reads of a stored blob: a reader pulls only the ranges it needs, never the whole blob. */
export function blobSource(blobs: BlobStore, key: string, size: number): ByteSource {
  return {
    size,
    async read(offset, length) {
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > size) {
        throw new RangeError(`read of ${length} bytes at ${offset} is outside the blob (${size} bytes)`);
      }
      const out = new Uint8Array(length);
      let at = 0;
      while (at < length) {
        const chunk = await blobs.readRange(key, offset + at, length - at);
        if (chunk.byteLength === 0) throw new RangeError(`blob ${key} ended at ${offset + at} bytes, ${size} expected`);
        out.set(chunk, at);
        at += chunk.byteLength;
      }
      return out;
    },
  };
}
