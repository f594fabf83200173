import type { TrackMapJson } from '@pitwall/contracts';
import { colourRamp, extent, finiteRange } from './analysis';

/** Pixels kept clear around the path on the map's canvas. */
export const MAP_MARGIN = 16;

/** Where a lap's path goes on a canvas: one scale for x and y (a circuit keeps its shape), centred; y up. */
export interface MapView {
  toPixel(x: number, y: number): [number, number];
}

export function mapView(answer: TrackMapJson, width: number, height: number): MapView {
  const { x, y } = answer.points;
  const [minX, maxX] = extent(x);
  const [minY, maxY] = extent(y);
  const spanX = Math.max(maxX - minX, 1e-9);
  const spanY = Math.max(maxY - minY, 1e-9);
  const scale = Math.min((width - 2 * MAP_MARGIN) / spanX, (height - 2 * MAP_MARGIN) / spanY);
  const left = (width - spanX * scale) / 2;
  const top = (height - spanY * scale) / 2;
  return { toPixel: (px, py) => [left + (px - minX) * scale, top + (maxY - py) * scale] };
}

/** One piece of the path from a point to the next, in the colour of the value at its start (dark purple low, orange high). */
export interface MapSegment {
  from: [number, number];
  to: [number, number];
  colour: string;
}

/** The path as coloured segments; without a colour channel, every segment in `plain`. */
export function mapSegments(answer: TrackMapJson, view: MapView, plain: string): MapSegment[] {
  const { x, y, value } = answer.points;
  const [min, max] = finiteRange(value ?? []) ?? [0, 0];
  const out: MapSegment[] = [];
  for (let i = 0; i + 1 < x.length; i++) {
    out.push({
      from: view.toPixel(x[i] as number, y[i] as number),
      to: view.toPixel(x[i + 1] as number, y[i + 1] as number),
      colour: value ? colourRamp(value[i] ?? null, min, max) : plain,
    });
  }
  return out;
}

/**
 * The point of the map at a time of the file (the time plots' x, s on the file's time axis): the last point at or
 * before it; null outside the lap.
 */
export function pointAtFileTime(answer: TrackMapJson, fileTime: number): number | null {
  const { time } = answer.points;
  const t = fileTime - answer.startTime;
  if (time.length === 0 || t < (time[0] as number) || t > answer.lap.lapTime) return null;
  let lo = 0;
  let hi = time.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((time[mid] as number) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The point of the map nearest to a pixel of its canvas. */
export function pointNearPixel(answer: TrackMapJson, view: MapView, px: number, py: number): number | null {
  let best: number | null = null;
  let bestDistance = Infinity;
  const { x, y } = answer.points;
  for (let i = 0; i < x.length; i++) {
    const [qx, qy] = view.toPixel(x[i] as number, y[i] as number);
    const d = (qx - px) ** 2 + (qy - py) ** 2;
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  }
  return best;
}

/** The point's time on the file's axis (what the time plots' cursor is put on). */
export function fileTimeOf(answer: TrackMapJson, index: number): number {
  return answer.startTime + (answer.points.time[index] as number);
}
