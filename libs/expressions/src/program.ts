import type { ExpressionNode } from './ast';
import { BINARY_OPERATORS, CONSTANTS, FUNCTIONS, UNARY_OPERATORS } from './functions';
import { KERNELS_1, KERNELS_2, KERNELS_3, KERNELS_CONSTANT_FIRST, KERNELS_CONSTANT_SECOND, type Kernel1, type Kernel2, type Kernel3, type KernelK } from './kernels';
import { derivative, integral, lowpass, smooth, TIME_FUNCTIONS, type TimeFunctionName } from './time-functions';

/**
 * An expression runs block by block: each operator writes BLOCK samples into a small preallocated register, read by
 * the next operator while it is still in the CPU's cache, and the last one writes straight into the result. An
 * operator node costs one loop over a block, not a whole-length array; whole-length arrays are made only for the
 * result and for the time functions, which look at neighbouring samples (their argument is run whole first).
 */
export const BLOCK = 2048;

/**
 * An input given by what it can write rather than as an array: samples [from, from + count) into out[0, count), asked
 * for block by block, mostly in increasing order (a time function's argument is run from 0 again): stored codes
 * converted on the fly, a channel resampled onto the time base.
 */
export interface SampleSource {
  readonly length: number;
  read(from: number, count: number, out: Float64Array): void;
}

/** One input: its samples (read, never written), or a source of them. */
export type ExpressionInput = Float64Array | SampleSource;

type Operand =
  | { kind: 'constant'; value: number }
  /** An input, by its index in the compiled expression's inputs. */
  | { kind: 'input'; index: number }
  /** A whole-length series made before the blocks run: a time function's result or a lap input of the context. */
  | { kind: 'series'; index: number }
  | { kind: 'register'; index: number };

type ArrayOperand = Exclude<Operand, { kind: 'constant' }>;

type Step =
  | { arity: 1; kernel: Kernel1; a: ArrayOperand; out: number }
  | { arity: 2; kernel: Kernel2; a: ArrayOperand; b: ArrayOperand; out: number }
  | { arity: 'constant'; kernel: KernelK; a: ArrayOperand; k: number; out: number }
  | { arity: 3; kernel: Kernel3; a: ArrayOperand; b: ArrayOperand; c: ArrayOperand; out: number };

type Series = { kind: 'lap'; name: 'lapTime' | 'lapDistance' } | { kind: 'time'; callee: TimeFunctionName; parameter: number; argument: Program };

/** The steps of one expression (or of a time function's argument), its registers, and the series it needs first. */
interface Program {
  steps: Step[];
  registers: number;
  /** Registers holding one constant in every sample (an operand of a function that has no constant form). */
  constants: { index: number; value: number }[];
  series: Series[];
  result: Operand;
}

/** What a run reads: the inputs by index, the context's series. */
export interface RunEnvironment {
  inputs: readonly ExpressionInput[];
  time?: Float64Array;
  lapTime?: Float64Array;
  lapDistance?: Float64Array;
  /** Where the run's whole-length arrays come from (EvaluateOptions.allocate): its result and its time functions'. */
  allocate: (length: number) => Float64Array;
}

/**
 * Builds the program of `ast`; `inputIndex` names the inputs (any other name is a constant). `constantsWin`: a bare
 * constant's name is the constant even when an input has it (the math language, where that input is written quoted).
 */
export function programOf(ast: ExpressionNode, inputIndex: ReadonlyMap<string, number>, constantsWin = false): Program {
  return new Builder(inputIndex, constantsWin).program(ast);
}

/** Runs a program over n samples: the result, and whether it is an array of its own (not an input or a context series). */
export function runProgram(program: Program, n: number, env: RunEnvironment): { values: Float64Array; owned: boolean } {
  const series = program.series.map((s) => (s.kind === 'lap' ? { values: env[s.name] as Float64Array, owned: false } : timeSeries(s, n, env)));
  const result = program.result;
  switch (result.kind) {
    case 'constant':
      return { values: env.allocate(n).fill(result.value), owned: true };
    case 'series':
      return series[result.index];
    case 'input': {
      const input = env.inputs[result.index];
      if (input instanceof Float64Array) return { values: input, owned: false };
      const out = env.allocate(n);
      input.read(0, n, out);
      return { values: out, owned: true };
    }
    case 'register':
      return { values: runBlocks(program, n, env, series), owned: true };
  }
}

function timeSeries(s: Extract<Series, { kind: 'time' }>, n: number, env: RunEnvironment): { values: Float64Array; owned: true } {
  const t = env.time as Float64Array;
  const x = runProgram(s.argument, n, env);
  // The time functions may write over their argument (each reads a sample before writing it, smooth copies first).
  const out = x.owned ? x.values : env.allocate(n);
  switch (s.callee) {
    case 'derivative':
      return { values: derivative(x.values, t, out), owned: true };
    case 'integral':
      return { values: integral(x.values, t, out), owned: true };
    case 'smooth':
      return { values: smooth(x.values, t, s.parameter, out), owned: true };
    case 'lowpass':
      return { values: lowpass(x.values, t, s.parameter, out), owned: true };
  }
}

/** A step with its operands resolved for this run: `whole` arrays are read at the block's offset, registers at 0. */
interface Bound {
  step: Step;
  a: Float64Array;
  aWhole: boolean;
  b: Float64Array;
  bWhole: boolean;
  c: Float64Array;
  cWhole: boolean;
  out: Float64Array;
  outWhole: boolean;
}

function runBlocks(program: Program, n: number, env: RunEnvironment, series: readonly { values: Float64Array }[]): Float64Array {
  const result = env.allocate(n);
  const size = Math.min(BLOCK, n);
  const registers = Array.from({ length: program.registers }, () => new Float64Array(size));
  for (const { index, value } of program.constants) registers[index].fill(value);
  /** The sources this program reads, each with the register a block of it is read into. */
  const sources: { source: SampleSource; register: Float64Array }[] = [];
  const sourceRegisters = new Map<number, Float64Array>();
  const resolve = (operand: ArrayOperand): [Float64Array, boolean] => {
    if (operand.kind === 'register') return [registers[operand.index], false];
    if (operand.kind === 'series') return [series[operand.index].values, true];
    const input = env.inputs[operand.index];
    if (input instanceof Float64Array) return [input, true];
    let register = sourceRegisters.get(operand.index);
    if (!register) {
      register = new Float64Array(size);
      sourceRegisters.set(operand.index, register);
      sources.push({ source: input, register });
    }
    return [register, false];
  };
  const empty = new Float64Array(0);
  const last = program.steps.length - 1;
  const bound: Bound[] = program.steps.map((step, s) => {
    const [a, aWhole] = resolve(step.a);
    const [b, bWhole] = step.arity === 2 || step.arity === 3 ? resolve(step.b) : [empty, false];
    const [c, cWhole] = step.arity === 3 ? resolve(step.c) : [empty, false];
    return { step, a, aWhole, b, bWhole, c, cWhole, out: s === last ? result : registers[step.out], outWhole: s === last };
  });
  for (let from = 0; from < n; from += BLOCK) {
    const count = Math.min(BLOCK, n - from);
    for (const { source, register } of sources) source.read(from, count, register);
    for (const x of bound) {
      const o = x.outWhole ? from : 0;
      const ao = x.aWhole ? from : 0;
      const step = x.step;
      switch (step.arity) {
        case 1:
          step.kernel(count, x.out, o, x.a, ao);
          break;
        case 2:
          step.kernel(count, x.out, o, x.a, ao, x.b, x.bWhole ? from : 0);
          break;
        case 'constant':
          step.kernel(count, x.out, o, x.a, ao, step.k);
          break;
        case 3:
          step.kernel(count, x.out, o, x.a, ao, x.b, x.bWhole ? from : 0, x.c, x.cWhole ? from : 0);
          break;
      }
    }
  }
  return result;
}

/**
 * Turns the tree into steps in evaluation order (children first), folding constants with the same scalar functions
 * the kernels use. A register is freed when its value has been read and taken again by the next step, which may
 * write over its own operand.
 */
class Builder {
  private readonly steps: Step[] = [];
  private readonly free: number[] = [];
  private readonly constants: { index: number; value: number }[] = [];
  private readonly series: Series[] = [];
  private registers = 0;

  constructor(
    private readonly inputIndex: ReadonlyMap<string, number>,
    private readonly constantsWin: boolean,
  ) {}

  program(ast: ExpressionNode): Program {
    const result = this.operand(ast);
    if (result.kind === 'register' && this.steps[this.steps.length - 1]?.out !== result.index) throw new Error('the result is not the last step');
    return { steps: this.steps, registers: this.registers, constants: this.constants, series: this.series, result };
  }

  private operand(node: ExpressionNode): Operand {
    switch (node.kind) {
      case 'number':
        return { kind: 'constant', value: node.value };
      case 'name': {
        const index = this.constantsWin && !node.quoted && Object.hasOwn(CONSTANTS, node.name) ? undefined : this.inputIndex.get(node.name);
        return index !== undefined ? { kind: 'input', index } : { kind: 'constant', value: CONSTANTS[node.name] as number };
      }
      case 'unary': {
        const a = this.operand(node.argument);
        if (a.kind === 'constant') return { kind: 'constant', value: UNARY_OPERATORS[node.operator](a.value) };
        return this.step1(KERNELS_1[node.operator], a);
      }
      case 'binary':
        return this.binary(node.operator, this.operand(node.left), this.operand(node.right));
      case 'call':
        return this.call(node.callee, node.args);
    }
  }

  private call(callee: string, args: ExpressionNode[]): Operand {
    if (callee === 'lapTime' || callee === 'lapDistance') return this.addSeries({ kind: 'lap', name: callee });
    if (Object.hasOwn(TIME_FUNCTIONS, callee)) {
      const argument = new Builder(this.inputIndex, this.constantsWin).program(args[0]);
      const parameter = args[1]?.kind === 'number' ? args[1].value : NaN;
      return this.addSeries({ kind: 'time', callee: callee as TimeFunctionName, parameter, argument });
    }
    const spec = FUNCTIONS[callee];
    const values = args.map((a) => this.operand(a));
    switch (spec.arity) {
      case 1: {
        const [a] = values;
        return a.kind === 'constant' ? { kind: 'constant', value: spec.apply(a.value) } : this.step1(KERNELS_1[callee], a);
      }
      case 2:
      case 'one or more':
        // min and max of more than two: pairwise from the left, as min(min(a, b), c).
        return values.reduce((acc, v) => (acc.kind === 'constant' && v.kind === 'constant' ? { kind: 'constant', value: spec.apply(acc.value, v.value) } : this.step2(KERNELS_2[callee], acc, v)));
      case 3: {
        const [a, b, c] = values;
        if (a.kind === 'constant' && b.kind === 'constant' && c.kind === 'constant') return { kind: 'constant', value: spec.apply(a.value, b.value, c.value) };
        return this.step3(KERNELS_3[callee], a, b, c);
      }
    }
  }

  private binary(operator: keyof typeof BINARY_OPERATORS, a: Operand, b: Operand): Operand {
    if (a.kind === 'constant' && b.kind === 'constant') return { kind: 'constant', value: BINARY_OPERATORS[operator](a.value, b.value) };
    const second = KERNELS_CONSTANT_SECOND[operator];
    if (second && b.kind === 'constant') return this.stepConstant(second, a as ArrayOperand, b.value);
    const first = KERNELS_CONSTANT_FIRST[operator];
    if (first && a.kind === 'constant') return this.stepConstant(first, b as ArrayOperand, a.value);
    return this.step2(KERNELS_2[operator], a, b);
  }

  private addSeries(series: Series): Operand {
    this.series.push(series);
    return { kind: 'series', index: this.series.length - 1 };
  }

  /** An operand read as an array: a constant becomes a register filled with it once per run. */
  private array(operand: Operand): ArrayOperand {
    if (operand.kind !== 'constant') return operand;
    const index = this.registers++;
    this.constants.push({ index, value: operand.value });
    return { kind: 'register', index };
  }

  private release(...operands: ArrayOperand[]): void {
    for (const o of operands) {
      if (o.kind === 'register' && !this.constants.some((c) => c.index === o.index) && !this.free.includes(o.index)) this.free.push(o.index);
    }
  }

  private allocate(): number {
    return this.free.pop() ?? this.registers++;
  }

  private step1(kernel: Kernel1, operand: Operand): Operand {
    const a = this.array(operand);
    this.release(a);
    const out = this.allocate();
    this.steps.push({ arity: 1, kernel, a, out });
    return { kind: 'register', index: out };
  }

  private stepConstant(kernel: KernelK, a: ArrayOperand, k: number): Operand {
    this.release(a);
    const out = this.allocate();
    this.steps.push({ arity: 'constant', kernel, a, k, out });
    return { kind: 'register', index: out };
  }

  private step2(kernel: Kernel2, left: Operand, right: Operand): Operand {
    const a = this.array(left);
    const b = this.array(right);
    this.release(a, b);
    const out = this.allocate();
    this.steps.push({ arity: 2, kernel, a, b, out });
    return { kind: 'register', index: out };
  }

  private step3(kernel: Kernel3, first: Operand, second: Operand, third: Operand): Operand {
    const a = this.array(first);
    const b = this.array(second);
    const c = this.array(third);
    this.release(a, b, c);
    const out = this.allocate();
    this.steps.push({ arity: 3, kernel, a, b, c, out });
    return { kind: 'register', index: out };
  }
}
