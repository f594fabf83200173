import type { ExpressionNode } from './ast';
import { ExpressionError } from './expression-error';

/**
 * Lookup tables of the math language: `interp(x, x1, y1, x2, y2, ...)` and `lookup(x, x1, y1, ...)`, x read against
 * breakpoints written as numbers (a calibration, a gear-ratio table, a ride-height map). Both hold the end values
 * outside the table (y1 below x1, the last y above the last x) and give NaN for NaN.
 *
 * - interp: piecewise linear between the two breakpoints around x (the breakpoint's own y at one exactly).
 * - lookup: a step, the y of the last breakpoint at or below x (y1 below x1).
 */
export type TableFunctionName = 'interp' | 'lookup';

/** The table functions, each with the scalar the block kernels and constant folding both call. */
export const TABLE_FUNCTIONS: Readonly<Record<TableFunctionName, TableScalar>> = { interp: interpolate, lookup: step };

/**
 * Most breakpoint pairs one table may hold: a calibration or a map needs tens; 200 pairs of signed numbers (4 terms a
 * pair) stay within MAX_EXPRESSION_NODES, so a longer table is told this limit, not the expression's.
 */
export const MAX_TABLE_PAIRS = 200;

/** A table's breakpoints: xs strictly increasing, ys of the same length (at least two). */
export interface Table {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
}

export type TableScalar = (x: number, xs: Float64Array, ys: Float64Array) => number;

/** The index of the last breakpoint at or below x; -1 below the first (x not NaN). */
function below(x: number, xs: Float64Array): number {
  let lo = 0;
  let hi = xs.length; // the answer + 1 is in [lo, hi]
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** interp: linear between the breakpoints around x, their end values held outside, NaN for NaN. */
export function interpolate(x: number, xs: Float64Array, ys: Float64Array): number {
  if (x !== x) return NaN;
  const k = below(x, xs);
  if (k < 0) return ys[0];
  const x0 = xs[k];
  const y0 = ys[k];
  if (x0 === x || k === xs.length - 1) return y0;
  const y1 = ys[k + 1];
  return y0 + ((y1 - y0) * (x - x0)) / (xs[k + 1] - x0);
}

/** lookup: the y of the last breakpoint at or below x (the first y below the table), NaN for NaN. */
export function step(x: number, xs: Float64Array, ys: Float64Array): number {
  if (x !== x) return NaN;
  const k = below(x, xs);
  return ys[k < 0 ? 0 : k];
}

/** A number written as digits, with a sign or not (`-12.5`); undefined for anything else. */
function signedNumber(node: ExpressionNode): number | undefined {
  if (node.kind === 'number') return node.value;
  if (node.kind === 'unary' && node.operator !== '!' && node.argument.kind === 'number') return node.operator === '-' ? -node.argument.value : node.argument.value;
  return undefined;
}

/**
 * The table of a call `callee(x, x1, y1, x2, y2, ...)`, or an ExpressionError at the first argument that is wrong: too
 * few pairs, an x without its y, more than MAX_TABLE_PAIRS, a breakpoint that is not a number written as digits, an x
 * not greater than the one before.
 */
export function tableOf(node: Extract<ExpressionNode, { kind: 'call' }>): Table {
  const { callee, args } = node;
  if (args.length < 5) throw new ExpressionError(node.start, `${callee} takes x and at least two breakpoint pairs (x, x1, y1, x2, y2, ...), not ${args.length} argument${args.length === 1 ? '' : 's'}`);
  const breakpoints = args.slice(1);
  if (breakpoints.length % 2 !== 0) {
    const lone = breakpoints[breakpoints.length - 1] as ExpressionNode;
    throw new ExpressionError(lone.start, `${callee}'s breakpoints come in pairs (x1, y1, x2, y2, ...): x${breakpoints.length / 2 + 0.5} has no y`);
  }
  const pairs = breakpoints.length / 2;
  if (pairs > MAX_TABLE_PAIRS) throw new ExpressionError((breakpoints[2 * MAX_TABLE_PAIRS] as ExpressionNode).start, `${callee} takes at most ${MAX_TABLE_PAIRS} breakpoint pairs, not ${pairs}`);
  const xs = new Float64Array(pairs);
  const ys = new Float64Array(pairs);
  for (let k = 0; k < pairs; k++) {
    for (const [axis, values] of [['x', xs], ['y', ys]] as const) {
      const arg = breakpoints[2 * k + (axis === 'x' ? 0 : 1)] as ExpressionNode;
      const value = signedNumber(arg);
      // The table is fixed per channel: a channel or a constant such as pi there would be a different kind of function.
      if (value === undefined) throw new ExpressionError(arg.start, `${callee}'s ${axis}${k + 1} must be a number written as digits, with a sign or not (not a name or an expression)`);
      values[k] = value;
      if (axis === 'x' && k > 0 && !(value > (xs[k - 1] as number))) {
        throw new ExpressionError(arg.start, `${callee}'s x breakpoints must be strictly increasing: x${k + 1} (${value}) is not greater than x${k} (${xs[k - 1]})`);
      }
    }
  }
  return { xs, ys };
}
