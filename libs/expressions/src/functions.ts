/**
 * What each operator and function does to one sample. NaN (a gap) in gives NaN out, also where JavaScript would
 * answer otherwise (NaN ^ 0, comparisons, logic); `if` looks only at its condition and the branch it takes.
 * Truth is any number but 0; comparisons and logic give 1 or 0.
 */
export type Scalar1 = (a: number) => number;
export type Scalar2 = (a: number, b: number) => number;
export type Scalar3 = (a: number, b: number, c: number) => number;

const truth = (a: number) => (a !== 0 ? 1 : 0);

export const UNARY_OPERATORS: Record<'-' | '+' | '!', Scalar1> = {
  '-': (a) => -a,
  '+': (a) => a,
  '!': (a) => (Number.isNaN(a) ? NaN : 1 - truth(a)),
};

export const BINARY_OPERATORS: Record<'+' | '-' | '*' | '/' | '^' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||', Scalar2> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '^': power,
  '<': (a, b) => (a !== a || b !== b ? NaN : a < b ? 1 : 0),
  '<=': (a, b) => (a !== a || b !== b ? NaN : a <= b ? 1 : 0),
  '>': (a, b) => (a !== a || b !== b ? NaN : a > b ? 1 : 0),
  '>=': (a, b) => (a !== a || b !== b ? NaN : a >= b ? 1 : 0),
  '==': (a, b) => (a !== a || b !== b ? NaN : a === b ? 1 : 0),
  '!=': (a, b) => (a !== a || b !== b ? NaN : a !== b ? 1 : 0),
  '&&': (a, b) => (a !== a || b !== b ? NaN : truth(a) & truth(b)),
  '||': (a, b) => (a !== a || b !== b ? NaN : truth(a) | truth(b)),
};

function power(a: number, b: number): number {
  return a !== a ? NaN : Math.pow(a, b);
}

/** Rounds halves away from zero (2.5 → 3, -2.5 → -3), as C's round does; Math.round rounds them up. */
function round(a: number): number {
  return a < 0 ? -Math.round(-a) : Math.round(a);
}

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
  min: { arity: 'one or more', apply: Math.min },
  max: { arity: 'one or more', apply: Math.max },
  /** clamp(x, lo, hi): x held within [lo, hi]. */
  clamp: { arity: 3, apply: (x, lo, hi) => Math.min(Math.max(x, lo), hi) },
  /** if(condition, a, b): a where the condition is true, b where false, NaN where it is NaN. */
  if: { arity: 3, apply: (c, a, b) => (c !== c ? NaN : c !== 0 ? a : b) },
};

export const CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, e: Math.E };
