/**
 * Streaming XXH32 (the checksum of the LZ4 frame format). lz4js only hashes one buffer at once; a frame's
 * content checksum covers every decompressed byte, which must not be held in memory, so this one is incremental.
 */
const PRIME1 = 0x9e3779b1;
const PRIME2 = 0x85ebca77;
const PRIME3 = 0xc2b2ae3d;
const PRIME4 = 0x27d4eb2f;
const PRIME5 = 0x165667b1;

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));
const round = (acc: number, lane: number): number => Math.imul(rotl((acc + Math.imul(lane, PRIME2)) | 0, 13), PRIME1);
const u32 = (b: Uint8Array, i: number): number => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
/** XXH32 reads little-endian words: on such a host an aligned Uint32Array view reads them directly (twice as fast). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export class Xxh32 {
  private v1: number;
  private v2: number;
  private v3: number;
  private v4: number;
  private total = 0;
  private readonly pending = new Uint8Array(16);
  private pendingLength = 0;

  constructor(private readonly seed = 0) {
    this.v1 = (seed + PRIME1 + PRIME2) | 0;
    this.v2 = (seed + PRIME2) | 0;
    this.v3 = seed | 0;
    this.v4 = (seed - PRIME1) | 0;
  }

  update(data: Uint8Array): this {
    this.total += data.length;
    let i = 0;
    if (this.pendingLength > 0) {
      const take = Math.min(16 - this.pendingLength, data.length);
      this.pending.set(data.subarray(0, take), this.pendingLength);
      this.pendingLength += take;
      i = take;
      if (this.pendingLength < 16) return this;
      this.stripe(this.pending, 0);
      this.pendingLength = 0;
    }
    const last = data.length - 16;
    let { v1, v2, v3, v4 } = this;
    if (LITTLE_ENDIAN && ((data.byteOffset + i) & 3) === 0 && i <= last) {
      const words = new Uint32Array(data.buffer, data.byteOffset + i, ((data.length - i) >>> 4) << 2);
      for (let w = 0; w < words.length; w += 4) {
        v1 = round(v1, words[w]!);
        v2 = round(v2, words[w + 1]!);
        v3 = round(v3, words[w + 2]!);
        v4 = round(v4, words[w + 3]!);
      }
      i += words.length << 2;
    }
    for (; i <= last; i += 16) {
      v1 = round(v1, u32(data, i));
      v2 = round(v2, u32(data, i + 4));
      v3 = round(v3, u32(data, i + 8));
      v4 = round(v4, u32(data, i + 12));
    }
    Object.assign(this, { v1, v2, v3, v4 });
    if (i < data.length) {
      this.pending.set(data.subarray(i), 0);
      this.pendingLength = data.length - i;
    }
    return this;
  }

  /** The hash of everything updated so far, as an unsigned 32-bit number (the state is left unchanged). */
  digest(): number {
    let h =
      this.total >= 16
        ? (rotl(this.v1, 1) + rotl(this.v2, 7) + rotl(this.v3, 12) + rotl(this.v4, 18)) | 0
        : (this.seed + PRIME5) | 0;
    h = (h + this.total) | 0;
    let i = 0;
    for (; i + 4 <= this.pendingLength; i += 4) {
      h = Math.imul(rotl((h + Math.imul(u32(this.pending, i), PRIME3)) | 0, 17), PRIME4);
    }
    for (; i < this.pendingLength; i++) {
      h = Math.imul(rotl((h + Math.imul(this.pending[i]!, PRIME5)) | 0, 11), PRIME1);
    }
    h ^= h >>> 15;
    h = Math.imul(h, PRIME2);
    h ^= h >>> 13;
    h = Math.imul(h, PRIME3);
    h ^= h >>> 16;
    return h >>> 0;
  }

  private stripe(b: Uint8Array, i: number): void {
    this.v1 = round(this.v1, u32(b, i));
    this.v2 = round(this.v2, u32(b, i + 4));
    this.v3 = round(this.v3, u32(b, i + 8));
    this.v4 = round(this.v4, u32(b, i + 12));
  }
}

/** XXH32 of one buffer. */
export const xxh32 = (data: Uint8Array, seed = 0): number => new Xxh32(seed).update(data).digest();
