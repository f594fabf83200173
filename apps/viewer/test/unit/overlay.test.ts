import { lapWindowFor, overlayOnGrid, toDistance } from '../../src/overlay';

describe('toDistance', () => {
  test('when a lap covers 0, 10, 30 m at 0, 1, 2 s, then points at 0.5 and 1.5 s are at 5 and 20 m; points outside the trace are dropped', () => {
    const line = { x: new Float64Array([0.5, 1.5, 2.5]), y: [100, null, 120] };
    expect(toDistance(line, { times: [0, 1, 2], distances: [0, 10, 30] })).toEqual({ x: new Float64Array([5, 20]), y: [100, null] });
  });

  test('when the last point is past the trace by less than the answer\'s rounding (a microsecond), then it is kept at the trace\'s end', () => {
    // The distance answer says 65.11 s; the line's last sample is 288.1 − 222.99 = 65.11000000000001 s into the lap.
    const line = { x: new Float64Array([0, 288.1 - 222.99]), y: [1, 2] };
    expect(toDistance(line, { times: [0, 65.11], distances: [0, 2200] })).toEqual({ x: new Float64Array([0, 2200]), y: [1, 2] });
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

describe('overlayOnGrid, zoomed', () => {
  test('when a range is given, then the grid spans that range only (every point on screen)', () => {
    const lap = { x: new Float64Array([0, 10, 20]), y: [1, 3, 5] };
    expect(overlayOnGrid([lap], { name: 'Ground Speed', unit: 'km/h', dataType: 'int16' }, 3, [5, 15])).toEqual([[5, 10, 15], [2, 3, 4]]);
  });
});

describe('lapWindowFor', () => {
  const lap = { lapStart: 100, lapTime: 90 };

  test('when a lap-time range is zoomed, then the window is the lap\'s file time under it, 1 % wider on each side', () => {
    const w = lapWindowFor([10, 20], lap);
    expect(w.start).toBeCloseTo(109.9, 9);
    expect(w.duration).toBeCloseTo(10.2, 9);
  });

  test('when the range reaches past the lap, then the window stays inside the lap', () => {
    expect(lapWindowFor([-5, 200], lap)).toEqual({ start: 100, duration: 90 });
  });

  test('when a distance range is zoomed, then the lap\'s distance trace turns it into times (0..1000 m over 0..50 s, 200..400 m is 10..20 s)', () => {
    const w = lapWindowFor([200, 400], lap, { times: [0, 50], distances: [0, 1000] });
    expect(w.start).toBeCloseTo(109.9, 9);
    expect(w.duration).toBeCloseTo(10.2, 9);
  });

  test('when a distance range reaches past the trace, then it is held at the trace\'s ends (0..50 s, widened by 1 % inside the lap)', () => {
    const w = lapWindowFor([-50, 5000], lap, { times: [0, 50], distances: [0, 1000] });
    expect(w.start).toBe(100);
    expect(w.duration).toBeCloseTo(50.5, 9);
  });
});
