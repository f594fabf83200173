import { onFastestTimeBase } from '../src';

describe('onFastestTimeBase', () => {
  test('when a 4 Hz channel meets a 2 Hz one, then both come on the 4 Hz times, the slower one linear between its samples and NaN past its last', () => {
    const fast = { times: [0, 0.25, 0.5, 0.75, 1, 1.25], values: [1, 2, 3, 4, 5, 6], discrete: false };
    const slow = { times: [0, 0.5, 1], values: [0, 10, 30], discrete: false };
    const { base, times, values } = onFastestTimeBase([slow, fast]);
    expect(base).toBe(1);
    expect(Array.from(times)).toEqual(fast.times);
    expect(Array.from(values[1] as Float64Array)).toEqual(fast.values);
    // Halfway between 0 and 10 at 0.25 s, between 10 and 30 at 0.75 s; 1.25 s is past the slow channel's last sample.
    expect(Array.from(values[0] as Float64Array)).toEqual([0, 5, 10, 20, 30, NaN]);
  });

  test('when the slower channel is discrete, then its last value is held', () => {
    const fast = { times: [0, 0.25, 0.5, 0.75, 1], values: [0, 0, 0, 0, 0], discrete: false };
    const gear = { times: [0, 0.5, 1], values: [2, 3, 4], discrete: true };
    expect(Array.from(onFastestTimeBase([fast, gear]).values[1] as Float64Array)).toEqual([2, 2, 3, 3, 4]);
  });
});
