import type { ExpressionNode } from './ast';
import { BINARY_OPERATORS, CONSTANTS, FUNCTIONS, UNARY_OPERATORS } from './functions';
import { KERNELS_1, KERNELS_2, KERNELS_3, KERNELS_CONSTANT_FIRST, KERNELS_CONSTANT_SECOND, KERNELS_TABLE, type Kernel1, type Kernel2, type Kernel3, type KernelK, type KernelTable } from './kernels';
import { PARAM_FUNCTION, paramNameOf } from './param-function';
import { TABLE_FUNCTIONS, tableOf, type TableFunctionName } from './table-functions';
import { delay, derivative, integral, LAP_FUNCTIONS, lowpass, smooth, TIME_FUNCTIONS, type LapFunctionName, type TimeFunctionName } from './time-functions';

/**
 * An expression runs block by block: each operator writes BLOCK samples into a small preallocated register, read by
 * the next operator while it is still in the CPU's cache, and the last one writes straight into the result. An
 * operator node costs one loop over a block, not a whole-length array; whole-length arrays are made only for the
 * result, for the time functions, which look at neighbouring samples (their argument is run whole first), and for a
 * value kept from one segment of the steps to a later one (below).
 *
 * A time function's series is made just before the steps that read it and given back (RunEnvironment.release) once
 * they have run: the steps run in segments, each over every block, a new segment starting at a step that reads a time
 * function when the current segment has already made one. A value one segment makes and a later one reads is kept
 * whole (a spill) until that one has run. So `min(integral(a), integral(a), ...)` holds one series, its running
 * minimum and the result at a time, not one series per term.
 */
export const BLOCK = 2048;

/**
 * An input given by what it can write rather than as an array: samples [from, from + count) into out[0, count), asked
 * for block by block, mostly in increasing order (a time function's argument, or a later segment, reads from 0 again):
 * stored codes converted on the fly, a channel resampled onto the time base.
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
  /** A whole-length series: a time function's result (made before the segment that reads it) or a lap input of the context. */
  | { kind: 'series'; index: number }
  | { kind: 'register'; index: number }
  /** A value kept whole from the segment that writes it to the later one that reads it (by its slot). */
  | { kind: 'spill'; index: number };

type ArrayOperand = Exclude<Operand, { kind: 'constant' }>;

/** `spill`: the step writes its value whole into that slot instead of its register `out` (a later segment reads it). */
type Step = (
  | { arity: 1; kernel: Kernel1; a: ArrayOperand; out: number }
  | { arity: 2; kernel: Kernel2; a: ArrayOperand; b: ArrayOperand; out: number }
  | { arity: 'constant'; kernel: KernelK; a: ArrayOperand; k: number; out: number }
  | { arity: 3; kernel: Kernel3; a: ArrayOperand; b: ArrayOperand; c: ArrayOperand; out: number }
  | { arity: 'table'; kernel: KernelTable; a: ArrayOperand; xs: Float64Array; ys: Float64Array; out: number }
) & { spill?: number };

type Series = { kind: 'lap'; name: LapFunctionName } | { kind: 'time'; callee: TimeFunctionName; parameter: number; argument: Program };

/** Steps [from, to) run together block by block: the time series they read are made before, given back after. */
interface Segment {
  from: number;
  to: number;
  /** The time series (by index) its steps read: made before it runs, given back after. */
  series: number[];
  /** The spill slots its steps write: allocated before it runs. */
  spillsWritten: number[];
  /** The spill slots read last by its steps: given back after it runs. */
  spillsRead: number[];
}

/** The steps of one expression (or of a time function's argument), its registers, and the series it needs first. */
interface Program {
  steps: Step[];
  registers: number;
  /** Registers holding one constant in every sample (an operand of a function that has no constant form). */
  constants: { index: number; value: number }[];
  series: Series[];
  result: Operand;
  segments: Segment[];
  /** Spill slots. */
  spills: number;
  /**
   * The whole-length arrays a run allocates at most, until its result is an array of its own (EvaluateOptions): the
   * result, each spill, each time function's argument and series (smooth's and delay's copy of their argument too), through every
   * time function's argument.
   */
  arrays: number;
}

/** What a run reads: the inputs by index, the context's series. */
export interface RunEnvironment {
  inputs: readonly ExpressionInput[];
  time?: Float64Array;
  lapTime?: Float64Array;
  lapDistance?: Float64Array;
  lapNumber?: Float64Array;
  /**
   * Where the run's whole-length arrays come from (EvaluateOptions.allocate): its result, its time functions' arguments
   * and series, its spills.
   */
  allocate: (length: number) => Float64Array;
  /** Takes back an array `allocate` gave once the run no longer reads it (EvaluateOptions.release). */
  release: (array: Float64Array) => void;
}

/**
 * Builds the program of `ast`; `inputIndex` names the inputs (any other name is a constant). `constantsWin`: a bare
 * constant's name is the constant even when an input has it (the math language, where that input is written quoted).
 * `params`: the value of each `param("Name")`, folded as a number (absent: NaN, for a compile that only checks).
 */
export function programOf(ast: ExpressionNode, inputIndex: ReadonlyMap<string, number>, constantsWin = false, params?: ReadonlyMap<string, number>): Program {
  return new Builder(inputIndex, constantsWin, params).program(ast);
}

/**
 * Runs a program over n samples: the result, and whether it is an array of its own (not an input or a context series).
 * Every other array it allocates is given back (env.release) before it returns.
 */
export function runProgram(program: Program, n: number, env: RunEnvironment): { values: Float64Array; owned: boolean } {
  const result = program.result;
  switch (result.kind) {
    case 'constant':
      return { values: env.allocate(n).fill(result.value), owned: true };
    case 'series': {
      const s = program.series[result.index] as Series;
      return s.kind === 'lap' ? { values: env[s.name] as Float64Array, owned: false } : { values: timeSeries(s, n, env), owned: true };
    }
    case 'input': {
      const input = env.inputs[result.index];
      if (input instanceof Float64Array) return { values: input, owned: false };
      const out = env.allocate(n);
      input.read(0, n, out);
      return { values: out, owned: true };
    }
    case 'register':
    case 'spill':
      return { values: runBlocks(program, n, env), owned: true };
  }
}

/** A time function's series: an array of its own (its argument's, written over, when that one is). */
function timeSeries(s: Extract<Series, { kind: 'time' }>, n: number, env: RunEnvironment): Float64Array {
  const t = env.time as Float64Array;
  const x = runProgram(s.argument, n, env);
  if (s.callee === 'smooth' || s.callee === 'delay') {
    // smooth reads ahead of and behind the sample it writes, delay behind it: into an array of their own, the argument
    // given back after.
    const out = (s.callee === 'smooth' ? smooth : delay)(x.values, t, s.parameter, env.allocate(n));
    if (x.owned) env.release(x.values);
    return out;
  }
  // The other time functions may write over their argument (each reads a sample before writing it).
  const out = x.owned ? x.values : env.allocate(n);
  switch (s.callee) {
    case 'derivative':
      return derivative(x.values, t, out);
    case 'integral':
      return integral(x.values, t, out);
    case 'lowpass':
      return lowpass(x.values, t, s.parameter, out);
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

function runBlocks(program: Program, n: number, env: RunEnvironment): Float64Array {
  const size = Math.min(BLOCK, n);
  const registers = Array.from({ length: program.registers }, () => new Float64Array(size));
  for (const { index, value } of program.constants) registers[index].fill(value);
  /** The register a block of each source input is read into (by input index), shared by the segments. */
  const sourceRegisters = new Map<number, Float64Array>();
  /** The time series and spills held now (made for a segment, given back after the last that reads them). */
  const series: (Float64Array | undefined)[] = [];
  const spills: (Float64Array | undefined)[] = [];
  const empty = new Float64Array(0);
  const last = program.steps.length - 1;
  let result: Float64Array | undefined;
  for (const segment of program.segments) {
    for (const i of segment.series) series[i] = timeSeries(program.series[i] as Extract<Series, { kind: 'time' }>, n, env);
    for (const slot of segment.spillsWritten) spills[slot] = env.allocate(n);
    if (segment.to === last + 1) result = env.allocate(n);
    /** The sources this segment reads, each with the register a block of it is read into. */
    const sources: { source: SampleSource; register: Float64Array }[] = [];
    const resolve = (operand: ArrayOperand): [Float64Array, boolean] => {
      switch (operand.kind) {
        case 'register':
          return [registers[operand.index] as Float64Array, false];
        case 'spill':
          return [spills[operand.index] as Float64Array, true];
        case 'series': {
          const s = program.series[operand.index] as Series;
          return [s.kind === 'lap' ? (env[s.name] as Float64Array) : (series[operand.index] as Float64Array), true];
        }
        case 'input': {
          const input = env.inputs[operand.index];
          if (input instanceof Float64Array) return [input, true];
          let register = sourceRegisters.get(operand.index);
          if (!register) {
            register = new Float64Array(size);
            sourceRegisters.set(operand.index, register);
          }
          if (!sources.some((s) => s.register === register)) sources.push({ source: input, register });
          return [register, false];
        }
      }
    };
    const bound: Bound[] = [];
    for (let s = segment.from; s < segment.to; s++) {
      const step = program.steps[s] as Step;
      const [a, aWhole] = resolve(step.a);
      const [b, bWhole] = step.arity === 2 || step.arity === 3 ? resolve(step.b) : [empty, false];
      const [c, cWhole] = step.arity === 3 ? resolve(step.c) : [empty, false];
      const [out, outWhole]: [Float64Array, boolean] =
        s === last ? [result as Float64Array, true] : step.spill !== undefined ? [spills[step.spill] as Float64Array, true] : [registers[step.out] as Float64Array, false];
      bound.push({ step, a, aWhole, b, bWhole, c, cWhole, out, outWhole });
    }
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
          case 'table':
            step.kernel(count, x.out, o, x.a, ao, step.xs, step.ys);
            break;
        }
      }
    }
    for (const i of segment.series) {
      env.release(series[i] as Float64Array);
      series[i] = undefined;
    }
    for (const slot of segment.spillsRead) {
      env.release(spills[slot] as Float64Array);
      spills[slot] = undefined;
    }
  }
  return result as Float64Array;
}

/**
 * The segments of a program's steps (Segment), and the values kept whole between them: a new segment starts at a step
 * reading a time series when the current one already makes one. Each step's value is read by one step (its parent in
 * the tree); one read in a later segment than its own is written into a spill slot, read from it, and the steps
 * reading it are rewritten to do so.
 */
function planOf(steps: Step[], series: readonly Series[]): { segments: Segment[]; spills: number } {
  const segments: Segment[] = [];
  const segmentOf: number[] = [];
  let current: Segment | undefined;
  let making = false;
  const operandsOf = (step: Step): ('a' | 'b' | 'c')[] => (step.arity === 3 ? ['a', 'b', 'c'] : step.arity === 2 ? ['a', 'b'] : ['a']);
  steps.forEach((step, s) => {
    const made = operandsOf(step)
      .map((key) => step[key as 'a'])
      .filter((o) => o.kind === 'series' && (series[o.index] as Series).kind === 'time')
      .map((o) => o.index);
    if (!current || (made.length > 0 && making)) {
      current = { from: s, to: s, series: [], spillsWritten: [], spillsRead: [] };
      segments.push(current);
      making = false;
    }
    current.series.push(...made);
    making ||= made.length > 0;
    current.to = s + 1;
    segmentOf[s] = segments.length - 1;
  });
  // Which step wrote the value each register operand reads (constants' registers are never written by a step).
  const writer = new Map<number, number>();
  const readers: { s: number; key: 'a' | 'b' | 'c'; from: number }[] = [];
  steps.forEach((step, s) => {
    for (const key of operandsOf(step)) {
      const o = step[key as 'a'];
      const w = o.kind === 'register' ? writer.get(o.index) : undefined;
      if (w !== undefined && segmentOf[w] !== segmentOf[s]) readers.push({ s, key, from: w });
    }
    writer.set(step.out, s);
  });
  let spills = 0;
  /** The slot each step reads (the last to read it): it may write its own value over it. */
  const readSlot = new Map<number, number>();
  for (const { s, key, from } of readers) {
    const w = steps[from] as Step;
    if (w.spill === undefined) {
      const inherited = readSlot.get(from);
      const segment = segments[segmentOf[from] as number] as Segment;
      if (inherited !== undefined) {
        // A kernel may write over its operand (each sample read before written): the running value of a chain such
        // as min(integral(a), integral(b), ...) stays in one slot, given back after its last reader instead.
        w.spill = inherited;
        segment.spillsRead.splice(segment.spillsRead.indexOf(inherited), 1);
      } else {
        w.spill = spills++;
        segment.spillsWritten.push(w.spill);
      }
    }
    (steps[s] as Step & Record<'a' | 'b' | 'c', ArrayOperand>)[key] = { kind: 'spill', index: w.spill };
    // One reader each: the slot is given back after the reader's segment (unless its value is written over it).
    (segments[segmentOf[s] as number] as Segment).spillsRead.push(w.spill);
    readSlot.set(s, w.spill);
  }
  return { segments, spills };
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
    private readonly params: ReadonlyMap<string, number> | undefined,
  ) {}

  program(ast: ExpressionNode): Program {
    const result = this.operand(ast);
    if (result.kind === 'register' && this.steps[this.steps.length - 1]?.out !== result.index) throw new Error('the result is not the last step');
    const { segments, spills } = planOf(this.steps, this.series);
    // Each time function: its argument's arrays (which end in an array of its own the function writes over, or into a
    // new one when the argument is an input or a lap input), and smooth's and delay's array of their own; then the spills, and the
    // result unless it is a time function's series.
    const made = this.series.reduce((sum, s) => sum + (s.kind === 'time' ? s.argument.arrays + (s.callee === 'smooth' || s.callee === 'delay' ? 1 : 0) : 0), 0);
    const resultArray = result.kind === 'series' && this.series[result.index]?.kind === 'time' ? 0 : 1;
    return { steps: this.steps, registers: this.registers, constants: this.constants, series: this.series, result, segments, spills, arrays: made + spills + resultArray };
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
        return this.call(node);
    }
  }

  private call(node: Extract<ExpressionNode, { kind: 'call' }>): Operand {
    const { callee, args } = node;
    if ((LAP_FUNCTIONS as readonly string[]).includes(callee)) return this.addSeries({ kind: 'lap', name: callee as LapFunctionName });
    // One number over the whole series: folded with what it meets, as a number written as digits is.
    if (callee === PARAM_FUNCTION) return { kind: 'constant', value: this.params?.get(paramNameOf(node)) ?? NaN };
    if (Object.hasOwn(TABLE_FUNCTIONS, callee)) {
      // The breakpoints were checked by compile; x may fold with them when it is a constant.
      const { xs, ys } = tableOf(node);
      const name = callee as TableFunctionName;
      const x = this.operand(args[0] as ExpressionNode);
      return x.kind === 'constant' ? { kind: 'constant', value: TABLE_FUNCTIONS[name](x.value, xs, ys) } : this.stepTable(KERNELS_TABLE[name], x, xs, ys);
    }
    if (Object.hasOwn(TIME_FUNCTIONS, callee)) {
      const argument = new Builder(this.inputIndex, this.constantsWin, this.params).program(args[0]);
      const parameter = args[1]?.kind === 'number' ? args[1].value : NaN;
      return this.addSeries({ kind: 'time', callee: callee as TimeFunctionName, parameter, argument });
    }
    const spec = FUNCTIONS[callee];
    switch (spec.arity) {
      case 1: {
        const a = this.operand(args[0] as ExpressionNode);
        return a.kind === 'constant' ? { kind: 'constant', value: spec.apply(a.value) } : this.step1(KERNELS_1[callee], a);
      }
      case 2:
      case 'one or more': {
        // min and max of more than two: pairwise from the left, as min(min(a, b), c), each argument folded in as soon
        // as it is made (so the arguments' time series are not all held at once).
        let acc = this.operand(args[0] as ExpressionNode);
        for (const arg of args.slice(1)) {
          const v = this.operand(arg);
          acc = acc.kind === 'constant' && v.kind === 'constant' ? { kind: 'constant', value: spec.apply(acc.value, v.value) } : this.step2(KERNELS_2[callee], acc, v);
        }
        return acc;
      }
      case 3: {
        const [a, b, c] = args.map((arg) => this.operand(arg));
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

  private stepTable(kernel: KernelTable, a: ArrayOperand, xs: Float64Array, ys: Float64Array): Operand {
    this.release(a);
    const out = this.allocate();
    this.steps.push({ arity: 'table', kernel, a, xs, ys, out });
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
