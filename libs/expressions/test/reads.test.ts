import { compile, expressionReach, mathReadsOf } from '../src';

describe('mathReadsOf: what a stored math channel reads, compiled once per expression text', () => {
  test('when an expression is asked for, then its inputs, lap needs and arrays are what compile finds, and asking again answers the kept result without compiling', () => {
    const expression = 'if("Ground Speed" > 100, smooth("Throttle Pos", 0.5), lapDistance()) + Brakes';
    const reads = mathReadsOf(expression);
    const compiled = compile(expression, { inputs: 'any', math: true });
    expect(reads).toEqual({ inputs: [...compiled.inputs], params: [...compiled.params], needs: { lapTime: compiled.needs.lapTime, lapDistance: compiled.needs.lapDistance, lapNumber: compiled.needs.lapNumber }, arrays: compiled.arrays, operations: 5, reach: expressionReach(compiled.ast) });
    // Its operations: if, >, smooth, lapDistance and + (names and numbers are none).
    // smooth's half width and a sample each side, around Throttle Pos only.
    expect(reads.reach.own).toEqual({ start: false, before: { seconds: 0.25, samples: 1 }, after: { seconds: 0.25, samples: 1 } });
    // smooth's argument and its own array, the result.
    expect(reads.arrays).toBe(3);
    expect(reads.needs.lapDistance).toBe(true);
    // The same text (a new string read from the store) finds the kept result.
    expect(mathReadsOf(`${expression}`.slice(0))).toBe(reads);
  });

  test('when an expression is 300 sines of a channel, then its operations are the sines and the sums between them, however grouped', () => {
    const terms = Array.from({ length: 300 }, () => 'sin(Gear)');
    const grouped = Array.from({ length: 30 }, (_, g) => `(${terms.slice(g * 10, g * 10 + 10).join(' + ')})`).join(' + ');
    expect(mathReadsOf(grouped).operations).toBe(300 + 299);
    expect(mathReadsOf('-(Gear) * 2 + !x').operations).toBe(4);
    expect(mathReadsOf('Gear').operations).toBe(0);
  });

  test('when an expression does not compile, then it reads nothing and says why, as compile does', () => {
    const reads = mathReadsOf('max("Speed",');
    expect(reads.inputs).toEqual([]);
    expect(reads.arrays).toBe(0);
    expect(reads.operations).toBe(0);
    expect(() => compile('max("Speed",', { inputs: 'any', math: true })).toThrow(reads.error as string);
  });
});
