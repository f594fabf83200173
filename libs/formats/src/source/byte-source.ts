import type { FileHandle } from 'node:fs/promises';

/**
 * Random access to the bytes of a data file: a buffer in memory, an open file, a ranged read of a blob store. The
 * readers that take a ByteSource read the catalogue and the requested ranges only, never the whole file.
 */
export interface ByteSource {
  /** Total length in bytes. */
  readonly size: number;
  /** Exactly `length` bytes from `offset`, in a new buffer that starts at byte 0 of its ArrayBuffer (so any typed array can view it). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

function checkRange(size: number, offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > size) {
    throw new RangeError(`read of ${length} bytes at ${offset} is outside the source (${size} bytes)`);
  }
}

/** A ByteSource over bytes already in memory (copies each range, so results own aligned buffers). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    async read(offset, length) {
      checkRange(bytes.byteLength, offset, length);
      return bytes.slice(offset, offset + length);
    },
  };
}

/** A ByteSource over an open file; the caller opens and closes the handle. `size` defaults to the file's size now. */
export async function fileHandleSource(handle: FileHandle, size?: number): Promise<ByteSource> {
  const total = size ?? (await handle.stat()).size;
  return {
    size: total,
    async read(offset, length) {
      checkRange(total, offset, length);
      const out = new Uint8Array(length);
      for (let at = 0; at < length; ) {
        const { bytesRead } = await handle.read(out, at, length - at, offset + at);
        if (bytesRead === 0) throw new RangeError(`file ended at ${offset + at} bytes, ${total} expected`);
        at += bytesRead;
      }
      return out;
    },
  };
}

/** Wraps a source and counts what is read through it (tests and diagnostics). */
export class CountingSource implements ByteSource {
  bytesRead = 0;
  readonly reads: { offset: number; length: number }[] = [];

  constructor(private readonly inner: ByteSource) {}

  get size(): number {
    return this.inner.size;
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    this.bytesRead += length;
    this.reads.push({ offset, length });
    return this.inner.read(offset, length);
  }

  reset(): void {
    this.bytesRead = 0;
    this.reads.length = 0;
  }
}
