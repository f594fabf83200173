import { bytesSource, CountingSource, DataFileLimitError, openDataFile, openDataFileFromSource, openLdSource, writeLdFile } from '../src';
import { CHANNEL, HEADER } from '../src/ld/ld-layout';
import { SPARSE_PAGE_BYTES, SparseView } from '../src/source/sparse-view';
import { readFixture } from './fixtures';

/**
 * MoTeC .ld files a hostile writer made to grow the cost of reading them over a ByteSource (reads, bytes held, parsing)
 * far past their size (found by fuzzing). Each is read at a cost bounded by its size, counted in source reads, bytes
 * read and field reads, with the catalogue the whole-buffer reader gives; or refused with a typed error.
 */

/**
 * An .ld of `count` empty int16 channels whose blocks sit `stride` bytes apart from `first`, the list running
 * backwards (it starts at the highest block; each next pointer is `stride` lower), followed by `padding` bytes.
 */
function backwardsLd(count: number, options: { stride?: number; padding?: number } = {}): Uint8Array {
  const stride = options.stride ?? CHANNEL.size;
  const head = HEADER.size + (count - 1) * stride;
  const bytes = new Uint8Array(head + CHANNEL.size + (options.padding ?? 0));
  const view = new DataView(bytes.buffer);
  view.setUint32(HEADER.marker, 0x40, true);
  view.setUint32(HEADER.channelMetaPtr, head, true);
  for (let k = 0; k < count; k++) {
    const at = head - k * stride;
    view.setUint32(at + CHANNEL.next, k === count - 1 ? 0 : at - stride, true);
    view.setUint16(at + CHANNEL.typeClass, 3, true);
    view.setUint16(at + CHANNEL.typeSize, 2, true);
    view.setUint16(at + CHANNEL.frequency, 10, true);
    view.setInt16(at + CHANNEL.mul, 1, true);
    view.setInt16(at + CHANNEL.scale, 1, true);
    bytes.set(new TextEncoder().encode(`c${k}`), at + CHANNEL.name);
  }
  return bytes;
}

/** Opens `bytes` from a counting source, counting the catalogue parser's field reads too. */
async function openCounted(bytes: Uint8Array) {
  const source = new CountingSource(bytesSource(bytes));
  const fieldReads = jest.spyOn(SparseView.prototype, 'u32');
  try {
    const file = await openDataFileFromSource(source);
    return { file, reads: source.reads.length, bytesRead: source.bytesRead, fieldReads: fieldReads.mock.calls.length };
  } finally {
    fieldReads.mockRestore();
  }
}

const pagesOf = (bytes: Uint8Array) => Math.ceil(bytes.length / SPARSE_PAGE_BYTES);

describe('an .ld channel list laid out backwards, read over a ByteSource', () => {
  test('when 1,000 channel blocks run backwards (each next pointer 124 bytes lower), then the source is read at most once per page and the list parsed once', async () => {
    const bytes = backwardsLd(1_000); // 126 KB: 2 pages
    const { file, reads, bytesRead, fieldReads } = await openCounted(bytes);
    expect(file.channels).toEqual(openDataFile(bytes).channels);
    expect(file.channels).toHaveLength(1_000);
    // Before: 1,943 reads (56 MiB held), the list parsed again after each (2,000 blocks: 5,943 reads, 522 MiB, 144 s).
    expect(reads).toBeLessThanOrEqual(pagesOf(bytes) + 1); // the pages, and format detection's 8 bytes
    expect(bytesRead).toBeLessThanOrEqual(bytes.length + 8);
    // Each block's 4 u32 fields once (sample count, data pointer, next; and the head), not once per load.
    expect(fieldReads).toBeLessThan(5 * 1_000);
  });

  test('when the list (two pages) is followed by 1 MB of padding, then only the pages of the list are read', async () => {
    const bytes = backwardsLd(700, { padding: 1_000_000 });
    const { file, bytesRead } = await openCounted(bytes);
    expect(file.channels).toEqual(openDataFile(bytes).channels);
    // Before: 743 reads, 713 MiB read and held (800 blocks and 8 MB: 4.55 GiB). The list lies in the first 89 KB: two
    // pages, and a third read ahead.
    expect(bytesRead).toBeLessThanOrEqual(8 + 3 * SPARSE_PAGE_BYTES);
  });

  test('when the blocks are scattered backwards, one per page, then each page is read once, and no more bytes than the file', async () => {
    const bytes = backwardsLd(40, { stride: SPARSE_PAGE_BYTES + 124 }); // 2.6 MB
    const { file, reads, bytesRead, fieldReads } = await openCounted(bytes);
    expect(file.channels).toEqual(openDataFile(bytes).channels);
    // Before: 158 reads, 186 MiB.
    expect(reads).toBeLessThanOrEqual(pagesOf(bytes) + 1);
    expect(bytesRead).toBeLessThanOrEqual(bytes.length + 8);
    expect(fieldReads).toBeLessThan(5 * 40);
  });

  test('when a forward file is opened (Sample1.ld), then its catalogue costs one 64 KiB read, as before', async () => {
    const bytes = readFixture('Sample1.ld');
    const source = new CountingSource(bytesSource(bytes));
    const file = await openLdSource(source, { beaconTimes: [] });
    expect(file.channels).toEqual(openDataFile(bytes).channels);
    expect(source.reads).toEqual([{ offset: 0, length: SPARSE_PAGE_BYTES }]);
  });

  test('when a forward list runs past the first page, then each read takes twice the pages of the one before (as the chunks doubled before)', async () => {
    const channels = Array.from({ length: 4_000 }, (_, k) => ({ name: `Channel ${k}`, frequency: 10, samples: [k] })); // a 496 KB list
    const bytes = writeLdFile({ channels });
    const source = new CountingSource(bytesSource(bytes));
    const file = await openLdSource(source, { beaconTimes: [] });
    expect(file.channels).toEqual(openDataFile(bytes).channels);
    // The list ends in the eighth page; the last read stops at the end of the file.
    expect(source.reads.map((r) => Math.ceil(r.length / SPARSE_PAGE_BYTES))).toEqual([1, 2, 4, 2]);
  });
});

describe('the maxChannels option', () => {
  test.each([Number.NaN, -1, 2.5])('when it is %p, then a RangeError names it rather than the bound being off', async (maxChannels) => {
    const bytes = backwardsLd(3);
    expect(() => openDataFile(bytes, { maxChannels })).toThrow(RangeError);
    await expect(openDataFileFromSource(bytesSource(bytes), { maxChannels })).rejects.toThrow(/maxChannels must be a whole number/);
  });

  test('when it is 0, then any channel is over it; at the channel count the file opens', async () => {
    const bytes = backwardsLd(3);
    expect(() => openDataFile(bytes, { maxChannels: 0 })).toThrow(DataFileLimitError);
    await expect(openDataFileFromSource(bytesSource(bytes), { maxChannels: 2 })).rejects.toThrow(expect.objectContaining({ limit: 'channels', max: 2 }));
    expect((await openDataFileFromSource(bytesSource(bytes), { maxChannels: 3 })).channels).toHaveLength(3);
  });
});

/** A 10 Hz `Lap Number` that moves every `lapSamples` samples and a `Running Lap Time` restarting with it, `n` samples each. */
function lappedLd(n: number, lapSamples: number): Uint8Array {
  return writeLdFile({
    channels: [
      { name: 'Lap Number', frequency: 10, type: 'int32', samples: Array.from({ length: n }, (_, i) => Math.floor(i / lapSamples)) },
      // Restarts a sample before the counter moves (the logger decodes the beacon a sample late).
      { name: 'Running Lap Time', unit: 's', frequency: 10, type: 'float32', samples: Array.from({ length: n }, (_, i) => ((i + 1) % lapSamples) / 10) },
    ],
  });
}

describe('the laps of an .ld read over a ByteSource', () => {
  test('when its lap channel changes every sample (10,001 laps), then it is refused at the bound after a few reads, not one read of Running Lap Time per boundary', async () => {
    const bytes = lappedLd(20_002, 1); // 124 KB
    const source = new CountingSource(bytesSource(bytes));
    await expect(openDataFileFromSource(source)).rejects.toThrow(expect.objectContaining({ limit: 'laps', max: 10_000, message: 'motec-ld has more than 10000 laps; at most 10000 are read' }));
    // The sniff, the catalogue's page, the lap channel. Before: 10,003 reads.
    expect(source.reads.length).toBeLessThanOrEqual(4);
    expect(() => openDataFile(bytes)).toThrow(DataFileLimitError);
  });

  test('when it has 3,000 laps (under the bound), then Running Lap Time is read in a few runs, not once per boundary, and the laps are the whole-buffer reader\'s', async () => {
    const bytes = lappedLd(30_000, 10);
    const source = new CountingSource(bytesSource(bytes));
    const file = await openDataFileFromSource(source);
    expect(file.laps).toHaveLength(3_000);
    expect(file.laps).toEqual(openDataFile(bytes).laps);
    // Placed by Running Lap Time: each lap starts a sample before the counter moves.
    expect(file.laps[1].startTime).toBeCloseTo(0.9, 9);
    // The sniff, the catalogue, the lap channel, Running Lap Time's windows in one run. Before: 3,002 reads.
    expect(source.reads.length).toBeLessThanOrEqual(4);
  });

  test('when Sample1.ld is opened, then its laps are the whole-buffer reader\'s, with its four Running Lap Time windows in one read', async () => {
    const bytes = readFixture('Sample1.ld');
    const source = new CountingSource(bytesSource(bytes));
    const file = await openLdSource(source);
    expect(file.laps).toEqual(openDataFile(bytes).laps);
    expect(file.laps).toHaveLength(5);
    // The catalogue's page, the lap channel and Running Lap Time around its four boundaries. Before: 6 reads.
    expect(source.reads).toHaveLength(3);
  });

  test('when maxLaps is 0, then a file with laps is over it (no longer zero laps), and one without them opens', async () => {
    const bytes = lappedLd(100, 10);
    await expect(openDataFileFromSource(bytesSource(bytes), { maxLaps: 0 })).rejects.toThrow(expect.objectContaining({ limit: 'laps', max: 0 }));
    expect(() => openDataFile(bytes, { maxLaps: 0 })).toThrow(expect.objectContaining({ limit: 'laps', max: 0 }));
    const lapless = lappedLd(100, 1_000);
    expect((await openDataFileFromSource(bytesSource(lapless), { maxLaps: 0 })).laps).toEqual([]);
    expect(openDataFile(lapless, { maxLaps: 0 }).laps).toEqual([]);
  });

  test.each([Number.NaN, -1])('when maxLaps is %p, then a RangeError names it rather than the bound being off', async (maxLaps) => {
    const bytes = lappedLd(100, 10);
    await expect(openDataFileFromSource(bytesSource(bytes), { maxLaps })).rejects.toThrow(/maxLaps must be a whole number/);
    expect(() => openDataFile(bytes, { maxLaps })).toThrow(/maxLaps must be a whole number/);
  });
});
