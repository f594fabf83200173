import { edgesOver } from './histogram';

/** The extent of one axis of a density grid and its number of cells. */
export interface GridAxis {
  min: number;
  max: number;
  cells: number;
}

/** One cell of a density grid that holds points: its column and row, how many points, their colour's mean. */
export interface DensityCell {
  x: number;
  y: number;
  count: number;
  /** Mean colour value of its points (those with one); null without a colour channel or when none of them has one. */
  colour: number | null;
}

export type Scatter =
  | { kind: 'points'; count: number; x: number[]; y: number[]; colour?: (number | null)[] }
  | { kind: 'density'; count: number; xAxis: GridAxis; yAxis: GridAxis; cells: DensityCell[] };

export interface ScatterOptions {
  /** Up to this many pairs come back as points; more become the density grid. */
  maxPoints: number;
  /** Cells of the grid along each axis. */
  gridSize: number;
}

/**
 * Pairs (x[i], y[i]) with an optional colour value, dropping those where x or y is NaN: as points when they are at
 * most `maxPoints`, otherwise a `gridSize` × `gridSize` density grid over their extent (numpy's cells: [edges[k], edges[k+1]) of np.histogram2d,
 * the last closed at max) listing the cells that hold points, row by row, with their count and mean colour.
 */
export function scatter(x: ArrayLike<number>, y: ArrayLike<number>, colour: ArrayLike<number> | undefined, options: ScatterOptions): Scatter {
  const kept: number[] = [];
  for (let i = 0; i < x.length; i++) if (!Number.isNaN(x[i]) && !Number.isNaN(y[i])) kept.push(i);
  const colourOf = (i: number) => (colour === undefined || Number.isNaN(colour[i]) ? null : (colour[i] as number));
  if (kept.length <= options.maxPoints) {
    return { kind: 'points', count: kept.length, x: kept.map((i) => x[i] as number), y: kept.map((i) => y[i] as number), ...(colour ? { colour: kept.map(colourOf) } : {}) };
  }
  const xAxis = axisOf(kept, x, options.gridSize);
  const yAxis = axisOf(kept, y, options.gridSize);
  const xEdges = edgesOf(xAxis);
  const yEdges = edgesOf(yAxis);
  const cells = options.gridSize * options.gridSize;
  const counts = new Float64Array(cells);
  const colourSums = new Float64Array(cells);
  const colourCounts = new Float64Array(cells);
  for (const i of kept) {
    const cell = cellOf(y[i] as number, yAxis, yEdges) * options.gridSize + cellOf(x[i] as number, xAxis, xEdges);
    counts[cell]++;
    const c = colourOf(i);
    if (c !== null) {
      colourSums[cell] += c;
      colourCounts[cell]++;
    }
  }
  const held: DensityCell[] = [];
  for (let cell = 0; cell < cells; cell++) {
    if (counts[cell] === 0) continue;
    held.push({ x: cell % options.gridSize, y: Math.floor(cell / options.gridSize), count: counts[cell], colour: colourCounts[cell] > 0 ? colourSums[cell] / colourCounts[cell] : null });
  }
  return { kind: 'density', count: kept.length, xAxis, yAxis, cells: held };
}

function axisOf(kept: readonly number[], values: ArrayLike<number>, cells: number): GridAxis {
  let min = Infinity;
  let max = -Infinity;
  for (const i of kept) {
    const v = values[i] as number;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max, cells };
}

/**
 * The edges of an axis's cells: numpy's (np.histogram2d's np.linspace over [min, max], as the histogram's even edges),
 * so a frame's `np.histogram2d(x, y, bins=n)` counts the same pairs in each cell; null for a single-valued axis.
 */
function edgesOf(axis: GridAxis): number[] | null {
  return axis.max > axis.min ? edgesOver(axis.min, axis.max, axis.cells) : null;
}

/**
 * The cell of `v` on `axis`: the last whose lower edge is at most `v` (the last cell closed at max), as numpy's
 * searchsorted over the edges finds it; every value of a single-valued axis falls in the first. The division places
 * it within a cell of the answer (an extent wider than the largest double is measured on halves), and the edges
 * settle a value on or next to one: 0.3 of [0, 1] in 10 cells is in cell 2, below the edge 0.30000000000000004.
 */
function cellOf(v: number, axis: GridAxis, edges: readonly number[] | null): number {
  if (!edges) return 0;
  const scale = Number.isFinite(axis.max - axis.min) ? 1 : 0.5;
  let at = Math.max(0, Math.min(axis.cells - 1, Math.floor(((v * scale - axis.min * scale) / (axis.max * scale - axis.min * scale)) * axis.cells)));
  while (at > 0 && v < (edges[at] as number)) at--;
  while (at < axis.cells - 1 && v >= (edges[at + 1] as number)) at++;
  return at;
}
