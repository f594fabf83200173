import { bestLap, sectorTimes, theoreticalBest, timeAtDistance } from '../src';

/** A lap at a constant `speed` m/s sampled every second for `seconds` s. */
const constant = (speed: number, seconds: number) => ({ times: Array.from({ length: seconds + 1 }, (_, i) => i), distances: Array.from({ length: seconds + 1 }, (_, i) => i * speed) });

describe('sector times', () => {
  test('when a car goes at 10 m/s, then it reaches 250 m at 25 s, between two samples', () => {
    expect(timeAtDistance(constant(10, 100), 250)).toBeCloseTo(25, 12);
    expect(timeAtDistance(constant(10, 100), 0)).toBe(0);
    expect(timeAtDistance(constant(10, 100), 5000)).toBeUndefined();
  });

  test('when sectors start at 0, 300 and 700 m on a 1000 m lap driven at 10 m/s, then they take 30, 40 and 30 s', () => {
    const times = sectorTimes(constant(10, 100), 100, [0, 300, 700]);
    expect(times.map((t) => Number(t?.toFixed(9)))).toEqual([30, 40, 30]);
    // Without the 0 listed, the first sector still starts at the lap's start.
    expect(sectorTimes(constant(10, 100), 100, [300, 700]).map((t) => Number(t?.toFixed(9)))).toEqual([30, 40, 30]);
  });

  test('when the car stands still, then the sector is timed from the moment it leaves', () => {
    // 0 m until t = 5 (standing), then 10 m/s: 100 m reached at t = 15.
    const trace = { times: [0, 5, 6, 15, 20], distances: [0, 0, 10, 100, 150] };
    expect(timeAtDistance(trace, 100)).toBe(15);
    expect(timeAtDistance(trace, 5)).toBeCloseTo(5.5, 12);
  });

  test('when a lap never reaches a sector start (an in-lap), then that sector and the one before it are null', () => {
    // 10 m/s for 50 s: 500 m, so 700 m is never reached.
    expect(sectorTimes(constant(10, 50), 50, [300, 700]).map((t) => (t === null ? null : Number(t.toFixed(9))))).toEqual([30, null, null]);
  });

  test('when three laps have sectors, then the theoretical best is the sum of the best of each, and the best lap the fastest', () => {
    const laps = [
      { lapIndex: 1, lapTime: 63, sectors: [20, 22, 21] },
      { lapIndex: 2, lapTime: 62.5, sectors: [21, 20.5, 21] },
      { lapIndex: 3, lapTime: 64, sectors: [19.5, 23, null] },
    ];
    // Best sectors: 19.5 (lap 3), 20.5 (lap 2), 21 (lap 1, first of the equal ones) = 61.
    expect(theoreticalBest(laps, 3)).toEqual({ lapTime: 61, sectors: [{ time: 19.5, lapIndex: 3 }, { time: 20.5, lapIndex: 2 }, { time: 21, lapIndex: 1 }] });
    expect(bestLap(laps)?.lapIndex).toBe(2);
  });

  test('when there are no sectors, or a sector is timed on no lap, then there is no theoretical best', () => {
    expect(theoreticalBest([{ lapIndex: 0, lapTime: 60 }], 0)).toBeUndefined();
    expect(theoreticalBest([{ lapIndex: 0, lapTime: 60, sectors: [30, null] }], 2)).toBeUndefined();
    expect(bestLap([])).toBeUndefined();
  });
});

describe('sectors that add up to their lap', () => {
  test('when the sector boundaries fall between nanoseconds, then the sectors of a lap add up to its lap time to the nanosecond, and so does a theoretical best made of one lap', () => {
    // The car reaches 300 m at 20.3000000004 s and 700 m at 41.6000000008 s: each sector rounded to the nanosecond on
    // its own (20.3, 21.3, 20.299999999) would add up to 61.899999999.
    const trace = { times: [0, 20.3000000004, 41.6000000008, 61.9], distances: [0, 300, 700, 1000] };
    const sectors = sectorTimes(trace, 61.9, [300, 700]) as number[];
    const ns = sectors.map((t) => Math.round(t * 1e9));
    expect(ns.reduce((a, b) => a + b, 0)).toBe(61_900_000_000);
    const best = theoreticalBest([{ lapIndex: 1, lapTime: 61.9, sectors }], 3) as { lapTime: number };
    expect(Math.round(best.lapTime * 1e9) / 1e9).toBe(61.9);
  });
});
