import { tableFromIPC } from 'apache-arrow';
import { decodeChannelsBody, toReadRecord, type ChannelSeries } from '@pitwall/client';
import { openDataFile, writeLdFile } from '@pitwall/formats';
import { lapDistances } from '@pitwall/laps';
import { defineMathChannel, useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

// A math channel's value at a time is the same whatever read asks for it (docs/math-channels.md), as a logged
// channel's is: its time functions are evaluated over the context they read (integral and lowpass from the file's
// first sample, derivative and smooth a margin each side), lapTime() and lapDistance() from the lap's line as the lap
// distance read counts, lapNumber() the lap's index as the lap reads number them. Each read below is held against the whole-file read, and that one against the functions
// computed here over the whole file from the logged channels' own whole-file reads.

const SECONDS = 90;
/** Ground Speed at 4 Hz (the distance source, integrated), Steer at 20 Hz, laps from a 10 Hz Lap Number: lines at 30.1 s and 61.3 s, between Ground Speed's samples. */
function contextLd(): Uint8Array {
  const at = (frequency: number, f: (t: number) => number) => Array.from({ length: SECONDS * frequency }, (_, i) => f(i / frequency));
  return writeLdFile({
    channels: [
      { name: 'Ground Speed', unit: 'km/h', frequency: 4, type: 'float32', samples: at(4, (t) => 120 + 60 * Math.sin(t / 4) + 10 * Math.cos(t * 1.3)) },
      { name: 'Steer', unit: 'deg', frequency: 20, type: 'float32', samples: at(20, (t) => 30 * Math.sin(t / 2.1) + 5 * Math.sin(t * 3)) },
      { name: 'Lap Number', frequency: 10, samples: at(10, (t) => (t < 30.05 ? 0 : t < 61.25 ? 1 : 2)) },
    ],
  });
}

const DEFINITIONS: [string, string, string?][] = [
  ['Speed ms', '"Ground Speed" / 3.6'],
  ['Dist', 'integral("Speed ms")'],
  ['Accel', 'derivative("Speed ms")'],
  ['Smooth GS', 'smooth("Ground Speed", 1.3)'],
  ['Low GS', 'lowpass("Ground Speed", 0.7)'],
  // Ground Speed 1.1 s earlier (between two of its 4 Hz samples): a window's first values read before it.
  ['Late GS', 'delay("Ground Speed", 1.1)'],
  // On Steer's 20 Hz: Ground Speed resampled onto it, its derivative there; smooth over 10.6 samples.
  ['Steer mix', 'smooth(Steer, 0.53) + derivative("Ground Speed")'],
  ['Nested', 'derivative(smooth(Accel, 2.1)) + integral(Accel) / 100'],
  ['Lap t', 'lapTime() + 0 * Steer'],
  ['Lap d', 'lapDistance() + 0 * Steer'],
  // The lap reads' index (0 the out-lap), on Steer's base; a table over Ground Speed held below 60 km/h; a step over Steer.
  ['Lap n', 'lapNumber() + 0 * Steer'],
  ['GS map', 'interp("Ground Speed", 60, -1, 120, 0.5, 200, 2)'],
  ['Steer step', 'lookup(Steer, -10, -1, 0, 0, 10, 1) + lapNumber() * 10'],
  ['Dist 3Hz', 'integral("Speed ms")', '3'],
  ['Accel 3Hz', 'derivative("Speed ms")', '3'],
];
const NAMES = DEFINITIONS.map(([name]) => name);

/** The times of a JSON channel record: its `times`, or startTime + k / frequency. */
const timesOf = (record: Json): number[] => record.times ?? record.samples.map((_: unknown, k: number) => record.startTime + k / record.frequency);
const key = (t: number) => Math.round(t * 1e6);

describe('math channels: a value at a time is the same whatever read asks for it (entity-service, datafile-service and gateway in-process)', () => {
  const started = useDatafileStack('datafile-math-context-');
  const bytes = contextLd();
  const laps = openDataFile(bytes).laps;
  let runSheet: string;
  const dataset = () => `/RunSheets/${runSheet}/DataFileAccess/DataFile`;
  const json = async (r: Promise<Response>): Promise<Json> => {
    const answer = await r;
    const body = await answer.json();
    expect({ status: answer.status, body: answer.status === 200 ? undefined : body }).toEqual({ status: 200, body: undefined });
    return body;
  };
  const get = (path: string) => json(fetch(`${started.base}${dataset()}${path}`, { headers: started.headers }));
  const post = (path: string, body: unknown) => json(fetch(`${started.base}${dataset()}${path}`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));
  /** A read in the binary body (it carries each channel's start time, which a JSON record of a regular channel leaves out): records with their times. */
  const binary = async (path: string, body?: unknown): Promise<{ channels: Json[] }> => {
    const r = await fetch(`${started.base}${dataset()}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...started.headers, Accept: 'application/x-service-channels', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(r.status).toBe(200);
    const series = decodeChannelsBody(new Uint8Array(await r.arrayBuffer())) as ChannelSeries[];
    return { channels: series.map((s) => ({ ...toReadRecord(s), startTime: s.startTime, ...(s.times ? { times: Array.from(s.times) } : {}) })) };
  };
  /** Each channel's whole-file values by time. */
  const whole = new Map<string, Map<number, number | null>>();
  let logged: Record<string, { times: number[]; values: number[] }>;

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'context.ld', bytes);
    for (const [Name, Expression, Rate] of DEFINITIONS) await defineMathChannel(started, { Name, Expression, Unit: '', ...(Rate ? { Rate } : {}) });
    const all = await binary('/channels', { channels: [...NAMES, 'Ground Speed', 'Steer'], mode: 0 });
    for (const record of all.channels) whole.set(record.name, new Map(timesOf(record).map((t, k) => [key(t), record.samples[k]])));
    const of = (name: string) => {
      const record = all.channels.find((c: Json) => c.name === name);
      return { times: timesOf(record), values: record.samples as number[] };
    };
    logged = { 'Ground Speed': of('Ground Speed'), Steer: of('Steer') };
  }, 90_000);

  /** Every value of a read is the whole-file read's at its time (gaps where it has gaps). */
  const expectWholeFileValues = (what: string, records: Json[]) => {
    // A channel whose base has no point in a tiny window has none there (as a logged channel), but each read has some.
    expect({ what, values: records.some((record) => record.samples.length > 0) }).toEqual({ what, values: true });
    for (const record of records) {
      const values = whole.get(record.name) as Map<number, number | null>;
      const times = timesOf(record);
      times.forEach((t, k) => {
        const expected = values.get(key(t));
        const actual = record.samples[k];
        const same = expected === undefined ? false : expected === null || actual === null ? expected === actual : Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
        if (!same) expect({ what, name: record.name, t, actual }).toEqual({ what, name: record.name, t, actual: expected });
      });
    }
  };

  test('when the whole file is read, then each channel is its function computed over the whole file from the logged channels', () => {
    const gs = logged['Ground Speed'] as { times: number[]; values: number[] };
    const steer = logged['Steer'] as { times: number[]; values: number[] };
    const ms = gs.values.map((v) => v / 3.6);
    const integral = (t: number[], x: number[]) => {
      const out = [0];
      for (let i = 1; i < x.length; i++) out.push((out[i - 1] as number) + (((x[i - 1] as number) + (x[i] as number)) / 2) * ((t[i] as number) - (t[i - 1] as number)));
      return out;
    };
    const derivative = (t: number[], x: number[]) =>
      x.map((_, i) => {
        const a = Math.max(0, i - 1);
        const b = Math.min(x.length - 1, i + 1);
        return ((x[b] as number) - (x[a] as number)) / ((t[b] as number) - (t[a] as number));
      });
    const smooth = (t: number[], x: number[], seconds: number) =>
      t.map((ti) => {
        const inside = x.filter((v, j) => Math.abs((t[j] as number) - ti) <= seconds / 2 && !Number.isNaN(v));
        return inside.reduce((s, v) => s + v, 0) / inside.length;
      });
    const lowpass = (t: number[], x: number[], hz: number) => {
      const rc = 1 / (2 * Math.PI * hz);
      const out = [x[0] as number];
      for (let i = 1; i < x.length; i++) {
        const dt = (t[i] as number) - (t[i - 1] as number);
        out.push((out[i - 1] as number) + (dt / (rc + dt)) * ((x[i] as number) - (out[i - 1] as number)));
      }
      return out;
    };
    const interpolate = (t: number[], x: number[], at: number) => {
      if (at < (t[0] as number) || at > (t[t.length - 1] as number)) return NaN;
      let j = t.findIndex((v) => v >= at);
      if (t[j] === at) return x[j] as number;
      j = Math.max(1, j);
      return (x[j - 1] as number) + (((x[j] as number) - (x[j - 1] as number)) * (at - (t[j - 1] as number))) / ((t[j] as number) - (t[j - 1] as number));
    };
    const lapOf = (t: number) => laps.find((lap, k) => t >= lap.startTime && (t < lap.endTime || (k === laps.length - 1 && t === lap.endTime)));
    // Each lap's trace from its line, as the lap distance read computes it (its samples [start, end), the line first).
    const lapTrace = (lap: (typeof laps)[number]) => {
      const own = gs.times.map((_, i) => i).filter((i) => (gs.times[i] as number) >= lap.startTime && (gs.times[i] as number) < lap.endTime);
      // And on past the lap's end, to read its last instants between two samples.
      const carried = [...own, ...[(own.at(-1) as number) + 1, (own.at(-1) as number) + 2].filter((i) => i < gs.times.length)];
      const relative = carried.map((i) => (gs.times[i] as number) - lap.startTime);
      const distances = Array.from(lapDistances(relative, carried.map((i) => gs.values[i] as number), { kind: 'integrated', unit: 'km/h' }));
      return { times: [0, ...relative], distances: [0, ...distances] };
    };
    const traces = new Map(laps.map((lap) => [lap, lapTrace(lap)]));
    const lapNumberAt = (t: number) => {
      const lap = lapOf(t);
      return lap ? laps.indexOf(lap) : NaN;
    };
    // The tables by hand: 60 → −1, 120 → 0.5 (0.025 a km/h), 200 → 2 (0.01875 a km/h); Steer's steps at −10, 0 and 10°.
    const gsMap = (v: number) => (v <= 60 ? -1 : v <= 120 ? -1 + (v - 60) * 0.025 : v <= 200 ? 0.5 + (v - 120) * 0.01875 : 2);
    const steerStep = (v: number) => (v < 0 ? -1 : v < 10 ? 0 : 1);
    const steerRate = derivative(steer.times, steer.times.map((t) => interpolate(gs.times, gs.values, t)));
    const expected: Record<string, { times: number[]; values: number[] }> = {
      'Speed ms': { times: gs.times, values: ms },
      Dist: { times: gs.times, values: integral(gs.times, ms) },
      Accel: { times: gs.times, values: derivative(gs.times, ms) },
      'Smooth GS': { times: gs.times, values: smooth(gs.times, gs.values, 1.3) },
      'Low GS': { times: gs.times, values: lowpass(gs.times, gs.values, 0.7) },
      'Late GS': { times: gs.times, values: gs.times.map((t) => interpolate(gs.times, gs.values, t - 1.1)) },
      'Steer mix': { times: steer.times, values: smooth(steer.times, steer.values, 0.53).map((v, i) => v + (steerRate[i] as number)) },
      'Lap t': { times: steer.times, values: steer.times.map((t) => t - (lapOf(t)?.startTime ?? NaN)) },
      'Lap d': {
        times: steer.times,
        values: steer.times.map((t) => {
          const lap = lapOf(t);
          const trace = lap && traces.get(lap);
          return trace ? interpolate(trace.times, trace.distances, t - (lap as { startTime: number }).startTime) : NaN;
        }),
      },
    };
    expected['Lap n'] = { times: steer.times, values: steer.times.map(lapNumberAt) };
    expected['GS map'] = { times: gs.times, values: gs.values.map(gsMap) };
    expected['Steer step'] = { times: steer.times, values: steer.values.map((v, i) => steerStep(v) + lapNumberAt(steer.times[i] as number) * 10) };
    expect(new Set(expected['Lap n'].values)).toEqual(new Set([0, 1, 2]));
    const accel = expected['Accel'] as { times: number[]; values: number[] };
    const smoothed = smooth(accel.times, accel.values, 2.1);
    const summed = integral(gs.times, accel.values);
    expected['Nested'] = { times: gs.times, values: derivative(gs.times, smoothed).map((v, i) => v + (summed[i] as number) / 100) };
    // A Rate of 3 Hz: the grid from Ground Speed's first sample (0 s) to its last (89.75 s), Speed ms interpolated on it.
    const grid = Array.from({ length: Math.floor(89.75 * 3) + 1 }, (_, k) => k / 3);
    const onGrid = grid.map((t) => interpolate(gs.times, ms, t));
    expected['Dist 3Hz'] = { times: grid, values: integral(grid, onGrid) };
    expected['Accel 3Hz'] = { times: grid, values: derivative(grid, onGrid) };
    for (const [name, { times, values }] of Object.entries(expected)) {
      const read = whole.get(name) as Map<number, number | null>;
      expect({ name, count: read.size }).toEqual({ name, count: times.length });
      times.forEach((t, k) => {
        const actual = read.get(key(t));
        const value = values[k] as number;
        const same = Number.isNaN(value) ? actual === null : actual !== null && actual !== undefined && Math.abs(actual - value) <= 1e-6 * Math.max(1, Math.abs(value));
        if (!same) expect({ name, t, actual }).toEqual({ name, t, actual: value });
      });
    }
  });

  test('when a lap is read, then each channel has the whole-file values at its times: integral and lowpass from the file\'s start, derivative and smooth at its ends as inside', async () => {
    for (const lap of laps) {
      const read = await binary('/channels', { channels: NAMES, mode: 1, lapIndex: lap.index });
      expectWholeFileValues(`lap ${lap.index}`, read.channels);
    }
  });

  test.each([
    ['starting and ending mid-lap', 12.37, 7.1],
    ['across a lap line', 28.9, 3],
    ['at the file\'s start', 0, 5],
    ['past the file\'s end', 85, 100],
    ['a tiny one at a lap\'s start, the line before its first sample of Ground Speed', 30.05, 0.25],
    ['a tiny one ending at a lap\'s end', 60.95, 0.3],
    ['a tiny one just before a lap\'s end', 61.0, 0.12],
    ['a tiny one at the file\'s end', 89.6, 0.4],
  ])('when a window %s is read, then each channel has the whole-file values at its times', async (what, startTime, duration) => {
    const read = await binary('/channels', { channels: NAMES, mode: 2, startTime, duration });
    expectWholeFileValues(what, read.channels);
  });

  test('when a Rate channel is read from a time with no duration, for 1e308 s or from 1e300 s, then it answers: to the file\'s end, the same, nothing', async () => {
    // A window past a Rate's grid searched for its end forever, on the event loop (no end: a bound of Infinity; 1e300:
    // steps above 2^53 that did not move), for a channel that reads others ('Dist 3Hz') and one that reads none.
    await defineMathChannel(started, { Name: 'One 5Hz', Expression: '1', Unit: '', Rate: '5' });
    for (const name of ['Dist 3Hz', 'One 5Hz']) {
      const path = `/channel?channel=${encodeURIComponent(name)}`;
      const all = (await binary(path)).channels[0];
      const late = timesOf(all).flatMap((t, k) => (t >= 80 ? [[key(t), all.samples[k]]] : []));
      expect(late.length).toBeGreaterThan(10);
      const open = (await binary(`${path}&start=80`)).channels[0];
      expect(timesOf(open).map((t, k) => [key(t), open.samples[k]])).toEqual(late);
      expect((await binary(`${path}&start=80&duration=1e308`)).channels[0]).toEqual(open);
      expect((await binary(`${path}&start=1e300&duration=1`)).channels[0].samples).toEqual([]);
      expect((await binary(`${path}&start=1e300`)).channels[0].samples).toEqual([]);
    }
  });

  test('when channels are read alone, as JSON, with maxPoints or one by the channel read, then they have the values of the batch read', async () => {
    const window = { mode: 2, startTime: 40.13, duration: 6.2 };
    const batch = await binary('/channels', { channels: NAMES, ...window });
    expectWholeFileValues('batch', batch.channels);
    const asJson = await post('/channels', { channels: NAMES, ...window });
    expect(asJson.channels).toEqual(batch.channels.map(({ startTime: _startTime, ...record }) => record));
    for (const name of NAMES) {
      const alone = await binary('/channels', { channels: [name], ...window });
      expect(alone.channels[0]).toEqual(batch.channels.find((c: Json) => c.name === name));
    }
    const few = await post('/channels?maxPoints=40', { channels: NAMES, ...window });
    expectWholeFileValues('maxPoints', few.channels);
    const single = await binary(`/channel?channel=Dist&start=${window.startTime}&duration=${window.duration}`);
    expectWholeFileValues('one channel', single.channels);
  });

  test('when lapNumber() and a table are read as Arrow, then the columns are the JSON read\'s numbers', async () => {
    for (const name of ['Lap n', 'GS map', 'Steer step']) {
      const path = `/channel?channel=${encodeURIComponent(name)}&lapIndex=2`;
      const asJson = await get(path);
      expect(asJson.samples.length).toBeGreaterThan(100);
      const r = await fetch(`${started.base}${dataset()}${path}`, { headers: { ...started.headers, Accept: 'application/vnd.apache.arrow.stream' } });
      expect(r.status).toBe(200);
      const table = tableFromIPC(new Uint8Array(await r.arrayBuffer()));
      expect([...(table.getChild(name) ?? [])]).toEqual(asJson.samples);
    }
    expect(new Set((await get('/channel?channel=Lap%20n&lapIndex=2')).samples)).toEqual(new Set([2]));
  });

  test('when lapDistance() is read, then it agrees with the lap distance read (.../distance) at Ground Speed\'s samples, from the line', async () => {
    for (const lap of laps) {
      const trace = await get(`/distance?lapIndex=${lap.index}`);
      expect(trace.source).toEqual({ kind: 'integrated', channel: 'Ground Speed' });
      const lapD = whole.get('Lap d') as Map<number, number | null>;
      (trace.times as number[]).forEach((t, k) => {
        // Its times and distances are rounded (µs, mm); its origin (0 s, 0 m) is the line, no sample when it falls between two.
        const sample = Math.round((lap.startTime + t) * 4) / 4;
        if (Math.abs(sample - (lap.startTime + t)) > 1e-5) return;
        expect({ lap: lap.index, t, value: lapD.get(key(sample)) }).toEqual({ lap: lap.index, t, value: expect.closeTo(trace.distances[k], 2) });
      });
    }
    // At a lap's first Ground Speed sample, 0.1 s after its line, it is already some way into the lap.
    expect((whole.get('Lap d') as Map<number, number | null>).get(key(30.25))).toBeGreaterThan(5);
  });

  test('when lap statistics are read, then each lap has the figures of its lap read, lapNumber() its lapIndex throughout', async () => {
    const stats = await post('/lapstats', { channels: ['Dist', 'Low GS'] });
    const numbered = await post('/lapstats', { channels: ['Lap n'] });
    expect(numbered.laps.map((lap: Json) => [lap.lapIndex, lap.channels[0].min, lap.channels[0].max])).toEqual(laps.map((lap) => [lap.index, lap.index, lap.index]));
    for (const lap of stats.laps) {
      const read = await binary('/channels', { channels: ['Dist', 'Low GS'], mode: 1, lapIndex: lap.lapIndex });
      read.channels.forEach((record: Json, k: number) => {
        expect(lap.channels[k]).toMatchObject({ name: record.name, min: expect.closeTo(Math.min(...record.samples), 9), max: expect.closeTo(Math.max(...record.samples), 9) });
      });
    }
  });

  test('when a histogram and a scatter read lapNumber() and a table, then they count the lap reads\' samples and pair the whole-file values', async () => {
    const histogram = await post('/histogram', { channel: 'Lap n', edges: [-0.5, 0.5, 1.5, 2.5] });
    const perLap = await Promise.all(laps.map((lap) => binary('/channels', { channels: ['Lap n'], mode: 1, lapIndex: lap.index })));
    expect(histogram.counts).toEqual(perLap.map((read) => read.channels[0].samples.length));
    const scatter = await post('/scatter', { x: 'Ground Speed', y: 'GS map', lapIndex: 1 });
    const map = whole.get('GS map') as Map<number, number | null>;
    const speeds = whole.get('Ground Speed') as Map<number, number | null>;
    const pairs = new Map([...map].map(([t, v]) => [speeds.get(t), v]));
    expect(scatter.points.x.length).toBeGreaterThan(100);
    (scatter.points.x as number[]).forEach((x, k) => expect({ x, y: scatter.points.y[k] }).toEqual({ x, y: expect.closeTo(pairs.get(x) as number, 9) }));
  });
});
