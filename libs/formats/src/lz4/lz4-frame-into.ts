import { BLOCK_MAX_SIZES, checkBlock, FRAME_MAGIC, hex, SKIPPABLE_MAGIC_MAX, SKIPPABLE_MAGIC_MIN, u32 } from './lz4-format';
import { Lz4FrameError } from './lz4-frame-error';
import { decompressBlock } from './lz4js-blocks';
import { xxh32 } from './xxh32';

/**
 * Decodes LZ4 frames held whole in memory (an MDF `##DZ` payload) straight into `out`, which bounds the output: a
 * stream that would write past it stops with TOO_LARGE before that block is decoded. Returns the bytes written.
 * Checks what the streaming decoder checks (descriptor, checksums, declared content size, every block's sequences
 * before lz4js decodes it), with linked blocks reaching back into `out` itself, so nothing is copied twice.
 */
export function decodeLz4FramesInto(src: Uint8Array, out: Uint8Array): number {
  let at = 0;
  let i = 0;
  const need = (n: number, what: string) => {
    if (i + n > src.length) throw new Lz4FrameError('TRUNCATED', `truncated: the stream ends inside ${what}`, src.length);
  };
  if (src.length === 0) throw new Lz4FrameError('TRUNCATED', 'truncated: the stream is empty', 0);
  while (i < src.length) {
    need(4, 'a frame magic number');
    const magic = u32(src, i);
    if (magic >= SKIPPABLE_MAGIC_MIN && magic <= SKIPPABLE_MAGIC_MAX) {
      need(8, 'a skippable frame size');
      const skip = u32(src, i + 4);
      i += 8;
      need(skip, 'a skippable frame');
      i += skip;
      continue;
    }
    if (magic !== FRAME_MAGIC) throw new Lz4FrameError('BAD_MAGIC', `bad magic number 0x${hex(magic, 8)} (an LZ4 frame starts with 04 22 4D 18)`, i);
    i += 4;
    const descriptorOffset = i;
    need(3, 'the frame descriptor');
    const flg = src[i]!;
    const bd = src[i + 1]!;
    if (flg >> 6 !== 1) throw new Lz4FrameError('BAD_DESCRIPTOR', `unsupported frame version ${flg >> 6} (only version 01 exists)`, i);
    if (flg & 0x02) throw new Lz4FrameError('BAD_DESCRIPTOR', 'reserved bit set in the FLG byte', i);
    if (bd & 0x8f) throw new Lz4FrameError('BAD_DESCRIPTOR', 'reserved bits set in the BD byte', i + 1);
    const blockMaxSize = BLOCK_MAX_SIZES[(bd >> 4) & 0x07];
    if (blockMaxSize === undefined) throw new Lz4FrameError('BAD_DESCRIPTOR', `invalid block maximum size code ${(bd >> 4) & 0x07}`, i + 1);
    const independent = (flg & 0x20) !== 0;
    const hasBlockChecksum = (flg & 0x10) !== 0;
    const hasContentSize = (flg & 0x08) !== 0;
    const hasContentChecksum = (flg & 0x04) !== 0;
    const hasDictionary = (flg & 0x01) !== 0;
    const descriptorLength = 2 + (hasContentSize ? 8 : 0) + (hasDictionary ? 4 : 0);
    need(descriptorLength + 1, 'the frame descriptor');
    const expectedHeaderChecksum = (xxh32(src.subarray(i, i + descriptorLength)) >>> 8) & 0xff;
    if (src[i + descriptorLength] !== expectedHeaderChecksum) {
      throw new Lz4FrameError('HEADER_CHECKSUM', `header checksum mismatch (stored 0x${hex(src[i + descriptorLength]!, 2)}, computed 0x${hex(expectedHeaderChecksum, 2)})`, i + descriptorLength);
    }
    if (hasDictionary) throw new Lz4FrameError('UNSUPPORTED', 'frames that need a preset dictionary are not supported', i);
    const declared = hasContentSize ? u32(src, i + 2) + u32(src, i + 6) * 2 ** 32 : undefined;
    if (declared !== undefined && at + declared > out.length) {
      throw new Lz4FrameError('TOO_LARGE', `the frame declares ${declared} bytes, past the ${out.length - at} bytes left of its output`, i + 2);
    }
    i += descriptorLength + 1;

    const frameStart = at;
    for (;;) {
      const blockOffset = i;
      need(4, 'a block size');
      const word = u32(src, i);
      i += 4;
      if (word === 0) break; // end mark
      const size = word & 0x7fffffff;
      if (size > blockMaxSize) throw new Lz4FrameError('CORRUPT_BLOCK', `block of ${size} bytes exceeds the frame's maximum block size of ${blockMaxSize}`, blockOffset);
      need(size + (hasBlockChecksum ? 4 : 0), 'a block');
      const data = src.subarray(i, i + size);
      i += size;
      if (hasBlockChecksum) {
        const stored = u32(src, i);
        const computed = xxh32(data);
        if (stored !== computed) throw new Lz4FrameError('BLOCK_CHECKSUM', `block checksum mismatch (stored 0x${hex(stored, 8)}, computed 0x${hex(computed, 8)})`, i);
        i += 4;
      }
      const room = Math.min(blockMaxSize, out.length - at);
      if ((word & 0x80000000) !== 0) {
        if (size > room) throw new Lz4FrameError('TOO_LARGE', `a stored block of ${size} bytes passes the end of the output`, blockOffset);
        out.set(data, at);
        at += size;
      } else {
        // Linked blocks reach back into this frame's earlier output, which sits just before `at` in `out`.
        const problem = checkBlock(data, independent ? 0 : at - frameStart, room);
        if (problem) throw new Lz4FrameError(/exceeds/.test(problem) ? 'TOO_LARGE' : 'CORRUPT_BLOCK', `corrupt compressed block: ${problem}`, blockOffset + 4);
        at = decompressBlock(data, out, 0, size, at);
      }
    }
    if (hasContentChecksum) {
      need(4, 'the content checksum');
      const stored = u32(src, i);
      const computed = xxh32(out.subarray(frameStart, at));
      if (stored !== computed) throw new Lz4FrameError('CONTENT_CHECKSUM', `content checksum mismatch (stored 0x${hex(stored, 8)}, computed 0x${hex(computed, 8)})`, i);
      i += 4;
    }
    if (declared !== undefined && declared !== at - frameStart) {
      throw new Lz4FrameError('CONTENT_SIZE', `content size mismatch (the header declares ${declared} bytes, the blocks hold ${at - frameStart})`, descriptorOffset + 2);
    }
  }
  return at;
}
