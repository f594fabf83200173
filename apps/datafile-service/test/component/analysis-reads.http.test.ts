import { writeLdFile } from '@pitwall/formats';
import { defineMathChannel, useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * A 40 s outing at 10 Hz cut into four 10 s laps by its Lap Number (out, flying, flying, in), every value
 * hand-computable:
 * - Ground Speed: 50 km/h on the out- and in-lap, 36 km/h (10 m/s) on lap 1, 72 km/h (20 m/s) on lap 2, so the
 *   distance integrated from each lap's first sample reaches 50 m after 5 s on lap 1 and 2.5 s on lap 2;
 * - Throttle: 0, 10, ..., 90 % repeating every second (min 0, max 90, mean 45, above 50 % for 0.4 s of each second);
 * - Brake Temp at 2 Hz: its value is its time (0, 0.5, ... 39.5), a slower channel for the scatter's resampling.
 */
function analysisLd(): Uint8Array {
  const n = 400;
  const lapOf = (i: number) => Math.floor(i / 100);
  return writeLdFile({
    channels: [
      { name: 'Ground Speed', unit: 'km/h', frequency: 10, type: 'float32', samples: Array.from({ length: n }, (_, i) => [50, 36, 72, 50][lapOf(i)] as number) },
      { name: 'Throttle', unit: '%', frequency: 10, type: 'float32', samples: Array.from({ length: n }, (_, i) => (i % 10) * 10) },
      { name: 'Brake Temp', unit: 'C', frequency: 2, type: 'float32', samples: Array.from({ length: 80 }, (_, j) => j / 2) },
      { name: 'Lap Number', frequency: 10, samples: Array.from({ length: n }, (_, i) => lapOf(i)) },
    ],
  });
}

/** The datafile-service's bounds in this file: every read of the file's 1,280 samples but one channel fits; lap statistics of 3 channels of its 4 laps. */
const LIMITS = { READ_SAMPLE_BUDGET: '1000', HISTOGRAM_MAX_BINS: '50', SCATTER_MAX_GRID: '16', SCATTER_MAX_POINTS: '500', LAPSTATS_MAX_CELLS: '12' };

describe('the analysis reads through the gateway: POST .../lapstats, .../scatter, .../histogram', () => {
  const started = useDatafileStack('datafile-analysis-', { URL_SIGNING_SECRET: 'analysis-test-secret' }, { datafileEnv: LIMITS });
  let runSheet: string;

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'analysis.ld', analysisLd());
  }, 60_000);

  const post = (read: string, body: unknown, id = runSheet) =>
    fetch(`${started.base}/RunSheets/${id}/DataFileAccess/DataFile/${read}`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const answer = async (r: Response, status = 200): Promise<Json> => {
    const body = await r.json();
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(body)}`);
    return body;
  };

  describe('POST .../lapstats', () => {
    test('when two channels, a threshold and two sectors are asked, then each lap has its time, sector times, and each channel its min, max, mean and time above', async () => {
      const body = await answer(await post('lapstats', { channels: ['Throttle', 'Brake Temp'], thresholds: { Throttle: 50 }, sectorStartDistances: [0, 50] }));
      expect(body).toMatchObject({ entityId: runSheet, entityType: 'RunSheets', attachedFileGroupName: 'DataFile' });
      expect(body.channels).toEqual([
        { name: 'Throttle', unit: '%', threshold: 50 },
        { name: 'Brake Temp', unit: 'C', threshold: null },
      ]);
      expect(body.sectors).toEqual({ count: 2, startDistances: [0, 50], source: { kind: 'integrated', channel: 'Ground Speed' } });
      expect(body.laps.map((l: Json) => [l.lapIndex, l.kind, l.startTime, l.lapTime])).toEqual([
        [0, 'out', 0, 10],
        [1, 'flying', 10, 10],
        [2, 'flying', 20, 10],
        [3, 'in', 30, 10],
      ]);
      const [out, lap1, lap2] = body.laps;
      // 10 m/s: 50 m after 5 s, the rest of the lap 5 s; 20 m/s: 2.5 s and 7.5 s; 50 km/h: 50 m after 3.6 s.
      expect(lap1.sectorTimes[0]).toBeCloseTo(5, 9);
      expect(lap1.sectorTimes[1]).toBeCloseTo(5, 9);
      expect(lap2.sectorTimes[0]).toBeCloseTo(2.5, 9);
      expect(lap2.sectorTimes[1]).toBeCloseTo(7.5, 9);
      expect(out.sectorTimes[0]).toBeCloseTo(3.6, 9);
      const [throttle, brakeTemp] = lap1.channels;
      expect(throttle).toMatchObject({ name: 'Throttle', min: 0, max: 90 });
      expect(throttle.mean).toBeCloseTo(45, 9);
      // 60, 70, 80, 90 of every 10 samples: 0.4 s a second over 10 s.
      expect(throttle.timeAbove).toBeCloseTo(4, 9);
      // Lap 1 holds the 2 Hz samples 10, 10.5, ..., 19.5: each holds 0.5 s, so the mean is their mean.
      expect(brakeTemp).toMatchObject({ name: 'Brake Temp', min: 10, max: 19.5, timeAbove: null });
      expect(brakeTemp.mean).toBeCloseTo(14.75, 9);
      // Both flying laps take 10 s (the first is the best); the best sectors are lap 2's 2.5 s and lap 1's 5 s.
      expect(body.bestLap).toEqual({ lapIndex: 1, lapTime: 10 });
      expect(body.theoreticalBest.lapTime).toBeCloseTo(7.5, 9);
      expect(body.theoreticalBest.sectors.map((s: Json) => s.lapIndex)).toEqual([2, 1]);
      expect(body.theoreticalBestNote).toBeNull();
    });

    test('when lap statistics are read, then the whole file has its figures too, and a file without laps has them alone', async () => {
      const body = await answer(await post('lapstats', { channels: ['Throttle'], thresholds: { Throttle: 50 } }));
      // 40 s of 0..90 % every second: 0.4 s a second above 50 %, 0.5 s below.
      expect(body.file).toMatchObject({ startTime: 0, duration: 40, channels: [{ name: 'Throttle', min: 0, max: 90 }] });
      expect(body.file.channels[0].mean).toBeCloseTo(45, 9);
      expect(body.file.channels[0].timeAbove).toBeCloseTo(16, 9);
      expect(body.file.channels[0].timeBelow).toBeCloseTo(20, 9);
      const csv = new TextEncoder().encode(`Time,Speed [km/h]\n${Array.from({ length: 50 }, (_, i) => `${100 + i / 10},${i % 5 === 0 ? 200 : 100}`).join('\n')}\n`);
      const noLaps = await started.attached.entityWithFile('DataFile', 'bench.csv', csv);
      const alone = await answer(await post('lapstats', { channels: ['Speed'] }, noLaps));
      expect(alone.laps).toEqual([]);
      expect(alone.file).toMatchObject({ startTime: 100, duration: 5, channels: [{ name: 'Speed', min: 100, max: 200, timeAbove: null }] });
      expect(alone.file.channels[0].mean).toBeCloseTo(120, 9);
    });

    test('when perSector is asked with two sectors, then each lap\'s channel has its figures in each sector, which add up to the lap\'s', async () => {
      const body = await answer(await post('lapstats', { channels: ['Throttle'], thresholds: { Throttle: 50 }, sectorStartDistances: [0, 50], perSector: true }));
      expect(body.sectorStatisticsNote).toBeNull();
      const [, lap1, lap2] = body.laps;
      // Lap 1 at 10 m/s: two sectors of 5 s, each five whole seconds of 0..90 %: 2 s above 50 % in each.
      const [a, b] = lap1.channels[0].sectors;
      for (const sector of [a, b]) {
        expect(sector).toMatchObject({ min: 0, max: 90 });
        expect(sector.mean).toBeCloseTo(45, 9);
        expect(sector.timeAbove).toBeCloseTo(2, 9);
      }
      // Lap 2 at 20 m/s: 20 to 22.5 s (0..90, 0..90, 0..40: mean 40, 0.8 s above), then 22.5 to 30 s (mean 350 / 7.5).
      const [c, d] = lap2.channels[0].sectors;
      expect(c).toMatchObject({ min: 0, max: 90 });
      expect(c.mean).toBeCloseTo(40, 9);
      expect(c.timeAbove).toBeCloseTo(0.8, 9);
      expect(d.mean).toBeCloseTo(350 / 7.5, 9);
      expect(d.timeAbove).toBeCloseTo(3.2, 9);
      // On every lap the sectors' time-weighted means and times above make the lap's.
      for (const lap of body.laps) {
        const [channel] = lap.channels;
        const weighted = channel.sectors.reduce((sum: number, sector: Json, k: number) => sum + sector.mean * lap.sectorTimes[k], 0);
        expect(weighted / lap.lapTime).toBeCloseTo(channel.mean, 9);
        expect(channel.sectors.reduce((sum: number, sector: Json) => sum + sector.timeAbove, 0)).toBeCloseTo(channel.timeAbove, 9);
      }
      // Without perSector the answer has neither.
      const plain = await answer(await post('lapstats', { channels: ['Throttle'], sectorStartDistances: [0, 50] }));
      expect('sectorStatisticsNote' in plain).toBe(false);
      expect('sectors' in plain.laps[1].channels[0]).toBe(false);
    });

    test('when perSector is asked without sectors, then the channels\' sectors are null and the answer says why; past LAPSTATS_MAX_CELLS counting the sectors, 400 naming it', async () => {
      const none = await answer(await post('lapstats', { channels: ['Throttle'], perSector: true }));
      expect(none.laps.every((l: Json) => l.channels[0].sectors === null)).toBe(true);
      expect(none.sectorStatisticsNote).toMatch(/^No sectors/);
      // 4 laps × 2 channels × (1 + 2 sectors) = 24 > 12; without perSector the same read fits.
      const over = await answer(await post('lapstats', { channels: ['Throttle', 'Brake Temp'], sectorStartDistances: [0, 50], perSector: true }), 400);
      expect(over.errors).toEqual({ channels: ['4 laps × 2 channels × (1 + 2 sectors) are 24 lap statistics, more than one answer holds (LAPSTATS_MAX_CELLS is 12): ask fewer channels at once, or without perSector'] });
      expect((await post('lapstats', { channels: ['Throttle', 'Brake Temp'], sectorStartDistances: [0, 50] })).status).toBe(200);
      expect((await answer(await post('lapstats', { channels: ['Throttle'], perSector: 'yes' }), 400)).errors).toEqual({ perSector: [expect.any(String)] });
    });

    test('when no sectors are given, then the laps have no sector times and the answer says why there is no theoretical best', async () => {
      const body = await answer(await post('lapstats', { channels: [] }));
      expect(body.sectors).toBeNull();
      expect(body.laps.every((l: Json) => l.sectorTimes === null && l.channels.length === 0)).toBe(true);
      expect(body.theoreticalBest).toBeNull();
      expect(body.theoreticalBestNote).toMatch(/no sectorStartDistances/);
      expect(body.bestLap).toEqual({ lapIndex: 1, lapTime: 10 });
    });

    test('when a channel is unknown, then 400 naming it where the body names it', async () => {
      const body = await answer(await post('lapstats', { channels: ['Throttle', 'Nope'] }), 400);
      expect(body.errors).toEqual({ 'channels[1]': ['channel not found: Nope'] });
    });

    test('when a threshold is not a number, or names no channel asked, then 400 naming it', async () => {
      const notNumber = await answer(await post('lapstats', { channels: ['Throttle'], thresholds: { Throttle: 'high' } }), 400);
      expect(JSON.stringify(notNumber.errors)).toContain('Throttle');
      const stray = await answer(await post('lapstats', { channels: ['Throttle'], thresholds: { Brake: 3 } }), 400);
      expect(JSON.stringify(stray.errors)).toContain('names no channel of channels');
      const order = await answer(await post('lapstats', { channels: [], sectorStartDistances: [100, 50] }), 400);
      expect(JSON.stringify(order.errors)).toContain('must be greater than the one before');
    });

    test('when a body has a threshold that is not a number, one naming no channel and distances out of order, then one 400 names all three', async () => {
      const body = await answer(await post('lapstats', { channels: ['Throttle'], thresholds: { Throttle: 'x', Other: 1 }, sectorStartDistances: [100, 'far', 50, 20] }), 400);
      expect(body.errors).toEqual({
        'thresholds.Throttle': ['is not a number'],
        'thresholds.Other': ['names no channel of channels'],
        'sectorStartDistances[1]': [expect.any(String)],
        'sectorStartDistances[3]': ['must be greater than the one before'],
      });
      const infinite = await fetch(`${started.base}/RunSheets/${runSheet}/DataFileAccess/DataFile/lapstats`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json' }, body: '{"channels":["Throttle"],"thresholds":{"Throttle":1e999}}' });
      expect(((await answer(infinite, 400)) as Json).errors).toEqual({ 'thresholds.Throttle': ['is not a finite number (JSON reads a number this large as infinity)'] });
    });

    test('when channels are named like properties every object has (toString, constructor, valueOf), then they are reported as any other, with a threshold only where one is given', async () => {
      const csv = 'Time,toString,constructor,valueOf,Lap\n0,1,2,3,0\n0.5,1,2,3,0\n1,4,5,6,1\n1.5,4,5,6,1\n';
      const file = await started.attached.entityWithFile('DataFile', 'names.csv', new TextEncoder().encode(csv));
      const body = await answer(await post('lapstats', { channels: ['toString', 'constructor', 'valueOf'], thresholds: { valueOf: 5 } }, file));
      expect(body.channels.map((c: Json) => [c.name, c.threshold])).toEqual([
        ['toString', null],
        ['constructor', null],
        ['valueOf', 5],
      ]);
      expect(body.laps[1].channels.map((c: Json) => [c.name, c.min, c.timeAbove])).toEqual([
        ['toString', 4, null],
        ['constructor', 5, null],
        ['valueOf', 6, 1],
      ]);
    });

    test('when the read needs more decoded samples than READ_SAMPLE_BUDGET, then 413 naming it', async () => {
      // 400 + 400 + 400 samples (the distance source is one of the channels: read once).
      const body = await answer(await post('lapstats', { channels: ['Throttle', 'Lap Number', 'Ground Speed'], sectorStartDistances: [50] }), 413);
      expect(body.detail).toContain('needs 1200 decoded samples, more than READ_SAMPLE_BUDGET (1000)');
      expect(body.sampleBudget).toBe(1000);
    });

    test('when laps × channels are more than LAPSTATS_MAX_CELLS, then 400 naming it and the count, before any sample is read', async () => {
      // 4 laps × 4 channels = 16 > 12; the same 4 channels would also pass READ_SAMPLE_BUDGET (1,280 samples): the cells are refused first.
      const body = await answer(await post('lapstats', { channels: ['Throttle', 'Brake Temp', 'Ground Speed', 'Lap Number'] }), 400);
      const why = '4 laps × 4 channels are 16 lap statistics, more than one answer holds (LAPSTATS_MAX_CELLS is 12): ask fewer channels at once';
      expect(body.errors).toEqual({ channels: [why] });
      expect(body.detail).toBe(`The lap statistics of RunSheets ${runSheet} dataset 'DataFile' would be too many: ${why}`);
      // A channel named twice counts once; three channels fit.
      expect((await post('lapstats', { channels: ['Throttle', 'Throttle', 'Brake Temp', 'Ground Speed'] })).status).toBe(200);
    });

    test('when the entity does not exist, then 404', async () => {
      expect((await post('lapstats', { channels: [] }, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    });
  });

  describe('POST .../scatter', () => {
    test('when a 10 Hz channel is plotted against a 2 Hz one over a lap, then the pairs are on the lap\'s 10 Hz times, the slower one interpolated to the lap\'s end from its sample after it, as over the whole file', async () => {
      const body = await answer(await post('scatter', { x: 'Throttle', y: 'Brake Temp', lapIndex: 1 }));
      expect(body).toMatchObject({ lapIndex: 1, x: { name: 'Throttle', unit: '%' }, y: { name: 'Brake Temp', unit: 'C' }, colour: null, timeBase: 'Throttle', kind: 'points' });
      // Throttle's samples at 10.0 ... 19.9 s: 100 pairs. Brake Temp's last sample in the lap is at 19.5 s; those at
      // 19.6 to 19.9 s are between it and its sample of 20.0 s, past the lap (a data engineer's trial: they were dropped).
      expect(body.count).toBe(100);
      body.points.x.forEach((x: number, k: number) => expect(x).toBe((k % 10) * 10));
      body.points.y.forEach((y: number, k: number) => expect(y).toBeCloseTo(10 + k / 10, 6));
    });

    test('when there are more pairs than maxPoints, then a density grid counts them per cell with the mean colour', async () => {
      const body = await answer(await post('scatter', { x: 'Throttle', y: 'Brake Temp', colour: 'Throttle', maxPoints: 10, gridSize: 2 }));
      expect(body.kind).toBe('density');
      // 396 pairs (to 39.5 s). x: 0..40 % in column 0, 50..90 % in column 1; y: under 19.75 in row 0.
      expect(body.count).toBe(396);
      expect(body.grid.xAxis).toEqual({ min: 0, max: 90, cells: 2 });
      expect(body.grid.yAxis).toEqual({ min: 0, max: 39.5, cells: 2 });
      // Row 0 holds 0.0 .. 19.7 s: 19 whole seconds (95 + 95) and 19.0 .. 19.7 (0..40: 5, 50..70: 3).
      // Row 1 holds 19.8 .. 39.5 s: 80 and 90, 19 whole seconds, then 39.0 .. 39.5 (0..40: 5, 50: 1).
      const cells = body.grid.cells.map((c: Json) => [c.x, c.y, c.count]);
      expect(cells).toEqual([
        [0, 0, 100],
        [1, 0, 98],
        [0, 1, 100],
        [1, 1, 98],
      ]);
      // Column 0 of row 0: 0, 10, 20, 30, 40 twenty times each: a mean throttle of 20.
      expect(body.grid.cells[0].colour).toBeCloseTo(20, 9);
    });

    test('when a channel is unknown, the lap is out of range, or the grid is past SCATTER_MAX_GRID, then 400 naming each', async () => {
      const body = await answer(await post('scatter', { x: 'Throttle', y: 'Nope', colour: 'Nada', lapIndex: 9, gridSize: 17 }), 400);
      expect(Object.keys(body.errors).sort()).toEqual(['colour', 'gridSize', 'lapIndex', 'y']);
      expect(body.errors.gridSize).toEqual(['must be at most 16 (SCATTER_MAX_GRID)']);
      const points = await answer(await post('scatter', { x: 'Throttle', y: 'Brake Temp', maxPoints: 501 }), 400);
      expect(points.errors).toEqual({ maxPoints: ['must be at most 500 (SCATTER_MAX_POINTS)'] });
    });

    test('when the read needs more decoded samples than READ_SAMPLE_BUDGET, then 413', async () => {
      const body = await answer(await post('scatter', { x: 'Throttle', y: 'Ground Speed', colour: 'Lap Number' }), 413);
      expect(body.detail).toContain('needs 1200 decoded samples, more than READ_SAMPLE_BUDGET (1000)');
    });
  });

  describe('POST .../histogram', () => {
    test('when 10 bins are asked over the whole file, then the edges run from the minimum to the maximum and each of the ten values fills its bin', async () => {
      const body = await answer(await post('histogram', { channel: 'Throttle', bins: 10 }));
      expect(body).toMatchObject({ lapIndex: null, channel: { name: 'Throttle', unit: '%' }, below: 0, above: 0, total: 400, signs: { negative: 0, zero: 40, positive: 360 }, frequency: 10 });
      expect(body.edges).toEqual([0, 9, 18, 27, 36, 45, 54, 63, 72, 81, 90]);
      expect(body.counts).toEqual(Array.from({ length: 10 }, () => 40));
    });

    test('when explicit edges are given for a lap, then the lap\'s values are counted between them', async () => {
      const body = await answer(await post('histogram', { channel: 'Throttle', lapIndex: 2, edges: [0, 50, 60] }));
      // 0..40: 50 samples; 50: 10; 60..90 on the closed last bin [50, 60]: 60 only (10), 70..90 above (30).
      expect(body).toMatchObject({ lapIndex: 2, edges: [0, 50, 60], counts: [50, 20], below: 0, above: 30, total: 100 });
    });

    test('when bins and edges are both given, edges do not ascend, bins pass HISTOGRAM_MAX_BINS, or the channel is unknown, then 400 naming it', async () => {
      const both = await answer(await post('histogram', { channel: 'Throttle', bins: 4, edges: [0, 1] }), 400);
      expect(JSON.stringify(both.errors)).toContain('give bins or edges, not both');
      const descending = await answer(await post('histogram', { channel: 'Throttle', edges: [0, 2, 1] }), 400);
      expect(JSON.stringify(descending.errors)).toContain('must be greater than the one before');
      // Every bad field at once: an empty channel beside edges that do not ascend.
      const several = await answer(await post('histogram', { channel: '', edges: [0, 2, 1] }), 400);
      expect(Object.keys(several.errors).sort()).toEqual(['channel', 'edges[2]']);
      const many = await answer(await post('histogram', { channel: 'Throttle', bins: 51 }), 400);
      expect(many.errors).toEqual({ bins: ['must be at most 50 (HISTOGRAM_MAX_BINS)'] });
      const unknown = await answer(await post('histogram', { channel: 'Nope' }), 400);
      expect(unknown.errors).toEqual({ channel: ['channel not found: Nope'] });
    });
  });

  describe('math channels in the analysis reads', () => {
    // A stack of their own, with the budget a math channel's evaluation needs (its time base counts once for its times
    // and once for each array each definition makes: its result, a time function's argument and series): every read
    // below fits but the last test's.
    const mathStarted = useDatafileStack('datafile-analysis-math-', { URL_SIGNING_SECRET: 'analysis-math-secret' }, { datafileEnv: { ...LIMITS, READ_SAMPLE_BUDGET: '1900' } });
    let mathSheet: string;
    const mathPost = (read: string, body: unknown) =>
      fetch(`${mathStarted.base}/RunSheets/${mathSheet}/DataFileAccess/DataFile/${read}`, { method: 'POST', headers: { ...mathStarted.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const define = (Name: string, Expression: string, Unit: string, DecimalPlaces?: string, Rate?: string) => defineMathChannel(mathStarted, { Name, Expression, Unit, DecimalPlaces, Rate });
    beforeAll(async () => {
      mathSheet = await mathStarted.attached.entityWithFile('DataFile', 'analysis.ld', analysisLd());
      await define('Throttle x2', '"Throttle" * 2', '%');
      // A damper-velocity-like channel: the rate of change of Brake Temp (its value is its time, so 1 C/s throughout).
      await define('Brake Temp rate', 'derivative("Brake Temp")', 'C/s');
      await define('Ghost x2', '"Nope" * 2', 'x');
      await define('Throttle third', '"Throttle" / 3', '%', '1');
      // Metres since the file's first sample, whatever the read (a lap read too).
      await define('Lap metres', 'integral("Ground Speed" / 3.6)', 'm');
      await define('Brake Temp 3Hz', '"Brake Temp"', 'C', undefined, '3');
    });

    test('when a math channel has a Rate, then the metadata\'s sampleCount is what a whole-file read of it gives', async () => {
      const record = await answer(await fetch(`${mathStarted.base}/RunSheets/${mathSheet}/DataFileAccess/DataFile/metadata`, { headers: mathStarted.headers }));
      const read = await answer(await fetch(`${mathStarted.base}/RunSheets/${mathSheet}/DataFileAccess/DataFile/channel?channel=Brake%20Temp%203Hz`, { headers: mathStarted.headers }));
      // Brake Temp's last sample is at 39.5 s of the 40 s file: the grid is 0 to 39.33 s at 3 Hz, 119 samples (not 121).
      expect(read.samples).toHaveLength(119);
      expect(record.channels.find((c: Json) => c.name === 'Brake Temp 3Hz')).toMatchObject({ frequency: 3, sampleCount: 119 });
    });

    test('when a histogram is of a math channel, then it counts the evaluated values: Throttle x2 in ten bins of 18 %', async () => {
      const body = await answer(await mathPost('histogram', { channel: 'Throttle x2', bins: 10 }));
      expect(body).toMatchObject({ lapIndex: null, channel: { name: 'Throttle x2', unit: '%' }, below: 0, above: 0, total: 400, frequency: 10 });
      expect(body.edges).toEqual([0, 18, 36, 54, 72, 90, 108, 126, 144, 162, 180]);
      expect(body.counts).toEqual(Array.from({ length: 10 }, () => 40));
      const rate = await answer(await mathPost('histogram', { channel: 'Brake Temp rate', lapIndex: 1, edges: [0.5, 1.5] }));
      expect(rate).toMatchObject({ channel: { name: 'Brake Temp rate', unit: 'C/s' }, counts: [20], below: 0, above: 0, total: 20, frequency: 2 });
    });

    test('when a scatter puts a math channel against its input, then each point is (2 × throttle, throttle) on the lap', async () => {
      const body = await answer(await mathPost('scatter', { x: 'Throttle x2', y: 'Throttle', colour: 'Throttle x2', lapIndex: 1 }));
      expect(body).toMatchObject({ lapIndex: 1, x: { name: 'Throttle x2', unit: '%' }, y: { name: 'Throttle', unit: '%' }, colour: { name: 'Throttle x2', unit: '%' }, kind: 'points', count: 100 });
      expect(body.points.x.length).toBeGreaterThan(0);
      body.points.x.forEach((x: number, k: number) => expect([x, body.points.colour[k]]).toEqual([2 * body.points.y[k], x]));
    });

    test('when a math channel has DecimalPlaces, then the scatter takes its rounded values, as its channel read sends them', async () => {
      const body = await answer(await mathPost('scatter', { x: 'Throttle third', y: 'Throttle', lapIndex: 2 }));
      body.points.x.forEach((x: number, k: number) => expect(x).toBe(Math.round((body.points.y[k] / 3) * 10) / 10));
      expect(new Set(body.points.x).has(3.3)).toBe(true);
    });

    test('when lap statistics report a math channel, then its minimum, maximum, mean and standard deviation are twice its input\'s and its times above and below a threshold of twice the same are its input\'s, lap by lap', async () => {
      const body = await answer(await mathPost('lapstats', { channels: ['Throttle', 'Throttle x2'], thresholds: { Throttle: 50, 'Throttle x2': 100 } }));
      for (const lap of body.laps) {
        const [throttle, doubled] = lap.channels;
        expect(doubled).toEqual({ ...throttle, name: 'Throttle x2', min: 2 * throttle.min, max: 2 * throttle.max, mean: 2 * throttle.mean, stdDev: expect.closeTo(2 * throttle.stdDev, 9) });
      }
    });

    test('when lap statistics report a math channel over time, then each lap has the figures of the outing\'s channel over its samples, as its lap read and the whole-file read give them: integral from the file\'s start', async () => {
      const body = await answer(await mathPost('lapstats', { channels: ['Lap metres'], thresholds: { 'Lap metres': 50 } }));
      const channel = (query: string) => fetch(`${mathStarted.base}/RunSheets/${mathSheet}/DataFileAccess/DataFile/channel?channel=Lap%20metres${query}`, { headers: mathStarted.headers });
      // Computed here over the whole file: Ground Speed in m/s at 10 Hz, the trapezoid from the file's first sample.
      const speed = Array.from({ length: 400 }, (_, i) => ([50, 36, 72, 50][Math.floor(i / 100)] as number) / 3.6);
      const metres = [0];
      for (let i = 1; i < 400; i++) metres.push((metres[i - 1] as number) + (((speed[i - 1] as number) + (speed[i] as number)) / 2) * 0.1);
      const whole = await answer(await channel(''));
      expect(whole.samples).toEqual(metres.map((m) => expect.closeTo(m, 9)));
      // Lap 1 (10 s to 20 s) goes on from lap 0's 137.5 m at 9.9 s (a lap read integrated from its lap's start before).
      expect(body.laps[1].channels[0]).toMatchObject({ name: 'Lap metres', min: expect.closeTo(metres[100] as number, 9), max: expect.closeTo(metres[199] as number, 9) });
      expect(metres[100]).toBeCloseTo(137.5 + 1.1944, 3);
      for (const lap of body.laps) {
        const read = await answer(await channel(`&lapIndex=${lap.lapIndex}`));
        const values: number[] = read.samples;
        const first = Math.round(lap.startTime * 10);
        expect({ lap: lap.lapIndex, values }).toEqual({ lap: lap.lapIndex, values: metres.slice(first, first + values.length).map((m) => expect.closeTo(m, 9)) });
        const [stats] = lap.channels;
        expect([stats.min, stats.max]).toEqual([expect.closeTo(Math.min(...values), 9), expect.closeTo(Math.max(...values), 9)]);
        // A regular channel's mean is the plain mean; above 50 m: the samples over it, 0.1 s each.
        expect(stats.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 9);
        expect(stats.timeAbove).toBeCloseTo(values.filter((v) => v > 50).length / 10, 9);
      }
    });

    test('when lap statistics of a math channel are read from a CSV of many laps, then its budget is the whole file\'s, not the whole file once a lap', async () => {
      // A MoTeC CSV (read whole, as every format but a .ld): 40 s of Throttle at 10 Hz, a lap every 4 s (10 laps).
      const csv = [
        '"Format","MoTeC CSV File"',
        `"Beacon Markers",${Array.from({ length: 9 }, (_, k) => `"${4 * (k + 1)}.000"`).join(',')}`,
        '',
        '"Time","Throttle"',
        '"s","%"',
        '',
        ...Array.from({ length: 400 }, (_, i) => `"${(i / 10).toFixed(3)}","${(i % 10) * 10}"`),
      ].join('\r\n');
      const sheet = await mathStarted.attached.entityWithFile('DataFile', 'laps.csv', new TextEncoder().encode(csv));
      // Throttle's 400 samples, and its base's 400 times and 400 results: 1,200 of 1,900 (counted a lap at a time, 12,000).
      const r = await fetch(`${mathStarted.base}/RunSheets/${sheet}/DataFileAccess/DataFile/lapstats`, { method: 'POST', headers: { ...mathStarted.headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ channels: ['Throttle x2'] }) });
      const body = await answer(r);
      expect(body.laps).toHaveLength(10);
      for (const lap of body.laps) expect(lap.channels[0]).toMatchObject({ name: 'Throttle x2', min: 0, max: 180, mean: expect.closeTo(90, 9) });
    });

    test('when a math channel reads a channel the file does not have, then 422 naming the field and the channel; an unknown name is still a 400', async () => {
      const scatter = await answer(await mathPost('scatter', { x: 'Throttle', y: 'Ghost x2' }), 422);
      expect(scatter.detail).toContain('math channel Ghost x2 reads Nope');
      expect(Object.keys(scatter.errors)).toEqual(['y']);
      const histogram = await answer(await mathPost('histogram', { channel: 'Ghost x2' }), 422);
      expect(Object.keys(histogram.errors)).toEqual(['channel']);
      const stats = await answer(await mathPost('lapstats', { channels: ['Throttle', 'Ghost x2'] }), 422);
      expect(Object.keys(stats.errors)).toEqual(['channels[1]']);
      expect((await answer(await mathPost('histogram', { channel: 'Nope x3' }), 400)).errors).toEqual({ channel: ['channel not found: Nope x3'] });
    });

    test('when a math channel\'s inputs and evaluation pass READ_SAMPLE_BUDGET, then 413: what it decodes and makes counts', async () => {
      // Throttle x2 over each of the 4 laps: 100 samples of Throttle, and its base's 100 times and 100 results (1200);
      // Ground Speed and Lap Number 400 each.
      const body = await answer(await mathPost('lapstats', { channels: ['Throttle x2', 'Ground Speed', 'Lap Number'] }), 413);
      expect(body.detail).toContain('needs 2000 decoded samples, more than READ_SAMPLE_BUDGET (1900)');
    });
  });
});
