/** Counts of values per bin; bins are [edges[k], edges[k+1]), the last one closed at its upper edge. */
export interface Histogram {
  edges: number[];
  counts: number[];
  /** Values below the first edge and above the last (only explicit edges leave any out). */
  below: number;
  above: number;
  /** Values counted in all (gaps are not values). */
  total: number;
  /**
   * The values below 0, at 0 and above 0, whatever the edges: a damper velocity's time in rebound and in bump (by the
   * logger's sign), a steering angle's left and right, exactly (a bin across 0 holds both).
   */
  signs: { negative: number; zero: number; positive: number };
}

/**
 * `bins` equal bins over [min, max] of the finite values; a channel holding one value v (or values so close together
 * that `bins` bins over them would not have distinct edges) gets bins over [v - d, v + d] with d = max(0.5, |v|·2⁻⁴⁰)
 * (v their midpoint; the ends kept within ±Number.MAX_VALUE; d doubled while that is still too narrow for `bins`), and
 * one holding none no bins at all. The edges are
 * finite and strictly increasing however wide the range, even wider than the largest double.
 */
export function evenEdges(values: ArrayLike<number>, bins: number): number[] {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === Infinity) return [];
  if (min < max) {
    const edges = edgesOver(min, max, bins);
    if (strictlyIncreasing(edges)) return edges;
  }
  const mid = min / 2 + max / 2;
  for (let d = Math.max(0.5, Math.abs(mid) * 2 ** -40); ; d *= 2) {
    const edges = edgesOver(Math.max(-Number.MAX_VALUE, mid - d), Math.min(Number.MAX_VALUE, mid + d), bins);
    if (strictlyIncreasing(edges) || !Number.isFinite(d)) return edges;
  }
}

/**
 * `bins` equal bins over [min, max] (finite, min < max); when (max - min)·bins overflows, computed on the ends scaled
 * down by a power of two (exact), so that no intermediate is infinite.
 */
export function edgesOver(min: number, max: number, bins: number): number[] {
  const scale = Number.isFinite((max - min) * bins) ? 1 : 2 ** -(Math.ceil(Math.log2(bins)) + 1);
  const lo = min * scale;
  const width = max * scale - lo;
  // numpy's arithmetic (np.linspace, as np.histogram makes its edges): k times the step, plus the start, so a frame's
  // np.histogram(bins=n) gives the same edges, to the bit, and so the same counts.
  const step = width / bins;
  const edges = Array.from({ length: bins + 1 }, (_, k) => (k * step + lo) / scale);
  edges[0] = min;
  edges[bins] = max;
  return edges;
}

function strictlyIncreasing(edges: readonly number[]): boolean {
  for (let k = 1; k < edges.length; k++) if (!((edges[k] as number) > (edges[k - 1] as number))) return false;
  return true;
}

/** The histogram of the finite `values` over `edges` (ascending, at least two). */
export function histogram(values: ArrayLike<number>, edges: readonly number[]): Histogram {
  const bins = Math.max(0, edges.length - 1);
  const counts = new Array<number>(bins).fill(0);
  let below = 0;
  let above = 0;
  let total = 0;
  let negative = 0;
  let positive = 0;
  const first = edges[0] as number;
  const last = edges[bins] as number;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    total++;
    if (v < 0) negative++;
    else if (v > 0) positive++;
    if (bins === 0) continue;
    if (v < first) below++;
    else if (v > last) above++;
    else counts[binOf(edges, v, bins)]++;
  }
  return { edges: [...edges], counts, below, above, total, signs: { negative, zero: total - negative - positive, positive } };
}

/** The last k with edges[k] <= v (v within [edges[0], edges[bins]]), the top edge in the last bin. */
function binOf(edges: readonly number[], v: number, bins: number): number {
  let lo = 0;
  let hi = bins;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if ((edges[mid] as number) <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}
