import { channelRecordsJson, encodeChannels, encodeChannelsChunks, encodedChannelsLength, toChannelRecord, type ChannelSeries } from '../src';
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

  test.each([1, 100, 1 << 16])('when the JSON records are written in pieces of about %i characters, then they join into JSON.stringify of the records', (chunkChars) => {
    for (const series of [sampleSeries(), longSeries()]) {
      expect([...channelRecordsJson(series, chunkChars)].join('')).toBe(JSON.stringify(series.map(toChannelRecord)));
      expect([...channelRecordsJson(series.slice(0, 1), chunkChars, { bare: true })].join('')).toBe(JSON.stringify(toChannelRecord(series[0] as ChannelSeries)));
    }
  });

  test('when a long channel is written, then no piece is much longer than asked', () => {
    const pieces = [...channelRecordsJson(longSeries(), 1 << 16)];
    expect(pieces.length).toBeGreaterThan(5);
    // One conversion step of 16 Ki values (at most about 24 characters each) past the size asked.
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan((1 << 16) + 16 * 1024 * 24);
  });
});
