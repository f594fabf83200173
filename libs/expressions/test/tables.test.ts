import { compile, MAX_TABLE_PAIRS } from '../src';
import { errorOf, math } from './support';

/** Expected values are worked out by hand from the breakpoints (no call into the library's own interpolation). */
const run = (text: string, x: readonly number[]) => Array.from(math(text, ['x']).evaluate({ x: Float64Array.from(x) }));

describe('interp(x, x1, y1, x2, y2, ...): a lookup table, linear between breakpoints', () => {
  it('when a damper potentiometer calibration (0.5 V at 0 mm, 4.5 V at 100 mm) reads volts, then it gives millimetres, held at the ends, a gap for a gap', () => {
    // 25 mm a volt from 0.5 V: 2.5 V is 50 mm, 1.3 V is 20 mm; below 0.5 V 0 mm, above 4.5 V 100 mm.
    expect(run('interp(x, 0.5, 0, 4.5, 100)', [0.5, 2.5, 1.5, 4.5, 0, -3, 5, 1e300, NaN])).toEqual([0, 50, 25, 100, 0, 0, 100, 100, NaN]);
  });

  it('when a ride-height map has negative breakpoints and uneven steps, then each x is read between the two breakpoints around it', () => {
    const table = 'interp(x, -10, 5, 0, 0, 20, -4)';
    // [-10, 0]: 5 → 0, −0.5 a unit; [0, 20]: 0 → −4, −0.2 a unit. At a breakpoint, its own y exactly.
    const values = run(table, [-10, -5, -2, 0, 10, 15, 20, -20, Infinity, -Infinity]);
    expect(values).toEqual([5, 2.5, 1, 0, -2, -3, -4, 5, -4, 5]);
    expect(run(table, [0.1])[0]).toBeCloseTo(-0.02, 15);
  });

  it('when x is a constant, then it is folded to the number a sample of that value gives, bit for bit', () => {
    const table = '0.5, 0.1, 1.7, 2.3, 3.9, -0.7';
    for (const x of [0.3, 0.5, 0.77, 1.7, 2.2, 3.9, 7]) {
      const folded = math(`interp(${x}, ${table})`).evaluate({}, 1)[0];
      const looped = run(`interp(x, ${table})`, [x])[0];
      expect(Object.is(folded, looped)).toBe(true);
    }
    // 0.77: 0.1 + 2.2 × 0.27 / 1.2 = 0.595.
    expect(math(`interp(0.77, ${table})`).evaluate({}, 1)[0]).toBeCloseTo(0.595, 14);
  });

  it('when x is an expression over inputs and time functions, then it reads them, and the table is no input', () => {
    const compiled = math('interp("Damper FL" * 1000 + derivative(Speed), 0, 0, 5000, 75)');
    expect(compiled.inputs).toEqual(['Damper FL', 'Speed']);
    expect(compiled.needs.time).toBe(true);
  });
});

describe('lookup(x, x1, y1, x2, y2, ...): a step table', () => {
  it('when a gear-ratio table reads the gear, then each gear is its ratio, held between gears and at the ends, a gap for a gap', () => {
    const table = 'lookup(x, 1, 3.17, 2, 2.05, 3, 1.48, 4, 1.17)';
    // Mid-shift (2.6) keeps the lower gear's ratio; neutral (0) the first's; past the table the last's.
    expect(run(table, [1, 2, 2.6, 3, 4, 0, 6, NaN])).toEqual([3.17, 2.05, 2.05, 1.48, 1.17, 3.17, 1.17, NaN]);
    expect(math('lookup(2.6, 1, 3.17, 2, 2.05, 3, 1.48)').evaluate({}, 1)[0]).toBe(2.05);
  });
});

describe('a table that is not one', () => {
  const pairs = (n: number) => Array.from({ length: n }, (_, k) => `${k}, -${k}`).join(', ');

  it.each([
    ['interp(x, 0, 1)', 0, 'interp takes x and at least two breakpoint pairs (x, x1, y1, x2, y2, ...), not 3 arguments'],
    ['1 + interp()', 4, 'interp takes x and at least two breakpoint pairs (x, x1, y1, x2, y2, ...), not 0 arguments'],
    ['interp(x, 0, 1, 2, 3, 4)', 22, "interp's breakpoints come in pairs (x1, y1, x2, y2, ...): x3 has no y"],
    ['interp(x, 0, 1, 0, 2)', 16, "interp's x breakpoints must be strictly increasing: x2 (0) is not greater than x1 (0)"],
    ['interp(x, 0, 1, 5, 2, -1, 3)', 22, "interp's x breakpoints must be strictly increasing: x3 (-1) is not greater than x2 (5)"],
    ['interp(x, 0, y, 1, 2)', 13, "interp's y1 must be a number written as digits, with a sign or not (not a name or an expression)"],
    ['interp(x, 0, 1, pi, 2)', 16, "interp's x2 must be a number written as digits, with a sign or not (not a name or an expression)"],
    ['interp(x, 0, 1, 1 + 1, 2)', 16, "interp's x2 must be a number written as digits, with a sign or not (not a name or an expression)"],
    ['interp(x, 0, 1, 2, !3)', 19, "interp's y2 must be a number written as digits, with a sign or not (not a name or an expression)"],
    ['lookup(x, 2, 1, 1, 2)', 16, "lookup's x breakpoints must be strictly increasing: x2 (1) is not greater than x1 (2)"],
    ['lookup(x)', 0, 'lookup takes x and at least two breakpoint pairs'],
    ['interp(nope(x), 0, 1, 2, 3)', 7, 'unknown function nope'],
  ])('when %j is compiled, then an ExpressionError at %i says %s', (text, position, reason) => {
    expect(errorOf(() => math(text))).toMatchObject({ position, reason: expect.stringContaining(reason) });
  });

  it(`when a table has more than ${MAX_TABLE_PAIRS} pairs, then the first pair past the limit is named with the count`, () => {
    expect(MAX_TABLE_PAIRS).toBe(200);
    expect(math(`interp(x, ${pairs(MAX_TABLE_PAIRS)})`).inputs).toEqual(['x']);
    const text = `interp(x, ${pairs(MAX_TABLE_PAIRS + 1)})`;
    expect(errorOf(() => math(text))).toMatchObject({ position: text.indexOf(`, ${MAX_TABLE_PAIRS}, -`) + 2, reason: `interp takes at most ${MAX_TABLE_PAIRS} breakpoint pairs, not ${MAX_TABLE_PAIRS + 1}` });
  });

  it('when a table of the most pairs is all negative numbers, then it is within the expression limits (the table limit is the one met)', () => {
    const negative = Array.from({ length: MAX_TABLE_PAIRS }, (_, k) => `-${MAX_TABLE_PAIRS - k}.5, -${k}`).join(', ');
    expect(math(`interp(x, ${negative})`).evaluate({ x: Float64Array.of(-1e9, -150.5, 1) }, undefined)).toEqual(Float64Array.of(-0, -50, -199));
  });

  it('when not in math mode (MDF conversions), then the tables are unknown functions', () => {
    expect(errorOf(() => compile('interp(X, 0, 0, 1, 1)', { inputs: ['X'] })).reason).toBe('unknown function interp');
    expect(errorOf(() => compile('lookup(X, 0, 0, 1, 1)', { inputs: ['X'] })).reason).toBe('unknown function lookup');
  });
});
