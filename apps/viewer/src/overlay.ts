import { interpolateLinear, interpolateStep, isDiscreteChannel, type ChannelDescription } from '@pitwall/laps';
import { grid, type Line } from './plot-data';

/** The distance trace of a lap (the distance endpoint): lap-relative seconds and metres at each. */
export interface LapDistance {
  times: ArrayLike<number>;
  distances: ArrayLike<number>;
}

/** A lap-relative line moved onto the distance axis: each point's time turned into the distance travelled by then. */
export function toDistance(line: Line, distance: LapDistance): Line {
  const x = interpolateLinear(distance.times, distance.distances, line.x);
  const keep: number[] = [];
  for (let i = 0; i < x.length; i++) if (Number.isFinite(x[i])) keep.push(i);
  return { x: Float64Array.from(keep, (i) => x[i]), y: keep.map((i) => line.y[i]) };
}

/**
 * Several laps' lines of one channel on one shared x grid (n points from 0 to the longest lap), so they overlay
 * point for point: step interpolation (previous value held) for discrete channels such as gear, linear otherwise;
 * null outside a lap and in its gaps.
 */
export function overlayOnGrid(lines: readonly Line[], channel: ChannelDescription, n: number): [number[], ...(number | null)[][]] {
  let end = 0;
  for (const l of lines) if (l.x.length) end = Math.max(end, l.x[l.x.length - 1]);
  const at = grid(0, end, n);
  const interpolate = isDiscreteChannel(channel) ? interpolateStep : interpolateLinear;
  const ys = lines.map((l) => Array.from(interpolate(l.x, l.y, at), (v) => (Number.isFinite(v) ? v : null)));
  return [Array.from(at), ...ys];
}
