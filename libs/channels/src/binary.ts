import type { ChannelSeries } from './series';

/**
 * Binary channel body (docs/binary-channels.md): little-endian, every array 8-byte aligned from the start of the
 * body, so a client views samples, times and gap masks in place. Layout version 1.
 */
export const CHANNELS_MAGIC = 0x48435750; // "PWCH" read as a little-endian u32
export const CHANNELS_VERSION = 1;
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

const FLAG_TIMES = 1;
const FLAG_GAPS = 2;
const FLAG_RAW = 4;

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

interface BlockLayout {
  s: ChannelSeries;
  name: Uint8Array;
  unit: Uint8Array;
  n: number;
  samplesAt: number;
  timesAt: number;
  gapsAt: number;
  size: number;
}

function layoutOf(s: ChannelSeries): BlockLayout {
  const name = utf8.encode(s.name);
  const unit = utf8.encode(s.unit);
  if (name.length > MAX_CHANNEL_TEXT_BYTES || unit.length > MAX_CHANNEL_TEXT_BYTES) throw new RangeError(`channel name or unit of ${s.name.slice(0, 40)} is too long`);
  const n = s.samples.length / Math.max(1, s.dimension);
  if (!Number.isInteger(n)) throw new RangeError(`channel ${s.name}: ${s.samples.length} values are not a whole number of ${s.dimension}-value samples`);
  if (s.times && s.times.length !== n) throw new RangeError(`channel ${s.name}: ${s.times.length} times for ${n} samples`);
  if (s.gaps && s.gaps.length !== n) throw new RangeError(`channel ${s.name}: ${s.gaps.length} gap flags for ${n} samples`);
  const samplesAt = BLOCK_HEADER + pad8(name.length + unit.length);
  const timesAt = samplesAt + pad8(s.samples.byteLength);
  const gapsAt = timesAt + (s.times ? n * 8 : 0);
  const size = gapsAt + (s.gaps ? pad8(n) : 0);
  return { s, name, unit, n, samplesAt, timesAt, gapsAt, size };
}

function writeFileHeader(view: DataView, count: number): void {
  view.setUint32(0, CHANNELS_MAGIC, true);
  view.setUint16(4, CHANNELS_VERSION, true);
  view.setUint16(6, FILE_HEADER, true);
  view.setUint32(8, count, true);
}

/** Writes a block's header, name and unit at `at` of `out` (the `samplesAt` bytes before its samples). */
function writeBlockHeader(out: Uint8Array, view: DataView, at: number, p: BlockLayout): void {
  const { s } = p;
  const flags = (s.times ? FLAG_TIMES : 0) | (s.gaps ? FLAG_GAPS : 0) | (s.conversion ? FLAG_RAW : 0);
  view.setUint32(at, p.size, true);
  view.setUint8(at + 4, encodingOf(s.samples));
  view.setUint8(at + 5, flags);
  view.setUint16(at + 6, p.name.length, true);
  view.setUint16(at + 8, p.unit.length, true);
  view.setUint16(at + 10, s.dimension, true);
  view.setUint32(at + 12, p.n, true);
  view.setFloat64(at + 16, s.frequency, true);
  view.setFloat64(at + 24, s.startTime, true);
  view.setFloat64(at + 32, s.conversion?.numerator ?? 1, true);
  view.setFloat64(at + 40, s.conversion?.denominator ?? 1, true);
  view.setFloat64(at + 48, s.conversion?.offset ?? 0, true);
  out.set(p.name, at + BLOCK_HEADER);
  out.set(p.unit, at + BLOCK_HEADER + p.name.length);
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Encodes the series of one read into one body (an ArrayBuffer-backed Uint8Array starting at offset 0). */
export function encodeChannels(series: readonly ChannelSeries[]): Uint8Array {
  const parts = series.map(layoutOf);
  const total = FILE_HEADER + parts.reduce((sum, p) => sum + p.size, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  writeFileHeader(view, series.length);
  let at = FILE_HEADER;
  for (const p of parts) {
    const { s } = p;
    writeBlockHeader(out, view, at, p);
    // Typed arrays are host-endian; every host Node and browsers run on is little-endian, checked once below.
    out.set(bytesOf(s.samples), at + p.samplesAt);
    if (s.times) out.set(bytesOf(s.times), at + p.timesAt);
    if (s.gaps) out.set(s.gaps, at + p.gapsAt);
    at += p.size;
  }
  return out;
}

/** The byte length of the body `encodeChannels` makes of `series`, without making it. */
export function encodedChannelsLength(series: readonly ChannelSeries[]): number {
  return FILE_HEADER + series.reduce((sum, s) => sum + layoutOf(s).size, 0);
}

/**
 * The same body as `encodeChannels`, in chunks of `chunkBytes` (the last shorter), each a new buffer of its own: an
 * answer streamed as it is encoded never exists whole.
 */
export function* encodeChannelsChunks(series: readonly ChannelSeries[], chunkBytes: number): Generator<Uint8Array> {
  const parts = series.map(layoutOf);
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
  const header = new Uint8Array(FILE_HEADER);
  writeFileHeader(new DataView(header.buffer), series.length);
  yield* put(header);
  for (const p of parts) {
    const { s } = p;
    const head = new Uint8Array(p.samplesAt);
    writeBlockHeader(head, new DataView(head.buffer), 0, p);
    yield* put(head);
    yield* put(bytesOf(s.samples));
    yield* put(p.timesAt - p.samplesAt - s.samples.byteLength);
    if (s.times) yield* put(bytesOf(s.times));
    if (s.gaps) {
      yield* put(s.gaps);
      yield* put(p.size - p.gapsAt - s.gaps.byteLength);
    }
  }
  if (filled > 0) yield chunk.subarray(0, filled).slice();
}

/**
 * Decodes a body into series whose samples, times and gaps are views on the body's buffer (no copy). A body that
 * does not start on an 8-byte boundary of its buffer is copied once, as a whole, to align it.
 */
export function decodeChannels(body: ArrayBuffer | Uint8Array): ChannelSeries[] {
  let bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
  if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (at: number, size: number, what: string) => {
    if (at + size > bytes.byteLength) throw new ChannelsDecodeError(`${what} runs past the end of the body (${bytes.byteLength} bytes)`, at);
  };
  need(0, FILE_HEADER, 'header');
  if (view.getUint32(0, true) !== CHANNELS_MAGIC) throw new ChannelsDecodeError('not a binary channels body (magic is not "PWCH")', 0);
  const version = view.getUint16(4, true);
  if (version !== CHANNELS_VERSION) throw new ChannelsDecodeError(`layout version ${version} is not supported (this decoder reads ${CHANNELS_VERSION})`, 4);
  const count = view.getUint32(8, true);
  const out: ChannelSeries[] = [];
  let at = view.getUint16(6, true);
  if (at % 8 !== 0 || at < FILE_HEADER) throw new ChannelsDecodeError(`header size ${at} is not a multiple of 8 of at least ${FILE_HEADER}`, 6);
  for (let k = 0; k < count; k++) {
    need(at, BLOCK_HEADER, 'channel header');
    const size = view.getUint32(at, true);
    if (size % 8 !== 0 || size < BLOCK_HEADER) throw new ChannelsDecodeError(`channel block size ${size} is not a multiple of 8 of at least ${BLOCK_HEADER}`, at);
    need(at, size, 'channel block');
    const code = view.getUint8(at + 4);
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
    out.push(series);
    at += size;
  }
  return out;
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
