import { CorruptDataFileError, openDataFile } from '../src';
import { buildMdf4File, type Mdf4FileSpec, type Mdf4GroupSpec, type Mdf4UnsortedSpec } from '../src/testing';
import { readFixture } from './fixtures';

/** Two groups at different rates over the same 10 s, written sorted (one data group each) or unsorted (one for all). */
function groups(fast = 1000, slow = 100): Mdf4GroupSpec[] {
  const a = new Uint8Array(fast * 11);
  const av = new DataView(a.buffer);
  for (let i = 0; i < fast; i++) {
    av.setFloat64(i * 11, i / (fast / 10), true);
    av.setInt16(i * 11 + 8, i % 7000 - 3500, true);
    av.setUint8(i * 11 + 10, i % 5 === 0 ? 1 : 0); // invalidation byte: every fifth sample a gap
  }
  const b = new Uint8Array(slow * 12);
  const bv = new DataView(b.buffer);
  for (let i = 0; i < slow; i++) {
    bv.setFloat64(i * 12, i / (slow / 10), true);
    bv.setFloat32(i * 12 + 8, i * 1.5, true);
  }
  return [
    {
      dataBytes: 10,
      invalBytes: 1,
      cycleCount: fast,
      records: a,
      channels: [
        { name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
        { name: 'Speed', unit: 'km/h', dataType: 2, bitCount: 16, byteOffset: 8, invalBitPos: 0 },
      ],
    },
    {
      dataBytes: 12,
      cycleCount: slow,
      records: b,
      channels: [
        { name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
        { name: 'Oil Temp', unit: 'degC', dataType: 4, bitCount: 32, byteOffset: 8 },
      ],
    },
  ];
}

const strings = ['P', 'pit lane', 'green flag, lap 12', ''].map((t) => new TextEncoder().encode(t));
const unsorted = (spec: Partial<Mdf4UnsortedSpec> = {}, extra: Partial<Mdf4FileSpec> = {}) =>
  buildMdf4File({ groups: groups(), unsorted: { recordIdSize: 1, vlsd: { every: 7, payloads: strings }, ...spec }, ...extra });

function expectSameAsSorted(bytes: Uint8Array): void {
  const sorted = openDataFile(buildMdf4File({ groups: groups() }));
  const file = openDataFile(bytes);
  expect(file.channels).toEqual(sorted.channels);
  expect(file.startTime).toBe(sorted.startTime);
  expect(file.duration).toBe(sorted.duration);
  for (const { name } of sorted.channels) expect(file.readChannel(name)).toEqual(sorted.readChannel(name));
}

describe('unsorted MDF4 data groups (issue 39, item 1)', () => {
  it('when a group holds every whole-byte numeric type in both byte orders, then each reads from the interleaved records as from the sorted ones', () => {
    // Unsigned, signed and float (MDF data types 0-5: even little-endian, odd big-endian) of every width they allow,
    // with values at the edges of each type, so each of the indexed reader's loops is checked against the sorted decoder.
    const kinds: { dataType: number; bitCount: number }[] = [];
    for (const dataType of [0, 1, 2, 3]) for (const bitCount of [8, 16, 32]) kinds.push({ dataType, bitCount });
    for (const dataType of [4, 5]) for (const bitCount of [32, 64]) kinds.push({ dataType, bitCount });
    const size = 8 + kinds.reduce((sum, k) => sum + k.bitCount / 8, 0);
    const n = 300;
    const records = new Uint8Array(n * size);
    const v = new DataView(records.buffer);
    for (let i = 0; i < n; i++) {
      let at = i * size;
      v.setFloat64(at, i / 100, true);
      at += 8;
      for (const { dataType, bitCount } of kinds) {
        const little = dataType % 2 === 0;
        const x = (i * 2654435761) >>> 0; // spread over the whole range of each width
        if (dataType <= 1) {
          if (bitCount === 8) v.setUint8(at, x & 0xff);
          else if (bitCount === 16) v.setUint16(at, x & 0xffff, little);
          else v.setUint32(at, x, little);
        } else if (dataType <= 3) {
          if (bitCount === 8) v.setInt8(at, (x & 0xff) - 128);
          else if (bitCount === 16) v.setInt16(at, (x & 0xffff) - 32768, little);
          else v.setInt32(at, x | 0, little);
        } else if (bitCount === 32) v.setFloat32(at, Math.sin(i) * 1e5, little);
        else v.setFloat64(at, Math.cos(i) * 1e300, little);
        at += bitCount / 8;
      }
    }
    let offset = 8;
    const channels: Mdf4GroupSpec['channels'] = [{ name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 }];
    for (const { dataType, bitCount } of kinds) {
      channels.push({ name: `t${dataType}_${bitCount}`, dataType, bitCount, byteOffset: offset });
      offset += bitCount / 8;
    }
    const typed: Mdf4GroupSpec[] = [{ dataBytes: size, cycleCount: n, records, channels }, groups(100, 50)[1] as Mdf4GroupSpec];
    const sorted = openDataFile(buildMdf4File({ groups: typed }));
    const file = openDataFile(buildMdf4File({ groups: typed, unsorted: { recordIdSize: 1, vlsd: { every: 3, payloads: strings } } }));
    expect(file.channels).toEqual(sorted.channels);
    for (const { name } of sorted.channels) {
      const read = file.readChannel(name);
      expect(read).toEqual(sorted.readChannel(name));
      expect(read.samples.some((x) => x !== 0)).toBe(true);
    }
  });

  it.each([1, 2, 4, 8] as const)('when records of two groups and VLSD records are interleaved behind %d-byte record ids, then every channel reads as the sorted file does', (recordIdSize) => {
    expectSameAsSorted(unsorted({ recordIdSize }));
  });

  it.each(['DZ', 'DL', 'DZ-zstd', 'DZ-lz4', 'HL'] as const)('when the interleaved records are stored as %s (records may span blocks), then they read the same', (storage) => {
    expectSameAsSorted(unsorted({ storage }));
  });

  it('when there is no VLSD group, then the records read the same', () => {
    expectSameAsSorted(buildMdf4File({ groups: groups(), unsorted: { recordIdSize: 2 } }));
  });

  it('when the groups are catalogued, then each keeps its rate, its count and its gaps', () => {
    const file = openDataFile(unsorted());
    expect(file.channels.map((c) => [c.name, c.frequency, c.sampleCount, c.regular])).toEqual([
      ['Speed', 100, 1000, true],
      ['Oil Temp', 10, 100, true],
    ]);
    const speed = file.readChannel('Speed');
    expect(Array.from(speed.gaps?.subarray(0, 6) ?? [])).toEqual([1, 0, 0, 0, 0, 1]);
    expect(speed.samples[1]).toBe(-3499);
    expect(file.readChannel('Oil Temp').samples[99]).toBe(148.5);
  });

  it('when a record id names no channel group, then the file is corrupt naming the id', () => {
    const bytes = unsorted({ recordIdSize: 2, vlsd: undefined });
    const data = Buffer.from(bytes).indexOf('##DT') + 24;
    new DataView(bytes.buffer).setUint16(data, 9, true); // the first record's id
    expect(() => openDataFile(bytes)).toThrow(CorruptDataFileError);
    expect(() => openDataFile(bytes)).toThrow(/record id 9 at byte 0 of the data names no channel group/);
  });

  it('when a VLSD record claims more bytes than the data has, then the file is corrupt', () => {
    const bytes = unsorted();
    const data = Buffer.from(bytes).indexOf('##DT') + 24;
    // The first VLSD record follows seven fixed records: find it by walking, as a reader would.
    let p = 0;
    for (let r = 0; r < 7; r++) p += 1 + (bytes[data + p] === 1 ? 11 : 12);
    expect(bytes[data + p]).toBe(3);
    new DataView(bytes.buffer).setUint32(data + p + 1, 0x7fffffff, true);
    expect(() => openDataFile(bytes)).toThrow(/runs past its end/);
  });

  it('when a group declares more records than its data holds, then the file is corrupt', () => {
    const bytes = unsorted();
    const cg = Buffer.from(bytes).indexOf('##CG');
    new DataView(bytes.buffer).setBigUint64(cg + 24 + 6 * 8 + 8, 1001n, true);
    expect(() => openDataFile(bytes)).toThrow(/the data holds 1000 records of channel group 1, its ##CG declares 1001/);
  });

  it('when each group\'s declared records fit the data alone but not together, then the file is corrupt before any position list is made', () => {
    const bytes = unsorted({ recordIdSize: 1, vlsd: undefined });
    const text = Buffer.from(bytes);
    const second = text.indexOf('##CG', text.indexOf('##CG') + 4);
    // 1,000 records of 13 bytes (13,000) fit the 13,300 bytes of data alone; with the first group's 12,000 they do not.
    new DataView(bytes.buffer).setBigUint64(second + 24 + 6 * 8 + 8, 1000n, true);
    expect(() => openDataFile(bytes)).toThrow(new CorruptDataFileError('mdf4', 'data blocks hold 13300 bytes, the records its channel groups declare up to group 2 need 25000', second + 24 + 6 * 8 + 8));
  });

  describe('when a group\'s data bytes and invalidation bytes add up past 4 GiB (an index of 32-bit sizes saw 11-byte records)', () => {
    /** The unsorted file with channel group 1 (Speed) declaring 0xffffffff data bytes and 12 invalidation bytes, Speed at byte 1000. */
    const oversized = (cycleCount?: bigint) => {
      const bytes = unsorted({ recordIdSize: 1, vlsd: undefined });
      const v = new DataView(bytes.buffer);
      const text = Buffer.from(bytes);
      const cg = text.indexOf('##CG') + 24 + 6 * 8;
      v.setUint32(cg + 24, 0xffffffff, true);
      v.setUint32(cg + 28, 12, true);
      if (cycleCount !== undefined) v.setBigUint64(cg + 8, cycleCount, true);
      const speed = text.indexOf('##CN', text.indexOf('##CN') + 4) + 24 + 8 * 8;
      v.setUint32(speed + 4, 1000, true);
      return bytes;
    };

    it('when the group declares records, then the file is corrupt: they cannot fit in the data', () => {
      const bytes = oversized();
      expect(() => openDataFile(bytes)).toThrow(CorruptDataFileError);
      expect(() => openDataFile(bytes)).toThrow(/data blocks hold 13300 bytes, 1000 records of channel group 1 \(4294967307 bytes each after a 1-byte record id\) need more/);
    });

    it('when the group declares none, then its first record in the data runs past the end, at its real size', () => {
      const bytes = oversized(0n);
      expect(() => openDataFile(bytes)).toThrow(CorruptDataFileError);
      expect(() => openDataFile(bytes)).toThrow(/a record of 4294967307 bytes at byte 0 of the data runs past its end \(13300 bytes\)/);
    });
  });

  it('when a data group has several channel groups but no record ids, then the file is corrupt', () => {
    const bytes = unsorted();
    bytes[Buffer.from(bytes).indexOf('##DG') + 24 + 4 * 8] = 0;
    expect(() => openDataFile(bytes)).toThrow(/2 channel groups but no record ids|3 channel groups but no record ids/);
  });

  it('when the unsorted file is the zstd fixture rewritten unsorted, then its values are the fixture\'s', () => {
    const fixture = openDataFile(readFixture('f14_430_zstd.mf4'));
    const n = 20_000;
    const records = new Uint8Array(n * 18);
    const v = new DataView(records.buffer);
    const sine = fixture.readChannel('z_f64').samples;
    const index = fixture.readChannel('z_i16').samples;
    for (let i = 0; i < n; i++) {
      v.setFloat64(i * 18, i / 1000, true);
      v.setFloat64(i * 18 + 8, sine[i], true);
      v.setInt16(i * 18 + 16, index[i], true);
    }
    const group = (name: string): Mdf4GroupSpec => ({
      dataBytes: 18,
      cycleCount: n,
      records,
      channels: [
        { name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
        { name: `${name}_f64`, dataType: 4, bitCount: 64, byteOffset: 8 },
        { name: `${name}_i16`, dataType: 2, bitCount: 16, byteOffset: 16 },
      ],
    });
    const file = openDataFile(buildMdf4File({ groups: [group('a'), group('b')], unsorted: { recordIdSize: 1, vlsd: { every: 3, payloads: strings }, storage: 'DZ-lz4-transposed' } }));
    expect(file.readChannel('b_f64').samples).toEqual(sine.slice(0, n));
    expect(file.readChannel('a_i16').samples).toEqual(index.slice(0, n));
  });
});
