import { Field, Float32, Float64, Int16, Int32, makeData, RecordBatch, RecordBatchStreamWriter, Schema, Struct, type Data, type DataType } from 'apache-arrow';
import { isIdentity, physicalSamples, type ChannelSeries, type LinearConversion } from '@pitwall/channels';
import type { ChunkHead } from '@pitwall/bus/port-chunks';
import { CHUNK_BYTES, shapeOne, type ShapeTask } from './shape-channels';

/** What the Arrow stream says beside the samples: the schema's metadata (dataset, read) and each distinct channel's extra field metadata. */
export interface ArrowStreamMetadata {
  /** The name of every batch's time column (`ARROW_TIME_COLUMN` of the contracts; no channel of the read has it). */
  timeColumn: string;
  schema: Record<string, string>;
  /** By index of the distinct channels (the task's `channels`): e.g. the labels of a text conversion. */
  fields?: Record<string, string>[];
}

/** A series with what its column says of it: the conversion of its stored values (the catalogue's). */
export interface ArrowSeries {
  series: ChannelSeries;
  conversion: LinearConversion;
}

/**
 * A read's Arrow stream in chunks, with its length: each distinct channel shaped once (M4 when asked), a column with
 * the conversion it was stored with. The pool loads this module (and apache-arrow) with its first Arrow read.
 */
export function arrowChunks(task: ShapeTask & { arrow: ArrowStreamMetadata }): { head: ChunkHead; chunks: Iterable<Uint8Array> } {
  const { length, pieces } = arrowStreamPieces(
    // The service refuses text, byte and array channels in Arrow before the task (406): only stored numbers come here.
    task.channels.map((c) => {
      if ('kind' in c) throw new Error(`${c.name}: a ${c.kind} channel has no Arrow column`);
      return { series: shapeOne(c, task) as ChannelSeries, conversion: c.conversion };
    }),
    task.arrow,
  );
  return { head: { length }, chunks: packedChunks(pieces, CHUNK_BYTES) };
}

/**
 * The Arrow IPC stream of a read (docs/api.md "Arrow"): one schema, a `time` column (float64 seconds) and one column
 * per channel; one record batch per time base (channels sharing rate, start and length share a batch; a series with
 * explicit times, e.g. an M4 one, has its own), the columns of the other batches' channels null in it. A column keeps
 * the type of its values when they are exact (stored values under the identity conversion, float32), else float64 of
 * the converted values; gaps are nulls. Returns the stream's pieces (views on the columns, the schema message and the
 * batch headers) and their total length: nothing is copied here.
 */
export function arrowStreamPieces(channels: readonly ArrowSeries[], metadata: ArrowStreamMetadata): { length: number; pieces: Uint8Array[] } {
  const columns = channels.map(columnOf);
  const fields = [
    new Field(metadata.timeColumn, new Float64(), false, new Map([['unit', 's']])),
    ...columns.map((c, k) => new Field(c.name, c.type, true, new Map(Object.entries({ ...c.metadata, ...metadata.fields?.[k] })))),
  ];
  const schema = new Schema(fields, new Map(Object.entries(metadata.schema)));
  const writer = new PieceWriter();
  writer.reset(undefined, schema);
  for (const members of timeBases(channels.map((c) => c.series))) writer.write(batchOf(schema, columns, members));
  writer.finish();
  return { length: writer.pieces.reduce((sum, p) => sum + p.byteLength, 0), pieces: writer.pieces };
}

/** The pieces copied into chunks of `size` bytes (the last one shorter), each owning its buffer (they are transferred). */
export function* packedChunks(pieces: readonly Uint8Array[], size: number): Generator<Uint8Array> {
  let chunk = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    let from = 0;
    while (from < piece.byteLength) {
      const n = Math.min(size - at, piece.byteLength - from);
      chunk.set(piece.subarray(from, from + n), at);
      at += n;
      from += n;
      if (at === size) {
        yield chunk;
        chunk = new Uint8Array(size);
        at = 0;
      }
    }
  }
  if (at > 0) yield chunk.slice(0, at);
}

/** The writer's bytes kept as the pieces it writes (views, in order), read synchronously on the pool rather than through its async queue. */
class PieceWriter extends RecordBatchStreamWriter {
  readonly pieces: Uint8Array[] = [];

  protected override _write(chunk: ArrayBufferView): this {
    if (!this._started || chunk.byteLength === 0) return this;
    this.pieces.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this._position += chunk.byteLength;
    return this;
  }
}

interface Column {
  name: string;
  type: DataType;
  values: Float64Array | Float32Array | Int32Array | Int16Array;
  /** Arrow validity (1 = a value), when the series has gaps. */
  validity?: Uint8Array;
  nulls: number;
  metadata: Record<string, string>;
}

function columnOf({ series, conversion }: ArrowSeries): Column {
  // Values under their own conversion are exact as stored; a scaled or offset conversion makes float64.
  const values = series.conversion && !isIdentity(series.conversion) ? physicalSamples(series) : series.samples;
  const type = values instanceof Int16Array ? new Int16() : values instanceof Int32Array ? new Int32() : values instanceof Float32Array ? new Float32() : new Float64();
  let validity: Uint8Array | undefined;
  let nulls = 0;
  if (series.gaps) {
    validity = new Uint8Array((values.length + 7) >> 3);
    for (let i = 0; i < values.length; i++) {
      if (series.gaps[i] === 1) nulls++;
      else validity[i >> 3] |= 1 << (i & 7);
    }
  }
  const fieldMetadata: Record<string, string> = {
    unit: series.unit,
    frequency: String(series.frequency),
    ...(isIdentity(conversion) ? {} : { conversion: JSON.stringify({ numerator: conversion.numerator, denominator: conversion.denominator, offset: conversion.offset }) }),
  };
  return { name: series.name, type, values, ...(nulls > 0 ? { validity } : {}), nulls, metadata: fieldMetadata };
}

/** The series grouped by time base, in their order: implicit time by (rate, start, length); explicit times alone. */
function timeBases(series: readonly ChannelSeries[]): { members: number[]; time: Float64Array }[] {
  const groups = new Map<string, { members: number[]; time: Float64Array }>();
  series.forEach((s, k) => {
    const n = s.samples.length / Math.max(1, s.dimension);
    const key = s.times ? `explicit ${k}` : `${s.frequency} ${s.startTime} ${n}`;
    const group = groups.get(key);
    if (group) group.members.push(k);
    else groups.set(key, { members: [k], time: s.times ?? implicitTimes(s.startTime, s.frequency, n) });
  });
  return [...groups.values()];
}

function implicitTimes(start: number, frequency: number, n: number): Float64Array {
  const time = new Float64Array(n);
  for (let i = 0; i < n; i++) time[i] = start + i / frequency;
  return time;
}

function batchOf(schema: Schema, columns: readonly Column[], { members, time }: { members: number[]; time: Float64Array }): RecordBatch {
  const length = time.length;
  const inBatch = new Set(members);
  // The columns of other time bases are all null here: one zeroed buffer serves as their values and validity.
  const zeros = columns.length > members.length ? new ArrayBuffer(length * 8) : undefined;
  const children: Data[] = [makeData({ type: new Float64(), length, nullCount: 0, data: time })];
  columns.forEach((c, k) => {
    if (inBatch.has(k)) {
      children.push(makeData({ type: c.type, length, nullCount: c.nulls, data: c.values, ...(c.validity ? { nullBitmap: c.validity } : {}) } as never));
      return;
    }
    const Values = c.values.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => Column['values'];
    children.push(makeData({ type: c.type, length, nullCount: length, data: new Values(zeros as ArrayBuffer, 0, length), nullBitmap: new Uint8Array(zeros as ArrayBuffer, 0, (length + 7) >> 3) } as never));
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}
