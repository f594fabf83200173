import { openDataFile } from '../src';
import { fieldName, MAX_CHANNEL_NAME_CHARS, MAX_KEPT_NAME_CHARS, uniqueName } from '../src/model';
import { BinaryView } from '../src/binary-view';
import { buildMdf3File, buildMdf4File, type Mdf4GroupSpec, signalDataOffsets } from '../src/testing';

/**
 * MDF files a hostile writer made to grow a reader's memory or time far past their size (found by fuzzing), each built
 * here with the builders and patched where they cannot say it. Each is refused as corrupt, or read at a cost in
 * proportion to its size.
 */

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
/** A u64 field of a built file (its offsets and lengths fit in a double). */
const u64 = (bytes: Uint8Array, at: number) => Number(view(bytes).getBigUint64(at, true));
const setU64 = (bytes: Uint8Array, at: number, value: number) => view(bytes).setBigUint64(at, BigInt(value), true);
/** Link i of the MDF 4 block at `block`. */
const linkOf = (bytes: Uint8Array, block: number, i: number) => u64(bytes, block + 24 + 8 * i);
const setLink = (bytes: Uint8Array, block: number, i: number, target: number) => setU64(bytes, block + 24 + 8 * i, target);

/** Offsets of a built MDF 4 file's ##`id` blocks in file order (the builder lays its blocks back to back from byte 64, 8-byte aligned). */
function blocksOf(bytes: Uint8Array, id: string): number[] {
  const found: number[] = [];
  for (let at = 64; at + 24 <= bytes.length; at += Math.ceil(u64(bytes, at + 8) / 8) * 8) {
    if (Buffer.from(bytes.subarray(at, at + 4)).toString('latin1') === `##${id}`) found.push(at);
  }
  return found;
}

/** What `run` throws (the test fails when it throws nothing). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, none was thrown');
}

/** `n` records of a 4-byte counter 0, 1, 2, ... */
const counter = (n: number) => {
  const records = new Uint8Array(4 * n);
  for (let i = 0; i < n; i++) view(records).setUint32(4 * i, i, true);
  return records;
};
const counterGroup = (n: number, storage: Mdf4GroupSpec['storage'] = 'DT'): Mdf4GroupSpec => ({
  dataBytes: 4,
  cycleCount: n,
  records: counter(n),
  channels: [{ name: 'Count', dataType: 0, bitCount: 32, byteOffset: 0 }],
  storage,
});

describe('MDF4 data blocks that overlap', () => {
  test('when a ##DL names ##DT blocks that overlap (one nested in the data of another), then the file is refused at open as corrupt, naming both blocks', () => {
    const bytes = buildMdf4File({ groups: [counterGroup(30, 'DL')] });
    const [first, second, third] = blocksOf(bytes, 'DT');
    // The first ##DT stretched over the two after it: its data now holds their headers and records too. Nested k deep,
    // such blocks add up to about k² / 2 headers: 64 KB of them named 472 MB of records.
    const stretched = third + u64(bytes, third + 8) - first;
    setU64(bytes, first + 8, stretched);
    expect(thrown(() => openDataFile(bytes))).toMatchObject({
      code: 'CORRUPT',
      reason: `data list names blocks that overlap: the ##DT block at ${first} (${stretched} bytes) runs over the ##DT block at ${second}`,
      offset: second,
    });
  });

  test('when a ##DL names ##DT blocks that lie apart, then their records read in order', () => {
    const file = openDataFile(buildMdf4File({ groups: [counterGroup(30, 'DL')] }));
    expect(Array.from(file.readChannel('Count').samples)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});

describe('MDF4 VLSD signal data blocks that overlap', () => {
  const TIME = { name: 'time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 } as const;
  const texts = ['first', 'second', 'third', 'fourth'];
  const vlsd = () => {
    const encoded = texts.map((t) => new Uint8Array(Buffer.from(t, 'utf8')));
    const offsets = signalDataOffsets(encoded);
    const records = new Uint8Array(16 * texts.length);
    texts.forEach((_, i) => {
      view(records).setFloat64(16 * i, i / 10, true);
      view(records).setBigUint64(16 * i + 8, BigInt(offsets[i]), true);
    });
    // The builder splits the values over two ##SD blocks of one ##DL.
    return buildMdf4File({ groups: [{ dataBytes: 16, cycleCount: texts.length, records, channels: [TIME, { name: 'Text', dataType: 7, bitCount: 64, byteOffset: 8, cnType: 1, signalData: { values: encoded, storage: 'DL' } }] }] });
  };

  test('when a ##DL names ##SD blocks that overlap, then reading the channel is refused as corrupt, naming both blocks', () => {
    const bytes = vlsd();
    const [first, second] = blocksOf(bytes, 'SD');
    // Nested k deep, ##SD blocks add up to about k² / 2 headers: 257 KB of them named 793 MB of signal data.
    const stretched = second + u64(bytes, second + 8) - first;
    setU64(bytes, first + 8, stretched);
    const file = openDataFile(bytes);
    expect(thrown(() => file.readEvents('Text'))).toMatchObject({
      code: 'CORRUPT',
      reason: `signal data list names blocks that overlap: the ##SD block at ${first} (${stretched} bytes) runs over the ##SD block at ${second}`,
      offset: second,
    });
  });

  test('when a ##DL names ##SD blocks that lie apart, then each record finds its value', () => {
    const events = openDataFile(vlsd()).readEvents('Text');
    expect(texts.map((_, i) => Buffer.from(events.bytes.subarray(events.offsets[i], events.offsets[i + 1])).toString('utf8'))).toEqual(texts);
  });
});

describe('MDF4 blocks shared by many channels are parsed once', () => {
  /** `n` uint8 channels of one record, named c0, c1, ...; `first` adds to the first channel's spec. */
  const channels = (n: number, first: object = {}) => Array.from({ length: n }, (_, i) => ({ name: `c${i}`, dataType: 0, bitCount: 8, byteOffset: 0, ...(i === 0 ? first : {}) }));
  /** The ##CN blocks of the file's first channel group, in chain order. */
  const channelBlocks = (bytes: Uint8Array) => {
    const found: number[] = [];
    for (let cn = linkOf(bytes, blocksOf(bytes, 'CG')[0], 1); cn !== 0; cn = linkOf(bytes, cn, 0)) found.push(cn);
    return found;
  };

  // Decoded once per channel, 20,000 copies of 500 KB (10 GB) would not fit in the heap.
  test('when the units of 20,000 channels name one ##TX of 500 KB, then the file opens and each channel has that unit', () => {
    const unit = 'u'.repeat(500_000);
    const bytes = buildMdf4File({ groups: [{ dataBytes: 1, cycleCount: 1, records: Uint8Array.of(7), channels: channels(20_000, { unit }) }] });
    const cns = channelBlocks(bytes);
    for (const cn of cns) setLink(bytes, cn, 6, linkOf(bytes, cns[0], 6));
    const file = openDataFile(bytes);
    expect(file.channels).toHaveLength(20_000);
    expect(file.channels[19_999]?.unit).toBe(unit);
  });

  // Parsed once per channel, the table cost 4 s and 577 MB for 100 channels; 2,000 do not fit in the heap.
  test('when 2,000 channels share one value-to-text ##CC of 65,535 entries, then they share one frozen list of labels', () => {
    const keys = Array.from({ length: 0xffff }, (_, i) => i);
    const conversion = { type: 7, values: keys, texts: keys.map((k) => `state ${k}`) };
    const bytes = buildMdf4File({ groups: [{ dataBytes: 1, cycleCount: 1, records: Uint8Array.of(7), channels: channels(2000, { conversion }) }] });
    const cns = channelBlocks(bytes);
    for (const cn of cns) setLink(bytes, cn, 4, linkOf(bytes, cns[0], 4));
    const file = openDataFile(bytes);
    const labels = file.channels[0]?.labels;
    expect(labels?.[65_534]).toEqual({ min: 65_534, max: 65_534, text: 'state 65534' });
    expect(file.channels[1999]?.labels).toBe(labels);
    expect(Object.isFrozen(labels)).toBe(true);
    expect(Object.isFrozen(labels?.[0])).toBe(true);
    expect(Array.from(file.readChannel('c1999').samples)).toEqual([7]);
  });

  // Parsed once per channel, the links cost their number times the channels' (20,000 channels, 200,000 links: 72 s).
  test('when 2,000 channels name one ##CA of 20,000 links as their composition, then its links are read once: the file opens reading fewer u64 fields than it holds', () => {
    const built = buildMdf4File({ groups: [{ dataBytes: 1, cycleCount: 1, records: Uint8Array.of(7), channels: channels(2000) }] });
    // A ##CA of ca_type 1 (axes: not read) appended with 20,000 links (all nil).
    const links = 20_000;
    const length = 24 + 8 * links + 16;
    const bytes = new Uint8Array(built.length + length);
    bytes.set(built);
    const ca = built.length;
    bytes.set(Buffer.from('##CA', 'latin1'), ca);
    setU64(bytes, ca + 8, length);
    setU64(bytes, ca + 16, links);
    bytes[ca + 24 + 8 * links] = 1;
    // Every channel but the last names it.
    const cns = channelBlocks(bytes);
    for (const cn of cns.slice(0, -1)) setLink(bytes, cn, 1, ca);
    // The reader's work counted in the u64 fields it reads (links, lengths): each about once, not once per channel.
    const u64Read = BinaryView.prototype.u64;
    let reads = 0;
    BinaryView.prototype.u64 = function (this: BinaryView, ...args: Parameters<BinaryView['u64']>) {
      reads++;
      return u64Read.apply(this, args);
    };
    try {
      const file = openDataFile(bytes);
      expect(file.channels[0]?.unsupported).toMatch(/arrays of ca_type 1/);
      expect(file.channels[1998]?.unsupported).toMatch(/arrays of ca_type 1/);
      expect(Array.from(file.readChannel('c1999').samples)).toEqual([7]);
    } finally {
      BinaryView.prototype.u64 = u64Read;
    }
    expect(reads).toBeLessThan(bytes.length / 8);
  });
});

describe('MDF data groups that share their data', () => {
  /** The ##DG blocks of a built MDF 4 file, in chain order (its link 1: the channel groups; link 2: the data). */
  const dataGroups = (bytes: Uint8Array) => blocksOf(bytes, 'DG');

  // Read as their own, 20,000 data groups sharing one ##DT of 100,000 records decode them all at open (19 s), and with
  // irregular times keep each group's timestamps (2,000 groups: 1.6 GB).
  test('when two MDF4 data groups list the same ##DT, then the file is refused at open as corrupt, naming both groups', () => {
    const bytes = buildMdf4File({ groups: [counterGroup(10), counterGroup(10)] });
    const [first, second] = dataGroups(bytes);
    const dt = linkOf(bytes, first, 2);
    setLink(bytes, second, 2, dt);
    expect(thrown(() => openDataFile(bytes))).toMatchObject({ code: 'CORRUPT', reason: `the data groups at ${first} and ${second} share data: both list the ##DT block at ${dt}`, offset: dt });
  });

  test('when an MDF4 data group lists the ##DL of another, then it is refused where the lists meet', () => {
    const bytes = buildMdf4File({ groups: [counterGroup(30, 'DL'), counterGroup(10)] });
    const [first, second] = dataGroups(bytes);
    const dl = linkOf(bytes, first, 2);
    setLink(bytes, second, 2, dl);
    expect(thrown(() => openDataFile(bytes))).toMatchObject({ code: 'CORRUPT', reason: `the data groups at ${first} and ${second} share data: both list the ##DL block at ${dl}`, offset: dl });
  });

  test("when an MDF4 data group's ##DT runs over another's, then the file is refused at open as corrupt, naming both groups and blocks", () => {
    const bytes = buildMdf4File({ groups: [counterGroup(10), counterGroup(10)] });
    const [first, second] = dataGroups(bytes);
    const [one, two] = [linkOf(bytes, first, 2), linkOf(bytes, second, 2)];
    const stretched = two + u64(bytes, two + 8) - one;
    setU64(bytes, one + 8, stretched);
    expect(thrown(() => openDataFile(bytes))).toMatchObject({
      code: 'CORRUPT',
      reason: `the data groups at ${first} and ${second} share data: the ##DT block at ${one} (${stretched} bytes) runs over the ##DT block at ${two}`,
      offset: two,
    });
  });

  test('when two MDF4 data groups name the same ##CG, then the file is refused at open as corrupt, naming both groups', () => {
    const bytes = buildMdf4File({ groups: [counterGroup(10), counterGroup(10)] });
    const [first, second] = dataGroups(bytes);
    const cg = linkOf(bytes, first, 1);
    setLink(bytes, second, 1, cg);
    expect(thrown(() => openDataFile(bytes))).toMatchObject({ code: 'CORRUPT', reason: `the data groups at ${first} and ${second} share the channel group at ${cg}`, offset: cg });
  });

  // Unfinalised, the blocks the last ##DT may run into were listed by walking each data group's channel groups: 3,000
  // groups on one chain of 3,000 channel groups walked it 3,000 times (5 s) before the sharing was refused.
  test('when 300 data groups of an unfinalised MDF4 name one chain of 300 channel groups, then it is refused as corrupt (the blocks its last ##DT may run into are listed walking each chain once)', () => {
    const bytes = buildMdf4File({ groups: Array.from({ length: 300 }, () => counterGroup(1)) });
    const groups = dataGroups(bytes);
    const cgs = groups.map((dg) => linkOf(bytes, dg, 1));
    // One chain of all the channel groups (each one's link 0 to the next), named by every data group.
    cgs.forEach((cg, i) => setLink(bytes, cg, 0, cgs[i + 1] ?? 0));
    for (const dg of groups) setLink(bytes, dg, 1, cgs[0] as number);
    bytes.set(Buffer.from('UnFinMF ', 'latin1'), 0);
    view(bytes).setUint16(60, 0, true);
    expect(thrown(() => openDataFile(bytes))).toMatchObject({ code: 'CORRUPT' });
  });

  test('when MDF4 data groups keep to their own data, then each reads its own records', () => {
    const file = openDataFile(buildMdf4File({ groups: [counterGroup(10, 'DL'), counterGroup(5)] }));
    expect(file.channels.map((c) => [c.name, c.sampleCount])).toEqual([['Count', 10], ['Count (2)', 5]]);
    expect(Array.from(file.readChannel('Count (2)').samples)).toEqual([0, 1, 2, 3, 4]);
  });

  describe('MDF 3', () => {
    const HD = 64;
    const DG = { next: 4, firstCg: 8, data: 16 } as const;
    const u32 = (bytes: Uint8Array, at: number) => view(bytes).getUint32(at, true);
    const group = (n: number) => ({ recordSize: 4, cycleCount: n, records: counter(n), channels: [{ name: 'Count', dataType: 0, bitCount: 32, byteOffset: 0 }] });
    const dataGroups3 = (bytes: Uint8Array) => {
      const found: number[] = [];
      for (let dg = u32(bytes, HD + 4); dg !== 0; dg = u32(bytes, dg + DG.next)) found.push(dg);
      return found;
    };

    // Read as their own, 20,000 data groups naming one 100,000 records open in 17 s, each decoding them all.
    test("when an MDF 3 data group's records overlap another's, then the file is refused at open as corrupt, naming both groups", () => {
      const bytes = buildMdf3File({ groups: [group(10), group(10)] });
      const [first, second] = dataGroups3(bytes);
      const data = u32(bytes, first + DG.data);
      view(bytes).setUint32(second + DG.data, data + 4, true);
      expect(thrown(() => openDataFile(bytes))).toMatchObject({
        code: 'CORRUPT',
        reason: `the records of the data group at ${second} (from byte ${data + 4}) overlap those of the data group at ${first} (bytes ${data} to ${data + 40})`,
        offset: second + DG.data,
      });
    });

    test('when two MDF 3 data groups name the same CGBLOCK, then the file is refused at open as corrupt, naming both groups', () => {
      const bytes = buildMdf3File({ groups: [group(10), group(10)] });
      const [first, second] = dataGroups3(bytes);
      const cg = u32(bytes, first + DG.firstCg);
      view(bytes).setUint32(second + DG.firstCg, cg, true);
      expect(thrown(() => openDataFile(bytes))).toMatchObject({ code: 'CORRUPT', reason: `the data groups at ${first} and ${second} share the CGBLOCK at ${cg}`, offset: cg });
    });

    test('when MDF 3 data groups keep to their own records, then each reads its own', () => {
      const file = openDataFile(buildMdf3File({ groups: [group(10), group(5)] }));
      expect(Array.from(file.readChannel('Count (2)').samples)).toEqual([0, 1, 2, 3, 4]);
    });
  });
});

describe('MDF4 text channels of many empty values', () => {
  // Kept as an array each (100 to 250 bytes of heap per event), 50 million values do not fit in the heap.
  test('when a zstd ##DZ unpacks to 50 million one-byte Latin-1 values, nearly all empty, then they read as one buffer of offsets', () => {
    const n = 50_000_000;
    const records = new Uint8Array(n);
    records[1] = 0x41; // 'A'
    records[n - 1] = 0xe9; // 'é' in Latin-1
    const built = buildMdf4File({ groups: [{ dataBytes: 1, cycleCount: n, records, channels: [{ name: 'Note', dataType: 6, bitCount: 8, byteOffset: 0 }], storage: 'DZ-zstd' }] });
    // Padded, as the finding's file was, so the ##DZ stays within the file's decompression budget (64 times its size).
    const bytes = new Uint8Array(Math.ceil(n / 64) + built.length);
    bytes.set(built);
    const events = openDataFile(bytes).readEvents('Note');
    expect(events.offsets).toHaveLength(n + 1);
    expect(Buffer.from(events.bytes).toString('utf8')).toBe('Aé');
    expect([events.offsets[1], events.offsets[2], events.offsets[n - 1], events.offsets[n]]).toEqual([0, 1, 1, 3]);
  });
});

describe('channel names past what a read can name', () => {
  test('when 3,000 channels carry one 100,000-character name, then each is cut to at most 16,383 characters and they stay distinct', () => {
    const taken = new Set<string>();
    const long = 'x'.repeat(100_000);
    const names = Array.from({ length: 3000 }, () => uniqueName(long, taken));
    expect(new Set(names).size).toBe(3000);
    expect(names.every((n) => n.length <= MAX_CHANNEL_NAME_CHARS)).toBe(true);
    expect(names[0]).toBe('x'.repeat(MAX_KEPT_NAME_CHARS));
    expect(names[2]).toBe(`${'x'.repeat(MAX_KEPT_NAME_CHARS)} (3)`);
  });

  test.each([16_383, 16_368, MAX_KEPT_NAME_CHARS + 1])('when 2,000 channels carry one name of %i characters (at or just under what a read may name), then they are cut so that each, suffix included, and a cache key of it stay hashable by their characters', (length) => {
    const taken = new Set<string>();
    const names = Array.from({ length: 2000 }, () => uniqueName('y'.repeat(length), taken));
    expect(new Set(names).size).toBe(2000);
    // A name of 16,368 to 16,383 characters was kept whole, so its " (n)" copies were past 16,383: V8 hashes such a
    // string by its length alone, and 6,000 of them took minutes to open. A key of the content hash and the name too.
    expect(Math.max(...names.map((n) => n.length)) + 128).toBeLessThanOrEqual(MAX_CHANNEL_NAME_CHARS);
    expect(names[0]).toBe('y'.repeat(MAX_KEPT_NAME_CHARS));
    expect(names[1999]).toBe(`${'y'.repeat(MAX_KEPT_NAME_CHARS)} (2000)`);
    expect(uniqueName('z'.repeat(MAX_KEPT_NAME_CHARS), new Set())).toBe('z'.repeat(MAX_KEPT_NAME_CHARS));
  });

  test('when a structure with a 1,000,000-character name has 500 fields, then each field is the cut structure name and its own, distinct, at most 16,383 characters', () => {
    const fields = Array.from({ length: 500 }, (_, k) => ({ name: `f${k}`, dataType: 0, bitCount: 8, byteOffset: 0 }));
    const bytes = buildMdf4File({ groups: [{ dataBytes: 1, cycleCount: 1, records: Uint8Array.of(7), channels: [{ name: 'P'.repeat(1_000_000), dataType: 0, bitCount: 8, byteOffset: 0, fields }] }] });
    const names = openDataFile(bytes).channels.map((c) => c.name);
    expect(names).toHaveLength(501);
    expect(names.every((n) => n.length <= MAX_CHANNEL_NAME_CHARS)).toBe(true);
    // Each field keeps its own name after the structure's (cut to make room), not a " (n)" of one cut prefix.
    expect(names.slice(1, 4)).toEqual(['f0', 'f1', 'f2'].map((f) => `${'P'.repeat(MAX_KEPT_NAME_CHARS - 1 - f.length)}.${f}`));
    expect(names[500]?.endsWith('.f499')).toBe(true);
    expect(new Set(names).size).toBe(501);
  });

  test('when a field\'s own name is longer than a channel name may be, then it keeps half the room and the structure\'s name the rest', () => {
    const room = MAX_KEPT_NAME_CHARS;
    expect(fieldName('S', 'f'.repeat(100_000))).toBe(`S.${'f'.repeat(room - 2)}`);
    expect(fieldName('S'.repeat(100_000), 'f'.repeat(100_000))).toBe(`${'S'.repeat(room - 1 - Math.floor(room / 2))}.${'f'.repeat(Math.floor(room / 2))}`);
    expect(fieldName('Wheel', 'FL')).toBe('Wheel.FL');
  });

  test('when a long name is cut where a character takes two UTF-16 units, then the cut does not split it', () => {
    const name = 'a'.repeat(MAX_KEPT_NAME_CHARS - 1) + '😀' + 'b'.repeat(100);
    const cut = uniqueName(name, new Set());
    expect(cut).toBe('a'.repeat(MAX_KEPT_NAME_CHARS - 1));
    expect(uniqueName('Speed', new Set())).toBe('Speed');
  });
});
