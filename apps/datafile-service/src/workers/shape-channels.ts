import type { MessagePort } from 'node:worker_threads';
import { applyConversion, channelRecordsJsonChunks, compactSamples, downsampleSeries, IDENTITY, encodeChannels, encodeChannelsChunks, encodedChannelsLength, toReadRecord, type EventSeries, type LinearConversion, type RawSampleArray, type ReadSeries } from '@pitwall/channels';
import type { ChunkHead } from '@pitwall/bus/port-chunks';
import type { ArrowStreamMetadata } from './arrow-channels';

/** One channel of a read as the service hands it to the pool: stored values of the scope and their conversion. */
export interface StoredSlice {
  name: string;
  unit: string;
  frequency: number;
  dimension: number;
  /** Seconds on the file's time axis of the first sample. */
  startTime: number;
  samples: RawSampleArray;
  conversion: LinearConversion;
  /** Explicit sample times, for channels without a regular rate. */
  times?: Float64Array;
  gaps?: Uint8Array;
}

export interface ShapeTask {
  /** Numeric channels as stored, and the events of text and byte channels as they are sent. */
  channels: (StoredSlice | EventSeries)[];
  /** The answer's records as indices into `channels`, when the request named a channel more than once. */
  order?: number[];
  binary: boolean;
  /** The Arrow IPC stream instead (one column per distinct channel, `order` not applied), with this metadata (`arrowChunks`). */
  arrow?: ArrowStreamMetadata;
  /** Display-sized read: M4 over [start, end) (the scope's window; the channel's own span for a whole-file read). */
  maxPoints?: number;
  /**
   * Every numeric channel interpolated onto one time base: `count` points 1 / `rate` apart from `start` (linear between
   * the samples around a point; a `held` channel, discrete such as gear, takes the sample at or before it; a gap
   * outside a channel's samples or next to a gap).
   */
  resample?: { start: number; rate: number; count: number; held: string[] };
  window?: { start: number; end: number };
  /** Stream the body over this port as it is encoded (`sendChunks`), instead of returning it whole. */
  port?: MessagePort;
  /** JSON of a single-channel read: its one record, without the array around it. */
  bare?: boolean;
}

/** Bytes of a streamed chunk (1 MiB: a fourth of the messages, port hand-overs and socket writes of 256 KiB ones). */
export const CHUNK_BYTES = 1024 * 1024;

/** The encoded body: the binary channel body, or the JSON array of channel records as UTF-8. */
export interface ShapeResult {
  body: Uint8Array;
}

/**
 * The work of a read that touches every sample, done on the pool: M4 when asked, the conversion applied to this slice
 * (or raw integers kept with their conversion in the binary body when smaller), then the encoding.
 */
export function shapeChannels(task: ShapeTask): ShapeResult {
  const series = shapedSeries(task);
  if (task.binary) return { body: encodeChannels(series) };
  const records = series.map(toReadRecord);
  return { body: new TextEncoder().encode(JSON.stringify(task.bare ? records[0] : records)) };
}

/**
 * The same body in chunks, each encoded only when the one before was taken: the binary body with its length known
 * up front, or the JSON text piece by piece. The answer never exists whole, in the worker or after it.
 */
export function shapedChunks(task: ShapeTask): { head: ChunkHead; chunks: Iterable<Uint8Array> } {
  const series = shapedSeries(task);
  if (task.binary) return { head: { length: encodedChannelsLength(series) }, chunks: encodeChannelsChunks(series, CHUNK_BYTES) };
  return { head: {}, chunks: channelRecordsJsonChunks(series, CHUNK_BYTES, { bare: task.bare ?? false }) };
}

function shapedSeries(task: ShapeTask): ReadSeries[] {
  const shaped = task.channels.map((c) => shapeOne(c, task));
  return task.order ? task.order.map((k) => shaped[k] as ReadSeries) : shaped;
}

/** maxPoints applies to numbers of one value a sample; events and arrays come whole, and say so. */
export function shapeOne(c: StoredSlice | EventSeries, task: ShapeTask): ReadSeries {
  const whole = task.maxPoints !== undefined ? { maxPointsApplied: false as const } : {};
  if ('kind' in c) return { ...c, ...whole };
  if (task.resample && c.dimension <= 1) return resampled(c, task.resample);
  const base = { name: c.name, unit: c.unit, frequency: c.frequency, dimension: c.dimension, startTime: c.startTime, ...(c.times ? { times: c.times } : {}), ...(c.gaps ? { gaps: c.gaps } : {}) };
  if (task.maxPoints !== undefined && c.dimension <= 1) {
    return downsampleSeries({ ...base, samples: c.samples, conversion: c.conversion }, { maxPoints: task.maxPoints, ...(task.window ? { start: task.window.start, end: task.window.end } : {}) });
  }
  return { ...base, ...compactSamples(c.samples, c.conversion), ...(c.dimension > 1 ? whole : {}) };
}

/** A channel on a resampled read's time base (ShapeTask.resample): physical values, regular at the grid's rate. */
function resampled(c: StoredSlice, grid: NonNullable<ShapeTask['resample']>): ReadSeries {
  const values = applyConversion(c.samples, c.conversion);
  const n = values.length;
  const timeOf = (i: number) => (c.times ? (c.times[i] as number) : c.startTime + i / c.frequency);
  const valueOf = (i: number) => (c.gaps?.[i] === 1 ? NaN : (values[i] as number));
  const held = grid.held.includes(c.name);
  const samples = new Float64Array(grid.count);
  const gaps = new Uint8Array(grid.count);
  let anyGap = false;
  // j: the last sample at or before the point (it only moves forward).
  let j = -1;
  for (let k = 0; k < grid.count; k++) {
    const t = grid.start + k / grid.rate;
    while (j + 1 < n && timeOf(j + 1) <= t) j++;
    let v = NaN;
    if (j >= 0) {
      const t0 = timeOf(j);
      if (t0 === t) v = valueOf(j);
      else if (j + 1 < n) v = held ? valueOf(j) : valueOf(j) + ((valueOf(j + 1) - valueOf(j)) * (t - t0)) / (timeOf(j + 1) - t0);
      // Past the last sample: a held channel keeps it for one sample period, as a sample holds everywhere else.
      else if (held && c.frequency > 0 && t - t0 < 1 / c.frequency) v = valueOf(j);
    }
    if (Number.isNaN(v)) {
      gaps[k] = 1;
      anyGap = true;
    }
    samples[k] = v;
  }
  return { name: c.name, unit: c.unit, frequency: grid.rate, dimension: 1, startTime: grid.start, samples, conversion: IDENTITY, ...(anyGap ? { gaps } : {}) };
}
