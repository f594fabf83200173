import { rmSync } from 'node:fs';
import { openDataFile, writeLdFile } from '@pitwall/formats';
import { interpolateLinear } from '@pitwall/laps';
import type { InProcessStack } from '@pitwall/service-host/testing';
import type { UploadedDatasets } from '../support/uploaded-datasets';
import { fixture } from '../support/fixtures';
import { defineMathChannel, startDatafileStack } from '../support/datafile-stack';
import { workspaceTempDir } from '../support/workspace-tmp';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Laps (10 Hz Lap Number, two 10 s laps), a wheel speed of 36 km/h and an RPM, but no logged distance or car speed channel. */
function wheelSpeedOnlyLd(): Uint8Array {
  return writeLdFile({
    channels: [
      { name: 'Engine RPM', unit: 'rpm', frequency: 10, samples: Array.from({ length: 200 }, (_, i) => 4000 + i) },
      { name: 'Wheel Speed FL', unit: 'km/h', frequency: 10, samples: Array.from({ length: 200 }, () => 36) },
      { name: 'Lap Number', frequency: 10, samples: Array.from({ length: 200 }, (_, i) => Math.floor(i / 100)) },
    ],
  });
}

describe('math channels in lap overlays and lap traces: distanceChannel on GET .../distance and .../delta (entity-service, datafile-service and gateway in-process)', () => {
  const dir = workspaceTempDir('datafile-laps-math-');
  let stack: InProcessStack;
  let base: string;
  let demo: { accountId: string; apiKey: string };
  let attached: UploadedDatasets;
  let runSheet: string;
  let otherRunSheet: string;
  let wheelOnly: string;
  /** Another file without a distance or speed channel of its own, on a car holding the parameter Calib. */
  let calibrated: string;
  const sample1 = fixture('Sample1.ld');
  const eager = openDataFile(sample1);

  const headers = (extra: Record<string, string> = {}) => ({ ApiKey: demo.apiKey, AccountId: demo.accountId, ...extra });
  const get = (path: string) => fetch(`${base}${path}`, { headers: headers() });
  const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify(body) });
  const ok = async (r: Response | Promise<Response>): Promise<Json> => {
    const answer = await r;
    const body = await answer.json();
    expect({ status: answer.status, body: answer.status === 200 ? undefined : body }).toEqual({ status: 200, body: undefined });
    return body;
  };
  const problem = async (r: Response | Promise<Response>, status: number): Promise<Json> => {
    const answer = await r;
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    return answer.json();
  };
  const dataset = (id = runSheet, group = 'DataFile') => `/RunSheets/${id}/DataFileAccess/${encodeURIComponent(group)}`;
  const q = encodeURIComponent;
  const define = (Name: string, Expression: string, Unit: string, DecimalPlaces?: string) => defineMathChannel({ base, headers: headers() }, { Name, Expression, Unit, DecimalPlaces });

  beforeAll(async () => {
    ({ stack, base, demo, attached } = await startDatafileStack(dir, {}));
    runSheet = await attached.entity();
    await attached.attach(runSheet, 'DataFile', 'Sample1.ld', sample1);
    otherRunSheet = await attached.entity();
    await attached.attach(otherRunSheet, 'Logged', 'Sample1.ld', sample1, { compressed: true });
    wheelOnly = await attached.entity();
    await attached.attach(wheelOnly, 'DataFile', 'wheel-speed.ld', wheelSpeedOnlyLd());
    await define('Ground Speed x2', '"Ground Speed" * 2', 'km/h');
    await define('Ground Speed copy', '"Ground Speed"', 'km/h');
    await define('Lap Distance copy', '"Lap Distance"', 'm');
    await define('RPM copy', '"Engine RPM"', 'rpm');
    // A car speed by name that only a file without one of its own picks (a logged channel of the name wins).
    await define('Speed', '"Wheel Speed FL"', 'km/h');
    // DecimalPlaces: every reader sees the rounded values, as the same rounding written in the expression gives them.
    await define('Speed ms whole', '"Ground Speed" / 3.6', 'm/s', '0');
    await define('Speed ms round', 'round("Ground Speed" / 3.6)', 'm/s');
    await define('Ground Speed x1.5', '"Ground Speed" * 1.5', 'km/h', '1');
    await define('Ground Speed x1.5 round', 'round("Ground Speed" * 1.5 * 10) / 10', 'km/h');
    // A distance by name reading a parameter: picked before the math Speed only where the file's car holds Calib.
    const parameter = await post('/ParameterDefinitions', { ParameterUpdates: [{ Name: 'Name', Value: 'Calib' }, { Name: 'EntityType', Value: 'Cars' }, { Name: 'ParameterType', Value: 'Double' }] });
    expect(parameter.status).toBe(201);
    await defineMathChannel({ base, headers: headers() }, { Name: 'Distance', Expression: 'lapTime() * param("Calib")', Unit: 'm', Rate: '10' });
    calibrated = await attached.entity();
    await attached.attach(calibrated, 'DataFile', 'wheel-speed.ld', wheelSpeedOnlyLd());
    const held = await fetch(`${base}/Cars/${attached.ownersOf(calibrated).carId}`, { method: 'PUT', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify({ ParameterUpdates: [{ Name: 'Calib', Value: '20' }] }) });
    expect(held.status).toBeLessThan(300);
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * What the viewer's overlay draws for one lap of one channel: the lap read at maxPoints (one batch read, mode 1),
   * each point's lap-relative time moved onto the lap's distance trace (`.../distance`).
   */
  async function overlayTrace(path: string, lapIndex: number, channel: string, distanceQuery = ''): Promise<{ x: number[]; y: (number | null)[] }> {
    const read = await ok(post(`${path}/channels?maxPoints=400`, { channels: [channel], mode: 1, lapIndex }));
    const distance = await ok(get(`${path}/distance?lapIndex=${lapIndex}${distanceQuery}`));
    const record = read.channels[0];
    const lapStart = eager.laps[lapIndex].startTime;
    // As the viewer does: the answer's times are rounded to the microsecond, so a point that close past its ends is at its ends.
    const x = interpolateLinear(Float64Array.from(distance.times), Float64Array.from(distance.distances), Float64Array.from(record.times, (t: number) => t - lapStart), 1e-6);
    return { x: Array.from(x), y: record.samples };
  }

  describe('overlay over distance', () => {
    test('when a math channel of twice Ground Speed is overlaid, then its trace is twice the logged channel\'s, at the same distances, in two runs', async () => {
      for (const path of [dataset(), dataset(otherRunSheet, 'Logged')]) {
        const logged = await overlayTrace(path, 2, 'Ground Speed');
        const doubled = await overlayTrace(path, 2, 'Ground Speed x2');
        expect(logged.y.length).toBeGreaterThan(100);
        expect(doubled.x).toEqual(logged.x);
        expect(doubled.y).toEqual(logged.y.map((v) => (v === null ? null : expect.closeTo(2 * v, 9))));
      }
    });

    test('when the distance source of the overlay is a math channel, then the trace lies at the same distances as over its logged input', async () => {
      const overLogged = await overlayTrace(dataset(), 2, 'Ground Speed x2', `&distanceChannel=${q('Ground Speed')}`);
      const overMath = await overlayTrace(dataset(), 2, 'Ground Speed x2', `&distanceChannel=${q('Ground Speed copy')}`);
      expect(overMath).toEqual(overLogged);
      expect(overMath.x.at(-1)).toBeGreaterThan(2000);
    });

    test('when a math channel with DecimalPlaces is overlaid, or is the distance source, then the rounded values are used, as the expression\'s round gives them', async () => {
      const rounded = await overlayTrace(dataset(), 2, 'Ground Speed x1.5', `&distanceChannel=${q('Speed ms whole')}`);
      const reference = await overlayTrace(dataset(), 2, 'Ground Speed x1.5 round', `&distanceChannel=${q('Speed ms round')}`);
      expect(rounded).toEqual(reference);
      expect(rounded.y.some((v) => v !== null && !Number.isInteger(v))).toBe(true);
      const whole = await ok(get(`${dataset()}/distance?lapIndex=2&distanceChannel=${q('Speed ms whole')}`));
      const full = await ok(get(`${dataset()}/distance?lapIndex=2&distanceChannel=${q('Ground Speed')}`));
      expect(whole.distances).not.toEqual(full.distances);
    });

    test('when the overlaid math channel reads a channel one of the files lacks, then that file\'s read is a 422 naming the channel and the dataset', async () => {
      await ok(post(`${dataset()}/channels`, { channels: ['Ground Speed x2'], mode: 1, lapIndex: 1 }));
      const body = await problem(post(`${dataset(wheelOnly)}/channels`, { channels: ['Ground Speed x2'], mode: 1, lapIndex: 1 }), 422);
      expect(body.detail).toContain(`RunSheets ${wheelOnly} dataset 'DataFile'`);
      expect(body.detail).toContain('math channel Ground Speed x2 reads Ground Speed, which this file does not have');
    });
  });

  describe('GET .../distance?distanceChannel=', () => {
    test('when it names a math channel of a speed, then the distance is that speed integrated, as for the logged speed it copies', async () => {
      const logged = await ok(get(`${dataset()}/distance?lapIndex=2&distanceChannel=${q('Ground Speed')}`));
      const math = await ok(get(`${dataset()}/distance?lapIndex=2&distanceChannel=${q('Ground Speed copy')}`));
      expect(logged.source).toEqual({ kind: 'integrated', channel: 'Ground Speed' });
      expect(math.source).toEqual({ kind: 'integrated', channel: 'Ground Speed copy' });
      expect({ ...math, source: undefined }).toEqual({ ...logged, source: undefined });
      const doubled = await ok(get(`${dataset()}/distance?lapIndex=2&distanceChannel=${q('Ground Speed x2')}`));
      expect(doubled.times).toEqual(logged.times);
      expect(doubled.distances).toEqual(logged.distances.map((d: number) => expect.closeTo(2 * d, 2)));
    });

    test('when it names a math channel in metres, then it is taken as a distance channel, as the logged one is when named', async () => {
      const picked = await ok(get(`${dataset()}/distance?lapIndex=2&distanceChannel=${q('Lap Distance')}`));
      const math = await ok(get(`${dataset()}/distance?lapIndex=2&distanceChannel=${q('Lap Distance copy')}`));
      expect(picked.source).toEqual({ kind: 'channel', channel: 'Lap Distance' });
      expect(math.source).toEqual({ kind: 'channel', channel: 'Lap Distance copy' });
      expect(math.distances).toEqual(picked.distances);
      expect(math.times).toEqual(picked.times);
    });

    test('when the file has no distance or speed channel of its own, then a math channel picked by name is its distance source', async () => {
      const body = await ok(get(`${dataset(wheelOnly)}/distance?lapIndex=1`));
      expect(body.source).toEqual({ kind: 'integrated', channel: 'Speed' });
      // 36 km/h is 10 m/s: sample i of the lap is at 0.1·i s and i metres.
      expect(body.times).toHaveLength(100);
      body.distances.forEach((d: number, i: number) => expect(d).toBeCloseTo(i, 9));
    });

    test('when the math channel picked by name reads a param() the file\'s car lacks, then it is passed over, as the metadata leaves it out; where the car holds it, it is picked', async () => {
      const listed = async (id: string) => ((await ok(get(`${dataset(id)}/metadata`))).channels as { name: string }[]).map((c) => c.name);
      expect(await listed(wheelOnly)).not.toContain('Distance');
      const passed = await ok(get(`${dataset(wheelOnly)}/distance?lapIndex=1`));
      expect(passed.source).toEqual({ kind: 'integrated', channel: 'Speed' });
      expect(await problem(get(`${dataset(wheelOnly)}/distance?lapIndex=1&distanceChannel=Distance`), 422)).toMatchObject({ errors: { distanceChannel: [expect.stringContaining('math channel Distance reads param("Calib")')] } });
      // Held: the distance channel by name is picked before the speed, its values the parameter's (20 m/s over the lap).
      expect(await listed(calibrated)).toContain('Distance');
      const picked = await ok(get(`${dataset(calibrated)}/distance?lapIndex=1`));
      expect(picked.source).toEqual({ kind: 'channel', channel: 'Distance' });
      expect(picked.distances.at(-1)).toBeCloseTo(2 * passed.distances.at(-1), 6);
    });

    test('when it names no channel of the file, or one in neither a distance nor a speed unit, then 400 on distanceChannel', async () => {
      const unknown = await problem(get(`${dataset()}/distance?lapIndex=2&distanceChannel=Nope`), 400);
      expect(unknown.errors.distanceChannel[0]).toContain('Nope');
      for (const name of ['Engine RPM', 'RPM copy']) {
        const body = await problem(get(`${dataset()}/distance?lapIndex=2&distanceChannel=${q(name)}`), 400);
        expect(body.errors.distanceChannel).toEqual([`${name} is in 'rpm', neither a distance (m, km) nor a speed (km/h, kph, m/s, mph, knots)`]);
      }
    });
  });

  describe('GET .../delta?distanceChannel=', () => {
    test('when it names a math channel, then the delta is the one over the logged channel it copies, across two runs', async () => {
      const across = `&referenceEntityId=${otherRunSheet}&referenceAttachedFileGroupName=Logged`;
      const logged = await ok(get(`${dataset()}/delta?lapIndex=2&referenceLapIndex=3${across}&distanceChannel=${q('Ground Speed')}`));
      const math = await ok(get(`${dataset()}/delta?lapIndex=2&referenceLapIndex=3${across}&distanceChannel=${q('Ground Speed copy')}`));
      expect(math.source).toEqual({ kind: 'integrated', channel: 'Ground Speed copy' });
      expect(math.distance.length).toBeGreaterThan(100);
      expect(math.distance).toEqual(logged.distance);
      expect(math.delta).toEqual(logged.delta);
      expect(math.lap).toEqual(logged.lap);
      expect(math.reference).toEqual(logged.reference);
    });

    test('when the math channel reads a param(), then each lap\'s dataset takes its own car\'s value', async () => {
      // Two runs of the same file on two cars: the reference's Calib doubles its distances.
      await define('Scaled speed', '"Ground Speed" * param("Calib")', 'km/h');
      const [lap, reference] = [await attached.entity(), await attached.entity()];
      for (const [id, Calib] of [[lap, '1'], [reference, '2']] as const) {
        await attached.attach(id, 'DataFile', 'Sample1.ld', sample1);
        const r = await fetch(`${base}/Cars/${attached.ownersOf(id).carId}`, { method: 'PUT', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify({ ParameterUpdates: [{ Name: 'Calib', Value: Calib }] }) });
        expect(r.status).toBeLessThan(300);
      }
      const channel = `&distanceChannel=${q('Scaled speed')}`;
      const delta = await ok(get(`${dataset(lap)}/delta?lapIndex=2&referenceLapIndex=2&referenceEntityId=${reference}${channel}`));
      const reversed = await ok(get(`${dataset(reference)}/delta?lapIndex=2&referenceLapIndex=2&referenceEntityId=${lap}${channel}`));
      // The lap's own trace (Calib 1: its logged speed's): the reference reached x where the lap reached x / 2.
      const trace = await ok(get(`${dataset(lap)}/distance?lapIndex=2${channel}`));
      const length = Math.max(...trace.distances);
      const timeAt = (x: number) => interpolateLinear(Float64Array.from(trace.distances), Float64Array.from(trace.times), Float64Array.of(x))[0] as number;
      expect(delta.distance.at(-1)).toBeCloseTo(length, 0);
      expect(delta.delta.at(-1)).toBeGreaterThan(10);
      delta.distance.forEach((x: number, k: number) => {
        if (x > 10) expect(delta.delta[k]).toBeCloseTo(timeAt(x) - timeAt(x / 2), 1);
      });
      expect(reversed.distance).toEqual(delta.distance);
      expect(reversed.delta).toEqual(delta.delta.map((d: number) => expect.closeTo(-d, 6)));
    });

    test('when the math channel reads a channel the reference\'s file lacks, then 422 names the channel and that dataset', async () => {
      const body = await problem(get(`${dataset()}/delta?lapIndex=2&referenceLapIndex=1&referenceEntityId=${wheelOnly}&distanceChannel=${q('Ground Speed copy')}`), 422);
      expect(body.detail).toBe(`The data file could not be read: RunSheets ${wheelOnly} dataset 'DataFile': math channel Ground Speed copy reads Ground Speed, which this file does not have`);
      expect(body.errors).toEqual({ distanceChannel: ['math channel Ground Speed copy reads Ground Speed, which this file does not have'] });
    });
  });
});
