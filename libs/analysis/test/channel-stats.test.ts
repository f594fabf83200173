import { channelStats, sampleDurations } from '../src';

/** A regular channel at `hz` from t = 0: sample i at i / hz. */
const regular = (values: number[], hz: number) => ({ times: values.map((_, i) => i / hz), values, period: 1 / hz });

describe('channelStats', () => {
  test('when a channel holds one value over uneven steps, then its mean is that value exactly, and a mean never leaves the range of its values', () => {
    // Steps of 0.1, 0.3, 0.7 s... that do not add up exactly in binary: summed as values × time, 3 came back 3.0000000000001.
    const times = [0, 0.1, 0.4, 1.1, 1.3, 2.9, 3.05, 4.2];
    const constant = channelStats({ times, values: times.map(() => 3), period: 0.1 }, 0, 4.3);
    expect(constant).toMatchObject({ min: 3, max: 3, mean: 3 });
    const tenths = channelStats({ times, values: times.map(() => 0.1), period: 0.1 }, 0, 4.3);
    expect(tenths.mean).toBe(0.1);
    const mixed = channelStats({ times, values: [1e-9, 1e-9, 1e-9, 1e-9, 1e-9, 1e-9, 1e-9, 2e-9], period: 0.1 }, 0, 4.3);
    expect(mixed.mean).toBeGreaterThanOrEqual(1e-9);
    expect(mixed.mean).toBeLessThanOrEqual(2e-9);
  });

  test('when a 10 Hz channel is read over one lap, then min, max and mean are those of its samples in the lap, and the time above a threshold is 0.1 s per sample above it', () => {
    // 0 to 1.9 s: samples 10, 20, ..., 200; the lap [0.5, 1.5) holds samples 5..14: values 60..150.
    const series = regular(Array.from({ length: 20 }, (_, i) => 10 * (i + 1)), 10);
    const stats = channelStats(series, 0.5, 1.5, 100);
    expect(stats.min).toBe(60);
    expect(stats.max).toBe(150);
    // (60 + 150) / 2 for an arithmetic progression of 10 terms.
    expect(stats.mean).toBeCloseTo(105, 12);
    // Strictly above 100: 110, 120, ..., 150 are 5 samples of 0.1 s.
    expect(stats.timeAbove).toBeCloseTo(0.5, 12);
    expect(stats.samples).toBe(10);
  });

  test('when the samples are irregular, then the mean is weighted by how long each one holds', () => {
    // 0 holds 1 s (to t = 1), 10 holds 3 s (to t = 4), 4 holds its period of 1 s: (0·1 + 10·3 + 4·1) / 5 = 6.8.
    const stats = channelStats({ times: [0, 1, 4], values: [0, 10, 4], period: 1 }, 0, 10, 5);
    expect(stats.mean).toBeCloseTo(6.8, 12);
    expect(stats.timeAbove).toBeCloseTo(3, 12);
    expect([stats.min, stats.max]).toEqual([0, 10]);
  });

  test('when the channel has gaps, then they add neither a value nor time; a lap with no sample has nulls', () => {
    const stats = channelStats({ times: [0, 1, 2, 3], values: [2, NaN, 4, NaN], period: 1 }, 0, 4, 3);
    // 2 holds 1 s, 4 holds 1 s: mean 3, standard deviation 1; only 4 is above 3, for 1 s, and only 2 below it.
    expect(stats).toEqual({ min: 2, max: 4, mean: 3, stdDev: 1, timeAbove: 1, timeBelow: 1, samples: 2 });
    expect(channelStats({ times: [0, 1], values: [1, 2], period: 1 }, 5, 6)).toEqual({ min: null, max: null, mean: null, stdDev: null, timeAbove: null, timeBelow: null, samples: 0 });
    // With a threshold too: no sample says nothing of the time above it (not 0 s); nor does a lap of gaps only.
    expect(channelStats({ times: [0, 1], values: [1, 2], period: 1 }, 5, 6, 0)).toEqual({ min: null, max: null, mean: null, stdDev: null, timeAbove: null, timeBelow: null, samples: 0 });
    expect(channelStats({ times: [0, 1], values: [NaN, NaN], period: 1 }, 0, 2, 0)).toEqual({ min: null, max: null, mean: null, stdDev: null, timeAbove: null, timeBelow: null, samples: 0 });
  });

  test('when a window starts between two samples, then the one before holds into it and counts for that stretch (not in its minimum or maximum); a sample on its end (to the nanosecond) is the next window\'s', () => {
    // 10 Hz, values 10, 20, ...: the window [0.45, 0.95) holds the sample of 0.4 s for 0.05 s, then 0.5 to 0.9 s.
    const series = regular(Array.from({ length: 20 }, (_, i) => 10 * (i + 1)), 10);
    const stats = channelStats(series, 0.45, 0.95);
    // Its minimum and maximum are the window's own samples' (a read of it gives 60 to 100); 50 counts for its time.
    expect([stats.min, stats.max, stats.samples]).toEqual([60, 100, 5]);
    expect(stats.mean).toBeCloseTo((50 * 0.05 + (60 + 70 + 80 + 90) * 0.1 + 100 * 0.05) / 0.5, 12);
    // An end summed a few ulps past a sample (0.1 + 0.2 is 0.30000000000000004): that sample is not in the window.
    expect(channelStats(series, 0, 0.1 + 0.2).max).toBe(30);
    expect(channelStats(series, 0.1 + 0.2, 0.6).min).toBe(40);
  });

  test('when a sample would hold past the window end, then it is cut there', () => {
    // Samples at 0 and 2 (period 2); window [0, 3): the first holds 2 s, the second 1 s of its 2.
    expect(Array.from(sampleDurations({ times: [0, 2], period: 2 }, 0, 3))).toEqual([2, 1]);
  });
});

describe('channelStats over many windows', () => {
  /**
   * The report written plainly: every sample visited, with sampleDurations' holds; those inside the window (its ends to
   * the nanosecond) and the one before it that holds into it.
   */
  function reference(series: { times: number[]; values: number[]; period: number }, start: number, end: number, threshold: number) {
    const durations = sampleDurations(series, start, end);
    let [min, max, weighted, plain, time, above, below, count] = [Infinity, -Infinity, 0, 0, 0, 0, 0, 0];
    let carried: number | undefined;
    const inside: [number, number][] = [];
    series.values.forEach((v, i) => {
      const t = series.times[i] as number;
      const d = durations[i] as number;
      if (t >= end - 1e-9 || Number.isNaN(v) || (t < start - 1e-9 && !(d > 1e-9))) return;
      // The minimum and maximum of the window's own samples; the one carried in counts for its time.
      if (t < start - 1e-9) carried = v;
      else [min, max, count] = [Math.min(min, v), Math.max(max, v), count + 1];
      [weighted, plain, time] = [weighted + v * d, plain + v, time + d];
      if (v > threshold) above += d;
      if (v < threshold) below += d;
      inside.push([v, d]);
    });
    if (inside.length === 0) return { min: null, max: null, mean: null, stdDev: null, timeAbove: null, timeBelow: null, samples: 0 };
    if (count === 0) min = max = carried as number;
    const mean = time > 0 ? weighted / time : plain / inside.length;
    // Two passes: the squared differences from the mean, weighted as the mean is.
    const squares = inside.reduce((sum, [v, d]) => sum + (v - mean) ** 2 * (time > 0 ? d : 1), 0);
    return { min, max, mean, stdDev: Math.sqrt(squares / (time > 0 ? time : inside.length)), timeAbove: above, timeBelow: below, samples: count };
  }

  test('when irregular series with gaps are cut into random windows, then each window reports what visiting every sample did', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(random() * 40);
      const times: number[] = [];
      for (let i = 0, t = random(); i < n; i++, t += random() < 0.2 ? 0 : random()) times.push(t);
      const values = times.map(() => (random() < 0.15 ? NaN : Math.round(random() * 100)));
      const series = { times, values, period: 0.25 };
      const a = random() * 20 - 2;
      const b = a + random() * 10;
      const got = channelStats(series, a, b, 50);
      const want = reference(series, a, b, 50);
      const rounded = (x: number | null) => (x === null ? null : Number(x.toFixed(9)));
      expect({ round, ...got, mean: rounded(got.mean), stdDev: rounded(got.stdDev) }).toEqual({ round, ...want, mean: rounded(want.mean), stdDev: rounded(want.stdDev) });
    }
  });
});
