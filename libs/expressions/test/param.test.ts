import { compile, expressionReach, mathReadsOf } from '../src';
import { errorOf, math } from './support';

describe('param("Name"): a parameter of the file\'s owner, one number over the file', () => {
  const speed = Float64Array.of(36, 72, 108);

  test('when a definition reads param, then it names the parameter and reads no channel of that name', () => {
    const compiled = math('"Ground Speed" / param("Ratio") + param(\'Offset\') * param("Ratio")');
    expect(compiled.inputs).toEqual(['Ground Speed']);
    expect(compiled.params).toEqual(['Ratio', 'Offset']);
    expect(mathReadsOf('"Ground Speed" / param("Ratio")')).toMatchObject({ inputs: ['Ground Speed'], params: ['Ratio'] });
    // Nothing of the time base beyond each sample: a constant.
    expect(expressionReach(compiled.ast).through.has('Ratio')).toBe(false);
  });

  test('when it is evaluated with the values given, then each is folded like a number written as digits', () => {
    const compiled = compile('"Ground Speed" / param("Ratio") + param("Offset")', { inputs: ['Ground Speed'], math: true, params: new Map([['Ratio', 3.6], ['Offset', 1]]) });
    expect([...compiled.evaluate({ 'Ground Speed': speed })]).toEqual([11, 21, 31]);
    expect(compiled.arrays).toBe(compile('"Ground Speed" / 3.6 + 1', { inputs: ['Ground Speed'], math: true }).arrays);
    // Inside a lookup's x, folded with the table.
    const table = compile('interp(param("Ratio"), 0, 0, 10, 100) + "Ground Speed"', { inputs: ['Ground Speed'], math: true, params: new Map([['Ratio', 2.5]]) });
    expect([...table.evaluate({ 'Ground Speed': speed })]).toEqual([61, 97, 133]);
  });

  test('when a value is missing, or none was given, then it is not evaluated with a made-up number', () => {
    expect(() => compile('param("Ratio") * X', { inputs: ['X'], math: true, params: new Map() })).toThrow('param("Ratio") has no value');
    const checked = compile('param("Ratio") * X', { inputs: ['X'], math: true });
    expect(() => checked.evaluate({ X: speed })).toThrow('compile it with options.params');
  });

  test.each([
    ['param(Throttle)', 6, "param's argument must be a parameter's name in quotes"],
    ['1 + param(2)', 10, "param's argument must be a parameter's name in quotes"],
    ['param("A" + "B")', 6, "param's argument must be a parameter's name in quotes"],
    ['param(pi)', 6, "param's argument must be a parameter's name in quotes"],
    ['param()', 0, 'param takes one argument'],
    ['param("A", "B")', 0, 'param takes one argument'],
    ['param("Gear Ratio")', 6, "param's name must be a parameter's name"],
    ['smooth(X, param("Width"))', 10, "smooth's seconds must be a positive number written as digits"],
    ['lookup(X, 1, param("R1"), 2, 2.05)', 13, "lookup's y1 must be a number written as digits"],
  ])('when %j is written, then it is refused at character %i: %s', (text, position, reason) => {
    const error = errorOf(() => math(text));
    expect(error.position).toBe(position);
    expect(error.reason).toContain(reason);
  });

  test('when param is used outside the math language (an MDF conversion), then it is an unknown function', () => {
    expect(errorOf(() => compile('param(X)', { inputs: ['X'] })).reason).toBe('unknown function param');
  });
});
