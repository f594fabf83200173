import type { ChannelSeries } from '@pitwall/channels';
import { alignLines, clampWindow, formatCursorTime, formatValue, grid, paneGroups, panWindow, shiftedSplits, pointsForWidth, seriesLine, stepX, tickDecimals, valueAt, windowInFile, Y_SCALE_MIN_SPAN, yRangeOf, yRangeSteps, ySplits, zoomAround } from '../../src/plot-data';
import { VIEWER_Y_SCALE_MIN_SPAN } from '@pitwall/contracts';

describe('seriesLine', () => {
  test('when a series has implicit times, then sample i is at startTime + i / frequency, less the offset; gaps and NaN are null', () => {
    const series: ChannelSeries = { name: 'Speed', unit: 'km/h', frequency: 4, dimension: 1, startTime: 10, samples: new Float64Array([1, 2, NaN, 4]), gaps: new Uint8Array([0, 1, 0, 0]) };
    const line = seriesLine(series, 10);
    expect(Array.from(line.x)).toEqual([0, 0.25, 0.5, 0.75]);
    expect(line.y).toEqual([1, null, null, 4]);
  });

  test('when a series carries raw values with a conversion and explicit times (a maxPoints read), then the physical values at those times', () => {
    const series: ChannelSeries = {
      name: 'Oil',
      unit: 'bar',
      frequency: 100,
      dimension: 1,
      startTime: 0,
      samples: new Int16Array([10, 20]),
      conversion: { numerator: 1, denominator: 10, offset: 1 },
      times: new Float64Array([0.5, 3.25]),
    };
    const line = seriesLine(series);
    expect(Array.from(line.x)).toEqual([0.5, 3.25]);
    expect(line.y).toEqual([2, 3]);
  });
});

describe('alignLines', () => {
  test('when two lines have different x values, then x is their sorted union and each line is undefined where it has no point (null gaps stay null)', () => {
    const a = { x: new Float64Array([0, 1, 2]), y: [5, null, 7] };
    const b = { x: new Float64Array([0.5, 2]), y: [1, 2] };
    expect(alignLines([a, b])).toEqual([
      [0, 0.5, 1, 2],
      [5, undefined, null, 7],
      [undefined, 1, undefined, 2],
    ]);
  });

  test('when there is one line, then its own points', () => {
    expect(alignLines([{ x: new Float64Array([1, 2]), y: [3, null] }])).toEqual([[1, 2], [3, null]]);
  });
});

describe('valueAt', () => {
  const line = { x: new Float64Array([0, 1, 2, 3]), y: [10, 11, null, 13] };
  test('when the cursor is between points, then the value interpolated between them; null in a gap or outside the line', () => {
    expect(valueAt(line, 0)).toBe(10);
    expect(valueAt(line, 0.25)).toBeCloseTo(10.25, 12);
    expect(valueAt(line, 1)).toBe(11);
    expect(valueAt(line, 1.9)).toBeNull();
    expect(valueAt(line, 2.5)).toBeNull();
    expect(valueAt(line, 3)).toBe(13);
    expect(valueAt(line, -0.1)).toBeNull();
    expect(valueAt(line, 3.1)).toBeNull();
    expect(valueAt({ x: new Float64Array(0), y: [] }, 0)).toBeNull();
  });

  test('when a reduced read keeps a bucket\'s maximum and the next bucket\'s minimum, then the value between them is between them, not the maximum held', () => {
    const reduced = { x: new Float64Array([89.9, 90.86]), y: [121.6, 88.5] };
    const v = valueAt(reduced, 90.371) as number;
    expect(v).toBeLessThan(121.6);
    expect(v).toBeGreaterThan(88.5);
    expect(v).toBeCloseTo(121.6 + ((88.5 - 121.6) * (90.371 - 89.9)) / (90.86 - 89.9), 9);
  });

  test('when the channel is discrete (step), then the previous point\'s value is held: a gear is never 3.4', () => {
    const gear = { x: new Float64Array([0, 1, 2]), y: [3, 4, null] };
    expect(valueAt(gear, 0.4, true)).toBe(3);
    expect(valueAt(gear, 1.99, true)).toBe(4);
    expect(valueAt(gear, 2, true)).toBeNull();
  });
});

test('formatCursorTime: the cursor time to the millisecond', () => {
  expect(formatCursorTime(90.3714)).toBe('90.371');
});

test('grid: 5 points from 0 to 2 are 0, 0.5, 1, 1.5, 2', () => {
  expect(Array.from(grid(0, 2, 5))).toEqual([0, 0.5, 1, 1.5, 2]);
});

describe('zoom and pan windows', () => {
  test('when a zoom selection runs past the file, then the window is cut to the file; a tiny one is widened around its middle', () => {
    expect(clampWindow(-5, 20, 0, 100)).toEqual({ start: 0, duration: 20 });
    expect(clampWindow(90, 120, 0, 100)).toEqual({ start: 90, duration: 10 });
    expect(clampWindow(50, 50.001, 0, 100, 1)).toEqual({ start: 49.5005, duration: 1 });
  });

  test('when panning by half a window, then it moves by half its width and stops at the file edges', () => {
    expect(panWindow(20, 10, 0.5, 0, 100)).toEqual({ start: 25, duration: 10 });
    expect(panWindow(2, 10, -0.5, 0, 100)).toEqual({ start: 0, duration: 10 });
    expect(panWindow(88, 10, 0.5, 0, 100)).toEqual({ start: 90, duration: 10 });
  });
});

test('pointsForWidth: one point per pixel, at least 4', () => {
  expect(pointsForWidth(1107.4)).toBe(1107);
  expect(pointsForWidth(2)).toBe(4);
});

test('formatValue: six significant digits with the unit; no data for gaps', () => {
  expect(formatValue(123.456789, 'km/h')).toBe('123.457 km/h');
  expect(formatValue(3, '')).toBe('3');
  expect(formatValue(null, 'km/h')).toBe('no data');
  expect(formatValue(NaN, 'bar')).toBe('no data');
  expect(formatValue(0.0001234, 'm')).toBe('1.234e-4 m');
  // Float noise of the values read is not shown.
  expect(formatValue(50.00000000000012, 'km/h')).toBe('50 km/h');
  expect(formatValue(167.21999999999997, 'km/h')).toBe('167.22 km/h');
  expect(formatValue(-0.30000000000000004, '')).toBe('-0.3');
});

describe('windowInFile: a typed window against the file\'s time range', () => {
  test('when the window is inside the file, then it is kept as typed', () => {
    expect(windowInFile(10, 5, 0, 335)).toEqual({ start: 10, duration: 5, cut: false });
  });
  test('when it runs past either end, then it is cut to the file and says so', () => {
    expect(windowInFile(-50, 100, 0, 335)).toEqual({ start: 0, duration: 50, cut: true });
    expect(windowInFile(100, 1e9, 0, 335)).toEqual({ start: 100, duration: 235, cut: true });
  });
  test('when none of it is in the file, then null', () => {
    expect(windowInFile(400, 10, 0, 335)).toBeNull();
    expect(windowInFile(-50, 10, 0, 335)).toBeNull();
    expect(windowInFile(-50, 50, 0, 335)).toBeNull();
  });
});

test('tickDecimals: the decimals of the tick step, so ticks a step apart never read the same', () => {
  expect(tickDecimals(5)).toBe(0);
  expect(tickDecimals(0.25)).toBe(2);
  expect(tickDecimals(0.0005)).toBe(4);
  expect(tickDecimals(0.000005)).toBe(6);
  const ticks = [90.0001, 90.00015, 90.0002].map((v) => v.toFixed(tickDecimals(0.00005)));
  expect(new Set(ticks).size).toBe(3);
});

describe('zoomAround and stepX: the keyboard and the wheel', () => {
  test('when a window is zoomed around a time in it, then that time keeps its place on the axis; outside it, the middle does', () => {
    expect(zoomAround(100, 60, 115, 0.5)).toEqual([107.5, 137.5]);
    expect(zoomAround(100, 60, 115, 2)).toEqual([85, 205]);
    expect(zoomAround(100, 60, 500, 0.5)).toEqual([115, 145]);
    expect(zoomAround(100, 60, Number.NaN, 0.5)).toEqual([115, 145]);
  });

  test('when the cursor steps along the plotted points, then it goes to the next or previous point, from between points too, and stops at the ends', () => {
    const xs = [0, 0.1, 0.2, 0.3];
    expect(stepX(xs, 0.1, 1)).toBe(0.2);
    expect(stepX(xs, 0.1, -1)).toBe(0);
    expect(stepX(xs, 0.15, 1)).toBe(0.2);
    expect(stepX(xs, 0.15, -1)).toBe(0.1);
    expect(stepX(xs, 0.1, 10)).toBeNull();
    expect(stepX(xs, 0, -1)).toBeNull();
    expect(stepX(xs, -1, 1)).toBe(0);
    expect(stepX([], 0, 1)).toBeNull();
  });
});

describe('paneGroups', () => {
  const channels = [
    { name: 'Brake Pres Front', unit: 'bar' },
    { name: 'Ground Speed', unit: 'km/h' },
    { name: 'Brake Pres Rear', unit: 'bar' },
    { name: 'Wheel Speed FL', unit: 'km/h' },
    { name: 'Gear', unit: '' },
  ];
  it('when panes are one a channel, then each channel is its own pane in the order ticked', () => {
    expect(paneGroups(channels, false).map((g) => g.map((c) => c.name))).toEqual([['Brake Pres Front'], ['Ground Speed'], ['Brake Pres Rear'], ['Wheel Speed FL'], ['Gear']]);
  });
  it('when panes are one a unit, then channels of a unit share a pane, panes in the order their first channel was ticked', () => {
    expect(paneGroups(channels, true).map((g) => g.map((c) => c.name))).toEqual([['Brake Pres Front', 'Brake Pres Rear'], ['Ground Speed', 'Wheel Speed FL'], ['Gear']]);
    expect(paneGroups([], true)).toEqual([]);
  });
});

describe('shiftedSplits (a lap plot\'s ticks in lap time)', () => {
  it('when the axis counts from a lap\'s start, then the ticks fall on round lap times inside the range', () => {
    const ticks = shiftedSplits(159.31, 222.99, 10, 159.31);
    expect(ticks.map((t) => Number((t - 159.31).toFixed(9)))).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(shiftedSplits(165, 180, 5, 159.31).map((t) => Number((t - 159.31).toFixed(9)))).toEqual([10, 15, 20]);
  });
  it('when the step or the range is not usable, then there are no ticks (and never more than 1000)', () => {
    expect(shiftedSplits(0, 10, 0, 0)).toEqual([]);
    expect(shiftedSplits(10, 0, 1, 0)).toEqual([]);
    expect(shiftedSplits(0, 1e9, 1, 0)).toHaveLength(1000);
  });
});

describe('yRangeOf: a pane\'s y scale as typed', () => {
  test('when a min and a max above it are typed, then they are the range (a decimal comma read as a point)', () => {
    expect(yRangeOf('0', '400')).toEqual({ range: [0, 400] });
    expect(yRangeOf(' -1,5 ', '2.25')).toEqual({ range: [-1.5, 2.25] });
  });

  test('when a field is empty or not a number, or the max is not above the min, then what is wrong is said', () => {
    expect(yRangeOf('', '5')).toEqual({ problem: 'The min and the max must both be numbers.' });
    expect(yRangeOf('1', 'x')).toEqual({ problem: 'The min and the max must both be numbers.' });
    expect(yRangeOf('300', '100')).toEqual({ problem: 'The max must be above the min.' });
    expect(yRangeOf('5', '5')).toEqual({ problem: 'The max must be above the min.' });
  });

  test('when the range is too narrow for its size to step through (1e16 to 1e16 + 4), then it is refused, saying why; a narrow range of small numbers is not', () => {
    const narrow = { problem: 'The range is too narrow for numbers this large: the max must exceed the min by more than a millionth of a millionth (1e-12) of their size, or the axis has no value to put a tick at.' };
    expect(yRangeOf('10000000000000000', '10000000000000004')).toEqual(narrow);
    expect(yRangeOf('1000000', '1000000.0000000001')).toEqual(narrow);
    expect(yRangeOf('1000000', '1000000.00001')).toEqual({ range: [1000000, 1000000.00001] });
    expect(yRangeOf('0', '1e-300')).toEqual({ range: [0, 1e-300] });
    expect(yRangeSteps(-1e16, 1e16)).toBe(true);
  });

  test('when the page and the service check a y scale\'s width, then they use the same bound', () => {
    expect(Y_SCALE_MIN_SPAN).toBe(VIEWER_Y_SCALE_MIN_SPAN);
  });
});

describe('ySplits (a time pane\'s y ticks)', () => {
  test('when the range is an ordinary one, then the ticks are the multiples of the step inside it, rounded to its decimals', () => {
    expect(ySplits(0, 400, 50)).toEqual([0, 50, 100, 150, 200, 250, 300, 350, 400]);
    expect(ySplits(-0.05, 0.32, 0.1)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(ySplits(12.3, 13.1, 0.25)).toEqual([12.5, 12.75, 13]);
  });

  test('when the step is below the values\' precision (1e16 + 1 is 1e16), then the ticks still end, at most 1000', () => {
    expect(ySplits(1e16, 1e16 + 4, 1).length).toBeLessThanOrEqual(1000);
    expect(ySplits(0, 1e300, 1e-3)).toHaveLength(1000);
    expect(ySplits(0, 1, 0)).toEqual([]);
  });
});
