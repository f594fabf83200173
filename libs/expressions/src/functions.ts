/**
 * What each operator and function does to one sample. NaN (a gap) in gives NaN out, also where JavaScript would
 * answer otherwise (NaN ^ 0, comparisons, logic); `if` looks only at its condition and the branch it takes.
 * Truth is any number but 0; comparisons and logic give 1 or 0. The block kernels (kernels.ts) call these same
 * functions, so a constant folded at compile time and a sample computed in a loop agree bit for bit.
 */
export type Scalar1 = (a: number) => number;
export type Scalar2 = (a: number, b: number) => number;
export type Scalar3 = (a: number, b: number, c: number) => number;

const truth = (a: number) => (a !== 0 ? 1 : 0);

export const negate = (a: number): number => -a;
export const identity = (a: number): number => a;
export const not = (a: number): number => (Number.isNaN(a) ? NaN : 1 - truth(a));
export const add = (a: number, b: number): number => a + b;
export const subtract = (a: number, b: number): number => a - b;
export const multiply = (a: number, b: number): number => a * b;
export const divide = (a: number, b: number): number => a / b;
/**
 * a % b and mod(a, b): the floored modulo, of the divisor's sign (mod(-10, 360) is 350: a heading wrapped into
 * [0, 360)), not JavaScript's remainder (-10 % 360 is -10 there); NaN for a divisor of 0 or an infinite dividend.
 */
export const modulo = (a: number, b: number): number => ((a % b) + b) % b;
export const less = (a: number, b: number): number => (a !== a || b !== b ? NaN : a < b ? 1 : 0);
export const lessOrEqual = (a: number, b: number): number => (a !== a || b !== b ? NaN : a <= b ? 1 : 0);
export const greater = (a: number, b: number): number => (a !== a || b !== b ? NaN : a > b ? 1 : 0);
export const greaterOrEqual = (a: number, b: number): number => (a !== a || b !== b ? NaN : a >= b ? 1 : 0);
export const equal = (a: number, b: number): number => (a !== a || b !== b ? NaN : a === b ? 1 : 0);
export const notEqual = (a: number, b: number): number => (a !== a || b !== b ? NaN : a !== b ? 1 : 0);
export const and = (a: number, b: number): number => (a !== a || b !== b ? NaN : truth(a) & truth(b));
export const or = (a: number, b: number): number => (a !== a || b !== b ? NaN : truth(a) | truth(b));

export function power(a: number, b: number): number {
  return a !== a ? NaN : Math.pow(a, b);
}

/** Rounds halves away from zero (2.5 → 3, -2.5 → -3), as C's round does; Math.round rounds them up. */
export function round(a: number): number {
  return a < 0 ? -Math.round(-a) : Math.round(a);
}

/** clamp(x, lo, hi): x held within [lo, hi]. */
export const clamp = (x: number, lo: number, hi: number): number => Math.min(Math.max(x, lo), hi);
/** if(condition, a, b): a where the condition is true, b where false, NaN where it is NaN. */
export const choose = (c: number, a: number, b: number): number => (c !== c ? NaN : c !== 0 ? a : b);

export const UNARY_OPERATORS: Record<'-' | '+' | '!', Scalar1> = { '-': negate, '+': identity, '!': not };

export const BINARY_OPERATORS: Record<'+' | '-' | '*' | '/' | '%' | '^' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||', Scalar2> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
  '%': modulo,
  '^': power,
  '<': less,
  '<=': lessOrEqual,
  '>': greater,
  '>=': greaterOrEqual,
  '==': equal,
  '!=': notEqual,
  '&&': and,
  '||': or,
};

/** The functions, each with its arity; min and max take one or more arguments. */
export type FunctionSpec =
  | { arity: 1; apply: Scalar1 }
  | { arity: 2; apply: Scalar2 }
  | { arity: 3; apply: Scalar3 }
  | { arity: 'one or more'; apply: Scalar2 };

export const FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  abs: { arity: 1, apply: Math.abs },
  sqrt: { arity: 1, apply: Math.sqrt },
  exp: { arity: 1, apply: Math.exp },
  log: { arity: 1, apply: Math.log },
  log10: { arity: 1, apply: Math.log10 },
  sin: { arity: 1, apply: Math.sin },
  cos: { arity: 1, apply: Math.cos },
  tan: { arity: 1, apply: Math.tan },
  asin: { arity: 1, apply: Math.asin },
  acos: { arity: 1, apply: Math.acos },
  atan: { arity: 1, apply: Math.atan },
  floor: { arity: 1, apply: Math.floor },
  ceil: { arity: 1, apply: Math.ceil },
  round: { arity: 1, apply: round },
  sign: { arity: 1, apply: Math.sign },
  pow: { arity: 2, apply: power },
  atan2: { arity: 2, apply: Math.atan2 },
  mod: { arity: 2, apply: modulo },
  min: { arity: 'one or more', apply: Math.min },
  max: { arity: 'one or more', apply: Math.max },
  clamp: { arity: 3, apply: clamp },
  if: { arity: 3, apply: choose },
};

export const CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, e: Math.E };
