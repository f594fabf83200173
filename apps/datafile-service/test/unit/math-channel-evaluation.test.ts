import type { LinearConversion, RawSampleArray } from '@pitwall/channels';
import { BLOCK } from '@pitwall/expressions';
import { seededRandom as random } from '@pitwall/random';
import { evaluateMathChannel, type MathChannelTask } from '../../src/workers/math-channels';
import type { StoredSlice } from '../../src/workers/shape-channels';
import { referenceMathChannel } from './math-channel-reference';

/**
 * The math pool task against its reference (every input converted whole, with a whole array of times, and resampled
 * with interpolateLinear): random tasks over inputs of several rates and starts, stored as int16, int32, float32 or
 * float64 codes with their conversions and gaps, some with times of their own, with and without a Rate, laps and
 * lapDistance(); the same numbers in every sample (a NaN is a gap whatever its bits).
 */
const CONVERSIONS: LinearConversion[] = [
  { numerator: 1, denominator: 1, offset: 0 },
  { numerator: 1, denominator: 10, offset: 0 },
  { numerator: 2446, denominator: 1, offset: -3 },
  { numerator: 3, denominator: 7, offset: 0.5 },
  { numerator: 10, denominator: 10, offset: 0 },
];

function sliceOf(next: () => number, name: string, options: { rate: number; start: number; seconds: number; irregular: boolean }): StoredSlice {
  const n = Math.max(0, Math.round(options.seconds * options.rate));
  const kind = Math.floor(next() * 4);
  const samples: RawSampleArray = kind === 0 ? new Int16Array(n) : kind === 1 ? new Int32Array(n) : kind === 2 ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = next();
    samples[i] = kind < 2 ? Math.round((next() - 0.5) * 20000) : r < 0.02 ? NaN : r < 0.04 ? -0 : (next() - 0.5) * 1000;
  }
  const conversion = CONVERSIONS[Math.floor(next() * CONVERSIONS.length)];
  const slice: StoredSlice = { name, unit: 'km/h', frequency: options.rate, dimension: 1, startTime: options.start, samples, conversion };
  if (n > 4 && next() < 0.5) {
    const gaps = new Uint8Array(n);
    for (let i = 0; i < n; i++) gaps[i] = next() < 0.03 ? 1 : 0;
    gaps.fill(1, Math.floor(n / 2), Math.floor(n / 2) + 3);
    slice.gaps = gaps;
  }
  if (options.irregular) {
    const times = new Float64Array(n);
    let t = options.start;
    for (let i = 0; i < n; i++, t += (0.5 + next()) / options.rate) times[i] = t;
    slice.times = times;
  }
  return slice;
}

const EXPRESSIONS = [
  'a',
  'a / 3.6',
  'a / 3.6 * b / 100 + abs(c) * 2',
  'if(b > 10, a, -c)',
  'max(a, b, c) - min(a, 0)',
  'smooth(a, 0.5) + lowpass(b, 5) + derivative(c)',
  'integral(a) / 3600',
  'clamp(a / 15, -1, 1) * lapTime()',
  'lapDistance() / max(lapTime(), 1) + b * 0',
  'sqrt(a ^ 2 + b ^ 2)',
  'interp(a, -100, -1, 0, 0, 250, 4.5) * lapNumber() + lookup(b, 0, 1, 10, 2)',
];

function taskOf(next: () => number): MathChannelTask {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const seconds = pick([0, 0.05, 1, 7.3, (3 * BLOCK + 5) / 100]);
  const aligned = next() < 0.5;
  const slices = ['a', 'b', 'c'].map((name, k) =>
    sliceOf(next, name, {
      rate: aligned && k < 2 ? 100 : pick([1, 10, 20, 50, 100, 200]),
      start: aligned && k < 2 ? 0.25 : pick([0, 0.013, 0.25, 5.5]),
      seconds: k === 0 ? seconds : seconds * pick([0.5, 1, 1.2]),
      irregular: next() < 0.12,
    }),
  );
  const expression = pick(EXPRESSIONS);
  const second = next() < 0.3;
  const definitions = second ? [{ name: 'inner', expression }, { name: 'm', expression: 'inner * 2 + a' }] : [{ name: 'm', expression }];
  const span = { start: 0, end: 10 };
  const task: MathChannelTask = { name: 'm', unit: 'u', definitions, inputs: slices, span };
  if (next() < 0.3) task.rate = pick([5, 100, 333]);
  if (/lap/.test(expression)) {
    task.laps = [{ start: 0, end: seconds / 3, index: 3 }, { start: seconds / 3, end: seconds, index: 4 }];
    if (/lapDistance/.test(expression)) {
      task.distance = { source: { kind: 'integrated', channel: 'Speed' }, slice: sliceOf(next, 'Speed', { rate: 50, start: 0, seconds, irregular: false }) };
    }
  }
  return task;
}

/** A copy of the task: the evaluation may take its inputs' buffers as they come. */
function copyOf(task: MathChannelTask): MathChannelTask {
  const copy = (s: StoredSlice): StoredSlice => ({ ...s, samples: s.samples.slice(), ...(s.times ? { times: s.times.slice() } : {}), ...(s.gaps ? { gaps: s.gaps.slice() } : {}) });
  return { ...task, inputs: task.inputs.map(copy), ...(task.distance ? { distance: { ...task.distance, slice: copy(task.distance.slice) } } : {}) };
}

function sameNumbers(actual: ArrayLike<number>, expected: ArrayLike<number>): string | undefined {
  if (actual.length !== expected.length) return `${actual.length} samples, the reference ${expected.length}`;
  for (let i = 0; i < expected.length; i++) if (!Object.is(actual[i], expected[i])) return `sample ${i} is ${actual[i]}, the reference ${expected[i]}`;
  return undefined;
}

describe('evaluateMathChannel matches its reference', () => {
  test('when random tasks over inputs of several rates, codes, conversions, gaps and times are evaluated, then the slices are the same, sample for sample', () => {
    const next = random(4040);
    let resampled = 0;
    for (let k = 0; k < 250; k++) {
      const task = taskOf(next);
      let expected: StoredSlice | Error;
      try {
        expected = referenceMathChannel(copyOf(task));
      } catch (error) {
        expected = error as Error;
      }
      if (expected instanceof Error) {
        expect(() => evaluateMathChannel(copyOf(task))).toThrow(expected.message);
        continue;
      }
      const actual = evaluateMathChannel(copyOf(task));
      const what = `task ${k} (${JSON.stringify(task.definitions)}, rate ${task.rate}, inputs ${task.inputs.map((s) => `${s.frequency} Hz from ${s.startTime}${s.times ? ' with times' : ''}`).join(', ')})`;
      const { samples, times, gaps, ...rest } = actual;
      const { samples: eSamples, times: eTimes, gaps: eGaps, ...eRest } = expected;
      expect({ what, ...rest }).toEqual({ what, ...eRest });
      expect({ what, difference: sameNumbers(samples, eSamples) }).toEqual({ what, difference: undefined });
      expect({ what, times: times === undefined ? 'none' : sameNumbers(times, eTimes ?? []) }).toEqual({ what, times: eTimes === undefined ? 'none' : undefined });
      expect({ what, gaps: gaps && Array.from(gaps) }).toEqual({ what, gaps: eGaps && Array.from(eGaps) });
      if (new Set(task.inputs.map((s) => s.frequency)).size > 1) resampled++;
    }
    expect(resampled).toBeGreaterThan(50);
  });
});

describe('lapTime()', () => {
  test('when a 100 Hz file\'s lap starts at 12.37 s, then every lapTime() is its hundredths to the nanosecond (65.16, never the difference\'s 65.16000000000001), as the times the service answers are', () => {
    const n = 10_000;
    const samples = new Int16Array(n);
    const task: MathChannelTask = { name: 'm', unit: 's', definitions: [{ name: 'm', expression: 'lapTime() + a * 0' }], inputs: [{ name: 'a', unit: '', frequency: 100, dimension: 1, startTime: 0, samples, conversion: CONVERSIONS[0] as LinearConversion }], span: { start: 0, end: 100 }, laps: [{ start: 0, end: 12.37, index: 0 }, { start: 12.37, end: 100, index: 1 }] };
    const values = Array.from(evaluateMathChannel(task).samples);
    expect(values[1237 + 6516]).toBe(65.16);
    const noisy = values.filter((v) => String(v).replace(/^\d+\.?/, '').length > 2);
    expect(noisy).toEqual([]);
  });
});

describe('param()', () => {
  test('when a task gives the parameters its definitions read, then each is folded as that number, through a definition reading another', () => {
    const samples = Int16Array.of(36, 72, 108);
    const task: MathChannelTask = {
      name: 'm',
      unit: 'm/s',
      definitions: [{ name: 'inner', expression: 'a / param("Ratio")' }, { name: 'm', expression: 'inner * param("Scale")' }],
      params: [['Ratio', 3.6], ['Scale', 2]],
      inputs: [{ name: 'a', unit: 'km/h', frequency: 1, dimension: 1, startTime: 0, samples, conversion: CONVERSIONS[0] as LinearConversion }],
      span: { start: 0, end: 3 },
    };
    expect(Array.from(evaluateMathChannel(task).samples)).toEqual([20, 40, 60]);
    // A task without the values is not evaluated with made-up ones.
    expect(() => evaluateMathChannel({ ...task, params: [['Ratio', 3.6]] })).toThrow('param("Scale") has no value');
  });
});
