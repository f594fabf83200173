/**
 * The evaluator as it was before block evaluation (one whole array per operator node), kept as the reference the
 * optimised one must match bit for bit. Test-only.
 */
import type { ExpressionNode } from '../src/ast';
import { delay, derivative, integral, lowpass, smooth, TIME_FUNCTIONS, type TimeFunctionName } from '../src/time-functions';
import type { EvaluationContext } from '../src';

// The scalar tables as they were (copied, so a change in src/functions.ts shows up as a difference).
type Scalar1 = (a: number) => number;
type Scalar2 = (a: number, b: number) => number;
type Scalar3 = (a: number, b: number, c: number) => number;

const truth = (a: number) => (a !== 0 ? 1 : 0);

const UNARY_OPERATORS: Record<'-' | '+' | '!', Scalar1> = {
  '-': (a) => -a,
  '+': (a) => a,
  '!': (a) => (Number.isNaN(a) ? NaN : 1 - truth(a)),
};

const BINARY_OPERATORS: Record<'+' | '-' | '*' | '/' | '%' | '^' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||', Scalar2> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '%': (a, b) => ((a % b) + b) % b,
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
type FunctionSpec =
  | { arity: 1; apply: Scalar1 }
  | { arity: 2; apply: Scalar2 }
  | { arity: 3; apply: Scalar3 }
  | { arity: 'one or more'; apply: Scalar2 };

const FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
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
  /** The floored modulo (the divisor's sign), as the library computes it: the reference agrees bit for bit. */
  mod: { arity: 2, apply: (a, b) => ((a % b) + b) % b },
  min: { arity: 'one or more', apply: Math.min },
  max: { arity: 'one or more', apply: Math.max },
  /** clamp(x, lo, hi): x held within [lo, hi]. */
  clamp: { arity: 3, apply: (x, lo, hi) => Math.min(Math.max(x, lo), hi) },
  /** if(condition, a, b): a where the condition is true, b where false, NaN where it is NaN. */
  if: { arity: 3, apply: (c, a, b) => (c !== c ? NaN : c !== 0 ? a : b) },
};

const CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, e: Math.E };

/** A breakpoint as written: a number, with a sign or not. */
function signed(node: ExpressionNode): number {
  if (node.kind === 'number') return node.value;
  if (node.kind === 'unary' && node.argument.kind === 'number') return node.operator === '-' ? -node.argument.value : node.argument.value;
  throw new Error('not a breakpoint');
}

/**
 * interp (linear) or lookup (step) of x over the breakpoints [x1, y1, x2, y2, ...], by a walk from the first pair (the
 * library searches by halves): the end values held outside, NaN for NaN.
 */
function tableAt(linear: boolean, x: number, table: readonly number[]): number {
  if (Number.isNaN(x)) return NaN;
  const n = table.length / 2;
  const xAt = (k: number) => table[2 * k] as number;
  const yAt = (k: number) => table[2 * k + 1] as number;
  if (x <= xAt(0)) return yAt(0);
  let k = 0;
  while (k + 1 < n && xAt(k + 1) <= x) k++;
  if (!linear || k === n - 1 || xAt(k) === x) return yAt(k);
  return yAt(k) + ((yAt(k + 1) - yAt(k)) * (x - xAt(k))) / (xAt(k + 1) - xAt(k));
}

/** Evaluates `ast` whole array by whole array over `inputs` (all of length n); a new array. */
export function referenceEvaluate(ast: ExpressionNode, inputs: ReadonlyMap<string, Float64Array>, n: number, context: EvaluationContext = {}): Float64Array {
  const run = new Run(n, inputs, context);
  const result = run.value(ast);
  if (typeof result === 'number') return new Float64Array(n).fill(result);
  return run.owns(result) ? result : result.slice();
}

/** A constant folds to a number; arrays made here are written over by the next operator, the inputs never. */
type Value = number | Float64Array;

class Run {
  private readonly borrowed: ReadonlySet<Float64Array>;
  constructor(
    private readonly n: number,
    private readonly inputs: ReadonlyMap<string, Float64Array>,
    private readonly context: EvaluationContext,
  ) {
    const borrowed = new Set(inputs.values());
    for (const values of [context.time, context.lapTime, context.lapDistance, context.lapNumber]) if (values) borrowed.add(values);
    this.borrowed = borrowed;
  }

  owns(values: Float64Array): boolean {
    return !this.borrowed.has(values);
  }

  value(node: ExpressionNode): Value {
    switch (node.kind) {
      case 'number':
        return node.value;
      case 'name':
        // As in the math language: a bare pi or e is the constant, a quoted one a name.
        return !node.quoted && node.name in CONSTANTS ? (CONSTANTS[node.name] as number) : (this.inputs.get(node.name) as Float64Array);
      case 'unary': {
        const a = this.value(node.argument);
        return (node.operator === '-' && this.negate(a)) || this.map1(UNARY_OPERATORS[node.operator], a);
      }
      case 'binary': {
        const a = this.value(node.left);
        const b = this.value(node.right);
        return this.arithmetic(node.operator, a, b) ?? this.map2(BINARY_OPERATORS[node.operator], a, b);
      }
      case 'call': {
        if (node.callee === 'lapTime' || node.callee === 'lapDistance' || node.callee === 'lapNumber') return this.context[node.callee] as Float64Array;
        if (node.callee === 'interp' || node.callee === 'lookup') return this.map1((x) => tableAt(node.callee === 'interp', x, node.args.slice(1).map(signed)), this.value(node.args[0] as ExpressionNode));
        if (Object.hasOwn(TIME_FUNCTIONS, node.callee)) return this.timeCall(node.callee as TimeFunctionName, node.args);
        const spec = FUNCTIONS[node.callee];
        const args = node.args.map((a) => this.value(a));
        if (spec.arity === 1) return (node.callee === 'abs' && this.absolute(args[0])) || this.map1(spec.apply, args[0]);
        if (spec.arity === 2) return this.map2(spec.apply, args[0], args[1]);
        if (spec.arity === 3) return this.map3(spec.apply, args[0], args[1], args[2]);
        return args.reduce((acc, v) => this.map2(spec.apply, acc, v));
      }
    }
  }

  private timeCall(callee: TimeFunctionName, args: ExpressionNode[]): Float64Array {
    const t = this.context.time as Float64Array;
    const value = this.value(args[0]);
    const x = typeof value === 'number' ? new Float64Array(this.n).fill(value) : value;
    const out = this.target(x);
    const parameter = args[1]?.kind === 'number' ? args[1].value : NaN;
    switch (callee) {
      case 'derivative':
        return derivative(x, t, out);
      case 'integral':
        return integral(x, t, out);
      case 'smooth':
        return smooth(x, t, parameter, out);
      case 'lowpass':
        return lowpass(x, t, parameter, out);
      case 'delay':
        return delay(x, t, parameter, out);
    }
  }

  /*
   * The common operators get loops of their own: one loop calling every operator through one call site would not be
   * inlined (the site sees many functions), and costs several times as much per sample.
   */
  private arithmetic(op: string, a: Value, b: Value): Value | undefined {
    if (typeof a === 'number' && typeof b === 'number') return undefined;
    const out = this.target(a, b);
    const n = out.length;
    if (typeof a !== 'number' && typeof b !== 'number') {
      switch (op) {
        case '+':
          for (let i = 0; i < n; i++) out[i] = a[i] + b[i];
          return out;
        case '-':
          for (let i = 0; i < n; i++) out[i] = a[i] - b[i];
          return out;
        case '*':
          for (let i = 0; i < n; i++) out[i] = a[i] * b[i];
          return out;
        case '/':
          for (let i = 0; i < n; i++) out[i] = a[i] / b[i];
          return out;
      }
    } else if (typeof a !== 'number') {
      const k = b as number;
      switch (op) {
        case '+':
          for (let i = 0; i < n; i++) out[i] = a[i] + k;
          return out;
        case '-':
          for (let i = 0; i < n; i++) out[i] = a[i] - k;
          return out;
        case '*':
          for (let i = 0; i < n; i++) out[i] = a[i] * k;
          return out;
        case '/':
          for (let i = 0; i < n; i++) out[i] = a[i] / k;
          return out;
      }
    } else {
      const v = b as Float64Array;
      switch (op) {
        case '+':
          for (let i = 0; i < n; i++) out[i] = a + v[i];
          return out;
        case '-':
          for (let i = 0; i < n; i++) out[i] = a - v[i];
          return out;
        case '*':
          for (let i = 0; i < n; i++) out[i] = a * v[i];
          return out;
        case '/':
          for (let i = 0; i < n; i++) out[i] = a / v[i];
          return out;
      }
    }
    return undefined;
  }

  private negate(a: Value): Value | undefined {
    if (typeof a === 'number') return undefined;
    const out = this.target(a);
    for (let i = 0; i < out.length; i++) out[i] = -a[i];
    return out;
  }

  private absolute(a: Value): Value | undefined {
    if (typeof a === 'number') return undefined;
    const out = this.target(a);
    for (let i = 0; i < out.length; i++) out[i] = Math.abs(a[i]);
    return out;
  }

  private target(...values: Value[]): Float64Array {
    for (const v of values) if (typeof v !== 'number' && this.owns(v)) return v;
    return new Float64Array(this.n);
  }

  private map1(f: Scalar1, a: Value): Value {
    if (typeof a === 'number') return f(a);
    const out = this.target(a);
    for (let i = 0; i < out.length; i++) out[i] = f(a[i]);
    return out;
  }

  private map2(f: Scalar2, a: Value, b: Value): Value {
    if (typeof a === 'number' && typeof b === 'number') return f(a, b);
    const out = this.target(a, b);
    if (typeof a === 'number') for (let i = 0; i < out.length; i++) out[i] = f(a, (b as Float64Array)[i]);
    else if (typeof b === 'number') for (let i = 0; i < out.length; i++) out[i] = f(a[i], b);
    else for (let i = 0; i < out.length; i++) out[i] = f(a[i], b[i]);
    return out;
  }

  private map3(f: Scalar3, a: Value, b: Value, c: Value): Value {
    if (typeof a === 'number' && typeof b === 'number' && typeof c === 'number') return f(a, b, c);
    const out = this.target(a, b, c);
    const at = (v: Value, i: number) => (typeof v === 'number' ? v : v[i]);
    for (let i = 0; i < out.length; i++) out[i] = f(at(a, i), at(b, i), at(c, i));
    return out;
  }
}
