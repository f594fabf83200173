import { integrateDistance, lapDelta } from '../src';

describe('lapDelta', () => {
  it('when the lap is slower in its second half, then the delta grows from zero to the time lost', () => {
    // Reference: 10 m/s for 10 s, 100 m. Lap: 10 m/s for the first 50 m (5 s), then 5 m/s for the last 50 m (10 s).
    // On 5 points over 0..100 m: 0, 25, 50, 75, 100 m.
    //   reference times: 0, 2.5, 5, 7.5, 10 s
    //   lap times:       0, 2.5, 5, 5 + 25/5 = 10, 5 + 50/5 = 15 s
    //   delta:           0, 0, 0, 2.5, 5 s
    const reference = { times: [0, 10], distances: [0, 100] };
    const lap = { times: [0, 5, 15], distances: [0, 50, 100] };
    const { distance, delta } = lapDelta(lap, reference, 5);
    expect(Array.from(distance)).toEqual([0, 25, 50, 75, 100]);
    expect(Array.from(delta)).toEqual([0, 0, 0, 2.5, 5]);
  });

  it('when the laps differ in length, then the grid ends at the shorter one', () => {
    // Reference 0..80 m in 8 s (10 m/s); lap 0..100 m in 5 s (20 m/s). Grid 0, 40, 80 m.
    //   lap times 0, 2, 4; reference 0, 4, 8; delta 0, −2, −4 (the lap is ahead).
    const { distance, delta } = lapDelta({ times: [0, 5], distances: [0, 100] }, { times: [0, 8], distances: [0, 80] }, 3);
    expect(Array.from(distance)).toEqual([0, 40, 80]);
    expect(Array.from(delta)).toEqual([0, -2, -4]);
  });

  it('when distances are integrated from speed, then the delta matches the hand-computed times', () => {
    // Reference at 72 km/h = 20 m/s for 5 s → 100 m. Lap at 36 km/h = 10 m/s for 2 s (20 m), then 20 m/s from 3 s (the
    // speed ramps 10 → 20 m/s over [2, 3]: (10 + 20) / 2 × 1 = 15 m, so 35 m at 3 s), reaching 100 m at 3 + 65/20 = 6.25 s.
    // At 100 m: lap 6.25 s − reference 5 s = 1.25 s. At 20 m: lap 2 s − reference 1 s = 1 s.
    const refTimes = [0, 1, 2, 3, 4, 5];
    const reference = { times: refTimes, distances: integrateDistance(refTimes, [72, 72, 72, 72, 72, 72], 'km/h') };
    const lapTimes = [0, 1, 2, 3, 4, 5, 6, 7];
    const lapDistances = integrateDistance(lapTimes, [36, 36, 36, 72, 72, 72, 72, 72], 'km/h');
    expect(Array.from(lapDistances)).toEqual([0, 10, 20, 35, 55, 75, 95, 115]);
    const { distance, delta } = lapDelta({ times: lapTimes, distances: lapDistances }, reference, 6);
    expect(Array.from(distance)).toEqual([0, 20, 40, 60, 80, 100]);
    // Lap times at 0, 20, 40, 60, 80, 100 m: 0, 2, 3 + 5/20 = 3.25, 4.25, 5.25, 6.25. Reference: 0, 1, 2, 3, 4, 5.
    const expected = [0, 1, 1.25, 1.25, 1.25, 1.25];
    delta.forEach((d, k) => expect(d).toBeCloseTo(expected[k], 12));
  });

  it('when a lap is compared with itself, then the delta is zero everywhere', () => {
    const times = [0, 0.5, 1, 1.5, 2];
    const distances = integrateDistance(times, [100, 120, 90, 150, 160], 'km/h');
    const { delta } = lapDelta({ times, distances }, { times, distances }, 50);
    expect(delta.length).toBe(50);
    delta.forEach((d) => expect(d).toBe(0));
  });

  it('when the distance steps backwards or has gaps, then the lap still reaches each distance once', () => {
    // Distance 0, 10, 9 (noise: lifted to 10), NaN (left out), 30 at times 0..4 s. Reference: 0..30 m in 3 s.
    // At 15 m: the lap is between (2 s, 10 m) and (4 s, 30 m): 2 + 2 × 5/20 = 2.5 s; reference 1.5 s; delta 1 s.
    const { distance, delta } = lapDelta({ times: [0, 1, 2, 3, 4], distances: [0, 10, 9, NaN, 30] }, { times: [0, 3], distances: [0, 30] }, 3);
    expect(Array.from(distance)).toEqual([0, 15, 30]);
    expect(Array.from(delta)).toEqual([0, 1, 1]);
  });

  it('when the laps do not start on a sample, then both are compared from their line (0 s, 0 m), not from their first samples', () => {
    // Both at 10 m/s from the line; the lap's first sample is 0.69 s in (6.9 m), the reference's 0.2 s (2 m). Compared
    // from their first samples, the delta would start at 0.49 s; from the line it is 0 throughout.
    const lap = { times: [0.69, 1.69, 2.69], distances: [6.9, 16.9, 26.9] };
    const reference = { times: [0.2, 1.2, 2.2], distances: [2, 12, 22] };
    const { distance, delta } = lapDelta(lap, reference, 5);
    expect(distance[0]).toBe(0);
    expect(distance[4]).toBe(22);
    delta.forEach((d) => expect(d).toBeCloseTo(0, 12));
  });

  it('when either lap has no distance, then the trace is empty; when points is below 2, then it throws', () => {
    expect(lapDelta({ times: [0], distances: [0] }, { times: [0, 1], distances: [0, 10] }).distance.length).toBe(0);
    expect(() => lapDelta({ times: [0, 1], distances: [0, 1] }, { times: [0, 1], distances: [0, 1] }, 1)).toThrow(RangeError);
  });
});
