import { decodeLz4Frames, decodeLz4FramesInto, Lz4FrameError, validateLz4Frames, xxh32 } from '../src';

/**
 * LZ4 streams a hostile (or merely unusual) writer made to crash the streaming decoder or to grow its time or output
 * past what its limits allow (found by fuzzing). Each is decoded as the one-buffer decoder does, or refused with a typed
 * Lz4FrameError.
 */

const MAGIC = [0x04, 0x22, 0x4d, 0x18];
const u32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
const u64 = (n: number) => [...u32(n % 2 ** 32), ...u32(Math.floor(n / 2 ** 32))];

/** A frame header: magic, FLG, BD (block maximum size code 4..7), the content size when declared, header checksum. */
function frameHeader(options: { linked?: boolean; sizeCode?: number; declare?: number } = {}): number[] {
  const flg = 0x40 | (options.linked ? 0 : 0x20) | (options.declare !== undefined ? 0x08 : 0);
  const descriptor = [flg, (options.sizeCode ?? 4) << 4, ...(options.declare !== undefined ? u64(options.declare) : [])];
  return [...MAGIC, ...descriptor, (xxh32(Uint8Array.from(descriptor)) >>> 8) & 0xff];
}

async function rejection(run: Promise<unknown>): Promise<Lz4FrameError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Lz4FrameError);
  return error as Lz4FrameError;
}

describe('a stored block of 0 bytes', () => {
  // Magic, descriptor, then the block word 00 00 00 80 (stored, 0 bytes), then the end mark.
  const head = Uint8Array.from([...frameHeader(), 0x00, 0x00, 0x00, 0x80]);
  const frame = Uint8Array.from([...head, 0, 0, 0, 0]);

  test('when the stream is split right after its block word, then it decodes as the one-buffer decoders do', async () => {
    const whole = await validateLz4Frames([frame]);
    expect(whole).toEqual({ frames: 1, contentSize: 0, compressedSize: frame.length });
    await expect(validateLz4Frames([head, frame.subarray(head.length)])).resolves.toEqual(whole);
    // Every split point, byte by byte.
    await expect(validateLz4Frames(Array.from(frame, (byte) => Uint8Array.of(byte)))).resolves.toEqual(whole);
    expect(decodeLz4FramesInto(frame, new Uint8Array(8))).toBe(0);
  });

  test('when such a block sits between two others at a chunk boundary, then the content equals the one-buffer decode', async () => {
    const a = [0x10, 0x61]; // a compressed block of one sequence, literals only: 'a'
    const withData = Uint8Array.from([...frameHeader(), ...u32(a.length), ...a, 0x00, 0x00, 0x00, 0x80, ...u32(2 | 0x80000000), 0x62, 0x63, 0, 0, 0, 0]);
    const cut = frameHeader().length + 4 + a.length + 4;
    const parts: Uint8Array[] = [];
    for await (const block of decodeLz4Frames([withData.subarray(0, cut), withData.subarray(cut)])) parts.push(block);
    expect(Buffer.concat(parts).toString('latin1')).toBe('abc');
    const out = new Uint8Array(3);
    expect(decodeLz4FramesInto(withData, out)).toBe(3);
    expect(Buffer.from(out).toString('latin1')).toBe('abc');
  });

  test('when the stream ends right after its block word, then it is refused as truncated, not with a TypeError', async () => {
    const error = await rejection(validateLz4Frames([head]));
    expect(error.code).toBe('TRUNCATED');
  });
});

/**
 * Runs `run` counting the typed arrays of at least `least` bytes constructed while it runs (the decoder's decoding
 * space is one): the work an allocation costs (zeroing it) counted, not timed.
 */
async function largeAllocations<T>(least: number, run: () => Promise<T>): Promise<{ result: T; count: number }> {
  const original = globalThis.Uint8Array;
  let count = 0;
  globalThis.Uint8Array = new Proxy(original, {
    construct(target, args, newTarget) {
      if (typeof args[0] === 'number' && args[0] >= least) count++;
      return Reflect.construct(target, args, newTarget === globalThis.Uint8Array ? target : newTarget) as object;
    },
  });
  try {
    return { result: await run(), count };
  } finally {
    globalThis.Uint8Array = original;
  }
}

describe('many frames in one stream', () => {
  /** `n` empty frames of 4 MiB blocks (11 bytes each: header and end mark), linked or not. */
  const emptyFrames = (n: number, linked: boolean) => {
    const one = Uint8Array.from([...frameHeader({ sizeCode: 7, linked }), 0, 0, 0, 0]);
    const out = new Uint8Array(one.length * n);
    for (let i = 0; i < n; i++) out.set(one, i * one.length);
    return out;
  };

  test.each([false, true])('when a stream is 20,000 empty frames of 4 MiB blocks (linked: %s), then it validates without allocating a decoding space per frame', async (linked) => {
    const stream = emptyFrames(20_000, linked);
    const { result, count } = await largeAllocations(1 << 20, () => validateLz4Frames([stream], { maxBytes: 4 * 1024 ** 3, maxRatio: 64, compressedSize: stream.length }));
    expect(result).toEqual({ frames: 20_000, contentSize: 0, compressedSize: stream.length });
    // Before: one zeroed 4 MiB (+ 64 KiB) buffer per frame, 80 GiB written for 220 KB of input.
    expect(count).toBe(0);
  });

  test('when a stream is many small frames with data, then one decoding space serves them all and each decodes to its bytes', async () => {
    // Each frame: 4 MiB blocks declared, one stored block of 3 bytes.
    const one = (i: number) => [...frameHeader({ sizeCode: 7, linked: i % 2 === 0 }), ...u32(3 | 0x80000000), 0x61 + (i % 26), 0x62, 0x63, 0, 0, 0, 0];
    const stream = Uint8Array.from(Array.from({ length: 2_000 }, (_, i) => one(i)).flat());
    const { result: parts, count } = await largeAllocations(1 << 20, async () => {
      const out: Uint8Array[] = [];
      for await (const block of decodeLz4Frames([stream])) out.push(block);
      return out;
    });
    expect(count).toBe(1);
    expect(parts).toHaveLength(2_000);
    expect(parts.every((part, i) => Buffer.from(part).toString('latin1') === `${String.fromCharCode(0x61 + (i % 26))}bc`)).toBe(true);
  });
});
