import { type EventSeries, isEventSeries, type ReadSeries } from './events';
import type { ChannelSeries } from './series';

/**
 * Binary channel body (docs/binary-channels.md): little-endian, every array 8-byte aligned from the start of the
 * body, so a client views samples, times and gap masks in place. Layout version 2 adds the blocks of text and byte
 * channels (events: offsets and bytes); a body without them is written as version 1, byte for byte as before.
 */
export const CHANNELS_MAGIC = 0x48435750; // "PWCH" read as a little-endian u32
/** The newest layout this code writes and reads; it reads version 1 too. */
export const CHANNELS_VERSION = 2;
/** The layout of a body whose channels are all numbers. */
const NUMBERS_ONLY_VERSION = 1;
export const CHANNELS_MEDIA_TYPE = 'application/x-service-channels';

/**
 * The most bytes of UTF-8 a channel's name or its unit may have: the block header gives each length as a u16. The
 * service refuses to read a channel past it in JSON as well, so both bodies of one read answer alike.
 */
export const MAX_CHANNEL_TEXT_BYTES = 0xffff;

const FILE_HEADER = 16;
const BLOCK_HEADER = 56;

/** Sample encodings of a channel block (byte 4). */
const ENCODINGS = [
  { code: 1, ctor: Float64Array },
  { code: 2, ctor: Float32Array },
  { code: 3, ctor: Int16Array },
  { code: 4, ctor: Int32Array },
] as const;

/** Event encodings (layout 2): offsets and UTF-8 text, or offsets and bytes. */
const EVENT_ENCODINGS = { text: 5, bytes: 6 } as const;

const FLAG_TIMES = 1;
const FLAG_GAPS = 2;
const FLAG_RAW = 4;
/** Set when the read asked for maxPoints and this block has every sample all the same (events, arrays). */
const FLAG_ALL_SAMPLES = 8;

export class ChannelsDecodeError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`binary channels: ${message} (at byte ${offset})`);
    this.name = 'ChannelsDecodeError';
  }
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8');
const pad8 = (n: number) => (n + 7) & ~7;

function encodingOf(samples: ChannelSeries['samples']): number {
  const found = ENCODINGS.find((e) => samples instanceof e.ctor);
  if (!found) throw new TypeError('samples must be a Float64Array, Float32Array, Int16Array or Int32Array');
  return found.code;
}

/**
 * A block as the pieces it is written from, in order: bytes to copy, or a count of zero bytes (padding). Both the whole
 * body and the streamed one are written from these, so they are the same bytes.
 */
interface BlockPart {
  size: number;
  pieces(): Generator<Uint8Array | number>;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

const partOf = (s: ReadSeries): BlockPart => (isEventSeries(s) ? eventPart(s) : numberPart(s));

function fileHeader(series: readonly ReadSeries[]): Uint8Array {
  const out = new Uint8Array(FILE_HEADER);
  const view = new DataView(out.buffer);
  view.setUint32(0, CHANNELS_MAGIC, true);
  view.setUint16(4, series.some(isEventSeries) ? CHANNELS_VERSION : NUMBERS_ONLY_VERSION, true);
  view.setUint16(6, FILE_HEADER, true);
  view.setUint32(8, series.length, true);
  return out;
}

/** Encodes the series of one read into one body (an ArrayBuffer-backed Uint8Array starting at offset 0). */
export function encodeChannels(series: readonly ReadSeries[]): Uint8Array {
  const parts = series.map(partOf);
  const out = new Uint8Array(FILE_HEADER + parts.reduce((sum, p) => sum + p.size, 0));
  out.set(fileHeader(series), 0);
  let at = FILE_HEADER;
  for (const p of parts) for (const piece of p.pieces()) {
    // Typed arrays are host-endian; every host Node and browsers run on is little-endian, checked once below.
    if (typeof piece !== 'number') out.set(piece, at);
    at += typeof piece === 'number' ? piece : piece.byteLength;
  }
  return out;
}

/** The byte length of the body `encodeChannels` makes of `series`, without making it. */
export function encodedChannelsLength(series: readonly ReadSeries[]): number {
  return FILE_HEADER + series.reduce((sum, s) => sum + partOf(s).size, 0);
}

/**
 * The same body as `encodeChannels`, in chunks of `chunkBytes` (the last shorter), each a new buffer of its own: an
 * answer streamed as it is encoded never exists whole.
 */
export function* encodeChannelsChunks(series: readonly ReadSeries[], chunkBytes: number): Generator<Uint8Array> {
  const parts = series.map(partOf);
  let chunk = new Uint8Array(chunkBytes);
  let filled = 0;
  // Copies `bytes` into the chunks, handing each on as it fills; zero padding is left as allocated.
  function* put(bytes: Uint8Array | number): Generator<Uint8Array> {
    let from = 0;
    const length = typeof bytes === 'number' ? bytes : bytes.byteLength;
    while (from < length) {
      const n = Math.min(length - from, chunkBytes - filled);
      if (typeof bytes !== 'number') chunk.set(bytes.subarray(from, from + n), filled);
      filled += n;
      from += n;
      if (filled === chunkBytes) {
        yield chunk;
        chunk = new Uint8Array(chunkBytes);
        filled = 0;
      }
    }
  }
  yield* put(fileHeader(series));
  for (const p of parts) for (const piece of p.pieces()) yield* put(piece);
  if (filled > 0) yield chunk.subarray(0, filled).slice();
}

/** A block's header, name and unit, padded to where its arrays start. */
function blockHead(length: number, h: { size: number; encoding: number; flags: number; name: Uint8Array; unit: Uint8Array; dimension: number; n: number; frequency: number; startTime: number; conversion?: { numerator: number; denominator: number; offset: number } }): Uint8Array {
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  view.setUint32(0, h.size, true);
  view.setUint8(4, h.encoding);
  view.setUint8(5, h.flags);
  view.setUint16(6, h.name.length, true);
  view.setUint16(8, h.unit.length, true);
  view.setUint16(10, h.dimension, true);
  view.setUint32(12, h.n, true);
  view.setFloat64(16, h.frequency, true);
  view.setFloat64(24, h.startTime, true);
  if (h.conversion) {
    view.setFloat64(32, h.conversion.numerator, true);
    view.setFloat64(40, h.conversion.denominator, true);
    view.setFloat64(48, h.conversion.offset, true);
  }
  out.set(h.name, BLOCK_HEADER);
  out.set(h.unit, BLOCK_HEADER + h.name.length);
  return out;
}

function namesOf(s: { name: string; unit: string }): { name: Uint8Array; unit: Uint8Array } {
  const name = utf8.encode(s.name);
  const unit = utf8.encode(s.unit);
  if (name.length > MAX_CHANNEL_TEXT_BYTES || unit.length > MAX_CHANNEL_TEXT_BYTES) throw new RangeError(`channel name or unit of ${s.name.slice(0, 40)} is too long`);
  return { name, unit };
}

/** The block of a text or byte channel (layout 2): offsets (n + 1 u32), the bytes, the times, the gaps. */
function eventPart(s: EventSeries): BlockPart {
  const { name, unit } = namesOf(s);
  const n = s.times.length;
  if (s.offsets.length !== n + 1) throw new RangeError(`channel ${s.name}: ${s.offsets.length} offsets for ${n} events`);
  if (s.gaps && s.gaps.length !== n) throw new RangeError(`channel ${s.name}: ${s.gaps.length} gap flags for ${n} events`);
  const first = s.offsets[0] as number;
  const length = (s.offsets[n] as number) - first;
  const offsetsAt = BLOCK_HEADER + pad8(name.length + unit.length);
  const bytesAt = offsetsAt + pad8(4 * (n + 1));
  const timesAt = bytesAt + pad8(length);
  const gapsAt = timesAt + 8 * n;
  const size = gapsAt + (s.gaps ? pad8(n) : 0);
  return {
    size,
    *pieces() {
      const flags = FLAG_TIMES | (s.gaps ? FLAG_GAPS : 0) | (s.maxPointsApplied === false ? FLAG_ALL_SAMPLES : 0);
      yield blockHead(offsetsAt, { size, encoding: EVENT_ENCODINGS[s.kind], flags, name, unit, dimension: 1, n, frequency: s.frequency, startTime: s.startTime });
      const offsets = new Uint32Array(n + 1);
      for (let i = 0; i <= n; i++) offsets[i] = (s.offsets[i] as number) - first;
      yield bytesOf(offsets);
      yield bytesAt - offsetsAt - offsets.byteLength;
      yield s.bytes.subarray(first, first + length);
      yield timesAt - bytesAt - length;
      yield bytesOf(s.times);
      if (s.gaps) {
        yield s.gaps;
        yield size - gapsAt - s.gaps.byteLength;
      }
    },
  };
}

/** The block of a numeric channel, as layout 1 has it. */
function numberPart(s: ChannelSeries): BlockPart {
  const { name, unit } = namesOf(s);
  const n = s.samples.length / Math.max(1, s.dimension);
  if (!Number.isInteger(n)) throw new RangeError(`channel ${s.name}: ${s.samples.length} values are not a whole number of ${s.dimension}-value samples`);
  if (s.times && s.times.length !== n) throw new RangeError(`channel ${s.name}: ${s.times.length} times for ${n} samples`);
  if (s.gaps && s.gaps.length !== n) throw new RangeError(`channel ${s.name}: ${s.gaps.length} gap flags for ${n} samples`);
  const samplesAt = BLOCK_HEADER + pad8(name.length + unit.length);
  const timesAt = samplesAt + pad8(s.samples.byteLength);
  const gapsAt = timesAt + (s.times ? n * 8 : 0);
  const size = gapsAt + (s.gaps ? pad8(n) : 0);
  return {
    size,
    *pieces() {
      const flags = (s.times ? FLAG_TIMES : 0) | (s.gaps ? FLAG_GAPS : 0) | (s.conversion ? FLAG_RAW : 0) | (s.maxPointsApplied === false ? FLAG_ALL_SAMPLES : 0);
      const conversion = { numerator: s.conversion?.numerator ?? 1, denominator: s.conversion?.denominator ?? 1, offset: s.conversion?.offset ?? 0 };
      yield blockHead(samplesAt, { size, encoding: encodingOf(s.samples), flags, name, unit, dimension: s.dimension, n, frequency: s.frequency, startTime: s.startTime, conversion });
      yield bytesOf(s.samples);
      yield timesAt - samplesAt - s.samples.byteLength;
      if (s.times) yield bytesOf(s.times);
      if (s.gaps) {
        yield s.gaps;
        yield size - gapsAt - s.gaps.byteLength;
      }
    },
  };
}

/**
 * Decodes a body into series whose samples, times and gaps are views on the body's buffer (no copy). A body that
 * does not start on an 8-byte boundary of its buffer is copied once, as a whole, to align it.
 */
export function decodeChannels(body: ArrayBuffer | Uint8Array): ReadSeries[] {
  let bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
  if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (at: number, size: number, what: string) => {
    if (at + size > bytes.byteLength) throw new ChannelsDecodeError(`${what} runs past the end of the body (${bytes.byteLength} bytes)`, at);
  };
  need(0, FILE_HEADER, 'header');
  if (view.getUint32(0, true) !== CHANNELS_MAGIC) throw new ChannelsDecodeError('not a binary channels body (magic is not "PWCH")', 0);
  const version = view.getUint16(4, true);
  if (version !== NUMBERS_ONLY_VERSION && version !== CHANNELS_VERSION) throw new ChannelsDecodeError(`layout version ${version} is not supported (this decoder reads ${NUMBERS_ONLY_VERSION} and ${CHANNELS_VERSION})`, 4);
  const count = view.getUint32(8, true);
  const out: ReadSeries[] = [];
  let at = view.getUint16(6, true);
  if (at % 8 !== 0 || at < FILE_HEADER) throw new ChannelsDecodeError(`header size ${at} is not a multiple of 8 of at least ${FILE_HEADER}`, 6);
  for (let k = 0; k < count; k++) {
    need(at, BLOCK_HEADER, 'channel header');
    const size = view.getUint32(at, true);
    if (size % 8 !== 0 || size < BLOCK_HEADER) throw new ChannelsDecodeError(`channel block size ${size} is not a multiple of 8 of at least ${BLOCK_HEADER}`, at);
    need(at, size, 'channel block');
    const code = view.getUint8(at + 4);
    if (version >= 2 && (code === EVENT_ENCODINGS.text || code === EVENT_ENCODINGS.bytes)) {
      out.push(decodeEvents(bytes, view, at, size, code === EVENT_ENCODINGS.text ? 'text' : 'bytes'));
      at += size;
      continue;
    }
    const encoding = ENCODINGS.find((e) => e.code === code);
    if (!encoding) throw new ChannelsDecodeError(`unknown sample encoding ${code}`, at + 4);
    const flags = view.getUint8(at + 5);
    const nameLength = view.getUint16(at + 6, true);
    const unitLength = view.getUint16(at + 8, true);
    const dimension = view.getUint16(at + 10, true);
    const n = view.getUint32(at + 12, true);
    const textAt = at + BLOCK_HEADER;
    const samplesAt = textAt + pad8(nameLength + unitLength);
    const values = n * Math.max(1, dimension);
    const timesAt = samplesAt + pad8(values * encoding.ctor.BYTES_PER_ELEMENT);
    const gapsAt = timesAt + (flags & FLAG_TIMES ? n * 8 : 0);
    const end = gapsAt + (flags & FLAG_GAPS ? pad8(n) : 0);
    if (end !== at + size) throw new ChannelsDecodeError(`channel block size ${size} does not match its ${n} samples`, at);
    const base = bytes.byteOffset;
    const series: ChannelSeries = {
      name: utf8Decoder.decode(bytes.subarray(textAt, textAt + nameLength)),
      unit: utf8Decoder.decode(bytes.subarray(textAt + nameLength, textAt + nameLength + unitLength)),
      frequency: view.getFloat64(at + 16, true),
      dimension,
      startTime: view.getFloat64(at + 24, true),
      samples: sampleView(code, bytes.buffer, base + samplesAt, values),
    };
    if (flags & FLAG_RAW) {
      series.conversion = { numerator: view.getFloat64(at + 32, true), denominator: view.getFloat64(at + 40, true), offset: view.getFloat64(at + 48, true) };
    }
    if (flags & FLAG_TIMES) series.times = new Float64Array(bytes.buffer, base + timesAt, n);
    if (flags & FLAG_GAPS) series.gaps = new Uint8Array(bytes.buffer, base + gapsAt, n);
    if (flags & FLAG_ALL_SAMPLES) series.maxPointsApplied = false;
    out.push(series);
    at += size;
  }
  return out;
}

/** An event block: its offsets, bytes, times and gaps as views on the body. */
function decodeEvents(bytes: Uint8Array, view: DataView, at: number, size: number, kind: EventSeries['kind']): EventSeries {
  const flags = view.getUint8(at + 5);
  const nameLength = view.getUint16(at + 6, true);
  const unitLength = view.getUint16(at + 8, true);
  const n = view.getUint32(at + 12, true);
  if (!(flags & FLAG_TIMES)) throw new ChannelsDecodeError('an event block without times', at + 5);
  const textAt = at + BLOCK_HEADER;
  const offsetsAt = textAt + pad8(nameLength + unitLength);
  const bytesAt = offsetsAt + pad8(4 * (n + 1));
  if (bytesAt > at + size) throw new ChannelsDecodeError(`channel block size ${size} does not match its ${n} events`, at);
  const base = bytes.byteOffset;
  const offsets = new Uint32Array(bytes.buffer, base + offsetsAt, n + 1);
  const length = offsets[n] as number;
  for (let i = 0; i < n; i++) if ((offsets[i] as number) > (offsets[i + 1] as number)) throw new ChannelsDecodeError(`event offsets go backwards at event ${i}`, offsetsAt + 4 * i);
  const timesAt = bytesAt + pad8(length);
  const gapsAt = timesAt + 8 * n;
  const end = gapsAt + (flags & FLAG_GAPS ? pad8(n) : 0);
  if (offsets[0] !== 0 || end !== at + size) throw new ChannelsDecodeError(`channel block size ${size} does not match its ${n} events`, at);
  const series: EventSeries = {
    kind,
    name: utf8Decoder.decode(bytes.subarray(textAt, textAt + nameLength)),
    unit: utf8Decoder.decode(bytes.subarray(textAt + nameLength, textAt + nameLength + unitLength)),
    frequency: view.getFloat64(at + 16, true),
    startTime: view.getFloat64(at + 24, true),
    times: new Float64Array(bytes.buffer, base + timesAt, n),
    offsets,
    bytes: bytes.subarray(bytesAt, bytesAt + length),
  };
  if (flags & FLAG_GAPS) series.gaps = new Uint8Array(bytes.buffer, base + gapsAt, n);
  if (flags & FLAG_ALL_SAMPLES) series.maxPointsApplied = false;
  return series;
}

function sampleView(code: number, buffer: ArrayBufferLike, at: number, length: number): ChannelSeries['samples'] {
  switch (code) {
    case 1:
      return new Float64Array(buffer, at, length);
    case 2:
      return new Float32Array(buffer, at, length);
    case 3:
      return new Int16Array(buffer, at, length);
    default:
      return new Int32Array(buffer, at, length);
  }
}

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  throw new Error('@pitwall/channels needs a little-endian host (typed arrays are host-endian)');
}
