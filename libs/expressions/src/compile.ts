import type { ExpressionNode } from './ast';
import { ExpressionError } from './expression-error';
import { BINARY_OPERATORS, CONSTANTS, FUNCTIONS, type Scalar1, type Scalar2, type Scalar3, UNARY_OPERATORS } from './functions';
import { parse } from './parse';

export interface CompileOptions {
  /** The names an expression may read (channels); they shadow the constants. Any other name is refused. */
  inputs: readonly string[];
}

/** Named inputs, one value per sample, all of one length. */
export type ExpressionInputs = Readonly<Record<string, Float64Array>>;

/** An expression checked against its inputs and functions, ready to run over whole arrays. */
export interface CompiledExpression {
  readonly ast: ExpressionNode;
  /** The inputs the expression reads, in order of first use. */
  readonly inputs: readonly string[];
  /**
   * Sample i of the result is the expression over sample i of each input; a new array that shares no memory with the
   * inputs. `length` is needed only when the expression reads no input.
   */
  evaluate(inputs: ExpressionInputs, length?: number): Float64Array;
}

/** Checks names and functions (ExpressionError at the first unknown one, or a call with the wrong argument count). */
export function compile(source: string | ExpressionNode, options: CompileOptions): CompiledExpression {
  const ast = typeof source === 'string' ? parse(source) : source;
  const allowed = new Set(options.inputs);
  const used: string[] = [];
  check(ast, allowed, used);
  return {
    ast,
    inputs: used,
    evaluate(inputs, length) {
      const n = sampleCount(used, inputs, length);
      const run = new Run(n, new Map(used.map((name) => [name, inputs[name]])));
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

function check(node: ExpressionNode, allowed: ReadonlySet<string>, used: string[]): void {
  switch (node.kind) {
    case 'number':
      return;
    case 'name':
      if (allowed.has(node.name)) {
        if (!used.includes(node.name)) used.push(node.name);
      } else if (!Object.hasOwn(CONSTANTS, node.name)) {
        throw new ExpressionError(node.start, `unknown name ${node.name}`);
      }
      return;
    case 'unary':
      return check(node.argument, allowed, used);
    case 'binary':
      check(node.left, allowed, used);
      return check(node.right, allowed, used);
    case 'call': {
      const spec = Object.hasOwn(FUNCTIONS, node.callee) ? FUNCTIONS[node.callee] : undefined;
      if (!spec) throw new ExpressionError(node.start, `unknown function ${node.callee}`);
      const count = node.args.length;
      if (spec.arity === 'one or more' ? count < 1 : count !== spec.arity) {
        const wanted = spec.arity === 'one or more' ? 'one or more arguments' : `${spec.arity} argument${spec.arity === 1 ? '' : 's'}`;
        throw new ExpressionError(node.start, `${node.callee} takes ${wanted}, not ${count}`);
      }
      for (const arg of node.args) check(arg, allowed, used);
      return;
    }
  }
}

function sampleCount(used: readonly string[], inputs: ExpressionInputs, length: number | undefined): number {
  let n = length;
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
  ) {
    this.borrowed = new Set(inputs.values());
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
      case 'unary':
        return this.map1(UNARY_OPERATORS[node.operator], this.value(node.argument));
      case 'binary':
        return this.map2(BINARY_OPERATORS[node.operator], this.value(node.left), this.value(node.right));
      case 'call': {
        const spec = FUNCTIONS[node.callee];
        const args = node.args.map((a) => this.value(a));
        if (spec.arity === 1) return this.map1(spec.apply, args[0]);
        if (spec.arity === 2) return this.map2(spec.apply, args[0], args[1]);
        if (spec.arity === 3) return this.map3(spec.apply, args[0], args[1], args[2]);
        return args.reduce((acc, v) => this.map2(spec.apply, acc, v));
      }
    }
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
