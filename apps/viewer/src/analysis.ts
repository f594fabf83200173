import type { HistogramJson, LapStatsJson, ScatterJson } from '@pitwall/contracts';
import { formatLapTime } from './catalogue';
import { displayNumber, shortText } from './display-number';

/**
 * The analysis views' pure parts: the inputs read from the form (thresholds, sector distances), the lap statistics
 * table's cells, and the marks of the scatter and histogram canvases in pixels.
 */

/** `Throttle Pos=90; Ground Speed=200` → {name: value}; a part that is not `name=number` is refused by its text. */
export function parseThresholds(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of text.split(';').map((p) => p.trim()).filter(Boolean)) {
    const at = part.lastIndexOf('=');
    const name = at > 0 ? part.slice(0, at).trim() : '';
    const value = at > 0 ? Number(part.slice(at + 1).trim()) : NaN;
    if (!name || part.slice(at + 1).trim() === '' || !Number.isFinite(value)) throw new Error(`Threshold "${part}" is not "channel=number".`);
    out[name] = value;
  }
  return out;
}

/**
 * The channels a lap statistics request reports on: the ticked ones, then each channel a threshold names that is not
 * ticked (a threshold asks for its channel's time above it; the service refuses a threshold of a channel not asked).
 */
export function lapStatsChannelsOf(ticked: readonly string[], thresholds: Readonly<Record<string, number>>): string[] {
  return [...ticked, ...Object.keys(thresholds).filter((name) => !ticked.includes(name))];
}

/** The histogram's bins field: empty → undefined (the service's default); else a whole number of at least 1. */
export function parseBins(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const bins = Number(text);
  if (!Number.isInteger(bins) || bins < 1) throw new Error(`Bins "${text.trim()}" is not a whole number of at least 1 (empty: 20).`);
  return bins;
}

/** `0, 1200, 2900` (metres) → numbers; empty → undefined (no sectors). */
export function parseDistances(text: string): number[] | undefined {
  const parts = text.split(/[,\s]+/).filter(Boolean);
  if (parts.length === 0) return undefined;
  return parts.map((p) => {
    const d = Number(p);
    if (!Number.isFinite(d)) throw new Error(`Sector start "${p}" is not a number of metres.`);
    return d;
  });
}

/** An axis label: the channel's name and its unit in parentheses, the name alone when it has no unit (not "Gear ()"). */
export function axisLabel(channel: { name: string; unit: string }): string {
  const name = shortText(channel.name);
  return channel.unit.trim() ? `${name} (${shortText(channel.unit, 24)})` : name;
}

const value = (v: number | null) => (v === null ? '-' : displayNumber(v));
const seconds = (v: number | null) => (v === null ? '-' : v.toFixed(3));

/**
 * A mean as the table shows it: 0 when it is within float noise of 0 for the channel's values (a mean of a channel
 * swinging about 0 summed to -2.1128e-15), the mean otherwise.
 */
export function meanShown(mean: number | null, min: number | null, max: number | null): number | null {
  if (mean === null || min === null || max === null) return mean;
  return Math.abs(mean) <= 1e-9 * Math.max(Math.abs(min), Math.abs(max)) ? 0 : mean;
}

/** One row of the lap statistics table: its cells, its test id, the lap it is of (a lap's own row), and the cells holding a best sector time. */
export interface LapStatsRow {
  cells: string[];
  testid: string;
  lapIndex?: number;
  bestSectors?: number[];
}

type Figures = Omit<LapStatsJson['file']['channels'][number], 'name'>;

/**
 * The table's header and one row per lap: lap, kind, time, each sector, then min / max / mean / time above of each
 * channel; with per-sector figures (perSector), under each lap a row per sector (`S1`, its time in its own column);
 * and a last row of the whole file's figures (the only row of a file without laps), its length as its time.
 */
export function lapStatsTable(answer: LapStatsJson): { header: string[]; rows: LapStatsRow[] } {
  const sectorCount = answer.sectors?.count ?? 0;
  const header = ['lap', 'kind', 'time', ...Array.from({ length: sectorCount }, (_, k) => `S${k + 1}`)];
  for (const c of answer.channels) header.push(`${c.name} min`, `${c.name} max`, `${c.name} mean`, `${c.name} sd`, ...(c.threshold !== null ? [`${c.name} > ${displayNumber(c.threshold)} (s)`, `${c.name} < ${displayNumber(c.threshold)} (s)`] : []));
  const figures = (channels: readonly (Figures | null | undefined)[]) =>
    answer.channels.flatMap((c, k) => {
      const s = channels[k];
      const cells = s ? [value(s.min), value(s.max), value(meanShown(s.mean, s.min, s.max)), value(s.stdDev)] : ['-', '-', '-', '-'];
      return c.threshold === null ? cells : [...cells, s ? seconds(s.timeAbove) : '-', s ? seconds(s.timeBelow) : '-'];
    });
  const rows: LapStatsRow[] = [];
  // The best time of each sector (the theoretical best's), marked in the row of the lap that set it.
  const best = answer.theoreticalBest?.sectors ?? [];
  for (const lap of answer.laps) {
    const sectors = lap.sectorTimes ?? Array.from({ length: sectorCount }, () => null);
    const bestSectors = best.flatMap((b, k) => (b.lapIndex === lap.lapIndex ? [3 + k] : []));
    rows.push({ cells: [String(lap.lapIndex + 1), lap.kind, formatLapTime(lap.lapTime), ...sectors.map(seconds), ...figures(lap.channels)], testid: `lapstats-lap-${lap.lapIndex}`, lapIndex: lap.lapIndex, ...(bestSectors.length ? { bestSectors } : {}) });
    // Per sector, for a lap that timed one (an out-lap from the pits has none: no rows of dashes).
    if (!lap.channels.some((c) => c.sectors?.some((figures) => figures !== null))) continue;
    for (let k = 0; k < sectorCount; k++) {
      const own = Array.from({ length: sectorCount }, (_, j) => (j === k ? seconds(sectors[j] ?? null) : ''));
      rows.push({ cells: ['', `S${k + 1}`, '', ...own, ...figures(lap.channels.map((c) => c.sectors?.[k]))], testid: `lapstats-lap-${lap.lapIndex}-s${k + 1}` });
    }
  }
  rows.push({ cells: ['file', 'whole', formatLapTime(answer.file.duration), ...Array.from({ length: sectorCount }, () => ''), ...figures(answer.file.channels)], testid: 'lapstats-file' });
  return { header, rows };
}

/**
 * Cells of the lap statistics table the page builds at most: the service answers up to LAPSTATS_MAX_CELLS statistics
 * (10,000 laps of 10 channels per sector: some 5 million cells), which would hold the tab for minutes.
 */
export const LAPSTATS_SHOWN_CELLS = 60_000;

/**
 * The rows of the table the page shows: the first laps (with their sector rows) that fit `maxCells` with the whole
 * file's row, which is always shown, and how many are left out; `tooWide`, with its columns, when even the header and
 * that row would not fit (too many channels ticked).
 */
export function shownLapStatsRows(table: { header: string[]; rows: LapStatsRow[] }, maxCells = LAPSTATS_SHOWN_CELLS): { rows: LapStatsRow[]; hidden: number } | { tooWide: true; columns: number } {
  const width = table.header.length;
  if (width * 2 > maxCells) return { tooWide: true, columns: width };
  const fit = Math.floor(maxCells / width) - 2; // the header and the file's row
  const laps = table.rows.slice(0, -1);
  if (laps.length <= fit) return { rows: table.rows, hidden: 0 };
  return { rows: [...laps.slice(0, fit), ...table.rows.slice(-1)], hidden: laps.length - fit };
}

/** The line under the table: the best lap, and the theoretical best or why there is none. */
export function lapStatsSummary(answer: LapStatsJson): string {
  const best = answer.bestLap ? `Best lap ${answer.bestLap.lapIndex + 1}: ${formatLapTime(answer.bestLap.lapTime)}.` : 'No laps.';
  const ideal = answer.theoreticalBest
    ? `Theoretical best ${formatLapTime(answer.theoreticalBest.lapTime)} (sectors from laps ${answer.theoreticalBest.sectors.map((s) => s.lapIndex + 1).join(', ')}).`
    : `${answer.theoreticalBestNote ?? 'There is no theoretical best'}.`; // the service's note says why, and that there is none
  const sectors = answer.sectors;
  const source = !sectors
    ? ''
    : sectors.source.kind === 'splits'
      ? ` Sectors timed by the logger's split beacons (${sectors.source.channel}).`
      : ` Sectors from ${sectors.startDistances.map((d) => displayNumber(d)).join(', ')} m, timed on ${sectors.source.kind === 'integrated' ? `${sectors.source.channel} integrated` : sectors.source.channel}.`;
  return `${best} ${ideal}${source}`;
}

/**
 * The colour ramp's stops, low to high: matplotlib's inferno from 0.1 to 0.67, dark purple through crimson to orange.
 * Perceptually ordered (its lightness rises all the way, from L* 6 to 61) and colour-blind safe (a red-green
 * colour-blind reader sees it go from near-black blue through grey to ochre, steadily lighter); cut before its pale
 * yellow end, so every colour of it has at least 3:1 contrast on the white canvas (orange 3.1:1, dark purple 18:1) and
 * a 3 px point or line of it shows.
 */
export const RAMP_STOPS = ['#160b39', '#350a5a', '#53106b', '#70196d', '#8d2468', '#aa305c', '#c53e4d', '#dd513a', '#ec6c23'] as const;

/** The ramp's two ends in words, for captions: the low end's colour, then the high end's. */
export const RAMP_ENDS = ['dark purple', 'orange'] as const;

/** Dark purple (low) to orange (high) through crimson: the colour of a value within [min, max]; grey without one. */
export function colourRamp(v: number | null, min: number, max: number): string {
  if (v === null || !Number.isFinite(v)) return '#999999';
  const t = max > min ? Math.min(1, Math.max(0, (v - min) / (max - min))) : 0.5;
  const at = t * (RAMP_STOPS.length - 1);
  const k = Math.min(RAMP_STOPS.length - 2, Math.floor(at));
  const [a, b] = [RAMP_STOPS[k] as string, RAMP_STOPS[k + 1] as string];
  const channel = (i: number) => {
    const [from, to] = [parseInt(a.slice(i, i + 2), 16), parseInt(b.slice(i, i + 2), 16)];
    return Math.round(from + (to - from) * (at - k)).toString(16).padStart(2, '0');
  };
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

/** A rectangle to fill on a canvas, in pixels. */
export interface Mark {
  x: number;
  y: number;
  w: number;
  h: number;
  colour: string;
}

/** Where the plotting area of a canvas is: its margins leave room for the axis labels. */
export const PLOT_MARGIN = { left: 50, right: 10, top: 10, bottom: 30 } as const;

function scale(min: number, max: number, from: number, to: number): (v: number) => number {
  const span = max > min ? max - min : 1;
  return (v) => from + ((v - min) / span) * (to - from);
}

/**
 * The scatter's marks: a 3 px square per point (in `plain` without a colour channel, else on the colour ramp), or a
 * rectangle per density cell, coloured by its mean colour value, or, without a colour channel, shaded by its count.
 */
export function scatterMarks(answer: ScatterJson, width: number, height: number, plain: string): { marks: Mark[]; xRange: [number, number]; yRange: [number, number] } {
  const left = PLOT_MARGIN.left;
  const right = width - PLOT_MARGIN.right;
  const top = PLOT_MARGIN.top;
  const bottom = height - PLOT_MARGIN.bottom;
  if (answer.kind === 'points' && answer.points) {
    const { x, y, colour } = answer.points;
    // A margin of 3 % each side: the extreme points are drawn whole inside the frame, not cut in half by it.
    let xRange = padded(...extent(x));
    let yRange = padded(...extent(y));
    // Two channels of one unit (lateral against longitudinal G): one scale for both, so a circle is drawn round.
    if (answer.x.unit && answer.x.unit === answer.y.unit) [xRange, yRange] = equalScale(xRange, yRange, right - left, bottom - top);
    const finiteColours = (colour ?? []).filter((c): c is number => c !== null);
    const [cMin, cMax] = extent(finiteColours);
    const px = scale(xRange[0], xRange[1], left, right);
    const py = scale(yRange[0], yRange[1], bottom, top);
    return { marks: x.map((xv, i) => ({ x: px(xv) - 1.5, y: py(y[i] as number) - 1.5, w: 3, h: 3, colour: colour ? colourRamp(colour[i] ?? null, cMin, cMax) : plain })), xRange, yRange };
  }
  const grid = answer.grid as NonNullable<ScatterJson['grid']>;
  const { xAxis, yAxis, cells } = grid;
  // Two channels of one unit: one scale for both, as for points; the cells keep their place in the values.
  const [xRange, yRange] = answer.x.unit && answer.x.unit === answer.y.unit ? equalScale([xAxis.min, xAxis.max], [yAxis.min, yAxis.max], right - left, bottom - top) : [[xAxis.min, xAxis.max] as [number, number], [yAxis.min, yAxis.max] as [number, number]];
  const gx = scale(xRange[0], xRange[1], left, right);
  const gy = scale(yRange[0], yRange[1], bottom, top);
  const cellW = gx(xAxis.min + (xAxis.max - xAxis.min) / xAxis.cells) - gx(xAxis.min);
  const cellH = gy(yAxis.min) - gy(yAxis.min + (yAxis.max - yAxis.min) / yAxis.cells);
  const colours = cells.map((c) => c.colour).filter((c): c is number => c !== null);
  const [cMin, cMax] = extent(colours);
  const most = extent(cells.map((c) => c.count))[1];
  const marks = cells.map((c) => ({
    x: gx(xAxis.min) + c.x * cellW,
    y: gy(yAxis.min) - (c.y + 1) * cellH,
    w: cellW,
    h: cellH,
    colour: answer.colour ? colourRamp(c.colour, cMin, cMax) : colourRamp(Math.log(c.count), 0, Math.log(most)),
  }));
  return { marks, xRange, yRange };
}

/** Units of an acceleration in g (MoTeC's `G`): a scatter of one such channel against another is a g-g diagram. */
const G_UNITS: ReadonlySet<string> = new Set(['G', 'g']);
/** The most friction circles drawn. */
const MOST_CIRCLES = 8;

/**
 * The friction circles of a g-g diagram (lateral against longitudinal g, both axes in g): radii about 0 g every 0.5 g
 * (every 1 g when the plot reaches past 4 g), as far as the plot's farthest corner, at most MOST_CIRCLES; none when the
 * axes are not both in g. The tyres' grip is read against them, as in MoTeC's and ATLAS's g-g plots.
 */
export function frictionCircles(xUnit: string, yUnit: string, xRange: [number, number], yRange: [number, number]): number[] {
  if (!G_UNITS.has(xUnit) || xUnit !== yUnit) return [];
  const far = Math.max(...xRange.flatMap((x) => yRange.map((y) => Math.hypot(x, y))));
  if (!Number.isFinite(far)) return [];
  const step = far > 4 ? 1 : 0.5;
  const radii: number[] = [];
  for (let r = step; r <= far && radii.length < MOST_CIRCLES; r += step) radii.push(r);
  return radii;
}

/** The two ranges widened about their middles so that a unit is as many pixels on both axes (`w` × `h` pixels). */
export function equalScale(xRange: [number, number], yRange: [number, number], w: number, h: number): [[number, number], [number, number]] {
  const perPixel = Math.max((xRange[1] - xRange[0]) / w, (yRange[1] - yRange[0]) / h);
  if (!(perPixel > 0) || !Number.isFinite(perPixel)) return [xRange, yRange];
  const around = (range: [number, number], pixels: number): [number, number] => {
    const middle = (range[0] + range[1]) / 2;
    return [middle - (perPixel * pixels) / 2, middle + (perPixel * pixels) / 2];
  };
  return [around(xRange, w), around(yRange, h)];
}

function padded(min: number, max: number, share = 0.03): [number, number] {
  const pad = (max > min ? max - min : Math.abs(min) || 1) * share;
  return [min - pad, max + pad];
}

/**
 * One bin per whole number, centred on it (edges at n ± 0.5), for a channel of whole values (gear) whose values run
 * from `first` to `last` (the edges of a first answer): 20 bins 0.15 wide sat beside its ticks. Null when the values
 * are not whole numbers, or span more than `maxBins` of them.
 */
export function integerEdges(first: number, last: number, maxBins = 200): number[] | null {
  if (!Number.isInteger(first) || !Number.isInteger(last) || last < first || last - first + 1 > maxBins) return null;
  return Array.from({ length: last - first + 2 }, (_, k) => first - 0.5 + k);
}

/** A tick of a canvas axis: its value, and the label drawn beside it. */
export interface AxisTick {
  value: number;
  label: string;
}

/**
 * About `count` ticks between min and max (both inclusive) on a round step (1, 2 or 5 × 10^k), labelled with as many
 * decimals as the step needs (0.5 → one, 20 → none). `integers`: a count axis, whose step is a whole number, so its
 * labels read 0, 2, 4 and never 0.00 or 2.5.
 */
export function axisTicks(min: number, max: number, count = 5, integers = false): AxisTick[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  const [lo, hi] = min <= max ? [min, max] : [max, min];
  const raw = (hi - lo) / Math.max(1, count);
  let step: number;
  if (raw > 0) {
    const power = 10 ** Math.floor(Math.log10(raw));
    step = ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw * (1 - 1e-9)) as number);
  } else step = 1;
  if (integers) step = Math.max(1, Math.round(step));
  const decimals = integers ? 0 : Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  // The value rounded to the label's decimals (3 × 0.1 is 0.30000000000000004), and never -0.
  const tick = (v: number): AxisTick => {
    const value = Number(v.toFixed(decimals)) + 0;
    return { value, label: value.toFixed(decimals) };
  };
  // One value, or a range within its float resolution (a few ulps wide, float noise): no round step to walk, as k + 1
  // would then be k. One tick at the value, labelled as the page shows a number.
  if (raw === 0 || Math.max(Math.abs(lo), Math.abs(hi)) / step >= Number.MAX_SAFE_INTEGER) return [{ value: lo, label: displayNumber(lo) }];
  const ticks: AxisTick[] = [];
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++) ticks.push(tick(k * step));
  return ticks;
}

/** The histogram's bars: one per bin, as wide as the bin, as tall as its count on the vertical axis (`axis`, from histogramAxis). */
export function histogramBars(answer: HistogramJson, width: number, height: number, colour: string, axis: HistogramAxis): Mark[] {
  const { edges, counts } = answer;
  if (edges.length < 2) return [];
  const left = PLOT_MARGIN.left;
  const right = width - PLOT_MARGIN.right;
  const bottom = height - PLOT_MARGIN.bottom;
  const px = scale(edges[0] as number, edges[edges.length - 1] as number, left, right);
  const top = axis.range[1] > 0 ? axis.range[1] : 1;
  return counts.map((n, k) => {
    const x0 = px(edges[k] as number);
    const x1 = px(edges[k + 1] as number);
    const h = ((bottom - PLOT_MARGIN.top) * axis.valueOf(n)) / top;
    return { x: x0 + 0.5, y: bottom - h, w: Math.max(1, x1 - x0 - 1), h, colour };
  });
}

/** The histogram's caption: how many samples in how many bins, of what width over what range, and how many fell outside. */
export function histogramCaption(answer: HistogramJson): string {
  const { edges, counts, channel } = answer;
  const unit = channel.unit ? ` ${channel.unit}` : '';
  const first = edges[0];
  const last = edges[edges.length - 1];
  const range = first !== undefined && last !== undefined && counts.length > 0 ? ` of ${displayNumber((last - first) / counts.length, 4)}${unit} from ${displayNumber(first)} to ${displayNumber(last)}${unit}` : '';
  return `${channel.name}: ${answer.total} samples in ${counts.length} bins${range} (${answer.below} below, ${answer.above} above).${signSplit(answer)}`;
}

/**
 * The share of the time below and above 0 when the channel has both (a damper velocity's rebound and bump, a steering
 * angle's two sides), as MoTeC's damper histogram gives it: ` 48.2 % of the time below 0, 51.3 % above.`; '' otherwise.
 */
function signSplit({ signs, total }: HistogramJson): string {
  if (total === 0 || signs.negative === 0 || signs.positive === 0) return '';
  const share = (n: number) => `${displayNumber((100 * n) / total, 3)} %`;
  return ` ${share(signs.negative)} of the time below 0, ${share(signs.positive)} above.`;
}

/** The histogram's vertical axis: its range, its label, whether its ticks are whole numbers, and a count's value on it. */
export interface HistogramAxis {
  range: [number, number];
  label: string;
  whole: boolean;
  valueOf: (count: number) => number;
}

/** Headroom above the tallest bar, at least this share of the axis: the bar never touches the frame's top. */
const HEADROOM = 0.05;

/**
 * The top of a count axis from 0: the first round tick (axisTicks' step) at least HEADROOM above `tallest`, so a
 * labelled tick stands above the tallest bar, as a histogram reads in MoTeC or ATLAS.
 */
export function axisTopAbove(tallest: number, whole: boolean): number {
  let top = tallest > 0 ? tallest / (1 - HEADROOM) : 1;
  // The step grows with the range: stop once the axis's own last tick is the top.
  for (let i = 0; i < 10; i++) {
    const ticks = axisTicks(0, top, 5, whole);
    const step = ticks.length > 1 ? (ticks[1] as AxisTick).value - (ticks[0] as AxisTick).value : top;
    const rounded = Number((Math.ceil(top / step - 1e-9) * step).toPrecision(12));
    if (rounded === (ticks.at(-1) as AxisTick).value) return rounded;
    top = rounded;
  }
  return top;
}

/**
 * The histogram's vertical axis: samples (whole numbers), or the share of the samples in % (of the time, for a channel
 * logged at one rate); from 0 to a round tick above the tallest bar (axisTopAbove).
 */
export function histogramAxis(answer: HistogramJson, percent: boolean): HistogramAxis {
  const most = Math.max(1, extent(answer.counts)[1]);
  if (!percent) return { range: [0, axisTopAbove(most, true)], label: 'samples', whole: true, valueOf: (n) => n };
  const share = (n: number) => (answer.total > 0 ? (100 * n) / answer.total : 0);
  return { range: [0, axisTopAbove(answer.total > 0 ? share(most) : 100, false)], label: answer.frequency > 0 ? '% of the time' : '% of the samples', whole: false, valueOf: share };
}

/**
 * A colour scale in words, for a caption: `coloured by Ground Speed from 45.2 (dark purple) to 210 km/h (orange)`, the
 * range of the values drawn; `(dark purple low, orange high)` when none is finite.
 */
export function colourScale(channel: { name: string; unit: string }, values: readonly (number | null | undefined)[]): string {
  const range = finiteRange(values);
  const unit = channel.unit ? ` ${channel.unit}` : '';
  const [low, high] = RAMP_ENDS;
  return range ? `coloured by ${channel.name} from ${displayNumber(range[0])} (${low}) to ${displayNumber(range[1])}${unit} (${high})` : `coloured by ${channel.name} (${low} low, ${high} high)`;
}

/**
 * Math.min and Math.max of the values (NaN if one is; Infinity and -Infinity for none) without spreading them as
 * arguments: a spread of some 125,000 values throws RangeError (a histogram of HISTOGRAM_MAX_BINS raised that far).
 */
export function extent(values: ArrayLike<number>): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v !== v) return [NaN, NaN];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

/** The least and the greatest finite value (null when there is none): the ends of a colour ramp. */
export function finiteRange(values: readonly (number | null | undefined)[]): [number, number] | null {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? [min, max] : null;
}

/** A colour scale drawn under a coloured plot: the ramp (a CSS gradient, dark purple to orange) and what its two ends stand for. */
export interface ColourBar {
  gradient: string;
  low: string;
  high: string;
}

/** colourRamp as a CSS gradient through its stops, dark purple to orange, as the plot's colours go. */
const RAMP_GRADIENT = `linear-gradient(to right, ${RAMP_STOPS.join(', ')})`;

/** The scale of a plot coloured by a channel's values (its ends the least and the greatest, as the plot colours them); null without one. */
export function colourBar(unit: string, values: readonly (number | null | undefined)[]): ColourBar | null {
  const range = finiteRange(values);
  if (!range) return null;
  return { gradient: RAMP_GRADIENT, low: displayNumber(range[0]), high: `${displayNumber(range[1])}${unit ? ` ${unit}` : ''}` };
}

/** The scatter's scale: by its colour channel, or for a density grid without one, by its cells' counts (on a log scale, as drawn). */
export function scatterColourBar(answer: ScatterJson): ColourBar | null {
  if (answer.colour) return colourBar(answer.colour.unit, scatterColourValues(answer));
  if (answer.kind !== 'density') return null;
  const most = mostPairs(answer);
  // Cells are coloured by the logarithm of their count, 1 pair dark purple and the most orange (all of one count: the ramp's middle).
  return most > 0 ? { gradient: RAMP_GRADIENT, low: '1 pair', high: most === 1 ? '1 pair' : `${most} pairs (log scale)` } : null;
}

/** The values a scatter's colour channel gives its points, or its density grid's cells. */
const scatterColourValues = (answer: ScatterJson): (number | null)[] => (answer.kind === 'points' ? (answer.points?.colour ?? []) : (answer.grid?.cells ?? []).map((c) => c.colour));

/** The most pairs one cell of a density grid holds (0 for points). */
const mostPairs = (answer: ScatterJson): number => Math.max(0, extent((answer.grid?.cells ?? []).map((c) => c.count))[1]);

/** The scatter's caption: what was drawn and what its colours mean (a grid without a colour channel is coloured by its pairs' count). */
export function scatterCaption(answer: ScatterJson): string {
  const what = answer.kind === 'points' ? `${answer.count} points` : `${answer.count} pairs in a ${answer.grid?.xAxis.cells}×${answer.grid?.yAxis.cells} density grid`;
  const colours = answer.colour ? `, ${colourScale(answer.colour, scatterColourValues(answer))}` : answer.kind === 'density' ? `, each cell coloured by how many pairs it holds (${RAMP_ENDS[0]} 1, ${RAMP_ENDS[1]} ${mostPairs(answer)})` : '';
  return `${answer.y.name} against ${answer.x.name}${colours}: ${what}, on ${answer.timeBase}'s time base.`;
}
