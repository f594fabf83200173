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
 * most `maxPoints`, otherwise a `gridSize` × `gridSize` density grid over their extent (cells [min + k·w, min +
 * (k+1)·w), the last closed at max) listing the cells that hold points, row by row, with their count and mean colour.
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
  const cells = options.gridSize * options.gridSize;
  const counts = new Float64Array(cells);
  const colourSums = new Float64Array(cells);
  const colourCounts = new Float64Array(cells);
  for (const i of kept) {
    const cell = cellOf(y[i] as number, yAxis) * options.gridSize + cellOf(x[i] as number, xAxis);
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
 * The cell of `v` on `axis`; every value of a single-valued axis falls in the first. An extent wider than the largest
 * double (max - min overflows) is measured on halves, so every finite value still gets a cell.
 */
function cellOf(v: number, axis: GridAxis): number {
  if (!(axis.max > axis.min)) return 0;
  const scale = Number.isFinite(axis.max - axis.min) ? 1 : 0.5;
  const at = Math.floor(((v * scale - axis.min * scale) / (axis.max * scale - axis.min * scale)) * axis.cells);
  return Math.max(0, Math.min(axis.cells - 1, at));
}
