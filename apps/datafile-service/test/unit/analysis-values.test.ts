import { IDENTITY } from '@pitwall/channels';
import { analyse, type AnalysisTask } from '../../src/workers/analysis';
import type { StoredSlice } from '../../src/workers/shape-channels';

// The analysis reads' arithmetic on what a float channel may store besides numbers: an infinite value (an MDF or .ld
// float channel can hold one) is no sample, as a gap is: JSON has no number for it, and a bin, an axis or a mean
// holding it would be meaningless.

const echo = { entityId: 'e', entityType: 'RunSheets', attachedFileGroupName: 'DataFile' };

/** A 10 Hz float64 channel of these values from t = 0. */
const slice = (name: string, values: readonly number[]): StoredSlice => ({ name, unit: 'u', frequency: 10, dimension: 1, startTime: 0, samples: Float64Array.from(values), conversion: IDENTITY });

// Tests look into the answers' JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const run = (task: AnalysisTask): any => JSON.parse(new TextDecoder().decode(analyse(task)));

describe('the analysis reads over a channel holding infinities', () => {
  const values = [1, Infinity, 3, -Infinity, 5];

  test('when a histogram is asked, then the infinite values are neither binned nor counted, and the edges span the numbers', () => {
    const body = run({ op: 'histogram', echo, lapIndex: null, slice: slice('x', values), bins: 2 });
    expect(body).toMatchObject({ edges: [1, 3, 5], counts: [1, 2], below: 0, above: 0, total: 3 });
  });

  test('when lap statistics are asked, then min, max, mean, standard deviation and times above and below leave them out', () => {
    const body = run({ op: 'lapStats', echo, laps: [{ lapIndex: 0, kind: 'flying', startTime: 0, endTime: 0.5 }], file: { startTime: 0, endTime: 0.5 }, channels: [{ name: 'x', unit: 'u', threshold: 2, slice: slice('x', values) }] });
    // 1, 3 and 5 held 0.1 s each: the deviations -2, 0 and 2 give a variance of 8/3.
    expect(body.laps[0].channels[0]).toEqual({ name: 'x', min: 1, max: 5, mean: 3, stdDev: expect.closeTo(Math.sqrt(8 / 3), 12), timeAbove: 0.2, timeBelow: 0.1 });
  });

  test('when a scatter is asked, then no pair holding one is a point, and the grid\'s axes are numbers', () => {
    const pairs = run({ op: 'scatter', echo, lapIndex: null, slices: [slice('x', values), slice('y', [1, 2, 3, 4, 5])], discrete: [false, false], roles: { x: 0, y: 1 }, maxPoints: 10, gridSize: 4 });
    expect(pairs).toMatchObject({ kind: 'points', count: 3, points: { x: [1, 3, 5], y: [1, 3, 5] } });
    const grid = run({ op: 'scatter', echo, lapIndex: null, slices: [slice('x', values), slice('y', [1, 2, 3, 4, 5])], discrete: [false, false], roles: { x: 0, y: 1 }, maxPoints: 1, gridSize: 4 });
    expect(grid).toMatchObject({ kind: 'density', count: 3, grid: { xAxis: { min: 1, max: 5 } } });
  });
});

describe('lap statistics per sector (perSector)', () => {
  /** Four 20 s laps at 10 Hz (out, flying, flying, in); `x` reads its own time, so a span's minimum and maximum are its first and last sample's times. */
  const laps = [0, 1, 2, 3].map((k) => ({ lapIndex: k, kind: (['out', 'flying', 'flying', 'in'] as const)[k] as 'out' | 'flying' | 'in', startTime: k * 20, endTime: (k + 1) * 20 }));
  const time = Array.from({ length: 800 }, (_, i) => i / 10);
  const file = { startTime: 0, endTime: 80 };
  const x = { name: 'x', unit: 's', threshold: null, slice: slice('x', time) };
  /** Splits of 5, 7 and 8 s on the flying laps, each logged 1.5 s after its crossing (MoTeC's Split Time). */
  const crossings = [20, 40].flatMap((start) => [5, 7, 8].map((split, k) => ({ at: start + ([5, 12, 20][k] as number), split })));
  const splitTime = { slice: { ...slice('Split Time', time.map((t) => crossings.filter((c) => c.at + 1.5 <= t + 1e-9).at(-1)?.split ?? 0)), unit: 's' } };

  test("when the sectors are the logger's splits, then each flying lap's channel has its figures over each split, and the out- and in-lap's sectors are null", () => {
    const body = run({ op: 'lapStats', echo, laps, file, channels: [x], splits: splitTime, perSector: { maxCells: 1_000 } });
    expect(body.sectorStatisticsNote).toBeNull();
    const [out, lap1, lap2, inLap] = body.laps;
    for (const [lap, start] of [[lap1, 20], [lap2, 40]] as const) {
      expect(lap.sectorTimes).toEqual([5, 7, 8]);
      const sectors = lap.channels[0].sectors;
      expect(sectors.map((s: { min: number; max: number }) => [s.min, s.max])).toEqual([
        [start, start + 4.9],
        [start + 5, start + 11.9],
        [start + 12, start + 19.9],
      ]);
    }
    expect(out.channels[0].sectors).toEqual([null, null, null]);
    expect(inLap.channels[0].sectors).toEqual([null, null, null]);
  });

  test('when laps × channels × (1 + sectors) pass the bound, then the figures per sector are left out and the note says why, the lap figures kept', () => {
    // 4 laps × 1 channel × (1 + 3 splits) = 16.
    const body = run({ op: 'lapStats', echo, laps, file, channels: [x], splits: splitTime, perSector: { maxCells: 15 } });
    expect(body.sectorStatisticsNote).toBe('4 laps × 1 channels × (1 + 3 sectors) are 16 lap statistics, more than one answer holds (LAPSTATS_MAX_CELLS is 15): the per-sector statistics are left out; ask fewer channels at once');
    expect(body.laps[1].channels[0]).toMatchObject({ min: 20, max: 39.9, sectors: null });
    expect(run({ op: 'lapStats', echo, laps, file, channels: [x], splits: splitTime, perSector: { maxCells: 16 } }).sectorStatisticsNote).toBeNull();
  });

  test('when the lap never reaches a sector\'s start, then that sector and the ones after it have null figures', () => {
    // Lap Distance 5 m a sample from each lap's start: lap 1 reaches 600 m 12 s in; the in-lap (into the pits) stops at
    // 400 m, never reaching the sector from 600 m.
    const distance = time.map((_, i) => Math.min((i % 200) * 5, i >= 600 ? 400 : Infinity));
    const sectors = { slice: { ...slice('Lap Distance', distance), unit: 'm' }, source: { kind: 'channel' as const, channel: 'Lap Distance' }, startDistances: [0, 600] };
    const body = run({ op: 'lapStats', echo, laps, file, channels: [x], sectors, perSector: { maxCells: 1_000 } });
    const [first, last] = body.laps[1].channels[0].sectors;
    expect([first.min, first.max, last.min, last.max]).toEqual([20, 31.9, 32, 39.9]);
    expect(body.laps[3].sectorTimes[1]).toBeNull();
    expect(body.laps[3].channels[0].sectors[1]).toBeNull();
    expect(body.laps[3].channels[0].sectors[0]).toBeNull();
  });
});

describe('per-sector figures make the lap\'s', () => {
  test('when a sector boundary falls between two samples, then the stretch from it to the next sample counts in the sector it starts, so the sectors\' means and times add up to the lap\'s', () => {
    // One 20 s lap at 10 Hz: x is 100 before 10.05 s and 0 from there; the splits put the boundary at 10.05 s, between
    // the samples of 10.0 s and 10.1 s (a reviewer's case: 0.05 s of the lap was in no sector).
    const x = slice('x', Array.from({ length: 200 }, (_, i) => (i / 10 < 10.05 ? 100 : 0)));
    const laps = [{ lapIndex: 0, kind: 'flying' as const, startTime: 0, endTime: 20 }];
    const distance = { ...slice('Lap Distance', Array.from({ length: 200 }, (_, i) => i)), unit: 'm' };
    const body = run({ op: 'lapStats', echo, laps, file: { startTime: 0, endTime: 20 }, channels: [{ name: 'x', unit: 'u', threshold: 50, slice: x }], sectors: { slice: distance, source: { kind: 'channel', channel: 'Lap Distance' }, startDistances: [0, 100.5] }, perSector: { maxCells: 100 } });
    const lap = body.laps[0];
    expect(lap.sectorTimes[0]).toBeCloseTo(10.05, 9);
    const [first, second] = lap.channels[0].sectors;
    expect(first.timeAbove + second.timeAbove).toBeCloseTo(lap.channels[0].timeAbove, 9);
    expect((first.mean * lap.sectorTimes[0] + second.mean * lap.sectorTimes[1]) / lap.lapTime).toBeCloseTo(lap.channels[0].mean, 9);
    // The second sector holds 100 from 10.05 to 10.1 s (the sample of 10.0 s): 0.05 s of it above 50, in its mean
    // too; its minimum and maximum are its own samples' (all 0 from 10.1 s), as its read gives them.
    expect(second).toMatchObject({ max: 0, min: 0 });
    expect(second.timeAbove).toBeCloseTo(0.05, 9);
    expect(second.mean).toBeCloseTo((100 * 0.05) / (20 - 10.05), 9);
  });
});

describe('the laps make the file', () => {
  test('when the lines fall between samples, then each lap also counts the sample held across its line, and the laps\' times above and below add up to the whole file\'s', () => {
    // 10 Hz for 30 s of a square wave (1 s at 100, 1 s at 0); lines at 9.95 s and 20.03 s, between samples.
    const x = slice('x', Array.from({ length: 300 }, (_, i) => (Math.floor(i / 10) % 2 === 0 ? 100 : 0)));
    const laps = [
      { lapIndex: 0, kind: 'out' as const, startTime: 0, endTime: 9.95 },
      { lapIndex: 1, kind: 'flying' as const, startTime: 9.95, endTime: 20.03 },
      { lapIndex: 2, kind: 'in' as const, startTime: 20.03, endTime: 30 },
    ];
    const body = run({ op: 'lapStats', echo, laps, file: { startTime: 0, endTime: 30 }, channels: [{ name: 'x', unit: 'u', threshold: 50, slice: x }] });
    const sum = (key: 'timeAbove' | 'timeBelow') => body.laps.reduce((total: number, lap: { channels: Record<string, number>[] }) => total + (lap.channels[0]?.[key] as number), 0);
    expect(sum('timeAbove')).toBeCloseTo(body.file.channels[0].timeAbove, 9);
    expect(sum('timeBelow')).toBeCloseTo(body.file.channels[0].timeBelow, 9);
    expect(body.file.channels[0].timeAbove).toBeCloseTo(15, 9);
    // Lap 1 from 9.95 s: the sample of 9.9 s (0) holds 0.05 s into it; then 10 to 11 s at 100... to 20.03 s.
    expect(body.laps[1].channels[0].timeAbove + body.laps[1].channels[0].timeBelow).toBeCloseTo(10.08, 9);
    expect(body.laps[1].channels[0].min).toBe(0);
  });
});
