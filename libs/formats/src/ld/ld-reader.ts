import { applyConversion, type RawSampleArray } from '@pitwall/channels';
import { BinaryView, LITTLE_ENDIAN_HOST } from '../binary-view';
import { decodeHalf } from '../float16';
import { DataFileLimitError, DEFAULT_MAX_CHANNELS_PER_FILE, limitOption, UnsupportedFeatureError } from '../errors';
import {
  boundariesOfLapChannels,
  buildDataFile,
  type ChannelData,
  type ChannelInfo,
  type ChannelSource,
  type DataFile,
  emptyProperties,
  type FileProperties,
  lapsFromBoundaries,
  type SampleArray,
  uniqueName,
} from '../model';
import { CHANNEL, EVENT, HEADER, type LdSampleType, ldSampleType, SAMPLE_BYTES, scalingTerms, VEHICLE, VENUE } from './ld-layout';
import { LDX_FORMAT, ldxBeaconTimes } from './ldx';
import { firstOverlap } from '../spans';
import { type ByteRange, type FieldReader, walkInMemory } from '../source/sparse-view';

export const LD_FORMAT = 'motec-ld';
const FORMAT = LD_FORMAT;

export function isLdFile(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytes[0] === 0x40 && bytes[1] === 0 && bytes[2] === 0 && bytes[3] === 0 && bytes[4] === 0 && bytes[5] === 0;
}

export interface LdChannelBlock {
  offset: number;
  name: string;
  unit: string;
  frequency: number;
  sampleCount: number;
  dataPtr: number;
  type: LdSampleType | null;
  typeCodes: string;
  terms: { numerator: number; denominator: number; offset: number };
}

export interface LdReadOptions {
  /** Companion `.ldx` (XML) whose beacon markers give the lap boundaries. */
  ldx?: Uint8Array | string;
  /** The beacon times (s) of an `.ldx` already parsed (`ldxBeaconTimes`, e.g. off the event loop), in place of `ldx`. */
  beaconTimes?: number[];
  /** More channel blocks than this is a DataFileLimitError (default DEFAULT_MAX_CHANNELS_PER_FILE). */
  maxChannels?: number;
  /** More laps than this is a DataFileLimitError (default DEFAULT_MAX_LAPS_PER_FILE). */
  maxLaps?: number;
}

export function readLdFile(bytes: Uint8Array, options: LdReadOptions = {}): DataFile {
  const bin = new BinaryView(bytes, FORMAT);
  bin.require(0, HEADER.size, 'header');
  const properties = readProperties(bin);
  const blocks = readChannelBlocks(bin, options.maxChannels);

  const sources: ChannelSource[] = ldChannelInfos(blocks).map((info, k) => ({ info, read: () => decodeChannel(bytes, blocks[k], info.name) }));
  const duration = ldDuration(blocks);
  // Laps too many by the .ldx's beacons are the .ldx's refusal (the service names that file).
  const { boundaries, from } = lapBoundaries(sources, options);
  const laps = lapsFromBoundaries(0, duration, boundaries, from, options.maxLaps);
  return buildDataFile({ format: FORMAT, properties, startTime: 0, duration, laps }, sources);
}

/** Catalogue entries of the channel blocks, in file order, with names made unique. */
export function ldChannelInfos(blocks: readonly LdChannelBlock[]): ChannelInfo[] {
  const taken = new Set<string>();
  return blocks.map((block) => ({
    name: uniqueName(block.name, taken),
    unit: block.unit,
    frequency: block.frequency,
    regular: true,
    sampleCount: block.sampleCount,
    dimension: 1,
    dataType: block.type ?? `unknown (${block.typeCodes})`,
    ...(block.type ? {} : { unsupported: `sample type ${block.typeCodes}` }),
  }));
}

/** Seconds of the longest channel. Counts of channels with an unknown sample type were never checked against the file, so they do not set the length. */
export function ldDuration(blocks: readonly LdChannelBlock[]): number {
  return blocks.reduce((max, b) => (b.type ? Math.max(max, b.sampleCount / b.frequency) : max), 0);
}

/** The channel whose samples give the laps when there is no .ldx: `Lap Number`, else a `Beacon` pulse channel. */
export function ldLapChannel(infos: readonly ChannelInfo[]): { name: string; kind: 'counter' | 'beacon' } | null {
  const find = (name: string) => infos.find((i) => i.name.toLowerCase() === name && !i.unsupported);
  const lapNumber = find('lap number');
  if (lapNumber) return { name: lapNumber.name, kind: 'counter' };
  const beacon = find('beacon');
  return beacon ? { name: beacon.name, kind: 'beacon' } : null;
}

/** The channel that restarts from zero at each line crossing (`Running Lap Time`), which places the laps of a lap channel. */
export function ldRunningLapTimeChannel(infos: readonly ChannelInfo[]): string | null {
  return infos.find((i) => i.name.toLowerCase() === 'running lap time' && !i.unsupported)?.name ?? null;
}

/** The lap boundaries and the format they come from: the .ldx's beacons, or else the .ld's lap channel. */
function lapBoundaries(sources: ChannelSource[], options: LdReadOptions): { boundaries: number[]; from: string } {
  const beacons = options.beaconTimes ?? (options.ldx === undefined ? undefined : ldxBeaconTimes(options.ldx));
  if (beacons) return { boundaries: beacons, from: LDX_FORMAT };
  const infos = sources.map((s) => s.info);
  const lapChannel = ldLapChannel(infos);
  const runningName = ldRunningLapTimeChannel(infos);
  const reader = (name: string) => (sources.find((s) => s.info.name === name) as ChannelSource).read;
  return { boundaries: boundariesOfLapChannels(lapChannel && { kind: lapChannel.kind, read: reader(lapChannel.name) }, runningName === null ? null : reader(runningName), options.maxLaps, 0), from: FORMAT };
}

export function readProperties(bin: FieldReader): FileProperties {
  const properties = emptyProperties();
  const text = (value: string) => (value === '' ? null : value);
  properties.driverName = text(bin.latin1(HEADER.driver, 64));
  properties.carId = text(bin.latin1(HEADER.vehicleId, 64));
  properties.venueName = text(bin.latin1(HEADER.venue, 64));
  properties.comment = text(bin.latin1(HEADER.shortComment, 64));
  properties.outingTime = outingTime(bin.latin1(HEADER.date, 16), bin.latin1(HEADER.time, 16));

  const eventPtr = bin.u32(HEADER.eventPtr);
  if (eventPtr === 0) return properties;
  bin.require(eventPtr, EVENT.size, 'event block');
  properties.eventName = text(bin.latin1(eventPtr + EVENT.name, 64));
  properties.sessionName = text(bin.latin1(eventPtr + EVENT.session, 64));
  properties.comment = text(bin.latin1(eventPtr + EVENT.comment, 1024)) ?? properties.comment;

  const venuePtr = bin.u16(eventPtr + EVENT.venuePtr);
  if (venuePtr === 0) return properties;
  bin.require(venuePtr, VENUE.size, 'venue block');
  properties.venueName = text(bin.latin1(venuePtr + VENUE.name, 64)) ?? properties.venueName;

  const vehiclePtr = bin.u16(venuePtr + VENUE.vehiclePtr);
  if (vehiclePtr === 0) return properties;
  bin.require(vehiclePtr, VEHICLE.size, 'vehicle block');
  properties.carId = text(bin.latin1(vehiclePtr + VEHICLE.id, 64)) ?? properties.carId;
  return properties;
}

/** "23/11/2005" + "09:53:00" → "2005-11-23T09:53:00" (the logger records local time without a zone). */
function outingTime(date: string, time: string): string | null {
  const d = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(date);
  const t = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!d || !t) return null;
  const year = d[3].length === 2 ? `20${d[3]}` : d[3];
  const pad = (v: string | undefined) => (v ?? '0').padStart(2, '0');
  return `${year}-${pad(d[2])}-${pad(d[1])}T${pad(t[1])}:${pad(t[2])}:${pad(t[3])}`;
}

/**
 * The channel blocks in list order: at most `maxChannels` (one more is a DataFileLimitError, before it is parsed),
 * each one's samples inside the file and apart from every other channel's (CorruptDataFileError otherwise).
 */
export function readChannelBlocks(bin: FieldReader, maxChannels = DEFAULT_MAX_CHANNELS_PER_FILE): LdChannelBlock[] {
  return walkInMemory(walkChannelBlocks(bin, maxChannels));
}

/**
 * readChannelBlocks as a walk: it yields each range (the list's head pointer, then each block) before it reads it, so
 * that a reader over a ByteSource loads the block and resumes the walk there (walkFromSource), parsing the list once.
 */
export function* walkChannelBlocks(bin: FieldReader, maxChannels = DEFAULT_MAX_CHANNELS_PER_FILE): Generator<ByteRange, LdChannelBlock[]> {
  const max = limitOption('maxChannels', maxChannels);
  const blocks: LdChannelBlock[] = [];
  const seen = new Set<number>();
  yield { offset: HEADER.channelMetaPtr, size: 4 };
  for (let ptr = bin.u32(HEADER.channelMetaPtr); ptr !== 0; ) {
    // A damaged next pointer can loop back; each block is visited once.
    if (seen.has(ptr)) throw bin.corrupt('channel list loops back on itself', ptr);
    if (blocks.length >= max) throw new DataFileLimitError(FORMAT, 'channels', max, max + 1);
    seen.add(ptr);
    bin.require(ptr, CHANNEL.size, 'channel block');
    yield { offset: ptr, size: CHANNEL.size };
    blocks.push(readChannelBlock(bin, ptr));
    ptr = bin.u32(ptr + CHANNEL.next);
  }
  refuseSharedSamples(bin, blocks);
  return blocks;
}

/**
 * Channels whose sample bytes overlap are refused: a file whose channels all point at the same bytes would make a
 * read of all of them decode the file once per channel (its size squared), which no logger writes.
 */
function refuseSharedSamples(bin: FieldReader, blocks: readonly LdChannelBlock[]): void {
  const spans = blocks.filter((b) => b.type && b.sampleCount > 0).map((b) => ({ offset: b.dataPtr, length: b.sampleCount * SAMPLE_BYTES[b.type as LdSampleType], block: b }));
  const overlap = firstOverlap(spans);
  if (!overlap) return;
  const [{ block: before }, { block }] = overlap;
  throw bin.corrupt(`samples of channel ${block.name} (at ${block.offset}) overlap those of channel ${before.name} (at ${before.offset})`, block.offset + CHANNEL.dataPtr);
}

function readChannelBlock(bin: FieldReader, ptr: number): LdChannelBlock {
  const typeClass = bin.u16(ptr + CHANNEL.typeClass);
  const typeSize = bin.u16(ptr + CHANNEL.typeSize);
  const type = ldSampleType(typeClass, typeSize);
  const frequency = bin.u16(ptr + CHANNEL.frequency);
  if (frequency === 0) throw bin.corrupt('channel sample rate is 0 Hz', ptr + CHANNEL.frequency);
  const scaling = {
    shift: bin.i16(ptr + CHANNEL.shift),
    mul: bin.i16(ptr + CHANNEL.mul),
    scale: bin.i16(ptr + CHANNEL.scale),
    dec: bin.i16(ptr + CHANNEL.dec),
  };
  if (scaling.scale === 0) throw bin.corrupt('channel scale is 0', ptr + CHANNEL.scale);
  if (Math.abs(scaling.dec) > 30) throw bin.corrupt(`channel decimal shift ${scaling.dec} is out of range`, ptr + CHANNEL.dec);
  const sampleCount = bin.u32(ptr + CHANNEL.sampleCount);
  const dataPtr = bin.u32(ptr + CHANNEL.dataPtr);
  // Checked against the input size before anything is allocated for the samples.
  if (type) bin.require(dataPtr, sampleCount * SAMPLE_BYTES[type], `samples of channel at ${ptr}`);
  return {
    offset: ptr,
    name: bin.latin1(ptr + CHANNEL.name, 32),
    unit: bin.latin1(ptr + CHANNEL.unit, 12),
    frequency,
    sampleCount,
    dataPtr,
    type,
    typeCodes: `${typeClass}/${typeSize}`,
    terms: scalingTerms(scaling),
  };
}

/** The ChannelData of decoded samples of a block (time starting at sample `first`). */
export function ldChannelData(block: LdChannelBlock, name: string, samples: ChannelData['samples'], first = 0): ChannelData {
  return { name, unit: block.unit, frequency: block.frequency, dimension: 1, samples, time: { kind: 'implicit', start: first / block.frequency, frequency: block.frequency } };
}

function decodeChannel(bytes: Uint8Array, block: LdChannelBlock, name: string): ChannelData {
  if (!block.type) throw new UnsupportedFeatureError(FORMAT, `sample type ${block.typeCodes}`);
  return ldChannelData(block, name, decodeSamples(bytes, block.type, block.dataPtr, block.sampleCount, block.terms));
}

/** Decodes n samples at `offset` with the channel's scaling (the one linear conversion of @pitwall/channels). */
export function decodeSamples(
  bytes: Uint8Array,
  type: LdSampleType,
  offset: number,
  n: number,
  terms: { numerator: number; denominator: number; offset: number },
): SampleArray {
  return applyConversion(storedSamples(bytes, type, offset, n), terms);
}

/** The n stored values at `offset` as a typed array (a view when aligned); float16 is widened to float32. */
export function storedSamples(bytes: Uint8Array, type: LdSampleType, offset: number, n: number): Exclude<RawSampleArray, Float64Array> {
  const raw = rawView(bytes, type, offset, n);
  return type === 'float16' ? decodeHalf(raw as Uint16Array, new Float32Array(n)) : (raw as Int16Array | Int32Array | Float32Array);
}

function rawView(bytes: Uint8Array, type: LdSampleType, offset: number, n: number): Int16Array | Int32Array | Uint16Array | Float32Array {
  const width = SAMPLE_BYTES[type];
  const start = bytes.byteOffset + offset;
  let buffer: ArrayBufferLike = bytes.buffer;
  let at = start;
  if (!LITTLE_ENDIAN_HOST) return bigEndianHostView(bytes, type, offset, n);
  if (start % width !== 0) {
    // Typed arrays need aligned offsets; an odd data pointer costs one copy of this channel's bytes.
    buffer = bytes.slice(offset, offset + n * width).buffer;
    at = 0;
  }
  switch (type) {
    case 'int16':
      return new Int16Array(buffer, at, n);
    case 'int32':
      return new Int32Array(buffer, at, n);
    case 'float16':
      return new Uint16Array(buffer, at, n);
    case 'float32':
      return new Float32Array(buffer, at, n);
  }
}

function bigEndianHostView(bytes: Uint8Array, type: LdSampleType, offset: number, n: number): Int16Array | Int32Array | Uint16Array | Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, n * SAMPLE_BYTES[type]);
  const out = type === 'int16' ? new Int16Array(n) : type === 'int32' ? new Int32Array(n) : type === 'float16' ? new Uint16Array(n) : new Float32Array(n);
  for (let i = 0; i < n; i++) {
    out[i] =
      type === 'int16' ? view.getInt16(i * 2, true) : type === 'int32' ? view.getInt32(i * 4, true) : type === 'float16' ? view.getUint16(i * 2, true) : view.getFloat32(i * 4, true);
  }
  return out;
}
