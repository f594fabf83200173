import { tableFromIPC, Type } from 'apache-arrow';
import { IDENTITY } from '@pitwall/channels';
import { arrowStreamPieces, packedChunks } from '../../src/workers/arrow-channels';

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
    const { length, pieces } = arrowStreamPieces(channels, { timeColumn: 'time', schema: { entityId: 'e1', scope: '{"mode":"file"}' }, fields: [{}, { labels: '[]' }, {}] });
    const bytes = joined(pieces);
    expect(bytes.byteLength).toBe(length);
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
    const { pieces } = arrowStreamPieces([{ series: { name: 'Lat', unit: 'deg', frequency: 1, dimension: 1, startTime: 0.25, samples: Float64Array.of(1, 2, 3), times }, conversion: IDENTITY }], { timeColumn: 'time', schema: {} });
    const table = tableFromIPC(joined(pieces));
    expect(table.getChild('time')?.toArray()).toEqual(times);
    expect(table.getChild('Lat')?.toArray()).toEqual(Float64Array.of(1, 2, 3));
  });

  test('when the pieces are packed, then every chunk but the last is full and owns its buffer, and together they are the stream', () => {
    const { length, pieces } = arrowStreamPieces(channels, { timeColumn: 'time', schema: {} });
    const chunks = [...packedChunks(pieces, 64)];
    expect(chunks.slice(0, -1).every((c) => c.byteLength === 64 && c.buffer.byteLength === 64)).toBe(true);
    expect(joined(chunks)).toEqual(joined(pieces));
    expect(chunks.reduce((n, c) => n + c.byteLength, 0)).toBe(length);
  });
});
