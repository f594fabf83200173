import { writeLdFile } from '@pitwall/formats';
import { defineMathChannel, useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const HZ = 50;
const LAP = 20;
const SPEED = 20; // m/s
/** The flying laps' circle: driven once in LAP seconds at SPEED, turning left. */
const RADIUS = (SPEED * LAP) / (2 * Math.PI);
const G = 9.80665;

/**
 * An 80 s outing cut into four 20 s laps by its Lap Number (out, flying, flying, in): straight at 36 km/h on the out-
 * and in-lap, a circle at 72 km/h turning at 360° per lap on the flying ones. The turn is logged three ways: Gyro
 * Yaw Velocity in deg/s, Yaw Rate 2 in rad/s, G Force Lat in G (v·ω).
 */
function circleLd(): Uint8Array {
  const n = 4 * LAP * HZ;
  const flying = (i: number) => i >= LAP * HZ && i < 3 * LAP * HZ;
  const omega = (2 * Math.PI) / LAP;
  const column = (f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
  return writeLdFile({
    channels: [
      { name: 'Ground Speed', unit: 'km/h', frequency: HZ, type: 'float32', samples: column((i) => (flying(i) ? SPEED : 10) * 3.6) },
      { name: 'Gyro Yaw Velocity', unit: 'deg/s', frequency: HZ, type: 'float32', samples: column((i) => (flying(i) ? 360 / LAP : 0)) },
      { name: 'Yaw Rate 2', unit: 'rad/s', frequency: HZ, type: 'float32', samples: column((i) => (flying(i) ? omega : 0)) },
      { name: 'G Force Lat', unit: 'G', frequency: HZ, type: 'float32', samples: column((i) => (flying(i) ? (SPEED * omega) / G : 0)) },
      { name: 'Throttle', unit: '%', frequency: 10, type: 'float32', samples: Array.from({ length: 4 * LAP * 10 }, (_, i) => i % 100) },
      { name: 'Lap Number', frequency: 10, samples: Array.from({ length: 4 * LAP * 10 }, (_, i) => Math.floor(i / (LAP * 10))) },
    ],
  });
}

const SIDE = 200;
const [LAT0, LON0] = [52.07, -1.02];
/** Three 40 s laps at 10 Hz around a 200 m square (north, east, south, west from its south-west corner), as GPS fixes on a sphere. */
function gpsLd(): Uint8Array {
  const R = 6_371_008.8;
  const perLap = 400;
  const lat: number[] = [];
  const lon: number[] = [];
  for (let i = 0; i < 3 * perLap; i++) {
    const along = ((i % perLap) / perLap) * 4 * SIDE;
    const side = Math.floor(along / SIDE);
    const s = along - side * SIDE;
    const [north, east] = [
      [s, 0],
      [SIDE, s],
      [SIDE - s, SIDE],
      [0, SIDE - s],
    ][side] as [number, number];
    lat.push(LAT0 + (north / R) * (180 / Math.PI));
    lon.push(LON0 + (east / (R * Math.cos((LAT0 * Math.PI) / 180))) * (180 / Math.PI));
  }
  return writeLdFile({
    channels: [
      { name: 'GPS Latitude', unit: 'deg', frequency: 10, type: 'int32', scaling: { dec: 7 }, samples: lat },
      { name: 'GPS Longitude', unit: 'deg', frequency: 10, type: 'int32', scaling: { dec: 7 }, samples: lon },
      { name: 'Ground Speed', unit: 'km/h', frequency: 10, type: 'float32', samples: lat.map(() => 72) },
      { name: 'Lap Number', frequency: 10, samples: lat.map((_, i) => Math.floor(i / perLap)) },
    ],
  });
}

/** Speed and laps, nothing to turn with. */
function plainLd(): Uint8Array {
  return writeLdFile({
    channels: [
      { name: 'Ground Speed', unit: 'km/h', frequency: 10, type: 'float32', samples: Array.from({ length: 400 }, () => 100) },
      { name: 'Lap Number', frequency: 10, samples: Array.from({ length: 400 }, (_, i) => Math.floor(i / 100)) },
    ],
  });
}

/**
 * A flying lap of speed and yaw rate is 2 × 1,000 samples; with Throttle 2,200 (fits), with Throttle x2 2,600 (its 200
 * inputs, and its base's 200 times and 200 results: fits), with G Force Lat 3,000 (does not).
 */
const LIMITS = { READ_SAMPLE_BUDGET: '2800' };

describe('the track map through the gateway: POST .../trackmap', () => {
  const started = useDatafileStack('datafile-trackmap-', { URL_SIGNING_SECRET: 'trackmap-test-secret' }, { datafileEnv: LIMITS });
  let runSheet: string;

  beforeAll(async () => {
    const { attached } = started;
    runSheet = await attached.entity();
    await attached.attach(runSheet, 'DataFile', 'circle.ld', circleLd());
    await attached.attach(runSheet, 'Gps', 'square.ld', gpsLd());
    await attached.attach(runSheet, 'Plain', 'plain.ld', plainLd());
  }, 60_000);

  const post = (body: unknown, group = 'DataFile', id = runSheet) =>
    fetch(`${started.base}/RunSheets/${id}/DataFileAccess/${group}/trackmap`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const answer = async (r: Response, status = 200): Promise<Json> => {
    const body = await r.json();
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(body)}`);
    return body;
  };
  /** Each point's distance from the circle's centre, (0, R): the car starts at the origin heading +x and turns left. */
  const radii = (body: Json) => body.points.x.map((x: number, i: number) => Math.hypot(x, body.points.y[i] - RADIUS));

  test('when a flying lap has speed (km/h) and a yaw rate (deg/s), then its path is the circle driven, closed, with distance and lap time', async () => {
    const body = await answer(await post({ lapIndex: 1 }));
    expect(body).toMatchObject({
      lap: { entityId: runSheet, entityType: 'RunSheets', attachedFileGroupName: 'DataFile', lapIndex: 1, lapTime: LAP },
      startTime: LAP,
      source: 'yaw-rate',
      channels: [
        { role: 'speed', name: 'Ground Speed', unit: 'km/h' },
        { role: 'yawRate', name: 'Gyro Yaw Velocity', unit: 'deg/s' },
      ],
      colour: null,
      closed: true,
      count: LAP * HZ,
    });
    expect(body.points.value).toBeUndefined();
    // The last sample is one period before the lap's end: 0.4 m short of the start, taken back by the closure.
    expect(body.closureErrorMetres).toBeCloseTo(SPEED / HZ, 1);
    for (const r of radii(body)) expect(Math.abs(r - RADIUS)).toBeLessThan(0.5);
    expect(body.points.distance.at(-1)).toBeCloseTo(SPEED * (LAP - 1 / HZ), 1);
    expect(body.points.time[0]).toBe(0);
    expect(body.points.time.at(-1)).toBeCloseTo(LAP - 1 / HZ, 6);
  });

  test('when the request names a yaw rate in rad/s, or asks for lateral acceleration (G), then the same circle comes back', async () => {
    const radians = await answer(await post({ lapIndex: 2, channels: { yawRate: 'Yaw Rate 2' } }));
    expect(radians.channels[1]).toEqual({ role: 'yawRate', name: 'Yaw Rate 2', unit: 'rad/s' });
    for (const r of radii(radians)) expect(Math.abs(r - RADIUS)).toBeLessThan(0.5);
    const lateral = await answer(await post({ lapIndex: 2, source: 'lateral-acceleration' }));
    expect(lateral.source).toBe('lateral-acceleration');
    expect(lateral.channels[1]).toEqual({ role: 'lateralAcceleration', name: 'G Force Lat', unit: 'G' });
    for (const r of radii(lateral)) expect(Math.abs(r - RADIUS)).toBeLessThan(0.5);
  });

  test('when maxPoints and a colour are given, then at most maxPoints points evenly spaced over distance, each with the colour channel there', async () => {
    const body = await answer(await post({ lapIndex: 1, maxPoints: 50, colour: 'Throttle' }));
    expect(body.colour).toEqual({ name: 'Throttle', unit: '%' });
    expect(body.count).toBe(LAP * HZ);
    const { distance, time, value } = body.points;
    expect(distance.length).toBeLessThanOrEqual(50);
    expect(value).toHaveLength(distance.length);
    const steps = distance.slice(1).map((d: number, i: number) => d - distance[i]);
    for (const step of steps) expect(Math.abs(step - distance.at(-1) / 49)).toBeLessThan(0.5);
    // Throttle counts 0..99 every 10 s at 10 Hz from the file's start: at lap time t (lap from 20 s) it is 10·t mod 100.
    for (let i = 0; i < value.length; i += 7) {
      const expected = (10 * (LAP + time[i])) % 100;
      if (expected < 99) expect(value[i]).toBeCloseTo(expected, 6);
    }
  });

  test('when the colour is a math channel, then each point has its evaluated value there: Throttle x2 is twice the Throttle colour', async () => {
    await defineMathChannel(started, { Name: 'Throttle x2', Expression: '"Throttle" * 2', Unit: '%' });
    const logged = await answer(await post({ lapIndex: 1, maxPoints: 50, colour: 'Throttle' }));
    const math = await answer(await post({ lapIndex: 1, maxPoints: 50, colour: 'Throttle x2' }));
    expect(math.colour).toEqual({ name: 'Throttle x2', unit: '%' });
    expect(math.points.distance).toEqual(logged.points.distance);
    expect(math.points.value).toEqual(logged.points.value.map((v: number | null) => (v === null ? null : 2 * v)));
  });

  test('when the lap is the out-lap, then it is not closed: no closure error and no correction', async () => {
    const body = await answer(await post({ lapIndex: 0 }));
    expect(body).toMatchObject({ closed: false, closureErrorMetres: null });
    // Straight along +x at 10 m/s.
    expect(body.points.x.at(-1)).toBeCloseTo(10 * (LAP - 1 / HZ), 1);
    expect(Math.max(...body.points.y.map(Math.abs))).toBe(0);
  });

  test('when the dataset has GPS latitude and longitude, then they are projected: the square comes back with 200 m sides, x east and y north', async () => {
    const body = await answer(await post({ lapIndex: 1 }, 'Gps'));
    expect(body.source).toBe('gps');
    expect(body.channels.map((c: Json) => c.name)).toEqual(['GPS Latitude', 'GPS Longitude']);
    const { x, y, distance } = body.points;
    const corner = (k: number) => [x[k * 100], y[k * 100]] as [number, number];
    for (let k = 0; k < 3; k++) {
      const [a, b] = [corner(k), corner(k + 1)];
      expect(Math.abs(Math.hypot(b[0] - a[0], b[1] - a[1]) - SIDE)).toBeLessThan(SIDE * 0.005);
    }
    expect(corner(1)[1] - corner(0)[1]).toBeGreaterThan(195);
    expect(corner(2)[0] - corner(1)[0]).toBeGreaterThan(195);
    expect(distance.at(-1)).toBeCloseTo(4 * SIDE - 2, -1);
    // GPS is not corrected: the gap is the last fix's 2 m short of the corner it started from.
    expect(body.closureErrorMetres).toBeCloseTo(2, 0);
  });

  test('when the lap is out of range, the colour unknown, or a named channel unknown or of another unit, then 400 naming each', async () => {
    const body = await answer(await post({ lapIndex: 9, colour: 'Nope', channels: { speed: 'Nada', yawRate: 'Throttle' } }), 400);
    expect(Object.keys(body.errors).sort()).toEqual(['channels.speed', 'channels.yawRate', 'colour', 'lapIndex']);
    expect(body.errors.colour).toEqual(['channel not found: Nope']);
    const close = await answer(await post({ lapIndex: 1, colour: 'ground speed' }), 400);
    expect(close.errors.colour).toEqual(['channel not found: ground speed (did you mean "Ground Speed"?)']);
    expect(body.errors['channels.yawRate'][0]).toContain("Throttle has unit '%', not a unit of a yaw rate (deg/s (or °/s, dps) or rad/s)");
    const tooMany = await answer(await post({ lapIndex: 1, maxPoints: 20_001 }), 400);
    expect(Object.keys(tooMany.errors)).toEqual(['maxPoints']);
    const noLap = await answer(await post({ colour: 'Throttle' }), 400);
    expect(Object.keys(noLap.errors)).toEqual(['lapIndex']);
  });

  test('when the dataset has neither GPS nor speed with a yaw rate or a lateral acceleration, then 422 naming what is missing', async () => {
    const body = await answer(await post({ lapIndex: 1 }, 'Plain'), 422);
    expect(body.detail).toContain("dataset 'Plain' has no source of a track map; missing GPS: a latitude channel ('GPS Latitude'");
    expect(body.detail).toContain("yaw-rate: a yaw rate channel ('Gyro Yaw Velocity'");
    expect(body.detail).toContain('lateral-acceleration: a lateral acceleration channel');
    const gps = await answer(await post({ lapIndex: 1, source: 'gps' }), 422);
    expect(gps.detail).toContain('no gps track map; missing GPS: a latitude channel');
  });

  test('when the lap needs more decoded samples than READ_SAMPLE_BUDGET, then 413 naming it', async () => {
    expect((await post({ lapIndex: 1, colour: 'Throttle' })).status).toBe(200);
    const body = await answer(await post({ lapIndex: 1, colour: 'G Force Lat' }), 413);
    expect(body.detail).toContain('needs 3000 decoded samples, more than READ_SAMPLE_BUDGET (2800)');
    expect(body.sampleBudget).toBe(2800);
  });

  test('when the entity does not exist, then 404', async () => {
    expect((await post({ lapIndex: 1 }, 'DataFile', '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
