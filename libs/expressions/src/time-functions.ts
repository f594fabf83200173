import { WindowSum } from './exact-sum';

/**
 * Functions of a whole series over its time base (seconds, increasing): they look at neighbouring samples, so they run
 * on arrays, not sample by sample. A gap (NaN) stays a gap; a gap in time (a NaN time) is a gap too.
 *
 * - derivative(x): central difference (x[i+1] − x[i−1]) / (t[i+1] − t[i−1]) inside, one-sided at the two ends;
 *   NaN where a sample it reads is NaN; NaN for a series of one sample.
 * - integral(x): cumulative trapezoid from 0 at the first sample of the evaluated range; an interval touching a gap adds
 *   nothing (the sum holds across the gap), the gap's samples themselves are NaN.
 * - smooth(x, seconds): centred moving average over [t − s/2, t + s/2] (its ends to the nanosecond); gaps are left out of the average, a gap's own
 *   sample stays NaN.
 * - lowpass(x, hz): first-order IIR (an RC filter): y += α (x − y), α = dt / (RC + dt), RC = 1 / (2π hz), dt each
 *   sample's own step; starts at the first value, and restarts at the first value after a gap.
 * - delay(x, seconds): x as it was `seconds` earlier, linear between the two samples around t − seconds (the sample at
 *   it when there is one); NaN before the series' first sample and where either sample around it is a gap.
 */
export type TimeFunctionName = 'derivative' | 'integral' | 'smooth' | 'lowpass' | 'delay';

/** Each time function with the number of its arguments: the first is the series, the second a positive constant. */
export const TIME_FUNCTIONS: Readonly<Record<TimeFunctionName, { arity: 1 | 2; parameter?: string }>> = {
  derivative: { arity: 1 },
  integral: { arity: 1 },
  smooth: { arity: 2, parameter: 'seconds' },
  lowpass: { arity: 2, parameter: 'hz' },
  delay: { arity: 2, parameter: 'seconds' },
};

/** The lap inputs, given to the evaluator (zero arguments): seconds and metres since the lap's line, the lap's index. */
export const LAP_FUNCTIONS = ['lapTime', 'lapDistance', 'lapNumber'] as const;
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

/**
 * smooth keeps the window's finite values in an exact running sum (WindowSum): each mean is that of the window's own
 * values, summed exactly and rounded once before the division, the same bits whatever passed through the window before
 * and wherever the read started (a 1e17 that left it takes nothing with it). Infinities are counted apart (the mean of
 * a window holding +∞ is +∞, holding both +∞ and −∞ NaN), so one leaving does not leave NaN behind.
 */
/** How far (s) a sample may lie outside smooth's window by rounding and still be in it: a nanosecond. */
const WINDOW_TOLERANCE_S = 1e-9;

export function smooth(x: Float64Array, t: Float64Array, seconds: number, out: Float64Array): Float64Array {
  const n = x.length;
  const half = seconds / 2;
  const source = out === x ? x.slice() : x;
  let lo = 0;
  let hi = 0; // the window is [lo, hi)
  const sum = new WindowSum(); // of its finite values
  let count = 0; // of its values, infinities included
  let infinities = 0; // its +∞ and −∞, counted apart
  let positive = 0;
  for (let i = 0; i < n; i++) {
    const ti = t[i];
    // The window's ends to the nanosecond (as the reads give times): 32.2 − 0.5 is 31.700000000000003, and the sample
    // of 31.7 s is in the window.
    while (hi < n && t[hi] <= ti + half + WINDOW_TOLERANCE_S) {
      const v = source[hi++];
      if (v === v) {
        count++;
        if (v - v === 0) sum.add(v);
        else {
          infinities++;
          if (v > 0) positive++;
        }
      }
    }
    while (lo < hi && t[lo] < ti - half - WINDOW_TOLERANCE_S) {
      const v = source[lo++];
      if (v === v) {
        count--;
        if (v - v === 0) sum.remove(v);
        else {
          infinities--;
          if (v > 0) positive--;
        }
      }
    }
    out[i] = source[i] === source[i] && ti === ti && count > 0 ? (infinities === 0 ? sum.mean(count) : positive === 0 ? -Infinity : positive === infinities ? Infinity : NaN) : NaN;
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
      // Two samples at one time: the second moves nothing (with a cut-off past 2.9e307 Hz, rc is 0 and 0 / 0 was NaN).
      if (dt > 0) y += (dt / (rc + dt)) * (v - y);
    }
    out[i] = y;
  }
  return out;
}

export function delay(input: Float64Array, t: Float64Array, seconds: number, out: Float64Array): Float64Array {
  const n = input.length;
  // It reads behind the sample it writes: written over its input, it reads a copy.
  const x = out === input ? input.slice() : input;
  // j: the last sample at or before t[i] − seconds (it only moves forward as the time base increases).
  let j = -1;
  for (let i = 0; i < n; i++) {
    const target = t[i] - seconds;
    if (target !== target) {
      out[i] = NaN;
      continue;
    }
    while (j + 1 < n && t[j + 1] <= target) j++;
    if (j < 0) {
      out[i] = NaN;
      continue;
    }
    const t0 = t[j];
    const x0 = x[j];
    if (t0 === target || j + 1 >= n) {
      out[i] = t0 === target ? x0 : NaN;
      continue;
    }
    const t1 = t[j + 1];
    out[i] = x0 + ((x[j + 1] - x0) * (target - t0)) / (t1 - t0);
  }
  return out;
}
