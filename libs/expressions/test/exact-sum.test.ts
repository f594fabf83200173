import { seededRandom } from '@pitwall/random';
import { ExactSum, WindowSum } from '../src/exact-sum';

/**
 * The reference: doubles of magnitude 2^-60 to 2^60 as integers of 2^-112 (exact in a BigInt), summed exactly; the
 * BigInt's conversion to a Number rounds to nearest, ties to even, and the scaling back by a power of two is exact.
 */
const UNIT = 112;
function exactScaled(value: number): bigint {
  if (value === 0) return 0n;
  const bits = new DataView(new Float64Array([value]).buffer).getBigUint64(0, true);
  const exponent = Number((bits >> 52n) & 0x7ffn) - 1075;
  const mantissa = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  const scaled = mantissa << BigInt(exponent + UNIT);
  return value < 0 ? -scaled : scaled;
}
const rounded = (sum: bigint): number => Number(sum) * 2 ** -UNIT;

/** A double of random magnitude (2^-60..2^60), sign and mantissa, or a decimal as a logger writes it. */
function randomValue(random: () => number): number {
  if (random() < 0.3) return Math.round(random() * 20_000 - 10_000) / 10;
  const value = (1 + random()) * 2 ** Math.floor(random() * 120 - 60);
  return random() < 0.5 ? -value : value;
}

describe('ExactSum', () => {
  test('when values are added and taken away in a random order, then its value is the exact sum correctly rounded, every time', () => {
    const random = seededRandom(46);
    const sum = new ExactSum();
    const held: number[] = [];
    let exact = 0n;
    let checked = 0;
    for (let step = 0; step < 20_000; step++) {
      if (held.length > 0 && random() < 0.45) {
        const value = held.splice(Math.floor(random() * held.length), 1)[0] as number;
        sum.add(-value);
        exact -= exactScaled(value);
      } else {
        const value = randomValue(random);
        held.push(value);
        sum.add(value);
        exact += exactScaled(value);
      }
      if (sum.value() !== rounded(exact)) throw new Error(`step ${step}: ${sum.value()} is not ${rounded(exact)}, the exact sum of ${held.length} values rounded`);
      checked++;
    }
    expect(checked).toBe(20_000);
  });

  test('when a sum is a tie at its last bit, then the partials below decide, as one correctly rounded addition would', () => {
    const up = new ExactSum();
    for (const v of [1, 2 ** -53, 2 ** -106]) up.add(v);
    // 1 + 2^-53 alone is a tie (to even: 1); the 2^-106 beneath it puts it over.
    expect(up.value()).toBe(1 + 2 ** -52);
    const down = new ExactSum();
    for (const v of [1, 2 ** -53, -(2 ** -106)]) down.add(v);
    expect(down.value()).toBe(1);
    expect([1, 2 ** -53, 2 ** -106].reduce((a, b) => a + b)).toBe(1);
  });

  test('when everything added is taken away again, then it is 0, whatever passed through', () => {
    const sum = new ExactSum();
    const values = [1e17, 0.1, -3e-30, 7, 2 ** 60, 0.3];
    for (const v of values) sum.add(v);
    for (const v of values.reverse()) sum.add(-v);
    expect(sum.value()).toBe(0);
  });
});

describe('WindowSum', () => {
  test('when the values are near the largest double, then the mean is theirs, not an infinity from their sum', () => {
    const window = new WindowSum();
    window.add(1.7e308);
    window.add(1.7e308);
    expect(window.mean(2)).toBe(1.7e308);
    window.add(-1.7e308);
    window.add(5);
    expect(window.mean(4)).toBe((1.7e308 + 5) / 4);
    window.remove(1.7e308);
    window.remove(1.7e308);
    window.remove(-1.7e308);
    expect(window.mean(1)).toBe(5);
  });
});
