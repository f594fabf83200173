import { InvalidSliceError } from './errors';
import type { ChannelData, Lap, SampleArray, TimeBase } from './model';

/** A part of a channel: its own samples, time base, gaps and the time of its first sample. */
export interface ChannelSlice {
  samples: SampleArray;
  time: TimeBase;
  gaps?: Uint8Array;
  /** Time of the first sample in the slice; the window start when the slice is empty. */
  startTime: number;
}

/**
 * The rounding error of a time near `t` seconds (a few ulps of the largest): a window's bounds are absolute times (the
 * file's start plus the request's offset) and a regular channel's sample times are computed (start + i / frequency),
 * so with epoch-sized start times (1.7e9 s) their last bits are off by about 2e-7 s. A boundary that close to a sample
 * is on it; the slack is in seconds, never a fraction of the sample period.
 */
function timeSlack(...times: number[]): number {
  const largest = Math.max(...times.map(Math.abs));
  // A window to the end of the file may end at Infinity: no slack to take from it.
  return Number.isFinite(largest) ? 4 * Number.EPSILON * largest : 0;
}

/** The samples of lap `lapIndex`: [lap.startTime, lap.endTime). */
export function sliceByLap(data: ChannelData, laps: readonly Lap[], lapIndex: number): ChannelSlice {
  if (!Number.isInteger(lapIndex) || lapIndex < 0 || lapIndex >= laps.length) {
    throw new InvalidSliceError(`lap index ${lapIndex} is outside 0..${laps.length - 1}`);
  }
  const lap = laps[lapIndex];
  return sliceByWindow(data, lap.startTime, lap.endTime - lap.startTime);
}

/** The samples whose time t satisfies start <= t < start + duration; no interpolation, copies that own their buffers. */
export function sliceByWindow(data: ChannelData, start: number, duration: number): ChannelSlice {
  if (!Number.isFinite(start) || !Number.isFinite(duration) || duration < 0) {
    throw new InvalidSliceError(`window start ${start}, duration ${duration} is not a finite, non-negative window`);
  }
  const d = Math.max(1, data.dimension);
  const { from, to, startTime } = sampleIndexRange(data.time, data.samples.length / d, start, start + duration);
  const time: TimeBase =
    data.time.kind === 'implicit' ? { kind: 'implicit', start: startTime, frequency: data.time.frequency } : { kind: 'explicit', timestamps: data.time.timestamps.slice(from, to) };
  return {
    samples: data.samples.slice(from * d, to * d),
    time,
    ...(data.gaps ? { gaps: data.gaps.slice(from, to) } : {}),
    startTime,
  };
}

/**
 * Indices [from, to) of the samples with start <= t < end on a time base of n samples, and the time of the first
 * (`start` when the range is empty). Implicit time bases need no samples: this is how a lazy read knows its bytes.
 */
export function sampleIndexRange(time: TimeBase, n: number, start: number, end: number): { from: number; to: number; startTime: number } {
  if (time.kind === 'implicit') {
    const { start: t0, frequency } = time;
    const timeOf = (i: number) => t0 + i / frequency;
    // The first sample whose time is at or after t, less the rounding slack: a binary search on the sample times
    // themselves (monotone in i), so the answer is the same whatever the frequency and the magnitude of the times. A
    // window to the end (a read with start and no duration) ends beyond any sample.
    const indexAt = (t: number) => (t === Infinity ? n : lowerBound(n, timeOf, t - timeSlack(t, t0)));
    const from = indexAt(start);
    const to = Math.max(from, indexAt(end));
    return { from, to, startTime: from < to ? timeOf(from) : start };
  }
  const ts = time.timestamps;
  const timeAt = (i: number) => ts[i] as number;
  const from = lowerBound(ts.length, timeAt, start - timeSlack(start));
  const to = Math.max(from, lowerBound(ts.length, timeAt, end - timeSlack(end)));
  return { from, to, startTime: from < to ? ts[from] : start };
}

/** First index of n whose time (ascending in the index) is >= t; n when none. */
function lowerBound(n: number, timeOf: (i: number) => number, t: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timeOf(mid) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
