import { lowerBound } from '@pitwall/laps';
import { sampleHold, type TimedSeries } from './series';

/** A channel's report over one lap (MoTeC i2's channel report): null where the lap holds no sample of it. */
export interface ChannelStats {
  min: number | null;
  max: number | null;
  /** Time-weighted: each sample counts for as long as it holds (the same as the plain mean for a regular channel). */
  mean: number | null;
  /** Seconds the channel was strictly above the threshold; null without a threshold or without a sample. */
  timeAbove: number | null;
  /** Samples of the channel inside the lap (gaps not counted). */
  samples: number;
}

/**
 * Minimum, maximum, time-weighted mean and time above `threshold` of the samples of `series` inside [start, end).
 * A gap (NaN) is no sample: it adds neither value nor time. Only the samples of the window are visited (found by
 * binary search on the ascending times), so the report of every lap of a file costs one pass over it, not one per lap.
 */
export function channelStats(series: TimedSeries, start: number, end: number, threshold?: number): ChannelStats {
  const { times, values } = series;
  const n = times.length;
  let min = Infinity;
  let max = -Infinity;
  let weighted = 0;
  let plain = 0;
  let time = 0;
  let above = 0;
  let count = 0;
  for (let i = lowerBound(times, start); i < n; i++) {
    const t = times[i] as number;
    if (t >= end) break;
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    count++;
    if (v < min) min = v;
    if (v > max) max = v;
    const d = sampleHold(series, i, start, end);
    weighted += v * d;
    plain += v;
    time += d;
    if (threshold !== undefined && v > threshold) above += d;
  }
  // No sample: nothing is known of the lap, its time above a threshold included (not 0 s).
  if (count === 0) return { min: null, max: null, mean: null, timeAbove: null, samples: 0 };
  return { min, max, mean: time > 0 ? weighted / time : plain / count, timeAbove: threshold === undefined ? null : above, samples: count };
}

