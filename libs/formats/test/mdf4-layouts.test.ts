import { UnsupportedFeatureError } from '../src';
import { type Mdf4ChannelSpec, type Mdf4GroupSpec } from '../src/testing';
import { openMdf4, writeRecords } from './built-files';

/** Record layout written byte by byte with DataView; expected values come from the same formulas, not the reader. */
const N = 250;
const DATA_BYTES = 48;
const RECORD = DATA_BYTES + 1;

function halfBits(value: number): number {
  // Exact for the multiples of 0.5 below 32 used here: 1.m × 2^e with a 10-bit mantissa.
  if (value === 0) return 0;
  const e = Math.floor(Math.log2(value));
  return ((e + 15) << 10) | Math.round((value / 2 ** e - 1) * 1024);
}

const expected: Record<string, (i: number) => number> = {
  u8: (i) => i & 0xff,
  i8: (i) => (i % 200) - 100,
  'u16 BE': (i) => i * 3,
  'i16 LE': (i) => -i * 7,
  'i32 BE': (i) => i * -100000,
  'u32 LE': (i) => (i * 1000003) >>> 0,
  'i64 LE': (i) => -i * 2 ** 40,
  'u64 BE': (i) => i * 2 ** 33,
  'f32 BE': (i) => i / 4,
  'f16 LE': (i) => (i % 64) * 0.5,
  'uint12 at bit 4': (i) => (i * 37) & 0xfff,
  'int4 at bit 0': (i) => ((i % 16) >= 8 ? (i % 16) - 16 : i % 16),
  linear: (i) => -i * 7 * 0.5 + 1,
  'table interpolated': (i) => ((i & 0xff) <= 100 ? (i & 0xff) / 10 : (i & 0xff) <= 200 ? 10 + (((i & 0xff) - 100) * 30) / 100 : 40),
  'table nearest': (i) => ((i & 0xff) <= 50 ? 0 : (i & 0xff) <= 150 ? 10 : 40),
  'range to value': (i) => (i / 4 < 10 ? 1 : i / 4 < 20 ? 2 : -1),
  'value to text': (i) => i & 0xff,
  'i16 with gaps': (i) => (i % 5 === 0 ? NaN : -i * 7),
};

function records(): Uint8Array {
  return writeRecords(N, RECORD, (v, o, i) => {
    v.setFloat64(o, i * 0.01, true);
    v.setUint8(o + 8, i & 0xff);
    v.setInt8(o + 9, (i % 200) - 100);
    v.setUint16(o + 10, i * 3, false);
    v.setInt16(o + 12, -i * 7, true);
    v.setInt32(o + 14, i * -100000, false);
    v.setUint32(o + 18, (i * 1000003) >>> 0, true);
    v.setBigInt64(o + 22, BigInt(-i) * 2n ** 40n, true);
    v.setBigUint64(o + 30, BigInt(i) * 2n ** 33n, false);
    v.setFloat32(o + 38, i / 4, false);
    v.setUint16(o + 42, halfBits((i % 64) * 0.5), true);
    v.setUint16(o + 44, (((i * 37) & 0xfff) << 4) | (i % 16), true);
    v.setUint8(o + DATA_BYTES, i % 5 === 0 ? 1 : 0);
  });
}

const channels: Mdf4ChannelSpec[] = [
  { name: 'time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
  { name: 'u8', dataType: 0, bitCount: 8, byteOffset: 8 },
  { name: 'i8', dataType: 2, bitCount: 8, byteOffset: 9 },
  { name: 'u16 BE', dataType: 1, bitCount: 16, byteOffset: 10 },
  { name: 'i16 LE', unit: 'N', dataType: 2, bitCount: 16, byteOffset: 12 },
  { name: 'i32 BE', dataType: 3, bitCount: 32, byteOffset: 14 },
  { name: 'u32 LE', dataType: 0, bitCount: 32, byteOffset: 18 },
  { name: 'i64 LE', dataType: 2, bitCount: 64, byteOffset: 22 },
  { name: 'u64 BE', dataType: 1, bitCount: 64, byteOffset: 30 },
  { name: 'f32 BE', dataType: 5, bitCount: 32, byteOffset: 38 },
  { name: 'f16 LE', dataType: 4, bitCount: 16, byteOffset: 42 },
  { name: 'uint12 at bit 4', dataType: 0, bitCount: 12, byteOffset: 44, bitOffset: 4 },
  { name: 'int4 at bit 0', dataType: 2, bitCount: 4, byteOffset: 44 },
  { name: 'linear', dataType: 2, bitCount: 16, byteOffset: 12, conversion: { type: 1, values: [1, 0.5] } },
  { name: 'table interpolated', dataType: 0, bitCount: 8, byteOffset: 8, conversion: { type: 4, values: [0, 0, 100, 10, 200, 40] } },
  { name: 'table nearest', dataType: 0, bitCount: 8, byteOffset: 8, conversion: { type: 5, values: [0, 0, 100, 10, 200, 40] } },
  { name: 'range to value', dataType: 5, bitCount: 32, byteOffset: 38, conversion: { type: 6, values: [0, 10, 1, 10, 20, 2, -1] } },
  { name: 'value to text', dataType: 0, bitCount: 8, byteOffset: 8, conversion: { type: 7, values: [0, 1], texts: ['zero', 'one', 'other'] } },
  { name: 'i16 with gaps', dataType: 2, bitCount: 16, byteOffset: 12, invalBitPos: 0 },
];

const group = (storage: Mdf4GroupSpec['storage'], extra: Partial<Mdf4GroupSpec> = {}): Mdf4GroupSpec => ({
  dataBytes: DATA_BYTES,
  invalBytes: 1,
  cycleCount: N,
  records: records(),
  channels,
  storage,
  ...extra,
});

describe('MDF 4 layouts, widths, byte orders and conversions (built files)', () => {
  it.each(['DT', 'DZ', 'DZ-transposed', 'DL', 'DL-DZ', 'HL', 'DZ-zstd', 'DZ-zstd-transposed', 'DZ-lz4', 'DZ-lz4-transposed', 'DL-DZ-lz4'] as const)('when records are stored as %s, then every channel decodes to its written values', (storage) => {
    const file = openMdf4({ groups: [group(storage)] });
    expect(file.channels.map((c) => c.name)).toEqual(Object.keys(expected));
    for (const [name, value] of Object.entries(expected)) {
      const data = file.readChannel(name);
      expect(data.samples).toHaveLength(N);
      for (let i = 0; i < N; i++) {
        if (Number.isNaN(value(i))) expect(data.samples[i]).toBeNaN();
        else if (data.samples[i] !== value(i)) throw new Error(`${storage} ${name}[${i}] = ${data.samples[i]}, expected ${value(i)}`);
      }
    }
  });

  it('when the master is f64 at 100 Hz, then channels have an implicit 100 Hz time base and the file lasts 2.5 s', () => {
    const file = openMdf4({ groups: [group('DT')] });
    expect(file.readChannel('u8').time).toEqual({ kind: 'implicit', start: 0, frequency: 100 });
    expect(file.duration).toBeCloseTo(2.5, 9);
    expect(file.channels.find((c) => c.name === 'i16 LE')).toMatchObject({ unit: 'N', dataType: 'int16', frequency: 100, regular: true, sampleCount: N });
  });

  it('when invalidation bits are set, then those samples are gaps', () => {
    const data = openMdf4({ groups: [group('DT')] }).readChannel('i16 with gaps');
    expect(Array.from(data.gaps?.subarray(0, 6) ?? [])).toEqual([1, 0, 0, 0, 0, 1]);
  });

  it('when a channel has a value-to-text conversion, then labels and the default are in the catalogue', () => {
    const file = openMdf4({ groups: [group('DT')] });
    expect(file.channels.find((c) => c.name === 'value to text')).toMatchObject({
      labels: [
        { min: 0, max: 0, text: 'zero' },
        { min: 1, max: 1, text: 'one' },
      ],
      defaultLabel: 'other',
    });
  });

  it('when values fit float32 exactly and are not converted, then Float32Array; otherwise Float64Array', () => {
    const file = openMdf4({ groups: [group('DT')] });
    expect(file.readChannel('i16 LE').samples).toBeInstanceOf(Float32Array);
    expect(file.readChannel('f32 BE').samples).toBeInstanceOf(Float32Array);
    expect(file.readChannel('i32 BE').samples).toBeInstanceOf(Float64Array);
    expect(file.readChannel('linear').samples).toBeInstanceOf(Float64Array);
  });

  it('when there are two groups at different rates, then each keeps its own time base and names stay unique', () => {
    const slow = writeRecords(10, 2, (v, o, i) => {
      v.setUint8(o, i); // master: index × 0.1 s through a linear conversion
      v.setUint8(o + 1, 200 + i);
    });
    const file = openMdf4({
      groups: [
        group('DT'),
        {
          dataBytes: 2,
          cycleCount: 10,
          records: slow,
          channels: [
            { name: 't', dataType: 0, bitCount: 8, byteOffset: 0, cnType: 2, conversion: { type: 1, values: [0, 0.1] } },
            { name: 'u8', dataType: 0, bitCount: 8, byteOffset: 1 },
          ],
        },
      ],
    });
    const second = file.readChannel('u8 (2)');
    expect(Array.from(second.samples)).toEqual([200, 201, 202, 203, 204, 205, 206, 207, 208, 209]);
    expect(second.time).toEqual({ kind: 'implicit', start: 0, frequency: 10 });
    expect(file.duration).toBeCloseTo(2.5, 9);
  });

  it('when the header comment has common properties, then they fill the file properties', () => {
    const comment = '<HDcomment><TX>test run</TX><common_properties><e name="event">Round 3</e><e name="driver">A. Driver</e><e name="run">7</e><e name="vehicle">Car 12</e></common_properties></HDcomment>';
    const file = openMdf4({ comment, startTimeNs: 1_700_000_000_000_000_000n, groups: [group('DT')] });
    expect(file.properties).toMatchObject({ eventName: 'Round 3', driverName: 'A. Driver', runNumber: 7, carId: 'Car 12', comment: 'test run', outingTime: '2023-11-14T22:13:20.000Z' });
  });

  it('when common properties are named after an object\'s own members (constructor, __proto__, toString), then they are ignored like any unknown name', () => {
    const comment = '<HDcomment><common_properties><e name="constructor">x</e><e name="__proto__">y</e><e name="to_String">z</e><e name="venue">Spa</e></common_properties></HDcomment>';
    const file = openMdf4({ comment, groups: [group('DT')] });
    expect(Object.keys(file.properties).sort()).toEqual(Object.keys(openMdf4({ groups: [group('DT')] }).properties).sort());
    expect(file.properties.venueName).toBe('Spa');
    expect(Object.values(file.properties)).not.toContain('x');
  });

  it.each([['bus logging (bus event channel groups)', { cgFlags: 2 }]])('when the only group uses %s, then opening reports UNSUPPORTED naming it', (feature, extra) => {
    expect(() => openMdf4({ groups: [group('DT', extra)] })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', feature }));
  });

  it('when one group is bus logging and another is plain, then the plain one reads and the other is listed unsupported', () => {
    const file = openMdf4({ groups: [group('DT'), group('DT', { cgFlags: 2 })] });
    expect(file.readChannel('u8').samples[3]).toBe(3);
    expect(file.channels.find((c) => c.name === 'u8 (2)')?.unsupported).toMatch(/bus logging/);
    expect(() => file.readChannel('u8 (2)')).toThrow(UnsupportedFeatureError);
  });

  it('when a VLSD string has no signal data for its offsets, then it is listed as text and reading its events is CORRUPT', () => {
    const file = openMdf4({
      groups: [group('DT', { channels: [...channels, { name: 'text', dataType: 7, bitCount: 64, byteOffset: 0, cnType: 1 }] })],
    });
    expect(file.channels.find((c) => c.name === 'text')).toMatchObject({ kind: 'text', dataType: 'string' });
    expect(() => file.readEvents('text')).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
  });
});

describe('MDF 4 masters of other sync types', () => {
  // Five records: a distance (m, every 50), a time (s, every 0.1) and a value.
  const records = writeRecords(5, 24, (view, at, i) => {
    view.setFloat64(at, i * 50, true);
    view.setFloat64(at + 8, i * 0.1, true);
    view.setFloat64(at + 16, i, true);
  });
  const channels = (distanceFirst: boolean): Mdf4GroupSpec['channels'] => {
    const distance = { name: 'Distance', unit: 'm', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2, sync: 3 };
    const time = { name: 'Time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 8, cnType: 2, sync: 1 };
    return [...(distanceFirst ? [distance, time] : [time, distance]), { name: 'x', dataType: 4, bitCount: 64, byteOffset: 16 }];
  };

  test.each([[true], [false]])('when a distance master and a time master are in one group (distance first: %s), then time is the time base and distance a channel of its own', (distanceFirst) => {
    const file = openMdf4({ groups: [{ dataBytes: 24, cycleCount: 5, records, channels: channels(distanceFirst) }] });
    expect(file.channels.map((c) => c.name)).toEqual(['Distance', 'x']);
    expect(file.duration).toBeCloseTo(0.5, 9);
    expect(file.readChannel('x').frequency).toBeCloseTo(10, 9);
    expect(Array.from(file.readChannel('Distance').samples)).toEqual([0, 50, 100, 150, 200]);
  });

  test('when the only master is synchronised on distance, then it stays the group\'s axis (there is no time to take instead)', () => {
    const file = openMdf4({ groups: [{ dataBytes: 24, cycleCount: 5, records, channels: channels(true).filter((c) => c.name !== 'Time') }] });
    expect(file.channels.map((c) => c.name)).toEqual(['x']);
    expect(file.duration).toBe(250);
  });
});

describe('MDF times far from 0', () => {
  // A group of a float64 master (s) and one float64 channel.
  const timed = (times: number[]): Mdf4GroupSpec => ({
    dataBytes: 16,
    cycleCount: times.length,
    records: writeRecords(times.length, 16, (view, at, i) => {
      view.setFloat64(at, times[i] as number, true);
      view.setFloat64(at + 8, i, true);
    }),
    channels: [
      { name: 't', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
      { name: 'V', unit: '', dataType: 4, bitCount: 64, byteOffset: 8 },
    ],
  });

  test.each([[[0, 1e300]], [[-Infinity, 0]], [[0, 1e16]]])('when a master time is past 1e15 s (%j), then the file is refused as corrupt naming the record (its times would print as null)', (times) => {
    expect(() => openMdf4({ groups: [timed(times)] }).readChannel('V')).toThrow(/record \d of a channel group has the time .* s, farther from 0 than 1000000000000000 s/);
  });

  test.each([
    [[0, 1, 2, Number.NaN], /record 4 of a channel group has no time \(NaN\)/],
    [[Number.NaN, 1, 2, 3], /record 1 of a channel group has no time \(NaN\)/],
    [[0, 1e15, 2], /record 3 of a channel group has the time 2 s, before the 1000000000000000 s of the record ahead of it \(times go backwards\)/],
    [[0, 1, 0.5, 3], /record 3 of a channel group has the time 0.5 s, before the 1 s/],
  ])('when the master times are %j, then the file is refused as corrupt naming the record (a span or window over them would be wrong)', (times, reason) => {
    expect(() => openMdf4({ groups: [timed(times)] })).toThrow(reason);
    expect(() => openMdf4({ groups: [timed(times)] })).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
  });

  test('when times repeat (two records at one instant), then they are read', () => {
    expect(Array.from(openMdf4({ groups: [timed([0, 1, 1, 2])] }).readChannel('V').samples)).toEqual([0, 1, 2, 3]);
  });

  test('when the times are an epoch in seconds, then they are read', () => {
    expect(Array.from(openMdf4({ groups: [timed([1764000000, 1764000001])] }).readChannel('V').samples)).toEqual([0, 1]);
  });
});
