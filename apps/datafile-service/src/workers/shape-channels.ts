import type { MessagePort } from 'node:worker_threads';
import { applyConversion, channelRecordsJsonChunks, compactSamples, downsampleSeries, IDENTITY, encodeChannels, encodeChannelsChunks, encodedChannelsLength, toNanosecond, toReadRecord, type EventSeries, type LinearConversion, type ParameterUse, type RawSampleArray, type ReadSeries } from '@pitwall/channels';
import type { ChunkHead } from '@pitwall/bus/port-chunks';
import { interpolateLinear, interpolateStep, upperBound } from '@pitwall/laps';
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
  /** By index of `channels`: the parameters a math channel read (its JSON record's `parameters`; empty for the others). */
  parameters?: (readonly ParameterUse[])[];
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
  const shaped = task.channels.map((c, k): ReadSeries => {
    const one = shapeOne(c, task);
    const parameters = task.parameters?.[k];
    return parameters?.length && !('kind' in one) ? { ...one, parameters } : one;
  });
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

/**
 * A channel on a resampled read's time base (ShapeTask.resample): physical values, regular at the grid's rate, read
 * at the grid's points as the overlays read a lap (`interpolateLinear`, `interpolateStep` of @pitwall/laps).
 */
function resampled(c: StoredSlice, grid: NonNullable<ShapeTask['resample']>): ReadSeries {
  const values = Float64Array.from(applyConversion(c.samples, c.conversion), (v, i) => (c.gaps?.[i] === 1 ? NaN : v));
  const n = values.length;
  // Both to the nanosecond (as every time a read answers): a grid point on a sample is then exactly at it, whatever
  // sums gave the two (a slice from 199.9 s puts its sample of 200.2 s at 200.20000000000002), so a held channel takes
  // that sample, not the one before, and a linear one its value, not one a rounding off it.
  const times = c.times ?? Float64Array.from({ length: n }, (_, i) => toNanosecond(c.startTime + i / c.frequency));
  const at = Float64Array.from({ length: grid.count }, (_, k) => toNanosecond(grid.start + k / grid.rate));
  const held = grid.held.includes(c.name);
  const samples = held ? interpolateStep(times, values, at) : interpolateLinear(times, values, at);
  // Past the last sample: a held channel keeps it for one sample period, as a sample holds everywhere else.
  if (held && n > 0 && c.frequency > 0) {
    const last = times[n - 1] as number;
    for (let k = upperBound(at, last); k < at.length && (at[k] as number) - last < 1 / c.frequency; k++) samples[k] = values[n - 1] as number;
  }
  let gaps: Uint8Array | undefined;
  samples.forEach((v, k) => {
    if (!Number.isNaN(v)) return;
    gaps ??= new Uint8Array(samples.length);
    gaps[k] = 1;
  });
  return { name: c.name, unit: c.unit, frequency: grid.rate, dimension: 1, startTime: grid.start, samples, conversion: IDENTITY, ...(gaps ? { gaps } : {}) };
}
