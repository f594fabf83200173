import { displayNumber } from '../../src/display-number';

describe('numbers as the page shows them', () => {
  test('when a computed value carries float noise, then it is shown to its significant digits, without trailing zeros', () => {
    expect(displayNumber(50.00000000000012)).toBe('50');
    expect(displayNumber(167.21999999999997)).toBe('167.22');
    expect(displayNumber(0.1 + 0.2)).toBe('0.3');
    expect(displayNumber(-0.0031200000000000004)).toBe('-0.00312');
    expect(displayNumber(2.718281828, 3)).toBe('2.72');
  });

  test('when a value is large, zero or not finite, then it is a whole number without an exponent, 0 (never -0), or says so', () => {
    expect(displayNumber(12345.678)).toBe('12346');
    expect(displayNumber(1234567.89)).toBe('1234568');
    expect(displayNumber(1.5e21)).toBe('1500000000000000000000');
    expect(displayNumber(-(2 ** 60))).toBe('-1152921504606846976');
    expect(displayNumber(-0)).toBe('0');
    expect(displayNumber(-0.000001, 1)).toBe('-0.000001');
    expect(displayNumber(Number.NaN)).toBe('NaN');
  });
});
