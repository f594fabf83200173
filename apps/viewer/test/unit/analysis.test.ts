import type { HistogramJson, LapStatsJson, ScatterJson } from '@pitwall/contracts';
import { axisLabel, axisTicks, axisTopAbove, colourBar, colourRamp, colourScale, equalScale, frictionCircles, histogramAxis, histogramBars, histogramCaption, integerEdges, lapStatsChannelsOf, lapStatsSummary, lapStatsTable, LAPSTATS_SHOWN_CELLS, meanShown, extent, parseBins, parseDistances, parseThresholds, PLOT_MARGIN, scatterCaption, scatterColourBar, scatterMarks, shownLapStatsRows } from '../../src/analysis';

const echo = { entityId: 'e', entityType: 'RunSheets', attachedFileGroupName: 'DataFile' };
/** A whole-file scatter of y against x, uncoloured, on x's time base: what the scatter tests draw, but its pairs. */
const scatterOfXY = { ...echo, lapIndex: null, x: { name: 'x', unit: '' }, y: { name: 'y', unit: '' }, colour: null, timeBase: 'x' } as const;

describe('the analysis views', () => {
  test('when a threshold names a channel not ticked, then the lap statistics report that channel too, after the ticked ones, once', () => {
    expect(lapStatsChannelsOf(['Throttle Pos'], parseThresholds('Ground Speed=200; Throttle Pos=90'))).toEqual(['Throttle Pos', 'Ground Speed']);
    expect(lapStatsChannelsOf([], {})).toEqual([]);
  });

  test('when the histogram\'s bins are typed, then empty is the default and anything but a whole number of at least 1 is refused by its text', () => {
    expect(parseBins('')).toBeUndefined();
    expect(parseBins(' 12 ')).toBe(12);
    for (const bad of ['0', '-3', '2.5', 'ten']) expect(() => parseBins(bad)).toThrow(`Bins "${bad}" is not a whole number of at least 1`);
  });

  test('when thresholds and sector starts are typed, then they are read as numbers, and a bad one is refused by its text', () => {
    expect(parseThresholds('Throttle Pos=90; Ground Speed = 200 ;')).toEqual({ 'Throttle Pos': 90, 'Ground Speed': 200 });
    expect(parseThresholds('')).toEqual({});
    expect(() => parseThresholds('Throttle=high')).toThrow('"Throttle=high"');
    expect(parseDistances('0, 1200 2900')).toEqual([0, 1200, 2900]);
    expect(parseDistances('  ')).toBeUndefined();
    expect(() => parseDistances('0, x')).toThrow('"x"');
  });

  test('when a lap statistics answer is shown, then each lap is a row of its time, sectors and each channel\'s report', () => {
    const answer: LapStatsJson = {
      ...echo,
      channels: [{ name: 'Speed', unit: 'km/h', threshold: 100 }],
      sectors: { count: 2, startDistances: [0, 500], source: { kind: 'channel', channel: 'Lap Distance' } },
      laps: [{ lapIndex: 1, kind: 'flying', startTime: 10, lapTime: 63.5, sectorTimes: [30.25, null], channels: [{ name: 'Speed', min: 50, max: 210.456, mean: 120, stdDev: 31.25, timeAbove: 40, timeBelow: 20.5 }] }],
      file: { startTime: 0, duration: 94.25, channels: [{ name: 'Speed', min: 0, max: 210.456, mean: 101.5, stdDev: 40.125, timeAbove: 40, timeBelow: 54.25 }] },
      bestLap: { lapIndex: 1, lapTime: 63.5 },
      theoreticalBest: null,
      theoreticalBestNote: 'A sector was not timed on any flying lap (the distance trace never reached its start or its end): there is no theoretical best',
    };
    const table = lapStatsTable(answer);
    expect({ header: table.header, rows: table.rows.map((r) => r.cells) }).toEqual({
      header: ['lap', 'kind', 'time', 'S1', 'S2', 'Speed min', 'Speed max', 'Speed mean', 'Speed sd', 'Speed > 100 (s)', 'Speed < 100 (s)'],
      rows: [
        ['2', 'flying', '1:03.500', '30.250', '-', '50', '210.46', '120', '31.25', '40.000', '20.500'],
        // The whole file's figures, its length as its time, no sectors.
        ['file', 'whole', '1:34.250', '', '', '0', '210.46', '101.5', '40.125', '40.000', '54.250'],
      ],
    });
    expect(lapStatsSummary(answer)).toBe('Best lap 2: 1:03.500. A sector was not timed on any flying lap (the distance trace never reached its start or its end): there is no theoretical best. Sectors from 0, 500 m, timed on Lap Distance.');
    expect(lapStatsSummary({ ...answer, sectors: { count: 2, startDistances: [0, 812.5], source: { kind: 'integrated', channel: 'Ground Speed' } } })).toContain('Sectors from 0, 812.5 m, timed on Ground Speed integrated.');
    // Sectors timed by the logger's split beacons: as many columns as their count (no start distances), and said.
    const splits: LapStatsJson = {
      ...answer,
      channels: [],
      sectors: { count: 3, startDistances: [], source: { kind: 'splits', channel: 'Split Time' } },
      laps: [{ lapIndex: 1, kind: 'flying', startTime: 10, lapTime: 63.5, sectorTimes: [20, 30, 13.5], channels: [] }],
      file: { startTime: 0, duration: 94.25, channels: [] },
      theoreticalBest: { lapTime: 63.5, sectors: [{ time: 20, lapIndex: 1 }, { time: 30, lapIndex: 1 }, { time: 13.5, lapIndex: 1 }] },
      theoreticalBestNote: null,
    };
    expect(lapStatsTable(splits).header).toEqual(['lap', 'kind', 'time', 'S1', 'S2', 'S3']);
    expect(lapStatsSummary(splits)).toBe("Best lap 2: 1:03.500. Theoretical best 1:03.500 (sectors from laps 2, 2, 2). Sectors timed by the logger's split beacons (Split Time).");
  });

  test('when a lap statistics table has more cells than the page builds, then the first laps that fit are shown with the whole file\'s row and the rest counted; one too wide for even a row is not built', () => {
    const table = (laps: number, columns: number) => ({
      header: Array.from({ length: columns }, (_, k) => `c${k}`),
      rows: [...Array.from({ length: laps }, (_, i) => ({ cells: Array.from({ length: columns }, () => String(i)), testid: `lapstats-lap-${i}`, lapIndex: i })), { cells: Array.from({ length: columns }, () => 'f'), testid: 'lapstats-file' }],
    });
    // 10,000 laps of 10 channels (43 columns): 430,000 cells; at most 60,000 are built.
    const big = shownLapStatsRows(table(10_000, 43));
    if ('tooWide' in big) throw new Error('not too wide');
    const fit = Math.floor(LAPSTATS_SHOWN_CELLS / 43) - 2;
    expect(big.rows.map((r) => r.testid)).toEqual([...Array.from({ length: fit }, (_, i) => `lapstats-lap-${i}`), 'lapstats-file']);
    expect(big.hidden).toBe(10_000 - fit);
    expect((big.rows.length + 1) * 43).toBeLessThanOrEqual(LAPSTATS_SHOWN_CELLS);
    // One that fits is shown whole.
    expect(shownLapStatsRows(table(20, 43))).toEqual({ rows: table(20, 43).rows, hidden: 0 });
    // 10,000 channels ticked: 60,003 columns, wider than the page builds.
    expect(shownLapStatsRows(table(3, 60_003))).toEqual({ tooWide: true, columns: 60_003 });
  });

  test('when the answer has per-sector figures, then each lap\'s row is followed by a row per sector, its time in its own column', () => {
    const figures = (min: number) => ({ min, max: min + 10, mean: min + 5, stdDev: 1, timeAbove: null, timeBelow: null });
    const answer: LapStatsJson = {
      ...echo,
      channels: [{ name: 'Speed', unit: 'km/h', threshold: null }],
      sectors: { count: 2, startDistances: [0, 500], source: { kind: 'channel', channel: 'Lap Distance' } },
      laps: [
        // An out-lap whose sectors were not timed: no rows of dashes under it.
        { lapIndex: 0, kind: 'out', startTime: 0, lapTime: 10, sectorTimes: [null, null], channels: [{ name: 'Speed', ...figures(0), sectors: [null, null] }] },
        { lapIndex: 1, kind: 'flying', startTime: 10, lapTime: 63.5, sectorTimes: [30.25, 33.25], channels: [{ name: 'Speed', ...figures(50), sectors: [figures(60), figures(70)] }] },
        { lapIndex: 2, kind: 'in', startTime: 73.5, lapTime: 80, sectorTimes: [31, null], channels: [{ name: 'Speed', ...figures(40), sectors: [figures(45), null] }] },
      ],
      file: { startTime: 0, duration: 153.5, channels: [{ name: 'Speed', ...figures(40) }] },
      bestLap: { lapIndex: 1, lapTime: 63.5 },
      theoreticalBest: { lapTime: 63.5, sectors: [{ time: 30.25, lapIndex: 1 }, { time: 33.25, lapIndex: 1 }] },
      theoreticalBestNote: null,
      sectorStatisticsNote: null,
    };
    const { rows } = lapStatsTable(answer);
    // The best time of each sector is marked in the row of the lap that set it (the theoretical best's).
    expect(rows.find((r) => r.lapIndex === 1)?.bestSectors).toEqual([3, 4]);
    expect(rows.find((r) => r.lapIndex === 2)?.bestSectors).toBeUndefined();
    expect(rows.map((r) => [r.testid, ...r.cells])).toEqual([
      ['lapstats-lap-0', '1', 'out', '0:10.000', '-', '-', '0', '10', '5', '1'],
      ['lapstats-lap-1', '2', 'flying', '1:03.500', '30.250', '33.250', '50', '60', '55', '1'],
      ['lapstats-lap-1-s1', '', 'S1', '', '30.250', '', '60', '70', '65', '1'],
      ['lapstats-lap-1-s2', '', 'S2', '', '', '33.250', '70', '80', '75', '1'],
      ['lapstats-lap-2', '3', 'in', '1:20.000', '31.000', '-', '40', '50', '45', '1'],
      ['lapstats-lap-2-s1', '', 'S1', '', '31.000', '', '45', '55', '50', '1'],
      ['lapstats-lap-2-s2', '', 'S2', '', '', '-', '-', '-', '-', '-'],
      ['lapstats-file', 'file', 'whole', '2:33.500', '', '', '40', '50', '45', '1'],
    ]);
    expect(rows.filter((r) => r.lapIndex !== undefined).map((r) => r.lapIndex)).toEqual([0, 1, 2]);
  });

  test('when a count axis gets its ticks, then they are whole numbers on a round step from 0, never 0.00 or a fraction of a sample', () => {
    const labels = (min: number, max: number, integers = false) => axisTicks(min, max, 5, integers).map((t) => t.label);
    expect(labels(0, 7, true)).toEqual(['0', '2', '4', '6']);
    expect(labels(0, 3, true)).toEqual(['0', '1', '2', '3']);
    expect(labels(0, 1, true)).toEqual(['0', '1']);
    expect(labels(0, 12_345, true)).toEqual(['0', '5000', '10000']);
    expect(axisTicks(0, 7, 5, true).map((t) => t.value)).toEqual([0, 2, 4, 6]);
    // A value axis: as many decimals as its step needs, no float noise, no "-0".
    expect(labels(0, 1)).toEqual(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
    expect(labels(-0.3, 0.3)).toEqual(['-0.2', '0.0', '0.2']);
    expect(labels(12.7, 261.3)).toEqual(['50', '100', '150', '200', '250']);
    expect(labels(5, 5)).toEqual(['5']);
    expect(axisTicks(0.3, 0.3)).toEqual([{ value: 0.3, label: '0.3' }]);
    // Two values an ulp or a few apart (a computed channel's float noise): one tick, not an endless walk of a step too
    // fine for the values (k + 1 === k past 2^53).
    expect(axisTicks(1, 1 + 2 ** -52)).toEqual([{ value: 1, label: '1' }]);
    expect(axisTicks(0.1 + 0.2, 0.3)).toEqual([{ value: 0.3, label: '0.3' }]);
    expect(labels(1e17, 1e17 + 16)).toEqual(['100000000000000000']);
    expect(labels(1, 1 + 2 ** -40)).toHaveLength(5);
    expect(labels(0, Number.NaN)).toEqual([]);
  });

  test('when values are coloured, then the lowest is dark purple, the middle crimson-purple and the highest orange (the ramp\'s stops)', () => {
    expect(colourRamp(0, 0, 10)).toBe('#160b39');
    expect(colourRamp(5, 0, 10)).toBe('#8d2468');
    // Between two stops, in a straight line between them: halfway from #160b39 to #350a5a.
    expect(colourRamp(1, 0, 16)).toBe('#260b4a');
    expect(colourRamp(10, 0, 10)).toBe('#ec6c23');
    expect(colourRamp(null, 0, 10)).toBe('#999999');
  });

  test('when a density grid of 2 × 2 cells is drawn on 260 × 140 px, then each cell is a quarter of the plotting area, row 0 at the bottom', () => {
    const answer: ScatterJson = {
      ...scatterOfXY,
      kind: 'density',
      count: 3,
      grid: { xAxis: { min: 0, max: 1, cells: 2 }, yAxis: { min: 0, max: 1, cells: 2 }, cells: [{ x: 1, y: 0, count: 3, colour: null }] },
    };
    // Plotting area: 260 - 50 - 10 = 200 wide, 140 - 10 - 30 = 100 high; cell (1, 0) is the bottom right quarter.
    const { marks } = scatterMarks(answer, 260, 140, '#000000');
    expect(marks).toEqual([{ x: PLOT_MARGIN.left + 100, y: 60, w: 100, h: 50, colour: '#ec6c23' }]);
    // By count, on a log scale from 1 pair (dark purple, as its scale's low end says) to the most (orange).
    const counted = scatterMarks({ ...answer, grid: { ...(answer.grid as NonNullable<ScatterJson['grid']>), cells: [{ x: 0, y: 0, count: 1, colour: null }, { x: 1, y: 1, count: 4, colour: null }] } }, 260, 140, '#000000');
    expect(counted.marks.map((m) => m.colour)).toEqual(['#160b39', '#ec6c23']);
    expect(scatterCaption(answer)).toBe("y against x, each cell coloured by how many pairs it holds (dark purple 1, orange 3): 3 pairs in a 2×2 density grid, on x's time base.");
    // Coloured by a channel: the scale's values in words; none finite, the words alone.
    expect(scatterCaption({ ...answer, colour: { name: 'Ground Speed', unit: 'km/h' } })).toBe("y against x, coloured by Ground Speed (dark purple low, orange high): 3 pairs in a 2×2 density grid, on x's time base.");
    const coloured: ScatterJson = { ...answer, colour: { name: 'Ground Speed', unit: 'km/h' }, grid: { ...(answer.grid as NonNullable<ScatterJson['grid']>), cells: [{ x: 1, y: 0, count: 2, colour: 45.25 }, { x: 0, y: 1, count: 1, colour: 210.4 }] } };
    expect(scatterCaption(coloured)).toBe("y against x, coloured by Ground Speed from 45.25 (dark purple) to 210.4 km/h (orange): 3 pairs in a 2×2 density grid, on x's time base.");
    // The drawn scale under it says the same ends; none when no value is finite.
    expect(scatterColourBar(coloured)).toMatchObject({ low: '45.25', high: '210.4 km/h' });
    expect(scatterColourBar({ ...answer, colour: { name: 'Ground Speed', unit: 'km/h' } })).toBeNull();
    expect(scatterColourBar(answer)).toMatchObject({ low: '1 pair', high: '3 pairs (log scale)' });
    expect(scatterColourBar({ ...answer, kind: 'points', grid: undefined, points: { x: [1], y: [2] } } as ScatterJson)).toBeNull();
  });

  test('when a scatter plots one channel in g against another, then it is a g-g diagram: friction circles every 0.5 g out to its farthest corner (every 1 g past 4 g, at most 8); none for other units', () => {
    expect(frictionCircles('G', 'G', [-1.8, 1.6], [-1.2, 0.9])).toEqual([0.5, 1, 1.5, 2]);
    // Not about 0 g: only those within reach of the plot's farthest corner.
    expect(frictionCircles('g', 'g', [0.2, 0.7], [0.1, 0.6])).toEqual([0.5]);
    expect(frictionCircles('G', 'G', [-5, 5], [-3, 3])).toEqual([1, 2, 3, 4, 5]);
    expect(frictionCircles('G', 'G', [-40, 40], [-40, 40])).toHaveLength(8);
    expect(frictionCircles('G', 'm/s²', [-1, 1], [-1, 1])).toEqual([]);
    expect(frictionCircles('km/h', 'km/h', [0, 200], [0, 200])).toEqual([]);
    expect(frictionCircles('G', 'G', [Number.NaN, 1], [0, 1])).toEqual([]);
  });

  test('when a plot is coloured by a channel, then its drawn scale runs from dark purple through crimson to orange, as the plot colours its values, and names its ends with the unit at the high end', () => {
    const bar = colourBar('km/h', [120, null, 45.2, Number.NaN, 210]);
    expect(bar).toMatchObject({ low: '45.2', high: '210 km/h' });
    // The gradient's stops: the ramp's, which colourRamp goes through at even steps, its ends the plot's lowest and highest colours.
    const stops = bar?.gradient.match(/#[0-9a-f]{6}/g) ?? [];
    expect(stops[0]).toBe(colourRamp(45.2, 45.2, 210));
    expect(stops[stops.length - 1]).toBe(colourRamp(210, 45.2, 210));
    expect(stops).toHaveLength(9);
    expect(stops[4]).toBe(colourRamp(127.6, 45.2, 210));
    expect(bar?.gradient.startsWith('linear-gradient(to right, ')).toBe(true);
    expect(colourBar('', [7])).toMatchObject({ low: '7', high: '7' });
    expect(colourBar('bar', [null, undefined])).toBeNull();
  });

  test('when a histogram\'s bars are in % of the time, then its axis runs to a round share above the tallest bar\'s; in samples, to a whole number above its count', () => {
    const histogram: HistogramJson = { ...echo, lapIndex: null, channel: { name: 'Ground Speed', unit: 'km/h' }, edges: [0, 100, 200, 300], counts: [10, 30, 20], below: 0, above: 0, total: 60, signs: { negative: 0, zero: 0, positive: 60 }, frequency: 20 };
    // Up to a round tick above the tallest bar (30 samples, 50 %): headroom, and a label above it.
    expect(histogramAxis(histogram, false)).toMatchObject({ range: [0, 40], label: 'samples', whole: true });
    expect(histogramAxis(histogram, true)).toMatchObject({ range: [0, 60], label: '% of the time', whole: false });
    expect(histogramAxis(histogram, true).valueOf(30)).toBe(50);
    expect(histogramAxis({ ...histogram, frequency: 0 }, true).label).toBe('% of the samples');
    expect(colourScale({ name: 'Throttle', unit: '' }, [null, 3, undefined, 97.5])).toBe('coloured by Throttle from 3 (dark purple) to 97.5 (orange)');
  });

  test('when a mean is float noise about 0 for its channel\'s values, then it is shown as 0; a small mean of small values is kept', () => {
    expect(meanShown(-2.1128e-15, -12.5, 13.1)).toBe(0);
    expect(meanShown(2e-7, -1e-6, 1e-6)).toBe(2e-7);
    expect(meanShown(0.5, 0, 1)).toBe(0.5);
    expect(meanShown(null, 0, 1)).toBeNull();
    expect(meanShown(1e-20, null, null)).toBe(1e-20);
  });

  test('when scatter points are drawn, then the extreme ones are whole inside the frame, not cut in half by it', () => {
    const answer: ScatterJson = {
      ...scatterOfXY,
      kind: 'points',
      count: 3,
      points: { x: [0, 5, 10], y: [0, 2, 5] },
    };
    const { marks } = scatterMarks(answer, 260, 140, '#000000');
    for (const m of marks) {
      expect(m.x).toBeGreaterThanOrEqual(PLOT_MARGIN.left);
      expect(m.x + m.w).toBeLessThanOrEqual(260 - PLOT_MARGIN.right);
      expect(m.y).toBeGreaterThanOrEqual(PLOT_MARGIN.top);
      expect(m.y + m.h).toBeLessThanOrEqual(140 - PLOT_MARGIN.bottom);
    }
  });

  test('when a channel holds whole numbers (gear 1 to 6), then its histogram has one bin per number centred on it; otherwise none is offered', () => {
    expect(integerEdges(1, 6)).toEqual([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5]);
    expect(integerEdges(0, 0)).toEqual([-0.5, 0.5]);
    expect(integerEdges(0.2, 6)).toBeNull();
    expect(integerEdges(0, 500)).toBeNull();
  });

  test('when a histogram is drawn, then each bar spans its bin, as tall as its count on the axis, the fullest below its top', () => {
    const answer: HistogramJson = { ...echo, lapIndex: null, channel: { name: 'c', unit: '' }, edges: [0, 1, 2], counts: [2, 4], below: 0, above: 0, total: 6, signs: { negative: 0, zero: 2, positive: 4 }, frequency: 10 };
    const axis = histogramAxis(answer, false);
    expect(axis.range).toEqual([0, 5]);
    const bars = histogramBars(answer, 260, 140, '#1f77b4', axis);
    // Bins of 100 px from x = 50; heights 40 and 80 of the 100 px area (the axis to 5), from the bottom at y = 110.
    expect(bars).toEqual([
      { x: 50.5, y: 70, w: 99, h: 40, colour: '#1f77b4' },
      { x: 150.5, y: 30, w: 99, h: 80, colour: '#1f77b4' },
    ]);
    // In % of the samples: the same bars on the axis's own top (80 %: 4 of 6 is 66.7 %).
    const percent = histogramAxis(answer, true);
    expect(percent.range).toEqual([0, 80]);
    expect(histogramBars(answer, 260, 140, '#1f77b4', percent).map((b) => Math.round(b.h))).toEqual([42, 83]);
  });

  test('when a count axis is topped, then its top is a round tick of its own at least 5 % above the tallest value', () => {
    expect(axisTopAbove(30, true)).toBe(40);
    expect(axisTopAbove(1, true)).toBe(2);
    expect(axisTopAbove(99, true)).toBe(150);
    expect(axisTopAbove(0.123, false)).toBe(0.15);
    for (const tallest of [1, 7, 19, 20, 37, 95, 99, 100, 1234, 0.5, 12.345, 66.7]) {
      const top = axisTopAbove(tallest, Number.isInteger(tallest));
      expect(top).toBeGreaterThanOrEqual(tallest / 0.95 - 1e-9);
      expect(axisTicks(0, top, 5, Number.isInteger(tallest)).at(-1)?.value).toBe(top);
    }
  });

  test('when statistics come with float noise (sums of binary fractions), then the table, its threshold and the histogram caption show significant digits, not the noise', () => {
    const answer: LapStatsJson = {
      ...echo,
      channels: [{ name: 'Speed', unit: 'km/h', threshold: 0.30000000000000004 }, { name: 'G Lat', unit: 'G', threshold: null }],
      sectors: null,
      laps: [{ lapIndex: 0, kind: 'flying', startTime: 0, lapTime: 62.4, sectorTimes: null, channels: [{ name: 'Speed', min: 50.00000000000012, max: 167.21999999999997, mean: 12345.678, stdDev: 0.30000000000000004, timeAbove: 2.0000000000000004, timeBelow: 0.1 }, { name: 'G Lat', min: -0.0031200000000000004, max: 2.1999999999999997, mean: 0, stdDev: 0, timeAbove: null, timeBelow: null }] }],
      file: { startTime: 0, duration: 62.4, channels: [] },
      bestLap: { lapIndex: 0, lapTime: 62.4 },
      theoreticalBest: null,
      theoreticalBestNote: null,
    };
    const { header, rows } = lapStatsTable(answer);
    expect(header).toContain('Speed > 0.3 (s)');
    expect(rows[0]?.cells).toEqual(['1', 'flying', '1:02.400', '50', '167.22', '12346', '0.3', '2.000', '0.100', '-0.00312', '2.2', '0', '0']);
    const histogram: HistogramJson = { ...echo, lapIndex: null, channel: { name: 'Susp Pos FL', unit: 'mm' }, edges: [12.1, 12.45, 12.799999999999999, 13.149999999999999], counts: [3, 5, 2], below: 0, above: 1, total: 11, signs: { negative: 0, zero: 0, positive: 11 }, frequency: 50 };
    expect(histogramCaption(histogram)).toBe('Susp Pos FL: 11 samples in 3 bins of 0.35 mm from 12.1 to 13.15 mm (0 below, 1 above).');
    // A channel on both sides of 0 (a damper velocity: rebound and bump) says the share of the time on each, as MoTeC's
    // damper histogram does; a channel on one side says nothing of it.
    const damper: HistogramJson = { ...histogram, channel: { name: 'Damper Vel FL', unit: 'mm/s' }, edges: [-200, 0, 200], counts: [483, 517], below: 0, above: 0, total: 1000, signs: { negative: 482, zero: 3, positive: 515 } };
    expect(histogramCaption(damper)).toBe('Damper Vel FL: 1000 samples in 2 bins of 200 mm/s from -200 to 200 mm/s (0 below, 0 above). 48.2 % of the time below 0, 51.5 % above.');
  });
});

test('axisLabel: the name with its unit in parentheses, the name alone without a unit', () => {
  expect(axisLabel({ name: 'Ground Speed', unit: 'km/h' })).toBe('Ground Speed (km/h)');
  expect(axisLabel({ name: 'Gear', unit: '' })).toBe('Gear');
});

describe('equalScale (a g-g diagram drawn round)', () => {
  it('when two ranges of one unit are drawn on a wider than tall area, then both get the same units per pixel, each about its middle, neither narrowed', () => {
    const [x, y] = equalScale([-2, 2], [-1, 1], 400, 100);
    expect((x[1] - x[0]) / 400).toBeCloseTo((y[1] - y[0]) / 100, 12);
    // 0.02 G a pixel on y against 0.01 on x: x widened to 0.02 (±4), y kept.
    expect(x).toEqual([-4, 4]);
    expect(y).toEqual([-1, 1]);
    expect(equalScale([-1, 1], [-3, 1], 100, 100)[0]).toEqual([-2, 2]);
  });
  it('when a scatter plots two channels of one unit as points, then its ranges are on one scale; of two units, each its own', () => {
    const answer: ScatterJson = { entityId: 'e', entityType: 'RunSheets', attachedFileGroupName: 'DataFile', lapIndex: null, x: { name: 'G Lat', unit: 'G' }, y: { name: 'G Long', unit: 'G' }, colour: null, timeBase: 'G Lat', kind: 'points', count: 2, points: { x: [-2, 2], y: [-0.5, 0.5] } };
    const { xRange, yRange } = scatterMarks(answer, 560, 380, '#000');
    const w = 560 - PLOT_MARGIN.left - PLOT_MARGIN.right;
    const h = 380 - PLOT_MARGIN.top - PLOT_MARGIN.bottom;
    expect((xRange[1] - xRange[0]) / w).toBeCloseTo((yRange[1] - yRange[0]) / h, 12);
    const other = scatterMarks({ ...answer, y: { name: 'Throttle', unit: '%' } }, 560, 380, '#000');
    expect((other.yRange[1] - other.yRange[0]) / (other.xRange[1] - other.xRange[0])).toBeCloseTo(0.25, 12);
  });
});

describe('a density grid of two channels of one unit', () => {
  it('when lateral against longitudinal G is a grid, then it is drawn on one scale too: a cell is as wide as tall for equal steps, inside the widened range', () => {
    const answer: ScatterJson = {
      entityId: 'e',
      entityType: 'RunSheets',
      attachedFileGroupName: 'DataFile',
      lapIndex: null,
      x: { name: 'G Lat', unit: 'G' },
      y: { name: 'G Long', unit: 'G' },
      colour: null,
      timeBase: 'G Lat',
      kind: 'density',
      count: 4,
      grid: { xAxis: { min: -2, max: 2, cells: 4 }, yAxis: { min: -1, max: 1, cells: 2 }, cells: [{ x: 0, y: 0, count: 1, colour: null }, { x: 3, y: 1, count: 3, colour: null }] },
    };
    const { marks, xRange, yRange } = scatterMarks(answer, 560, 380, '#000');
    // Each cell spans 1 G both ways: drawn square.
    expect(marks[0]?.w).toBeCloseTo(marks[0]?.h as number, 9);
    const w = 560 - PLOT_MARGIN.left - PLOT_MARGIN.right;
    const h = 380 - PLOT_MARGIN.top - PLOT_MARGIN.bottom;
    expect((xRange[1] - xRange[0]) / w).toBeCloseTo((yRange[1] - yRange[0]) / h, 12);
    // The bottom-left cell starts at (-2, -1) and the top-right one ends at (2, 1), both inside the plotting area.
    for (const m of marks) {
      expect(m.x).toBeGreaterThanOrEqual(PLOT_MARGIN.left - 1e-9);
      expect(m.x + m.w).toBeLessThanOrEqual(560 - PLOT_MARGIN.right + 1e-9);
      expect(m.y).toBeGreaterThanOrEqual(PLOT_MARGIN.top - 1e-9);
      expect(m.y + m.h).toBeLessThanOrEqual(380 - PLOT_MARGIN.bottom + 1e-9);
    }
  });
});

describe('extent', () => {
  test('when given more values than a spread of arguments takes (about 125,000), then it is their min and max, as Math.min and Math.max give them', () => {
    const many = Float64Array.from({ length: 400_000 }, (_, i) => Math.sin(i) * i);
    expect(() => Math.max(...many)).toThrow(RangeError);
    let [min, max] = [Infinity, -Infinity];
    for (const v of many) [min, max] = [Math.min(min, v), Math.max(max, v)];
    expect(extent(many)).toEqual([min, max]);
    expect(extent([])).toEqual([Math.min(), Math.max()]);
    expect(extent([3, NaN, 1])).toEqual([NaN, NaN]);
    // A histogram of 400,000 bins (HISTOGRAM_MAX_BINS raised that far) is laid out, not a RangeError.
    const counts = Array.from({ length: 400_000 }, (_, i) => i % 7);
    const histogram: HistogramJson = { ...echo, lapIndex: null, channel: { name: 'Damper', unit: 'mm/s' }, edges: Array.from({ length: 400_001 }, (_, i) => i), counts, below: 0, above: 0, total: 1_199_994, signs: { negative: 0, zero: 0, positive: 1_199_994 }, frequency: 20 };
    expect(histogramAxis(histogram, false)).toMatchObject({ range: [0, axisTopAbove(6, true)], label: 'samples' });
  });
});
