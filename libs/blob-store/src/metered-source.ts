import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { BlobTooLargeError } from './errors';

export interface Meter {
  sha256: string;
  size: number;
}

/**
 * Passes chunks through while hashing and counting them; throws BlobTooLargeError the moment the count passes
 * maxBytes, so the writer stops and discards what it had. The result is complete once the iteration ends.
 * A node stream is not destroyed when reading stops early: an HTTP request must stay open for the 413 answer.
 */
export function metered(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes = Number.POSITIVE_INFINITY): { chunks: AsyncIterable<Buffer>; result: () => Meter } {
  const hash = createHash('sha256');
  let size = 0;
  let digest: string | undefined;
  async function* chunks(): AsyncGenerator<Buffer> {
    const chunks = source instanceof Readable ? source.iterator({ destroyOnReturn: false }) : source;
    for await (const chunk of chunks) {
      size += chunk.length;
      if (size > maxBytes) throw new BlobTooLargeError(maxBytes);
      hash.update(chunk);
      const bytes = chunk as Uint8Array;
      yield Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    }
    digest = hash.digest('hex');
  }
  return {
    chunks: chunks(),
    result: () => {
      if (digest === undefined) throw new Error('the source was not read to its end');
      return { sha256: digest, size };
    },
  };
}

/** Reads a metered source of `size` bytes to its end, through `inspect` when given (which must itself read to the end). */
export async function readThrough(chunks: AsyncIterable<Buffer>, size: number, inspect?: (bytes: AsyncIterable<Buffer>, size: number) => Promise<unknown>): Promise<void> {
  if (inspect) {
    await inspect(chunks, size);
    return;
  }
  for await (const _chunk of chunks) {
    // hashing and counting only
  }
}
