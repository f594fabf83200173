import type { ExpressionNode } from './ast';
import { ExpressionError } from './expression-error';
import { CONSTANTS, FUNCTIONS } from './functions';
import { PARAM_FUNCTION, paramNameOf } from './param-function';
import { parse } from './parse';
import { type ExpressionInput, programOf, runProgram } from './program';
import { TABLE_FUNCTIONS, tableOf } from './table-functions';
import { LAP_FUNCTIONS, type LapFunctionName, TIME_FUNCTIONS, type TimeFunctionName } from './time-functions';

export interface CompileOptions {
  /**
   * The names an expression may read (channels); they shadow the constants `pi` and `e`, except in the math language,
   * where a bare `pi` or `e` is always the constant and a quoted one (`"pi"`) a name. Any other name is refused.
   * `'any'`: every name but a bare constant is an input (to check an expression before the channels it reads are known). A set is taken
   * as it is (a caller compiling many expressions against a growing set of names does not copy it for each).
   */
  inputs: readonly string[] | ReadonlySet<string> | 'any';
  /**
   * The math-channel language: quoted names ("Engine Speed"), the lookup tables (interp, lookup), the time functions
   * (derivative, integral, smooth, delay, lowpass) and the lap inputs (lapTime(), lapDistance(), lapNumber()), which
   * need an EvaluationContext. Off: MDF conversions.
   */
  math?: boolean;
  /**
   * The math language's `param("Name")`: the value of each parameter the expression names, folded like a number written
   * as digits. Every name it reads must be here (a TypeError otherwise). Absent: a compile that only checks the
   * expression (each `param` is then a gap, and evaluate refuses to run it).
   */
  params?: ReadonlyMap<string, number>;
}

/** What the time-aware functions read: the time base (seconds, increasing) and the lap-relative series, each of the inputs' length. */
export interface EvaluationContext {
  time?: Float64Array;
  /** Seconds since the start of the sample's lap. */
  lapTime?: Float64Array;
  /** Distance (metres) since the start of the sample's lap. */
  lapDistance?: Float64Array;
  /** The index of the sample's lap (0 the first, as the lap reads number them). */
  lapNumber?: Float64Array;
}

export interface EvaluateOptions {
  /**
   * Where the whole-length arrays of a run come from (the result, and a time function's): an array of exactly `length`
   * samples that nothing else uses until the caller says so, its contents any (every sample is written). Default: a new
   * array each. A caller that evaluates often (the pool worker) lends arrays it reuses: a new array is memory never
   * touched, and its first touch can cost more than the evaluation.
   */
  allocate?: (length: number) => Float64Array;
  /**
   * Takes back an array `allocate` gave, once the run no longer reads it (a time function's series once the steps
   * reading it have run, a value kept between them): the caller may lend it again, to this run too. Every array but
   * the result is given back before evaluate returns. Default: nothing (the array is left to the garbage collector).
   */
  release?: (array: Float64Array) => void;
}

/** Named inputs, one value per sample, all of one length: arrays, or sources that write their samples block by block. */
export type ExpressionInputs = Readonly<Record<string, ExpressionInput>>;

/** An expression checked against its inputs and functions, ready to run over whole arrays. */
export interface CompiledExpression {
  readonly ast: ExpressionNode;
  /** The inputs the expression reads, in order of first use. */
  readonly inputs: readonly string[];
  /** The parameters it reads with `param("Name")` (the math language), in order of first use. */
  readonly params: readonly string[];
  /** What evaluate needs in its context: the time base (time functions), lapTime, lapDistance, lapNumber. */
  readonly needs: { readonly time: boolean; readonly lapTime: boolean; readonly lapDistance: boolean; readonly lapNumber: boolean };
  /**
   * The most arrays of the result's length one evaluate allocates (EvaluateOptions.allocate), the result included:
   * each time function's argument and series, each value kept between the steps that make and read it. What a caller
   * counts its memory and work by before it evaluates (the datafile-service's READ_SAMPLE_BUDGET); fewer are held at
   * once, as those no longer read are given back (EvaluateOptions.release).
   */
  readonly arrays: number;
  /**
   * Sample i of the result is the expression over sample i of each input; a new array that shares no memory with the
   * inputs. `length` is needed only when the expression reads no input (and no context series).
   */
  evaluate(inputs: ExpressionInputs, length?: number, context?: EvaluationContext, options?: EvaluateOptions): Float64Array;
}

/** Checks names and functions (ExpressionError at the first unknown one, or a call with the wrong argument count). */
export function compile(source: string | ExpressionNode, options: CompileOptions): CompiledExpression {
  const math = options.math === true;
  const ast = typeof source === 'string' ? parse(source, { quotedNames: math }) : source;
  const allowed = options.inputs === 'any' ? 'any' : options.inputs instanceof Set ? options.inputs : new Set(options.inputs as readonly string[]);
  const used: string[] = [];
  const params: string[] = [];
  const needs = { time: false, lapTime: false, lapDistance: false, lapNumber: false };
  check(ast, { allowed, math, needs, params }, used);
  const values = options.params;
  const unvalued = values ? params.find((name) => !values.has(name)) : undefined;
  if (unvalued !== undefined) throw new TypeError(`param("${unvalued}") has no value: options.params must hold every parameter the expression reads`);
  const program = programOf(ast, new Map(used.map((name, index) => [name, index])), math, values);
  return {
    ast,
    inputs: used,
    params,
    needs,
    arrays: program.arrays,
    evaluate(inputs, length, context = {}, options = {}) {
      if (!values && params.length) throw new TypeError(`the expression reads param("${params[0]}"): compile it with options.params to evaluate it`);
      const n = sampleCount(used, inputs, length, needs, context);
      const allocate = options.allocate ?? newArray;
      const result = runProgram(program, n, { ...context, inputs: used.map((name) => inputs[name]), allocate, release: options.release ?? drop });
      if (result.owned) return result.values;
      const copy = allocate(n);
      copy.set(result.values);
      return copy;
    },
  };
}

const newArray = (length: number): Float64Array => new Float64Array(length);
// Nothing to take back: the garbage collector frees what a run no longer reads.
const drop = (): void => undefined;

/** parse, compile with the inputs' names, evaluate: for one-off use. */
export function evaluate(text: string, inputs: ExpressionInputs, length?: number): Float64Array {
  return compile(text, { inputs: Object.keys(inputs) }).evaluate(inputs, length);
}

interface Checking {
  allowed: ReadonlySet<string> | 'any';
  math: boolean;
  needs: { time: boolean; lapTime: boolean; lapDistance: boolean; lapNumber: boolean };
  /** The parameters `param` names, in order of first use. */
  params: string[];
}

function check(node: ExpressionNode, c: Checking, used: string[]): void {
  const { allowed } = c;
  switch (node.kind) {
    case 'number':
      return;
    case 'name': {
      const constant = isConstant(node);
      // In the math language a bare constant is never an input (so a definition reads the same alone or beside others).
      const input = constant && c.math ? false : allowed === 'any' ? !constant : allowed.has(node.name);
      if (input) {
        if (!used.includes(node.name)) used.push(node.name);
      } else if (!constant) {
        throw new ExpressionError(node.start, `unknown name ${node.name}`);
      }
      return;
    }
    case 'unary':
      return check(node.argument, c, used);
    case 'binary':
      check(node.left, c, used);
      return check(node.right, c, used);
    case 'call': {
      if (c.math && Object.hasOwn(TIME_FUNCTIONS, node.callee)) return checkTimeCall(node, c, used);
      if (c.math && node.callee === PARAM_FUNCTION) {
        const name = paramNameOf(node);
        if (!c.params.includes(name)) c.params.push(name);
        return;
      }
      if (c.math && (LAP_FUNCTIONS as readonly string[]).includes(node.callee)) {
        if (node.args.length !== 0) throw new ExpressionError(node.start, `${node.callee} takes no arguments, not ${node.args.length}`);
        c.needs[node.callee as LapFunctionName] = true;
        return;
      }
      if (c.math && Object.hasOwn(TABLE_FUNCTIONS, node.callee)) {
        tableOf(node);
        return check(node.args[0] as ExpressionNode, c, used);
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

/** derivative(x), integral(x), smooth(x, seconds), lowpass(x, hz), delay(x, seconds): the second argument a positive number, written as one. */
function checkTimeCall(node: Extract<ExpressionNode, { kind: 'call' }>, c: Checking, used: string[]): void {
  const spec = TIME_FUNCTIONS[node.callee as TimeFunctionName];
  if (node.args.length !== spec.arity) {
    const wanted = spec.arity === 1 ? '1 argument' : `2 arguments (x, ${spec.parameter})`;
    throw new ExpressionError(node.start, `${node.callee} takes ${wanted}, not ${node.args.length}`);
  }
  check(node.args[0], c, used);
  const parameter = node.args[1];
  if (parameter && !(parameter.kind === 'number' && parameter.value > 0 && Number.isFinite(parameter.value))) {
    throw new ExpressionError(parameter.start, `${node.callee}'s ${spec.parameter} ${parameterFault(node.callee, parameter)}`);
  }
  c.needs.time = true;
}

/** Why a time function's second argument is refused: zero or negative, or not written as digits. */
function parameterFault(callee: string, parameter: ExpressionNode): string {
  const value = parameter.kind === 'number' ? parameter.value : parameter.kind === 'unary' && parameter.operator === '-' && parameter.argument.kind === 'number' ? -parameter.argument.value : undefined;
  // A name (a channel, a constant such as pi) or an expression is not taken: the window or cut-off is fixed per channel.
  if (value === undefined) return 'must be a positive number written as digits (not a name or an expression)';
  // delay reads the past only, as a sensor's lag does: a value at a time never waits on the samples after it.
  if (callee === 'delay' && value < 0) {
    return `must be positive, not ${value}: delay gives x as it was that long before, never ahead (to line x up with a channel that lags it, delay that channel by ${-value} s instead)`;
  }
  return `must be a positive number, not ${value}`;
}

function sampleCount(
  used: readonly string[],
  inputs: ExpressionInputs,
  length: number | undefined,
  needs: CompiledExpression['needs'],
  context: EvaluationContext,
): number {
  let n = length;
  for (const key of ['time', 'lapTime', 'lapDistance', 'lapNumber'] as const) {
    if (!needs[key]) continue;
    const values = context[key];
    if (!(values instanceof Float64Array)) throw new TypeError(`the context's ${key} is missing (a Float64Array is needed)`);
    if (n === undefined) n = values.length;
    else if (values.length !== n) throw new RangeError(`the context's ${key} has ${values.length} samples, expected ${n}`);
  }
  for (const name of used) {
    const values = inputs[name];
    if (!(values instanceof Float64Array) && !isSource(values)) throw new TypeError(`input ${name} is missing (a Float64Array or a SampleSource is needed)`);
    if (n === undefined) n = values.length;
    else if (values.length !== n) throw new RangeError(`input ${name} has ${values.length} samples, expected ${n}`);
  }
  if (n === undefined) throw new TypeError('the expression reads no input: pass the length of the result');
  return n;
}

function isSource(value: unknown): value is { length: number; read: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { read?: unknown }).read === 'function' && Number.isInteger((value as { length?: unknown }).length);
}

/** A bare `pi` or `e` (a quoted "pi" is a name). */
function isConstant(node: Extract<ExpressionNode, { kind: 'name' }>): boolean {
  return !node.quoted && Object.hasOwn(CONSTANTS, node.name);
}
