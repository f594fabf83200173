import { writeLdFile } from '../ld/ld-writer';
import { CHANNEL, HEADER } from '../ld/ld-layout';
import { xxh32 } from '../lz4/xxh32';

/**
 * Files an attacker would upload, made small and on the spot by the tests that refuse them (issue 35): none of them is
 * damaged in a way a checksum would catch, each is built to make a reader's work or memory grow past what its size
 * suggests.
 */

/** A `.ld` of `count` channels (1 sample each, distinct names `Channel 1`...), one channel block of 124 bytes each. */
export function ldWithChannels(count: number): Uint8Array {
  return writeLdFile({ channels: Array.from({ length: count }, (_, i) => ({ name: `Channel ${i + 1}`, frequency: 10, samples: [i % 1000] })) });
}

/** A `.ld` of `count` channels of `samples` samples each whose blocks all point at the first channel's sample bytes. */
export function ldWithSharedSamples(count: number, samples: number): Uint8Array {
  const bytes = writeLdFile({ channels: Array.from({ length: count }, (_, i) => ({ name: `Alias ${i + 1}`, frequency: 100, sampleCount: samples, fill: (_first: number, out: Float64Array) => out.fill(i) })) });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const first = view.getUint32(HEADER.channelMetaPtr, true);
  const shared = view.getUint32(first + CHANNEL.dataPtr, true);
  for (let ptr = first; ptr !== 0; ptr = view.getUint32(ptr + CHANNEL.next, true)) view.setUint32(ptr + CHANNEL.dataPtr, shared, true);
  return bytes;
}

/** A `.ld` of one channel whose samples, as its block declares them, run `extra` bytes past the end of the file. */
export function ldRunningPastItsEnd(extra: number): Uint8Array {
  const bytes = writeLdFile({ channels: [{ name: 'Long', frequency: 10, samples: [1, 2, 3, 4] }] });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const block = view.getUint32(HEADER.channelMetaPtr, true);
  view.setUint32(block + CHANNEL.sampleCount, 4 + Math.ceil(extra / 2) + 4, true);
  return bytes;
}

const LZ4_BLOCK = 4 << 20;

/**
 * An LZ4 frame decompressing to `blocks` × 4 MiB of zeros from about 16 KiB per block (a ratio near 255:1, LZ4's
 * most), valid in every respect; with `declare`, its header states that content size.
 */
export function lz4Bomb(blocks: number, options: { declare?: number } = {}): Uint8Array {
  // One sequence: a literal zero, then a match at offset 1 repeating it, then the five literals a block ends with.
  const matchLength = LZ4_BLOCK - 1 - 5;
  const extra = matchLength - 4 - 15;
  const ext = new Uint8Array(Math.floor(extra / 255) + 1).fill(255);
  ext[ext.length - 1] = extra % 255;
  const block = Uint8Array.from([0x1f, 0x00, 0x01, 0x00, ...ext, 0x50, 0, 0, 0, 0, 0]);
  const flg = 0x60 | (options.declare !== undefined ? 0x08 : 0); // version 01, independent blocks
  const descriptor = Uint8Array.from([flg, 0x70, ...(options.declare !== undefined ? u64(options.declare) : [])]);
  const header = Uint8Array.from([0x04, 0x22, 0x4d, 0x18, ...descriptor, (xxh32(descriptor) >>> 8) & 0xff]);
  const size = u32(block.length);
  const out = new Uint8Array(header.length + blocks * (4 + block.length) + 4);
  out.set(header);
  let at = header.length;
  for (let i = 0; i < blocks; i++) {
    out.set(size, at);
    out.set(block, at + 4);
    at += 4 + block.length;
  }
  return out; // the last four bytes stay 0: the end mark
}

const u32 = (n: number) => Uint8Array.of(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
const u64 = (n: number) => [...u32(n % 2 ** 32), ...u32(Math.floor(n / 2 ** 32))];
