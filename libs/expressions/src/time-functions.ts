/**
 * Functions of a whole series over its time base (seconds, increasing): they look at neighbouring samples, so they run
 * on arrays, not sample by sample. A gap (NaN) stays a gap; a gap in time (a NaN time) is a gap too.
 *
 * - derivative(x): central difference (x[i+1] − x[i−1]) / (t[i+1] − t[i−1]) inside, one-sided at the two ends;
 *   NaN where a sample it reads is NaN; NaN for a series of one sample.
 * - integral(x): cumulative trapezoid from 0 at the first sample of the evaluated range; an interval touching a gap adds
 *   nothing (the sum holds across the gap), the gap's samples themselves are NaN.
 * - smooth(x, seconds): centred moving average over [t − s/2, t + s/2]; gaps are left out of the average, a gap's own
 *   sample stays NaN.
 * - lowpass(x, hz): first-order IIR (an RC filter): y += α (x − y), α = dt / (RC + dt), RC = 1 / (2π hz), dt each
 *   sample's own step; starts at the first value, and restarts at the first value after a gap.
 */
export type TimeFunctionName = 'derivative' | 'integral' | 'smooth' | 'lowpass';

/** Each time function with the number of its arguments: the first is the series, the second a positive constant. */
export const TIME_FUNCTIONS: Readonly<Record<TimeFunctionName, { arity: 1 | 2; parameter?: string }>> = {
  derivative: { arity: 1 },
  integral: { arity: 1 },
  smooth: { arity: 2, parameter: 'seconds' },
  lowpass: { arity: 2, parameter: 'hz' },
};

/** The lap-relative inputs, given to the evaluator (zero arguments). */
export const LAP_FUNCTIONS = ['lapTime', 'lapDistance'] as const;
export type LapFunctionName = (typeof LAP_FUNCTIONS)[number];

export function derivative(x: Float64Array, t: Float64Array, out: Float64Array): Float64Array {
  const n = x.length;
  if (n < 2) {
    out.fill(NaN);
    return out;
  }
  // Written in place over x is safe only into a separate array: keep the previous input sample.
  let previous = x[0];
  out[0] = (x[1] - x[0]) / (t[1] - t[0]);
  for (let i = 1; i < n - 1; i++) {
    const current = x[i];
    out[i] = (x[i + 1] - previous) / (t[i + 1] - t[i - 1]);
    previous = current;
  }
  out[n - 1] = (x[n - 1] - previous) / (t[n - 1] - t[n - 2]);
  return out;
}

export function integral(x: Float64Array, t: Float64Array, out: Float64Array): Float64Array {
  let sum = 0;
  let previous = NaN;
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (i > 0) {
      const step = (previous + v) * 0.5 * (t[i] - t[i - 1]);
      if (step === step) sum += step;
    }
    previous = v;
    out[i] = v === v && t[i] === t[i] ? sum : NaN;
  }
  return out;
}

export function smooth(x: Float64Array, t: Float64Array, seconds: number, out: Float64Array): Float64Array {
  const n = x.length;
  const half = seconds / 2;
  const source = out === x ? x.slice() : x;
  let lo = 0;
  let hi = 0; // the window is [lo, hi)
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const ti = t[i];
    while (hi < n && t[hi] <= ti + half) {
      const v = source[hi++];
      if (v === v) {
        sum += v;
        count++;
      }
    }
    while (lo < hi && t[lo] < ti - half) {
      const v = source[lo++];
      if (v === v) {
        sum -= v;
        count--;
      }
    }
    out[i] = source[i] === source[i] && ti === ti && count > 0 ? sum / count : NaN;
  }
  return out;
}

export function lowpass(x: Float64Array, t: Float64Array, hz: number, out: Float64Array): Float64Array {
  const rc = 1 / (2 * Math.PI * hz);
  let y = NaN;
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (v !== v || t[i] !== t[i]) {
      y = NaN;
      out[i] = NaN;
      continue;
    }
    if (y !== y) y = v;
    else {
      const dt = t[i] - t[i - 1];
      y += (dt / (rc + dt)) * (v - y);
    }
    out[i] = y;
  }
  return out;
}
