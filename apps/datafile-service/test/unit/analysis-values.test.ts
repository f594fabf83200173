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
    const body = run({ op: 'lapStats', echo, laps: [{ lapIndex: 0, kind: 'flying', startTime: 0, endTime: 0.5 }], channels: [{ name: 'x', unit: 'u', threshold: 2, slice: slice('x', values) }] });
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
