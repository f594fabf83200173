import { compressBlock, compressBound } from './lz4js-blocks';
import { Xxh32, xxh32 } from './xxh32';

const BLOCK_MAX_SIZE = 4 << 20;
/**
 * Bytes of input per block. Slightly under the 4 MiB maximum: lz4js may start a last match closer to the end of
 * a block than the reference decoder accepts when the block fills its whole buffer.
 */
const BLOCK_INPUT_SIZE = BLOCK_MAX_SIZE - 64;

/**
 * Compresses a stream into one standard LZ4 frame (independent blocks, 4 MiB maximum block size, content checksum,
 * no content size since the length is not known in advance), which the `lz4` tool and any LZ4 frame reader decode.
 * Yields the frame piece by piece: the header, then each block as soon as 4 MiB of input are gathered, then the
 * end mark and the content checksum. Holds one block of input and its compressed form.
 * Works on plain Uint8Arrays (no Buffer), so it also runs in a browser. With node streams:
 * `pipeline(readable, encodeLz4Frame, writable)`.
 */
export async function* encodeLz4Frame(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  // FLG: version 01, independent blocks, content checksum. BD: block maximum size code 7 (4 MiB).
  const descriptor = new Uint8Array([0x64, 0x70]);
  yield Uint8Array.of(0x04, 0x22, 0x4d, 0x18, ...descriptor, (xxh32(descriptor) >>> 8) & 0xff);

  const contentHash = new Xxh32();
  const input = new Uint8Array(BLOCK_INPUT_SIZE);
  const compressed = new Uint8Array(compressBound(BLOCK_INPUT_SIZE));
  const hashTable = new Uint32Array(1 << 16);
  let filled = 0;

  const flush = (): Uint8Array => {
    const data = input.subarray(0, filled);
    contentHash.update(data);
    hashTable.fill(0); // independent blocks: no match may refer to an earlier block
    const size = compressBlock(input, compressed, 0, filled, hashTable);
    // 0 means nothing matched; a block that does not shrink is stored as it is.
    const stored = size > 0 && size < filled;
    const block = new Uint8Array(4 + (stored ? size : filled));
    writeU32(block, 0, stored ? size : (filled | 0x80000000) >>> 0);
    block.set(stored ? compressed.subarray(0, size) : data, 4);
    filled = 0;
    return block;
  };

  for await (const chunk of source) {
    let i = 0;
    while (i < chunk.length) {
      const take = Math.min(chunk.length - i, BLOCK_INPUT_SIZE - filled);
      input.set(chunk.subarray(i, i + take), filled);
      filled += take;
      i += take;
      if (filled === BLOCK_INPUT_SIZE) yield flush();
    }
  }
  if (filled > 0) yield flush();
  const trailer = new Uint8Array(8);
  writeU32(trailer, 4, contentHash.digest());
  yield trailer;
}

/** Compresses one buffer into one LZ4 frame (see encodeLz4Frame). */
export async function compressLz4(data: Uint8Array): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of encodeLz4Frame([data])) parts.push(part);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function writeU32(b: Uint8Array, at: number, value: number): void {
  b[at] = value & 0xff;
  b[at + 1] = (value >>> 8) & 0xff;
  b[at + 2] = (value >>> 16) & 0xff;
  b[at + 3] = (value >>> 24) & 0xff;
}
