import { seededRandom } from '../src';

describe('seededRandom', () => {
  test('when two generators share a seed, then they give the same numbers, in [0, 1); another seed gives others', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    const other = seededRandom(43);
    expect(Array.from({ length: 1000 }, () => other())).not.toEqual(first);
  });

  test('when many numbers are drawn, then every tenth of [0, 1) gets its share', () => {
    const next = seededRandom(7);
    const tenths = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) tenths[Math.floor(next() * 10)]++;
    for (const count of tenths) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });
});
