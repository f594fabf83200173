import type { ExpressionNode } from './ast';
import { ExpressionError } from './expression-error';
import { BINARY_OPERATORS, CONSTANTS, FUNCTIONS, type Scalar1, type Scalar2, type Scalar3, UNARY_OPERATORS } from './functions';
import { parse } from './parse';
import { derivative, integral, LAP_FUNCTIONS, type LapFunctionName, lowpass, smooth, TIME_FUNCTIONS, type TimeFunctionName } from './time-functions';

export interface CompileOptions {
  /**
   * The names an expression may read (channels); they shadow the constants. Any other name is refused. `'any'`: every
   * name but a constant is an input (to check an expression before the channels it reads are known).
   */
  inputs: readonly string[] | 'any';
  /**
   * The math-channel language: quoted names ("Engine Speed"), the time functions (derivative, integral, smooth,
   * lowpass) and the lap inputs (lapTime(), lapDistance()), which need an EvaluationContext. Off: MDF conversions.
   */
  math?: boolean;
}

/** What the time-aware functions read: the time base (seconds, increasing) and the lap-relative series, each of the inputs' length. */
export interface EvaluationContext {
  time?: Float64Array;
  /** Seconds since the start of the sample's lap. */
  lapTime?: Float64Array;
  /** Distance (metres) since the start of the sample's lap. */
  lapDistance?: Float64Array;
}

/** Named inputs, one value per sample, all of one length. */
export type ExpressionInputs = Readonly<Record<string, Float64Array>>;

/** An expression checked against its inputs and functions, ready to run over whole arrays. */
export interface CompiledExpression {
  readonly ast: ExpressionNode;
  /** The inputs the expression reads, in order of first use. */
  readonly inputs: readonly string[];
  /** What evaluate needs in its context: the time base (time functions), lapTime, lapDistance. */
  readonly needs: { readonly time: boolean; readonly lapTime: boolean; readonly lapDistance: boolean };
  /**
   * Sample i of the result is the expression over sample i of each input; a new array that shares no memory with the
   * inputs. `length` is needed only when the expression reads no input (and no context series).
   */
  evaluate(inputs: ExpressionInputs, length?: number, context?: EvaluationContext): Float64Array;
}

/** Checks names and functions (ExpressionError at the first unknown one, or a call with the wrong argument count). */
export function compile(source: string | ExpressionNode, options: CompileOptions): CompiledExpression {
  const math = options.math === true;
  const ast = typeof source === 'string' ? parse(source, { quotedNames: math }) : source;
  const allowed = options.inputs === 'any' ? 'any' : new Set(options.inputs);
  const used: string[] = [];
  const needs = { time: false, lapTime: false, lapDistance: false };
  check(ast, { allowed, math, needs }, used);
  return {
    ast,
    inputs: used,
    needs,
    evaluate(inputs, length, context = {}) {
      const n = sampleCount(used, inputs, length, needs, context);
      const run = new Run(n, new Map(used.map((name) => [name, inputs[name]])), context);
      const result = run.value(ast);
      if (typeof result === 'number') return new Float64Array(n).fill(result);
      return run.owns(result) ? result : result.slice();
    },
  };
}

/** parse, compile with the inputs' names, evaluate: for one-off use. */
export function evaluate(text: string, inputs: ExpressionInputs, length?: number): Float64Array {
  return compile(text, { inputs: Object.keys(inputs) }).evaluate(inputs, length);
}

interface Checking {
  allowed: ReadonlySet<string> | 'any';
  math: boolean;
  needs: { time: boolean; lapTime: boolean; lapDistance: boolean };
}

function check(node: ExpressionNode, c: Checking, used: string[]): void {
  const { allowed } = c;
  switch (node.kind) {
    case 'number':
      return;
    case 'name':
      if (allowed === 'any' ? !Object.hasOwn(CONSTANTS, node.name) : allowed.has(node.name)) {
        if (!used.includes(node.name)) used.push(node.name);
      } else if (!Object.hasOwn(CONSTANTS, node.name)) {
        throw new ExpressionError(node.start, `unknown name ${node.name}`);
      }
      return;
    case 'unary':
      return check(node.argument, c, used);
    case 'binary':
      check(node.left, c, used);
      return check(node.right, c, used);
    case 'call': {
      if (c.math && Object.hasOwn(TIME_FUNCTIONS, node.callee)) return checkTimeCall(node, c, used);
      if (c.math && (LAP_FUNCTIONS as readonly string[]).includes(node.callee)) {
        if (node.args.length !== 0) throw new ExpressionError(node.start, `${node.callee} takes no arguments, not ${node.args.length}`);
        c.needs[node.callee as LapFunctionName] = true;
        return;
      }
      const spec = Object.hasOwn(FUNCTIONS, node.callee) ? FUNCTIONS[node.callee] : undefined;
      if (!spec) throw new ExpressionError(node.start, `unknown function ${node.callee}`);
      const count = node.args.length;
      if (spec.arity === 'one or more' ? count < 1 : count !== spec.arity) {
        const wanted = spec.arity === 'one or more' ? 'one or more arguments' : `${spec.arity} argument${spec.arity === 1 ? '' : 's'}`;
        throw new ExpressionError(node.start, `${node.callee} takes ${wanted}, not ${count}`);
      }
      for (const arg of node.args) check(arg, c, used);
      return;
    }
  }
}

/** derivative(x), integral(x), smooth(x, seconds), lowpass(x, hz): the second argument a positive number, written as one. */
function checkTimeCall(node: Extract<ExpressionNode, { kind: 'call' }>, c: Checking, used: string[]): void {
  const spec = TIME_FUNCTIONS[node.callee as TimeFunctionName];
  if (node.args.length !== spec.arity) {
    const wanted = spec.arity === 1 ? '1 argument' : `2 arguments (x, ${spec.parameter})`;
    throw new ExpressionError(node.start, `${node.callee} takes ${wanted}, not ${node.args.length}`);
  }
  check(node.args[0], c, used);
  const parameter = node.args[1];
  if (parameter && !(parameter.kind === 'number' && parameter.value > 0 && Number.isFinite(parameter.value))) {
    throw new ExpressionError(parameter.start, `${node.callee}'s ${spec.parameter} must be a positive number`);
  }
  c.needs.time = true;
}

function sampleCount(
  used: readonly string[],
  inputs: ExpressionInputs,
  length: number | undefined,
  needs: CompiledExpression['needs'],
  context: EvaluationContext,
): number {
  let n = length;
  for (const key of ['time', 'lapTime', 'lapDistance'] as const) {
    if (!needs[key]) continue;
    const values = context[key];
    if (!(values instanceof Float64Array)) throw new TypeError(`the context's ${key} is missing (a Float64Array is needed)`);
    if (n === undefined) n = values.length;
    else if (values.length !== n) throw new RangeError(`the context's ${key} has ${values.length} samples, expected ${n}`);
  }
  for (const name of used) {
    const values = inputs[name];
    if (!(values instanceof Float64Array)) throw new TypeError(`input ${name} is missing (a Float64Array is needed)`);
    if (n === undefined) n = values.length;
    else if (values.length !== n) throw new RangeError(`input ${name} has ${values.length} samples, expected ${n}`);
  }
  if (n === undefined) throw new TypeError('the expression reads no input: pass the length of the result');
  return n;
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
    for (const values of [context.time, context.lapTime, context.lapDistance]) if (values) borrowed.add(values);
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
        return this.inputs.get(node.name) ?? CONSTANTS[node.name];
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
        if (node.callee === 'lapTime' || node.callee === 'lapDistance') return this.context[node.callee] as Float64Array;
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
