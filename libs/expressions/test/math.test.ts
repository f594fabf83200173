import { compile, evaluationOrder, findCycle, parse } from '../src';
import { errorOf, math } from './support';

/** Expected values here are computed independently of the library: closed forms, or plain loops written out below. */

/** n samples at `rate` Hz from 0 s. */
function timeBase(n: number, rate: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => i / rate);
}

describe('math-channel language', () => {
  it('when a channel name is quoted, then it is one name, with its span, in math mode only', () => {
    expect(parse('"Engine Speed" / 60', { quotedNames: true })).toMatchObject({ left: { kind: 'name', name: 'Engine Speed', start: 0, end: 14 } });
    expect(parse("'a b' + 1", { quotedNames: true })).toMatchObject({ left: { kind: 'name', name: 'a b' } });
    expect(errorOf(() => parse('"a" + 1')).reason).toContain('is not a number');
    const speed = math('"Wheel Speed FL" * 3.6', ['Wheel Speed FL']);
    expect(Array.from(speed.evaluate({ 'Wheel Speed FL': Float64Array.of(10, 20) }))).toEqual([36, 72]);
  });

  it("when inputs are 'any', then every name but a constant is an input, listed in order of first use", () => {
    const compiled = math('"B" + A * pi + B + max(C, e)');
    expect(compiled.inputs).toEqual(['B', 'A', 'C']);
    expect(compiled.needs).toEqual({ time: false, lapTime: false, lapDistance: false, lapNumber: false });
  });

  it('when derivative(x) runs over a quadratic, then the central difference is exact inside and one-sided at the ends', () => {
    const t = Float64Array.of(0, 0.1, 0.3, 0.6, 1.0); // uneven steps
    const x = t.map((v) => v * v);
    const d = math('derivative(x)', ['x']).evaluate({ x }, undefined, { time: t });
    // Central over [t(i-1), t(i+1)] of t²: (t(i+1)² − t(i-1)²) / (t(i+1) − t(i-1)) = t(i+1) + t(i-1).
    const expected = [0 + 0.1, 0 + 0.3, 0.1 + 0.6, 0.3 + 1.0, 0.6 + 1.0];
    expected.forEach((v, i) => expect(d[i]).toBeCloseTo(v, 12));
  });

  it('when integral(x) runs over a line, then the trapezoid sum is exact, and a gap holds the sum and is itself NaN', () => {
    const t = timeBase(11, 10); // 0 .. 1 s
    const x = t.map((v) => 2 * v + 1); // ∫0^t = t² + t
    const y = math('integral(x)', ['x']).evaluate({ x }, undefined, { time: t });
    t.forEach((v, i) => expect(y[i]).toBeCloseTo(v * v + v, 12));
    const gappy = Float64Array.of(1, 1, NaN, 1, 1);
    const g = math('integral(x)', ['x']).evaluate({ x: gappy }, undefined, { time: timeBase(5, 1) });
    // Intervals [0,1] adds 1; [1,2] and [2,3] touch the gap, add nothing; [3,4] adds 1.
    expect(Array.from(g)).toEqual([0, 1, NaN, 1, 2]);
  });

  it('when smooth(x, seconds) runs, then each sample is the mean of the samples within ±seconds/2, gaps left out', () => {
    const t = timeBase(7, 10);
    const x = Float64Array.of(0, 1, 2, NaN, 4, 5, 6);
    const y = math('smooth(x, 0.2)', ['x']).evaluate({ x }, undefined, { time: t });
    // Window ±0.1 s: the sample and its two neighbours (times 0.1 apart, ends inclusive).
    const expected = Array.from(x, (v, i) => {
      if (Number.isNaN(v)) return NaN;
      const near = [x[i - 1], v, x[i + 1]].filter((w) => w !== undefined && !Number.isNaN(w));
      return near.reduce((a, b) => a + b, 0) / near.length;
    });
    expected.forEach((v, i) => (Number.isNaN(v) ? expect(y[i]).toBeNaN() : expect(y[i]).toBeCloseTo(v, 12)));
  });

  it('when a window\'s edge falls on a sample but its sum rounds past it, then that sample is still in the window', () => {
    // A data engineer's trial: at 10 Hz, 32.2 − 0.5 is 31.700000000000003, which left the sample of 31.7 s out of
    // smooth(x, 1) at 32.2 s. Each window of ±0.5 s holds 11 samples, whatever rounding its ends took.
    const t = timeBase(4540, 10);
    const x = Float64Array.from(t, (_, i) => i);
    const y = math('smooth(x, 1)', ['x']).evaluate({ x }, undefined, { time: t });
    expect(32.2 - 0.5).toBeGreaterThan(31.7);
    for (let i = 5; i < 4535; i++) if (y[i] !== i) throw new Error(`smooth at ${t[i]} s is ${y[i]}, not the mean ${i} of the 11 samples around it`);
  });

  it('when a 1e17 passes through smooth(x, 0.1) among ones, then once it has left the window the mean is 1 again', () => {
    // The trial's case: smooth(if(lapTime() < 5, 1e17, 1) + "Ground Speed"*0, 0.1) over a 20 Hz lap of 60 s.
    const t = timeBase(1200, 20);
    const speed = t.map((v) => 100 + 50 * Math.sin(v));
    const y = math('smooth(if(lapTime() < 5, 1e17, 1) + "Ground Speed" * 0, 0.1)', ['Ground Speed']).evaluate({ 'Ground Speed': speed }, undefined, { time: t, lapTime: t });
    // Window ±0.05 s holds the sample alone and its neighbours 0.05 s away: from t = 5.05 s on, only ones.
    t.forEach((v, i) => {
      if (v >= 5.1) expect(y[i]).toBe(1);
    });
    expect(y[0]).toBe(1e17);
  });

  it('when values of very different magnitudes and an infinity pass through smooth, then each sample is still the mean of its window', () => {
    const t = timeBase(400, 10);
    const x = t.map((_, i) => (i % 97 === 0 ? 1e20 * (i % 2 ? -1 : 1) : i === 150 ? Infinity : (i % 7) * 1e-3));
    const y = math('smooth(x, 0.5)', ['x']).evaluate({ x }, undefined, { time: t });
    x.forEach((_, i) => {
      // Window ±0.25 s: the sample and its two neighbours on each side, summed exactly in order of magnitude.
      const near = [-2, -1, 0, 1, 2].map((d) => x[i + d]).filter((w): w is number => w !== undefined);
      const mean = near.includes(Infinity) ? Infinity : [...near].sort((a, b) => Math.abs(a) - Math.abs(b)).reduce((a, b) => a + b, 0) / near.length;
      if (Math.abs(mean) === Infinity) expect(y[i]).toBe(mean);
      else expect(y[i]).toBeCloseTo(mean, 9);
    });
  });

  it('when smooth runs over values of mixed magnitudes, then each mean is the window\'s exact sum rounded once, divided by its count, the same bits when the read starts elsewhere', () => {
    // Logged decimals with a 1e17 spike and tiny values passing through: the window's own values decide each bit.
    const t = timeBase(2000, 20);
    const x = t.map((v, i) => (i % 331 === 7 ? 1e17 : i % 13 === 0 ? 3e-9 : Math.round(1000 * (160 + 5 * Math.sin(v))) / 1000));
    const y = math('smooth(x, 0.3)', ['x']).evaluate({ x }, undefined, { time: t });
    /** Exact sum by BigInt in units of 2^-112 (the values here are whole multiples of it), rounded by BigInt→Number. */
    const exactMean = (values: number[]): number => {
      let sum = 0n;
      for (const v of values) {
        const bits = new DataView(Float64Array.of(Math.abs(v)).buffer).getBigUint64(0, true);
        const shift = Number(bits >> 52n) - 1075 + 112;
        if (shift < 0) throw new Error(`${v} is finer than 2^-112`);
        const scaled = ((bits & ((1n << 52n) - 1n)) | (1n << 52n)) << BigInt(shift);
        sum += v < 0 ? -scaled : scaled;
      }
      return (Number(sum) * 2 ** -112) / values.length;
    };
    for (let i = 0; i < t.length; i++) {
      // Window ±0.15 s at 20 Hz: the sample and three on each side.
      const near = [-3, -2, -1, 0, 1, 2, 3].map((d) => x[i + d]).filter((w): w is number => w !== undefined);
      if (!Object.is(y[i], exactMean(near))) throw new Error(`smooth at ${t[i]} s is ${y[i]}, not ${exactMean(near)}`);
    }
    // The read from sample 500 on (its window reaching back 3 samples) gives the whole file's bits there.
    const from = 497;
    const later = math('smooth(x, 0.3)', ['x']).evaluate({ x: x.slice(from) }, undefined, { time: t.slice(from) });
    for (let i = 500; i < t.length; i++) expect(later[i - from]).toBe(y[i]);
  });

  it('when lowpass(x, hz) filters a step, then it follows the first-order RC response, and restarts after a gap', () => {
    const rate = 1000;
    const hz = 5;
    const t = timeBase(501, rate);
    const x = t.map((v) => (v === 0 ? 0 : 1));
    const y = math('lowpass(x, 5)', ['x']).evaluate({ x }, undefined, { time: t });
    // Discrete RC: y(k) = 1 − (1 − α)^k, α = dt / (RC + dt); close to the continuous 1 − exp(−t / RC).
    const rc = 1 / (2 * Math.PI * hz);
    const alpha = (1 / rate) / (rc + 1 / rate);
    for (const k of [1, 10, 100, 500]) expect(y[k]).toBeCloseTo(1 - (1 - alpha) ** k, 12);
    expect(Math.abs(y[100] - (1 - Math.exp(-0.1 / rc)))).toBeLessThan(0.01);
    const g = math('lowpass(x, 5)', ['x']).evaluate({ x: Float64Array.of(3, NaN, 7, 7) }, undefined, { time: timeBase(4, 1000) });
    expect(g[0]).toBe(3);
    expect(g[1]).toBeNaN();
    expect(g[2]).toBe(7);
    expect(g[3]).toBe(7);
  });

  it('when lapTime() and lapDistance() are read, then they are the series given in the context', () => {
    const compiled = math('lapDistance() / max(lapTime(), 1)');
    expect(compiled.needs).toEqual({ time: false, lapTime: true, lapDistance: true, lapNumber: false });
    const lapTime = Float64Array.of(0, 2, 4);
    const lapDistance = Float64Array.of(0, 100, 300);
    expect(Array.from(compiled.evaluate({}, undefined, { lapTime, lapDistance }))).toEqual([0, 50, 75]);
    expect(Array.from(lapTime)).toEqual([0, 2, 4]);
    expect(() => compiled.evaluate({}, 3)).toThrow(/lapTime is missing/);
  });

  it('when lapNumber() is read, then it is the lap index series given in the context, a gap where it is one', () => {
    const compiled = math('if(lapNumber() == 0, 0, lapTime())');
    expect(compiled.needs).toEqual({ time: false, lapTime: true, lapDistance: false, lapNumber: true });
    const lapNumber = Float64Array.of(0, 0, 1, 1, NaN);
    const lapTime = Float64Array.of(0.5, 1.5, 0.25, 1.25, NaN);
    expect(Array.from(compiled.evaluate({}, undefined, { lapTime, lapNumber }))).toEqual([0, 0, 0.25, 1.25, NaN]);
    expect(Array.from(math('lapNumber() + 1').evaluate({}, undefined, { lapNumber }))).toEqual([1, 1, 2, 2, NaN]);
    expect(() => math('lapNumber() * 2').evaluate({}, 5)).toThrow(/lapNumber is missing/);
  });

  it('when the time functions compose with arithmetic, then derivative(integral(x)) recovers x', () => {
    const t = timeBase(101, 100);
    const x = t.map((v) => 3 * v + 2);
    const y = math('derivative(integral(x))', ['x']).evaluate({ x }, undefined, { time: t });
    x.forEach((v, i) => expect(y[i]).toBeCloseTo(v, 1));
    for (let i = 1; i < 100; i++) expect(y[i]).toBeCloseTo(x[i], 9);
    expect(Array.from(x)).toEqual(Array.from(t, (v) => 3 * v + 2)); // inputs untouched
  });

  it.each([
    ['smooth(x)', 0, 'smooth takes 2 arguments (x, seconds), not 1'],
    ['smooth(x, y)', 10, "smooth's seconds must be a positive number written as digits (not a name or an expression)"],
    ['smooth(x, pi)', 10, "smooth's seconds must be a positive number written as digits (not a name or an expression)"],
    ['1 + lowpass(x, 0)', 15, "lowpass's hz must be a positive number"],
    ['derivative(x, 1)', 0, 'derivative takes 1 argument, not 2'],
    ['lapTime(1)', 0, 'lapTime takes no arguments'],
    ['2 * lapNumber(x)', 4, 'lapNumber takes no arguments, not 1'],
    ['smooth(x, -1)', 10, "smooth's seconds must be a positive number, not -1"],
    ['lowpass(x, -0.5)', 11, "lowpass's hz must be a positive number, not -0.5"],
    ['delay(x, 0)', 9, "delay's seconds must be a positive number, not 0"],
    ['x + nope(1)', 4, 'unknown function nope'],
  ])('when %j is compiled, then an ExpressionError at %i says %s', (text, position, reason) => {
    expect(errorOf(() => math(text))).toMatchObject({ position, reason: expect.stringContaining(reason) });
  });

  it('when not in math mode (MDF conversions), then the time and lap functions are unknown', () => {
    expect(errorOf(() => compile('derivative(X)', { inputs: ['X'] })).reason).toBe('unknown function derivative');
    expect(errorOf(() => compile('lapTime()', { inputs: ['X'] })).reason).toBe('unknown function lapTime');
  });
});

describe('dependencies between definitions', () => {
  const graph = new Map<string, string[]>([
    ['power', ['torque', 'rpm']],
    ['torque', ['Engine Torque']],
    ['rpm', ['Engine Speed']],
    ['efficiency', ['power', 'Fuel Flow']],
  ]);

  it('when definitions read one another, then each comes after what it reads, and logged channels are the leaves', () => {
    expect(findCycle(graph)).toBeNull();
    expect(evaluationOrder(graph, ['efficiency'])).toEqual({ definitions: ['torque', 'rpm', 'power', 'efficiency'], leaves: ['Engine Torque', 'Engine Speed', 'Fuel Flow'] });
  });

  it('when a definition would close a loop, then the cycle is named from it, first name repeated last', () => {
    const looped = new Map(graph).set('torque', ['efficiency']);
    expect(findCycle(looped, 'power')).toEqual(['power', 'torque', 'efficiency', 'power']);
    expect(findCycle(new Map([['a', ['a']]]))).toEqual(['a', 'a']);
    expect(() => evaluationOrder(looped, ['efficiency'])).toThrow('efficiency → power → torque → efficiency');
  });

  // An account may hold any number of math channels, each reading the one before: the walks must not recurse per level.
  const chain = (n: number) => new Map<string, string[]>(Array.from({ length: n }, (_, i) => [`c${i}`, [i ? `c${i - 1}` : 'Engine Speed']]));

  it('when 100,000 definitions each read the one before, then the order and the absence of a cycle are found (no stack overflow)', () => {
    const deep = chain(100_000);
    expect(findCycle(deep, 'c99999')).toBeNull();
    expect(findCycle(deep)).toBeNull();
    const order = evaluationOrder(deep, ['c99999']);
    expect(order.leaves).toEqual(['Engine Speed']);
    expect(order.definitions.length).toBe(100_000);
    expect(order.definitions.slice(0, 2)).toEqual(['c0', 'c1']);
    expect(order.definitions.at(-1)).toBe('c99999');
  });

  it('when the first of 100,000 chained definitions reads the last, then the cycle is named whole', () => {
    const looped = chain(100_000).set('c0', ['c99999']);
    const cycle = findCycle(looped, 'c0');
    expect(cycle?.length).toBe(100_001);
    expect([cycle?.[0], cycle?.[1], cycle?.at(-2), cycle?.at(-1)]).toEqual(['c0', 'c99999', 'c1', 'c0']);
    expect(() => evaluationOrder(looped, ['c5'])).toThrow('the definitions form a cycle: c5 → c4');
  });
});

describe('delay(x, seconds)', () => {
  it('when a ramp is delayed, then each sample is the ramp as it was that long before (linear between samples), NaN before the series and next to a gap', () => {
    const t = Float64Array.from({ length: 11 }, (_, i) => i * 0.1);
    const x = Float64Array.from(t, (v) => v * 10);
    x[8] = NaN;
    const y = compile('delay(x, 0.25)', { inputs: ['x'], math: true }).evaluate({ x }, undefined, { time: t });
    // The gap at 0.8 s is read by the sample at 1.0 s (it reads 0.75 s, between 0.7 and 0.8), not by its own.
    const expected = [NaN, NaN, NaN, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, NaN];
    expected.forEach((e, i) => (Number.isNaN(e) ? expect(y[i]).toBeNaN() : expect(y[i]).toBeCloseTo(e, 12)));
    // On a sample exactly: that sample's value.
    const exact = compile('delay(x, 0.2)', { inputs: ['x'], math: true }).evaluate({ x: Float64Array.from(t, (v) => v * 10) }, undefined, { time: t });
    expect(exact[5]).toBeCloseTo(3, 12);
  });

  it('when its seconds are not a positive number written as digits, then it is refused naming them', () => {
    expect(() => compile('delay(x, y)', { inputs: ['x', 'y'], math: true })).toThrow("delay's seconds must be a positive number written as digits (not a name or an expression)");
    expect(() => compile('delay(x, -y)', { inputs: ['x', 'y'], math: true })).toThrow("delay's seconds must be a positive number written as digits (not a name or an expression)");
    expect(() => compile('delay(x)', { inputs: ['x'], math: true })).toThrow('delay takes 2 arguments (x, seconds), not 1');
  });

  it('when its seconds are negative, then the refusal says a delay never reads ahead, and what to write instead', () => {
    expect(errorOf(() => compile('delay(x, -1)', { inputs: ['x'], math: true }))).toMatchObject({
      position: 9,
      reason: "delay's seconds must be positive, not -1: delay gives x as it was that long before, never ahead (to line x up with a channel that lags it, delay that channel by 1 s instead)",
    });
    expect(errorOf(() => compile('1 + delay("Ground Speed", -0.25)', { inputs: 'any', math: true }))).toMatchObject({ position: 26, reason: expect.stringContaining('not -0.25:') });
  });
});
