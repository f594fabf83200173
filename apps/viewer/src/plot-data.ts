import { physicalSamples, type ChannelSeries } from '@pitwall/channels';
import { displayNumber } from './display-number';

/** One line of a plot: x values (ascending) and y values, null where the data has a gap. */
export interface Line {
  x: Float64Array;
  y: (number | null)[];
}

/**
 * The points of a decoded series: explicit times (maxPoints reads) or startTime + i / frequency, minus `offset`
 * (a lap's start, for a lap-relative axis); gap flags and non-finite values become null so the chart breaks the line.
 */
export function seriesLine(series: ChannelSeries, offset = 0): Line {
  const values = physicalSamples(series);
  const n = values.length;
  const x = new Float64Array(n);
  const y = new Array<number | null>(n);
  for (let i = 0; i < n; i++) {
    x[i] = (series.times ? series.times[i] : series.startTime + i / series.frequency) - offset;
    const v = values[i];
    y[i] = series.gaps?.[i] === 1 || !Number.isFinite(v) ? null : v;
  }
  return { x, y };
}

/**
 * uPlot's aligned data for several lines on one x axis: the sorted union of their x values, each line's y at its own
 * x values, `undefined` elsewhere (uPlot draws across undefined and breaks the line at null, so gaps stay gaps).
 */
export function alignLines(lines: readonly Line[]): [number[], ...(number | null | undefined)[][]] {
  if (lines.length === 1) return [Array.from(lines[0].x), lines[0].y];
  const xs = [...new Set(lines.flatMap((l) => Array.from(l.x)))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const ys = lines.map((line) => {
    const out = new Array<number | null | undefined>(xs.length).fill(undefined);
    for (let i = 0; i < line.x.length; i++) out[index.get(line.x[i]) as number] = line.y[i];
    return out;
  });
  return [xs, ...ys];
}

/**
 * The value a line holds at time t, as the values line and every pane's readout show it: interpolated linearly between
 * the points either side of t (a reduced read's points are samples up to a pixel column apart, so taking one of them
 * showed a value up to a column away, often its minimum or maximum), or, for a discrete channel (`step`: gear, flags),
 * the previous point's value held. A point exactly at t is its own value; null in a gap (a neighbour is null), before
 * the first point or after the last.
 */
export function valueAt(line: Line, t: number, step = false): number | null {
  const n = line.x.length;
  if (n === 0 || !(t >= line.x[0]) || t > line.x[n - 1]) return null;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (line.x[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  const before = line.y[lo];
  if (step || line.x[lo] === t || lo === n - 1) return before;
  const after = line.y[lo + 1];
  if (before === null || after === null) return null;
  const x0 = line.x[lo];
  const x1 = line.x[lo + 1];
  return before + ((after - before) * (t - x0)) / (x1 - x0);
}

/** The cursor's time as the values line and the panes' readouts show it: milliseconds. */
export function formatCursorTime(t: number): string {
  return t.toFixed(3);
}

/** n evenly spaced points from a to b inclusive. */
export function grid(a: number, b: number, n: number): Float64Array {
  const out = new Float64Array(Math.max(2, n));
  const step = (b - a) / (out.length - 1);
  for (let i = 0; i < out.length; i++) out[i] = a + i * step;
  out[out.length - 1] = b;
  return out;
}

/** The visible time range after a zoom or pan, kept inside the file [start, end] and at least `minSpan` wide. */
export function clampWindow(min: number, max: number, start: number, end: number, minSpan = 0.01): { start: number; duration: number } {
  let a = Math.max(start, Math.min(min, max));
  let b = Math.min(end, Math.max(min, max));
  if (b - a < minSpan) {
    const mid = (a + b) / 2;
    a = Math.max(start, mid - minSpan / 2);
    b = Math.min(end, a + minSpan);
  }
  return { start: a, duration: b - a };
}

/**
 * A typed window (From, Length) as the file can answer it: cut to the file's [start, end] (`cut` says it was), or null
 * when none of it is in the file.
 */
export function windowInFile(from: number, duration: number, start: number, end: number): { start: number; duration: number; cut: boolean } | null {
  const a = Math.max(from, start);
  const b = Math.min(from + duration, end);
  if (!(b > a)) return null;
  return { start: a, duration: b - a, cut: a !== from || b !== from + duration };
}

/**
 * The decimals an axis's tick labels need so that ticks `incr` apart read differently: those of the increment itself
 * (0.0005 → 4, 0.25 → 2, 5 → 0).
 */
export function tickDecimals(incr: number): number {
  if (!(incr > 0) || !Number.isFinite(incr)) return 0;
  for (let d = 0; d < 15; d++) {
    const scaled = incr * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, scaled)) return d;
  }
  return 15;
}

/** The window a pan by `fraction` of its width moves to, kept inside the file. */
export function panWindow(start: number, duration: number, fraction: number, fileStart: number, fileEnd: number): { start: number; duration: number } {
  const width = Math.min(duration, fileEnd - fileStart);
  const moved = Math.min(Math.max(start + fraction * width, fileStart), fileEnd - width);
  return { start: moved, duration: width };
}

/** maxPoints for a plot `pixels` wide: one point per pixel (the M4 aggregation keeps 4 per bucket), at least 4. */
export function pointsForWidth(pixels: number): number {
  return Math.max(4, Math.round(pixels));
}

/** Formats a cursor value with the channel's unit. */
export function formatValue(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'no data';
  const abs = Math.abs(value);
  const text = abs !== 0 && (abs >= 1e6 || abs < 1e-3) ? value.toExponential(3) : displayNumber(value, 6);
  return unit ? `${text} ${unit}` : text;
}

/**
 * A window zoomed by `factor` (0.5: in, twice as close; 2: out) around `centre`, which stays where it is on the axis
 * (the cursor's time under the keyboard's + and -, or the mouse's under the wheel). [min, max] before clampWindow.
 */
export function zoomAround(start: number, duration: number, centre: number, factor: number): [number, number] {
  const c = Number.isFinite(centre) && centre >= start && centre <= start + duration ? centre : start + duration / 2;
  const min = c - (c - start) * factor;
  return [min, min + duration * factor];
}

/**
 * The plotted x `steps` points after (or before, negative) the one at or before `x` in the sorted `xs`: the cursor's
 * next position under the arrow keys, one plotted point at a time; null when there is none.
 */
export function stepX(xs: ArrayLike<number>, x: number, steps: number): number | null {
  if (xs.length === 0) return null;
  let lo = 0;
  let hi = xs.length - 1;
  // The last index whose x is at or before `x` (a cursor between points counts from the one before).
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((xs[mid] as number) <= x + 1e-9) lo = mid;
    else hi = mid - 1;
  }
  const at = (xs[lo] as number) <= x + 1e-9 ? lo : -1;
  const next = steps > 0 ? at + steps : at === -1 ? -1 : (xs[at] as number) < x - 1e-9 ? at + steps + 1 : at + steps;
  return next >= 0 && next < xs.length ? (xs[next] as number) : null;
}

/** The x of `xs` (ascending) nearest `x` among those within `range` (either when two are as near: the earlier); null when none is. */
export function nearestX(xs: ArrayLike<number>, x: number, range: readonly [number, number]): number | null {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  let best: number | null = null;
  for (const i of [lo - 1, lo]) {
    const v = xs[i];
    if (v === undefined || v < range[0] || v > range[1]) continue;
    if (best === null || Math.abs(v - x) < Math.abs(best - x)) best = v;
  }
  if (best !== null) return best;
  // None beside x within the range (a range between two points): the first or last point inside it, if any.
  for (let i = lo; i < xs.length && (xs[i] as number) <= range[1]; i++) if ((xs[i] as number) >= range[0]) return xs[i] as number;
  for (let i = lo - 1; i >= 0 && (xs[i] as number) >= range[0]; i--) if ((xs[i] as number) <= range[1]) return xs[i] as number;
  return null;
}

/**
 * The time plots' panes: one a channel, or (`byUnit`) one a unit, its channels together in the order they were first
 * ticked (front and rear brake pressures on one pane, the four wheel speeds on another).
 */
export function paneGroups<T extends { unit: string }>(items: readonly T[], byUnit: boolean): T[][] {
  if (!byUnit) return items.map((item) => [item]);
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.unit);
    if (group) group.push(item);
    else groups.set(item.unit, [item]);
  }
  return [...groups.values()];
}

/** Tick positions at round multiples of `incr` counted from `origin`, within [min, max]. */
export function shiftedSplits(min: number, max: number, incr: number, origin: number): number[] {
  const out: number[] = [];
  if (!(incr > 0) || !(max >= min)) return out;
  const first = Math.ceil((min - origin) / incr - 1e-9);
  for (let k = first; origin + k * incr <= max + incr * 1e-9 && out.length < 1000; k++) out.push(origin + k * incr);
  return out;
}

/**
 * The y axis's ticks: multiples of `incr` within [min, max], never more than 1000. uPlot's own add `incr` to the last
 * tick until past the max, which never ends where the step is below the values' precision (1e16 + 1 is 1e16): a y
 * scale that narrow is refused where one is set (`yRangeSteps`), and this bounds the axis whatever its range.
 */
export function ySplits(min: number, max: number, incr: number): number[] {
  const decimals = tickDecimals(incr);
  // Rounded to the step's decimals, as uPlot's are (3 × 0.1 is 0.30000000000000004).
  return shiftedSplits(min, max, incr, 0).map((v) => (decimals > 0 && Number.isFinite(v) ? Number(v.toFixed(decimals)) : v));
}

/**
 * How narrow a y scale may be, relative to its size (the registry's VIEWER_Y_SCALE_MIN_SPAN, which the entity-service
 * checks on a layout's write; a unit test holds the two together, the page does not bundle the contracts).
 */
export const Y_SCALE_MIN_SPAN = 1e-12;

/**
 * Whether a plot can step its ticks through a y scale: its max above its min by more than 1e-12 of their size. A
 * float64 holds about 16 digits: from 1e16 to 1e16 + 4 there is no number to step to.
 */
export function yRangeSteps(min: number, max: number): boolean {
  return max - min > Math.max(Math.abs(min), Math.abs(max)) * Y_SCALE_MIN_SPAN;
}

/**
 * A pane's y scale as typed in its form (min and max): the range, or what is wrong with it in words. Either field
 * may be written with a comma for the decimal point, as a European keyboard's number pad types it.
 */
export function yRangeOf(minText: string, maxText: string): { range: [number, number] } | { problem: string } {
  const read = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.')));
  const [min, max] = [read(minText), read(maxText)];
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { problem: 'The min and the max must both be numbers.' };
  if (!(max > min)) return { problem: 'The max must be above the min.' };
  if (!yRangeSteps(min, max)) return { problem: 'The range is too narrow for numbers this large: the max must exceed the min by more than a millionth of a millionth (1e-12) of their size, or the axis has no value to put a tick at.' };
  return { range: [min, max] };
}
