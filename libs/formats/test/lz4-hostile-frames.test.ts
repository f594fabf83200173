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

/** A compressed 4 MiB block: one literal, then a match at offset 1 repeating it, then the literal a block ends with. */
function runBlock(size = 4 << 20): Uint8Array {
  const extra = size - 2 - 4 - 15;
  const body = [0x1f, 0x61, 0x01, 0x00];
  for (let left = extra; ; left -= 255) {
    if (left < 255) {
      body.push(left);
      break;
    }
    body.push(255);
  }
  body.push(0x10, 0x61);
  return Uint8Array.from(body);
}

/** A frame of `blocks` copies of runBlock(), each 4 MiB, optionally declaring that content size. */
function runFrame(blocks: number, declare: boolean): Uint8Array {
  const block = runBlock();
  const head = frameHeader({ sizeCode: 7, ...(declare ? { declare: blocks * (4 << 20) } : {}) });
  const out = new Uint8Array(head.length + blocks * (4 + block.length) + 4);
  out.set(head);
  for (let i = 0, at = head.length; i < blocks; i++, at += 4 + block.length) {
    out.set(u32(block.length), at);
    out.set(block, at + 4);
  }
  return out;
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

describe('a frame that declares its content size', () => {
  // 64 blocks of 4 MiB from about 1 MB: 256 MiB, about 255 times the stream.
  const limits = (frame: Uint8Array) => ({ maxBytes: 4 * 1024 ** 3, maxRatio: 64, compressedSize: frame.length });

  test('when it declares 255 times its size, then it is refused at its header, naming LZ4_MAX_RATIO\'s bound, as the frame that does not declare it is refused at 64 times', async () => {
    const declared = runFrame(64, true);
    let produced = 0;
    const error = await rejection(
      (async () => {
        for await (const block of decodeLz4Frames([declared], undefined, limits(declared))) produced += block.length;
      })(),
    );
    expect(error).toMatchObject({ code: 'TOO_LARGE', limit: 'maxRatio', offset: 6 });
    expect(error.reason).toBe(`the frame declares ${64 * (4 << 20)} bytes, past ${64 * declared.length} bytes, 64 times its ${declared.length} compressed bytes`);
    // Before: decompressed whole (256 MiB).
    expect(produced).toBe(0);

    const undeclared = runFrame(64, false);
    const stopped = await rejection(validateLz4Frames([undeclared], limits(undeclared)));
    expect(stopped).toMatchObject({ code: 'TOO_LARGE', limit: 'maxRatio' });
    expect(stopped.reason).toBe(`it decompresses past ${64 * undeclared.length} bytes, 64 times its ${undeclared.length} compressed bytes`);
  });

  test('when it declares a size past maxBytes, then it is refused at its header naming that bound', async () => {
    const declared = runFrame(4, true);
    const error = await rejection(validateLz4Frames([declared], { maxBytes: 8 << 20, maxRatio: 64, compressedSize: declared.length }));
    expect(error).toMatchObject({ code: 'TOO_LARGE', limit: 'maxBytes', offset: 6, reason: `the frame declares ${16 << 20} bytes, past the limit of ${8 << 20} decompressed bytes` });
  });

  test('when earlier frames used part of the ratio, then a declared size past what is left is refused at its header', async () => {
    // Two frames of 4 MiB each from about 16 KB each, a ratio allowing 1.5 of them: the second is refused at its content size field.
    const one = runFrame(1, true);
    const stream = Uint8Array.from([...one, ...one]);
    const maxRatio = Math.ceil((6 << 20) / stream.length);
    const error = await rejection(validateLz4Frames([stream], { maxBytes: 4 * 1024 ** 3, maxRatio, compressedSize: stream.length }));
    expect(error).toMatchObject({ code: 'TOO_LARGE', limit: 'maxRatio', offset: one.length + 6 });
  });

  test('when it declares a size within both bounds, then it decompresses whole', async () => {
    const declared = runFrame(2, true);
    await expect(validateLz4Frames([declared], { maxBytes: 4 * 1024 ** 3, maxRatio: 64 * 1024, compressedSize: declared.length })).resolves.toEqual({ frames: 1, contentSize: 8 << 20, compressedSize: declared.length });
  });
});
