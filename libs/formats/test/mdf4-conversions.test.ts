import { openDataFile, UnsupportedFeatureError } from '../src';
import { buildMdf4File } from '../src/testing';
import { readFixture, sha256, SHA256 } from './fixtures';

describe('MDF 4 conversions', () => {
  describe('f03_conversions_410.mf4 (asammdf 8.8.9, one channel per conversion)', () => {
    const bytes = readFixture('f03_conversions_410.mf4');
    const file = openDataFile(bytes);
    const info = (name: string) => file.channels.find((c) => c.name === name);
    const samples = (name: string) => Array.from(file.readChannel(name).samples);

    // Independent decode of the single ##DT: 1,000 records of 31 bytes, each channel at its byte offset.
    const dt = Buffer.from(bytes).indexOf('##DT') + 24;
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const RECORD = 31;
    const raw = (offset: number, read: (at: number) => number) => Array.from({ length: 1000 }, (_, i) => read(dt + i * RECORD + offset));
    const u16 = (offset: number) => raw(offset, (at) => dv.getUint16(at, true));
    const i16 = (offset: number) => raw(offset, (at) => dv.getInt16(at, true));
    const shared = i16(16); // every channel from byte 16 on stores the same int16 codes 0..99
    /** The sample whose raw code is `code`, so that a rule is checked where it matters. */
    const at = (code: number) => {
      const i = shared.indexOf(code);
      if (i < 0) throw new Error(`no raw ${code} in the file`);
      return i;
    };

    it('when the fixture is read, then it is the documented file: 1,000 records at 100 Hz from 12.5 s', () => {
      expect(sha256(bytes)).toBe(SHA256['f03_conversions_410.mf4']);
      expect(file.startTime).toBe(12.5);
      expect(file.duration).toBe(10);
      expect(file.channels.map((c) => c.name)).toEqual([
        'lin_u16', 'lin_i8', 'lin_u12_bits', 'u12_dirty_bits', 'bool_1bit', 'rational', 'rational_quad',
        'tab_interp', 'tab_nointerp', 'range_to_value', 'gear_text', 'range_text', 'algebraic',
      ]);
      for (const c of file.channels) expect(c).toMatchObject({ sampleCount: 1000, frequency: 100, regular: true });
      for (const c of file.channels) expect(c.unsupported).toBeUndefined();
      for (const i of [0, 5, 9, 99]) expect(shared.indexOf(i)).toBeGreaterThanOrEqual(0);
    });

    it('when the linear channels are read, then they are a1·x + a0 with their units', () => {
      expect(info('lin_u16')).toMatchObject({ unit: 'degC', dataType: 'uint16' });
      expect(samples('lin_u16')).toEqual(u16(8).map((x) => x * 0.01 - 40));
      expect(info('lin_i8')).toMatchObject({ unit: 'bar', dataType: 'int8' });
      expect(samples('lin_i8')).toEqual(raw(10, (a) => dv.getInt8(a)).map((x) => x * 0.5 + 3));
      expect(info('lin_u12_bits')).toMatchObject({ unit: 'kPa' });
      expect(samples('lin_u12_bits')).toEqual(u16(11).map((x) => x * 0.25 + 10));
    });

    it('when u12_dirty_bits is read, then it is the 16 bits its ##CN declares; its low 12 bits are lin_u12_bits\' codes', () => {
      // The file's CN says 16 bits (asammdf 8.8.9 wrote the 12-bit field as uint16), so nothing tells a reader to mask.
      expect(info('u12_dirty_bits')).toMatchObject({ dataType: 'uint16' });
      const values = samples('u12_dirty_bits');
      expect(values).toEqual(u16(13));
      expect(values.map((v) => v & 0xfff)).toEqual(u16(11));
      expect(values.every((v) => v >> 12 === 0xf)).toBe(true);
    });

    it('when bool_1bit is read, then it is bit 0 of byte 15', () => {
      expect(info('bool_1bit')).toMatchObject({ dataType: 'uint1' });
      expect(samples('bool_1bit')).toEqual(raw(15, (a) => dv.getUint8(a) & 1));
    });

    it('when the rational channels are read, then they are (P1x²+P2x+P3)/(P4x²+P5x+P6)', () => {
      expect(samples('rational')).toEqual(shared.map((x) => (3 * x + 1) / 7));
      const quad = samples('rational_quad');
      shared.forEach((x, i) => expect(quad[i]).toBeCloseTo((0.1 * x * x + 3 * x + 1) / (0.01 * x * x + 0.5 * x + 7), 12));
    });

    it('when tab_interp is read, then values interpolate between the keys 0, 10, 50, 90 → 0, 100, 150, -10', () => {
      const values = samples('tab_interp');
      expect(values[at(0)]).toBe(0);
      expect(values[at(5)]).toBe(50);
      expect(values[at(10)]).toBe(100);
      expect(values[at(30)]).toBe(125);
      expect(values[at(70)]).toBe(70);
      expect(values[at(99)]).toBe(-10); // past the last key the last value holds
    });

    it('when tab_nointerp is read, then each value is the nearest key\'s, the lower key\'s on a tie', () => {
      const values = samples('tab_nointerp');
      expect(values[at(4)]).toBe(0);
      expect(values[at(5)]).toBe(0); // tie between 0 and 10
      expect(values[at(6)]).toBe(100);
      expect(values[at(30)]).toBe(100); // tie between 10 and 50
      expect(values[at(70)]).toBe(150); // tie between 50 and 90
      expect(values[at(71)]).toBe(-10);
      expect(values[at(99)]).toBe(-10);
    });

    it('when range_to_value is read, then lower ≤ x ≤ upper picks the first range that holds x, else the default -1', () => {
      const values = samples('range_to_value');
      const expected: [number, number][] = [[0, 1.5], [9, 1.5], [10, 1.5], [11, -1], [19, -1], [20, 2.5], [29, 2.5], [30, 2.5], [31, 3.5], [59, 3.5], [60, 3.5], [61, -1], [99, -1]];
      for (const [code, value] of expected) expect([code, values[at(code)]]).toEqual([code, value]);
    });

    it('when the text channels are read, then samples are the raw codes and the catalogue holds the texts', () => {
      expect(info('gear_text')).toMatchObject({
        dataType: 'uint8',
        labels: [
          { min: 0, max: 0, text: 'N' },
          { min: 1, max: 1, text: '1st' },
          { min: 2, max: 2, text: '2nd' },
          { min: 3, max: 3, text: '3rd' },
          { min: 4, max: 4, text: 'Gang 4 äöü' },
        ],
        defaultLabel: 'unknown',
      });
      expect(samples('gear_text')).toEqual(raw(26, (a) => dv.getUint8(a)));
      expect(info('range_text')).toMatchObject({ labels: [{ min: 0, max: 30, text: 'low' }, { min: 31, max: 70, text: 'mid' }], defaultLabel: 'high' });
      expect(samples('range_text')).toEqual(shared);
    });

    it('when algebraic (X * 2 + 1) is read, then each value is the formula over the raw code, as float64', () => {
      const data = file.readChannel('algebraic');
      expect(data.samples).toBeInstanceOf(Float64Array);
      expect(Array.from(data.samples)).toEqual(shared.map((x) => x * 2 + 1));
    });
  });

  describe('value-range conversions (cc_type 6, built files)', () => {
    // Ranges as a hostile or careless writer may give them: out of order, overlapping, touching, empty, inverted, with
    // NaN and infinite ends. The first declared range that holds x wins (lower ≤ x ≤ upper for integer codes,
    // lower ≤ x < upper for floats), else the default: the reading must agree with that rule, taken literally.
    const firstHolding = (ranges: readonly [number, number, number][], fallback: number, x: number, integer: boolean): number =>
      ranges.find(([lower, upper]) => x >= lower && (integer ? x <= upper : x < upper))?.[2] ?? fallback;
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const ends = [Number.NaN, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
    const end = (): number => (random() < 0.03 ? (ends[Math.floor(random() * 3)] as number) : Math.floor(random() * 64) * 4);
    const tableOf = (count: number): [number, number, number][] =>
      Array.from({ length: count }, (_, i) => {
        const lower = end();
        const upper = random() < 0.1 ? lower : random() < 0.05 ? lower - 4 : lower + Math.floor(random() * 40);
        return [lower, upper, i + 0.5];
      });
    const floats = [...Array.from({ length: 256 }, (_, i) => i), ...Array.from({ length: 256 }, (_, i) => i + 0.25), -1, -0, Number.NaN, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
    const build = (ranges: readonly [number, number, number][], fallback: number) => {
      const records = new Uint8Array(floats.length * 9);
      const view = new DataView(records.buffer);
      floats.forEach((x, i) => {
        view.setUint8(i * 9, i % 256);
        view.setFloat64(i * 9 + 1, x, true);
      });
      const conversion = { type: 6, values: [...ranges.flat(), fallback], texts: [] };
      return buildMdf4File({
        groups: [
          {
            dataBytes: 9,
            cycleCount: floats.length,
            records,
            channels: [
              { name: 'code', dataType: 0, bitCount: 8, byteOffset: 0, conversion },
              { name: 'float', dataType: 4, bitCount: 64, byteOffset: 1, conversion },
            ],
          },
        ],
      });
    };

    it.each([
      ['a few ranges', 12],
      ['many overlapping ranges', 3_000],
    ])('when %s are declared in no order, then every integer code and every float reads the first range that holds it, else the default', (_, count) => {
      const ranges = tableOf(count);
      const file = openDataFile(build(ranges, -7));
      const codes = Array.from(file.readChannel('code').samples);
      expect(codes).toEqual(floats.map((_, i) => firstHolding(ranges, -7, i % 256, true)));
      const values = Array.from(file.readChannel('float').samples);
      expect(values).toEqual(floats.map((x) => firstHolding(ranges, -7, x, false)));
    });

    it('when ranges touch, then an integer code on the shared end reads the first declared, and a float there the range it starts', () => {
      const ranges: [number, number, number][] = [[30, 30, 3], [20, 30, 2], [10, 20, 1], [30, 40, 4], [0, 5, Number.NaN]];
      const file = openDataFile(build(ranges, -1));
      const codes = file.readChannel('code').samples;
      expect([10, 20, 30, 35, 41].map((code) => codes[code])).toEqual([1, 2, 3, 4, -1]);
      expect(codes[3]).toBeNaN(); // a range's own value NaN is that value, not the default
      const values = file.readChannel('float').samples;
      expect([10, 20, 30, 35, 40, 41].map((x) => values[x])).toEqual([1, 2, 4, 4, -1, -1]);
    });
  });

  describe('algebraic conversions (built files)', () => {
    const records = Uint8Array.from([0, 1, 1, 0, 2, 0]);
    const build = (formula: string) =>
      buildMdf4File({
        groups: [
          {
            dataBytes: 2,
            cycleCount: 3,
            records,
            channels: [
              { name: 'plain', dataType: 2, bitCount: 16, byteOffset: 0 },
              { name: 'converted', dataType: 2, bitCount: 16, byteOffset: 0, conversion: { type: 3, values: [], texts: [formula] } },
            ],
          },
        ],
      });

    it.each([
      ['X * 10 - 1', [2559, 9, 19]],
      ['if(X > 1, sqrt(X), -X)', [16, -1, Math.SQRT2]],
    ])('when the formula is %s, then it is applied', (formula, expected) => {
      expect(Array.from(openDataFile(build(formula)).readChannel('converted').samples)).toEqual(expected);
    });

    it.each([
      ['X * frobnicate(X)', 'unknown function frobnicate'],
      ['X * (2 +', 'expected expression'],
      ['x + 1', 'unknown name x'],
      ['eval(X)', 'unknown function eval'],
    ])('when the formula is %j, then that channel is refused naming the fault and the rest of the file reads', (formula, reason) => {
      const file = openDataFile(build(formula));
      const converted = file.channels.find((c) => c.name === 'converted');
      expect(converted?.unsupported).toContain(reason);
      expect(converted?.unsupported).toContain(JSON.stringify(formula));
      expect(() => file.readChannel('converted')).toThrow(UnsupportedFeatureError);
      expect(Array.from(file.readChannel('plain').samples)).toEqual([256, 1, 2]);
    });

    it.each([
      ['5', [5, 5, 5]],
      ['pi * 2', [2 * Math.PI, 2 * Math.PI, 2 * Math.PI]],
    ])('when the formula %j reads no X, then every sample is its value', (formula, expected) => {
      expect(Array.from(openDataFile(build(formula)).readChannel('converted').samples)).toEqual(expected);
    });

    it('when the master channel\'s formula reads no X, then the file opens and every record is at that time', () => {
      const records = new Uint8Array(4 * 9);
      for (let i = 0; i < 4; i++) records[i * 9 + 8] = 10 * i;
      const file = openDataFile(
        buildMdf4File({
          groups: [
            {
              dataBytes: 9,
              cycleCount: 4,
              records,
              channels: [
                { name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2, conversion: { type: 3, values: [], texts: ['5'] } },
                { name: 'c', dataType: 0, bitCount: 8, byteOffset: 8 },
              ],
            },
          ],
        }),
      );
      expect(file.startTime).toBe(5);
      const c = file.readChannel('c');
      expect(Array.from(c.samples)).toEqual([0, 10, 20, 30]);
      expect(c.time).toEqual({ kind: 'explicit', timestamps: Float64Array.of(5, 5, 5, 5) });
    });

    it('when evaluating a formula fails, then the read is refused as UNSUPPORTED naming the channel and the formula', () => {
      jest.isolateModules(() => {
        jest.doMock('@pitwall/expressions', () => {
          const actual = jest.requireActual('@pitwall/expressions') as typeof import('@pitwall/expressions');
          return {
            ...actual,
            compile: (...args: Parameters<typeof actual.compile>) => ({
              ...actual.compile(...args),
              evaluate: () => {
                throw new RangeError('input X has 2 samples, expected 3');
              },
            }),
          };
        });
        const isolated = jest.requireActual('../src') as typeof import('../src');
        const file = isolated.openDataFile(build('X + 1'));
        expect(() => file.readChannel('converted')).toThrow(isolated.UnsupportedFeatureError);
        expect(() => file.readChannel('converted')).toThrow('unsupported mdf4 feature: algebraic conversion "X + 1" of channel converted: input X has 2 samples, expected 3');
      });
      jest.dontMock('@pitwall/expressions');
    });
  });

  it('when a 12-bit field\'s upper nibble holds other bits, then the reader masks them off', () => {
    const file = buildMdf4File({
      groups: [
        {
          dataBytes: 2,
          cycleCount: 2,
          records: Uint8Array.from([0x8d, 0xf6, 0xff, 0x5f]),
          channels: [
            { name: 'u12', dataType: 0, bitCount: 12, byteOffset: 0 },
            { name: 'i12', dataType: 2, bitCount: 12, byteOffset: 0 },
          ],
        },
      ],
    });
    const opened = openDataFile(file);
    expect(Array.from(opened.readChannel('u12').samples)).toEqual([0x68d, 0xfff]);
    expect(Array.from(opened.readChannel('i12').samples)).toEqual([0x68d, -1]);
  });
});
