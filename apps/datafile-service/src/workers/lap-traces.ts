import { applyConversion } from '@pitwall/channels';
import type { LapDeltaJson, LapDistanceJson, LapDistanceSourceJson, LapRefJson } from '@pitwall/contracts';
import { interpolateLinear, lapDelta, lapDistances, lineTrace } from '@pitwall/laps';
import type { StoredSlice } from './shape-channels';

/** One lap as the pool receives it: the stored values of its distance source inside the lap, and what it is. */
export interface LapSlice {
  ref: LapRefJson;
  /** Seconds on the file's time axis where the lap starts (times come back from here). */
  lapStart: number;
  source: LapDistanceSourceJson;
  slice: StoredSlice;
}

export type LapTraceTask = { op: 'distance'; lap: LapSlice; maxPoints?: number } | { op: 'delta'; lap: LapSlice; reference: LapSlice; maxPoints?: number };

/** Grid points of a delta when the caller gives no maxPoints: the lap's own samples, at most this many. */
export const DELTA_DEFAULT_MAX_POINTS = 10_000;

/** Answers are rounded to the microsecond and the millimetre: far below what a logged speed or distance resolves, and half the JSON. */
const SECONDS_STEP = 1e6;
const METRES_STEP = 1e3;

/** Values rounded to 1 / step (NaN, a point that could not be computed, becomes null in the JSON). */
export function rounded(values: Float64Array, step: number): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Math.round(values[i] * step) / step;
  return out;
}

/** A delta of a lap that goes nowhere on its distance source (a speed channel at 0 throughout, as a GPS speed with no fix): which one. */
export interface Stationary {
  stationary: 'lap' | 'reference';
}

/** The JSON body of a lap trace read (`distance` or `delta`), computed from every sample of the lap; or, for a delta, the lap that never moves. */
export function lapTraces(task: LapTraceTask): Uint8Array | Stationary {
  const lap = traceOf(task.lap);
  let answer: LapDistanceJson | LapDeltaJson;
  if (task.op === 'distance') {
    const { times, distances } = resampled(lap, task.maxPoints);
    answer = { ...task.lap.ref, source: task.lap.source, times: rounded(times, SECONDS_STEP), distances: rounded(distances, METRES_STEP) };
  } else {
    const reference = traceOf(task.reference);
    // A delta over distance needs both laps to cover some: one whose distance never leaves 0 has no delta (not an
    // empty one that looks like an answer).
    if (!(farthest(lap.distances) > 0)) return { stationary: 'lap' };
    if (!(farthest(reference.distances) > 0)) return { stationary: 'reference' };
    const points = Math.max(2, Math.min(lap.times.length, task.maxPoints ?? DELTA_DEFAULT_MAX_POINTS));
    const { distance, delta } = lapDelta(lap, reference, points);
    answer = { lap: task.lap.ref, reference: task.reference.ref, source: task.lap.source, distance: rounded(distance, METRES_STEP), delta: rounded(delta, SECONDS_STEP) };
  }
  return new TextEncoder().encode(JSON.stringify(answer));
}

function farthest(distances: Float64Array): number {
  let most = -Infinity;
  for (const d of distances) if (d > most) most = d;
  return most;
}

/** Lap-relative times and distances of every present sample of the lap, from its line (0 s, 0 m). */
export function traceOf(lap: LapSlice): { times: Float64Array; distances: Float64Array } {
  const { slice } = lap;
  const values = applyConversion(slice.samples, slice.conversion);
  const n = values.length;
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = (slice.times ? slice.times[i] : slice.startTime + i / slice.frequency) - lap.lapStart;
  const physical = slice.gaps ? Float64Array.from(values, (v, i) => (slice.gaps?.[i] === 1 ? NaN : v)) : values;
  // A gap of a distance channel is no point of the trace; a lap that does not start on a sample starts at its line.
  return lineTrace({ times, distances: lapDistances(times, physical, { kind: lap.source.kind, unit: slice.unit }) });
}

/** The trace at `maxPoints` evenly spaced times from its first to its last sample (the distance between samples linear), or whole when it is short enough. */
function resampled(trace: { times: Float64Array; distances: Float64Array }, maxPoints: number | undefined): { times: Float64Array; distances: Float64Array } {
  const n = trace.times.length;
  if (maxPoints === undefined || n <= maxPoints) return trace;
  const first = trace.times[0];
  const last = trace.times[n - 1];
  const times = new Float64Array(maxPoints);
  for (let k = 0; k < maxPoints; k++) times[k] = first + ((last - first) * k) / (maxPoints - 1);
  times[maxPoints - 1] = last;
  return { times, distances: interpolateLinear(trace.times, trace.distances, times) };
}
