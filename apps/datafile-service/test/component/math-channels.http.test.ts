import { tableFromIPC } from 'apache-arrow';
import { decodeChannelsBody, toReadRecord, type ChannelSeries } from '@pitwall/client';
import { buildMdf4File } from '@pitwall/formats/testing';
import { defineMathChannel, useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Two groups: Speed (km/h) at 100 Hz for 10 s, rising linearly; Throttle (%) at 10 Hz. Values chosen to compute by hand. */
const FAST = 1000;
const SLOW = 100;
const speedAt = (t: number) => 36 + 7.2 * t; // km/h: 10 m/s + 2 m/s² · t
const throttleAt = (t: number) => 50 + 5 * t;
function twoRateFile(): Uint8Array {
  const group = (n: number, rate: number, value: (t: number) => number, names: [string, string], unit: string) => {
    const records = new Uint8Array(n * 16);
    const view = new DataView(records.buffer);
    for (let i = 0; i < n; i++) {
      view.setFloat64(i * 16, i / rate, true);
      view.setFloat64(i * 16 + 8, value(i / rate), true);
    }
    return {
      dataBytes: 16,
      cycleCount: n,
      records,
      channels: [
        { name: names[0], unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
        { name: names[1], unit, dataType: 4, bitCount: 64, byteOffset: 8 },
      ],
    };
  };
  return buildMdf4File({ groups: [group(FAST, 100, speedAt, ['time', 'Speed'], 'km/h'), group(SLOW, 10, throttleAt, ['time slow', 'Throttle'], '%')] });
}

describe('math channels through the gateway (entity-service, datafile-service and gateway in-process)', () => {
  const started = useDatafileStack('datafile-math-', {}, { datafileEnv: { READ_SAMPLE_BUDGET: '12000' } });
  let runSheet: string;
  const ids: Record<string, string> = {};

  const headers = (extra: Record<string, string> = {}) => ({ ...started.headers, ...extra });
  const get = (path: string, extra?: Record<string, string>) => fetch(`${started.base}${path}`, { headers: headers(extra) });
  const send = (method: string, path: string, body: unknown, extra?: Record<string, string>) =>
    fetch(`${started.base}${path}`, { method, headers: headers({ 'Content-Type': 'application/json', ...extra }), body: JSON.stringify(body) });
  const json = async (r: Response | Promise<Response>): Promise<Json> => {
    const answer = await r;
    const body = await answer.json();
    expect({ status: answer.status, body: answer.status === 200 ? undefined : body }).toEqual({ status: 200, body: undefined });
    return body;
  };
  const define = async (Name: string, Expression: string, Unit = '', Rate?: string, DecimalPlaces?: string) => {
    ids[Name] = await defineMathChannel(started, { Name, Expression, Unit, Rate, DecimalPlaces });
  };
  const dataset = () => `/RunSheets/${runSheet}/DataFileAccess/DataFile`;

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'two-rates.mf4', twoRateFile());
    await define('Speed ms', '"Speed" / 3.6', 'm/s');
    await define('Power', '"Speed ms" * Throttle', 'W');
    await define('Accel', 'derivative("Speed ms")', 'm/s²');
    await define('Since lap start', 'lapTime()', 's', '100');
    await define('Throttle 2Hz', 'Throttle', '%', '2');
    await define('Broken', 'Nope + 1');
    await define('Constant', 'pi * 2');
    await define('Lap distance', 'lapDistance()', 'm');
    await define('Lap distance 10Hz', 'lapDistance()', 'm', '10');
    await define('Speed ms 2dp', '"Speed" / 3.6', 'm/s', undefined, '2');
    await define('Speed ms rounded', 'round("Speed" / 3.6 * 100) / 100', 'm/s');
    await define('Power 1dp', '"Speed ms" * Throttle', 'W', undefined, '1');
    await define('Speed cm/s', '"Speed" / 3.6 * 100', 'cm/s', undefined, '2');
  }, 90_000);

  test('when the metadata is read, then the math channels it can evaluate follow the logged ones in the group Math', async () => {
    const record = await json(get(`${dataset()}/metadata`));
    const math = record.channels.filter((c: Json) => c.group === 'Math');
    expect(record.channels.slice(0, -math.length).every((c: Json) => c.group === undefined)).toBe(true);
    expect(math.map((c: Json) => c.name).sort()).toEqual(['Accel', 'Lap distance 10Hz', 'Power', 'Power 1dp', 'Since lap start', 'Speed cm/s', 'Speed ms', 'Speed ms 2dp', 'Speed ms rounded', 'Throttle 2Hz']);
    expect(math.find((c: Json) => c.name === 'Power')).toEqual({ name: 'Power', unit: 'W', frequency: expect.closeTo(100, 0), sampleCount: FAST, dimension: 1, dataType: 'float64', group: 'Math', expression: '"Speed ms" * Throttle' });
    expect(math.find((c: Json) => c.name === 'Power 1dp')).toEqual({ name: 'Power 1dp', unit: 'W', frequency: expect.closeTo(100, 0), sampleCount: FAST, dimension: 1, dataType: 'float64', group: 'Math', expression: '"Speed ms" * Throttle', decimalPlaces: 1 });
  });

  test('when a math channel reading another is read, then it is evaluated over the fastest input, the slower one resampled linearly', async () => {
    const power = await json(get(`${dataset()}/channel?channel=Power`));
    expect(power).toMatchObject({ name: 'Power', unit: 'W', dimension: 1 });
    expect(power.samples).toHaveLength(FAST);
    power.samples.forEach((v: number | null, i: number) => {
      const t = i / 100;
      // Throttle is linear in t, so linear interpolation is exact; past its last sample (9.9 s) there is none.
      if (t > 9.9 + 1e-9) expect(v).toBeNull();
      else expect(v).toBeCloseTo((speedAt(t) / 3.6) * throttleAt(t), 6);
    });
    const accel = await json(get(`${dataset()}/channel?channel=Accel`));
    for (const v of accel.samples) expect(v).toBeCloseTo(2, 6);
    const lap = await json(get(`${dataset()}/channel?channel=Since%20lap%20start&start=2&duration=1`));
    expect(lap.samples[0]).toBeCloseTo(2, 9);
    const slow = await json(get(`${dataset()}/channel?channel=Throttle%202Hz`));
    expect(slow.samples.slice(0, 3)).toEqual([throttleAt(0), throttleAt(0.5), throttleAt(1)].map((v) => expect.closeTo(v, 9)));
  });

  test('when math and logged channels are read together in a window, with maxPoints, in binary, then they answer like logged ones', async () => {
    const body = { channels: ['Speed', 'Speed ms'], mode: 2, startTime: 1, duration: 2 };
    const asJson = await json(send('POST', `${dataset()}/channels`, body));
    expect(asJson.channels[1].samples).toEqual(asJson.channels[0].samples.map((v: number) => expect.closeTo(v / 3.6, 9)));
    const r = await send('POST', `${dataset()}/channels`, body, { Accept: 'application/x-service-channels' });
    expect(decodeChannelsBody(new Uint8Array(await r.arrayBuffer())).map(toReadRecord)).toEqual(asJson.channels);
    const few = await json(get(`${dataset()}/channel?channel=Power&maxPoints=40`));
    expect(few.samples.length).toBeLessThanOrEqual(40);
    expect(few.times).toHaveLength(few.samples.length);
  });

  test('when a batch names math channels sharing a chain, on several time bases, then each answers what reading it alone answers', async () => {
    // Power and Accel share Speed ms on Speed's base; the Rate channels are bases of their own (MDF channels decode whole: 2,300 samples of the budget).
    const names = ['Power', 'Throttle', 'Accel', 'Throttle 2Hz', 'Since lap start'];
    const window = { mode: 2, startTime: 1.005, duration: 3 };
    for (const query of ['', '?maxPoints=50']) {
      const path = `${dataset()}/channels${query}`;
      const batch = await json(send('POST', path, { channels: names, ...window }));
      const alone = await Promise.all(names.map(async (name) => (await json(send('POST', path, { channels: [name], ...window }))).channels[0]));
      expect(batch.channels).toEqual(alone);
      if (query) expect(batch.channels[0].samples.length).toBeLessThanOrEqual(50);
      const r = await send('POST', path, { channels: names, ...window }, { Accept: 'application/x-service-channels' });
      expect(decodeChannelsBody(new Uint8Array(await r.arrayBuffer())).map(toReadRecord)).toEqual(batch.channels);
    }
  });

  test('when a math channel with DecimalPlaces is read as JSON, binary and Arrow, then each answers round(x * 100) / 100 of its expression, the binary as int16 codes', async () => {
    const rounded = await json(get(`${dataset()}/channel?channel=Speed%20ms%20rounded`));
    const asJson = await json(get(`${dataset()}/channel?channel=Speed%20ms%202dp`));
    expect(asJson.samples).toEqual(rounded.samples);
    expect(asJson.samples[1]).toBe(10.02);
    const r = await get(`${dataset()}/channel?channel=Speed%20ms%202dp`, { Accept: 'application/x-service-channels' });
    const [series] = decodeChannelsBody(new Uint8Array(await r.arrayBuffer())) as ChannelSeries[];
    expect(series?.samples).toBeInstanceOf(Int16Array);
    expect(series?.conversion).toEqual({ numerator: 1, denominator: 100, offset: 0 });
    expect(toReadRecord(series as ChannelSeries)).toEqual(asJson);
    const arrow = await get(`${dataset()}/channel?channel=Speed%20ms%202dp`, { Accept: 'application/vnd.apache.arrow.stream' });
    const table = tableFromIPC(new Uint8Array(await arrow.arrayBuffer()));
    expect([...(table.getChild('Speed ms 2dp') ?? [])]).toEqual(asJson.samples);
    expect(table.schema.fields[1]?.metadata.get('conversion')).toBe(JSON.stringify({ numerator: 1, denominator: 100, offset: 0 }));
  });

  test('when a math channel with DecimalPlaces has gaps or codes past int16, in a window and with maxPoints, then JSON, binary and Arrow agree and gaps stay gaps', async () => {
    const power = await json(get(`${dataset()}/channel?channel=Power`));
    const powerDp = await json(get(`${dataset()}/channel?channel=Power%201dp`));
    expect(powerDp.samples).toEqual(power.samples.map((v: number | null) => (v === null ? null : Math.round(v * 10) / 10)));
    expect(powerDp.samples.at(-1)).toBeNull();
    // Speed / 3.6 * 100 reaches 3,000 cm/s: 300,000 codes at 2 decimals, int32.
    const cms = await get(`${dataset()}/channel?channel=Speed%20cm%2Fs`, { Accept: 'application/x-service-channels' });
    expect((decodeChannelsBody(new Uint8Array(await cms.arrayBuffer()))[0] as ChannelSeries).samples).toBeInstanceOf(Int32Array);
    for (const query of ['', '?maxPoints=40']) {
      // Two channels: MDF channels decode whole, 2,100 samples of the budget.
      const body = { channels: ['Power 1dp', 'Speed cm/s'], mode: 2, startTime: 9.5, duration: 0.5 };
      const path = `${dataset()}/channels${query}`;
      const asJson = await json(send('POST', path, body));
      const binary = await send('POST', path, body, { Accept: 'application/x-service-channels' });
      expect(decodeChannelsBody(new Uint8Array(await binary.arrayBuffer())).map(toReadRecord)).toEqual(asJson.channels);
      const arrow = tableFromIPC(new Uint8Array(await (await send('POST', path, body, { Accept: 'application/vnd.apache.arrow.stream' })).arrayBuffer()));
      for (const record of asJson.channels) {
        const column = arrow.batches.map((b) => b.getChild(record.name)).find((c) => c !== null && c.nullCount < c.length);
        expect([...(column ?? [])]).toEqual(record.samples);
      }
      // Throttle ends at 9.9 s: the rest of the window is a gap (which M4 keeps only between kept points).
      if (!query) expect(asJson.channels[0].samples.slice(-9)).toEqual(Array(9).fill(null));
    }
  });

  test('when a math channel reads a channel the file does not have, then it is a 422 naming both', async () => {
    const r = await get(`${dataset()}/channel?channel=Broken`);
    expect(r.status).toBe(422);
    expect(((await r.json()) as Json).detail).toContain('math channel Broken reads Nope, which this file does not have');
    const batch = await send('POST', `${dataset()}/channels`, { channels: ['Power', 'Accel', 'Broken'], mode: 0 });
    expect(batch.status).toBe(422);
    expect(((await batch.json()) as Json).errors).toEqual({ 'channels[2]': ['math channel Broken reads Nope, which this file does not have'] });
  });

  test('when a read names a math channel by a typo or its case, then the 400 suggests the account\'s math channel, as it does the file\'s channels', async () => {
    const r = await get(`${dataset()}/channel?channel=${encodeURIComponent('speed_ms')}`);
    expect(r.status).toBe(400);
    // The math channel first (its name differs only in case and spacing), then the names a few letters away.
    expect(((await r.json()) as Json).errors.channel[0]).toMatch(/^channel not found: speed_ms \(did you mean "Speed ms"[,?]/);
    const batch = await send('POST', `${dataset()}/channels`, { channels: ['Power', 'Powr'], mode: 0 });
    expect(((await batch.json()) as Json).errors).toEqual({ 'channels[1]': ['channel not found: Powr (did you mean "Power"?)'] });
  });

  test('when a math channel reads no channel and has no Rate, then the metadata leaves it out and a read is a 422 saying to give it one', async () => {
    const record = await json(get(`${dataset()}/metadata`));
    expect(record.channels.map((c: Json) => c.name)).not.toContain('Constant');
    const r = await get(`${dataset()}/channel?channel=Constant`);
    expect(r.status).toBe(422);
    expect(((await r.json()) as Json).errors).toEqual({ channel: ['math channel Constant reads no channel: give it a Rate to be evaluated at'] });
  });

  test('when a math channel reads only lapDistance(), then it needs a Rate too: without one it is left out and a read is a 422, with one it is read', async () => {
    const record = await json(get(`${dataset()}/metadata`));
    const names = record.channels.map((c: Json) => c.name);
    expect(names).not.toContain('Lap distance');
    expect(names).toContain('Lap distance 10Hz');
    const r = await get(`${dataset()}/channel?channel=Lap%20distance`);
    expect(r.status).toBe(422);
    expect(((await r.json()) as Json).errors).toEqual({ channel: ['math channel Lap distance reads no channel: give it a Rate to be evaluated at'] });
    // Speed rises 10 m/s + 2 m/s² · t from 0 s: 11 m driven by 1 s.
    const atRate = await json(get(`${dataset()}/channel?channel=Lap%20distance%2010Hz&start=0&duration=1.05`));
    expect(atRate.samples).toHaveLength(11);
    expect(atRate.samples[10]).toBeCloseTo(11, 1);
  });

  test('when a read needs more than READ_SAMPLE_BUDGET, then the inputs of its math channels and their evaluation count', async () => {
    // Power decodes Speed (1000) and Throttle (100) and makes its base's 1000 times and 1000 results for each of its two
    // definitions (Speed ms, Power): 4100. Speed ms: 1000 + 2000; Accel (derivative of Speed ms): 1000 + 3000. With
    // Speed itself, 12,100 > 12,000.
    expect((await send('POST', `${dataset()}/channels`, { channels: ['Power', 'Speed ms', 'Accel'], mode: 0 })).status).toBe(200);
    const r = await send('POST', `${dataset()}/channels`, { channels: ['Power', 'Speed ms', 'Accel', 'Speed'], mode: 0 });
    expect(r.status).toBe(413);
    expect(((await r.json()) as Json).detail).toContain('needs 12100 decoded samples');
  });

  test('when a math channel has a Rate of a megahertz, then its reads are 413 before any sample is made: its grid counts', async () => {
    await define('Speed MHz', '"Speed"', 'km/h', '1000000');
    // 10 s at 1 MHz: a grid of 10,000,001 samples, for its times and its one definition, beside Speed's 1000.
    for (const [method, path, body] of [
      ['GET', `${dataset()}/channel?channel=Speed%20MHz`, undefined],
      ['POST', `${dataset()}/channels`, { channels: ['Speed MHz'], mode: 0 }],
      ['POST', `${dataset()}/histogram`, { channel: 'Speed MHz' }],
      ['POST', `${dataset()}/scatter`, { x: 'Speed MHz', y: 'Speed' }],
    ] as const) {
      const r = await send(method, path, body);
      const problem = (await r.json()) as Json;
      expect({ path, status: r.status }).toEqual({ path, status: 413 });
      expect(problem.detail).toContain('READ_SAMPLE_BUDGET (12000)');
      // maxPoints would not help (it thins the answer, not the evaluation): the advice does not offer it as a way out.
      expect(problem.detail).toContain("(maxPoints thins the answer, not the samples decoded; a math channel's evaluation counts each array it makes, each time function's too, and one more for each 8 operations of an expression, at its Rate)");
      expect(Number(problem.samplesNeeded)).toBeGreaterThanOrEqual(20_000_002);
    }
    // A short window of it fits: 0.005 s at 1 MHz.
    const few = await json(get(`${dataset()}/channel?channel=Speed%20MHz&start=0&duration=0.005`));
    expect(few.samples.length).toBeGreaterThan(0);
  });

  test('when a math channel is the min of many integrals, then every read of it is a 413 naming READ_SAMPLE_BUDGET, each integral counted: at its Rate a window that fits is read', async () => {
    const integrals = (of: string, n: number) => `min(${Array.from({ length: n }, () => `integral(${of})`).join(', ')})`;
    await define('Many integrals', integrals('"Speed ms"', 20), 'm');
    // Speed (1,000 decoded) and its base's 1,000 samples for the times, Speed ms (1 array) and Many integrals: 20
    // integrals, the running minimum kept between them and the result, 22 arrays, and two for its 21 operations (20
    // integrals and the min: one for each 8). Counted as 2 arrays it was 4,000.
    const r = await get(`${dataset()}/channel?channel=Many%20integrals&maxPoints=100`);
    const problem = (await r.json()) as Json;
    expect({ status: r.status, samplesNeeded: problem.samplesNeeded }).toEqual({ status: 413, samplesNeeded: 1000 + 1000 * (1 + 1 + 22 + 2) });
    expect(problem.detail).toContain('needs 27000 decoded samples, more than READ_SAMPLE_BUDGET (12000)');
    expect(problem.errors).toEqual({ channel: ['need 27000 decoded samples, more than the budget of 12000'] });
    // The analysis reads evaluate it the same way, and count it the same way.
    for (const [path, body] of [
      ['channels', { channels: ['Many integrals'], mode: 0 }],
      ['histogram', { channel: 'Many integrals' }],
      ['lapstats', { channels: ['Many integrals'] }],
      ['scatter', { x: 'Many integrals', y: 'Speed' }],
    ] as const) {
      const answer = await send('POST', `${dataset()}/${path}`, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 413 });
      expect(((await answer.json()) as Json).detail).toContain('READ_SAMPLE_BUDGET (12000)');
    }
    // A chain counts every definition's arrays: three, each the min of 5 integrals of the one before (7 arrays each).
    await define('Chain 1', integrals('"Speed ms"', 5));
    await define('Chain 2', integrals('"Chain 1"', 5));
    await define('Chain 3', integrals('"Chain 2"', 5));
    const chained = await get(`${dataset()}/channel?channel=Chain%203`);
    expect({ status: chained.status, samplesNeeded: ((await chained.json()) as Json).samplesNeeded }).toEqual({ status: 413, samplesNeeded: 1000 + 1000 * (1 + 1 + 3 * 7) });
    // At a Rate of 10 Hz its grid over the file is 101 samples: 1,000 + 101 × 24 fits, and the numbers are the integral's.
    await define('Many integrals 10Hz', integrals('"Speed ms"', 20), 'm', '10');
    const fits = await json(get(`${dataset()}/channel?channel=Many%20integrals%2010Hz`));
    expect(fits.samples).toHaveLength(100);
    // Speed ms is 10 + 2t m/s: its integral from 0 is 10t + t².
    expect(fits.samples[50]).toBeCloseTo(10 * 5 + 25, 6);
  });

  test('when a math channel is 300 sines, then a whole read of it is a 413 counting its work (its operations) and at a low Rate it is read', async () => {
    // 4 µs of a pool thread a sample: counted as its one array, a read of it at 20 kHz took 30 s of a thread while
    // other users' reads waited. 300 sines and 299 sums: 599 operations, 74 arrays' worth beside its result's.
    const terms = Array.from({ length: 300 }, () => 'sin(Speed)');
    const sines = Array.from({ length: 30 }, (_, g) => `(${terms.slice(g * 10, g * 10 + 10).join(' + ')})`).join(' + ');
    await define('Sines', sines);
    const r = await get(`${dataset()}/channel?channel=Sines`);
    const problem = (await r.json()) as Json;
    // Speed's 1,000 samples decoded, and its base's 1,000 for the times, the result and the work.
    expect({ status: r.status, samplesNeeded: problem.samplesNeeded }).toEqual({ status: 413, samplesNeeded: 1000 + 1000 * (1 + 1 + 74) });
    expect(problem.detail).toContain('one more for each 8 operations of an expression');
    // At 10 Hz its grid over the 10 s file is 101 points: 1,000 + 101 × 76 fits, and each value is the sum of the sines.
    await define('Sines 10Hz', sines, '', '10');
    const fits = await json(get(`${dataset()}/channel?channel=Sines%2010Hz`));
    const speed = await json(get(`${dataset()}/channel?channel=Speed&start=5&duration=0.0001`));
    expect(fits.samples[50]).toBeCloseTo(300 * Math.sin(speed.samples[0]), 6);
  });

  test('when a math channel with a Rate reads no channel, then a window holds its grid points in [start, start + duration) clipped to the file, as many as a logged channel at that rate', async () => {
    await define('Ten Hz', '1', '', '10');
    // Throttle is logged at 10 Hz from 0 s to 9.9 s.
    for (const [start, duration, count] of [
      [1, 1, 10],
      [-1000, 1, 0],
      [-0.5, 1, 5],
      [9.5, 1, 5],
      [20, 1, 0],
      [2.5, 0, 0],
    ]) {
      const query = `start=${start}&duration=${duration}`;
      const [math, logged] = await Promise.all([json(get(`${dataset()}/channel?channel=Ten%20Hz&${query}`)), json(get(`${dataset()}/channel?channel=Throttle&${query}`))]);
      expect({ query, math: math.samples.length, logged: logged.samples.length }).toEqual({ query, math: count, logged: count });
    }
    // The whole file: [0, 10), its 100 points, as the catalogue counts them.
    const whole = await json(get(`${dataset()}/channel?channel=Ten%20Hz`));
    const record = await json(get(`${dataset()}/metadata`));
    expect([whole.samples.length, record.channels.find((c: Json) => c.name === 'Ten Hz').sampleCount]).toEqual([100, 100]);
  });

  test('when an expression does not parse, or closes a cycle, then the write is a 400 naming where and why', async () => {
    const bad = await send('POST', '/MathChannels', { ParameterUpdates: [{ Name: 'Name', Value: 'Bad' }, { Name: 'Expression', Value: 'Speed * (2 +' }] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('at character 12');
    const cycle = await send('PUT', `/MathChannels/${ids['Speed ms']}`, { ParameterUpdates: [{ Name: 'Expression', Value: 'Power / 2' }] });
    expect(cycle.status).toBe(400);
    expect(JSON.stringify(await cycle.json())).toContain('Speed ms → Power → Speed ms');
  });

  test('when a definition changes, then the next reads use it (the event drops the cached definitions)', async () => {
    const r = await send('PUT', `/MathChannels/${ids['Speed ms']}`, { ParameterUpdates: [{ Name: 'Expression', Value: '"Speed" * 1000 / 3600' }, { Name: 'Unit', Value: 'metres/s' }] });
    expect(r.status).toBeLessThan(300);
    const deadline = Date.now() + 10_000;
    let unit = '';
    while (Date.now() < deadline) {
      unit = (await json(get(`${dataset()}/channel?channel=Speed%20ms&start=0&duration=0.05`))).unit;
      if (unit === 'metres/s') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(unit).toBe('metres/s');
  });
});
