import { type ChannelSeries, ChannelsDecodeError, compactSamples, decodeChannels, encodeChannels, toChannelRecord, toReadRecord } from '../src';
import { sampleSeries } from './series-fixtures';

describe('binary channel body', () => {
  it('when series are encoded and decoded, then the JSON records of both are equal', () => {
    const series = sampleSeries();
    const decoded = decodeChannels(encodeChannels(series));
    expect(decoded.map(toReadRecord)).toEqual(series.map(toChannelRecord));
    expect(decoded.map((s) => s.name)).toEqual(series.map((s) => s.name));
  });

  it('when a body is decoded, then samples, times and gaps are views on its buffer at 8-aligned offsets', () => {
    const body = encodeChannels(sampleSeries());
    const decoded = decodeChannels(body.buffer as ArrayBuffer) as ChannelSeries[]; // numbers only
    for (const s of decoded) {
      expect(s.samples.buffer).toBe(body.buffer);
      expect(s.samples.byteOffset % 8).toBe(0);
      if (s.times) {
        expect(s.times.buffer).toBe(body.buffer);
        expect(s.times.byteOffset % 8).toBe(0);
      }
      if (s.gaps) expect(s.gaps.buffer).toBe(body.buffer);
    }
    expect(body.byteLength % 8).toBe(0);
  });

  it('when a raw int16 channel with a conversion is encoded, then it travels as int16 with the raw flag and converts on decode', () => {
    const raw = Int16Array.from([2446, -3, 0, 32767]);
    const compact = compactSamples(raw, { numerator: 1, denominator: 10, offset: 0 });
    expect(compact.samples).toBe(raw);
    const body = encodeChannels([{ name: 'Speed', unit: 'km/h', frequency: 20, dimension: 1, startTime: 0, ...compact }]);
    const [decoded] = decodeChannels(body) as ChannelSeries[];
    expect(decoded.samples).toBeInstanceOf(Int16Array);
    expect(decoded.conversion).toEqual({ numerator: 1, denominator: 10, offset: 0 });
    expect(body[16 + 5] & 4).toBe(4);
    expect(toChannelRecord(decoded).samples).toEqual([244.6, -0.3, 0, 3276.7]);
  });

  it('when raw float32 values are as wide as their physical values, then compactSamples sends physical values', () => {
    const raw = Float32Array.from([1.5, 2]);
    expect(compactSamples(raw, { numerator: 1, denominator: 1, offset: 0 })).toEqual({ samples: Float32Array.from([1.5, 2]) });
    expect(compactSamples(raw, { numerator: 3, denominator: 1, offset: 0 })).toEqual({ samples: Float32Array.from([1.5, 2]), conversion: { numerator: 3, denominator: 1, offset: 0 } });
  });

  it('when the body sits at an unaligned offset of a larger buffer, then it is still decoded', () => {
    const body = encodeChannels(sampleSeries());
    const holder = new Uint8Array(body.byteLength + 3);
    holder.set(body, 3);
    expect(decodeChannels(holder.subarray(3)).map(toReadRecord)).toEqual(sampleSeries().map(toChannelRecord));
  });

  it('when no channel is encoded, then the body is the 16-byte header', () => {
    const body = encodeChannels([]);
    expect(body.byteLength).toBe(16);
    expect(new TextDecoder().decode(body.subarray(0, 4))).toBe('PWCH');
    expect(decodeChannels(body)).toEqual([]);
  });

  it.each([
    ['a wrong magic', (b: Uint8Array) => (b[0] = 0x41), /magic/],
    ['an unknown version', (b: Uint8Array) => (b[4] = 9), /version 9/],
    ['an unknown encoding', (b: Uint8Array) => (b[16 + 4] = 7), /encoding 7/],
    ['a block size that does not match', (b: Uint8Array) => (b[16] += 8), /block/],
  ])('when a body has %s, then decoding fails with ChannelsDecodeError', (_what, damage, message) => {
    const body = encodeChannels(sampleSeries());
    damage(body);
    expect(() => decodeChannels(body)).toThrow(ChannelsDecodeError);
    expect(() => decodeChannels(body)).toThrow(message);
  });

  it('when a body is truncated, then decoding fails with ChannelsDecodeError', () => {
    const body = encodeChannels(sampleSeries());
    for (const cut of [0, 10, 20, body.byteLength - 8]) expect(() => decodeChannels(body.slice(0, cut))).toThrow(ChannelsDecodeError);
  });

  it('when times or gaps do not match the sample count, then encoding refuses the series', () => {
    const base: ChannelSeries = { name: 'x', unit: '', frequency: 1, dimension: 1, startTime: 0, samples: new Float64Array(3) };
    expect(() => encodeChannels([{ ...base, times: new Float64Array(2) }])).toThrow(/2 times for 3 samples/);
    expect(() => encodeChannels([{ ...base, gaps: new Uint8Array(4) }])).toThrow(/4 gap flags for 3 samples/);
  });
});

describe('array channels (dimension > 1)', () => {
  it('when an array series becomes its record, then its values are flat, sample by sample, and a gap nulls the whole sample', () => {
    const grid: ChannelSeries = { name: 'Grid', unit: '', frequency: 10, dimension: 3, startTime: 0, samples: Float64Array.from([1, 2, 3, NaN, NaN, NaN, 7, 8, 9]), gaps: Uint8Array.from([0, 1, 0]) };
    expect(toChannelRecord(grid).samples).toEqual([1, 2, 3, null, null, null, 7, 8, 9]);
    const [decoded] = decodeChannels(encodeChannels([grid])) as ChannelSeries[];
    expect(decoded.dimension).toBe(3);
    expect(toChannelRecord(decoded)).toEqual(toChannelRecord(grid));
  });
});
