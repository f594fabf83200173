import { overlayOnGrid, toDistance } from '../../src/overlay';

describe('toDistance', () => {
  test('when a lap covers 0, 10, 30 m at 0, 1, 2 s, then points at 0.5 and 1.5 s are at 5 and 20 m; points outside the trace are dropped', () => {
    const line = { x: new Float64Array([0.5, 1.5, 2.5]), y: [100, null, 120] };
    expect(toDistance(line, { times: [0, 1, 2], distances: [0, 10, 30] })).toEqual({ x: new Float64Array([5, 20]), y: [100, null] });
  });
});

describe('overlayOnGrid', () => {
  const lapA = { x: new Float64Array([0, 10, 20]), y: [1, 3, 5] };
  const lapB = { x: new Float64Array([0, 10]), y: [2, 4] };

  test('when a continuous channel is overlaid on 5 points, then both laps are interpolated linearly on 0..20 and the shorter lap ends in nulls', () => {
    expect(overlayOnGrid([lapA, lapB], { name: 'Ground Speed', unit: 'km/h', dataType: 'int16' }, 5)).toEqual([
      [0, 5, 10, 15, 20],
      [1, 2, 3, 4, 5],
      [2, 3, 4, null, null],
    ]);
  });

  test('when a discrete channel (gear) is overlaid, then each lap holds its last value until the next sample', () => {
    expect(overlayOnGrid([lapA], { name: 'Gear', unit: '', dataType: 'int16' }, 5)).toEqual([
      [0, 5, 10, 15, 20],
      [1, 1, 3, 3, 5],
    ]);
  });
});
