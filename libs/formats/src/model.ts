import { ChannelNotFoundError, DataFileLimitError, DEFAULT_MAX_LAPS_PER_FILE, limitOption, UnsupportedFeatureError } from './errors';
import { sampleIndexRange } from './slice';

/** Which reader produced a DataFile. */
export type DataFileFormat = 'motec-ld' | 'mdf3' | 'mdf4' | 'csv' | 'motec-csv' | 'lap-set';

/** Descriptive properties of an outing; null where the format does not carry the value. */
export interface FileProperties {
  eventName: string | null;
  sessionName: string | null;
  runNumber: number | null;
  driverName: string | null;
  venueName: string | null;
  carId: string | null;
  /** Wall-clock start of the outing, ISO 8601 (no zone suffix when the file records local time only). */
  outingTime: string | null;
  comment: string | null;
}

/** Position of a lap in the outing: the first is an out-lap, the last an in-lap, the rest flying laps. */
export type LapKind = 'out' | 'flying' | 'in';

export interface Lap {
  index: number;
  /** Seconds on the file's time axis (the same axis as DataFile.startTime and every time base). */
  startTime: number;
  /** Exclusive end, seconds. */
  endTime: number;
  kind: LapKind;
}

/** Storage type of the raw samples in the file, e.g. 'int16', 'uint12', 'float32'; 'string', 'bytes', 'mime', 'date', 'time' and 'complex' (MDF) are not decodable. */
export type SampleDataType = string;

/** Text attached to raw codes by a value/range-to-text conversion; a single value has min === max. */
export interface ChannelLabel {
  min: number;
  max: number;
  text: string;
}

export interface ChannelInfo {
  name: string;
  unit: string;
  /** Sample rate in Hz; for irregular channels the mean rate over the channel. */
  frequency: number;
  /** True when samples sit at start + i / frequency (implicit time base); false when timestamps are explicit. */
  regular: boolean;
  sampleCount: number;
  /** Values per sample: 1, or the element count of an array channel (the product of `shape`). */
  dimension: number;
  /** Array channels only: the size of each of the array's dimensions, e.g. [3, 4] (values row-major in each sample). */
  shape?: number[];
  /** Channels of events that carry text or bytes (MDF strings and byte arrays), read with readEvents; absent: numbers. */
  kind?: EventKind;
  dataType: SampleDataType;
  /** Present for text conversions: samples stay numeric codes, these give their meaning. */
  labels?: ChannelLabel[];
  defaultLabel?: string;
  /** Set when the channel is listed but cannot be decoded; readChannel throws UnsupportedFeatureError naming it. */
  unsupported?: string;
}

/** What the events of a text or byte channel carry: UTF-8 text, or bytes as stored. */
export type EventKind = 'text' | 'bytes';

/**
 * The events of a text or byte channel: event i is at the time base's i-th time and holds bytes[offsets[i],
 * offsets[i + 1]) (UTF-8 for text). Every array owns its buffer.
 */
export interface EventData {
  name: string;
  unit: string;
  kind: EventKind;
  /** Hz of the channel's records (the mean rate when irregular). */
  frequency: number;
  time: TimeBase;
  /** n + 1 offsets into `bytes`, the first 0, the last bytes.length. */
  offsets: Uint32Array;
  bytes: Uint8Array;
  /** 1 where there is no event at that index (its value is empty). */
  gaps?: Uint8Array;
}

export type TimeBase =
  | { kind: 'implicit'; start: number; frequency: number }
  | { kind: 'explicit'; timestamps: Float64Array };

export type SampleArray = Float64Array | Float32Array;

/** Decoded physical samples; every typed array owns its buffer, so it can be transferred out of a worker. */
export interface ChannelData {
  name: string;
  unit: string;
  frequency: number;
  dimension: number;
  samples: SampleArray;
  time: TimeBase;
  /** 1 where there is no sample at that index (the sample holds NaN); absent when there are no gaps. */
  gaps?: Uint8Array;
}

export interface DataFile {
  format: DataFileFormat;
  properties: FileProperties;
  /** Time of the first sample, seconds on the file's time axis. */
  startTime: number;
  /** File length, seconds. */
  duration: number;
  laps: Lap[];
  /** Catalogue read at open; no samples are decoded until readChannel. */
  channels: ChannelInfo[];
  /** Decodes one channel; throws ChannelNotFoundError or UnsupportedFeatureError (also for a text or byte channel). */
  readChannel(name: string): ChannelData;
  /** Decodes the events of a text or byte channel (`kind` set); throws ChannelNotFoundError or UnsupportedFeatureError. */
  readEvents(name: string): EventData;
}

/** What each reader supplies per channel: its catalogue entry and a decoder run on demand. */
export interface ChannelSource {
  info: ChannelInfo;
  read(): ChannelData;
  /** For channels of events (`info.kind`): their decoder. */
  readEvents?(): EventData;
}

export function emptyProperties(): FileProperties {
  return {
    eventName: null,
    sessionName: null,
    runNumber: null,
    driverName: null,
    venueName: null,
    carId: null,
    outingTime: null,
    comment: null,
  };
}

/**
 * The longest channel name kept whole: what a read may name (the API's MAX_CHANNEL_NAME_LENGTH, 16,383), and the
 * longest string V8 hashes by its characters. A longer one (a hostile file naming every channel with one 100 KB text)
 * hashes by its length alone, so thousands of them collided in every Set and Map of names: 30 s to open 2,000.
 */
export const MAX_CHANNEL_NAME_CHARS = 16_383;
/** Room left for a duplicate's " (n)" after a cut name. */
const SUFFIX_ROOM = 16;
/**
 * Room left for what a key built from a name puts before it (the service's cache keys a channel by its file's content
 * hash and its name, about 72 characters): such a key must stay hashable too.
 */
const KEY_ROOM = 128;
/** The longest name kept whole: with a duplicate's suffix and a key's prefix it stays within MAX_CHANNEL_NAME_CHARS. */
export const MAX_KEPT_NAME_CHARS = MAX_CHANNEL_NAME_CHARS - SUFFIX_ROOM - KEY_ROOM;

/**
 * Names must be unique for readChannel(name); later duplicates get " (2)", " (3)"... A name longer than
 * MAX_KEPT_NAME_CHARS is cut there (never inside a surrogate pair), so that no name, suffix included, nor a key built
 * from it is longer than V8 hashes by its characters: a name of 16,383 characters kept whole made its duplicates
 * longer, and 6,000 of them took minutes to open.
 */
export function uniqueName(whole: string, taken: Set<string>): string {
  const name = whole.length > MAX_KEPT_NAME_CHARS ? cutAt(whole, MAX_KEPT_NAME_CHARS) : whole;
  // Where each name's suffixes were left, so that n copies of one name cost n steps, not n squared.
  let next = nextSuffix.get(taken);
  if (!next) nextSuffix.set(taken, (next = new Map()));
  let candidate = name;
  let n = next.get(name) ?? 2;
  for (; taken.has(candidate); n++) candidate = `${name} (${n})`;
  next.set(name, n);
  taken.add(candidate);
  return candidate;
}

const nextSuffix = new WeakMap<Set<string>, Map<string, number>>();

/** The first `end` UTF-16 code units of a name (one fewer where the last would be half a pair). */
function cutAt(name: string, end: number): string {
  if (name.length <= end) return name;
  const last = name.charCodeAt(end - 1);
  return name.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}

/**
 * A field's name under its structure's, `structure.field`, no longer than a cut name: the structure's part is cut first
 * (the field's own part keeps at least half), so that fields of a structure with a 1 MB name stay apart, and each costs
 * at most MAX_CHANNEL_NAME_CHARS, not a copy of that megabyte.
 */
export function fieldName(structure: string, field: string): string {
  const room = MAX_KEPT_NAME_CHARS;
  if (structure.length + 1 + field.length <= room) return `${structure}.${field}`;
  const own = cutAt(field, Math.max(Math.floor(room / 2), room - 1 - structure.length));
  return `${cutAt(structure, room - 1 - own.length)}.${own}`;
}

export function buildDataFile(parts: Omit<DataFile, 'channels' | 'readChannel' | 'readEvents'>, sources: ChannelSource[]): DataFile {
  const byName = new Map(sources.map((s) => [s.info.name, s] as const));
  const sourceOf = (name: string) => {
    const source = byName.get(name);
    if (!source) throw new ChannelNotFoundError(name);
    return source;
  };
  return {
    ...parts,
    channels: sources.map((s) => s.info),
    readChannel(name: string): ChannelData {
      const source = sourceOf(name);
      if (source.info.kind && !source.info.unsupported) throw new UnsupportedFeatureError(parts.format, `${source.info.kind} channel ${name} read as numbers (read its events)`);
      return source.read();
    },
    readEvents(name: string): EventData {
      const source = sourceOf(name);
      if (source.info.unsupported) throw new UnsupportedFeatureError(parts.format, source.info.unsupported);
      if (!source.readEvents) throw new UnsupportedFeatureError(parts.format, `numeric channel ${name} read as events`);
      return source.readEvents();
    },
  };
}

/**
 * Laps between successive boundaries: [start, b1) is the out-lap, [bn, end) the in-lap; no boundary means no laps.
 * More than `maxLaps` laps is a DataFileLimitError of `format`.
 */
export function lapsFromBoundaries(start: number, end: number, boundaries: readonly number[], format: string, maxLaps = DEFAULT_MAX_LAPS_PER_FILE): Lap[] {
  limitOption('maxLaps', maxLaps);
  const sorted = boundaries.filter((b) => Number.isFinite(b) && b > start && b < end).sort((a, b) => a - b);
  const inside = sorted.filter((b, i) => i === 0 || b !== sorted[i - 1]);
  if (inside.length === 0) return [];
  if (inside.length + 1 > maxLaps) throw new DataFileLimitError(format, 'laps', maxLaps, inside.length + 1);
  const edges = [start, ...inside, end];
  const laps: Lap[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const kind: LapKind = i === 0 ? 'out' : i === edges.length - 2 ? 'in' : 'flying';
    laps.push({ index: i, startTime: edges[i], endTime: edges[i + 1], kind });
  }
  return laps;
}

/**
 * Times of the samples where a lap counter changes value: each is the first sample of a new lap. The scan stops at
 * `maxLaps` boundaries (one lap more than `maxLaps`, which lapsFromBoundaries refuses; at 0, at one boundary: two laps)
 * instead of listing millions.
 */
export function boundariesFromLapCounter(data: ChannelData, maxLaps = DEFAULT_MAX_LAPS_PER_FILE): number[] {
  const { samples } = data;
  const out: number[] = [];
  // One boundary is enough to pass a bound of 0 laps (a file without boundaries has none).
  const enough = Math.max(1, maxLaps);
  for (let i = 1; i < samples.length && out.length < enough; i++) {
    if (samples[i] !== samples[i - 1] && !Number.isNaN(samples[i]) && !Number.isNaN(samples[i - 1])) out.push(sampleTime(data.time, i));
  }
  return out;
}

/** Times of rising edges (zero to non-zero) of a beacon pulse channel; the scan stops at `maxLaps`, as a counter's. */
export function boundariesFromBeaconPulses(data: ChannelData, maxLaps = DEFAULT_MAX_LAPS_PER_FILE): number[] {
  const { samples } = data;
  const out: number[] = [];
  const enough = Math.max(1, maxLaps);
  for (let i = 1; i < samples.length && out.length < enough; i++) if (samples[i] !== 0 && samples[i - 1] === 0) out.push(sampleTime(data.time, i));
  return out;
}

/**
 * The line crossings of a running lap time channel read alone, for a file whose laps nothing else gives (a `.ld` with
 * `Running Lap Time` but no `.ldx`, `Lap Number` nor `Beacon`), fed its samples in order (chunk by chunk when read in
 * ranges). A crossing is where the timer restarts: a sample below the one before (a finite, non-negative reading) is
 * read as a crossing its reading ago, once the next sample confirms it (a next reading not back at or above the old
 * lap's: a one-sample dip is not a lap; a gap or the channel's end confirms); and, for a timer held at 0 from the first
 * sample, where it first runs (runningLapTimeStart). Crossings after `start` only, each after the one before, at most
 * `enough` of them (`full` then: the scan may stop).
 */
export class RunningLapTimeCrossings {
  readonly crossings: number[] = [];
  private readonly scale: number;
  private previous = NaN;
  private seen = 0;
  private heldAtZero = true;
  private pending: { crossing: number; before: number } | null = null;

  /** `unit`: the channel's (s or ms: isRunningLapTimeUnit; any other gives no crossing). */
  constructor(
    private readonly unit: string,
    private readonly enough: number,
    private readonly start = 0,
  ) {
    this.scale = secondsPerUnit(unit) ?? NaN;
  }

  get full(): boolean {
    return this.crossings.length >= this.enough;
  }

  /** The next samples: their values (in the channel's unit) and `timeOf(k)`, the time of values[k]. */
  push(values: ArrayLike<number>, timeOf: (k: number) => number): void {
    if (Number.isNaN(this.scale)) return;
    for (let k = 0; k < values.length && !this.full; k++) this.sample(timeOf(k), values[k] as number);
  }

  /** The crossings, once every sample is pushed (a restart at the very last sample counts). */
  finish(): number[] {
    if (this.pending && !this.full) this.accept(this.pending.crossing);
    this.pending = null;
    return this.crossings;
  }

  private sample(time: number, value: number): void {
    const index = this.seen++;
    if (this.pending) {
      const { crossing, before } = this.pending;
      this.pending = null;
      if (!(Number.isFinite(value) && value >= before)) this.accept(crossing);
    }
    if (this.heldAtZero && value === 0) return void (this.previous = value);
    if (this.heldAtZero) {
      this.heldAtZero = false;
      // Where a timer held at 0 first runs; one running from the first sample (logging started mid-lap) marks nothing.
      const started = runningLapTimeStart(index, time, value, this.unit, this.start);
      if (started) this.accept(started.crossing);
    } else if (Number.isFinite(this.previous) && Number.isFinite(value) && value >= 0 && value < this.previous) {
      this.pending = { crossing: time - value * this.scale, before: this.previous };
    }
    this.previous = value;
  }

  private accept(crossing: number): void {
    const last = this.crossings.length > 0 ? (this.crossings[this.crossings.length - 1] as number) : this.start;
    if (crossing > last) this.crossings.push(crossing);
  }
}

/**
 * The lap boundaries a file's channels give when no markers do (a `.ld` without `.ldx`, a CSV without `Beacon
 * Markers`): the changes of a lap counter or the rising edges of a beacon pulse channel (`lap`), moved back to the
 * crossings a running lap time channel (`running`, read only when there is something to place) gives
 * (refineByRunningLapTime); with a counter, also where that timer first ran (withRunningLapTimeStart); with no lap
 * channel, the crossings of the running lap time alone (runningLapTimeCrossings). `start`: the file's start time.
 */
export function boundariesOfLapChannels(lap: { kind: 'counter' | 'beacon'; read: () => ChannelData } | null, running: (() => ChannelData) | null, maxLaps: number | undefined, start: number): number[] {
  if (!lap) return running === null ? [] : runningLapTimeCrossings(running(), maxLaps, start);
  const lapData = lap.read();
  const boundaries = lap.kind === 'counter' ? boundariesFromLapCounter(lapData, maxLaps) : boundariesFromBeaconPulses(lapData, maxLaps);
  if (running === null) return boundaries;
  const lapPeriod = 1 / lapData.frequency;
  if (lap.kind !== 'counter') return boundaries.length > 0 ? refineByRunningLapTime(boundaries, running(), start, lapPeriod) : boundaries;
  const timer = running();
  const refined = boundaries.length > 0 ? refineByRunningLapTime(boundaries, timer, start, lapPeriod) : boundaries;
  return withRunningLapTimeStart(boundaries, refined, runningLapTimeStartOf(timer, boundaries, lapPeriod, start), lapPeriod);
}

/** RunningLapTimeCrossings of a whole running lap time channel: the scan stops at `maxLaps` crossings, as a counter's. */
export function runningLapTimeCrossings(data: ChannelData, maxLaps = DEFAULT_MAX_LAPS_PER_FILE, start = 0): number[] {
  const scan = new RunningLapTimeCrossings(data.unit, Math.max(1, maxLaps), start);
  scan.push(data.samples as ArrayLike<number>, (k) => sampleTime(data.time, k));
  return scan.finish();
}

/** Seconds per unit of a running lap time channel: s or ms; undefined for any other unit (the channel is not used). */
function secondsPerUnit(unit: string): number | undefined {
  const u = unit.trim().toLowerCase();
  return u === 's' || u === 'sec' || u === 'secs' ? 1 : u === 'ms' ? 1e-3 : undefined;
}

/**
 * Lap boundaries moved back to where the logger says the line was crossed. A lap counter (or beacon pulse) channel
 * changes when the logger has decoded the beacon, a sample or several after the car crossed the line; a running lap
 * time channel (MoTeC's `Running Lap Time`) restarts from the crossing, so where it restarts it reads how long ago
 * that was. Each boundary goes back to the restart nearest to it within one period of the lap channel (`lapPeriod`
 * seconds) either side (the two channels need not share a rate nor change on the same sample): that sample's time
 * minus its running lap time, when that crossing falls after the previous boundary and no later than the counter's;
 * otherwise the boundary stays where the counter put it. Boundaries are increasing.
 */
export function refineByRunningLapTime(boundaries: readonly number[], running: ChannelData, start: number, lapPeriod: number): number[] {
  const { samples, time } = running;
  const n = samples.length;
  return refineLapBoundaries(boundaries, running.unit, start, (boundary) => {
    const { from, to } = runningLapTimeWindow(boundary, lapPeriod, (t) => sampleIndexRange(time, n, t, Infinity).from, n);
    return { times: Array.from({ length: to - from }, (_, k) => sampleTime(time, from + k)), values: samples.subarray(from, to) };
  });
}

/** Running lap time samples either side of a boundary, at most this many each way (a lap channel far slower than it). */
const RUNNING_WINDOW_CAP = 256;

/**
 * The samples [from, to) of a running lap time channel of `count` samples looked at for a boundary: one period of the
 * lap channel either side, and the sample before (a restart is a drop from it), at most RUNNING_WINDOW_CAP each way.
 * `atOrAfter(t)` is the index of its first sample at or after `t`.
 */
export function runningLapTimeWindow(boundary: number, lapPeriod: number, atOrAfter: (t: number) => number, count: number): { from: number; to: number } {
  const at = atOrAfter(boundary);
  const from = Math.max(0, at - RUNNING_WINDOW_CAP, atOrAfter(boundary - lapPeriod) - 1);
  const to = Math.min(count, at + RUNNING_WINDOW_CAP, atOrAfter(boundary + lapPeriod) + 1);
  return { from, to: Math.max(from, to) };
}

/** Whether a running lap time channel in `unit` is read (s or ms; refineLapBoundaries leaves the boundaries for any other). */
export function isRunningLapTimeUnit(unit: string): boolean {
  return secondsPerUnit(unit) !== undefined;
}

/**
 * The index of the first sample of `values` that is not 0 (-1 when all are): scanned from a running lap time
 * channel's first sample, where it starts running (runningLapTimeStart). 0 when it was running at its first sample.
 */
export function firstNonZeroSample(values: ArrayLike<number>): number {
  for (let k = 0; k < values.length; k++) if (values[k] !== 0) return k;
  return -1;
}

/** Where a running lap time channel held at 0 from the file's start first runs: its first running sample's time and the line crossing it reads. */
export interface RunningLapTimeStart {
  /** Time (s) of the first sample that is not 0. */
  time: number;
  /** That time minus its reading: when the logger's timer started, at the line. */
  crossing: number;
}

/**
 * The start of a running lap time channel (in `unit`) whose first non-zero sample is the `at`-th (firstNonZeroSample),
 * at `time` s, reading `value`: held at 0 from the file's first sample, the logger's timer started at the line, `value`
 * ago. Null when there is none: the channel never leaves 0 (at -1), it runs from its first sample (at 0: logging
 * started mid-lap, its reading is not since a crossing in the file), its first reading is not a positive time (nor a
 * unit of time), or the crossing it reads is not after `start`.
 */
export function runningLapTimeStart(at: number, time: number, value: number, unit: string, start: number): RunningLapTimeStart | null {
  const scale = secondsPerUnit(unit);
  if (scale === undefined || at <= 0 || !(Number.isFinite(value) && value > 0)) return null;
  const crossing = time - value * scale;
  return crossing > start ? { time, crossing } : null;
}

/**
 * runningLapTimeStart of a whole running lap time channel, scanned from its first sample up to the window of the first
 * of the `counted` boundaries (runningLapTimeWindow; all of it when there are none), as withRunningLapTimeStart takes it.
 */
export function runningLapTimeStartOf(running: ChannelData, counted: readonly number[], lapPeriod: number, start: number): RunningLapTimeStart | null {
  const { samples, time } = running;
  const n = samples.length;
  const end = counted.length > 0 ? runningLapTimeWindow(counted[0] as number, lapPeriod, (t) => sampleIndexRange(time, n, t, Infinity).from, n).to : n;
  const at = firstNonZeroSample(samples.subarray(0, end));
  return at < 0 ? null : runningLapTimeStart(at, sampleTime(time, at), samples[at] as number, running.unit, start);
}

/**
 * Lap boundaries (`counted` where a lap counter moved, `refined` those placed by its running lap time's restarts,
 * refineLapBoundaries) with the crossing where that running lap time started from 0 (runningLapTimeStart, null for
 * none). MoTeC's logger starts its timer at the first beacon but moves `Lap Number` only once that first timed lap
 * ends (`Sample1.ld`: the timer runs from 94.14 s, the counter moves at 162 s), so no counter change marks the end of
 * the out-lap: a start whose first running sample comes before the first change's window (more than `lapPeriod`, one
 * period of the lap channel, before it; or when the counter never moves) is a boundary of its own, when its crossing
 * falls before the first boundary. A start within that window is the crossing the counter moved for (a logger counting
 * its first beacon): that boundary goes back to it, when no restart placed it and the crossing is not after the
 * counter's move. Otherwise the boundaries are unchanged. Boundaries are increasing.
 */
export function withRunningLapTimeStart(counted: readonly number[], refined: readonly number[], started: RunningLapTimeStart | null, lapPeriod: number): number[] {
  if (started === null) return [...refined];
  if (counted.length === 0) return [started.crossing];
  const first = counted[0] as number;
  if (started.time < first - lapPeriod) return started.crossing < (refined[0] as number) ? [started.crossing, ...refined] : [...refined];
  if (started.time <= first + lapPeriod && refined[0] === first && started.crossing <= first) return [started.crossing, ...refined.slice(1)];
  return [...refined];
}

/**
 * refineByRunningLapTime over windows of the running lap time channel (`windowAt(boundary)`: its samples' times and
 * values there, in `unit`), so a reader can fetch only those samples. A unit other than s or ms leaves the boundaries.
 */
export function refineLapBoundaries(boundaries: readonly number[], unit: string, start: number, windowAt: (boundary: number) => { times: ArrayLike<number>; values: ArrayLike<number> }): number[] {
  const scale = secondsPerUnit(unit);
  if (scale === undefined) return [...boundaries];
  const out: number[] = [];
  let previous = start;
  for (const boundary of boundaries) {
    const { times, values } = windowAt(boundary);
    let crossing = boundary;
    let nearest = Infinity;
    for (let k = 1; k < values.length; k++) {
      const elapsed = (values[k] as number) * scale;
      const before = (values[k - 1] as number) * scale;
      if (!(Number.isFinite(elapsed) && Number.isFinite(before) && elapsed >= 0 && elapsed < before)) continue;
      const candidate = (times[k] as number) - elapsed;
      const away = Math.abs((times[k] as number) - boundary);
      if (candidate > previous && candidate <= boundary && away < nearest) {
        crossing = candidate;
        nearest = away;
      }
    }
    out.push(crossing);
    previous = crossing;
  }
  return out;
}

export function sampleTime(time: TimeBase, index: number): number {
  return time.kind === 'implicit' ? time.start + index / time.frequency : time.timestamps[index];
}

/**
 * Where samples on a detected time base end: one period past the last sample, as a regular series lasts n / frequency
 * (an irregular one's period is its mean one), so the half-open window of the whole file holds the last sample.
 */
export function timeBaseEnd(detected: ReturnType<typeof detectTimeBase>, timestamps: Float64Array): number {
  if (detected.time.kind === 'implicit') return detected.time.start + timestamps.length / detected.frequency;
  return (timestamps[timestamps.length - 1] as number) + (detected.frequency > 0 ? 1 / detected.frequency : 0);
}

/**
 * The farthest from 0 a sample time may be, in seconds (about 31.7 million years): no logger writes more, and far past it
 * the API's nanosecond rounding of times overflows (at 1.8e299 s a time came back as null). A file with a time past it is
 * refused as corrupt.
 */
export const MAX_TIME_SECONDS = 1e15;

/**
 * What is wrong with the first time a reader cannot use, with its index, or null: NaN (no time), one farther from 0 than
 * MAX_TIME_SECONDS (an infinity too), or one before the time ahead of it (reads find a window's samples by a binary
 * search over the times, and a file's span is its first and last time).
 */
export function firstUnusableTime(timestamps: Float64Array): { index: number; why: string } | null {
  for (let i = 0; i < timestamps.length; i++) {
    const t = timestamps[i] as number;
    if (Number.isNaN(t)) return { index: i, why: 'has no time (NaN)' };
    if (Math.abs(t) > MAX_TIME_SECONDS) return { index: i, why: `has the time ${t} s, farther from 0 than ${MAX_TIME_SECONDS} s` };
    if (i > 0 && t < (timestamps[i - 1] as number)) return { index: i, why: `has the time ${t} s, before the ${timestamps[i - 1]} s of the record ahead of it (times go backwards)` };
  }
  return null;
}

/**
 * Turns explicit timestamps into an implicit base when every sample sits within `tolerance` sample periods of
 * start + i / f; keeps them explicit otherwise (irregular sampling must not be resampled).
 */
export function detectTimeBase(timestamps: Float64Array, tolerance: number): { time: TimeBase; frequency: number; regular: boolean } {
  const n = timestamps.length;
  if (n < 2) return { time: { kind: 'explicit', timestamps }, frequency: 0, regular: false };
  const first = timestamps[0];
  const span = timestamps[n - 1] - first;
  if (!(span > 0) || !Number.isFinite(span)) return { time: { kind: 'explicit', timestamps }, frequency: 0, regular: false };
  const rawFrequency = (n - 1) / span;
  // Rates written as decimals (e.g. 0.01 s steps) should come out as the round number the logger used.
  const rounded = Math.round(rawFrequency * 1000) / 1000;
  const frequency = Math.abs(rounded - rawFrequency) <= 1e-6 * rawFrequency ? rounded : rawFrequency;
  const limit = tolerance / frequency;
  for (let i = 0; i < n; i++) {
    if (!(Math.abs(timestamps[i] - (first + i / frequency)) <= limit)) return { time: { kind: 'explicit', timestamps }, frequency, regular: false };
  }
  return { time: { kind: 'implicit', start: first, frequency }, frequency, regular: true };
}
