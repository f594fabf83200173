import { interpolateLinear, interpolateStep, isDiscreteChannel, type ChannelDescription } from '@pitwall/laps';
import { grid, type Line } from './plot-data';

/** The distance trace of a lap (the distance endpoint): lap-relative seconds and metres at each. */
export interface LapDistance {
  times: ArrayLike<number>;
  distances: ArrayLike<number>;
}

/** The distance answer's times are rounded to the microsecond: a point that close past its ends is at its ends. */
const DISTANCE_TIMES_RESOLUTION = 1e-6;

/** A lap-relative line moved onto the distance axis: each point's time turned into the distance travelled by then. */
export function toDistance(line: Line, distance: LapDistance): Line {
  const x = interpolateLinear(distance.times, distance.distances, line.x, DISTANCE_TIMES_RESOLUTION);
  const keep: number[] = [];
  for (let i = 0; i < x.length; i++) if (Number.isFinite(x[i])) keep.push(i);
  return { x: Float64Array.from(keep, (i) => x[i]), y: keep.map((i) => line.y[i]) };
}

/**
 * Several laps' lines of one channel on one shared x grid (n points from 0 to the longest lap), so they overlay
 * point for point: step interpolation (previous value held) for discrete channels such as gear, linear otherwise;
 * null outside a lap and in its gaps.
 */
export function overlayOnGrid(lines: readonly Line[], channel: ChannelDescription, n: number, range?: readonly [number, number]): [number[], ...(number | null)[][]] {
  let end = 0;
  for (const l of lines) if (l.x.length) end = Math.max(end, l.x[l.x.length - 1]);
  // Zoomed: the grid spans the visible range only, so its n points are all on screen.
  const at = range ? grid(range[0], range[1], n) : grid(0, end, n);
  const interpolate = isDiscreteChannel(channel) ? interpolateStep : interpolateLinear;
  const ys = lines.map((l) => Array.from(interpolate(l.x, l.y, at), (v) => (Number.isFinite(v) ? v : null)));
  return [Array.from(at), ...ys];
}

/**
 * The file-time window of one lap that a zoomed overlay shows: `view` is the visible range on the overlay's axis
 * (lap-relative seconds, or metres when the axis is distance, turned into the lap's times through its distance
 * trace), kept inside the lap and widened by 1 % on each side so the lines reach the plot's edges.
 */
export function lapWindowFor(view: readonly [number, number], lap: { lapStart: number; lapTime: number }, distance?: LapDistance | null): { start: number; duration: number } {
  let [a, b] = view;
  if (distance && distance.times.length > 1) {
    const last = distance.times.length - 1;
    const at = interpolateLinear(distance.distances, distance.times, Float64Array.from([a, b]));
    a = Number.isFinite(at[0]) ? at[0] : a <= distance.distances[0] ? distance.times[0] : distance.times[last];
    b = Number.isFinite(at[1]) ? at[1] : b <= distance.distances[0] ? distance.times[0] : distance.times[last];
  }
  const margin = (b - a) * 0.01;
  const from = Math.max(0, Math.min(a, b) - margin);
  const to = Math.min(lap.lapTime, Math.max(a, b) + margin);
  return { start: lap.lapStart + from, duration: Math.max(0.001, to - from) };
}
