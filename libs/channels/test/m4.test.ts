import { decodeChannels, downsampleSeries, encodeChannels, m4, toChannelRecord, toReadRecord } from '../src';

/** Deterministic noise so the extremes fall anywhere in a bucket. */
function noisy(n: number, seed = 1): Float64Array {
  const out = new Float64Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = Math.sin(i / 50) * 100 + (x / 2147483648) * 40;
  }
  return out;
}

describe('M4 downsampling', () => {
  // Powers of two keep the times and bucket edges exact, so the test's index bucketing agrees with m4's time bucketing.
  const frequency = 128;
  const samples = noisy(8192);

  it.each([4, 40, 400, 1000, 1003])('when maxPoints is %i, then at most that many points come back and every bucket keeps its first, min, max and last', (maxPoints) => {
    const out = m4({ samples, startTime: 0, frequency }, { maxPoints, start: 0, end: 64 });
    expect(out.samples.length).toBeLessThanOrEqual(maxPoints);
    const buckets = Math.floor(maxPoints / 4);
    const kept = new Map<number, number>();
    out.times.forEach((t, k) => kept.set(Math.round(t * frequency), out.samples[k]));
    for (let b = 0; b < buckets; b++) {
      // Independent bucketing: sample i is in bucket floor(i / n × buckets) when the window is the whole series.
      const idx = [...samples.keys()].filter((i) => Math.min(buckets - 1, Math.floor((i / samples.length) * buckets)) === b);
      const values = idx.map((i) => samples[i]);
      const min = Math.min(...values);
      const max = Math.max(...values);
      expect(kept.get(idx[0])).toBe(samples[idx[0]]);
      expect(kept.get(idx[idx.length - 1])).toBe(samples[idx[idx.length - 1]]);
      const inBucket = [...kept.entries()].filter(([i]) => idx[0] <= i && i <= idx[idx.length - 1]).map(([, v]) => v);
      expect(Math.min(...inBucket)).toBe(min);
      expect(Math.max(...inBucket)).toBe(max);
      expect(inBucket.length).toBeLessThanOrEqual(4);
    }
    for (let k = 1; k < out.times.length; k++) expect(out.times[k]).toBeGreaterThan(out.times[k - 1]);
  });

  it('when the series has no more samples than maxPoints, then every sample comes back with its time', () => {
    const short = Float64Array.from([3, 1, 2]);
    const out = m4({ samples: short, startTime: 10, frequency: 2 }, { maxPoints: 8 });
    expect(Array.from(out.samples)).toEqual([3, 1, 2]);
    expect(Array.from(out.times)).toEqual([10, 10.5, 11]);
  });

  it('when a series with gaps comes back whole (at most maxPoints samples), then its gaps are gap points', () => {
    const out = m4({ samples: Float64Array.from([1, 0, 5, 9]), startTime: 0, frequency: 1, gaps: Uint8Array.from([0, 1, 0, 0]) }, { maxPoints: 4 });
    expect(Array.from(out.samples)).toEqual([1, NaN, 5, 9]);
    expect(Array.from(out.gaps ?? [])).toEqual([0, 1, 0, 0]);
  });

  it('when every sample of a series longer than maxPoints is a gap, then its first and last samples come back as gap points, not nothing', () => {
    const n = 1000;
    const out = m4({ samples: new Float64Array(n).fill(NaN), startTime: 5, frequency: 10 }, { maxPoints: 40 });
    expect(Array.from(out.times)).toEqual([5, 5 + (n - 1) / 10]);
    expect(Array.from(out.samples)).toEqual([NaN, NaN]);
    expect(Array.from(out.gaps ?? [])).toEqual([1, 1]);
    const flagged = m4({ samples: new Float64Array(n), startTime: 0, frequency: 10, gaps: new Uint8Array(n).fill(1) }, { maxPoints: 4 });
    expect(Array.from(flagged.gaps ?? [])).toEqual([1, 1]);
  });

  it('when the samples hold NaN and infinities a file stored, then they are gaps, not a bucket\'s extremes, and the finite minimum and maximum are kept', () => {
    // 64 samples in 4 buckets of 16 (maxPoints 20 with gaps: five a bucket); bucket 0 holds NaN, ±Infinity, 1e308 and -1e308.
    const samples = Float64Array.from({ length: 64 }, (_, i) => i % 16);
    samples[1] = NaN;
    samples[2] = Infinity;
    samples[3] = -Infinity;
    samples[5] = 1e308;
    samples[9] = -1e308;
    const out = m4({ samples, startTime: 0, frequency: 16 }, { maxPoints: 20, start: 0, end: 4 });
    const firstBucket = Array.from(out.samples).filter((_, k) => (out.times[k] as number) < 1);
    expect(firstBucket.filter(Number.isFinite)).toEqual([0, 1e308, -1e308, 15]);
    expect(firstBucket.some((v) => v === Infinity || v === -Infinity)).toBe(false);
    // The stored non-finite values are breaks: flagged as gaps, null in JSON.
    const gapTimes = Array.from(out.times).filter((_, k) => out.gaps?.[k] === 1);
    expect(gapTimes).toEqual([1 / 16]);
    const whole = m4({ samples: Float64Array.from([1, Infinity, 3]), startTime: 0, frequency: 1 }, { maxPoints: 4 });
    expect(Array.from(whole.gaps ?? [])).toEqual([0, 1, 0]);
  });

  it('when a gap spans bucket boundaries, then one gap point breaks the line there, and there are never more than maxPoints points', () => {
    // 10 Hz for 100 s with no data from 30 s to 60 s, read in 8 buckets (maxPoints 40, five a bucket with gaps).
    const n = 1000;
    const samples = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 7) * 100);
    const gaps = Uint8Array.from({ length: n }, (_, i) => (i >= 300 && i < 600 ? 1 : 0));
    const out = m4({ samples, startTime: 0, frequency: 10, gaps }, { maxPoints: 40 });
    expect(out.samples.length).toBeLessThanOrEqual(40);
    const gapAt = Array.from(out.gaps ?? []).flatMap((g, k) => (g ? [k] : []));
    expect(gapAt).toHaveLength(1);
    const k = gapAt[0] as number;
    expect([out.times[k - 1], out.times[k], out.times[k + 1]]).toEqual([29.9, 30, 60]);
    expect(out.samples[k]).toBeNaN();
    // Every other point is a present sample at its time.
    for (let j = 0; j < out.samples.length; j++) if (j !== k) expect(out.samples[j]).toBe(samples[Math.round((out.times[j] as number) * 10)]);
  });

  it('when a gappy series is downsampled for a read, then the gap point is null in its JSON record and flagged in its binary body', () => {
    const n = 1000;
    const series = { name: 'Speed', unit: 'km/h', frequency: 10, dimension: 1, startTime: 0, samples: Float64Array.from({ length: n }, (_, i) => i), gaps: Uint8Array.from({ length: n }, (_, i) => (i >= 300 && i < 600 ? 1 : 0)) };
    const shown = downsampleSeries(series, { maxPoints: 40 });
    const record = toChannelRecord(shown);
    const k = record.samples.indexOf(null);
    expect([record.samples[k - 1], record.samples[k], record.samples[k + 1]]).toEqual([299, null, 600]);
    expect(decodeChannels(encodeChannels([shown])).map(toReadRecord)).toEqual([record]);
  });

  it('when many short gaps alternate with data, then the points still never exceed maxPoints', () => {
    const n = 10_000;
    const gaps = Uint8Array.from({ length: n }, (_, i) => (i % 3 === 1 ? 1 : 0));
    for (const maxPoints of [4, 5, 9, 10, 41, 2000]) {
      const out = m4({ samples: Float64Array.from({ length: n }, (_, i) => i % 17), startTime: 0, frequency: 1, gaps }, { maxPoints });
      expect(out.samples.length).toBeLessThanOrEqual(maxPoints);
    }
  });

  it('when a gap lies between two kept samples of one bucket, then it is a gap point there', () => {
    const values = Float64Array.from([1, NaN, 5, 9, 2, 8, 0, 4, 3, 3, 3, 3, 3, 3, 3, 3]);
    const gaps = Uint8Array.from(values, (v) => (Number.isNaN(v) ? 1 : 0));
    const out = m4({ samples: values, startTime: 0, frequency: 1, gaps }, { maxPoints: 8 });
    expect(Array.from(out.samples)).toEqual([1, NaN, 9, 0, 3]);
    expect(Array.from(out.times)).toEqual([0, 1, 3, 6, 15]);
    expect(Array.from(out.gaps ?? [])).toEqual([0, 1, 0, 0, 0]);
  });

  it('when under 8 points are asked of a gappy series, then it is one bucket of its 4 points, without the gaps between them', () => {
    const values = Float64Array.from([1, NaN, 5, 9, 2, 8, 0, 4]);
    const gaps = Uint8Array.from([0, 1, 0, 0, 0, 0, 0, 0]);
    const out = m4({ samples: values, startTime: 0, frequency: 1, gaps }, { maxPoints: 4 });
    expect(Array.from(out.samples)).toEqual([1, 9, 0, 4]);
    expect(Array.from(out.times)).toEqual([0, 3, 6, 7]);
  });

  it('when gaps of any length lie anywhere, then no two consecutive points join across one, and the points never exceed maxPoints', () => {
    // A 100 Hz channel of 2,000 samples; gap runs placed by a fixed pseudo-random sequence, one of them 1.2 s long.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const n = 2000;
    const gaps = new Uint8Array(n);
    for (let i = 300; i < 420; i++) gaps[i] = 1;
    for (let run = 0; run < 40; run++) {
      const at = Math.floor(random() * n);
      for (let i = at; i < Math.min(n, at + 1 + Math.floor(random() * 4)); i++) gaps[i] = 1;
    }
    const samples = Float64Array.from({ length: n }, (_, i) => (gaps[i] ? NaN : Math.sin(i / 50) * 100 + random()));
    for (const maxPoints of [8, 9, 20, 41, 100, 399, 1999]) {
      const out = m4({ samples, startTime: 0, frequency: 100, gaps }, { maxPoints });
      expect(out.samples.length).toBeLessThanOrEqual(maxPoints);
      const indexOf = (k: number) => Math.round((out.times[k] as number) * 100);
      for (let k = 1; k < out.samples.length; k++) {
        if (out.gaps?.[k] || out.gaps?.[k - 1]) continue;
        const joined = gaps.subarray(indexOf(k - 1), indexOf(k)).includes(1);
        expect([maxPoints, out.times[k - 1], out.times[k], joined]).toEqual([maxPoints, out.times[k - 1], out.times[k], false]);
      }
    }
  });

  it('when times are explicit, then buckets follow the times, not the indices', () => {
    const times = Float64Array.from([0, 0.1, 0.2, 0.3, 9, 9.5, 9.9, 9.95, 9.97]);
    const values = Float64Array.from([5, 1, 7, 3, 2, 6, 4, 8, 5]);
    const out = m4({ samples: values, times, startTime: 0, frequency: 1 }, { maxPoints: 4, start: 0, end: 10 });
    expect(Array.from(out.samples)).toEqual([5, 1, 8, 5]);
    const seven = m4({ samples: values, times, startTime: 0, frequency: 1 }, { maxPoints: 7, start: 0, end: 10 });
    expect(Array.from(seven.samples)).toEqual([5, 1, 8, 5]);
    const two = m4({ samples: values, times, startTime: 0, frequency: 1 }, { maxPoints: 8, start: 0, end: 10 });
    expect(Array.from(two.samples)).toEqual([5, 1, 7, 3, 2, 8, 5]);
  });

  it('when maxPoints is below 4 or not an integer, then m4 refuses it', () => {
    expect(() => m4({ samples, startTime: 0, frequency }, { maxPoints: 3 })).toThrow(RangeError);
    expect(() => m4({ samples, startTime: 0, frequency }, { maxPoints: 10.5 })).toThrow(RangeError);
  });

  it('when a series is downsampled, then it carries times, no gaps and its source rate', () => {
    const series = downsampleSeries({ name: 'S', unit: 'u', frequency, dimension: 1, startTime: 2, samples }, { maxPoints: 40 });
    expect(series.times?.length).toBe(series.samples.length);
    expect(series.startTime).toBe(2);
    expect(series.frequency).toBe(frequency);
    expect(series.gaps).toBeUndefined();
  });

  it('when a raw series is downsampled, then the points are its converted values', () => {
    const raw = { name: 'R', unit: 'u', frequency: 1, dimension: 1, startTime: 0, samples: Int16Array.from([10, 30, 20, 0, 50]), conversion: { numerator: 1, denominator: 10, offset: 1 } };
    expect(Array.from(downsampleSeries(raw, { maxPoints: 4 }).samples)).toEqual([2, 1, 6]);
  });
});

describe('M4 times', () => {
  it.each([
    ['float64', Float64Array.from({ length: 1000 }, (_, i) => Math.sin(i / 7))],
    ['int16', Int16Array.from({ length: 1000 }, (_, i) => Math.round(Math.sin(i / 7) * 1000))],
  ])('when a %s series at 10 Hz starts at 0.1 s, then every point is at its time to the nanosecond, without floating-point residue', (_type, samples) => {
    const out = downsampleSeries({ name: 'c', unit: 'u', frequency: 10, dimension: 1, startTime: 0.1, samples }, { maxPoints: 40 });
    const times = Array.from(out.times as Float64Array);
    expect(times.length).toBeGreaterThan(0);
    // Each is the shortest decimal of its tenth of a second (0.1 + 2 / 10 computes 0.30000000000000004).
    for (const t of times) expect(String(t)).toBe((Math.round(t * 10) / 10).toString());
  });
});

describe('M4 on stored int16 values (the fast path of downsampleSeries)', () => {
  /** Int16 values from a small range, so equal values (ties for the extremes) are frequent. */
  function int16s(n: number, seed: number, range: number): Int16Array {
    const out = new Int16Array(n);
    let x = seed;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      out[i] = Math.round(Math.sin(i / 300) * range) + (x % 7) - 3;
    }
    return out;
  }

  it.each([
    [{ numerator: 1, denominator: 10, offset: 0 }, 400, undefined],
    [{ numerator: -3, denominator: 7, offset: 1.5 }, 2000, undefined],
    [{ numerator: 6, denominator: 10, offset: -40 }, 41, { start: 3.3, end: 90.1 }],
    [undefined, 1000, { start: -5, end: 50 }],
  ])('when the series is int16 with conversion %j, then the points are those of M4 over the physical values', (conversion, maxPoints, window) => {
    const samples = int16s(100_003, 7, 30);
    const series = { name: 'c', unit: 'u', frequency: 1000, dimension: 1, startTime: 2.5, samples, ...(conversion ? { conversion } : {}) };
    const fast = downsampleSeries(series, { maxPoints, ...(window ?? {}) });
    const physical = conversion ? Float64Array.from(samples, (v) => (v * conversion.numerator) / conversion.denominator + conversion.offset) : Float64Array.from(samples);
    const general = m4({ samples: physical, startTime: 2.5, frequency: 1000 }, { maxPoints, ...(window ?? {}) });
    expect(fast.samples.length).toBeLessThanOrEqual(maxPoints);
    expect(Array.from(fast.times as Float64Array)).toEqual(Array.from(general.times));
    expect(Array.from(fast.samples)).toEqual(Array.from(general.samples));
  });
});
