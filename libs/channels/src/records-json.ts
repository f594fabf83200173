import { applyConversion, type LinearConversion, type PhysicalSampleArray, type RawSampleArray } from './conversion';
import { isEventSeries, toEventRecord, type ReadSeries } from './events';
import type { ChannelSeries } from './series';

/** Values converted and written per step: bounded memory however long the channel. */
const STEP = 16 * 1024;
/** The longest text one number takes (`-1.2345678901234567e-308`), with its comma. */
const MAX_NUMBER_BYTES = 32;

const utf8 = new TextEncoder();
const COMMA = 44;
const NULL = utf8.encode('null');

/**
 * Bytes written into chunks of `chunkBytes`, each handed on when full as a view from the start of a buffer of its own
 * (transferable).
 */
class ChunkWriter {
  private chunk: Uint8Array;
  /** The current chunk as a DataView (8 bytes written at once). */
  view: DataView;
  at = 0;
  readonly full: Uint8Array[] = [];

  constructor(readonly chunkBytes: number) {
    this.chunk = new Uint8Array(Math.max(chunkBytes, MAX_NUMBER_BYTES));
    this.view = new DataView(this.chunk.buffer);
  }

  /** Room for `n` more bytes in the current chunk (a number and its comma, or a batch of them): the chunk is handed on first if it has not. */
  room(n: number): Uint8Array {
    if (this.at + n > this.chunk.length) {
      this.flush();
      if (n > this.chunk.length) this.setChunk(new Uint8Array(n));
    }
    return this.chunk;
  }

  text(s: string): void {
    const bytes = utf8.encode(s);
    for (let from = 0; from < bytes.length; ) {
      const n = Math.min(bytes.length - from, this.chunk.length - this.at);
      this.chunk.set(bytes.subarray(from, from + n), this.at);
      this.at += n;
      from += n;
      if (this.at === this.chunk.length) this.flush();
    }
  }

  flush(): void {
    if (this.at === 0) return;
    // A view from the start of its own buffer (transferable whole), not a copy: half the garbage of a long answer.
    this.full.push(this.at === this.chunk.length ? this.chunk : this.chunk.subarray(0, this.at));
    this.setChunk(new Uint8Array(Math.max(this.chunkBytes, MAX_NUMBER_BYTES)));
    this.at = 0;
  }

  private setChunk(chunk: Uint8Array): void {
    this.chunk = chunk;
    this.view = new DataView(chunk.buffer);
  }
}

/**
 * The JSON text of the channel records of `series` (`JSON.stringify(series.map(toChannelRecord))`, byte for byte),
 * as UTF-8 in chunks of at most `chunkBytes`, each starting a buffer of its own: a long read is streamed as it is written, never held
 * whole. `bare` writes the one record of a single-channel read without the array around it.
 *
 * Integers under a decimal scale (`raw × numerator / 10^k`, offset 0: MoTeC's stored values) are written digit by
 * digit, which is what the shortest round-trip form of such a double is (at most 15 significant digits, k ≤ 6);
 * int16 codes under any other conversion are written from a table of their texts, each made once a read with
 * `String`; every other value goes through `String`, as `JSON.stringify` writes it.
 */
export function* channelRecordsJsonChunks(series: readonly ReadSeries[], chunkBytes: number, options: { bare?: boolean } = {}): Generator<Uint8Array> {
  const w = new ChunkWriter(chunkBytes);
  if (!options.bare) w.text('[');
  for (let k = 0; k < series.length; k++) {
    const read = series[k] as ReadSeries;
    if (isEventSeries(read)) {
      // Text and byte values: a record of strings, as toEventRecord makes it (events are never downsampled: bounded by the read budget).
      w.text(`${k ? ',' : ''}${JSON.stringify(toEventRecord(read))}`);
      yield* w.full.splice(0);
      continue;
    }
    const s = read;
    w.text(`${k ? ',' : ''}{"name":${JSON.stringify(s.name)},"unit":${JSON.stringify(s.unit)},"frequency":${JSON.stringify(s.frequency)},"dimension":${JSON.stringify(s.dimension)},"samples":[`);
    const decimal = decimalScale(s);
    const n = s.samples.length;
    // A gap is a sample's: each of an array's values is null (toChannelRecord's rule), so its flag is spread over them.
    const gaps = s.gaps && s.dimension > 1 ? valueGaps(s.gaps, s.dimension) : s.gaps;
    // Any other conversion of int16 values: each of the (at most 65,536) codes met is formatted once for the read.
    const codes = !decimal && s.conversion && s.samples instanceof Int16Array && n >= CODE_TABLE_MIN_SAMPLES ? new Int16CodeTexts(s.conversion) : undefined;
    for (let from = 0; from < n; from += STEP) {
      const to = Math.min(n, from + STEP);
      if (decimal) writeDecimals(w, s.samples as RawSampleArray, gaps, from, to, decimal.numerator, decimal.places);
      else if (codes) writeCodes(w, s.samples as Int16Array, gaps, from, to, codes, MAX_NUMBER_BYTES);
      else writeNumbers(w, s, gaps, from, to);
      yield* w.full.splice(0);
    }
    w.text(']');
    if (s.times) {
      w.text(',"times":[');
      const times = s.times;
      for (let from = 0; from < times.length; from += STEP) {
        writeFloats(w, times, from, Math.min(times.length, from + STEP));
        yield* w.full.splice(0);
      }
      w.text(']');
    }
    if (s.maxPointsApplied === false) w.text(',"maxPointsApplied":false');
    if (s.parameters?.length) w.text(`,"parameters":${JSON.stringify(s.parameters.map((p) => ({ name: p.name, value: p.value, from: p.from })))}`);
    w.text('}');
  }
  if (!options.bare) w.text(']');
  w.flush();
  yield* w.full.splice(0);
}

/** One gap flag a value of an array of `dimension` values a sample, from one a sample. */
function valueGaps(gaps: Uint8Array, dimension: number): Uint8Array {
  const out = new Uint8Array(gaps.length * dimension);
  for (let i = 0; i < gaps.length; i++) if (gaps[i] === 1) out.fill(1, i * dimension, (i + 1) * dimension);
  return out;
}

/** `raw × numerator / 10^places` with integer raw values and no offset, when the series is that; else undefined. */
function decimalScale(s: ChannelSeries): { numerator: number; places: number } | undefined {
  const raw = s.samples;
  if (!(raw instanceof Int16Array || raw instanceof Int32Array)) return undefined;
  const c = s.conversion ?? { numerator: 1, denominator: 1, offset: 0 };
  if (c.offset !== 0 || !Number.isInteger(c.numerator) || Math.abs(c.numerator) > 2 ** 20) return undefined;
  const places = [1, 10, 100, 1e3, 1e4, 1e5, 1e6].indexOf(c.denominator);
  if (places < 0) return undefined;
  return { numerator: c.numerator, places };
}

const digits = new Uint8Array(24);

/** Writes `m / 10^places` (m an integer below 2^53 in magnitude) as its shortest decimal, at `at`; returns the end. */
function writeScaled(out: Uint8Array, at: number, m: number, places: number): number {
  if (m === 0) {
    out[at] = 48;
    return at + 1;
  }
  if (m < 0) {
    out[at++] = 45;
    m = -m;
  }
  // Trailing zeros of the fraction are not written (12.50 is 12.5, 1200/100 is 12).
  while (places > 0 && m % 10 === 0) {
    m /= 10;
    places--;
  }
  let len = 0;
  if (m < 2147483648) {
    let v = m | 0;
    while (v > 0) {
      const q = (v / 10) | 0;
      digits[len++] = 48 + v - q * 10;
      v = q;
    }
  } else {
    while (m > 0) {
      const q = Math.floor(m / 10);
      digits[len++] = 48 + (m - q * 10);
      m = q;
    }
  }
  if (len <= places) {
    out[at++] = 48;
    out[at++] = 46;
    for (let z = places - len; z > 0; z--) out[at++] = 48;
    while (len > 0) out[at++] = digits[--len] as number;
    return at;
  }
  while (len > places) out[at++] = digits[--len] as number;
  if (places > 0) {
    out[at++] = 46;
    while (len > 0) out[at++] = digits[--len] as number;
  }
  return at;
}

/** Texts of int16 codes, by index raw + 32768: code r's is `bytes[starts[r], starts[r] + lengths[r])`. */
interface CodeTexts {
  bytes: Uint8Array;
  /** Undefined: each code's text starts a slot of MAX_NUMBER_BYTES (at r × MAX_NUMBER_BYTES). */
  starts: Uint32Array | undefined;
  lengths: Uint8Array;
  /** Where texts are made on first use (a length still 0): makes code r's, returns its length. */
  make?(r: number): number;
}

/** The text of every int16 value under one decimal scale, back to back. */
interface Int16Texts extends CodeTexts {
  starts: Uint32Array;
  /** Bytes of the longest text. */
  longest: number;
  /** When every text with its comma fits 8 bytes: `,text` of each value as two little-endian u32, and its length. */
  packed?: { lo: Uint32Array; hi: Uint32Array; length: Uint8Array };
}

/** Texts of the scales met lately (a file's channels share a few): 65,536 values, built in a few ms, written by copying. */
const int16Texts = new Map<string, Int16Texts>();

function int16TextsOf(numerator: number, places: number): Int16Texts {
  const key = `${numerator}/${places}`;
  const known = int16Texts.get(key);
  if (known) return known;
  const bytes = new Uint8Array(65536 * MAX_NUMBER_BYTES);
  const starts = new Uint32Array(65537);
  let at = 0;
  for (let r = 0; r < 65536; r++) {
    starts[r] = at;
    at = writeScaled(bytes, at, (r - 32768) * numerator, places);
  }
  starts[65536] = at;
  const lengths = new Uint8Array(65536);
  let longest = 0;
  for (let r = 0; r < 65536; r++) {
    lengths[r] = (starts[r + 1] as number) - (starts[r] as number);
    longest = Math.max(longest, lengths[r] as number);
  }
  const texts: Int16Texts = { bytes: bytes.slice(0, at), starts, lengths, longest };
  if (longest + 1 <= 8) {
    const lo = new Uint32Array(65536);
    const hi = new Uint32Array(65536);
    const length = new Uint8Array(65536);
    const eight = new Uint8Array(8);
    const view = new DataView(eight.buffer);
    for (let r = 0; r < 65536; r++) {
      eight.fill(0);
      eight[0] = COMMA;
      eight.set(bytes.subarray(starts[r] as number, starts[r + 1] as number), 1);
      lo[r] = view.getUint32(0, true);
      hi[r] = view.getUint32(4, true);
      length[r] = (starts[r + 1] as number) - (starts[r] as number) + 1;
    }
    texts.packed = { lo, hi, length };
  }
  if (int16Texts.size >= 8) int16Texts.delete(int16Texts.keys().next().value as string);
  int16Texts.set(key, texts);
  return texts;
}

function writeDecimals(w: ChunkWriter, raw: RawSampleArray, gaps: Uint8Array | undefined, from: number, to: number, numerator: number, places: number): void {
  if (raw instanceof Int16Array && to - from >= 4096) return writeInt16Texts(w, raw, gaps, from, to, int16TextsOf(numerator, places));
  for (let i = from; i < to; i++) {
    const out = w.room(MAX_NUMBER_BYTES);
    let at = w.at;
    if (i > 0) out[at++] = COMMA;
    if (gaps?.[i] === 1) {
      out.set(NULL, at);
      at += 4;
    } else {
      const m = (raw[i] as number) * numerator;
      // Past 15 significant digits the decimal may not be the double's shortest form: written as String writes it.
      if (Math.abs(m) < 1e15) at = writeScaled(out, at, m, places);
      else {
        const text = String(m / 10 ** places);
        for (let c = 0; c < text.length; c++) out[at++] = text.charCodeAt(c);
      }
    }
    w.at = at;
  }
}

function writeInt16Texts(w: ChunkWriter, raw: Int16Array, gaps: Uint8Array | undefined, from: number, to: number, texts: Int16Texts): void {
  // Room for a batch of values at once (each at most its longest text, or null, and a comma), not one by one.
  const perValue = Math.max(texts.longest, 4, 7) + 1;
  const packed = texts.packed;
  if (packed && from > 0) return writePacked(w, raw, gaps, from, to, packed, batchOf(w, perValue), perValue);
  writeCodes(w, raw, gaps, from, to, texts, perValue);
}

/** How many values of at most `perValue` bytes are written at once. */
function batchOf(w: ChunkWriter, perValue: number): number {
  return Math.max(1, Math.min(1024, Math.floor(w.chunkBytes / perValue)));
}

/** Int16 values, with their commas (null for a gap), copied from the texts of their codes, a batch of `perValue` bytes each at a time. */
function writeCodes(w: ChunkWriter, raw: Int16Array, gaps: Uint8Array | undefined, from: number, to: number, texts: CodeTexts, perValue: number): void {
  const { bytes, starts, lengths } = texts;
  const make = (r: number): number => texts.make?.(r) ?? 0;
  const batch = batchOf(w, perValue);
  for (let i = from; i < to; ) {
    const end = Math.min(to, i + batch);
    const out = w.room((end - i) * perValue);
    let at = w.at;
    for (; i < end; i++) {
      if (i > 0) out[at++] = COMMA;
      if (gaps !== undefined && gaps[i] === 1) {
        out[at] = 110;
        out[at + 1] = 117;
        out[at + 2] = 108;
        out[at + 3] = 108;
        at += 4;
        continue;
      }
      const r = (raw[i] as number) + 32768;
      const start = starts === undefined ? r * MAX_NUMBER_BYTES : (starts[r] as number);
      const stop = start + ((lengths[r] as number) || make(r));
      for (let b = start; b < stop; b++) out[at++] = bytes[b] as number;
    }
    w.at = at;
  }
}

/** Each value's comma and text as 8 bytes written at once (the next value's overwrite what is past its length). */
function writePacked(w: ChunkWriter, raw: Int16Array, gaps: Uint8Array | undefined, from: number, to: number, packed: NonNullable<Int16Texts['packed']>, batch: number, perValue: number): void {
  const { lo, hi, length } = packed;
  for (let i = from; i < to; ) {
    const end = Math.min(to, i + batch);
    w.room((end - i) * perValue);
    const view = w.view;
    let at = w.at;
    for (; i < end; i++) {
      if (gaps !== undefined && gaps[i] === 1) {
        view.setUint32(at, 0x6c756e2c, true); // ",nul" (little-endian), then the last "l"
        view.setUint8(at + 4, 108);
        at += 5;
        continue;
      }
      const r = (raw[i] as number) + 32768;
      view.setUint32(at, lo[r] as number, true);
      view.setUint32(at + 4, hi[r] as number, true);
      at += length[r] as number;
    }
    w.at = at;
  }
}

/** Samples from which a channel's int16 codes under a non-decimal conversion are written from a table of their texts. */
const CODE_TABLE_MIN_SAMPLES = 16 * 1024;

/**
 * The texts of an int16 channel's codes under its conversion, made on first use: each code's physical value is
 * computed by `applyConversion` over all 65,536 codes (the same arithmetic as for the samples), and its text is what
 * `JSON.stringify` writes of it (`null` when not finite), kept in a slot of MAX_NUMBER_BYTES.
 */
class Int16CodeTexts implements CodeTexts {
  readonly bytes = new Uint8Array(65536 * MAX_NUMBER_BYTES);
  readonly starts = undefined;
  /** Bytes of each code's text; 0 until it is made. */
  readonly lengths = new Uint8Array(65536);
  private readonly values: PhysicalSampleArray;

  constructor(conversion: LinearConversion) {
    this.values = applyConversion(Int16Array.from({ length: 65536 }, (_, r) => r - 32768), conversion);
  }

  /** Makes the text of code `r` (raw + 32768); returns its length. */
  make(r: number): number {
    const v = this.values[r] as number;
    const text = Number.isFinite(v) ? String(v) : 'null';
    const at = r * MAX_NUMBER_BYTES;
    for (let c = 0; c < text.length; c++) this.bytes[at + c] = text.charCodeAt(c);
    this.lengths[r] = text.length;
    return text.length;
  }
}

/** Float values (explicit times) as `JSON.stringify` writes each (null when not finite), with their commas. */
function writeFloats(w: ChunkWriter, values: Float64Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const v = values[i] as number;
    const text = Number.isFinite(v) ? String(v) : 'null';
    const out = w.room(MAX_NUMBER_BYTES);
    let at = w.at;
    if (i > 0) out[at++] = COMMA;
    for (let c = 0; c < text.length; c++) out[at++] = text.charCodeAt(c);
    w.at = at;
  }
}

/** Any other values: converted a step at a time, each written as `JSON.stringify` writes it (null for gaps, one flag a value, and NaN). */
function writeNumbers(w: ChunkWriter, s: ChannelSeries, gaps: Uint8Array | undefined, from: number, to: number): void {
  const slice = s.samples.subarray(from, to);
  const values = s.conversion ? applyConversion(slice as RawSampleArray, s.conversion) : slice;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const text = gaps?.[from + i] === 1 || !Number.isFinite(v) ? 'null' : String(v);
    const out = w.room(MAX_NUMBER_BYTES);
    let at = w.at;
    if (from + i > 0) out[at++] = COMMA;
    for (let c = 0; c < text.length; c++) out[at++] = text.charCodeAt(c);
    w.at = at;
  }
}
