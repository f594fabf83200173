import { decompressBlock } from './lz4js-blocks';
import { ChunkReader } from './chunk-reader';
import { Lz4FrameError, type Lz4LimitName } from './lz4-frame-error';
import { BLOCK_MAX_SIZES, checkBlock, FRAME_MAGIC, hex, SKIPPABLE_MAGIC_MAX, SKIPPABLE_MAGIC_MIN, u32, WINDOW } from './lz4-format';
import { Xxh32, xxh32 } from './xxh32';

export interface Lz4StreamSummary {
  /** LZ4 frames decoded (skippable frames not counted). */
  frames: number;
  /** Decompressed bytes. */
  contentSize: number;
  /** Compressed bytes read. */
  compressedSize: number;
}

/**
 * How far a stream may decompress: all of it at most `maxBytes`, and at most `maxRatio` times `compressedSize` (when it
 * is known), whether or not its frames declare their content size. A frame declaring a size past what is left of either
 * is refused at its header; a frame that declares its size may produce exactly that (stopped as soon as it passes it).
 */
export interface Lz4Limits {
  /** Most decompressed bytes of the whole stream. */
  maxBytes: number;
  /** Most decompressed bytes per compressed byte of the whole stream (with `compressedSize`). */
  maxRatio?: number;
  /** Bytes of the whole compressed stream, when the caller knows them (a stored blob's size). */
  compressedSize?: number;
}

/** LZ4's own bound is about 255:1; a stream decompressing past `limits` stops with TOO_LARGE. */
export const DEFAULT_LZ4_LIMITS = { maxBytes: 4 * 1024 ** 3, maxRatio: 64 } as const;

/** Where the decompressed bytes stand against the limits, shared by the frames of one stream. */
class OutputBudget {
  private produced = 0;
  private readonly maxBytes: number;
  private readonly ratioBytes: number;

  constructor(private readonly limits: Lz4Limits | undefined) {
    this.maxBytes = limits?.maxBytes ?? Infinity;
    this.ratioBytes = limits?.maxRatio !== undefined && limits.compressedSize !== undefined ? limits.maxRatio * limits.compressedSize : Infinity;
  }

  /** A frame declaring `size` bytes, refused when they would pass either bound: a declared size is no exemption. */
  declare(size: number, offset: number): void {
    if (this.produced + size > this.maxBytes) throw tooLarge(`the frame declares ${size} bytes, past the limit of ${this.maxBytes} decompressed bytes`, offset, 'maxBytes');
    if (this.produced + size > this.ratioBytes) throw tooLarge(`the frame declares ${size} bytes, past ${this.ratioBytes} bytes, ${this.ratioWords()}`, offset, 'maxRatio');
  }

  /** `n` more bytes of a frame (`declared` its declared size, `frameSoFar` what it produced with them). */
  add(n: number, declared: number | undefined, frameSoFar: number, offset: number): void {
    this.produced += n;
    if (declared !== undefined && frameSoFar > declared) {
      throw new Lz4FrameError('CONTENT_SIZE', `content size mismatch (the header declares ${declared} bytes, the blocks hold more)`, offset);
    }
    if (this.produced > this.maxBytes) throw tooLarge(`it decompresses past the limit of ${this.maxBytes} bytes`, offset, 'maxBytes');
    if (this.produced > this.ratioBytes) throw tooLarge(`it decompresses past ${this.ratioBytes} bytes, ${this.ratioWords()}`, offset, 'maxRatio');
  }

  private ratioWords(): string {
    return `${this.limits?.maxRatio} times its ${this.limits?.compressedSize} compressed bytes`;
  }
}

/**
 * The decoding space of one stream: allocated at the first block that needs it, grown to the largest a frame needs,
 * and reused by the frames after it, so that a stream of many empty or small frames does not allocate (and zero) up to
 * 4 MiB per frame. What a frame left in it is never read by the next: a block's matches reach back only into its own
 * frame's output (checkBlock).
 */
class DecodeSpace {
  private buffer = new Uint8Array(0);

  /** At least `size` bytes (what an earlier frame left in them is not kept when it grows). */
  take(size: number): Uint8Array {
    if (this.buffer.length < size) this.buffer = new Uint8Array(size);
    return this.buffer;
  }
}

function tooLarge(reason: string, offset: number, limit: Lz4LimitName): Lz4FrameError {
  return new Lz4FrameError('TOO_LARGE', reason, offset, limit);
}

/**
 * Decodes a stream of LZ4 frames (the format of the `lz4` tool: https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md)
 * chunk by chunk, yielding decompressed blocks as they come, and checking every checksum and the content size the
 * frames declare. Throws an Lz4FrameError naming what is wrong and where. Holds at most one block (4 MiB at most),
 * its decompressed output and, for linked blocks, a 64 KiB window, in one decoding space the stream's frames share.
 * Concatenated frames and skippable frames are accepted, as the `lz4` tool does; an empty stream is refused.
 * Works on plain Uint8Arrays (no Buffer), so it also runs in a browser.
 * With node streams: `pipeline(readable, decodeLz4Frames, writable)`.
 */
export async function* decodeLz4Frames(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  summary?: Lz4StreamSummary,
  limits?: Lz4Limits,
): AsyncGenerator<Uint8Array, Lz4StreamSummary, undefined> {
  const reader = new ChunkReader(source);
  const budget = new OutputBudget(limits);
  const space = new DecodeSpace();
  const result: Lz4StreamSummary = summary ?? { frames: 0, contentSize: 0, compressedSize: 0 };
  try {
    if (await reader.atEnd()) throw new Lz4FrameError('TRUNCATED', 'truncated: the stream is empty', 0);
    while (!(await reader.atEnd())) {
      const magicOffset = reader.offset;
      const magic = u32(await reader.read(4, 'a frame magic number'));
      if (magic >= SKIPPABLE_MAGIC_MIN && magic <= SKIPPABLE_MAGIC_MAX) {
        let skip = u32(await reader.read(4, 'a skippable frame size'));
        while (skip > 0) {
          const n = Math.min(skip, 1 << 20);
          await reader.read(n, 'a skippable frame');
          skip -= n;
        }
        continue;
      }
      if (magic !== FRAME_MAGIC) {
        throw new Lz4FrameError('BAD_MAGIC', `bad magic number 0x${magic.toString(16).padStart(8, '0')} (an LZ4 frame starts with 04 22 4D 18)`, magicOffset);
      }
      for await (const block of decodeFrameBody(reader, budget, space)) {
        result.contentSize += block.length;
        yield block;
      }
      result.frames++;
    }
    result.compressedSize = reader.offset;
    return result;
  } finally {
    await reader.close();
  }
}

/**
 * Reads a whole LZ4 stream and checks it (see decodeLz4Frames) without keeping the decompressed bytes.
 * Resolves to what was read; rejects with an Lz4FrameError.
 */
export async function validateLz4Frames(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, limits?: Lz4Limits): Promise<Lz4StreamSummary> {
  const summary: Lz4StreamSummary = { frames: 0, contentSize: 0, compressedSize: 0 };
  for await (const _block of decodeLz4Frames(source, summary, limits)) {
    // only the checks matter
  }
  return summary;
}

async function* decodeFrameBody(reader: ChunkReader, budget: OutputBudget, space: DecodeSpace): AsyncGenerator<Uint8Array> {
  const descriptorOffset = reader.offset;
  // FLG, BD, the optional fields FLG announces, HC: a cut descriptor says how many of its bytes are missing (until
  // FLG is read, at least BD and HC).
  const flg = (await reader.read(1, 'the frame descriptor', 2, false))[0]!;
  if (flg >> 6 !== 1) throw new Lz4FrameError('BAD_DESCRIPTOR', `unsupported frame version ${flg >> 6} (only version 01 exists)`, descriptorOffset);
  if (flg & 0x02) throw new Lz4FrameError('BAD_DESCRIPTOR', 'reserved bit set in the FLG byte', descriptorOffset);
  const independent = (flg & 0x20) !== 0;
  const hasBlockChecksum = (flg & 0x10) !== 0;
  const hasContentSize = (flg & 0x08) !== 0;
  const hasContentChecksum = (flg & 0x04) !== 0;
  const hasDictionary = (flg & 0x01) !== 0;
  const optionalLength = (hasContentSize ? 8 : 0) + (hasDictionary ? 4 : 0);
  const bd = (await reader.read(1, 'the frame descriptor', optionalLength + 1))[0]!;
  if (bd & 0x8f) throw new Lz4FrameError('BAD_DESCRIPTOR', 'reserved bits set in the BD byte', descriptorOffset + 1);
  const blockMaxSize = BLOCK_MAX_SIZES[(bd >> 4) & 0x07];
  if (blockMaxSize === undefined) throw new Lz4FrameError('BAD_DESCRIPTOR', `invalid block maximum size code ${(bd >> 4) & 0x07}`, descriptorOffset + 1);
  const descriptor = new Uint8Array(2 + optionalLength);
  descriptor[0] = flg;
  descriptor[1] = bd;
  if (optionalLength > 0) descriptor.set(await reader.read(optionalLength, 'the frame descriptor', 1), 2);
  const optional = descriptor.subarray(2);
  const headerChecksumOffset = reader.offset;
  const headerChecksum = (await reader.read(1, 'the frame descriptor'))[0]!;
  const expectedHeaderChecksum = (xxh32(descriptor) >>> 8) & 0xff;
  if (headerChecksum !== expectedHeaderChecksum) {
    throw new Lz4FrameError('HEADER_CHECKSUM', `header checksum mismatch (stored 0x${hex(headerChecksum, 2)}, computed 0x${hex(expectedHeaderChecksum, 2)})`, headerChecksumOffset);
  }
  if (hasDictionary) throw new Lz4FrameError('UNSUPPORTED', 'frames that need a preset dictionary are not supported', descriptorOffset);
  // Content size is a 64-bit field; beyond 2^53 it cannot match anything this process will count anyway.
  const declaredContentSize = hasContentSize ? u32(optional, 0) + u32(optional, 4) * 2 ** 32 : undefined;
  if (declaredContentSize !== undefined) budget.declare(declaredContentSize, descriptorOffset + 2);

  const contentHash = hasContentChecksum ? new Xxh32() : undefined;
  let contentSize = 0;
  // Decoding space: for linked blocks the previous 64 KiB of output sit in front of the new block. Taken at the first
  // block: an empty frame needs none.
  const history = independent ? 0 : WINDOW;
  let output: Uint8Array | undefined;
  let historyLength = 0;

  for (;;) {
    const blockOffset = reader.offset;
    const word = u32(await reader.read(4, 'a block size'));
    if (word === 0) break; // end mark
    const uncompressed = (word & 0x80000000) !== 0;
    const size = word & 0x7fffffff;
    if (size > blockMaxSize) {
      throw new Lz4FrameError('CORRUPT_BLOCK', `block of ${size} bytes exceeds the frame's maximum block size of ${blockMaxSize}`, blockOffset);
    }
    const data = await reader.read(size, 'a block');
    if (hasBlockChecksum) {
      const checksumOffset = reader.offset;
      const stored = u32(await reader.read(4, 'a block checksum'));
      const computed = xxh32(data);
      if (stored !== computed) {
        throw new Lz4FrameError('BLOCK_CHECKSUM', `block checksum mismatch (stored 0x${hex(stored, 8)}, computed 0x${hex(computed, 8)})`, checksumOffset);
      }
    }
    output ??= space.take(history + blockMaxSize);
    const start = independent ? 0 : historyLength;
    let end: number;
    if (uncompressed) {
      output.set(data, start);
      end = start + size;
    } else {
      const problem = checkBlock(data, start, blockMaxSize);
      if (problem) throw new Lz4FrameError('CORRUPT_BLOCK', `corrupt compressed block: ${problem}`, blockOffset + 4);
      end = decompressBlock(data, output, 0, size, start);
    }
    const block = output.slice(start, end);
    contentSize += block.length;
    // Counted before it goes anywhere: a bomb stops at its limit, not at the end of the disk.
    budget.add(block.length, declaredContentSize, contentSize, blockOffset);
    contentHash?.update(block);
    if (!independent) {
      // Keep the last 64 KiB of output in front for the next block.
      const keepFrom = Math.max(0, end - WINDOW);
      output.copyWithin(0, keepFrom, end);
      historyLength = end - keepFrom;
    }
    if (block.length > 0) yield block;
  }

  if (contentHash) {
    const checksumOffset = reader.offset;
    const stored = u32(await reader.read(4, 'the content checksum'));
    const computed = contentHash.digest();
    if (stored !== computed) {
      throw new Lz4FrameError('CONTENT_CHECKSUM', `content checksum mismatch (stored 0x${hex(stored, 8)}, computed 0x${hex(computed, 8)})`, checksumOffset);
    }
  }
  if (declaredContentSize !== undefined && declaredContentSize !== contentSize) {
    throw new Lz4FrameError('CONTENT_SIZE', `content size mismatch (the header declares ${declaredContentSize} bytes, the blocks hold ${contentSize})`, descriptorOffset + 2);
  }
}
