import { splitChanges, splitSectorsOfLaps, SPLIT_LOG_DELAY, type SplitChange } from '../src';

/** One lap's sectors, as the first lap of a read (no lap before it whose chain is known). */
const splitSectorTimes = (changes: readonly SplitChange[], lap: { startTime: number; endTime: number }, period: number) => splitSectorsOfLaps(changes, [lap], period)[0];

/**
 * A logger's split time channel at `rate` Hz: 0 until the first split, then each split's time from the sample that
 * logs it, `delay` s after its crossing (rounded up to the next sample).
 */
function splitChannel(crossings: { at: number; split: number }[], seconds: number, rate: number, delay: number): { times: Float64Array; values: Float64Array } {
  const times = Float64Array.from({ length: seconds * rate }, (_, i) => i / rate);
  const values = times.map((t) => {
    let value = 0;
    for (const c of crossings) if (Math.ceil((c.at + delay) * rate) / rate <= t) value = c.split;
    return value;
  });
  return { times, values };
}

describe('sector times from a logger\'s split times', () => {
  // Laps as Sample1.ld has them: out-lap to 94.14 s, flying laps of 65.17 and 63.68 s, each of three splits.
  const laps = [
    { startTime: 0, endTime: 94.14 },
    { startTime: 94.14, endTime: 159.31 },
    { startTime: 159.31, endTime: 222.99 },
    { startTime: 222.99, endTime: 300 },
  ];
  const splits = [
    [18.89, 32.84, 13.44],
    [18.28, 31.88, 13.52],
  ];
  const crossings: { at: number; split: number }[] = [{ at: 40, split: 25.5 }];
  let at = 94.14;
  for (const lap of splits) for (const split of lap) crossings.push({ at: (at += split), split });

  it.each([[1, 2.2], [10, 0.3], [1, 0]])('when the logger logs each split at %i Hz %f s after its crossing, then each flying lap\'s sectors are its splits, adding up to the lap', (rate, delay) => {
    const { times, values } = splitChannel(crossings, 300, rate, delay);
    const changes = splitChanges(times, values);
    const lap1 = splitSectorTimes(changes, laps[1] as (typeof laps)[number], 1 / rate) as number[];
    expect(lap1.slice(0, 2)).toEqual([18.89, 32.84]);
    expect(lap1[2]).toBeCloseTo(65.17 - 18.89 - 32.84, 9);
    const lap2 = splitSectorTimes(changes, laps[2] as (typeof laps)[number], 1 / rate) as number[];
    expect(lap2.slice(0, 2)).toEqual([18.28, 31.88]);
    expect(lap2.reduce((a, b) => a + b, 0)).toBeCloseTo(63.68, 9);
  });

  it('when a lap is the out-lap (its splits do not start at its start) or the in-lap (it ends in the pits), then it has no split sectors', () => {
    const { times, values } = splitChannel(crossings, 300, 1, 2.2);
    const changes = splitChanges(times, values);
    expect(splitSectorTimes(changes, laps[0] as (typeof laps)[number], 1)).toBeUndefined();
    expect(splitSectorTimes(changes, laps[3] as (typeof laps)[number], 1)).toBeUndefined();
  });

  it('when a split beacon was missed (two splits logged as one) or a split is logged too late, then the lap still adds up, or has none', () => {
    // The second lap's first beacon missed: its first split is the first two together.
    const missed = crossings.filter((c) => !(c.split === 18.28)).map((c) => (c.split === 31.88 ? { ...c, split: 18.28 + 31.88 } : c));
    const a = splitChanges(...(Object.values(splitChannel(missed, 300, 1, 2.2)) as [Float64Array, Float64Array]));
    const lap2 = splitSectorTimes(a, laps[2] as (typeof laps)[number], 1) as number[];
    expect(lap2).toHaveLength(2);
    expect(lap2[0]).toBeCloseTo(50.16, 9);
    const tooLate = splitChanges(...(Object.values(splitChannel(crossings, 300, 1, SPLIT_LOG_DELAY + 2)) as [Float64Array, Float64Array]));
    expect(splitSectorTimes(tooLate, laps[1] as (typeof laps)[number], 1)).toBeUndefined();
  });

  it('when a lap\'s last sector is shorter than the logger\'s delay, then the lap before\'s last split (logged after the line) is not taken as its first: the sectors are not rotated', () => {
    // 60 s laps of 25, 33.5 and 1.5 s, each split logged 2 s after its crossing at 10 Hz (a review's case).
    const short: { at: number; split: number }[] = [];
    let t = 10;
    for (let lap = 0; lap < 3; lap++) for (const split of [25, 33.5, 1.5]) short.push({ at: (t += split), split });
    const changes = splitChanges(...(Object.values(splitChannel(short, 200, 10, 2)) as [Float64Array, Float64Array]));
    // The lap before's 33.5 and 1.5 are both logged after the next lap's line (at 70.5 and 72 s for the line at 70 s).
    const laps = [10, 70, 130].map((start) => ({ startTime: start, endTime: start + 60 }));
    const sectors = splitSectorsOfLaps(changes, laps, 0.1).map((lap) => lap?.map((s) => Number(s.toFixed(9))));
    expect(sectors).toEqual([
      [25, 33.5, 1.5],
      [25, 33.5, 1.5],
      [25, 33.5, 1.5],
    ]);
  });

  it('when the split channel never changes, then there are no changes and no sectors', () => {
    const flat = splitChanges(Float64Array.from([0, 1, 2]), Float64Array.from([0, 0, 0]));
    expect(flat).toEqual([]);
    expect(splitSectorTimes(flat, { startTime: 0, endTime: 2 }, 1)).toBeUndefined();
    expect(splitChanges(Float64Array.from([0, 1, 2, 3]), Float64Array.from([1, NaN, 1, 2]))).toEqual([{ time: 3, value: 2 }]);
  });
});
