import { randomUUID } from 'node:crypto';
import { PitwallClient } from '@pitwall/client';
import { openDataFile, sliceByLap, toNanosecond, writeLdFile } from '@pitwall/formats';
import { lapDelta, lapDistances } from '@pitwall/laps';
import { fixture } from '../support/fixtures';
import { useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * A 30 s outing of three 10 s laps (a 10 Hz Lap Number) with no distance channel: Ground Speed is 36 km/h (10 m/s)
 * all through lap 1 and 72 km/h (20 m/s) all through lap 2, so integrated distances are hand-computable.
 */
function speedOnlyLd(): Uint8Array {
  const n = 300;
  return writeLdFile({
    channels: [
      { name: 'Ground Speed', unit: 'km/h', frequency: 10, type: 'float32', samples: Array.from({ length: n }, (_, i) => (i < 100 ? 50 : i < 200 ? 36 : 72)) },
      { name: 'Lap Number', frequency: 10, samples: Array.from({ length: n }, (_, i) => Math.floor(i / 100)) },
    ],
  });
}

/** Laps, but neither a distance nor a speed channel. */
function noDistanceLd(): Uint8Array {
  return writeLdFile({
    channels: [
      { name: 'Engine RPM', unit: 'rpm', frequency: 10, samples: Array.from({ length: 200 }, (_, i) => 4000 + i) },
      { name: 'Wheel Speed FL', unit: 'km/h', frequency: 10, samples: Array.from({ length: 200 }, () => 100) },
      { name: 'Lap Number', frequency: 10, samples: Array.from({ length: 200 }, (_, i) => Math.floor(i / 100)) },
    ],
  });
}

describe('lap traces through the gateway: GET .../distance and GET .../delta (entity-service, datafile-service and gateway in-process)', () => {
  // With a user of another account, whose datasets the demo user must not read.
  const started = useDatafileStack('datafile-laps-', { URL_SIGNING_SECRET: 'lap-traces-test-secret' }, { outsider: true });
  let runSheet: string;
  let otherRunSheet: string;
  let speedOnly: string;
  const sample1 = fixture('Sample1.ld');
  const eager = openDataFile(sample1);
  // To the nanosecond, as the metadata's lapElapsedTimes.
  const lapTime = (i: number) => toNanosecond(eager.laps[i].endTime - eager.laps[i].startTime);

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
    otherRunSheet = await started.attached.entityWithFile('Logged', 'Sample1.ld', sample1, { compressed: true });
    speedOnly = await started.attached.entityWithFile('DataFile', 'speed.ld', speedOnlyLd());
  }, 60_000);

  const get = (path: string, accountId = started.demo.accountId) => fetch(`${started.base}${path}`, { headers: { ApiKey: started.demo.apiKey, AccountId: accountId } });
  const json = async (r: Response | Promise<Response>): Promise<Json> => (await r).json();
  const dataset = (id = runSheet, group = 'DataFile') => `/RunSheets/${id}/DataFileAccess/${encodeURIComponent(group)}`;

  /** Sample1's lap as the service traces it from its 1 Hz Lap Distance channel (named: by default the 10 Hz Ground Speed is integrated), metres from the lap's line, which is its first point (0 s, 0 m). */
  function sample1Trace(lapIndex: number): { times: number[]; distances: number[] } {
    const slice = sliceByLap(eager.readChannel('Lap Distance'), eager.laps, lapIndex);
    const times = Array.from(slice.samples, (_, i) => slice.startTime + i - eager.laps[lapIndex].startTime);
    return { times: [0, ...times], distances: [0, ...lapDistances(times, slice.samples, { kind: 'channel', unit: 'm' })] };
  }
  const micro = (values: number[]) => values.map((v) => Math.round(v * 1e6) / 1e6);
  const milli = (values: number[]) => values.map((v) => Math.round(v * 1e3) / 1e3);

  describe('GET .../distance', () => {
    test('when the distance channel is named, then the lap\'s times and distances come from it, in metres from the lap\'s line', async () => {
      const r = await get(`${dataset()}/distance?lapIndex=3&distanceChannel=Lap%20Distance`);
      expect(r.status).toBe(200);
      const body = await json(r);
      const expected = sample1Trace(3);
      expect(body).toMatchObject({ entityId: runSheet, entityType: 'RunSheets', attachedFileGroupName: 'DataFile', lapIndex: 3, lapTime: lapTime(3), source: { kind: 'channel', channel: 'Lap Distance' } });
      expect(body.times).toEqual(micro(expected.times));
      expect(body.distances).toEqual(milli(expected.distances));
      // Sample1's lap 3 (its third flying lap) runs from the line at 222.99 s to 288.18 s: the line, then 66 samples at 1 Hz, the first at 223 s
      // (0.01 s in). Lap Distance still reads the previous lap (2259, 2315 m) at 223 and 224 s and restarts at 225 s,
      // 2.01 s after the line, reading 114 m: the two samples before lie on the way there (0.01 × 114 / 2.01,
      // 1.01 × 114 / 2.01 m). The last sample, at 288 s, reads 2248 m.
      expect(body.times).toHaveLength(67);
      expect(body.times.slice(0, 4)).toEqual([0, 0.01, 1.01, 2.01]);
      expect(body.distances.slice(0, 4)).toEqual([0, Math.round((0.01 * 114 * 1000) / 2.01) / 1000, Math.round((1.01 * 114 * 1000) / 2.01) / 1000, 114]);
      expect(body.distances.at(-1)).toBe(2248);
    });

    test('when the dataset has only a speed channel, then the distance is the speed integrated (hand-computed)', async () => {
      const body = await json(get(`${dataset(speedOnly)}/distance?lapIndex=1`));
      expect(body.source).toEqual({ kind: 'integrated', channel: 'Ground Speed' });
      expect(body.lapTime).toBe(10);
      // Lap 1 is 100 samples at 10 Hz, all at 36 km/h = 10 m/s: sample i is at 0.1·i s and 10 × 0.1·i = i metres.
      expect(body.times).toHaveLength(100);
      body.times.forEach((t: number, i: number) => expect(t).toBeCloseTo(i / 10, 9));
      body.distances.forEach((d: number, i: number) => expect(d).toBeCloseTo(i, 9));
    });

    test('when maxPoints is given, then at most that many points come back, evenly spaced in time from the first sample to the last', async () => {
      const body = await json(get(`${dataset(speedOnly)}/distance?lapIndex=1&maxPoints=4`));
      // 0 to 9.9 s in 3 steps of 3.3 s; at 10 m/s: 0, 33, 66, 99 m.
      expect(body.times).toHaveLength(4);
      [0, 3.3, 6.6, 9.9].forEach((t, k) => expect(body.times[k]).toBeCloseTo(t, 9));
      [0, 33, 66, 99].forEach((d, k) => expect(body.distances[k]).toBeCloseTo(d, 9));
    });
  });

  describe('GET .../delta', () => {
    test('when lap 3 is compared with lap 4 over the named distance channel, then the delta starts at 0 at the line and ends near lapTime(3) - lapTime(4)', async () => {
      const r = await get(`${dataset()}/delta?lapIndex=3&referenceLapIndex=4&distanceChannel=Lap%20Distance`);
      expect(r.status).toBe(200);
      const body = await json(r);
      const ref = (lapIndex: number) => ({ entityId: runSheet, entityType: 'RunSheets', attachedFileGroupName: 'DataFile', lapIndex, lapTime: lapTime(lapIndex) });
      expect(body.lap).toEqual(ref(3));
      expect(body.reference).toEqual(ref(4));
      expect(body.source).toEqual({ kind: 'channel', channel: 'Lap Distance' });
      // The grid: one point per point of lap 3's trace (its line and 66 samples), from the line to the shorter lap's last
      // sample (lap 3: 2248 m at 288 s; lap 4: 2211 m at 351 s, its line at 351.94 s).
      expect(body.distance).toHaveLength(67);
      expect(body.distance[0]).toBe(0);
      expect(body.distance.at(-1)).toBe(2211);
      expect(body.delta[0]).toBe(0);
      // Both laps start at their line, so the delta's first metres are small (a lap of a second's samples would be off
      // by up to a second here if laps were compared from their first samples).
      expect(Math.abs(body.delta[1])).toBeLessThan(0.1);
      // Lap 3 took 65.19 s, lap 4 63.76 s. At 2211 m lap 4 is at its 351 s sample (62.82 s in); lap 3 is between its
      // 287 s (2194 m, 64.01 s in) and 288 s (2248 m) samples: 64.01 + 17/54 = 64.33 s, a delta of 1.50 s.
      expect(Math.abs(body.delta.at(-1) - (lapTime(3) - lapTime(4)))).toBeLessThan(0.2);
      expect(body.delta.at(-1)).toBeCloseTo(64.01 + 17 / 54 - 62.82, 5);
      // Every point is the library's delta of the two traces of the file's own channel, to the millimetre and the microsecond.
      const expected = lapDelta(sample1Trace(3), sample1Trace(4), 67);
      expect(body.distance).toEqual(milli(Array.from(expected.distance)));
      expect(body.delta).toEqual(micro(Array.from(expected.delta)));
    });

    test('when no distance channel is named, then Sample1\'s 10 Hz Ground Speed is integrated, not its 1 Hz Lap Distance: ten times the points, and the delta at the shorter lap\'s end nearer the lap times\' difference', async () => {
      const automatic = await json(get(`${dataset()}/delta?lapIndex=3&referenceLapIndex=4`));
      const coarse = await json(get(`${dataset()}/delta?lapIndex=3&referenceLapIndex=4&distanceChannel=Lap%20Distance`));
      expect(automatic.source).toEqual({ kind: 'integrated', channel: 'Ground Speed' });
      expect(automatic.distance.length).toBeGreaterThan(9 * coarse.distance.length);
      const difference = lapTime(3) - lapTime(4);
      // Lap 3 took 65.19 s, lap 4 63.76 s: integrated, the delta at lap 4's end is within 0.05 s of the 1.43 s (the 1 Hz
      // channel's, 0.075 s off).
      expect(Math.abs(automatic.delta.at(-1) - difference)).toBeLessThan(0.05);
      expect(Math.abs(automatic.delta.at(-1) - difference)).toBeLessThan(Math.abs(coarse.delta.at(-1) - difference));
      const trace = await json(get(`${dataset()}/distance?lapIndex=3`));
      expect(trace.source).toEqual({ kind: 'integrated', channel: 'Ground Speed' });
    });

    test('when a lap is compared with itself, then the delta is zero everywhere', async () => {
      const body = await json(get(`${dataset()}/delta?lapIndex=3&referenceLapIndex=3`));
      expect(body.delta.length).toBeGreaterThan(10);
      expect(body.delta.every((d: number) => d === 0)).toBe(true);
    });

    test('when the speed is integrated, then the delta is the hand-computed one, maxPoints points', async () => {
      // Lap 1 at 10 m/s reaches 99 m; lap 2 at 20 m/s 198 m. Grid 0, 33, 66, 99 m: lap 1 takes d/10 s, lap 2 d/20 s,
      // so the delta is d/20: 0, 1.65, 3.3, 4.95 s.
      const body = await json(get(`${dataset(speedOnly)}/delta?lapIndex=1&referenceLapIndex=2&maxPoints=4`));
      expect(body.source).toEqual({ kind: 'integrated', channel: 'Ground Speed' });
      [0, 33, 66, 99].forEach((d, k) => expect(body.distance[k]).toBeCloseTo(d, 9));
      [0, 1.65, 3.3, 4.95].forEach((d, k) => expect(body.delta[k]).toBeCloseTo(d, 9));
    });

    test('when the reference lap is in another RunSheet\'s dataset, then the delta is the same as within one dataset and names both', async () => {
      const within = await json(get(`${dataset()}/delta?lapIndex=3&referenceLapIndex=4`));
      const r = await get(`${dataset()}/delta?lapIndex=3&referenceLapIndex=4&referenceEntityId=${otherRunSheet.toUpperCase()}&referenceAttachedFileGroupName=Logged`);
      expect(r.status).toBe(200);
      const across = await json(r);
      expect(across.lap).toEqual(within.lap);
      expect(across.reference).toEqual({ ...within.reference, entityId: otherRunSheet, attachedFileGroupName: 'Logged' });
      expect(across.delta).toEqual(within.delta);
      // And with the generated client (reference in the other dataset, lap from this one).
      const client = new PitwallClient({ baseUrl: started.base, apiKey: started.demo.apiKey, accountId: started.demo.accountId });
      const result = await client.getRunSheetDataFileLapDelta(runSheet, 'DataFile', '4', '3', { referenceEntityId: otherRunSheet, referenceAttachedFileGroupName: 'Logged', maxPoints: '10' });
      expect(result.statusCode).toBe(200);
      expect(result.returnValue?.distance).toHaveLength(10);
      expect(result.returnValue?.reference).toMatchObject({ entityId: otherRunSheet, lapIndex: 3 });
    });
  });

  describe('errors (problem+json)', () => {
    const problem = async (r: Response, status: number) => {
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      return json(r);
    };

    test('when lapIndex or referenceLapIndex is outside the laps, missing or not a number, then 400 names the parameter', async () => {
      const last = eager.laps.length - 1;
      expect((await problem(await get(`${dataset()}/distance?lapIndex=${last + 1}`), 400)).errors).toHaveProperty('lapIndex');
      expect((await problem(await get(`${dataset()}/delta?lapIndex=${last + 1}&referenceLapIndex=1`), 400)).detail).toContain(`0..${last}`);
      const reference = await problem(await get(`${dataset()}/delta?lapIndex=1&referenceLapIndex=${last + 1}`), 400);
      expect(reference.errors).toHaveProperty('referenceLapIndex');
      expect(reference.errors).not.toHaveProperty('lapIndex');
      expect((await problem(await get(`${dataset()}/distance`), 400)).errors).toHaveProperty('lapIndex');
      expect((await problem(await get(`${dataset()}/delta?lapIndex=1`), 400)).errors).toHaveProperty('referenceLapIndex');
      await problem(await get(`${dataset()}/delta?lapIndex=-1&referenceLapIndex=1`), 400);
      await problem(await get(`${dataset()}/distance?lapIndex=two`), 400);
      await problem(await get(`${dataset()}/distance?lapIndex=1&maxPoints=2`), 400);
      expect((await problem(await get(`${dataset()}/delta?lapIndex=1&referenceLapIndex=1&referenceEntityId=not-a-guid`), 400)).errors).toHaveProperty('referenceEntityId');
    });

    test('when the dataset, the entity, the account or the reference is not the caller\'s to read, then 404', async () => {
      await problem(await get(`${dataset(runSheet, 'NoSuchGroup')}/distance?lapIndex=1`), 404);
      await problem(await get(`${dataset(randomUUID())}/delta?lapIndex=1&referenceLapIndex=1`), 404);
      await problem(await get(`${dataset()}/distance?lapIndex=1`, randomUUID()), 404);
      // The reference: unknown, a group it does not have, and another account's RunSheet holding the same file.
      await problem(await get(`${dataset()}/delta?lapIndex=1&referenceLapIndex=1&referenceEntityId=${randomUUID()}`), 404);
      await problem(await get(`${dataset()}/delta?lapIndex=1&referenceLapIndex=1&referenceAttachedFileGroupName=NoSuchGroup`), 404);
      const foreign = await started.outsider.entityWithFile('DataFile', 'Sample1.ld', sample1);
      await problem(await get(`${dataset()}/delta?lapIndex=1&referenceLapIndex=1&referenceEntityId=${foreign}`), 404);
    });

    test('when the file is not a data file, then 415', async () => {
      const id = await started.attached.entityWithFile('DataFile', 'notes.txt', new TextEncoder().encode('just some notes, not telemetry\n'.repeat(20)));
      await problem(await get(`${dataset(id)}/distance?lapIndex=0`), 415);
      await problem(await get(`${dataset()}/delta?lapIndex=1&referenceLapIndex=0&referenceEntityId=${id}`), 415);
    });

    test('when the dataset has neither a distance channel nor a speed channel, then 422 says what is missing', async () => {
      const id = await started.attached.entityWithFile('DataFile', 'engine.ld', noDistanceLd());
      const body = await problem(await get(`${dataset(id)}/distance?lapIndex=0`), 422);
      expect(body.detail).toContain('no distance channel');
      expect(body.detail).toContain('no speed channel');
      // As a reference too: the lap's dataset is fine, the reference's is not.
      await problem(await get(`${dataset()}/delta?lapIndex=1&referenceLapIndex=0&referenceEntityId=${id}`), 422);
    });

    test('when the named distance source never moves (Sample1\'s Speed over Ground is 0 throughout: no GPS fix), then the delta is a 422 naming the lap and the channel, not an empty delta', async () => {
      const body = await problem(await get(`${dataset()}/delta?lapIndex=3&referenceLapIndex=4&distanceChannel=Speed%20over%20Ground`), 422);
      const why = `lap 3 of RunSheets ${runSheet} dataset 'DataFile' never moves on its distance source: its speed channel Speed over Ground integrates to 0 m (the channel is 0 or empty throughout the lap), so it has no delta over distance; give another distanceChannel`;
      expect(body.errors).toEqual({ lapIndex: [why] });
      // Its distance read still answers (0 m throughout), as the lap was logged.
      const distance = await json(get(`${dataset()}/distance?lapIndex=3&distanceChannel=Speed%20over%20Ground`));
      expect(Math.max(...distance.distances)).toBe(0);
    });

    test('when the .ld is damaged, then 422 with the reason', async () => {
      const id = await started.attached.entityWithFile('DataFile', 'cut.ld', sample1.slice(0, 3000));
      expect((await problem(await get(`${dataset(id)}/distance?lapIndex=0`), 422)).detail).toMatch(/could not be read: .+/);
    });
  });
});
