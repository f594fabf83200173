import { compile, evaluate, ExpressionError, FUNCTIONS } from '../src';
import { lowpass } from '../src/time-functions';

const f64 = (...values: number[]) => Float64Array.from(values);
const list = (a: Float64Array) => Array.from(a);

describe('compile and evaluate', () => {
  it('when an MDF formula runs over raw values, then each sample is converted and the input is untouched', () => {
    const X = f64(0, 1, 2.5, -4);
    const result = evaluate('X * 2 + 1', { X });
    expect(result).toBeInstanceOf(Float64Array);
    expect(list(result)).toEqual([1, 3, 6, -7]);
    expect(list(X)).toEqual([0, 1, 2.5, -4]);
  });

  it('when the expression is the input itself, then the result is a copy, not the input', () => {
    const X = f64(1, 2);
    const result = evaluate('X', { X });
    expect(result).not.toBe(X);
    expect(result.buffer).not.toBe(X.buffer);
    expect(list(result)).toEqual([1, 2]);
  });

  it('when several inputs are named, then they combine sample by sample and the compiled form lists the ones read', () => {
    const compiled = compile('sqrt(a^2 + b^2) + pi * 0', { inputs: ['a', 'b', 'unused'] });
    expect(compiled.inputs).toEqual(['a', 'b']);
    expect(list(compiled.evaluate({ a: f64(3, 5), b: f64(4, 12) }))).toEqual([5, 13]);
  });

  it.each([
    ['abs(-2)', 2],
    ['sqrt(9)', 3],
    ['exp(0)', 1],
    ['log(e)', 1],
    ['log10(1000)', 3],
    ['sin(pi / 2)', 1],
    ['cos(0)', 1],
    ['tan(0)', 0],
    ['asin(1)', Math.PI / 2],
    ['acos(1)', 0],
    ['atan(1)', Math.PI / 4],
    ['atan2(1, 1)', Math.PI / 4],
    ['mod(-10, 360)', 350],
    ['370 % 360', 10],
    ['-10 % 360', 350],
    ['10 % -3', -2],
    ['7.5 % 2', 1.5],
    ['2 * 7 % 4', 2],
    ['1 + 7 % 4', 4],
    ['floor(-1.5)', -2],
    ['ceil(1.2)', 2],
    ['round(2.5)', 3],
    ['round(-2.5)', -3],
    ['sign(-3)', -1],
    ['pow(2, 10)', 1024],
    ['2 ^ 3 ^ 2', 512],
    ['2 ** 3', 8],
    ['min(3, 1, 2)', 1],
    ['max(3, 1, 2)', 3],
    ['clamp(7, 0, 5)', 5],
    ['clamp(-1, 0, 5)', 0],
    ['if(1, 10, 20)', 10],
    ['if(0, 10, 20)', 20],
    ['1 < 2', 1],
    ['2 <= 1', 0],
    ['3 == 3', 1],
    ['3 != 3', 0],
    ['1 && 0', 0],
    ['1 || 0', 1],
    ['!0', 1],
    ['-(2 ^ 2)', -4],
    ['(-2) ^ 2', 4],
    ['10 - 4 - 3', 3],
    ['12 / 3 / 2', 2],
  ])('when %s is evaluated, then it is %d', (text, expected) => {
    const [value] = compile(text, { inputs: [] }).evaluate({}, 1);
    expect(value).toBeCloseTo(expected, 12);
  });

  it('when an input has gaps (NaN), then they stay gaps through arithmetic, comparisons, logic and functions', () => {
    const X = f64(1, NaN, 3);
    for (const text of ['X + 1', 'X ^ 0', 'X > 0', 'X == X', '!X', 'X && 1', 'X || 1', 'min(X, 5)', 'max(0, X)', 'clamp(X, 0, 1)', 'if(X, 1, 2)', 'abs(X)', 'pow(X, 0)']) {
      const result = evaluate(text, { X });
      expect(Number.isNaN(result[1])).toBe(true);
      expect(Number.isNaN(result[0])).toBe(false);
    }
  });

  it('when if() takes a branch, then the gap of the other branch does not matter', () => {
    expect(list(evaluate('if(c, a, b)', { c: f64(1, 0), a: f64(5, NaN), b: f64(NaN, 7) }))).toEqual([5, 7]);
  });

  it('when an input is named like a constant, then the input is read', () => {
    expect(list(evaluate('e + 1', { e: f64(1) }))).toEqual([2]);
  });

  it('when the math language names pi or e, then bare it is the constant and quoted the input of that name', () => {
    const both = compile('pi * 10 + "pi"', { inputs: 'any', math: true });
    expect(both.inputs).toEqual(['pi']);
    expect(list(both.evaluate({ pi: f64(1, 2) }))).toEqual([Math.PI * 10 + 1, Math.PI * 10 + 2]);
    // Given an input called e, a bare e is still the constant (as when the input is not there).
    expect(compile('e * 2', { inputs: ['e'], math: true }).inputs).toEqual([]);
    expect(list(compile('e * 2', { inputs: ['e'], math: true }).evaluate({ e: f64(5) }, 1))).toEqual([Math.E * 2]);
    expect(list(compile('smooth("e", 1) + e', { inputs: ['e'], math: true }).evaluate({ e: f64(5) }, 1, { time: f64(0) }))).toEqual([5 + Math.E]);
  });

  it('when the expression reads no input, then the length given fills the result', () => {
    expect(list(compile('1 + 1', { inputs: [] }).evaluate({}, 3))).toEqual([2, 2, 2]);
    expect(() => compile('1', { inputs: [] }).evaluate({})).toThrow(TypeError);
  });

  it('when inputs differ in length or one is missing, then evaluate refuses', () => {
    const compiled = compile('a + b', { inputs: ['a', 'b'] });
    expect(() => compiled.evaluate({ a: f64(1, 2), b: f64(1) })).toThrow(RangeError);
    expect(() => compiled.evaluate({ a: f64(1) })).toThrow(/input b is missing/);
  });

  it.each([
    ['foo(X)', 0, 'unknown function foo'],
    ['X + Y', 4, 'unknown name Y'],
    ['1 + sqrt(X, 2)', 4, 'sqrt takes 1 argument, not 2'],
    ['atan2(X)', 0, 'atan2 takes 2 arguments, not 1'],
    ['min()', 0, 'min takes one or more arguments, not 0'],
    ['toString(X)', 0, 'unknown function toString'],
    ['constructor', 0, 'unknown name constructor'],
  ])('when %j is compiled with input X, then an ExpressionError at %i says %s', (text, position, reason) => {
    let error: unknown;
    try {
      compile(text, { inputs: ['X'] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error).toMatchObject({ position, reason });
  });

  it('when a long input runs through a nested expression, then every sample matches the scalar arithmetic', () => {
    const n = 10_000;
    const a = Float64Array.from({ length: n }, (_, i) => Math.sin(i) * 100);
    const b = Float64Array.from({ length: n }, (_, i) => (i % 7) - 3);
    const result = evaluate('clamp(a * 0.5 + b ^ 2, -20, 40) - if(b > 0, a, -a) / 3', { a, b });
    for (let i = 0; i < n; i++) {
      const expected = Math.min(Math.max(a[i] * 0.5 + b[i] ** 2, -20), 40) - (b[i] > 0 ? a[i] : -a[i]) / 3;
      expect(result[i]).toBe(expected);
    }
  });

  it('when the function table is listed, then it holds the documented functions', () => {
    expect(Object.keys(FUNCTIONS).sort()).toEqual(
      ['abs', 'acos', 'asin', 'atan', 'atan2', 'ceil', 'clamp', 'cos', 'exp', 'floor', 'if', 'log', 'log10', 'max', 'min', 'mod', 'pow', 'round', 'sign', 'sin', 'sqrt', 'tan'].sort(),
    );
  });

  it.each([
    ['a block program', '"a" * 0.5 + abs("b") - 1', false],
    ['an input alone', '"a"', false],
    ['a constant', '2 * pi', false],
    ['time functions', 'smooth("a", 0.3) + derivative(lowpass("b", 2)) + integral("a")', true],
  ])('when %s is evaluated with arrays lent by allocate, then every whole-length array comes from it, each written whole, the numbers those of new arrays', (_, text, timed) => {
    const n = 5000;
    const a = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 50) * 40 + (i % 97 === 0 ? NaN : 0));
    const b = Float64Array.from({ length: n }, (_, i) => (i % 13) - 6);
    const time = Float64Array.from({ length: n }, (_, i) => i / 100);
    const compiled = compile(text, { inputs: ['a', 'b'], math: true });
    const context = timed ? { time } : {};
    const expected = compiled.evaluate({ a, b }, n, context);
    const before = a.slice();
    // Lent arrays hold whatever was there before: here a number no sample of the result may keep.
    const lent: Float64Array[] = [];
    const allocate = (length: number) => {
      const array = new Float64Array(length).fill(-123456.75);
      lent.push(array);
      return array;
    };
    const result = compiled.evaluate({ a, b }, n, context, { allocate });
    expect(lent).toContain(result);
    expect(lent.every((array) => array.length === n)).toBe(true);
    expect(Array.from(result, String)).toEqual(Array.from(expected, String));
    expect(result.includes(-123456.75)).toBe(false);
    expect(Array.from(a, String)).toEqual(Array.from(before, String));
  });
});

describe('lowpass at two samples of one time', () => {
  test.each([1e307, 1e308, Number.MAX_VALUE])('when the cut-off is %s Hz (its RC rounds to 0 past about 2.9e307), then a second sample at the same time moves nothing and is no gap', (hz) => {
    const out = lowpass(Float64Array.of(1, 2, 3, 4), Float64Array.of(0, 0.1, 0.1, 0.2), hz, new Float64Array(4));
    expect(Array.from(out)).toEqual([1, 2, 2, 4]);
  });
});

describe('quoted names with backslashes', () => {
  test.each([
    ['"EngineSpeed\\CCP:1"', 'EngineSpeed\\CCP:1'],
    ['"Temp\\new"', 'Temp\\new'],
    ["'A\\\\B'", 'A\\B'],
    ['"Say \\"hi\\""', 'Say "hi"'],
    ["'it\\'s'", "it's"],
    ['"tab\\t\\u0041"', 'tab\\t\\u0041'],
  ])('when %s is read, then it names the channel %j: only a backslash before a quote or a backslash escapes it', (text, name) => {
    const compiled = compile(`${text} * 2`, { inputs: 'any', math: true });
    expect(compiled.inputs).toEqual([name]);
    expect(list(compiled.evaluate({ [name]: f64(1.5) }))).toEqual([3]);
  });
});
