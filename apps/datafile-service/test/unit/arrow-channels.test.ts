import { tableFromIPC, tableToIPC, Type } from 'apache-arrow';
import { applyConversion, IDENTITY } from '@pitwall/channels';
import { arrowStream, type ArrowStream } from '../../src/workers/arrow-channels';

/** The whole stream, as one chunk (its length rounded up to a multiple of 8). */
const whole = (stream: ArrowStream): Uint8Array => joined([...stream.chunks(Math.max(8, (stream.length + 7) & ~7))]);

const joined = (pieces: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};

describe('the Arrow stream of a read', () => {
  const scaled = { numerator: 1, denominator: 10, offset: 0 };
  const channels = [
    // 10 Hz, stored int16 scaled by 1/10: float64 of the physical values.
    { series: { name: 'Speed', unit: 'km/h', frequency: 10, dimension: 1, startTime: 2, samples: Int16Array.of(10, 20, 30), conversion: scaled }, conversion: scaled },
    // 10 Hz, same start and length: the same batch; int16 under the identity stays int16, its gap a null.
    { series: { name: 'Gear', unit: '', frequency: 10, dimension: 1, startTime: 2, samples: Int16Array.of(1, 0, 3), conversion: IDENTITY, gaps: Uint8Array.of(0, 1, 0) }, conversion: IDENTITY },
    // 2 Hz: a batch of its own.
    { series: { name: 'Temp', unit: 'C', frequency: 2, dimension: 1, startTime: 0, samples: Float32Array.of(80.5, 81) }, conversion: IDENTITY },
  ];

  test('when channels of two rates are encoded, then one batch per rate carries its time and its channels, the others null, with units and conversions in the field metadata', () => {
    const stream = arrowStream(channels, { timeColumn: 'time', schema: { entityId: 'e1', scope: '{"mode":"file"}' }, fields: [{}, { labels: '[]' }, {}] });
    const bytes = whole(stream);
    expect(bytes.byteLength).toBe(stream.length);
    const table = tableFromIPC(bytes);
    expect(table.schema.fields.map((f) => [f.name, Type[f.type.typeId]])).toEqual([
      ['time', 'Float'],
      ['Speed', 'Float'],
      ['Gear', 'Int'],
      ['Temp', 'Float'],
    ]);
    expect(table.schema.fields.map((f) => (f.type as { precision?: number; bitWidth?: number }).precision ?? (f.type as { bitWidth?: number }).bitWidth)).toEqual([2, 2, 16, 1]);
    expect(table.schema.metadata.get('entityId')).toBe('e1');
    expect(Object.fromEntries(table.schema.fields[1]?.metadata ?? [])).toEqual({ unit: 'km/h', frequency: '10', conversion: '{"numerator":1,"denominator":10,"offset":0}' });
    expect(table.schema.fields[2]?.metadata.get('labels')).toBe('[]');
    expect(table.batches.map((b) => b.numRows)).toEqual([3, 2]);
    const [fast, slow] = table.batches;
    expect(fast?.getChild('time')?.toArray()).toEqual(Float64Array.of(2, 2.1, 2.2));
    expect(fast?.getChild('Speed')?.toArray()).toEqual(Float64Array.of(1, 2, 3));
    expect([...(fast?.getChild('Gear') ?? [])]).toEqual([1, null, 3]);
    expect([...(fast?.getChild('Temp') ?? [])]).toEqual([null, null, null]);
    expect([...(slow?.getChild('Temp') ?? [])]).toEqual([80.5, 81]);
    expect([...(slow?.getChild('Speed') ?? [])]).toEqual([null, null]);
    expect(slow?.getChild('time')?.toArray()).toEqual(Float64Array.of(0, 0.5));
  });

  test('when a series has explicit times, then they are its batch\'s time column', () => {
    const times = Float64Array.of(0.25, 1.5, 4);
    const stream = arrowStream([{ series: { name: 'Lat', unit: 'deg', frequency: 1, dimension: 1, startTime: 0.25, samples: Float64Array.of(1, 2, 3), times }, conversion: IDENTITY }], { timeColumn: 'time', schema: {} });
    const table = tableFromIPC(whole(stream));
    expect(table.getChild('time')?.toArray()).toEqual(times);
    expect(table.getChild('Lat')?.toArray()).toEqual(Float64Array.of(1, 2, 3));
  });

  test('when a stream is read back and written again by apache-arrow\'s own writer, then the bytes are the same', () => {
    const bytes = whole(arrowStream(channels, { timeColumn: 'time', schema: { entityId: 'e1' }, fields: [{}, { labels: '[]' }, {}] }));
    expect(tableToIPC(tableFromIPC(bytes), 'stream')).toEqual(bytes);
  });

  test('when the stream is cut into small chunks, then every chunk but the last is full and owns its buffer, and together they are the whole stream', () => {
    const stream = arrowStream(channels, { timeColumn: 'time', schema: {} });
    const reference = whole(stream);
    for (const size of [8, 16, 64, 1024]) {
      const chunks = [...stream.chunks(size)];
      expect(chunks.slice(0, -1).every((c) => c.byteLength === size && c.buffer.byteLength === size)).toBe(true);
      expect(chunks.at(-1)?.buffer.byteLength).toBe(chunks.at(-1)?.byteLength);
      expect(joined(chunks)).toEqual(reference);
    }
    expect(() => [...stream.chunks(12)]).toThrow('multiple of 8');
  });

  test('when long channels of two rates cross many chunks, then each batch\'s time and converted values equal the JSON read\'s, value for value', () => {
    const n = 10_007;
    const raw = Int16Array.from({ length: n }, (_, i) => ((i * 7919) % 65_536) - 32_768);
    const wide = Int32Array.from({ length: n >> 1 }, (_, i) => i * 104_729 - 2 ** 30);
    const gaps = Uint8Array.from({ length: n >> 1 }, (_, i) => (i % 13 === 0 ? 1 : 0));
    const rpm = { numerator: 2446, denominator: 10, offset: -3 };
    const temp = { numerator: 3, denominator: 1, offset: 0.5 };
    const stream = arrowStream(
      [
        { series: { name: 'RPM', unit: 'rpm', frequency: 1000, dimension: 1, startTime: 0.125, samples: raw, conversion: rpm }, conversion: rpm },
        { series: { name: 'Temp', unit: 'C', frequency: 500, dimension: 1, startTime: 0.125, samples: wide, conversion: temp, gaps }, conversion: temp },
      ],
      { timeColumn: 'time', schema: {} },
    );
    // Not a multiple of any column's length: the float64 parts split across chunk boundaries.
    const table = tableFromIPC(joined([...stream.chunks(4096)]));
    expect(table.batches.map((b) => b.numRows)).toEqual([n, n >> 1]);
    const [fast, slow] = table.batches;
    expect(fast?.getChild('RPM')?.toArray()).toEqual(applyConversion(raw, rpm));
    expect(fast?.getChild('time')?.toArray()).toEqual(Float64Array.from({ length: n }, (_, i) => 0.125 + i / 1000));
    const temps = applyConversion(wide, temp);
    expect([...(slow?.getChild('Temp') ?? [])]).toEqual(Array.from(temps, (v, i) => (gaps[i] === 1 ? null : v)));
    expect(slow?.getChild('time')?.toArray()).toEqual(Float64Array.from({ length: n >> 1 }, (_, i) => 0.125 + i / 500));
    expect(slow?.getChild('RPM')?.nullCount).toBe(n >> 1);
  });
});
