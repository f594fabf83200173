import { channelRecordsJsonChunks, encodeChannels, encodeChannelsChunks, encodedChannelsLength, toChannelRecord, type ChannelSeries } from '../src';
import { sampleSeries } from './series-fixtures';

const joined = (chunks: Iterable<Uint8Array>): Uint8Array => {
  const all = [...chunks];
  const out = new Uint8Array(all.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of all) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
};

/** A long raw int16 channel with a scale, gaps and a long float64 one: more than one conversion step each. */
function longSeries(): ChannelSeries[] {
  const n = 40_000;
  const raw = Int16Array.from({ length: n }, (_, i) => (i * 37) % 20_000 - 10_000);
  const gaps = Uint8Array.from({ length: n }, (_, i) => (i % 997 === 0 ? 1 : 0));
  const physical = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 100) * 1e3);
  return [
    { name: 'Susp Pos FL', unit: 'mm', frequency: 1000, dimension: 1, startTime: 0, samples: raw, conversion: { numerator: 2446, denominator: 10, offset: -1.5 }, gaps },
    { name: 'Steering', unit: 'deg', frequency: 500, dimension: 1, startTime: 2, samples: physical },
  ];
}

/** Integers under every decimal scale the digit-by-digit writer takes, and some it must leave to String. */
function decimalSeries(): ChannelSeries[] {
  const edges = [0, 1, -1, 9, 10, -10, 99, 100, 1000, 32767, -32768, 12345, -5, 7, 20, 300];
  const int16 = Int16Array.from([...edges, ...Array.from({ length: 3000 }, (_, i) => ((i * 7919) % 65536) - 32768)]);
  const int32 = Int32Array.from([...edges, 2147483647, -2147483648, 999999999, 1000000000, ...Array.from({ length: 3000 }, (_, i) => ((i * 2654435761) % 4294967296) - 2147483648)]);
  const series: ChannelSeries[] = [];
  for (const denominator of [1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7, 3])
    for (const numerator of [1, 3, 2446, -7, 1048576, 1048577])
      for (const samples of [int16, int32]) series.push({ name: `d${denominator} n${numerator}`, unit: '', frequency: 1, dimension: 1, startTime: 0, samples, conversion: { numerator, denominator, offset: 0 } });
  // Every int16 value, long enough to be written from the table of each scale's texts.
  const everyInt16 = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);
  for (const denominator of [1, 10, 100, 1000, 1e6]) for (const numerator of [1, 2446, -7]) series.push({ name: `all d${denominator} n${numerator}`, unit: '', frequency: 1, dimension: 1, startTime: 0, samples: everyInt16, conversion: { numerator, denominator, offset: 0 }, ...(numerator === -7 ? { gaps: Uint8Array.from({ length: 65536 }, (_, i) => i % 5 === 0 ? 1 : 0) } : {}) });
  series.push({ name: 'identity', unit: '', frequency: 1, dimension: 1, startTime: 0, samples: int16 });
  series.push({ name: 'offset', unit: '', frequency: 1, dimension: 1, startTime: 0, samples: int16, conversion: { numerator: 1, denominator: 10, offset: 0.5 } });
  return series;
}

/**
 * Int16 channels long enough for the table of their codes' texts, under conversions no decimal scale covers (offsets,
 * fractional and negative factors, one that overflows to Infinity), at non-integer rates and start times, with gaps,
 * and explicit times; a short one and an int32 one stay on the value-by-value path beside them.
 */
function codeTableSeries(): ChannelSeries[] {
  const n = 70_000;
  const every = Int16Array.from({ length: n }, (_, i) => (i % 65536) - 32768);
  const wave = Int16Array.from({ length: n }, (_, i) => Math.round(Math.sin(i / 50) * 30_000) + (i % 3));
  const gaps = Uint8Array.from({ length: n }, (_, i) => (i % 1009 === 0 || i === n - 1 ? 1 : 0));
  const times = Float64Array.from({ length: n }, (_, i) => 12.345 + i / 333.3 + (i % 7 === 0 ? 1e-9 : 0));
  const conversions = [
    { numerator: 2446, denominator: 10, offset: -1.5 },
    { numerator: 1, denominator: 3, offset: 0 },
    { numerator: 0.1, denominator: 1, offset: 273.15 },
    { numerator: -7, denominator: 9, offset: 0.25 },
    { numerator: 1, denominator: 1, offset: 0.1 },
    { numerator: 1e305, denominator: 1e-5, offset: 0 },
    { numerator: 5, denominator: 1, offset: 0 },
  ];
  const series: ChannelSeries[] = [];
  conversions.forEach((conversion, k) => {
    const frequency = [1000, 333.3, 0.5, 2.5, 1 / 3, 100, 20][k] as number;
    series.push({ name: `every ${k}`, unit: 'u', frequency, dimension: 1, startTime: k * 0.37, samples: every, conversion, ...(k % 2 ? { gaps } : {}) });
    series.push({ name: `wave ${k}`, unit: 'u', frequency, dimension: 1, startTime: -1.5, samples: wave, conversion, ...(k === 1 ? { times } : {}) });
  });
  series.push({ name: 'short', unit: '', frequency: 10, dimension: 1, startTime: 0, samples: wave.subarray(0, 1000), conversion: { numerator: 1, denominator: 3, offset: 0 } });
  series.push({ name: 'int32', unit: '', frequency: 10, dimension: 1, startTime: 0, samples: Int32Array.from(wave), conversion: { numerator: 1, denominator: 3, offset: 0.5 } });
  return series;
}

describe('the channel bodies written in chunks', () => {
  test.each([1, 7, 64, 4096, 1 << 20])('when the binary body is written in chunks of %i bytes, then they join into the body encodeChannels makes, of the announced length', (chunkBytes) => {
    for (const series of [sampleSeries(), longSeries()]) {
      const whole = encodeChannels(series);
      const chunks = [...encodeChannelsChunks(series, chunkBytes)];
      expect(chunks.slice(0, -1).every((c) => c.byteLength === chunkBytes)).toBe(true);
      // Each chunk owns its buffer (it is transferred from the worker).
      expect(chunks.every((c) => c.byteOffset === 0 && c.buffer.byteLength === c.byteLength)).toBe(true);
      expect(Buffer.from(joined(chunks)).equals(Buffer.from(whole))).toBe(true);
      expect(encodedChannelsLength(series)).toBe(whole.byteLength);
    }
  });

  const text = (chunks: Iterable<Uint8Array>) => Buffer.from(joined(chunks)).toString('utf8');

  test.each([32, 100, 1 << 16])('when the JSON records are written in chunks of %i bytes, then they join into JSON.stringify of the records', (chunkBytes) => {
    for (const series of [sampleSeries(), longSeries()]) {
      const chunks = [...channelRecordsJsonChunks(series, chunkBytes)];
      expect(text(chunks)).toBe(JSON.stringify(series.map(toChannelRecord)));
      // Each starts a buffer of its own (transferred whole from the worker), none shared with another chunk.
      expect(chunks.every((c) => c.byteOffset === 0 && c.byteLength <= Math.max(chunkBytes, 32))).toBe(true);
      expect(new Set(chunks.map((c) => c.buffer)).size).toBe(chunks.length);
      expect(text(channelRecordsJsonChunks(series.slice(0, 1), chunkBytes, { bare: true }))).toBe(JSON.stringify(toChannelRecord(series[0] as ChannelSeries)));
    }
  });

  test('when an array channel has gaps, then each value of a gap sample is null, streamed as toChannelRecord writes it, the others their values', () => {
    // Three samples of four values: int16 codes under a decimal scale, int16 under another scale (a table once long), floats; sample 1 a gap.
    const gaps = Uint8Array.of(0, 1, 0);
    const codes = Int16Array.from({ length: 12 }, (_, i) => 800 + i);
    const arrays: ChannelSeries[] = [
      { name: 'Tyre temps', unit: 'C', frequency: 10, dimension: 4, startTime: 0, samples: codes, conversion: { numerator: 1, denominator: 10, offset: 0 }, gaps },
      { name: 'Offset temps', unit: 'C', frequency: 10, dimension: 4, startTime: 0, samples: codes, conversion: { numerator: 1, denominator: 10, offset: -273.15 }, gaps },
      { name: 'Long', unit: '', frequency: 10, dimension: 4, startTime: 0, samples: Int16Array.from({ length: 4 * 20_000 }, (_, i) => i % 999), conversion: { numerator: 3, denominator: 7, offset: 0 }, gaps: Uint8Array.from({ length: 20_000 }, (_, i) => (i % 3 === 1 ? 1 : 0)) },
      { name: 'Grid', unit: '', frequency: 10, dimension: 4, startTime: 0, samples: Float32Array.from(codes), gaps },
    ];
    for (const one of arrays) {
      const streamed = JSON.parse(text(channelRecordsJsonChunks([one], 1 << 16, { bare: true }))) as { samples: (number | null)[] };
      expect(streamed).toEqual(toChannelRecord(one));
      expect(streamed.samples.slice(4, 8)).toEqual([null, null, null, null]);
      expect(streamed.samples.slice(0, 4).every((v) => v !== null)).toBe(true);
    }
  });

  test('when a math channel\'s series says which parameters it read, then its JSON record carries them (streamed or not, alike) and the binary body is the one without them', () => {
    const parameters = [{ name: 'SteeringRatio', value: 12.5, from: 'Cars 00000000-0000-4000-8000-0000000000cc' }];
    const plain: ChannelSeries = { name: 'Steer wheel', unit: 'deg', frequency: 10, dimension: 1, startTime: 0, samples: Float64Array.of(1, 2.5, NaN), gaps: Uint8Array.of(0, 0, 1) };
    const traced: ChannelSeries = { ...plain, parameters };
    expect(toChannelRecord(traced)).toEqual({ ...toChannelRecord(plain), parameters });
    for (const chunkBytes of [32, 1 << 16]) {
      expect(JSON.parse(text(channelRecordsJsonChunks([traced, plain], chunkBytes)))).toEqual([{ ...toChannelRecord(plain), parameters }, toChannelRecord(plain)]);
      expect(text(channelRecordsJsonChunks([traced], chunkBytes, { bare: true }))).toBe(JSON.stringify(toChannelRecord(traced)));
    }
    expect(Buffer.from(encodeChannels([traced])).equals(Buffer.from(encodeChannels([plain])))).toBe(true);
  });

  test('when integers under a decimal scale are written (digit by digit, or from the table of an int16 scale), then they are the text JSON.stringify writes', () => {
    const series = decimalSeries();
    expect(text(channelRecordsJsonChunks(series, 1 << 16))).toBe(JSON.stringify(series.map(toChannelRecord)));
  });

  test.each([100, 1 << 20])('when int16 codes under any other conversion are written from their table (chunks of %i bytes), then every byte is the one JSON.stringify writes', (chunkBytes) => {
    const series = codeTableSeries();
    const expected = Buffer.from(JSON.stringify(series.map(toChannelRecord)));
    expect(Buffer.from(joined(channelRecordsJsonChunks(series, chunkBytes))).equals(expected)).toBe(true);
    for (const one of series.slice(0, 4)) expect(Buffer.from(joined(channelRecordsJsonChunks([one], chunkBytes, { bare: true }))).equals(Buffer.from(JSON.stringify(toChannelRecord(one))))).toBe(true);
  });
});
