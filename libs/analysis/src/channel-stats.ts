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

/**
 * Minimum, maximum, time-weighted mean and time above `threshold` of the samples of `series` inside [start, end)
 * (with `carryIn`, also the one before `start` over its hold past it). A gap (NaN) is no sample: it adds neither value
 * nor time. Only the samples of the window are visited (found by
 * binary search on the ascending times), so the report of every lap of a file costs one pass over it, not one per lap.
 */
export function channelStats(series: TimedSeries, start: number, end: number, threshold?: number, options: { carryIn?: boolean } = {}): ChannelStats {
  const { times, values } = series;
  const n = times.length;
  const first = lowerBound(times, start);
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
  // carryIn: the sample before `start` too, for the part of its hold past `start` (a sector after a lap's first: the
  // stretch from its start to its first sample is the sample before's, so the sectors' figures make the lap's).
  const from = options.carryIn && first > 0 && sampleHold(series, first - 1, start, end) > 0 ? first - 1 : first;
  for (let i = from; i < n; i++) {
    const t = times[i] as number;
    if (t >= end) break;
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    count++;
    if (v < min) min = v;
    if (v > max) max = v;
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
  if (count === 0) return { min: null, max: null, mean: null, stdDev: null, timeAbove: null, timeBelow: null, samples: 0 };
  const shiftedMean = time > 0 ? weighted / time : plain / count;
  const mean = (reference as number) + shiftedMean;
  // Of the values shifted by the first (a large offset loses no precision); never below 0 by rounding.
  const variance = Math.max(0, (time > 0 ? weightedSquares / time : plainSquares / count) - shiftedMean * shiftedMean);
  // Rounding never takes the mean outside the values it averages.
  return {
    min,
    max,
    mean: Math.min(max, Math.max(min, mean)),
    stdDev: min === max ? 0 : Math.sqrt(variance),
    timeAbove: threshold === undefined ? null : above,
    timeBelow: threshold === undefined ? null : below,
    samples: count,
  };
}

