import { RecordBatchFileReader, tableFromIPC, tableToIPC, Type, type RecordBatch, type Table } from 'apache-arrow';
import { Footer } from 'apache-arrow/ipc/metadata/file';
import { applyConversion, IDENTITY, type EventSeries } from '@pitwall/channels';
import { ArrowLimitError, arrowChunks, arrowStream, type ArrowStream, type ArrowStreamMetadata } from '../../src/workers/arrow-channels';
import { ARROW_LIMITS } from '../../src/workers/arrow-limits';

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

describe('the Arrow file of a read', () => {
  const scaled = { numerator: 1, denominator: 10, offset: 0 };
  const n = 5003;
  // Three rates, so three record batches; long enough to cross chunks; a scaled channel, a gap, a float32 one.
  const channels = [
    { series: { name: 'Speed', unit: 'km/h', frequency: 100, dimension: 1, startTime: 1, samples: Int16Array.from({ length: n }, (_, i) => i % 3000), conversion: scaled }, conversion: scaled },
    { series: { name: 'Gear', unit: '', frequency: 10, dimension: 1, startTime: 1, samples: Int16Array.from({ length: 501 }, (_, i) => i % 6), conversion: IDENTITY, gaps: Uint8Array.from({ length: 501 }, (_, i) => (i === 7 ? 1 : 0)) }, conversion: IDENTITY },
    { series: { name: 'Temp', unit: 'C', frequency: 2, dimension: 1, startTime: 0, samples: Float32Array.of(80.5, 81, 81.5) }, conversion: IDENTITY },
  ];
  const metadata: ArrowStreamMetadata = { timeColumn: 'time', schema: { entityId: 'e1', scope: '{"mode":"file"}' }, fields: [{}, { labels: '[]' }, {}] };
  const stream = whole(arrowStream(channels, metadata));
  const planned = arrowStream(channels, { ...metadata, file: true });
  const file = joined([...planned.chunks(4096)]);

  test('when a read is encoded as a file, then it is the stream\'s messages between ARROW1 and a footer, its length the one planned', () => {
    expect(file.byteLength).toBe(planned.length);
    const ascii = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    expect(ascii(file.subarray(0, 6))).toBe('ARROW1');
    expect([...file.subarray(6, 8)]).toEqual([0, 0]);
    expect(ascii(file.subarray(file.byteLength - 6))).toBe('ARROW1');
    // The stream whole (its end-of-stream marker included) follows the 8 bytes of magic.
    expect(file.subarray(8, 8 + stream.byteLength)).toEqual(stream);
    const footerLength = new DataView(file.buffer, file.byteOffset).getInt32(file.byteLength - 10, true);
    expect(8 + stream.byteLength + footerLength + 4 + 6).toBe(file.byteLength);
  });

  test('when the file is read back, then it has the stream\'s schema, metadata and batches, value for value', () => {
    const fromFile = tableFromIPC(file);
    const fromStream = tableFromIPC(stream);
    expect(fromFile.schema.fields.map((f) => [f.name, f.type.toString(), Object.fromEntries(f.metadata)])).toEqual(fromStream.schema.fields.map((f) => [f.name, f.type.toString(), Object.fromEntries(f.metadata)]));
    expect(Object.fromEntries(fromFile.schema.metadata)).toEqual({ entityId: 'e1', scope: '{"mode":"file"}' });
    expect(fromFile.batches.map((b) => b.numRows)).toEqual([n, 501, 3]);
    fromStream.batches.forEach((batch, k) => {
      for (const name of ['time', 'Speed', 'Gear', 'Temp']) expect([...(fromFile.batches[k]?.getChild(name) ?? [])]).toEqual([...(batch.getChild(name) ?? [])]);
    });
    expect([...(fromFile.batches[1]?.getChild('Gear') ?? [])][7]).toBeNull();
  });

  test('when the footer is read, then each block points at its record batch, so a reader goes straight to the last one', () => {
    const tail = file.byteLength - 10;
    const footerLength = new DataView(file.buffer, file.byteOffset).getInt32(tail, true);
    const footer = Footer.decode(file.subarray(tail - footerLength, tail));
    expect(Object.fromEntries(footer.schema.metadata)).toEqual({ entityId: 'e1', scope: '{"mode":"file"}' });
    const blocks = [...footer.recordBatches()];
    expect(blocks).toHaveLength(3);
    const view = new DataView(file.buffer, file.byteOffset);
    let end = 0;
    for (const block of blocks) {
      expect(block.offset % 8).toBe(0);
      expect(block.offset).toBeGreaterThanOrEqual(end);
      // The message's continuation marker, then its metadata's length: the block's metaDataLength is the two and the metadata.
      expect(view.getInt32(block.offset, true)).toBe(-1);
      expect(8 + view.getInt32(block.offset + 4, true)).toBe(block.metaDataLength);
      end = block.offset + block.metaDataLength + block.bodyLength;
    }
    // The last batch's body ends where the stream's end-of-stream marker starts.
    expect(end).toBe(8 + stream.byteLength - 8);
    const reader = RecordBatchFileReader.from(file);
    reader.open();
    expect(reader.numRecordBatches).toBe(3);
    // Synchronous over bytes in memory.
    const batchAt = (k: number) => reader.readRecordBatch(k) as RecordBatch | null;
    const last = batchAt(2);
    expect([...(last?.getChild('Temp') ?? [])]).toEqual([80.5, 81, 81.5]);
    expect(last?.getChild('time')?.toArray()).toEqual(Float64Array.of(0, 0.5, 1));
    expect(batchAt(0)?.getChild('Speed')?.get(n - 1)).toBeCloseTo(((n - 1) % 3000) / 10, 9);
  });

  test('when the file is cut into chunks of any size, then together they are the same file', () => {
    for (const size of [40, 1048, 1 << 20]) expect(joined([...planned.chunks(size)])).toEqual(file);
  });
});

describe('text, byte and array columns', () => {
  const utf8 = new TextEncoder();
  /** Events of `values` (null: a gap, its value empty) at `times`. */
  function events(kind: 'text' | 'bytes', name: string, frequency: number, times: number[], values: (Uint8Array | null)[]): EventSeries {
    const parts = values.map((v) => v ?? new Uint8Array(0));
    const offsets = Uint32Array.from([0, ...parts.map((_, i) => parts.slice(0, i + 1).reduce((n, p) => n + p.length, 0))]);
    return { kind, name, unit: '', frequency, startTime: times[0] ?? 0, times: Float64Array.from(times), offsets, bytes: joined(parts), ...(values.includes(null) ? { gaps: Uint8Array.from(values, (v) => (v === null ? 1 : 0)) } : {}) };
  }
  const scaled = { numerator: 1, denominator: 10, offset: 0 };
  const texts = ['go', null, 'Box, box ñ€ 🏁'];
  const frames = [Uint8Array.of(0, 1, 255, 7), Uint8Array.of()];
  const channels = [
    // 10 Hz from 0: the text's times are these implicit ones, value for value, so it shares their batch.
    { series: { name: 'Speed', unit: 'km/h', frequency: 10, dimension: 1, startTime: 0, samples: Float32Array.of(100, 101, 102) }, conversion: IDENTITY },
    { series: events('text', 'Message', 10, [0, 0.1, 0.2], texts.map((t) => (t === null ? null : utf8.encode(t)))), conversion: IDENTITY },
    // Bytes at times of their own: a batch of their own.
    { series: events('bytes', 'CAN 0x101', 4, [0.05, 0.33], frames), conversion: IDENTITY },
    // 2 Hz arrays of 3 values: int16 as stored, and stored int16 scaled by 1/10 (float64 of the physical values); a gap in the first.
    { series: { name: 'Grid', unit: 'bar', frequency: 2, dimension: 3, startTime: 0, samples: Int16Array.of(1, 2, 3, 0, 0, 0, 7, 8, 9), conversion: IDENTITY, gaps: Uint8Array.of(0, 1, 0) }, conversion: IDENTITY },
    { series: { name: 'Temps', unit: 'C', frequency: 2, dimension: 3, startTime: 0, samples: Int16Array.of(805, 810, 815, 820, 825, 830, 835, 840, 845), conversion: scaled }, conversion: scaled },
  ];
  const metadata: ArrowStreamMetadata = { timeColumn: 'time', schema: {}, fields: [{}, { kind: 'text' }, { kind: 'bytes' }, { shape: '[3]' }, {}] };
  /** A column's values in batch `k`: lists as arrays, bytes as arrays of numbers. */
  const valuesIn = (table: Table, k: number, name: string) =>
    [...(table.batches[k]?.getChild(name) ?? [])].map((v: unknown) => (v === null || typeof v !== 'object' ? v : Array.from(v as Iterable<number>)));

  test('when text, bytes and arrays are encoded beside numbers, then text is Utf8, bytes Binary and arrays FixedSizeList of their values, each batch their time base, gaps null', () => {
    const stream = arrowStream(channels, metadata);
    const bytes = whole(stream);
    expect(bytes.byteLength).toBe(stream.length);
    const table = tableFromIPC(bytes);
    expect(table.schema.fields.map((f) => [f.name, f.type.toString()])).toEqual([
      ['time', 'Float64'],
      ['Speed', 'Float32'],
      ['Message', 'Utf8'],
      ['CAN 0x101', 'Binary'],
      ['Grid', 'FixedSizeList[3]<Int16>'],
      ['Temps', 'FixedSizeList[3]<Float64>'],
    ]);
    expect(Object.fromEntries(table.schema.fields[2]?.metadata ?? [])).toEqual({ unit: '', frequency: '10', kind: 'text' });
    expect(Object.fromEntries(table.schema.fields[5]?.metadata ?? [])).toEqual({ unit: 'C', frequency: '2', conversion: '{"numerator":1,"denominator":10,"offset":0}' });
    expect(table.batches.map((b) => b.numRows)).toEqual([3, 2, 3]);
    expect(valuesIn(table, 0, 'time')).toEqual([0, 0.1, 0.2]);
    expect(valuesIn(table, 0, 'Message')).toEqual(texts);
    expect(valuesIn(table, 0, 'CAN 0x101')).toEqual([null, null, null]);
    expect(valuesIn(table, 0, 'Grid')).toEqual([null, null, null]);
    expect(valuesIn(table, 1, 'time')).toEqual([0.05, 0.33]);
    expect(valuesIn(table, 1, 'CAN 0x101')).toEqual([[0, 1, 255, 7], []]);
    expect(valuesIn(table, 1, 'Message')).toEqual([null, null]);
    expect(valuesIn(table, 2, 'time')).toEqual([0, 0.5, 1]);
    expect(valuesIn(table, 2, 'Grid')).toEqual([[1, 2, 3], null, [7, 8, 9]]);
    expect(valuesIn(table, 2, 'Temps')).toEqual([applyConversion(Int16Array.of(805, 810, 815), scaled), applyConversion(Int16Array.of(820, 825, 830), scaled), applyConversion(Int16Array.of(835, 840, 845), scaled)].map((a) => Array.from(a)));
    expect(valuesIn(table, 2, 'Message')).toEqual([null, null, null]);
  });

  test('when such a stream is read back and written again by apache-arrow\'s own writer, then the bytes are the same, as a stream and as a file', () => {
    const bytes = whole(arrowStream(channels, metadata));
    expect(tableToIPC(tableFromIPC(bytes), 'stream')).toEqual(bytes);
    const planned = arrowStream(channels, { ...metadata, file: true });
    const file = joined([...planned.chunks(16)]);
    expect(file.byteLength).toBe(planned.length);
    expect(file.subarray(8, 8 + bytes.byteLength)).toEqual(bytes);
    const reader = RecordBatchFileReader.from(file);
    reader.open();
    expect(reader.numRecordBatches).toBe(3);
    expect([...((reader.readRecordBatch(0) as RecordBatch | null)?.getChild('Message') ?? [])]).toEqual(texts);
  });

  test('when the values of a text or byte column pass what int32 offsets hold, then it is LargeUtf8 or LargeBinary of the same values', () => {
    const bytes = whole(arrowStream(channels, metadata, { largeValuesBytes: 4 }));
    const table = tableFromIPC(bytes);
    expect(tableToIPC(table, 'stream')).toEqual(bytes);
    expect(table.schema.fields.slice(2, 4).map((f) => f.type.toString())).toEqual(['LargeUtf8', 'LargeBinary']);
    expect(valuesIn(table, 0, 'Message')).toEqual(texts);
    expect(valuesIn(table, 1, 'CAN 0x101')).toEqual([[0, 1, 255, 7], []]);
    expect(valuesIn(table, 2, 'Message')).toEqual([null, null, null]);
  });
});

describe('the bounds of an Arrow answer (ARROW_MAX_BATCH_COLUMNS, ARROW_MAX_BYTES)', () => {
  /** n channels of `points` samples each, every one at explicit times of its own (as an M4 read gives them). */
  const ownTimes = (n: number, points: number) =>
    Array.from({ length: n }, (_, k) => ({
      series: { name: `C${k}`, unit: '', frequency: 1, dimension: 1, startTime: k, samples: Float64Array.from({ length: points }, (_, i) => i), times: Float64Array.from({ length: points }, (_, i) => k + i * 1.5) },
      conversion: IDENTITY,
    }));
  const refusalOf = (run: () => unknown): ArrowLimitError['refusal'] | undefined => {
    try {
      run();
    } catch (error) {
      if (error instanceof ArrowLimitError) return error.refusal;
      throw error;
    }
    return undefined;
  };

  test('when every channel has a time base of its own, then the batches times the columns grow as channels squared, and past ARROW_MAX_BATCH_COLUMNS the read is refused before it is planned', () => {
    // 20 channels: 20 batches of 21 columns (the time and 20 channels), 420 batch columns.
    const twenty = ownTimes(20, 4);
    expect(arrowStream(twenty, { timeColumn: 'time', schema: {}, limits: { ...ARROW_LIMITS, maxBatchColumns: 420 } }).length).toBeGreaterThan(0);
    const refusal = refusalOf(() => arrowStream(twenty, { timeColumn: 'time', schema: {}, limits: { ...ARROW_LIMITS, maxBatchColumns: 419 } }));
    expect(refusal).toMatchObject({ status: 413, reason: '20 record batches of 21 columns are 420 batch columns, more than ARROW_MAX_BATCH_COLUMNS (419)', extensions: { arrowMaxBatchColumns: 419, arrowBatchColumns: 420 } });
    expect(refusal?.detail).toMatch(/ask fewer channels, one time base for all \(rate=\), or no maxPoints .* JSON or the binary body/);
  });

  test('when the null columns make the answer longer than ARROW_MAX_BYTES, then it is refused with its length, and at that length it is not', () => {
    const channels = ownTimes(30, 1000);
    const { length } = arrowStream(channels, { timeColumn: 'time', schema: {} });
    // 30 batches of 1,000 rows, each with the time and 30 float64 columns (29 of them null): about 31 × 8 × 30,000 bytes.
    expect(length).toBeGreaterThan(31 * 8 * 30 * 1000);
    expect(arrowStream(channels, { timeColumn: 'time', schema: {}, limits: { ...ARROW_LIMITS, maxBytes: length } }).length).toBe(length);
    expect(refusalOf(() => arrowStream(channels, { timeColumn: 'time', schema: {}, limits: { ...ARROW_LIMITS, maxBytes: length - 1 } }))).toMatchObject({
      status: 413,
      reason: `the Arrow answer is ${length} bytes, more than ARROW_MAX_BYTES (${length - 1})`,
      extensions: { arrowMaxBytes: length - 1, arrowBytes: length },
    });
  });

  test('when the pool task of a read is past a limit, then its head carries the refusal and no chunk follows', () => {
    const samples = Float64Array.of(1, 2, 3);
    const task = {
      channels: Array.from({ length: 3 }, (_, k) => ({ name: `C${k}`, unit: '', frequency: 1, dimension: 1, startTime: k, samples, times: Float64Array.of(k, k + 1, k + 2), conversion: IDENTITY })),
      binary: false,
      arrow: { timeColumn: 'time', schema: {}, limits: { ...ARROW_LIMITS, maxBatchColumns: 11 } },
    };
    const { head, chunks } = arrowChunks(task as unknown as Parameters<typeof arrowChunks>[0]);
    expect(head.refusal?.reason).toBe('3 record batches of 4 columns are 12 batch columns, more than ARROW_MAX_BATCH_COLUMNS (11)');
    expect(head.length).toBeUndefined();
    expect([...chunks]).toEqual([]);
  });
});

describe('time bases whose hashes collide', () => {
  // FNV-1a over the times' 32-bit words, as the grouping keys them: the last word's value that brings a series to a
  // chosen hash (multiplying by the FNV prime is a bijection modulo 2^32; its inverse by Newton's iteration).
  const PRIME = 0x01000193;
  let inverse = PRIME;
  for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(PRIME, inverse));
  const fnv = (words: Uint32Array, count: number): number => {
    let h = 0x811c9dc5;
    for (let i = 0; i < count; i++) h = Math.imul(h ^ (words[i] as number), PRIME);
    return h;
  };
  /** Times of `n` samples whose hash is `target`: the low word of the last one chosen (its high word set after it). */
  const colliding = (n: number, k: number, target: number): Float64Array => {
    const times = Float64Array.from({ length: n }, (_, i) => i + k / 1000);
    const words = new Uint32Array(times.buffer);
    const last = 2 * (n - 1);
    // Before the last low word: the hash so far; after it and the high word that follows, the target.
    const before = fnv(words, last);
    const high = words[last + 1] as number;
    const afterLow = Math.imul(target, inverse) ^ high;
    words[last] = (Math.imul(afterLow, inverse) ^ before) >>> 0;
    return times;
  };

  test('when 40 series have distinct times of one hash, then each is its own batch and every value reads back', () => {
    const target = 0x12345678;
    const series = Array.from({ length: 40 }, (_, k) => {
      const times = colliding(50, k, target);
      expect(fnv(new Uint32Array(times.buffer), 100) >>> 0).toBe(target);
      return { series: { name: `C${k}`, unit: '', frequency: 1, dimension: 1, startTime: times[0] as number, samples: Float64Array.from({ length: 50 }, (_, i) => k * 100 + i), times }, conversion: IDENTITY };
    });
    const table = tableFromIPC(whole(arrowStream(series, { timeColumn: 'time', schema: {} })));
    expect(table.batches).toHaveLength(40);
    table.batches.forEach((batch, k) => {
      expect(Array.from(batch.getChild(`C${k}`)?.toArray() as Float64Array)).toEqual(Array.from({ length: 50 }, (_, i) => k * 100 + i));
      expect(batch.getChild('time')?.toArray()).toEqual(series[k]?.series.times);
    });
  });
});
