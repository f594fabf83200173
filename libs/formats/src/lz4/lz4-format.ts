/** The LZ4 frame format's constants and the block check both frame decoders (streaming and in-memory) use. */

export const FRAME_MAGIC = 0x184d2204;
export const SKIPPABLE_MAGIC_MIN = 0x184d2a50;
export const SKIPPABLE_MAGIC_MAX = 0x184d2a5f;
export const BLOCK_MAX_SIZES: Record<number, number> = { 4: 64 << 10, 5: 256 << 10, 6: 1 << 20, 7: 4 << 20 };
/** Linked blocks may refer back this far into the previous blocks' output. */
export const WINDOW = 64 << 10;

export const u32 = (b: Uint8Array, i = 0): number => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

/**
 * Walks the sequences of a compressed block without writing anything: lz4js's decoder trusts its input, so a
 * damaged block is refused here before it can read past the block or refer to bytes that do not exist.
 * `history` is how many bytes of earlier output a match may reach into. Returns what is wrong, or undefined.
 */
export function checkBlock(src: Uint8Array, history: number, maxOutput: number): string | undefined {
  const end = src.length;
  let i = 0;
  let produced = 0;
  while (i < end) {
    const token = src[i++]!;
    let literals = token >> 4;
    if (literals === 15) {
      let byte: number;
      do {
        if (i >= end) return 'literal length runs past the end of the block';
        byte = src[i++]!;
        literals += byte;
      } while (byte === 255);
    }
    if (i + literals > end) return 'literals run past the end of the block';
    i += literals;
    produced += literals;
    if (produced > maxOutput) return `decompressed block exceeds ${maxOutput} bytes`;
    if (i === end) return undefined; // the last sequence holds literals only
    if (i + 2 > end) return 'match offset runs past the end of the block';
    const offset = src[i]! | (src[i + 1]! << 8);
    i += 2;
    if (offset === 0 || offset > history + produced) return `match offset ${offset} points before the start of the data`;
    let matchLength = token & 15;
    if (matchLength === 15) {
      let byte: number;
      do {
        if (i >= end) return 'match length runs past the end of the block';
        byte = src[i++]!;
        matchLength += byte;
      } while (byte === 255);
    }
    produced += matchLength + 4;
    if (produced > maxOutput) return `decompressed block exceeds ${maxOutput} bytes`;
  }
  return 'the block does not end with literals';
}

export const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
