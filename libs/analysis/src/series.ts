/**
 * One channel as the analyses read it: physical values (NaN where the channel has no sample) at their times, seconds
 * on one time axis, ascending.
 */
export interface TimedSeries {
  times: ArrayLike<number>;
  values: ArrayLike<number>;
  /** Seconds one sample stands for when no next sample says so (the last one): 1 / the channel's rate. */
  period: number;
}

/**
 * How long each sample of `series` holds inside [start, end): until the next sample, the last one for its period,
 * each cut at the window's end (a sample before the start holds nothing). The time-weighted statistics and the time
 * above a threshold are sums of these, so a channel logged irregularly is weighted by time, not by sample count.
 */
export function sampleDurations(series: Pick<TimedSeries, 'times' | 'period'>, start: number, end: number): Float64Array {
  const out = new Float64Array(series.times.length);
  for (let i = 0; i < out.length; i++) out[i] = sampleHold(series, i, start, end);
  return out;
}

/** How long sample `i` of `series` holds inside [start, end) (one entry of sampleDurations). */
export function sampleHold(series: Pick<TimedSeries, 'times' | 'period'>, i: number, start: number, end: number): number {
  const { times, period } = series;
  const from = Math.max(times[i], start);
  const to = Math.min(i + 1 < times.length ? times[i + 1] : times[i] + period, end);
  return to > from ? to - from : 0;
}
