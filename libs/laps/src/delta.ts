import { interpolateLinear } from './interpolate';

/** One lap as the delta reads it: lap-relative times (s from the lap start) and distances (m from the lap start), sample by sample. */
export interface LapTrace {
  times: ArrayLike<number>;
  distances: ArrayLike<number>;
}

export interface LapDelta {
  /** The common distance grid, metres, evenly spaced. */
  distance: Float64Array;
  /** Seconds the lap is behind the reference at each grid distance (negative: ahead). */
  delta: Float64Array;
}

/** Grid points of a delta when the caller does not say. */
export const DEFAULT_DELTA_POINTS = 1000;

/**
 * The time-delta trace of `lap` against `reference` over distance (what FastF1's `utils.delta_time` computes): on
 * `points` evenly spaced distances from where both laps have started to the shorter lap's length, the time the lap
 * took to reach each distance minus the time the reference took. Samples with a missing time or distance are left
 * out, and distances are made non-decreasing (a noisy distance channel or a negative speed sample cannot send the
 * car backwards), so every grid distance has one time: the first moment the lap reached it.
 */
export function lapDelta(lap: LapTrace, reference: LapTrace, points = DEFAULT_DELTA_POINTS): LapDelta {
  if (!Number.isInteger(points) || points < 2) throw new RangeError(`points ${points} must be an integer of at least 2`);
  const a = monotoneTrace(lap);
  const b = monotoneTrace(reference);
  if (a.distances.length === 0 || b.distances.length === 0) return { distance: new Float64Array(0), delta: new Float64Array(0) };
  const start = Math.max(a.distances[0], b.distances[0]);
  const end = Math.min(a.distances[a.distances.length - 1], b.distances[b.distances.length - 1]);
  if (!(end > start)) return { distance: new Float64Array(0), delta: new Float64Array(0) };
  const distance = new Float64Array(points);
  const step = (end - start) / (points - 1);
  for (let k = 0; k < points; k++) distance[k] = start + k * step;
  distance[points - 1] = end;
  const lapTimes = interpolateLinear(a.distances, a.times, distance);
  const referenceTimes = interpolateLinear(b.distances, b.times, distance);
  const delta = new Float64Array(points);
  for (let k = 0; k < points; k++) delta[k] = lapTimes[k] - referenceTimes[k];
  return { distance, delta };
}

/**
 * The points of a lap's trace with both a time and a distance, from the lap's line: a lap starts at 0 s and 0 m, so
 * when its first point comes later (a lap seldom starts on a sample) at a distance of 0 m or more, (0, 0) is put
 * before it, and two laps are compared (or a point between the line and the first sample placed) from their line.
 */
export function lineTrace(trace: LapTrace): { times: Float64Array; distances: Float64Array } {
  const n = Math.min(trace.times.length, trace.distances.length);
  const times = new Float64Array(n + 1);
  const distances = new Float64Array(n + 1);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const t = trace.times[i];
    const d = trace.distances[i];
    if (!Number.isFinite(t) || !Number.isFinite(d)) continue;
    // The origin is at index 0, already zero.
    if (m === 0 && t > 0 && d >= 0) m = 1;
    times[m] = t;
    distances[m] = d;
    m++;
  }
  return { times: times.subarray(0, m), distances: distances.subarray(0, m) };
}

/** lineTrace with its distances lifted to their running maximum. */
function monotoneTrace(trace: LapTrace): { times: Float64Array; distances: Float64Array } {
  const line = lineTrace(trace);
  const { distances } = line;
  for (let i = 1; i < distances.length; i++) distances[i] = Math.max(distances[i] as number, distances[i - 1] as number);
  return line;
}
