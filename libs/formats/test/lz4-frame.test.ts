import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compressLz4, decodeLz4Frames, decodeLz4FramesInto, encodeLz4Frame, Lz4FrameError, validateLz4Frames, xxh32, Xxh32 } from '../src';

const LZ4 = '/usr/bin/lz4';

/** Telemetry-like content: repetitive text with random stretches, so blocks both compress and do not. */
function sampleContent(size: number): Buffer {
  const out = Buffer.alloc(size);
  let at = 0;
  let lap = 0;
  while (at < size) {
    const line = Buffer.from(`lap=${lap++},speed=${(200 + (lap % 37) * 1.5).toFixed(1)},rpm=${8000 + (lap % 113) * 13}\n`);
    const piece = lap % 50 === 0 ? randomBytes(3000) : line;
    at += piece.copy(out, at);
  }
  return out;
}

/** Splits a buffer into chunks of awkward sizes, as a network stream would deliver it. */
function* chunked(data: Uint8Array, size = 65_531): Generator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function decodeAll(data: Uint8Array, size?: number): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of decodeLz4Frames(chunked(data, size))) parts.push(part);
  return Buffer.concat(parts);
}

const scratch = mkdtempSync(join(tmpdir(), 'pitwall-lz4-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let fileNumber = 0;
/** Runs the lz4 tool on a file (from stdin it cannot know the size, so it would not write a content size). */
function lz4Tool(args: string[], input: Uint8Array): Buffer {
  const file = join(scratch, `input-${fileNumber++}`);
  writeFileSync(file, input);
  return execFileSync(LZ4, [...args, file], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
}

const original = sampleContent(5 * 1024 * 1024 + 12_345);

describe('xxh32', () => {
  test('when fed in pieces, then it equals the one-shot reference values', () => {
    expect(xxh32(new Uint8Array(0))).toBe(0x02cc5d05);
    expect(xxh32(Buffer.from('a'))).toBe(0x550d7456);
    expect(xxh32(Buffer.from('Nobody inspects the spammish repetition'))).toBe(0xe2293b2f);
    const data = randomBytes(1000);
    const whole = xxh32(data);
    const pieces = new Xxh32();
    let at = 0;
    for (const size of [1, 3, 15, 16, 17, 100, 848]) {
      pieces.update(data.subarray(at, at + size));
      at += size;
    }
    expect(pieces.digest()).toBe(whole);
  });

  test('when the bytes start at any alignment in their buffer, then the hash is the reference value (word-wise and byte-wise reads agree)', () => {
    const text = Buffer.from('Nobody inspects the spammish repetition');
    for (let shift = 0; shift < 4; shift++) {
      const backing = new Uint8Array(text.length + 8);
      backing.set(text, shift);
      expect(xxh32(backing.subarray(shift, shift + text.length))).toBe(0xe2293b2f);
    }
    const data = new Uint8Array(randomBytes(4096 + 3));
    const reference = xxh32(data.slice(0, 4096));
    for (let shift = 1; shift < 4; shift++) {
      const moved = new Uint8Array(4096 + shift);
      moved.set(data.subarray(0, 4096), shift);
      expect(xxh32(moved.subarray(shift))).toBe(reference);
    }
  });
});

describe('decodeLz4Frames: frames written by the lz4 tool', () => {
  test.each([
    ['default (content checksum, independent blocks)', ['-c']],
    ['with content size', ['-c', '--content-size']],
    ['without content checksum', ['-c', '--no-frame-crc']],
    ['without content checksum, with content size', ['-c', '--no-frame-crc', '--content-size']],
    ['linked blocks (-BD), 64 KiB blocks', ['-c', '-BD', '-B4']],
    ['independent blocks (-BI) with block checksums', ['-c', '-BI', '-BX', '-B5']],
    ['high compression, 1 MiB blocks', ['-c', '-9', '-B6']],
  ])('when the frame is %s, then the original bytes come back', async (_name, args) => {
    const frame = lz4Tool(args, original);
    expect(Buffer.compare(await decodeAll(frame), original)).toBe(0);
    expect(await validateLz4Frames(chunked(frame, 1000))).toEqual({ frames: 1, contentSize: original.length, compressedSize: frame.length });
  });

  test('when the tool is asked for a content size, then the frame carries it (FLG bit 3)', () => {
    expect(lz4Tool(['-c', '--content-size'], original)[4]! & 0x08).toBe(0x08);
    expect(lz4Tool(['-c'], original)[4]! & 0x08).toBe(0);
  });

  test('when two frames and a skippable frame are concatenated, then both contents come back in order', async () => {
    const a = lz4Tool(['-c'], original.subarray(0, 100_000));
    const b = lz4Tool(['-c', '--content-size'], original.subarray(100_000, 300_000));
    const skippable = Buffer.concat([Buffer.from([0x5a, 0x2a, 0x4d, 0x18, 5, 0, 0, 0]), Buffer.from('hello')]);
    const decoded = await decodeAll(Buffer.concat([a, skippable, b]), 777);
    expect(Buffer.compare(decoded, original.subarray(0, 300_000))).toBe(0);
  });

  test('when the content is empty, then the frame decodes to nothing', async () => {
    expect((await decodeAll(lz4Tool(['-c'], Buffer.alloc(0)))).length).toBe(0);
  });
});

describe('decodeLz4Frames: damaged frames are refused with the reason', () => {
  const frame = lz4Tool(['-c', '-BX', '--content-size'], original.subarray(0, 500_000));
  const frameContentChecksum = lz4Tool(['-c'], original.subarray(0, 500_000));

  const failure = async (data: Uint8Array): Promise<Lz4FrameError> => {
    const error = await validateLz4Frames(chunked(data, 4096)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Lz4FrameError);
    return error as Lz4FrameError;
  };

  test.each([1, 7, 8, 200, 1000])('when %i bytes are cut off the end, then it is refused as truncated', async (cut) => {
    const error = await failure(frame.subarray(0, frame.length - cut));
    expect(error.code).toBe('TRUNCATED');
    expect(error.message).toMatch(/truncated/);
  });

  test.each([
    // A frame with a content size: FLG, BD, 8 bytes of content size, HC.
    ['only the magic', 'sized', 4, 'at least 3 bytes missing'],
    ['the magic and FLG', 'sized', 5, '10 bytes missing'],
    ['FLG, BD and half the content size', 'sized', 10, '5 bytes missing'],
    ['all but the header checksum', 'sized', 14, '1 byte missing'],
    // Without one: FLG, BD, HC.
    ['the magic and FLG', 'plain', 5, '2 bytes missing'],
    ['FLG and BD', 'plain', 6, '1 byte missing'],
  ])('when the stream ends after %s of a %s frame, then the error counts the descriptor bytes missing', async (_what, kind, length, missing) => {
    const error = await failure((kind === 'sized' ? frame : frameContentChecksum).subarray(0, length));
    expect(error.code).toBe('TRUNCATED');
    expect(error.message).toBe(`invalid LZ4 frame at byte ${length}: truncated: the stream ends inside the frame descriptor (${missing})`);
  });

  test('when the stream is empty or not LZ4, then it is refused', async () => {
    expect((await failure(new Uint8Array(0))).code).toBe('TRUNCATED');
    expect((await failure(Buffer.from('PK\u0003\u0004 not an lz4 file'))).code).toBe('BAD_MAGIC');
  });

  test('when a byte of the frame descriptor is flipped, then the header checksum or descriptor check fails', async () => {
    const damaged = Buffer.from(frame);
    damaged[6] ^= 0x01; // inside the content size
    expect((await failure(damaged)).code).toBe('HEADER_CHECKSUM');
    const badVersion = Buffer.from(frame);
    badVersion[4] ^= 0x80;
    expect((await failure(badVersion)).code).toBe('BAD_DESCRIPTOR');
  });

  test('when a byte of a block is flipped and blocks carry checksums, then the block checksum fails', async () => {
    const damaged = Buffer.from(frame);
    damaged[5000] ^= 0x10;
    const error = await failure(damaged);
    expect(error.code).toBe('BLOCK_CHECKSUM');
  });

  test('when a byte of a block is flipped without block checksums, then the content checksum (or the block walk) fails', async () => {
    for (const at of [3000, 40_000, 100_000, frameContentChecksum.length - 30]) {
      const damaged = Buffer.from(frameContentChecksum);
      damaged[at] ^= 0x04;
      const error = await failure(damaged);
      expect(['CONTENT_CHECKSUM', 'CORRUPT_BLOCK']).toContain(error.code);
    }
    const lastByte = Buffer.from(frameContentChecksum);
    lastByte[lastByte.length - 1] ^= 0x01; // inside the stored content checksum itself
    expect((await failure(lastByte)).code).toBe('CONTENT_CHECKSUM');
  });

  test('when the declared content size differs from the content, then it is refused', async () => {
    const small = lz4Tool(['-c', '--content-size', '--no-frame-crc'], Buffer.from('twelve bytes'));
    const damaged = Buffer.from(small);
    damaged[6] = 13; // declared size 12 -> 13, then recompute the header checksum so only the size is wrong
    damaged[14] = (xxh32(damaged.subarray(4, 14)) >>> 8) & 0xff;
    const error = await failure(damaged);
    expect(error.code).toBe('CONTENT_SIZE');
  });

  test('when a compressed block refers before the start of the data, then it is refused before decoding', async () => {
    // One compressed block: token 0x10 (1 literal, match 4), literal 'a', offset 5 (only 1 byte exists), then 'b'.
    const block = Buffer.from([0x10, 0x61, 0x05, 0x00, 0x10, 0x62]);
    const descriptor = Buffer.from([0x60, 0x40]);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(block.length);
    const bad = Buffer.concat([Buffer.from([0x04, 0x22, 0x4d, 0x18]), descriptor, Buffer.from([(xxh32(descriptor) >>> 8) & 0xff]), size, block, Buffer.alloc(4)]);
    const error = await failure(bad);
    expect(error.code).toBe('CORRUPT_BLOCK');
    expect(error.message).toMatch(/offset 5/);
  });
});

describe('encodeLz4Frame', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pitwall-lz4-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('when content is compressed in pieces, then the lz4 tool decompresses it to the original bytes', async () => {
    const parts: Uint8Array[] = [];
    for await (const part of encodeLz4Frame(chunked(original, 100_003))) parts.push(part);
    const frame = Buffer.concat(parts);
    expect(frame.length).toBeLessThan(original.length);
    const file = join(dir, 'sample.lz4');
    writeFileSync(file, frame);
    execFileSync(LZ4, ['-d', '-f', file, join(dir, 'sample')]);
    expect(Buffer.compare(readFileSync(join(dir, 'sample')), original)).toBe(0);
    expect(Buffer.compare(await decodeAll(frame), original)).toBe(0);
  });

  test('when content does not compress or is empty, then the frame still round-trips through the lz4 tool', async () => {
    for (const data of [randomBytes(5 * 1024 * 1024), Buffer.alloc(0), Buffer.from('x'), Buffer.alloc(4 * 1024 * 1024, 7)]) {
      const frame = await compressLz4(data);
      expect(Buffer.compare(lz4Tool(['-d', '-c'], frame), data)).toBe(0);
    }
  });
});

describe('bounded memory', () => {
  test('when a long stream is validated, then the decoder never holds more than a few blocks', async () => {
    // 32 concatenated 4 MiB frames (128 MiB of content), fed lazily: a decoder holding the content would need 128 MiB.
    const frame = lz4Tool(['-c', '-B7', '--no-frame-crc'], sampleContent(4 * 1024 * 1024));
    function* stream(): Generator<Uint8Array> {
      for (let i = 0; i < 32; i++) yield* chunked(frame, 256 * 1024);
    }
    // Measure what is retained (after a full collection), not garbage waiting for the collector.
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const retained = (): number => {
      gc();
      const now = process.memoryUsage();
      return now.heapUsed + now.arrayBuffers;
    };
    const before = retained();
    let peak = 0;
    const summary = { frames: 0, contentSize: 0, compressedSize: 0 };
    for await (const _block of decodeLz4Frames(stream(), summary)) peak = Math.max(peak, retained() - before);
    expect(summary).toEqual({ frames: 32, contentSize: 32 * 4 * 1024 * 1024, compressedSize: 32 * frame.length });
    // One 4 MiB block, its decoding buffer and the block handed out: far below the 128 MiB streamed.
    expect(peak).toBeLessThan(24 * 1024 * 1024);
  }, 120_000);
});

describe('decodeLz4FramesInto: a frame held in memory, decoded into the buffer it must fill (MDF4 ##DZ)', () => {
  const original = sampleContent(600_000);
  const into = (frame: Uint8Array, size = original.length) => {
    const out = new Uint8Array(size);
    return { written: decodeLz4FramesInto(frame, out), out: Buffer.from(out) };
  };

  it.each([
    ['linked 64 KiB blocks with block and content checksums', ['-c', '-BD', '-B4', '--content-size', '-BX']],
    ['independent 4 MiB blocks', ['-c', '-B7']],
    ['two frames one after the other', null],
  ])('when the lz4 tool writes %s, then it decodes to the original', (_, args) => {
    const frame = args ? lz4Tool(args, original) : Buffer.concat([lz4Tool(['-c'], original.subarray(0, 250_000)), lz4Tool(['-c', '-BD'], original.subarray(250_000))]);
    const { written, out } = into(frame);
    expect(written).toBe(original.length);
    expect(out.equals(original)).toBe(true);
  });

  it('when the frame holds more than the buffer, then TOO_LARGE before anything is written past it', () => {
    const frame = lz4Tool(['-c', '-BD', '-B4'], original);
    expect(() => into(frame, 300_000)).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
    expect(() => into(lz4Tool(['-c', '--content-size'], original), 300_000)).toThrow(/declares 600000 bytes, past the 300000 bytes left/);
  });

  it('when a checksum does not match or a block is cut, then the matching code, never an exception of another kind', () => {
    const frame = lz4Tool(['-c', '-BD', '-B4', '-BX'], original);
    const damaged = Buffer.from(frame);
    damaged[frame.length - 10] ^= 1;
    expect(() => into(damaged)).toThrow(Lz4FrameError);
    expect(() => into(frame.subarray(0, frame.length - 1000))).toThrow(expect.objectContaining({ code: 'TRUNCATED' }));
    expect(() => into(new Uint8Array(0))).toThrow(expect.objectContaining({ code: 'TRUNCATED' }));
    expect(() => into(Buffer.from('not an lz4 frame'))).toThrow(expect.objectContaining({ code: 'BAD_MAGIC' }));
  });
});
