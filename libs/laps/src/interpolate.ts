/** A value that is a gap: null, undefined or NaN. */
function isGap(v: number | null | undefined): boolean {
  return v === null || v === undefined || Number.isNaN(v);
}

/** First index i with xs[i] >= x (xs sorted ascending); xs.length when none. */
export function lowerBound(xs: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index i with xs[i] > x (xs sorted ascending); xs.length when none. */
export function upperBound(xs: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * What both interpolations start from: ys checked to match xs in length, the answer at `at` (all NaN until set),
 * and the range [first, last] of xs outside which every point stays NaN (an empty range when xs is empty).
 */
function resampling(xs: ArrayLike<number>, ys: ArrayLike<unknown>, at: ArrayLike<number>): { out: Float64Array; first: number; last: number } {
  const n = xs.length;
  if (ys.length !== n) throw new RangeError(`xs (${n}) and ys (${ys.length}) differ in length`);
  const out = new Float64Array(at.length).fill(NaN);
  return n === 0 ? { out, first: Infinity, last: -Infinity } : { out, first: xs[0], last: xs[n - 1] };
}

/**
 * Linear interpolation of ys over xs (sorted ascending, repeats allowed) at each point of `at`. NaN outside
 * [xs[0], xs[last]] and wherever either neighbouring sample is a gap (null or NaN), so gaps stay gaps. Where xs
 * repeats (a car standing still on a distance axis), the first sample reaching the value is taken. A point at most
 * `tolerance` outside the range is read at its end (xs that were rounded, as an answer's times to the microsecond).
 */
export function interpolateLinear(xs: ArrayLike<number>, ys: ArrayLike<number | null>, at: ArrayLike<number>, tolerance = 0): Float64Array {
  const { out, first, last } = resampling(xs, ys, at);
  // Points usually come in ascending order (a grid): each search then walks on from the previous one, O(n + m).
  let i = 0;
  let previous = -Infinity;
  for (let k = 0; k < at.length; k++) {
    const x = at[k] < first && at[k] >= first - tolerance ? first : at[k] > last && at[k] <= last + tolerance ? last : at[k];
    if (!(x >= first && x <= last)) continue;
    if (x < previous) i = lowerBound(xs, x);
    else while (xs[i] < x) i++;
    previous = x;
    if (xs[i] === x) {
      const y = ys[i];
      if (!isGap(y)) out[k] = y as number;
      continue;
    }
    const y0 = ys[i - 1];
    const y1 = ys[i];
    if (isGap(y0) || isGap(y1)) continue;
    const x0 = xs[i - 1];
    out[k] = (y0 as number) + (((y1 as number) - (y0 as number)) * (x - x0)) / (xs[i] - x0);
  }
  return out;
}

/**
 * Previous-sample hold of ys over xs (sorted ascending) at each point of `at`: the value of the last sample at or
 * before the point, for discrete channels (a gear is 3 until it is 4, never 3.5). NaN before xs[0], after xs[last]
 * and where that sample is a gap.
 */
export function interpolateStep(xs: ArrayLike<number>, ys: ArrayLike<number | null>, at: ArrayLike<number>): Float64Array {
  const { out, first, last } = resampling(xs, ys, at);
  for (let k = 0; k < at.length; k++) {
    const x = at[k];
    if (!(x >= first && x <= last)) continue;
    const y = ys[upperBound(xs, x) - 1];
    if (!isGap(y)) out[k] = y as number;
  }
  return out;
}
