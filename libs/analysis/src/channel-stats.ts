import { lowerBound } from '@pitwall/laps';
import { sampleHold, type TimedSeries } from './series';

/** A channel's report over one lap (MoTeC i2's channel report): null where the lap holds no sample of it. */
export interface ChannelStats {
  min: number | null;
  max: number | null;
  /** Time-weighted: each sample counts for as long as it holds (the same as the plain mean for a regular channel). */
  mean: number | null;
  /**
   * Time-weighted standard deviation (of the population: each sample weighted by how long it holds, as the mean);
   * 0 for a constant channel or a single sample.
   */
  stdDev: number | null;
  /** Seconds the channel was strictly above the threshold; null without a threshold or without a sample. */
  timeAbove: number | null;
  /** Seconds the channel was strictly below the threshold; null without a threshold or without a sample. */
  timeBelow: number | null;
  /** Samples of the channel inside the lap (gaps not counted). */
  samples: number;
}

/** How far (s) a sample may lie from a window's end by rounding and still be on it: a nanosecond. */
const TIME_TOLERANCE_S = 1e-9;

/**
 * Minimum and maximum of the samples of `series` inside [start, end) (ends compared to the nanosecond); time-weighted
 * mean, standard deviation and times above and below `threshold` of those and of the one before `start` over its hold
 * past it (every second of the span counted once). A gap (NaN) is no sample: it adds neither value nor time. Only the samples of the window are visited (found by
 * binary search on the ascending times), so the report of every lap of a file costs one pass over it, not one per lap.
 */
export function channelStats(series: TimedSeries, start: number, end: number, threshold?: number): ChannelStats {
  const { times, values } = series;
  const n = times.length;
  // The window's ends to the nanosecond: a sample on a boundary (242.01 s against a sector end summed to
  // 242.01000000000002) is the next window's first, never the last of this one too.
  const first = lowerBound(times, start - TIME_TOLERANCE_S);
  let min = Infinity;
  let max = -Infinity;
  // Sums of each value's difference from the lap's first one: a constant channel's mean is that constant exactly (summed
  // as values, 3 held over uneven steps came back 3.0000000000001), and less is lost to rounding elsewhere.
  let reference: number | undefined;
  let weighted = 0;
  let weightedSquares = 0;
  let plain = 0;
  let plainSquares = 0;
  let time = 0;
  let above = 0;
  let below = 0;
  let count = 0;
  // The sample before `start` too, for the part of its hold past `start`: the stretch from a lap's line (or a sector's
  // start) to its first sample is that sample's, so every span counts all of its time, and the sectors' figures make
  // the lap's, the laps' the file's.
  const from = first > 0 && sampleHold(series, first - 1, start, end) > TIME_TOLERANCE_S ? first - 1 : first;
  // The minimum and maximum are of the span's own samples (those its read gives): the sample carried in counts for
  // its time only, unless the span holds no sample of its own. `low` and `high` bound every value the mean averages.
  let carried: number | undefined;
  let low = Infinity;
  let high = -Infinity;
  for (let i = from; i < n; i++) {
    const t = times[i] as number;
    if (t >= end - TIME_TOLERANCE_S) break;
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    if (i < first) carried = v;
    else {
      count++;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (v < low) low = v;
    if (v > high) high = v;
    const d = sampleHold(series, i, start, end);
    reference ??= v;
    const shifted = v - reference;
    weighted += shifted * d;
    weightedSquares += shifted * shifted * d;
    plain += shifted;
    plainSquares += shifted * shifted;
    time += d;
    if (threshold !== undefined && v > threshold) above += d;
    if (threshold !== undefined && v < threshold) below += d;
  }
  // No sample: nothing is known of the lap, its time above a threshold included (not 0 s).
  if (count === 0 && carried === undefined) return { min: null, max: null, mean: null, stdDev: null, timeAbove: null, timeBelow: null, samples: 0 };
  if (count === 0) min = max = carried as number;
  const averaged = count + (carried === undefined ? 0 : 1);
  const shiftedMean = time > 0 ? weighted / time : plain / averaged;
  const mean = (reference as number) + shiftedMean;
  // Of the values shifted by the first (a large offset loses no precision); never below 0 by rounding.
  const variance = Math.max(0, (time > 0 ? weightedSquares / time : plainSquares / averaged) - shiftedMean * shiftedMean);
  // Rounding never takes the mean outside the values it averages.
  return {
    min,
    max,
    mean: Math.min(high, Math.max(low, mean)),
    stdDev: low === high ? 0 : Math.sqrt(variance),
    timeAbove: threshold === undefined ? null : above,
    timeBelow: threshold === undefined ? null : below,
    samples: count,
  };
}

