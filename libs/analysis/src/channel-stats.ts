import { sampleDurations, type TimedSeries } from './series';

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
 * A gap (NaN) is no sample: it adds neither value nor time.
 */
export function channelStats(series: TimedSeries, start: number, end: number, threshold?: number): ChannelStats {
  const { times, values } = series;
  const durations = sampleDurations(series, start, end);
  let min = Infinity;
  let max = -Infinity;
  let weighted = 0;
  let plain = 0;
  let time = 0;
  let above = 0;
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    const t = times[i];
    if (t < start || t >= end) continue;
    const v = values[i];
    if (Number.isNaN(v)) continue;
    count++;
    if (v < min) min = v;
    if (v > max) max = v;
    const d = durations[i];
    weighted += v * d;
    plain += v;
    time += d;
    if (threshold !== undefined && v > threshold) above += d;
  }
  // No sample: nothing is known of the lap, its time above a threshold included (not 0 s).
  if (count === 0) return { min: null, max: null, mean: null, timeAbove: null, samples: 0 };
  return { min, max, mean: time > 0 ? weighted / time : plain / count, timeAbove: threshold === undefined ? null : above, samples: count };
}
