import { createHash } from 'node:crypto';
import { BlobTooLargeError } from './errors';

export interface Meter {
  sha256: string;
  size: number;
}

/**
 * Passes chunks through while hashing and counting them; throws BlobTooLargeError the moment the count passes
 * maxBytes, so the writer stops and discards what it had. The result is complete once the iteration ends.
 */
export function metered(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes = Number.POSITIVE_INFINITY): { chunks: AsyncIterable<Buffer>; result: () => Meter } {
  const hash = createHash('sha256');
  let size = 0;
  let digest: string | undefined;
  async function* chunks(): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > maxBytes) throw new BlobTooLargeError(maxBytes);
      hash.update(chunk);
      yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
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
