import { inspect } from 'node:util';

/**
 * Expects `got` to be `expected`, sample for sample, as `toEqual` compares two arrays of numbers and nulls: the same
 * length, and each value `Object.is` the other (so -0 is not 0, and NaN is NaN). Compared in a loop: `toEqual` takes
 * each element through its generic matcher, a second or more for a channel of 200,000 samples on a loaded machine.
 * A difference fails naming `label`, the first index that differs, the values there and both lengths.
 */
export function expectSamples(label: string, got: readonly (number | null)[], expected: readonly (number | null)[]): void {
  let at = 0;
  while (at < got.length && at < expected.length && Object.is(got[at], expected[at])) at++;
  const difference = at < got.length || at < expected.length ? `at sample ${at}: ${inspect(got[at])} (of ${got.length} samples), expected ${inspect(expected[at])} (of ${expected.length})` : undefined;
  expect([label, difference]).toEqual([label, undefined]);
}
