import { and, choose, clamp, equal, greater, greaterOrEqual, less, lessOrEqual, modulo, not, notEqual, or, power, round } from './functions';
import { interpolate, step, type TableFunctionName } from './table-functions';

/*
 * One loop per operator and function over a block of samples: out[o + i] = f(a[ao + i], ...), i in [0, n). Each loop
 * is its own function calling one scalar, so V8 inlines the scalar; a shared loop calling every operator through one
 * call site would not be inlined and costs several times as much per sample. The scalars are those of functions.ts.
 * Writing over an operand (out = a, o = ao) is safe: each sample is read before it is written.
 */
export type Kernel1 = (n: number, out: Float64Array, o: number, a: Float64Array, ao: number) => void;
export type Kernel2 = (n: number, out: Float64Array, o: number, a: Float64Array, ao: number, b: Float64Array, bo: number) => void;
/** An array and a constant: (a op k) or, for the `constantFirst` table, (k op a). */
export type KernelK = (n: number, out: Float64Array, o: number, a: Float64Array, ao: number, k: number) => void;
export type Kernel3 = (n: number, out: Float64Array, o: number, a: Float64Array, ao: number, b: Float64Array, bo: number, c: Float64Array, co: number) => void;
/** An array read against a table of constant breakpoints (xs strictly increasing, ys beside them). */
export type KernelTable = (n: number, out: Float64Array, o: number, a: Float64Array, ao: number, xs: Float64Array, ys: Float64Array) => void;

export const KERNELS_1: Readonly<Record<string, Kernel1>> = {
  '-': (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = -a[ao + i];
  },
  '+': (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = a[ao + i];
  },
  '!': (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = not(a[ao + i]);
  },
  abs: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.abs(a[ao + i]);
  },
  sqrt: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.sqrt(a[ao + i]);
  },
  exp: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.exp(a[ao + i]);
  },
  log: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.log(a[ao + i]);
  },
  log10: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.log10(a[ao + i]);
  },
  sin: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.sin(a[ao + i]);
  },
  cos: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.cos(a[ao + i]);
  },
  tan: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.tan(a[ao + i]);
  },
  asin: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.asin(a[ao + i]);
  },
  acos: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.acos(a[ao + i]);
  },
  atan: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.atan(a[ao + i]);
  },
  floor: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.floor(a[ao + i]);
  },
  ceil: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.ceil(a[ao + i]);
  },
  round: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = round(a[ao + i]);
  },
  sign: (n, out, o, a, ao) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.sign(a[ao + i]);
  },
};

/** The binary operators (`^` and pow alike) and the two-argument functions; min and max also fold their longer lists. */
export const KERNELS_2: Readonly<Record<string, Kernel2>> = {
  '+': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = a[ao + i] + b[bo + i];
  },
  '-': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = a[ao + i] - b[bo + i];
  },
  '*': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = a[ao + i] * b[bo + i];
  },
  '/': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = a[ao + i] / b[bo + i];
  },
  '^': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = power(a[ao + i], b[bo + i]);
  },
  '%': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = modulo(a[ao + i], b[bo + i]);
  },
  '<': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = less(a[ao + i], b[bo + i]);
  },
  '<=': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = lessOrEqual(a[ao + i], b[bo + i]);
  },
  '>': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = greater(a[ao + i], b[bo + i]);
  },
  '>=': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = greaterOrEqual(a[ao + i], b[bo + i]);
  },
  '==': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = equal(a[ao + i], b[bo + i]);
  },
  '!=': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = notEqual(a[ao + i], b[bo + i]);
  },
  '&&': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = and(a[ao + i], b[bo + i]);
  },
  '||': (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = or(a[ao + i], b[bo + i]);
  },
  pow: (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = power(a[ao + i], b[bo + i]);
  },
  atan2: (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.atan2(a[ao + i], b[bo + i]);
  },
  mod: (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = modulo(a[ao + i], b[bo + i]);
  },
  min: (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.min(a[ao + i], b[bo + i]);
  },
  max: (n, out, o, a, ao, b, bo) => {
    for (let i = 0; i < n; i++) out[o + i] = Math.max(a[ao + i], b[bo + i]);
  },
};

/** The arithmetic with a constant second operand (a op k): `x / 3.6`, `x * 2`. */
export const KERNELS_CONSTANT_SECOND: Readonly<Record<string, KernelK>> = {
  '+': (n, out, o, a, ao, k) => {
    for (let i = 0; i < n; i++) out[o + i] = a[ao + i] + k;
  },
  '-': (n, out, o, a, ao, k) => {
    for (let i = 0; i < n; i++) out[o + i] = a[ao + i] - k;
  },
  '*': (n, out, o, a, ao, k) => {
    for (let i = 0; i < n; i++) out[o + i] = a[ao + i] * k;
  },
  '/': (n, out, o, a, ao, k) => {
    for (let i = 0; i < n; i++) out[o + i] = a[ao + i] / k;
  },
};

/** The arithmetic with a constant first operand (k op a): `1 - x`, `100 / x`. */
export const KERNELS_CONSTANT_FIRST: Readonly<Record<string, KernelK>> = {
  '+': (n, out, o, a, ao, k) => {
    for (let i = 0; i < n; i++) out[o + i] = k + a[ao + i];
  },
  '-': (n, out, o, a, ao, k) => {
    for (let i = 0; i < n; i++) out[o + i] = k - a[ao + i];
  },
  '*': (n, out, o, a, ao, k) => {
    for (let i = 0; i < n; i++) out[o + i] = k * a[ao + i];
  },
  '/': (n, out, o, a, ao, k) => {
    for (let i = 0; i < n; i++) out[o + i] = k / a[ao + i];
  },
};

export const KERNELS_3: Readonly<Record<string, Kernel3>> = {
  clamp: (n, out, o, a, ao, b, bo, c, co) => {
    for (let i = 0; i < n; i++) out[o + i] = clamp(a[ao + i], b[bo + i], c[co + i]);
  },
  if: (n, out, o, a, ao, b, bo, c, co) => {
    for (let i = 0; i < n; i++) out[o + i] = choose(a[ao + i], b[bo + i], c[co + i]);
  },
};

/** interp and lookup: each sample read against the table, with the scalars constant folding uses. */
export const KERNELS_TABLE: Readonly<Record<TableFunctionName, KernelTable>> = {
  interp: (n, out, o, a, ao, xs, ys) => {
    for (let i = 0; i < n; i++) out[o + i] = interpolate(a[ao + i], xs, ys);
  },
  lookup: (n, out, o, a, ao, xs, ys) => {
    for (let i = 0; i < n; i++) out[o + i] = step(a[ao + i], xs, ys);
  },
};
