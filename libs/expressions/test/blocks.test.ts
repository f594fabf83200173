import { seededRandom as random } from '@pitwall/random';
import { BLOCK, compile, type EvaluationContext, type ExpressionInputs, FUNCTIONS, type SampleSource } from '../src';
import { referenceEvaluate } from './reference-evaluator';

/**
 * The block evaluator against the reference (the whole-array evaluator it replaced, kept in reference-evaluator.ts):
 * random expressions over every operator and function, random inputs with gaps, lengths around the block size, inputs
 * given as arrays and as sources; the results must be the same bits.
 */
const NAMES = ['a', 'Ground Speed', 'c', 'pi'];
const OPERATORS = ['+', '-', '*', '/', '^', '<', '<=', '>', '>=', '==', '!=', '&&', '||'];
const FUNCTION_NAMES = Object.keys(FUNCTIONS);
/** Breakpoints for interp and lookup: two pairs, signs, uneven steps, values the random series hit exactly (0, 1, -1). */
const TABLES = ['0, 0, 1, 1', '-1, 5, 0, -0, 1, 2.5', '-100, -3, -0.5, 7, 0, 0.25, 1e-3, 1e300, 4, -1e-300', '-1e6, 1e6, 1e6, -1e6'];

function expressionOf(next: () => number, depth: number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  if (depth <= 0 || next() < 0.2) {
    const leaf = next();
    if (leaf < 0.55) return `"${pick(NAMES)}"`;
    if (leaf < 0.8) return pick(['0', '1', '2.5', '3e-3', '100', '-0.5', '0.5']);
    if (leaf < 0.9) return pick(['pi', 'e']);
    return pick(['lapTime()', 'lapDistance()', 'lapNumber()']);
  }
  const sub = () => expressionOf(next, depth - 1);
  const kind = next();
  if (kind < 0.1) return `${pick(['-', '+', '!'])}(${sub()})`;
  if (kind < 0.45) return `(${sub()}) ${pick(OPERATORS)} (${sub()})`;
  if (kind < 0.55) {
    const time = pick(['derivative', 'integral', 'smooth', 'lowpass', 'delay']);
    if (time === 'smooth') return `smooth(${sub()}, ${pick(['0.01', '0.5', '3'])})`;
    if (time === 'delay') return `delay(${sub()}, ${pick(['0.01', '0.5', '3'])})`;
    if (time === 'lowpass') return `lowpass(${sub()}, ${pick(['0.5', '5', '50'])})`;
    return `${time}(${sub()})`;
  }
  if (kind < 0.62) return `${pick(['interp', 'lookup'])}(${sub()}, ${pick(TABLES)})`;
  const name = pick(FUNCTION_NAMES);
  const spec = FUNCTIONS[name];
  const count = spec.arity === 'one or more' ? 1 + Math.floor(next() * 4) : spec.arity;
  return `${name}(${Array.from({ length: count }, sub).join(', ')})`;
}

/** Values with gaps (NaN), zeros of both signs, infinities, small and large numbers. */
function seriesOf(next: () => number, n: number): Float64Array {
  const out = new Float64Array(n);
  const special = [NaN, 0, -0, 1, -1, Infinity, -Infinity, 0.5, -2.5, 1e-300, 1e300];
  for (let i = 0; i < n; i++) {
    const r = next();
    out[i] = r < 0.05 ? NaN : r < 0.1 ? special[Math.floor(next() * special.length)] : (next() - 0.5) * 10 ** Math.floor(next() * 6 - 2);
  }
  // A run of gaps now and then, as a logger drop-out leaves.
  if (n > 10 && next() < 0.5) out.fill(NaN, Math.floor(n / 3), Math.floor(n / 3) + 7);
  return out;
}

/** Sample times: a rate, sometimes uneven steps, sometimes a gap in time (NaN). */
function timesOf(next: () => number, n: number): Float64Array {
  const rate = [1, 10, 50, 100, 1000][Math.floor(next() * 5)];
  const uneven = next() < 0.3;
  const t = new Float64Array(n);
  let now = next() * 100;
  for (let i = 0; i < n; i++) {
    t[i] = now;
    now += uneven ? (0.5 + next()) / rate : 1 / rate;
  }
  if (n > 20 && next() < 0.2) t[Math.floor(n / 2)] = NaN;
  return t;
}

function sourceOf(values: Float64Array): SampleSource {
  return { length: values.length, read: (from, count, out) => out.set(values.subarray(from, from + count)) };
}

/**
 * The same number in every sample, -0 told from 0 (Object.is). A NaN is a gap whatever its bits: JavaScript leaves the
 * sign and payload of a NaN to the engine (the same code gives 0x7ff8… or 0xfff8… by JIT tier), and neither JSON
 * (null) nor the binary body (its gap mask) shows them.
 */
function expectSameValues(actual: Float64Array, expected: Float64Array, what: string): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!Object.is(actual[i], expected[i])) throw new Error(`${what}: sample ${i} is ${actual[i]}, the reference ${expected[i]}`);
  }
}

function sameArrays(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

/**
 * Arrays lent as a pool worker lends them: one given back is written over (with a number no result may hold) and lent
 * again first, so a run that still read it would give other numbers. Counts what it lends and the most lent at once.
 */
function lender() {
  const free: Float64Array[] = [];
  const lent = new Set<Float64Array>();
  const counts = { made: 0, most: 0 };
  return {
    lent,
    counts,
    allocate: (length: number): Float64Array => {
      const index = free.findIndex((a) => a.length === length);
      const array = index >= 0 ? free.splice(index, 1)[0] : new Float64Array(length);
      array.fill(-123456.75);
      lent.add(array);
      counts.made++;
      counts.most = Math.max(counts.most, lent.size);
      return array;
    },
    release: (array: Float64Array): void => {
      if (!lent.delete(array)) throw new Error('an array given back that is not lent');
      array.fill(-654321.25);
      free.push(array);
    },
  };
}

function check(text: string, n: number, next: () => number, asSources: boolean): void {
  const arrays = new Map(NAMES.map((name) => [name, seriesOf(next, n)]));
  const context: EvaluationContext = { time: timesOf(next, n), lapTime: seriesOf(next, n), lapDistance: seriesOf(next, n), lapNumber: seriesOf(next, n) };
  const compiled = compile(text, { inputs: NAMES, math: true });
  const copies = new Map([...arrays].map(([k, v]) => [k, v.slice()]));
  const inputs: ExpressionInputs = Object.fromEntries([...arrays].map(([k, v], i) => [k, asSources && i % 2 === 0 ? sourceOf(v) : v]));
  const actual = compiled.evaluate(inputs, n, context);
  const expected = referenceEvaluate(compiled.ast, new Map(compiled.inputs.map((name) => [name, arrays.get(name) as Float64Array])), n, context);
  expectSameValues(actual, expected, `${text} over ${n} samples`);
  // Lent arrays, given back and lent again within the run: the same numbers, at most `arrays` lent, only the result kept.
  const pool = lender();
  const pooled = compiled.evaluate(inputs, n, context, { allocate: pool.allocate, release: pool.release });
  expectSameValues(pooled, expected, `${text} over ${n} samples in lent arrays`);
  expect(pool.counts.made).toBeLessThanOrEqual(compiled.arrays);
  expect([...pool.lent]).toEqual([pooled]);
  for (const [name, values] of arrays) {
    expect(sameArrays(values, copies.get(name) as Float64Array)).toBe(true); // inputs untouched
    expect(actual.buffer).not.toBe(values.buffer);
  }
}

describe('block evaluation matches the whole-array reference bit for bit', () => {
  const lengths = [0, 1, 2, 3, 17, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 17];

  it('when random expressions over every operator and function run over random inputs with gaps, then every sample is the same', () => {
    const next = random(40);
    for (let k = 0; k < 300; k++) {
      const text = expressionOf(next, 1 + Math.floor(next() * 5));
      const n = lengths[Math.floor(next() * lengths.length)];
      check(text, n, next, next() < 0.5);
    }
  });

  it.each(FUNCTION_NAMES)('when %s runs with each argument an input, a source, an expression or a constant, then every sample is the same', (name) => {
    const spec = FUNCTIONS[name];
    const next = random(name.length * 7919);
    const operands = ['a', '"Ground Speed"', '(c * 2 - 1)', '2.5', 'pi', 'derivative(a)'];
    const count = spec.arity === 'one or more' ? 3 : spec.arity;
    for (let k = 0; k < 12; k++) {
      const args = Array.from({ length: count }, () => operands[Math.floor(next() * operands.length)]);
      check(`${name}(${args.join(', ')})`, BLOCK + 5, next, k % 2 === 0);
    }
    if (spec.arity === 'one or more') check(`${name}(a)`, 10, next, true);
  });

  it.each(['interp', 'lookup'])('when %s reads an input, a source, an expression, a lap input or a constant against each table, then every sample is the same', (name) => {
    const next = random(name.length * 104729);
    const operands = ['a', '"Ground Speed"', '(c * 2 - 1)', '2.5', '-0.5', 'pi', 'lapNumber()', 'smooth(a, 0.5)', 'interp(c, -1, -2, 1, 2)'];
    for (const table of TABLES) {
      for (let k = 0; k < 4; k++) check(`${name}(${operands[Math.floor(next() * operands.length)]}, ${table})`, BLOCK + 5, next, k % 2 === 0);
    }
  });

  it.each(OPERATORS)('when the operator %s takes an input, a source, an expression or a constant on either side, then every sample is the same', (operator) => {
    const next = random(operator.charCodeAt(0) * 31 + operator.length);
    const operands = ['a', '"Ground Speed"', '(c / 3)', '0', '2.5', 'lapTime()', 'smooth(c, 0.5)'];
    for (let k = 0; k < 12; k++) {
      const [x, y] = [operands[Math.floor(next() * operands.length)], operands[Math.floor(next() * operands.length)]];
      check(`(${x}) ${operator} (${y})`, BLOCK + 5, next, k % 2 === 0);
    }
    for (const unary of ['-', '+', '!']) check(`${unary}(a)`, 100, next, true);
  });

  it('when an expression reads several time functions beside other values, in any arrangement, then every sample is the same, in new arrays and in lent ones given back and lent again', () => {
    const next = random(23);
    const timed = ['integral(a)', 'smooth("Ground Speed", 0.5)', 'derivative(c * 2)', 'lowpass(a + c, 5)', 'smooth(lapTime(), 0.1)', 'integral(2)', 'derivative("Ground Speed")'];
    const plain = ['a', '"Ground Speed"', '(c - 1)', '2.5', 'lapDistance()'];
    const term = (depth: number): string => {
      const r = next();
      if (depth <= 0 || r < 0.3) return (r < 0.15 ? timed : plain)[Math.floor(next() * (r < 0.15 ? timed.length : plain.length))] as string;
      if (r < 0.5) return `min(${Array.from({ length: 2 + Math.floor(next() * 5) }, () => term(depth - 1)).join(', ')})`;
      if (r < 0.6) return `if(${term(depth - 1)} > 0, ${term(depth - 1)}, ${term(depth - 1)})`;
      if (r < 0.7) return `${['integral', 'derivative'][Math.floor(next() * 2)]}(${term(depth - 1)})`;
      return `(${term(depth - 1)}) ${OPERATORS[Math.floor(next() * OPERATORS.length)]} (${term(depth - 1)})`;
    };
    for (let k = 0; k < 150; k++) check(term(4), lengths[Math.floor(next() * lengths.length)] as number, next, k % 2 === 0);
  });

  it('when the expression is only an input, a lap input or a constant, then the result is a copy of its own', () => {
    const next = random(7);
    for (const text of ['a', '"Ground Speed"', 'lapTime()', 'pi', '1 + 2', 'lowpass(lowpass(a, 5), 5)', 'derivative(integral(c))']) check(text, 100, next, true);
  });
});
