import { decodeHalf } from '../float16';
import { CorruptDataFileError, DataFileLimitError, DEFAULT_MAX_LAPS_PER_FILE, InvalidSliceError, limitOption, NotADataFileError, UnsupportedFeatureError } from '../errors';
import { HEADER, SAMPLE_BYTES } from '../ld/ld-layout';
import { LD_FORMAT, ldChannelInfos, ldDuration, ldLapChannel, ldRunningLapTimeChannel, type LdChannelBlock, type LdReadOptions, readProperties, walkChannelBlocks } from '../ld/ld-reader';
import { LDX_FORMAT, ldxBeaconTimes } from '../ld/ldx';
import type { ScopedEvents } from './events';
import {
  boundariesFromBeaconPulses,
  boundariesFromLapCounter,
  type ChannelInfo,
  firstNonZeroSample,
  isRunningLapTimeUnit,
  lapsFromBoundaries,
  refineLapBoundaries,
  RunningLapTimeCrossings,
  runningLapTimeStart,
  runningLapTimeWindow,
  withRunningLapTimeStart,
} from '../model';
import type { ByteSource } from '../source/byte-source';
import { sampleIndexRange } from '../slice';
import { parseFromSource, SparseView, walkFromSource } from '../source/sparse-view';
import { channelFor, type RandomAccessDataFile, type SampleRange } from './random-access';
import { physicalChannel, type StoredChannel } from './stored-channel';

/**
 * MoTeC `.ld` over a ByteSource. Opening reads the header, event, venue and vehicle blocks and the channel list (one
 * 64 KiB read for a usual file) and, without an .ldx, the lap channel; a channel read reads exactly the bytes of its
 * sample range.
 */
export async function openLdSource(source: ByteSource, options: LdReadOptions = {}): Promise<RandomAccessDataFile> {
  const view = new SparseView(source, LD_FORMAT);
  // The header and the event, venue and vehicle blocks: a few loads, each a run of a cheap parse. The channel list,
  // as long as the file allows, is walked once, each block loaded before it is parsed.
  const properties = await parseFromSource(view, (v) => {
    if (v.length < 8 || v.u32(0) !== 0x40 || v.u16(4) !== 0) throw new NotADataFileError();
    v.require(0, HEADER.size, 'header');
    return readProperties(v);
  });
  const blocks = await walkFromSource(view, walkChannelBlocks(view, options.maxChannels));
  const channels = ldChannelInfos(blocks);
  const blockOf = new Map(channels.map((info, k) => [info.name, blocks[k]] as const));

  const catalogue = { format: LD_FORMAT, channels } as const;
  const readStored = async (name: string, range?: SampleRange): Promise<StoredChannel> => {
    const info = channelFor(catalogue, name);
    const block = blockOf.get(info.name) as LdChannelBlock;
    const from = range?.from ?? 0;
    const to = range?.to ?? block.sampleCount;
    if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= block.sampleCount)) {
      throw new InvalidSliceError(`sample range [${from}, ${to}) is outside 0..${block.sampleCount} of ${name}`);
    }
    return readBlockRange(source, block, info.name, from, to);
  };

  const duration = ldDuration(blocks);
  const beacons = options.beaconTimes ?? (options.ldx === undefined ? undefined : ldxBeaconTimes(options.ldx));
  const boundaries = beacons ?? (await lapChannelBoundaries(channels, (name) => blockOf.get(name) as LdChannelBlock, readStored, limitOption('maxLaps', options.maxLaps ?? DEFAULT_MAX_LAPS_PER_FILE)));
  // A .ld has numeric channels only.
  const readEvents = async (name: string): Promise<ScopedEvents> => {
    channelFor(catalogue, name);
    throw new UnsupportedFeatureError(LD_FORMAT, `numeric channel ${name} read as events`);
  };
  // Laps too many by the .ldx's beacons are the .ldx's refusal (the service names that file).
  return { format: LD_FORMAT, properties, startTime: 0, duration, laps: lapsFromBoundaries(0, duration, boundaries, beacons ? LDX_FORMAT : LD_FORMAT, options.maxLaps), channels, readStored, readEvents };
}

/** Samples of the lap channel (or of Running Lap Time, around its boundaries) read and converted at a time. */
const LAP_SCAN_CHUNK = 65_536;

/**
 * The laps of a .ld without .ldx (as readLdFile finds them: its lap channel's changes, placed by Running Lap Time),
 * read in chunks of LAP_SCAN_CHUNK samples so that a long lap channel costs neither its whole length in memory nor
 * one long turn of the event loop. The scan stops at `maxLaps` boundaries, which make one lap more than `maxLaps`: the
 * file is refused there, before anything else is read. Of Running Lap Time only the samples around each boundary are
 * read, the windows of neighbouring boundaries together (a read spans at most LAP_SCAN_CHUNK samples), so the reads
 * grow with the channel's length, not with the laps; with `Lap Number`, also its samples from the file's first up to
 * the first boundary's window (all of them without boundaries), in reads of LAP_SCAN_CHUNK stopping at the first that
 * is not 0, for where it started running (withRunningLapTimeStart): that scan and the first windows are one read when
 * they fit in one.
 */
async function lapChannelBoundaries(infos: readonly ChannelInfo[], blockOf: (name: string) => LdChannelBlock, readStored: (name: string, range?: SampleRange) => Promise<StoredChannel>, maxLaps: number): Promise<number[]> {
  const lapChannel = ldLapChannel(infos);
  if (!lapChannel) return runningLapTimeAlone(infos, blockOf, readStored, maxLaps);
  const count = blockOf(lapChannel.name).sampleCount;
  // One boundary is enough to pass a bound of 0 laps (a file without boundaries has none).
  const enough = Math.max(1, maxLaps);
  const boundaries: number[] = [];
  for (let from = 0; from < count && boundaries.length < enough; from += LAP_SCAN_CHUNK) {
    // One sample of overlap: a change between two chunks is seen once, in the later one.
    const chunk = physicalChannel(await readStored(lapChannel.name, { from: Math.max(0, from - 1), to: Math.min(count, from + LAP_SCAN_CHUNK) }));
    const left = enough - boundaries.length;
    // One by one: a chunk of a lap channel that changes every sample has 65,536 boundaries, too many to spread into push's arguments.
    for (const boundary of lapChannel.kind === 'counter' ? boundariesFromLapCounter(chunk, left) : boundariesFromBeaconPulses(chunk, left)) boundaries.push(boundary);
  }
  // The boundaries increase strictly inside the file (after its first sample, before its end), and refining keeps them
  // so: lapsFromBoundaries would make one lap more than there are boundaries.
  if (boundaries.length > 0 && boundaries.length >= maxLaps) throw new DataFileLimitError(LD_FORMAT, 'laps', maxLaps, maxLaps + 1);
  const running = ldRunningLapTimeChannel(infos);
  const counter = lapChannel.kind === 'counter';
  if (running === null || (boundaries.length === 0 && !counter)) return boundaries;
  const { sampleCount, frequency, unit } = blockOf(running);
  const lapPeriod = 1 / blockOf(lapChannel.name).frequency;
  const time = { kind: 'implicit', start: 0, frequency } as const;
  const atOrAfter = (t: number) => sampleIndexRange(time, sampleCount, t, Infinity).from;
  // The windows move forward with the boundaries (both their ends), so a run of them is one range.
  const spans = boundaries.map((boundary) => ({ boundary, ...runningLapTimeWindow(boundary, lapPeriod, atOrAfter, sampleCount) }));
  // Where Running Lap Time leaves 0 (-1: not yet), scanned from its first sample up to scanEnd; read with the first
  // run of windows when that fits in one read.
  const scan = counter && isRunningLapTimeUnit(unit);
  const scanEnd = spans.length > 0 ? spans[0].to : sampleCount;
  const withFirstRun = scan && spans.length > 0 && scanEnd <= LAP_SCAN_CHUNK;
  let leaves = -1;
  let leavesAt = 0;
  if (scan && !withFirstRun) {
    for (let from = 0; from < scanEnd && leaves < 0; from += LAP_SCAN_CHUNK) {
      const values = physicalChannel(await readStored(running, { from, to: Math.min(scanEnd, from + LAP_SCAN_CHUNK) })).samples;
      const at = firstNonZeroSample(values);
      if (at >= 0) [leaves, leavesAt] = [from + at, values[at] as number];
    }
  }
  const windows = new Map<number, { times: number[]; values: Float64Array }>();
  for (let first = 0; first < spans.length; ) {
    const from = first === 0 && withFirstRun ? 0 : spans[first].from;
    let to = spans[first].to;
    let next = first + 1;
    while (next < spans.length && spans[next].to - from <= LAP_SCAN_CHUNK) to = Math.max(to, spans[next++].to);
    const values = to > from ? physicalChannel(await readStored(running, { from, to })).samples : new Float64Array(0);
    if (first === 0 && withFirstRun) {
      leaves = firstNonZeroSample(values.subarray(0, scanEnd));
      if (leaves >= 0) leavesAt = values[leaves] as number;
    }
    for (const span of spans.slice(first, next)) {
      const times = Array.from({ length: span.to - span.from }, (_, k) => (span.from + k) / frequency);
      windows.set(span.boundary, { times, values: Float64Array.from(values.subarray(span.from - from, span.to - from)) });
    }
    first = next;
  }
  const refined = refineLapBoundaries(boundaries, unit, 0, (boundary) => windows.get(boundary) as { times: number[]; values: Float64Array });
  if (!scan || leaves < 0) return refined;
  return withRunningLapTimeStart(boundaries, refined, runningLapTimeStart(leaves, leaves / frequency, leavesAt, unit, 0), lapPeriod);
}

/**
 * The laps of a .ld with neither `Lap Number` nor `Beacon` (nor .ldx): the crossings its `Running Lap Time` gives alone
 * (RunningLapTimeCrossings, as readLdFile finds them), scanned in reads of LAP_SCAN_CHUNK samples and stopped at
 * `maxLaps` crossings (the file is then refused, as for a lap channel). None without such a channel in s or ms.
 */
async function runningLapTimeAlone(infos: readonly ChannelInfo[], blockOf: (name: string) => LdChannelBlock, readStored: (name: string, range?: SampleRange) => Promise<StoredChannel>, maxLaps: number): Promise<number[]> {
  const running = ldRunningLapTimeChannel(infos);
  if (running === null) return [];
  const { sampleCount, frequency, unit } = blockOf(running);
  if (!isRunningLapTimeUnit(unit)) return [];
  const scan = new RunningLapTimeCrossings(unit, Math.max(1, maxLaps));
  for (let from = 0; from < sampleCount && !scan.full; from += LAP_SCAN_CHUNK) {
    const values = physicalChannel(await readStored(running, { from, to: Math.min(sampleCount, from + LAP_SCAN_CHUNK) })).samples as Float64Array;
    scan.push(values, (k) => (from + k) / frequency);
  }
  const crossings = scan.finish();
  if (crossings.length > 0 && crossings.length >= maxLaps) throw new DataFileLimitError(LD_FORMAT, 'laps', maxLaps, maxLaps + 1);
  return crossings;
}

/** Reads samples [from, to) of a block: one read of exactly those bytes (offsets were checked against the size at open). */
async function readBlockRange(source: ByteSource, block: LdChannelBlock, name: string, from: number, to: number): Promise<StoredChannel> {
  const type = block.type;
  if (!type) throw new CorruptDataFileError(LD_FORMAT, `channel ${name} has no readable sample type`, block.offset); // channelFor refused it already
  const width = SAMPLE_BYTES[type];
  const n = to - from;
  const bytes = n === 0 ? new Uint8Array(0) : await source.read(block.dataPtr + from * width, n * width);
  // The source returns a fresh buffer starting at byte 0, so every typed array below is aligned.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let samples: Int16Array | Int32Array | Float32Array;
  switch (type) {
    case 'int16':
      samples = littleEndian(n, Int16Array, (i) => view.getInt16(i * 2, true), bytes);
      break;
    case 'int32':
      samples = littleEndian(n, Int32Array, (i) => view.getInt32(i * 4, true), bytes);
      break;
    case 'float32':
      samples = littleEndian(n, Float32Array, (i) => view.getFloat32(i * 4, true), bytes);
      break;
    case 'float16':
      samples = decodeHalf(littleEndian(n, Uint16Array, (i) => view.getUint16(i * 2, true), bytes), new Float32Array(n));
      break;
  }
  return {
    name,
    unit: block.unit,
    frequency: block.frequency,
    dimension: 1,
    time: { kind: 'implicit', start: from / block.frequency, frequency: block.frequency },
    samples,
    conversion: { ...block.terms },
  };
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type StoredView = Int16Array | Int32Array | Float32Array | Uint16Array;
/** A typed-array view of the bytes read (no copy) on a little-endian host when aligned; a decoded copy otherwise. */
function littleEndian<T extends StoredView>(
  n: number,
  ctor: { new (buffer: ArrayBuffer, offset: number, length: number): T; new (length: number): T; BYTES_PER_ELEMENT: number },
  get: (i: number) => number,
  bytes: Uint8Array,
): T {
  if (LITTLE_ENDIAN_HOST && bytes.byteOffset % ctor.BYTES_PER_ELEMENT === 0 && bytes.buffer instanceof ArrayBuffer) return new ctor(bytes.buffer, bytes.byteOffset, n);
  const out = new ctor(n);
  for (let i = 0; i < n; i++) out[i] = get(i);
  return out;
}
