import {
  bytesSource,
  CorruptDataFileError,
  DataFileLimitError,
  DEFAULT_MAX_CHANNELS_PER_FILE,
  decodeLz4Frames,
  Lz4FrameError,
  openDataFile,
  openDataFileFromSource,
  validateLz4Frames,
  writeLdFile,
} from '../src';
import { buildMdf3File, buildMdf4File, ldRunningPastItsEnd, ldWithChannels, ldWithSharedSamples, lz4Bomb } from '../src/testing';
import { readFixture } from './fixtures';

const MiB = 1024 * 1024;

describe('hostile .ld files (issue 35)', () => {
  test('when the channels of a .ld point at the same sample bytes, then it is refused at open as corrupt, naming the overlap', async () => {
    const aliased = ldWithSharedSamples(200, 1000);
    expect(() => openDataFile(aliased)).toThrow(CorruptDataFileError);
    await expect(openDataFileFromSource(bytesSource(aliased))).rejects.toThrow(/samples of channel Alias 2 .* overlap those of channel Alias 1/);
  });

  test('when a .ld channel declares samples past the end of the file, then it is refused at open as corrupt', async () => {
    const long = ldRunningPastItsEnd(1000);
    expect(() => openDataFile(long)).toThrow(/runs past the end of the file/);
    await expect(openDataFileFromSource(bytesSource(long))).rejects.toBeInstanceOf(CorruptDataFileError);
  });

  test('when channels are laid apart as the writer lays them, then they open (the overlap check refuses nothing real)', () => {
    const file = openDataFile(writeLdFile({ channels: [{ name: 'A', frequency: 10, samples: [1, 2, 3] }, { name: 'B', frequency: 10, samples: [] }, { name: 'C', frequency: 5, type: 'int32', samples: [4] }] }));
    expect(file.channels.map((c) => c.name)).toEqual(['A', 'B', 'C']);
  });

  test('when a .ld has more channels than the bound, then a DataFileLimitError names the bound before the rest is read', async () => {
    const bytes = ldWithChannels(120);
    expect(() => openDataFile(bytes, { maxChannels: 100 })).toThrow(DataFileLimitError);
    await expect(openDataFileFromSource(bytesSource(bytes), { maxChannels: 100 })).rejects.toThrow(/more than 100 channels/);
    expect(openDataFile(bytes, { maxChannels: 120 }).channels).toHaveLength(120);
  });

  test('when a per-lap dataset has more channels in its files together than the bound, then it is refused', () => {
    const a = writeLdFile({ channels: Array.from({ length: 60 }, (_, i) => ({ name: `A${i}`, frequency: 10, samples: [1] })) });
    const b = writeLdFile({ channels: Array.from({ length: 60 }, (_, i) => ({ name: `B${i}`, frequency: 10, samples: [1] })) });
    expect(() => openDataFile([a, b], { maxChannels: 100 })).toThrow(DataFileLimitError);
    expect(openDataFile([a, b], { maxChannels: 120 }).channels).toHaveLength(120);
  });

  // No time is asserted here (the machine is shared); the /health test of the datafile-service holds the bound.
  test('when two per-lap files have 50,000 channels each (above the bound only when it is lowered), then their catalogues merge by name', () => {
    const part = ldWithChannels(50_000);
    const file = openDataFile([part, part], { maxChannels: 50_000 });
    expect(file.channels).toHaveLength(50_000);
    expect(file.laps).toHaveLength(2);
    expect(file.readChannel('Channel 50000').samples).toHaveLength(2);
    expect(() => openDataFile([part, part])).toThrow(`more than ${DEFAULT_MAX_CHANNELS_PER_FILE} channels`);
  });

  test('when 20,000 channels share one name, then each gets its own numbered name', () => {
    const bytes = writeLdFile({ channels: Array.from({ length: DEFAULT_MAX_CHANNELS_PER_FILE }, () => ({ name: 'Same', frequency: 10, samples: [1] })) });
    const file = openDataFile(bytes);
    expect(file.channels.slice(0, 3).map((c) => c.name)).toEqual(['Same', 'Same (2)', 'Same (3)']);
    expect(new Set(file.channels.map((c) => c.name)).size).toBe(DEFAULT_MAX_CHANNELS_PER_FILE);
  });
});

describe('hostile MDF4 files (issue 35)', () => {
  const group = (storage: 'DL' | 'DL-repeated', repeat: number, records: number) => ({
    dataBytes: 4,
    cycleCount: records * (storage === 'DL-repeated' ? repeat : 1),
    records: new Uint8Array(4 * records).map((_, i) => i),
    channels: [{ name: 'Value', dataType: 0, bitCount: 32, byteOffset: 0 }],
    storage,
    repeat,
  });

  test('when a ##DL names one ##DT 4,000 times, then the file is refused at open as corrupt, before its records are unpacked', () => {
    const bytes = buildMdf4File({ groups: [group('DL-repeated', 4000, 6000)] });
    expect(bytes.length).toBeLessThan(100_000);
    expect(() => openDataFile(bytes)).toThrow(/names the ##DT block at \d+ twice/);
  });

  test('when a ##DL names its blocks once each, then it opens', () => {
    expect(openDataFile(buildMdf4File({ groups: [group('DL', 1, 30)] })).readChannel('Value').samples).toHaveLength(30);
  });

  test('when a block declares a length larger than the file, then the file is refused as corrupt', () => {
    const bytes = buildMdf4File({ groups: [group('DL', 1, 30)] });
    // The ##HD block at 64: its length field.
    new DataView(bytes.buffer).setBigUint64(64 + 8, BigInt(bytes.length * 4), true);
    expect(() => openDataFile(bytes)).toThrow(CorruptDataFileError);
  });

  test('when an MDF4 file has more channels than the bound, then a DataFileLimitError', () => {
    const channels = Array.from({ length: 12 }, (_, i) => ({ name: `C${i}`, dataType: 0, bitCount: 8, byteOffset: i }));
    const bytes = buildMdf4File({ groups: [{ dataBytes: 12, cycleCount: 1, records: new Uint8Array(12), channels }] });
    expect(() => openDataFile(bytes, { maxChannels: 10 })).toThrow(DataFileLimitError);
    expect(openDataFile(bytes, { maxChannels: 12 }).channels).toHaveLength(12);
  });
});

describe('hostile MDF 3 files', () => {
  const one = (channelCount: number): Uint8Array =>
    buildMdf3File({ groups: [{ recordSize: 1, cycleCount: 3, records: Uint8Array.of(1, 2, 3), channels: Array.from({ length: channelCount }, (_, i) => ({ name: `c${i}`, dataType: 0, bitCount: 8, byteOffset: 0 })) }] });

  test('when a file has more channels than the bound, then a DataFileLimitError names it', async () => {
    expect(() => openDataFile(one(101), { maxChannels: 100 })).toThrow(DataFileLimitError);
    await expect(openDataFileFromSource(bytesSource(one(101)), { maxChannels: 100 })).rejects.toThrow(/mdf3 has more than 100 channels/);
    expect(openDataFile(one(100), { maxChannels: 100 }).channels).toHaveLength(100);
  });

  test('when the records a group declares run past the end of the file, then it is refused as corrupt before any is read', () => {
    const bytes = one(1);
    const view = new DataView(bytes.buffer);
    const cg = Buffer.from(bytes).indexOf('CG');
    view.setUint32(cg + 22, 1_000_000_000, true);
    expect(() => openDataFile(bytes)).toThrow(expect.objectContaining({ code: 'CORRUPT', offset: cg + 22 }));
    expect(() => openDataFile(bytes)).toThrow(/records of 1 bytes run past the end of the file/);
  });

  test('when a block is longer than the file or a chain loops, then CORRUPT', () => {
    const long = one(2);
    const tx = Buffer.from(long).indexOf('CN');
    new DataView(long.buffer).setUint16(tx + 2, 0xffff, true);
    expect(() => openDataFile(long)).toThrow(CorruptDataFileError);
    const loop = one(2);
    const first = Buffer.from(loop).indexOf('CN');
    new DataView(loop.buffer).setUint32(first + 4, first, true);
    expect(() => openDataFile(loop)).toThrow(/CNBLOCK chain loops back on itself/);
  });

  test('when 2,000 channels point at one text range table of 2,000 texts, then the table is read once, not once per channel', () => {
    const ranges = Array.from({ length: 2000 }, (_, i) => [i, i]).flat();
    const texts = ['none', ...Array.from({ length: 2000 }, (_, i) => `state ${i}`)];
    const bytes = buildMdf3File({
      groups: [{ recordSize: 1, cycleCount: 3, records: Uint8Array.of(1, 2, 3), channels: Array.from({ length: 2000 }, (_, i) => ({ name: `c${i}`, dataType: 0, bitCount: 8, byteOffset: 0, ...(i === 0 ? { conversion: { type: 12, values: ranges, texts } } : {}) })) }],
    });
    // Every channel's conversion link set to the first channel's CCBLOCK, as a hostile writer would.
    const view = new DataView(bytes.buffer);
    const firstCn = view.getUint32(Buffer.from(bytes).indexOf('CG') + 8, true);
    const table = view.getUint32(firstCn + 8, true);
    for (let cn = firstCn; cn !== 0; cn = view.getUint32(cn + 4, true)) view.setUint32(cn + 8, table, true);
    const file = openDataFile(bytes);
    expect(file.channels).toHaveLength(2000);
    expect(file.channels[1999]?.labels?.[1999]).toEqual({ min: 1999, max: 1999, text: 'state 1999' });
    expect(file.channels[1999]?.labels).toBe(file.channels[0]?.labels);
  });

  test('when a channel lies outside its record, then CORRUPT', () => {
    const bytes = buildMdf3File({ groups: [{ recordSize: 1, cycleCount: 1, records: Uint8Array.of(1), channels: [{ name: 'wide', dataType: 0, bitCount: 16, byteOffset: 0 }] }] });
    expect(() => openDataFile(bytes)).toThrow(/channel lies outside its record/);
  });
});

describe('LZ4 decompression bounds (issue 35)', () => {
  const drain = async (frame: Uint8Array, limits?: Parameters<typeof decodeLz4Frames>[2]) => {
    let bytes = 0;
    for await (const block of decodeLz4Frames([frame], undefined, limits)) bytes += block.length;
    return bytes;
  };

  test('when a frame without a declared size decompresses past ratio × its compressed size, then TOO_LARGE stops it there', async () => {
    const bomb = lz4Bomb(16); // 64 MiB from about 260 KB
    let produced = 0;
    const run = (async () => {
      for await (const block of decodeLz4Frames([bomb], undefined, { maxBytes: 1024 * MiB, maxRatio: 64, compressedSize: bomb.length })) produced += block.length;
    })();
    await expect(run).rejects.toMatchObject({ code: 'TOO_LARGE' });
    expect(produced).toBeLessThanOrEqual(64 * bomb.length);
  });

  test('when a stream decompresses past the absolute bound, then TOO_LARGE names the bound', async () => {
    await expect(drain(lz4Bomb(4), { maxBytes: 8 * MiB })).rejects.toThrow(/past the limit of 8388608 bytes/);
  });

  test('when a frame declares a size past the absolute bound, then it is refused at its header, before any block', async () => {
    const frame = lz4Bomb(1, { declare: 1024 ** 4 });
    await expect(validateLz4Frames([frame], { maxBytes: 64 * MiB })).rejects.toMatchObject({ code: 'TOO_LARGE', offset: 6 });
  });

  test('when a frame produces more than the size it declares, then it stops at the first block past it', async () => {
    const frame = lz4Bomb(8, { declare: 4 * MiB });
    let produced = 0;
    const run = (async () => {
      for await (const block of decodeLz4Frames([frame], undefined, { maxBytes: 1024 * MiB })) produced += block.length;
    })();
    await expect(run).rejects.toMatchObject({ code: 'CONTENT_SIZE' });
    expect(produced).toBe(4 * MiB);
  });

  test('when a frame declares its true size past the ratio, then it is refused at its header as the undeclared one is (a declared size is no exemption)', async () => {
    const frame = lz4Bomb(2, { declare: 8 * MiB });
    await expect(drain(frame, { maxBytes: 64 * MiB, maxRatio: 2, compressedSize: frame.length })).rejects.toMatchObject({ code: 'TOO_LARGE', offset: 6, limit: 'maxRatio' });
    // Within the ratio, it decompresses whole.
    await expect(drain(frame, { maxBytes: 64 * MiB, maxRatio: 256, compressedSize: frame.length })).resolves.toBe(8 * MiB);
  });

  test('when no limits are given, then the decoder behaves as before', async () => {
    await expect(drain(lz4Bomb(2))).resolves.toBe(8 * MiB);
    expect(Lz4FrameError).toBeDefined();
  });
});

describe('the maxChannels and maxLaps options of every reader', () => {
  const mdf3 = buildMdf3File({ groups: [{ recordSize: 1, cycleCount: 3, records: Uint8Array.of(1, 2, 3), channels: [{ name: 'c', dataType: 0, bitCount: 8, byteOffset: 0 }] }] });
  const csv = new TextEncoder().encode('Time,Speed\n0,1\n0.1,2\n');
  const mdf4 = readFixture('simple.mf4');

  test.each([Number.NaN, -1, 2.5])('when maxChannels is %p, then opening an MDF 3, MDF 4 or CSV file (alone or as a per-lap set) is a RangeError naming it, not a bound turned off', (bad) => {
    for (const bytes of [mdf3, mdf4, csv]) {
      expect(() => openDataFile(bytes, { maxChannels: bad })).toThrow(/maxChannels must be a whole number/);
      expect(() => openDataFile([bytes, bytes], { maxChannels: bad })).toThrow(/maxChannels must be a whole number/);
    }
    expect(() => openDataFile([csv, csv], { maxLaps: bad })).toThrow(/maxLaps must be a whole number/);
  });

  test('when maxChannels is 0, then a file with a channel is over it; Infinity bounds nothing', () => {
    for (const bytes of [mdf3, mdf4, csv]) {
      expect(() => openDataFile(bytes, { maxChannels: 0 })).toThrow(DataFileLimitError);
      expect(openDataFile(bytes, { maxChannels: Infinity }).channels.length).toBeGreaterThan(0);
    }
  });
});
