import { CHANNEL, EVENT, HEADER, LD_MARKER, type LdScaling, SAMPLE_BYTES, scalingTerms, VEHICLE, VENUE } from './ld-layout';

/** One channel to write; values are physical and are encoded with the channel's scaling. */
export interface LdChannelInput {
  name: string;
  shortName?: string;
  unit?: string;
  /** Whole Hz, 1 to 65535. */
  frequency: number;
  type?: 'int16' | 'int32' | 'float32';
  /** Defaults to shift 0, mul 1, scale 1, dec 0. */
  scaling?: Partial<LdScaling>;
  samples?: ArrayLike<number>;
  /** With `fill`, the number of samples; `fill` writes physical values for [firstIndex, firstIndex + out.length). */
  sampleCount?: number;
  fill?: (firstIndex: number, out: Float64Array) => void;
}

export interface LdFileInput {
  properties?: {
    eventName?: string;
    sessionName?: string;
    driverName?: string;
    venueName?: string;
    carId?: string;
    comment?: string;
    /** ISO local date-time, e.g. "2026-03-14T10:30:00". */
    outingTime?: string;
  };
  deviceType?: string;
  deviceSerial?: number;
  channels: LdChannelInput[];
}

const EVENT_AT = HEADER.size;
const VENUE_AT = EVENT_AT + EVENT.size;
const VEHICLE_AT = VENUE_AT + VENUE.size;
const CHANNELS_AT = VEHICLE_AT + VEHICLE.size;
const CHUNK_SAMPLES = 1 << 20;

/** Writes a whole `.ld` file in memory (small files, tests, demo data). */
export function writeLdFile(file: LdFileInput): Uint8Array {
  const chunks = [...encodeLdFile(file)];
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Yields the file as consecutive chunks (header and catalogue first, then samples) so large files can be streamed to disk. */
export function* encodeLdFile(file: LdFileInput): Generator<Uint8Array> {
  const channels = file.channels.map(normaliseChannel);
  const metaEnd = CHANNELS_AT + channels.length * CHANNEL.size;
  const dataPtrs: number[] = [];
  let at = align8(metaEnd);
  for (const c of channels) {
    dataPtrs.push(at);
    at = align8(at + c.sampleCount * SAMPLE_BYTES[c.type]);
  }

  const head = new Uint8Array(align8(metaEnd));
  const view = new DataView(head.buffer);
  writeHeader(view, head, file, channels.length, metaEnd === CHANNELS_AT ? 0 : CHANNELS_AT, dataPtrs[0] ?? align8(metaEnd));
  channels.forEach((c, i) => writeChannelBlock(view, head, CHANNELS_AT + i * CHANNEL.size, c, i, channels.length, dataPtrs[i]));
  yield head;

  for (const c of channels) {
    yield* encodeSamples(c);
    const size = c.sampleCount * SAMPLE_BYTES[c.type];
    if (align8(size) !== size) yield new Uint8Array(align8(size) - size);
  }
}

interface NormalisedChannel {
  input: LdChannelInput;
  type: 'int16' | 'int32' | 'float32';
  sampleCount: number;
  scaling: LdScaling;
}

function normaliseChannel(input: LdChannelInput): NormalisedChannel {
  if (!Number.isInteger(input.frequency) || input.frequency < 1 || input.frequency > 65535) {
    throw new RangeError(`channel ${input.name}: frequency must be a whole number of Hz in 1..65535`);
  }
  const scaling = { shift: 0, mul: 1, scale: 1, dec: 0, ...input.scaling };
  if (scaling.scale === 0 || scaling.mul === 0) throw new RangeError(`channel ${input.name}: scale and mul must not be 0`);
  const sampleCount = input.samples ? input.samples.length : input.sampleCount;
  if (sampleCount === undefined || (!input.samples && !input.fill)) throw new RangeError(`channel ${input.name}: give samples, or sampleCount with fill`);
  return { input, type: input.type ?? 'int16', sampleCount, scaling };
}

function* encodeSamples(c: NormalisedChannel): Generator<Uint8Array> {
  const { numerator, denominator, offset } = scalingTerms(c.scaling);
  const physical = new Float64Array(Math.min(CHUNK_SAMPLES, c.sampleCount));
  for (let first = 0; first < c.sampleCount; first += CHUNK_SAMPLES) {
    const n = Math.min(CHUNK_SAMPLES, c.sampleCount - first);
    const values = physical.subarray(0, n);
    const { fill, samples } = c.input;
    if (fill) fill(first, values);
    else if (samples) for (let i = 0; i < n; i++) values[i] = samples[first + i];
    const raw = c.type === 'int16' ? new Int16Array(n) : c.type === 'int32' ? new Int32Array(n) : new Float32Array(n);
    const [min, max] = c.type === 'int16' ? [-32768, 32767] : [-2147483648, 2147483647];
    for (let i = 0; i < n; i++) {
      const r = ((values[i] - offset) * denominator) / numerator;
      raw[i] = c.type === 'float32' ? r : Math.min(max, Math.max(min, Math.round(r)));
    }
    // Samples are little-endian on disk; every supported host is little-endian (the reader checks).
    yield new Uint8Array(raw.buffer, 0, n * SAMPLE_BYTES[c.type]);
  }
}

function writeHeader(view: DataView, bytes: Uint8Array, file: LdFileInput, count: number, metaPtr: number, dataPtr: number): void {
  const p = file.properties ?? {};
  view.setUint32(HEADER.marker, LD_MARKER, true);
  view.setUint32(HEADER.channelMetaPtr, metaPtr, true);
  view.setUint32(HEADER.channelDataPtr, dataPtr, true);
  view.setUint32(HEADER.eventPtr, EVENT_AT, true);
  view.setUint32(HEADER.deviceSerial, file.deviceSerial ?? 0, true);
  text(bytes, HEADER.deviceType, 8, file.deviceType ?? 'PITWALL');
  view.setUint16(HEADER.deviceVersion, 100, true);
  view.setUint32(HEADER.channelCount, count, true);
  const when = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(p.outingTime ?? '');
  if (when) {
    text(bytes, HEADER.date, 16, `${when[3]}/${when[2]}/${when[1]}`);
    text(bytes, HEADER.time, 16, `${when[4]}:${when[5]}:${when[6]}`);
  }
  text(bytes, HEADER.driver, 64, p.driverName ?? '');
  text(bytes, HEADER.vehicleId, 64, p.carId ?? '');
  text(bytes, HEADER.venue, 64, p.venueName ?? '');
  text(bytes, HEADER.shortComment, 64, p.comment ?? '');

  text(bytes, EVENT_AT + EVENT.name, 64, p.eventName ?? '');
  text(bytes, EVENT_AT + EVENT.session, 64, p.sessionName ?? '');
  text(bytes, EVENT_AT + EVENT.comment, 1024, p.comment ?? '');
  view.setUint16(EVENT_AT + EVENT.venuePtr, VENUE_AT, true);
  text(bytes, VENUE_AT + VENUE.name, 64, p.venueName ?? '');
  view.setUint16(VENUE_AT + VENUE.vehiclePtr, VEHICLE_AT, true);
  text(bytes, VEHICLE_AT + VEHICLE.id, 64, p.carId ?? '');
}

function writeChannelBlock(view: DataView, bytes: Uint8Array, at: number, c: NormalisedChannel, index: number, count: number, dataPtr: number): void {
  view.setUint32(at + CHANNEL.prev, index === 0 ? 0 : at - CHANNEL.size, true);
  view.setUint32(at + CHANNEL.next, index === count - 1 ? 0 : at + CHANNEL.size, true);
  view.setUint32(at + CHANNEL.dataPtr, dataPtr, true);
  view.setUint32(at + CHANNEL.sampleCount, c.sampleCount, true);
  view.setUint16(at + CHANNEL.counter, index, true);
  view.setUint16(at + CHANNEL.typeClass, c.type === 'float32' ? 7 : 3, true);
  view.setUint16(at + CHANNEL.typeSize, SAMPLE_BYTES[c.type], true);
  view.setUint16(at + CHANNEL.frequency, c.input.frequency, true);
  view.setInt16(at + CHANNEL.shift, c.scaling.shift, true);
  view.setInt16(at + CHANNEL.mul, c.scaling.mul, true);
  view.setInt16(at + CHANNEL.scale, c.scaling.scale, true);
  view.setInt16(at + CHANNEL.dec, c.scaling.dec, true);
  text(bytes, at + CHANNEL.name, 32, c.input.name);
  text(bytes, at + CHANNEL.shortName, 8, c.input.shortName ?? c.input.name.slice(0, 8));
  text(bytes, at + CHANNEL.unit, 12, c.input.unit ?? '');
}

/** Latin-1 text, truncated to leave room for the NUL terminator. */
function text(bytes: Uint8Array, at: number, size: number, value: string): void {
  for (let i = 0; i < Math.min(value.length, size - 1); i++) bytes[at + i] = value.charCodeAt(i) & 0xff;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
