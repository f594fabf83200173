import { Binary, Field, FixedSizeList, Float32, Float64, Int16, Int32, LargeBinary, LargeUtf8, Message, Schema, Utf8, type DataType } from 'apache-arrow';
// The IPC metadata of a record batch (its nodes and buffer regions): apache-arrow's writer builds it from assembled
// columns; here it is built from the columns' lengths alone, so the body can be written without the columns existing.
import { BufferRegion, FieldNode, RecordBatch as RecordBatchHeader } from 'apache-arrow/ipc/metadata/message';
// The IPC file's footer (the schema and each record batch's block), as apache-arrow's RecordBatchFileWriter encodes it.
import { FileBlock, Footer } from 'apache-arrow/ipc/metadata/file';
import { convertInto, IDENTITY, isEventSeries, isIdentity, type ChannelSeries, type EventSeries, type LinearConversion, type RawSampleArray, type ReadSeries } from '@pitwall/channels';
import type { ChunkHead, ChunkRefusal } from '@pitwall/bus/port-chunks';
import { CHUNK_BYTES, shapeOne, type ShapeTask } from './shape-channels';
import { ARROW_LIMITS, type ArrowLimits } from './arrow-limits';

/** What the Arrow stream says beside the samples: the schema's metadata (dataset, read) and each distinct channel's extra field metadata. */
export interface ArrowStreamMetadata {
  /** The name of every batch's time column (`ARROW_TIME_COLUMN` of the contracts; no channel of the read has it). */
  timeColumn: string;
  schema: Record<string, string>;
  /** By index of the distinct channels (the task's `channels`): e.g. the labels of a text conversion. */
  fields?: Record<string, string>[];
  /**
   * The IPC file format (`application/vnd.apache.arrow.file`, Feather v2) instead of the stream: the same messages
   * between the magic `ARROW1` and a footer indexing the record batches, for readers that take no stream.
   */
  file?: boolean;
  /** ARROW_MAX_BYTES and ARROW_MAX_BATCH_COLUMNS (default ARROW_LIMITS). */
  limits?: ArrowLimits;
}

/** An Arrow answer past its limits, refused before its first byte (arrowChunks answers it as the head's refusal). */
export class ArrowLimitError extends Error {
  constructor(readonly refusal: ChunkRefusal) {
    super(refusal.detail);
    this.name = 'ArrowLimitError';
  }
}

const WAYS_OUT = 'ask fewer channels, one time base for all (rate=), or no maxPoints (M4 gives each channel times of its own); or read JSON or the binary body, which carry each channel once';

/** A series with what its column says of it: the conversion of its stored values (the catalogue's; the identity for text and bytes). */
export interface ArrowSeries {
  series: ReadSeries;
  conversion: LinearConversion;
}

/**
 * Bytes of values past which a text or byte column takes 64-bit offsets (LargeUtf8, LargeBinary): Utf8's and Binary's
 * are int32. Only a read allowed more than 256 million samples (READ_SAMPLE_BUDGET, 8 bytes of values a sample) gets there.
 */
export const LARGE_VALUES_BYTES = 2 ** 31;

/** An Arrow IPC stream (or file) planned from its columns' lengths: its bytes in all, and its bytes written chunk by chunk on demand. */
export interface ArrowStream {
  length: number;
  /** Chunks of `size` bytes (a multiple of 8; the last one shorter), each a new buffer it owns (they are transferred). */
  chunks(size: number): Generator<Uint8Array>;
}

/**
 * A read's Arrow stream (or file) in chunks, with its length: each distinct channel shaped once (M4 when asked), a column with
 * the conversion it was stored with. The pool loads this module (and apache-arrow) with its first Arrow read.
 */
export function arrowChunks(task: ShapeTask & { arrow: ArrowStreamMetadata }): { head: ChunkHead; chunks: Iterable<Uint8Array> } {
  let stream: ArrowStream;
  try {
    stream = arrowStream(
      // Resampled (task.resample): physical values, their conversion the identity; events are stored as they are sent.
      task.channels.map((c) => ({ series: shapeOne(c, task), conversion: 'kind' in c || task.resample ? IDENTITY : c.conversion })),
      task.arrow,
    );
  } catch (error) {
    if (error instanceof ArrowLimitError) return { head: { refusal: error.refusal }, chunks: [] };
    throw error;
  }
  return { head: { length: stream.length }, chunks: stream.chunks(CHUNK_BYTES) };
}

/**
 * The Arrow IPC stream of a read (docs/api.md "Arrow"): one schema, a `time` column (float64 seconds) and one column
 * per channel; one record batch per time base (channels sharing rate, start and length share a batch, as do series
 * with the same explicit times: an irregular CSV's columns; an M4 series usually has its own), the columns of the other batches' channels null in it. A column keeps
 * the type of its values when they are exact (stored values under the identity conversion, float32), else float64 of
 * the converted values; an array channel is a FixedSizeList of such values, a text channel Utf8 and a byte channel
 * Binary of their events' values as they are; gaps are nulls. The bytes are those apache-arrow's `RecordBatchStreamWriter` writes for these
 * columns, but no column is built: the messages are encoded up front from the lengths, and each chunk is filled when
 * it is taken, the time computed and the stored values converted straight into it (or copied when they are sent as
 * stored, as are the events' offsets and bytes), the null columns and the padding left as the chunk's zeros. As an IPC file (`metadata.file`), the same
 * messages come between `ARROW1` (padded to 8 bytes) and the footer, whose blocks (each record batch's offset and
 * lengths) are known from the plan, so the file's length is known before its first byte, as the stream's.
 */
export function arrowStream(channels: readonly ArrowSeries[], metadata: ArrowStreamMetadata, { largeValuesBytes = LARGE_VALUES_BYTES }: { largeValuesBytes?: number } = {}): ArrowStream {
  const columns = channels.map((c) => columnOf(c, largeValuesBytes));
  const fields = [
    new Field(metadata.timeColumn, new Float64(), false, new Map([['unit', 's']])),
    ...columns.map((c, k) => new Field(c.name, c.type, true, new Map(Object.entries({ ...c.metadata, ...metadata.fields?.[k] })))),
  ];
  const schema = new Schema(fields, new Map(Object.entries(metadata.schema)));
  // The file starts with its magic padded to 8 bytes, so every offset of the stream that follows stays 8-aligned.
  const parts: Part[] = metadata.file ? [{ kind: 'bytes', bytes: ARROW_MAGIC }, { kind: 'zeros', length: 8 - ARROW_MAGIC.byteLength }] : [];
  // The file keeps the stream's schema message too, as the format has it (apache-arrow's JS file writer leaves it out).
  parts.push({ kind: 'bytes', bytes: framed(Message.from(schema)) });
  // Where each record batch's message starts in the file, with its message's and body's lengths: the footer's blocks.
  const blocks: FileBlock[] = [];
  let at = parts.reduce((sum, p) => sum + partLength(p), 0);
  const limits = metadata.limits ?? ARROW_LIMITS;
  const bases = timeBases(channels.map((c) => c.series));
  const batchColumns = bases.length * fields.length;
  if (batchColumns > limits.maxBatchColumns) {
    throw new ArrowLimitError({
      status: 413,
      detail: `This read as Arrow is ${bases.length} record batches (one per time base) of ${fields.length} columns each, ${batchColumns} batch columns, more than ARROW_MAX_BATCH_COLUMNS (${limits.maxBatchColumns}) allows one answer (every batch carries every column, the other batches' channels null): ${WAYS_OUT}`,
      reason: `${bases.length} record batches of ${fields.length} columns are ${batchColumns} batch columns, more than ARROW_MAX_BATCH_COLUMNS (${limits.maxBatchColumns})`,
      extensions: { arrowMaxBatchColumns: limits.maxBatchColumns, arrowBatchColumns: batchColumns },
    });
  }
  for (const base of bases) {
    const batch = batchParts(columns, base);
    blocks.push(new FileBlock(batch.metadataLength, batch.bodyLength, at));
    at += batch.metadataLength + batch.bodyLength;
    parts.push(...batch.parts);
  }
  // End of stream: the continuation marker and a zero length (the file keeps it, for readers that read it in order).
  parts.push({ kind: 'bytes', bytes: Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0) });
  if (metadata.file) parts.push(...fileTail(schema, blocks));
  const length = parts.reduce((sum, p) => sum + partLength(p), 0);
  if (length > limits.maxBytes) {
    throw new ArrowLimitError({
      status: 413,
      detail: `This read as Arrow is ${length} bytes (${bases.length} record batches of ${fields.length} columns, the other batches' channels null in each), more than ARROW_MAX_BYTES (${limits.maxBytes}) allows one answer: ${WAYS_OUT}`,
      reason: `the Arrow answer is ${length} bytes, more than ARROW_MAX_BYTES (${limits.maxBytes})`,
      extensions: { arrowMaxBytes: limits.maxBytes, arrowBytes: length },
    });
  }
  return { length, chunks: (size) => chunksOf(parts, length, size) };
}

/** The magic that opens and closes an Arrow IPC file. */
const ARROW_MAGIC = new TextEncoder().encode('ARROW1');

/** The end of an IPC file: the footer (the schema again, and each record batch's block), its length (int32) and the magic. */
function fileTail(schema: Schema, blocks: FileBlock[]): Part[] {
  const footer = Footer.encode(new Footer(schema, undefined, blocks, []));
  const length = new Uint8Array(4);
  new DataView(length.buffer).setInt32(0, footer.byteLength, true);
  return [
    { kind: 'bytes', bytes: footer },
    { kind: 'bytes', bytes: length },
    { kind: 'bytes', bytes: ARROW_MAGIC },
  ];
}

/**
 * A piece of the stream: bytes as they are (a message, stored values, explicit times, a validity bitmap), zeros (padding,
 * a null column), the implicit times of a batch, or stored values converted to float64.
 */
type Part =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'zeros'; length: number }
  | { kind: 'time'; start: number; frequency: number; count: number }
  | { kind: 'converted'; raw: RawSampleArray; conversion: LinearConversion }
  /** u32 offsets (from 0) written as int64: a LargeUtf8 or LargeBinary column's. */
  | { kind: 'offsets64'; offsets: Uint32Array };

function partLength(p: Part): number {
  switch (p.kind) {
    case 'bytes':
      return p.bytes.byteLength;
    case 'zeros':
      return p.length;
    case 'time':
      return p.count * 8;
    case 'converted':
      return p.raw.length * 8;
    case 'offsets64':
      return p.offsets.length * 8;
  }
}

/** Writes `n` bytes of `part` from its byte `from` at `at` of `chunk` (fresh, so zeroed). Float64 parts come 8-aligned in the stream and in the chunk. */
function fill(part: Part, from: number, n: number, chunk: Uint8Array, at: number): void {
  switch (part.kind) {
    case 'bytes':
      chunk.set(part.bytes.subarray(from, from + n), at);
      return;
    case 'zeros':
      return;
    case 'time': {
      const out = new Float64Array(chunk.buffer, chunk.byteOffset + at, n / 8);
      const { start, frequency } = part;
      const first = from / 8;
      // The same arithmetic as the JSON and binary reads' implicit time: sample i at start + i / frequency.
      for (let k = 0; k < out.length; k++) out[k] = start + (first + k) / frequency;
      return;
    }
    case 'converted':
      convertInto(part.raw, part.conversion, from / 8, n / 8, new Float64Array(chunk.buffer, chunk.byteOffset + at, n / 8));
      return;
    case 'offsets64': {
      // Little-endian int64 of offsets below 2^32: the low word, the high word left zero.
      const out = new Uint32Array(chunk.buffer, chunk.byteOffset + at, n / 4);
      const first = from / 8;
      for (let k = 0; k < out.length / 2; k++) out[2 * k] = part.offsets[first + k] as number;
      return;
    }
  }
}

function* chunksOf(parts: readonly Part[], length: number, size: number): Generator<Uint8Array> {
  if (size <= 0 || size % 8 !== 0) throw new Error(`an Arrow chunk is a multiple of 8 bytes, not ${size}`);
  let left = length;
  let chunk = new Uint8Array(Math.min(size, left));
  let at = 0;
  for (const part of parts) {
    const total = partLength(part);
    let from = 0;
    while (from < total) {
      const n = Math.min(chunk.byteLength - at, total - from);
      fill(part, from, n, chunk, at);
      at += n;
      from += n;
      if (at === chunk.byteLength) {
        yield chunk;
        left -= at;
        chunk = new Uint8Array(Math.min(size, left));
        at = 0;
      }
    }
  }
}

/** An IPC message as the stream carries it: the continuation marker, the metadata's length, the metadata, padded to 8 bytes. */
function framed(message: Message): Uint8Array {
  const metadata = Message.encode(message);
  const out = new Uint8Array((8 + metadata.byteLength + 7) & ~7);
  const view = new DataView(out.buffer);
  view.setInt32(0, -1, true);
  view.setInt32(4, out.byteLength - 8, true);
  out.set(metadata, 8);
  return out;
}

/** A column's part of one record batch: its field nodes (the column's, then a list's child) and its buffers, in IPC order. */
interface ColumnBody {
  nodes: FieldNode[];
  buffers: Part[];
}

interface Column {
  name: string;
  type: DataType;
  metadata: Record<string, string>;
  /** In its own batch: its values (`length` rows). */
  own(length: number): ColumnBody;
  /** In another time base's batch: `length` nulls, their validity and values zeros. */
  empty(length: number): ColumnBody;
}

const bytesOf = (a: ArrayBufferView): Part => ({ kind: 'bytes', bytes: new Uint8Array(a.buffer, a.byteOffset, a.byteLength) });
const zeros = (length: number): Part => ({ kind: 'zeros', length });
const NONE = zeros(0);
/** Arrow validity bits of `length` rows (1 = a value) from gap bytes (1 = none), and how many are null; none without gaps. */
function validityOf(gaps: Uint8Array | undefined, length: number): { validity: Part; nulls: number } {
  if (!gaps) return { validity: NONE, nulls: 0 };
  const bits = new Uint8Array((length + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    if (gaps[i] === 1) nulls++;
    else bits[i >> 3] |= 1 << (i & 7);
  }
  // As apache-arrow's assembler: a column without nulls has an empty validity buffer.
  return nulls > 0 ? { validity: bytesOf(bits), nulls } : { validity: NONE, nulls: 0 };
}

function columnOf({ series, conversion }: ArrowSeries, largeValuesBytes: number): Column {
  const metadata: Record<string, string> = {
    unit: series.unit,
    frequency: String(series.frequency),
    ...(isIdentity(conversion) ? {} : { conversion: JSON.stringify({ numerator: conversion.numerator, denominator: conversion.denominator, offset: conversion.offset }) }),
    // Events and arrays are never thinned: as the JSON record's `maxPointsApplied`.
    ...(series.maxPointsApplied === false ? { maxPointsApplied: 'false' } : {}),
  };
  if (isEventSeries(series)) return eventColumn(series, metadata, largeValuesBytes);
  return series.dimension > 1 ? arrayColumn(series, metadata) : numberColumn(series, metadata);
}

/** The values of a numeric series as the stream carries them, and their type: stored values converted to float64, or the samples as they are. */
function valuesOf(series: ChannelSeries): { type: DataType; width: number; values: Part } {
  const samples = series.samples;
  // Values under their own conversion are exact as stored; a scaled or offset conversion makes float64.
  const converted = series.conversion !== undefined && !isIdentity(series.conversion);
  const type = converted ? new Float64() : samples instanceof Int16Array ? new Int16() : samples instanceof Int32Array ? new Int32() : samples instanceof Float32Array ? new Float32() : new Float64();
  return {
    type,
    width: converted ? 8 : samples.BYTES_PER_ELEMENT,
    values: converted ? { kind: 'converted', raw: samples as RawSampleArray, conversion: series.conversion as LinearConversion } : bytesOf(samples),
  };
}

function numberColumn(series: ChannelSeries, metadata: Record<string, string>): Column {
  const { type, width, values } = valuesOf(series);
  const { validity, nulls } = validityOf(series.gaps, series.samples.length);
  return {
    name: series.name,
    type,
    metadata,
    own: (length) => ({ nodes: [new FieldNode(length, nulls)], buffers: [validity, values] }),
    empty: (length) => ({ nodes: [new FieldNode(length, length)], buffers: [zeros((length + 7) >> 3), zeros(length * width)] }),
  };
}

/**
 * An array channel: FixedSizeList of its `dimension` values a sample (row-major, as the JSON record lists them), the
 * element typed as a numeric column's; a gap is a null list (its values are not read), a stored NaN stays NaN.
 */
function arrayColumn(series: ChannelSeries, metadata: Record<string, string>): Column {
  const d = series.dimension;
  const { type, width, values } = valuesOf(series);
  const { validity, nulls } = validityOf(series.gaps, series.samples.length / d);
  return {
    name: series.name,
    type: new FixedSizeList(d, new Field('item', type, true)),
    metadata,
    own: (length) => ({ nodes: [new FieldNode(length, nulls), new FieldNode(length * d, 0)], buffers: [validity, NONE, values] }),
    empty: (length) => ({ nodes: [new FieldNode(length, length), new FieldNode(length * d, 0)], buffers: [zeros((length + 7) >> 3), NONE, zeros(length * d * width)] }),
  };
}

/**
 * A text or byte channel: Utf8 of its texts (already UTF-8, as the JSON record's strings) or Binary of its bytes, the
 * events' offsets (from 0) and bytes as they are; a gap is a null (its value is empty). Past `largeValuesBytes` of
 * values, LargeUtf8 or LargeBinary (64-bit offsets).
 */
function eventColumn(series: EventSeries, metadata: Record<string, string>, largeValuesBytes: number): Column {
  const large = series.bytes.byteLength >= largeValuesBytes;
  const type = series.kind === 'text' ? (large ? new LargeUtf8() : new Utf8()) : large ? new LargeBinary() : new Binary();
  const offsetWidth = large ? 8 : 4;
  const { validity, nulls } = validityOf(series.gaps, series.times.length);
  return {
    name: series.name,
    type,
    metadata,
    // Below 2^31, the u32 offsets are the int32 ones as they are.
    own: (length) => ({ nodes: [new FieldNode(length, nulls)], buffers: [validity, large ? { kind: 'offsets64', offsets: series.offsets } : bytesOf(series.offsets), bytesOf(series.bytes)] }),
    empty: (length) => ({ nodes: [new FieldNode(length, length)], buffers: [zeros((length + 7) >> 3), zeros((length + 1) * offsetWidth), NONE] }),
  };
}

interface TimeBase {
  members: number[];
  length: number;
  /** The batch's time column. */
  time: Part;
  /** Its explicit times, when they are (compared with the next series' to share the batch). */
  times?: Float64Array;
}

/**
 * The series grouped by time base, in their order: implicit time by (rate, start, length); explicit times by their
 * values (the columns of an irregular CSV share one batch; M4 reads of different channels rarely do). Explicit times
 * are keyed by a hash of their bytes and compared in full with the group's, so the grouping costs one pass over each.
 * Events always carry their times: those that are a regular channel's implicit times, value for value (the text of
 * an MDF group beside its numbers), join that channel's batch.
 */
function timeBases(series: readonly ReadSeries[]): TimeBase[] {
  const groups = new Map<string, TimeBase[]>();
  const ordered: TimeBase[] = [];
  series.forEach((s, k) => {
    const n = isEventSeries(s) ? s.times.length : s.samples.length / Math.max(1, s.dimension);
    const times = isEventSeries(s) && isImplicit(s) ? undefined : s.times;
    const key = times ? `explicit ${n} ${hashOf(times)}` : `${s.frequency} ${s.startTime} ${n}`;
    const candidates = groups.get(key) ?? [];
    // At most SAME_KEY_COMPARED groups of one key are compared in full: times crafted to share a 32-bit hash would
    // otherwise compare every channel with every other. Past them a series is a batch of its own (still a valid answer).
    const group = candidates.length > SAME_KEY_COMPARED ? undefined : candidates.find((g) => !times || sameTimes(g.times as Float64Array, times));
    if (group) {
      group.members.push(k);
      return;
    }
    const created = { members: [k], length: n, time: times ? bytesOf(times) : ({ kind: 'time', start: s.startTime, frequency: s.frequency, count: n } as const), ...(times ? { times } : {}) };
    candidates.push(created);
    groups.set(key, candidates);
    ordered.push(created);
  });
  return ordered;
}

/** Groups of one hash key whose times a series is compared with before it is given a batch of its own. */
const SAME_KEY_COMPARED = 8;

/** Events whose times are start + i / frequency exactly: the implicit time column's values, bit for bit. */
function isImplicit(s: EventSeries): boolean {
  if (!(s.frequency > 0)) return false;
  for (let i = 0; i < s.times.length; i++) if (s.times[i] !== s.startTime + i / s.frequency) return false;
  return true;
}

/** FNV-1a over the 32-bit words of the times' bytes: equal times, equal hash. */
function hashOf(times: Float64Array): number {
  const words = new Uint32Array(times.buffer, times.byteOffset, times.length * 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ (words[i] as number), 0x01000193);
  return h >>> 0;
}

function sameTimes(a: Float64Array, b: Float64Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/**
 * One record batch: its message (the nodes and buffer regions apache-arrow's assembler would make: an empty validity
 * buffer for a column without nulls, every buffer padded to 8 bytes) and its body's parts.
 */
function batchParts(columns: readonly Column[], { members, length, time }: TimeBase): { parts: Part[]; metadataLength: number; bodyLength: number } {
  const nodes: FieldNode[] = [];
  const regions: BufferRegion[] = [];
  const body: Part[] = [];
  let offset = 0;
  const buffer = (part: Part) => {
    const n = partLength(part);
    const padded = (n + 7) & ~7;
    regions.push(new BufferRegion(offset, padded));
    offset += padded;
    if (n > 0) body.push(part);
    if (padded > n) body.push({ kind: 'zeros', length: padded - n });
  };
  nodes.push(new FieldNode(length, 0));
  buffer(NONE);
  buffer(time);
  const inBatch = new Set(members);
  columns.forEach((c, k) => {
    // The columns of other time bases: all null, their validity and values zeros.
    const column = inBatch.has(k) ? c.own(length) : c.empty(length);
    nodes.push(...column.nodes);
    column.buffers.forEach(buffer);
  });
  const header = framed(Message.from(new RecordBatchHeader(length, nodes, regions, null), offset));
  return { parts: [{ kind: 'bytes', bytes: header }, ...body], metadataLength: header.byteLength, bodyLength: offset };
}
