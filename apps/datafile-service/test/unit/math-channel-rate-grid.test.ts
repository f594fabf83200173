import { IDENTITY } from '@pitwall/channels';
import { evaluateMathChannels, rateGridLength, rateGridLengthBefore } from '../../src/workers/math-channels';
import type { StoredSlice } from '../../src/workers/shape-channels';

// A Rate's grid (docs/math-channels.md) runs from the inputs' first sample to their last, one point every 1 / Rate: its
// last point is the inputs' last sample when that is on the grid, even where times carry float noise.

/** n samples at `frequency` from `startTime` (seconds on the file's axis), values 0, 1, 2... */
function input(startTime: number, frequency: number, n: number): StoredSlice {
  return { name: 'x', unit: '', frequency, dimension: 1, startTime, samples: Float64Array.from({ length: n }, (_, i) => i), conversion: IDENTITY };
}

function evaluate(slice: StoredSlice, rate: number): StoredSlice {
  const span = { start: slice.startTime, end: slice.startTime + slice.samples.length / slice.frequency };
  return evaluateMathChannels({ channels: [{ name: 'y', unit: 'u' }], definitions: [{ name: 'y', expression: '"x" * 2' }], inputs: [slice], rate, span })[0] as StoredSlice;
}

describe('a math channel with a Rate', () => {
  test('when the file\'s times start at 100,000.37 s and the Rate is the input\'s 10 kHz, then the grid holds every sample, the last one too', () => {
    // 100000.37 + 2 / 10000 - 100000.37 is 0.00019999999494757503 s: 1.99999995 samples, not 2.
    for (const n of [3, 4, 6, 7, 9, 1000]) {
      const y = evaluate(input(100_000.37, 10_000, n), 10_000);
      expect(y.samples).toHaveLength(n);
      expect(y.samples[n - 1]).toBe(2 * (n - 1));
    }
  });

  test('when a channel reads no channel, then its grid holds the points of the half-open span [start, end), as a logged channel at its Rate holds its samples', () => {
    const grid = (span: { start: number; end: number }, rate: number) =>
      evaluateMathChannels({ channels: [{ name: 'y', unit: '' }], definitions: [{ name: 'y', expression: '1' }], inputs: [], rate, span })[0] as StoredSlice;
    expect(grid({ start: 100, end: 101 }, 10).samples).toHaveLength(10);
    expect(grid({ start: 100, end: 101 }, 10).startTime).toBe(100);
    expect(grid({ start: 100, end: 100.05 }, 10).samples).toHaveLength(1);
    // An empty span (a window before or after the file, clipped to it) has none.
    expect(grid({ start: 0, end: -999 }, 10).samples).toHaveLength(0);
    expect(grid({ start: 5, end: 5 }, 10).samples).toHaveLength(0);
    // Times from 1.7e9 s carry float noise of about 2e-7 s: a point that close to the end is at the end, left out.
    expect(rateGridLengthBefore(1.7e9, 1.7e9 + 1, 10)).toBe(10);
    expect(rateGridLengthBefore(1.7e9 + 0.3, 1.7e9 + 0.6, 10)).toBe(3);
    expect(rateGridLengthBefore(0, 1000, 0.001)).toBe(1);
    expect(rateGridLengthBefore(0, 1000.5, 0.001)).toBe(2);
  });

  test('when a window runs past the grid (no end, or from 1e300), then the points before its end are the grid\'s, counted in a few steps', () => {
    // Both searched forever: an end of Infinity made the bound Infinity, and above 2^53 mid + 1 did not move.
    expect(rateGridLengthBefore(0, Infinity, 3, 270)).toBe(270);
    expect(rateGridLengthBefore(0, 1e300, 3, 270)).toBe(270);
    expect(rateGridLengthBefore(0, 1e300, 3)).toBe(Number.MAX_SAFE_INTEGER);
    expect(rateGridLengthBefore(0, Infinity, 1e6)).toBe(Number.MAX_SAFE_INTEGER);
    // Within the grid, the bound changes nothing; a bound of none, none.
    expect(rateGridLengthBefore(0, 10, 3, 270)).toBe(30);
    expect(rateGridLengthBefore(0, 10, 3, 0)).toBe(0);
    expect(rateGridLengthBefore(0, NaN, 3, 270)).toBe(0);
  });

  test('when a span ends short of the next grid point by more than a nanosecond, then that point is not on the grid, at any Rate', () => {
    expect(rateGridLength(0.0002, 10_000)).toBe(3);
    expect(rateGridLength(0.00019999999494757503, 10_000)).toBe(3);
    // One point every 1000 s: a span 0.5 µs short of 1000 s holds the first point only (a tolerance in samples took 1000 s in).
    expect(rateGridLength(999.9999995, 0.001)).toBe(1);
    expect(rateGridLength(1000, 0.001)).toBe(2);
    expect(rateGridLength(0, 50)).toBe(1);
  });
});
