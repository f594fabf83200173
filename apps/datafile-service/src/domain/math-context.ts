import { reachesNothing, type Reach } from '@pitwall/expressions';
import type { ChannelInfo, ScopeWindow } from '@pitwall/formats';
import type { ChannelAxis } from './read-channels';
import { rateGridLength, rateGridLengthBefore } from '../workers/math-channels';

// The context a math channel is evaluated over (docs/math-channels.md): a value at a time is the same whatever read
// asks for it, so a read evaluates its time functions over what they read beyond its scope (from the file's first
// sample for integral and lowpass, a margin each side for derivative and smooth: the channel's Reach) and sends its own
// samples of it. Every input is read over that context and a sample past it each side (a slower input is interpolated
// between the samples either side of the scope's edge, as in a whole-file read).

/**
 * The time base one evaluation runs over: an input's samples [from, to) (without a Rate), or a Rate's grid (points
 * [from, to) of the whole file's grid, `grid` their times); `first` and `last` its first and last time (none when it is
 * empty); `keep` the read's own samples among them when the context holds more. Channels of one read with the same
 * key are evaluated together (the same base, the same context: the numbers each has alone).
 */
export interface BaseContext {
  key: string;
  rate?: number;
  /** Without a Rate: the input whose samples are the base. */
  baseInput?: string;
  from: number;
  to: number;
  grid?: { start: number; length: number };
  first?: number;
  last?: number;
  keep?: { from: number; to: number; startTime: number };
  /** A regular base's times as the whole file has them (MathTask.origin): start + (offset + k) / rate. */
  origin?: { start: number; offset: number };
}

/** A math channel's time base: its Rate's grid, or the samples of the input it reads (the first of the fastest). */
export interface BaseOf {
  rate?: number;
  leaves: readonly ChannelInfo[];
  baseLeaf?: ChannelInfo;
}

/**
 * The context a channel of reach `reach` on `base` is evaluated over for a read of `window`. A whole-file read is its
 * own context; a window's is the window itself when the reach reads nothing beyond its time, else the window widened by
 * it (to the file's first sample for integral and lowpass) within the file.
 */
export function baseContext(file: { startTime: number; duration: number }, base: BaseOf, reach: Reach, window: ScopeWindow, axisOf: (leaf: ChannelInfo) => ChannelAxis): BaseContext {
  if (base.rate !== undefined) return gridContext(file, base.rate, base.leaves, reach, window, axisOf);
  if (!base.baseLeaf) return { key: 'none', from: 0, to: 0 };
  const name = base.baseLeaf.name;
  const axis = axisOf(base.baseLeaf);
  const w = window.whole ? { from: 0, to: axis.count } : axis.range(window.start, window.end);
  if (w.from >= w.to) return { key: `input ${name} none`, baseInput: name, from: w.from, to: w.from };
  let { from, to } = w;
  if (!window.whole && axis.key === undefined && !reachesNothing(reach)) {
    // Times of its own (a timestamped MDF or CSV channel, read whole anyway): a reach's margins in seconds and in
    // samples add up exactly only on an even spacing (nested functions take them in turn, over the gaps between), so
    // the context is the whole channel.
    from = 0;
    to = axis.count;
  } else if (!window.whole) {
    from = reach.start ? 0 : Math.max(0, Math.min(from, indexAt(axis, window.start - reach.before.seconds) - reach.before.samples));
    to = Math.min(axis.count, Math.max(to, indexAt(axis, window.end + reach.after.seconds) + reach.after.samples));
  }
  const keep = from < w.from || to > w.to ? { keep: { from: w.from - from, to: w.to - from, startTime: axis.time(w.from) } } : {};
  const origin = axis.key !== undefined ? { origin: { start: axis.time(0), offset: from } } : {};
  return { key: `input ${name} ${from} ${to}`, baseInput: name, from, to, first: axis.time(from), last: axis.time(to - 1), ...keep, ...origin };
}

/**
 * A Rate's context: points of the whole file's grid (from its inputs' first sample, or the file's start when it reads
 * none, one every 1 / rate up to their last sample, or the file's end), those in the window's [start, end) widened by
 * the reach.
 */
function gridContext(file: { startTime: number; duration: number }, rate: number, leaves: readonly ChannelInfo[], reach: Reach, window: ScopeWindow, axisOf: (leaf: ChannelInfo) => ChannelAxis): BaseContext {
  const fileEnd = file.startTime + file.duration;
  let anchor = file.startTime;
  let points: number;
  let k0: number;
  let k1: number;
  if (!leaves.length) {
    points = rateGridLengthBefore(anchor, fileEnd, rate);
    const start = window.whole ? anchor : Math.max(window.start, anchor);
    const end = window.whole ? fileEnd : Math.min(window.end, fileEnd);
    k0 = rateGridLengthBefore(anchor, start, rate, points);
    k1 = end > start ? Math.max(k0, rateGridLengthBefore(anchor, end, rate, points)) : k0;
  } else {
    const sampled = leaves.map(axisOf).filter((axis) => axis.count > 0);
    if (!sampled.length) return { key: `rate ${exact(rate)} none`, rate, grid: { start: anchor, length: 0 }, from: 0, to: 0 };
    anchor = Math.min(...sampled.map((axis) => axis.time(0)));
    points = rateGridLength(Math.max(...sampled.map((axis) => axis.time(axis.count - 1))) - anchor, rate);
    if (window.whole) {
      k0 = 0;
      k1 = points;
    } else {
      // The whole file's grid points in the window, [start, end) as a logged channel's window holds its samples: a lap
      // read of every lap gives every point of the whole file's read, those between the window's edge and its inputs'
      // first or last sample in it included (each input is read a sample past the context, so they are interpolated as
      // in the whole file).
      // At most the grid's points: a window may run past it (to Infinity, with no duration; from 1e300).
      k0 = window.start > anchor ? rateGridLengthBefore(anchor, window.start, rate, points) : 0;
      k1 = window.end > anchor ? Math.max(k0, rateGridLengthBefore(anchor, window.end, rate, points)) : k0;
    }
  }
  if (k0 >= k1) return { key: `rate ${exact(rate)} none`, rate, grid: { start: anchor, length: 0 }, from: k0, to: k0 };
  let c0 = k0;
  let c1 = k1;
  if (!window.whole) {
    c0 = reach.start ? 0 : Math.max(0, k0 - reach.before.samples - Math.ceil(reach.before.seconds * rate));
    c1 = Math.min(points, k1 + reach.after.samples + Math.ceil(reach.after.seconds * rate));
  }
  const start = anchor + c0 / rate;
  const keep = c0 < k0 || c1 > k1 ? { keep: { from: k0 - c0, to: k1 - c0, startTime: anchor + k0 / rate } } : {};
  return { key: `rate ${exact(rate)} ${exact(anchor)} ${c0} ${c1} ${k0} ${k1}`, rate, grid: { start, length: c1 - c0 }, origin: { start: anchor, offset: c0 }, from: c0, to: c1, first: start, last: anchor + (c1 - 1) / rate, ...keep };
}

/**
 * The samples [from, to) of an input an evaluation over `context` reads: the whole channel for a whole-file read; the
 * base's own range for the base input and an input on its samples (regular, at the same times); else those between the
 * context's first and last time and one more each side, to interpolate at both (the window's own samples when the
 * context is empty).
 */
export function inputRange(leaf: ChannelInfo, axis: ChannelAxis, context: BaseContext, window: ScopeWindow, baseAxis?: ChannelAxis): { from: number; to: number } {
  if (window.whole) return { from: 0, to: axis.count };
  if (context.first === undefined || context.last === undefined) return axis.range(window.start, window.end);
  if (context.rate === undefined && (leaf.name === context.baseInput || (axis.key !== undefined && axis.key === baseAxis?.key))) {
    return { from: Math.min(context.from, axis.count), to: Math.min(context.to, axis.count) };
  }
  return around(axis, context.first, context.last);
}

/** Samples of an axis from the last before `first` to the first after `last` (those at either time included). */
function around(axis: ChannelAxis, first: number, last: number): { from: number; to: number } {
  const from = indexAt(axis, first);
  return { from: Math.max(0, from - 1), to: Math.min(axis.count, Math.max(from, indexAt(axis, last)) + 1) };
}

/**
 * The samples of the distance source lapDistance() reads over `laps` (those the context reaches): from the first lap's
 * start to two samples past the context's last time (a speed integrated: a lap's distances at a time depend on its
 * samples before it) or past the last lap's end (a distance channel: its restart anywhere in the lap places the
 * samples before it); and each lap's own samples in it, as the lap distance read takes them, [from, to) relative.
 */
export function distanceRange(axis: ChannelAxis, laps: readonly { start: number; end: number }[], kind: 'channel' | 'integrated', last: number): { from: number; to: number; laps: { from: number; to: number }[] } {
  const firstLap = laps[0];
  const lastLap = laps[laps.length - 1];
  if (!firstLap || !lastLap) return { from: 0, to: 0, laps: [] };
  const from = indexAt(axis, firstLap.start);
  // Two samples past: the one at or after that time, and one more, clear of the rounding of the base's times.
  const to = Math.min(axis.count, Math.max(from, indexAt(axis, kind === 'channel' ? lastLap.end : last) + 2));
  const clamp = (i: number) => Math.min(to, Math.max(from, i)) - from;
  return {
    from,
    to,
    laps: laps.map((lap) => {
      const range = axis.range(lap.start, lap.end);
      return { from: clamp(range.from), to: clamp(range.to) };
    }),
  };
}

/** The first sample at or after `t` (as a window starting there takes it). */
function indexAt(axis: ChannelAxis, t: number): number {
  return axis.range(t, t).from;
}

/** A number as a key: every float64 its own string (-0 apart from 0). */
export const exact = (n: number) => (Object.is(n, -0) ? '-0' : String(n));
