import { type ByteSource, bytesSource, CountingSource, DataFileLimitError, openDataFile, openDataFileFromSource, openLdSource, writeLdFile } from '../src';
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

/** A piece of an .ld: `bytes` at `offset`, the rest of the file zeros. */
interface Piece {
  offset: number;
  bytes: Uint8Array;
}

/** The header and channel blocks of an .ld whose list visits `offsets` in order (empty int16 channels `c0`, `c1`, ...). */
function listLdPieces(offsets: readonly number[]): Piece[] {
  const header = new Uint8Array(HEADER.size);
  const head = new DataView(header.buffer);
  head.setUint32(HEADER.marker, 0x40, true);
  head.setUint32(HEADER.channelMetaPtr, offsets[0] ?? 0, true);
  const blocks = offsets.map((at, k) => {
    const bytes = new Uint8Array(CHANNEL.size);
    const view = new DataView(bytes.buffer);
    view.setUint32(CHANNEL.next, offsets[k + 1] ?? 0, true);
    view.setUint16(CHANNEL.typeClass, 3, true);
    view.setUint16(CHANNEL.typeSize, 2, true);
    view.setUint16(CHANNEL.frequency, 10, true);
    view.setInt16(CHANNEL.mul, 1, true);
    view.setInt16(CHANNEL.scale, 1, true);
    bytes.set(new TextEncoder().encode(`c${k}`), CHANNEL.name);
    return { offset: at, bytes };
  });
  return [{ offset: 0, bytes: header }, ...blocks].sort((a, b) => a.offset - b.offset);
}

/**
 * A ByteSource of `size` bytes, zeros but for `pieces` (in offset order, none overlapping): a file of gigabytes without
 * allocating them. Each read returns a fresh buffer of the length asked, as a blob store's ranged read does.
 */
function virtualSource(size: number, pieces: readonly Piece[]): ByteSource {
  return {
    size,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) throw new RangeError(`read of ${length} bytes at ${offset} is outside the source (${size} bytes)`);
      const out = new Uint8Array(length);
      // The first piece ending after `offset`, by binary search: a list of 20,000 blocks is read 20,000 times.
      let lo = 0;
      for (let hi = pieces.length; lo < hi; ) {
        const mid = (lo + hi) >>> 1;
        if (pieces[mid].offset + pieces[mid].bytes.length <= offset) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < pieces.length && pieces[k].offset < offset + length; k++) {
        const { offset: at, bytes } = pieces[k];
        const from = Math.max(at, offset);
        const to = Math.min(at + bytes.length, offset + length);
        out.set(bytes.subarray(from - at, to - at), from - offset);
      }
      return out;
    },
  };
}

/** The bytes of a small virtual file, for the whole-buffer reader. */
function materialise(size: number, pieces: readonly Piece[]): Uint8Array {
  const bytes = new Uint8Array(size);
  for (const { offset, bytes: piece } of pieces) bytes.set(piece, offset);
  return bytes;
}

/**
 * Block offsets where each block sits exactly at the start of the next read a view that doubles its read-ahead would
 * make (pages 1, 3, 7, ..., 127, then every 64 pages: 4 MiB), until the file ends.
 */
function chasingOffsets(size: number): number[] {
  const offsets: number[] = [];
  for (let page = 1, ahead = 2; (page + 1) * SPARSE_PAGE_BYTES <= size; page += ahead, ahead = Math.min(64, ahead * 2)) offsets.push(page * SPARSE_PAGE_BYTES);
  return offsets;
}

/** One block per page (pages 1..count), 1,000 bytes into it, the pages visited in a scrambled order (never the next one). */
function onePerPageOffsets(count: number): number[] {
  // 7,919 is prime, so k ↦ k × 7,919 mod count visits every page once when count is not a multiple of it.
  return Array.from({ length: count }, (_, k) => (1 + ((k * 7_919) % count)) * SPARSE_PAGE_BYTES + 1_000);
}

/**
 * Opens a virtual .ld, counting the reads and the bytes the view holds after each load (a view drops what it no longer
 * needs before it reads more, so this is its peak).
 */
async function openVirtual(size: number, pieces: readonly Piece[]) {
  const source = new CountingSource(virtualSource(size, pieces));
  let peakHeld = 0;
  const spies = (['load', 'advance'] as const).map((method) => {
    const original = (SparseView.prototype as unknown as Record<string, (...args: unknown[]) => Promise<void>>)[method];
    return jest.spyOn(SparseView.prototype as unknown as Record<string, (...args: unknown[]) => Promise<void>>, method).mockImplementation(async function (this: SparseView, ...args: unknown[]) {
      await original.apply(this, args);
      peakHeld = Math.max(peakHeld, this.heldBytes);
    });
  });
  try {
    const file = await openLdSource(source, { beaconTimes: [] });
    return { file, reads: source.reads.length, bytesRead: source.bytesRead, peakHeld };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/**
 * What opening a catalogue may read whatever the file's size: the header's pages, a page of grace, and four times the
 * channel blocks (124 bytes each) and the list's head pointer.
 */
const catalogueReadBound = (channels: number) => 2 * SPARSE_PAGE_BYTES + 4 * (4 + CHANNEL.size * channels);

describe('an .ld channel list placed to defeat read-ahead and paging, read over a ByteSource', () => {
  test('when each block sits where the last read ended (read-ahead doubling to 4 MiB), then the catalogue is the whole-buffer reader\'s', async () => {
    const size = 16 * MiB;
    const pieces = listLdPieces(chasingOffsets(size));
    const { file } = await openVirtual(size, pieces);
    expect(file.channels).toEqual(openDataFile(materialise(size, pieces)).channels);
    expect(file.channels).toHaveLength(9);
  });

  test.each([
    [64 * MiB, 21],
    [1 * GiB, 261],
  ])('when each block sits where the last read ended, in %p bytes (%p channels), then the bytes read and held are bounded by the channels, not the file', async (size, channels) => {
    const { file, reads, bytesRead, peakHeld } = await openVirtual(size, listLdPieces(chasingOffsets(size)));
    expect(file.channels).toHaveLength(channels);
    // Before: the 1 GiB file was read whole in 262 reads, all of it held (1,024 MiB).
    expect(reads).toBeLessThanOrEqual(channels + 2);
    expect(bytesRead).toBeLessThanOrEqual(catalogueReadBound(channels));
    expect(peakHeld).toBeLessThanOrEqual(4 * SPARSE_PAGE_BYTES);
  });

  test('when the blocks are one per page in a scrambled order, then the catalogue is the whole-buffer reader\'s', async () => {
    const count = 300;
    const size = (count + 2) * SPARSE_PAGE_BYTES;
    const pieces = listLdPieces(onePerPageOffsets(count));
    const { file } = await openVirtual(size, pieces);
    expect(file.channels).toEqual(openDataFile(materialise(size, pieces)).channels);
  });

  test.each([2_000, 20_000])('when %p blocks are one per page in a scrambled order, then each is read alone and the view holds a few pages at most', async (count) => {
    const size = (count + 2) * SPARSE_PAGE_BYTES; // 20,000 blocks: 1.25 GiB
    const { file, reads, bytesRead, peakHeld } = await openVirtual(size, listLdPieces(onePerPageOffsets(count)));
    expect(file.channels).toHaveLength(count);
    // Before: a 64 KiB page read per block and every page held (2,000 blocks: 125 MiB; 20,000: 1.25 GiB).
    expect(reads).toBeLessThanOrEqual(count + 2);
    expect(bytesRead).toBeLessThanOrEqual(catalogueReadBound(count));
    expect(peakHeld).toBeLessThanOrEqual(4 * SPARSE_PAGE_BYTES);
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

  test('when the laps over the bound come from an .ldx\'s beacons (10,000 markers: 10,001 laps), then the refusal is the .ldx\'s, in ranges and whole alike; at 9,999 markers the file opens', async () => {
    const bytes = lappedLd(20_002, 20_002); // 2,000 s, one lap by its own channel
    const ldx = (markers: number) => new TextEncoder().encode(`<LDXFile><MarkerGroup Name="Beacons">${Array.from({ length: markers }, (_, i) => `<Marker Time="${(i + 1) * 100_000}"/>`).join('')}</MarkerGroup></LDXFile>`);
    const over = expect.objectContaining({ format: 'ldx', limit: 'laps', max: 10_000, message: 'ldx has more than 10000 laps; at most 10000 are read' });
    await expect(openLdSource(bytesSource(bytes), { ldx: ldx(10_000) })).rejects.toThrow(over);
    expect(() => openDataFile(bytes, { ldx: ldx(10_000) })).toThrow(over);
    expect((await openLdSource(bytesSource(bytes), { ldx: ldx(9_999) })).laps).toHaveLength(10_000);
    expect(openDataFile(bytes, { ldx: ldx(9_999) }).laps).toHaveLength(10_000);
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

  test('when Sample1.ld is opened, then its laps are the whole-buffer reader\'s, Running Lap Time from its start and its four windows in one read', async () => {
    const bytes = readFixture('Sample1.ld');
    const source = new CountingSource(bytesSource(bytes));
    const file = await openLdSource(source);
    expect(file.laps).toEqual(openDataFile(bytes).laps);
    expect(file.laps).toHaveLength(6);
    // The catalogue's page, the lap channel and Running Lap Time from its first sample (where it starts, at 96 s) to
    // the last of its four boundaries' windows (356 samples of 2 bytes). Before: 6 reads.
    expect(source.reads).toHaveLength(3);
    expect(source.reads[2].length).toBe(356 * 2);
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
