/** Counts of values per bin; bins are [edges[k], edges[k+1]), the last one closed at its upper edge. */
export interface Histogram {
  edges: number[];
  counts: number[];
  /** Values below the first edge and above the last (only explicit edges leave any out). */
  below: number;
  above: number;
  /** Values counted in all (gaps are not values). */
  total: number;
}

/**
 * `bins` equal bins over [min, max] of the finite values; a channel holding one value gets bins over [v - 0.5,
 * v + 0.5], and one holding none no bins at all.
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
  if (min === max) {
    min -= 0.5;
    max += 0.5;
  }
  const edges = Array.from({ length: bins + 1 }, (_, k) => min + ((max - min) * k) / bins);
  edges[bins] = max;
  return edges;
}

/** The histogram of the finite `values` over `edges` (ascending, at least two). */
export function histogram(values: ArrayLike<number>, edges: readonly number[]): Histogram {
  const bins = Math.max(0, edges.length - 1);
  const counts = new Array<number>(bins).fill(0);
  let below = 0;
  let above = 0;
  let total = 0;
  const first = edges[0] as number;
  const last = edges[bins] as number;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    total++;
    if (bins === 0) continue;
    if (v < first) below++;
    else if (v > last) above++;
    else counts[binOf(edges, v, bins)]++;
  }
  return { edges: [...edges], counts, below, above, total };
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
