import { bytesSource, openDataFile, openDataFileFromSource, physicalChannel, UnsupportedFeatureError } from '../src';
import { buildMdf3File, type Mdf3ChannelSpec, type Mdf3FileSpec, type Mdf3GroupSpec } from '../src/testing';
import { openMdf3, writeRecords } from './built-files';
import { readFixture, sha256, SHA256 } from './fixtures';

describe('MDF 3 reader', () => {
  describe('f11_v330.mdf (MDF 3.30 written by asammdf)', () => {
    const bytes = readFixture('f11_v330.mdf');
    const file = openDataFile(bytes);

    it('when the fixture is opened, then it is the file SOURCES.md describes', () => {
      expect(sha256(bytes)).toBe(SHA256['f11_v330.mdf']);
      expect(file.format).toBe('mdf3');
      expect([file.startTime, file.duration]).toEqual([0, 5]);
      expect(file.properties).toMatchObject({ outingTime: '1980-01-01T00:00:00.000Z', comment: 'Sat Nov 28 10:33:03 2026: updated by asammdf 8.8.9' });
    });

    it('when its catalogue is read, then the master is the time base and not a channel', () => {
      expect(file.channels).toEqual([
        { name: 'v3_f64', unit: 'V', frequency: 100, regular: true, sampleCount: 500, dimension: 1, dataType: 'float64' },
        { name: 'v3_i16', unit: '', frequency: 100, regular: true, sampleCount: 500, dimension: 1, dataType: 'int16' },
      ]);
    });

    it('when its channels are read, then they are sin(t) in V and the sample index, at 100 Hz from 0', () => {
      const sine = file.readChannel('v3_f64');
      expect(sine.time).toEqual({ kind: 'implicit', start: 0, frequency: 100 });
      expect(sine.samples).toBeInstanceOf(Float64Array);
      for (const i of [0, 1, 137, 499]) expect(sine.samples[i]).toBeCloseTo(Math.sin(i / 100), 12);
      const index = file.readChannel('v3_i16');
      expect(index.samples).toBeInstanceOf(Float32Array); // int16, identity: exact in float32
      expect(Array.from(index.samples)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    });

    it('when it is opened over a ByteSource, then a range of a channel reads as the same samples', async () => {
      const source = await openDataFileFromSource(bytesSource(bytes));
      expect(source.format).toBe('mdf3');
      const stored = await source.readStored('v3_i16', { from: 100, to: 105 });
      const slice = physicalChannel(stored);
      expect(Array.from(slice.samples)).toEqual([100, 101, 102, 103, 104]);
      expect(slice.time).toEqual({ kind: 'implicit', start: 1, frequency: 100 });
    });
  });

  describe('numeric types of both byte orders and bit fields', () => {
    const N = 40;
    const SIZE = 53;
    /** One record per sample i, written with DataView in the byte order each type names; expected values beside. */
    function records(defaultBigEndian: boolean): Uint8Array {
      return writeRecords(N, SIZE, (v, o, i) => {
        v.setFloat64(o, i / 10, !defaultBigEndian); // time, type 3: default byte order
        v.setUint16(o + 8, i * 1000, !defaultBigEndian); // 0
        v.setInt16(o + 10, -i * 700, !defaultBigEndian); // 1
        v.setFloat32(o + 12, i / 4, !defaultBigEndian); // 2
        v.setUint32(o + 16, i * 100_000, false); // 9
        v.setInt32(o + 20, -i * 100_000, false); // 10
        v.setFloat32(o + 24, -i / 8, false); // 11
        v.setFloat64(o + 28, i / 3, false); // 12
        v.setUint16(o + 36, i * 3, true); // 13
        v.setInt8(o + 38, -i); // 14 (8 bits)
        v.setFloat32(o + 39, i * 1.5, true); // 15, unaligned
        v.setFloat64(o + 43, -i / 7, true); // 16
        v.setUint16(o + 51, (((i * 37) & 0xfff) << 4) | (i % 16), true); // uint12 at bit 4, int4 at bit 0 (Intel)
      });
    }
    const channels = (bigEndian: boolean): Mdf3ChannelSpec[] => [
      { name: 'time', unit: 's', dataType: 3, bitCount: 64, byteOffset: 0, master: true },
      { name: 'uint16 default', dataType: 0, bitCount: 16, byteOffset: 8 },
      { name: 'int16 default', dataType: 1, bitCount: 16, byteOffset: 10 },
      { name: 'float default', dataType: 2, bitCount: 32, byteOffset: 12 },
      { name: 'uint32 Motorola', dataType: 9, bitCount: 32, byteOffset: 16 },
      { name: 'int32 Motorola', dataType: 10, bitCount: 32, byteOffset: 20 },
      { name: 'float Motorola', dataType: 11, bitCount: 32, byteOffset: 24 },
      { name: 'double Motorola', dataType: 12, bitCount: 64, byteOffset: 28 },
      { name: 'uint16 Intel', dataType: 13, bitCount: 16, byteOffset: 36 },
      { name: 'int8 Intel', dataType: 14, bitCount: 8, byteOffset: 38 },
      { name: 'float Intel', dataType: 15, bitCount: 32, byteOffset: 39 },
      { name: 'double Intel', dataType: 16, bitCount: 64, byteOffset: 43 },
      { name: 'uint12 at bit 4', dataType: 13, bitCount: 12, byteOffset: 51, bitOffset: 4 },
      { name: 'int4 at bit 0', dataType: bigEndian ? 14 : 1, bitCount: 4, byteOffset: 51 },
    ];
    const expected: Record<string, (i: number) => number> = {
      'uint16 default': (i) => i * 1000,
      'int16 default': (i) => -i * 700,
      'float default': (i) => i / 4,
      'uint32 Motorola': (i) => i * 100_000,
      'int32 Motorola': (i) => -i * 100_000,
      'float Motorola': (i) => -i / 8,
      'double Motorola': (i) => i / 3,
      'uint16 Intel': (i) => i * 3,
      'int8 Intel': (i) => -i,
      'float Intel': (i) => i * 1.5,
      'double Intel': (i) => -i / 7,
      'uint12 at bit 4': (i) => (i * 37) & 0xfff,
      'int4 at bit 0': (i) => (i % 16 >= 8 ? (i % 16) - 16 : i % 16),
    };

    it.each([
      ['little-endian (Intel)', 0 as const],
      ['big-endian (Motorola)', 1 as const],
    ])('when the IDBLOCK default byte order is %s, then every type reads as written', (_, byteOrder) => {
      const file = openMdf3({ byteOrder, groups: [{ recordSize: SIZE, cycleCount: N, records: records(byteOrder === 1), channels: channels(byteOrder === 1) }] });
      expect(file.channels.find((c) => c.name === 'time')).toBeUndefined();
      expect(file.channels.map((c) => c.dataType)).toEqual(['uint16', 'int16', 'float32', 'uint32', 'int32', 'float32', 'float64', 'uint16', 'int8', 'float32', 'float64', 'uint12', 'int4']);
      for (const [name, value] of Object.entries(expected)) {
        const data = file.readChannel(name);
        expect(data.time).toEqual({ kind: 'implicit', start: 0, frequency: 10 });
        // -0 and 0 are one value here (floats store the sign of zero, integers cannot).
        expect([name, Array.from(data.samples, (x) => x + 0)]).toEqual([name, Array.from({ length: N }, (_, i) => (Math.fround(value(i)) === value(i) ? value(i) + 0 : expect.closeTo(value(i), 12)))]);
      }
    });

    it('when a Motorola integer is a bit field, then its bits are counted from the least significant bit of the big-endian value', () => {
      const bytes = writeRecords(N, 3, (v, o, i) => v.setUint16(o + 1, (((i * 13) & 0x3ff) << 3) | 5, false));
      const file = openMdf3({ groups: [{ recordSize: 3, cycleCount: N, records: bytes, channels: [{ name: 'be10', dataType: 9, bitCount: 10, byteOffset: 1, bitOffset: 3 }] }] });
      expect(Array.from(file.readChannel('be10').samples)).toEqual(Array.from({ length: N }, (_, i) => (i * 13) & 0x3ff));
    });
  });

  describe('conversions', () => {
    const N = 12;
    /** One int16 raw value per record, i * 10 - 20, and a uint8 beside it, i. */
    const raw = (i: number) => i * 10 - 20;
    function group(channels: Mdf3ChannelSpec[]): Mdf3GroupSpec {
      const records = writeRecords(N, 3, (v, o, i) => {
        v.setInt16(o, raw(i), true);
        v.setUint8(o + 2, i);
      });
      return { recordSize: 3, cycleCount: N, records, channels };
    }
    const int16 = (name: string, conversion: Mdf3ChannelSpec['conversion'], unit?: string): Mdf3ChannelSpec => ({ name, dataType: 1, bitCount: 16, byteOffset: 0, conversion, ...(unit ? { unit } : {}) });
    const P = [2, 3, 0.5, 0.25, 1, 4]; // P1..P6
    const file = openMdf3({
      groups: [
        group([
          int16('1:1', { type: 65535 }, 'km/h'),
          int16('linear', { type: 0, values: [-40, 0.5] }, 'degC'),
          int16('table interpolated', { type: 1, values: [-20, 0, 0, 100, 100, 150] }),
          int16('table', { type: 2, values: [-20, 0, 0, 100, 100, 150] }),
          int16('polynomial', { type: 6, values: P }),
          int16('exponential', { type: 7, values: [0.5, 2, 1, 0, 0, 1, -25] }),
          int16('logarithmic', { type: 8, values: [0, 0, 100, 1, 3, 1, -30] }),
          int16('rational', { type: 9, values: [0, 2, 1, 0, 0, 4] }),
          int16('formula', { type: 10, formula: 'X1 * 2 + 1' }),
          { name: 'gear', dataType: 0, bitCount: 8, byteOffset: 2, conversion: { type: 11, values: [0, 1, 2], texts: ['neutral', 'first', 'second'] } },
          { name: 'band', dataType: 0, bitCount: 8, byteOffset: 2, conversion: { type: 12, values: [0, 3, 4, 7], texts: ['other', 'low', 'high'] } },
          int16('date', { type: 132, values: [] }),
        ]),
      ],
    });
    const values = (name: string) => Array.from(file.readChannel(name).samples);
    const xs = Array.from({ length: N }, (_, i) => raw(i));

    it('when a channel has a 1:1 or linear conversion, then its unit is the CCBLOCK\'s and the linear one is x·P2 + P1', () => {
      expect(file.channels.slice(0, 2).map((c) => [c.name, c.unit])).toEqual([['1:1', 'km/h'], ['linear', 'degC']]);
      expect(values('1:1')).toEqual(xs);
      expect(values('linear')).toEqual(xs.map((x) => x * 0.5 - 40));
    });

    it('when a channel has a table, then it interpolates between keys (type 1) or takes the nearest key (type 2), the end values outside', () => {
      expect(values('table interpolated')).toEqual(xs.map((x) => (x <= -20 ? 0 : x >= 100 ? 150 : x <= 0 ? (x + 20) * 5 : 100 + x / 2)));
      expect(values('table')).toEqual(xs.map((x) => (x <= -10 ? 0 : x <= 50 ? 100 : 150)));
    });

    it('when a channel has a polynomial, exponential, logarithmic or rational conversion, then it is the MDF 3 formula of its parameters', () => {
      const [p1, p2, p3, p4, p5, p6] = P;
      expect(values('polynomial')).toEqual(xs.map((x) => (p2 - p4 * (x - p5 - p6)) / (p3 * (x - p5 - p6) - p1)));
      // P4 = 0: exp(((x - P7)·P6 - P3) / P1) / P2; P1 = 0: ln((P3 / (x - P7) - P6) / P4) / P5.
      expect(values('exponential')).toEqual(xs.map((x) => Math.exp(((x + 25) * 1 - 1) / 0.5) / 2));
      expect(values('logarithmic')).toEqual(xs.map((x) => Math.log((100 / (x + 30) - 1) / 1) / 3));
      expect(values('rational')).toEqual(xs.map((x) => (2 * x + 1) / 4));
    });

    it('when a channel has a text formula (cc 10) or a date conversion, then it is listed and refused by itself, naming the conversion', () => {
      expect(file.channels.find((c) => c.name === 'formula')?.unsupported).toBe('ASAM-MCD2 text formula conversion (cc_type 10)');
      expect(() => file.readChannel('formula')).toThrow(UnsupportedFeatureError);
      expect(() => file.readChannel('formula')).toThrow('unsupported mdf3 feature: ASAM-MCD2 text formula conversion (cc_type 10)');
      expect(() => file.readChannel('date')).toThrow('date conversion (cc_type 132)');
      expect(values('linear')).toHaveLength(N);
    });

    it('when a channel has a text table or a text range table, then its samples are the raw codes and the catalogue carries the texts', () => {
      const gear = file.channels.find((c) => c.name === 'gear');
      expect(gear).toMatchObject({ dataType: 'uint8', labels: [{ min: 0, max: 0, text: 'neutral' }, { min: 1, max: 1, text: 'first' }, { min: 2, max: 2, text: 'second' }] });
      expect(gear?.defaultLabel).toBeUndefined();
      expect(file.channels.find((c) => c.name === 'band')).toMatchObject({ labels: [{ min: 0, max: 3, text: 'low' }, { min: 4, max: 7, text: 'high' }], defaultLabel: 'other' });
      expect(values('gear')).toEqual(Array.from({ length: N }, (_, i) => i));
    });
  });

  describe('3.00 to 3.30', () => {
    const records = Uint8Array.from({ length: 8 }, (_, i) => i);
    const spec = (over: Partial<Mdf3FileSpec>, channel: Partial<Mdf3ChannelSpec> = {}): Mdf3FileSpec => ({
      ...over,
      groups: [{ recordSize: 2, cycleCount: 4, records, channels: [{ name: 'Wheel speed front left (long name)', dataType: 13, bitCount: 8, byteOffset: 1, ...channel }] }],
    });

    it('when the file is 3.00 (no HDBLOCK timestamp, 24-byte DGBLOCK, 26-byte CGBLOCK), then it reads, its start the local date and time', () => {
      const file = openMdf3(spec({ version: '3.00', date: '05:06:2024', time: '14:15:16', subject: 'Car 7' }));
      expect(file.properties).toMatchObject({ outingTime: '2024-06-05T14:15:16', carId: 'Car 7' });
      // The 32-byte short name holds 31 characters and its NUL.
      expect(file.channels.map((c) => c.name)).toEqual(['Wheel speed front left (long na']);
      expect(Array.from(file.readChannel('Wheel speed front left (long na').samples)).toEqual([1, 3, 5, 7]);
    });

    it('when the file is 3.30 with a start timestamp, then the start is that instant in UTC', () => {
      const file = openMdf3(spec({ version: '3.30', timestampNs: 1_700_000_000_123_000_000n }));
      expect(file.properties.outingTime).toBe('2023-11-14T22:13:20.123Z');
    });

    it('when a name is longer than the 32-byte short name, then the long name TXBLOCK is the name, as asammdf reads it', () => {
      const file = openMdf3(spec({ cnBlockSize: 222 }, { longName: true }));
      expect(file.channels.map((c) => c.name)).toEqual(['Wheel speed front left (long name)']);
    });

    it('when a channel has a display name, then it is not its name (only a fallback for an unnamed channel)', () => {
      const named = openMdf3(spec({}, { name: 'WSFL', displayName: 'Wheel speed FL' }));
      expect(named.channels.map((c) => c.name)).toEqual(['WSFL']);
      const unnamed = openMdf3(spec({}, { name: '', displayName: 'Wheel speed FL' }));
      expect(unnamed.channels.map((c) => c.name)).toEqual(['Wheel speed FL']);
    });

    it('when the byte offset is in the additional byte offset field (228-byte CNBLOCK), then it counts with the start bit', () => {
      const file = openMdf3(spec({}, { name: 'extra', additionalByteOffset: true }));
      expect(Array.from(file.readChannel('extra').samples)).toEqual([1, 3, 5, 7]);
    });

    it('when the CNBLOCK is the 218-byte one of old writers, then the short name is the name', () => {
      const file = openMdf3(spec({ version: '3.00', cnBlockSize: 218 }, { name: 'short' }));
      expect(file.channels.map((c) => c.name)).toEqual(['short']);
    });

    it('when the file is MDF 2.x, then it is refused naming its version (not as MDF 4)', () => {
      const bytes = buildMdf3File(spec({ version: '2.14' }));
      expect(() => openDataFile(bytes)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', format: 'mdf3', feature: 'MDF version 2.14 (MDF 3.x and 4.x are read)' }));
    });
  });

  describe('data groups', () => {
    const N = 5;
    const bytes = Uint8Array.from({ length: N * 2 }, (_, k) => (k % 2 === 0 ? k / 2 : 100 + k));
    const channels: Mdf3ChannelSpec[] = [
      { name: 't', dataType: 0, bitCount: 8, byteOffset: 0, master: true, conversion: { type: 0, values: [10, 0.5] } },
      { name: 'v', dataType: 0, bitCount: 8, byteOffset: 1 },
    ];

    it.each([1, 2] as const)('when a sorted group\'s records carry %i record id(s), then the ids are skipped', (recordIds) => {
      const file = openMdf3({ groups: [{ recordSize: 2, cycleCount: N, records: bytes, channels, recordIds }] });
      expect(file.startTime).toBe(10);
      expect(file.readChannel('v').time).toEqual({ kind: 'implicit', start: 10, frequency: 2 });
      expect(Array.from(file.readChannel('v').samples)).toEqual([101, 103, 105, 107, 109]);
    });

    it('when a data group holds several channel groups (unsorted), then its channels are refused by name, and a file of only those is refused', () => {
      const sorted = { recordSize: 2, cycleCount: N, records: bytes, channels };
      const mixed = openMdf3({ groups: [sorted, { ...sorted, channels: [{ name: 'u', dataType: 0, bitCount: 8, byteOffset: 1 }], unsorted: true, recordIds: 1 }] });
      expect(mixed.channels.map((c) => [c.name, c.unsupported])).toEqual([['v', undefined], ['u', 'unsorted data groups (several channel groups in one data group)']]);
      expect(() => mixed.readChannel('u')).toThrow(UnsupportedFeatureError);
      expect(() => openMdf3({ groups: [{ ...sorted, unsorted: true, recordIds: 1 }] })).toThrow(/unsupported mdf3 feature: unsorted data groups/);
    });

    it('when a group has no master channel, then the record index is its time at 1 Hz', () => {
      const file = openMdf3({ groups: [{ recordSize: 2, cycleCount: N, records: bytes, channels: [channels[1] as Mdf3ChannelSpec] }] });
      expect(file.readChannel('v').time).toEqual({ kind: 'implicit', start: 0, frequency: 1 });
      expect(file.duration).toBe(N);
    });
  });
});
