import { createDemoLdFile } from '@pitwall/formats';
import { useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * The demo outing `npm start` seeds (createDemoLdFile with the full channel set), read as a race engineer reads it:
 * a flying lap 0.4 s slower than another over the same track ends its delta 0.4 s behind, so each lap must drive the
 * same length by its Ground Speed (which the delta integrates) and by its GPS position (which the track map draws).
 */
describe('the demo outing\'s laps through GET .../delta, .../distance and POST .../trackmap', () => {
  const started = useDatafileStack('datafile-demo-laps-', { URL_SIGNING_SECRET: 'demo-laps-test-secret' });
  let runSheet: string;
  let metadata: Json;

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'demo-outing.ld', createDemoLdFile({ fullChannelSet: true, flyingLaps: 5 }));
    metadata = await (await get('/metadata')).json();
  }, 60_000);

  function get(path: string): Promise<Response> {
    return fetch(`${started.base}/RunSheets/${runSheet}/DataFileAccess/DataFile${path}`, { headers: started.headers });
  }
  const lapTime = (lapIndex: number): number => metadata.lapElapsedTimes[lapIndex];

  test('when every lap is compared with the first flying lap, then its delta ends at its lap-time difference, out- and in-lap too', async () => {
    expect(metadata.lapCount).toBe(7);
    const differences: number[] = [];
    for (let lapIndex = 0; lapIndex < metadata.lapCount; lapIndex++) {
      const r = await get(`/delta?lapIndex=${lapIndex}&referenceLapIndex=1`);
      expect(r.status).toBe(200);
      const body: Json = await r.json();
      expect(body.source).toEqual({ kind: 'integrated', channel: 'Ground Speed' });
      const difference = lapTime(lapIndex) - lapTime(1);
      expect(body.delta.at(-1)).toBeCloseTo(difference, 2); // within 5 ms
      differences.push(difference);
    }
    // The flying laps' times differ (0.4 s between some), so the deltas above are not all zero.
    expect(Math.max(...differences.slice(1, -1)) - Math.min(...differences.slice(1, -1))).toBeGreaterThanOrEqual(0.4);
  });

  test('when each lap\'s distance is read, then every lap drives the same length by its speed, and its GPS path on the track map is that length too', async () => {
    const lengths: number[] = [];
    for (let lapIndex = 0; lapIndex < metadata.lapCount; lapIndex++) {
      const body: Json = await (await get(`/distance?lapIndex=${lapIndex}`)).json();
      lengths.push(body.distances.at(-1));
      const map = await fetch(`${started.base}/RunSheets/${runSheet}/DataFileAccess/DataFile/trackmap`, {
        method: 'POST',
        headers: { ...started.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ lapIndex }),
      });
      expect(map.status).toBe(200);
      const drawn: Json = await map.json();
      expect(drawn.source).toBe('gps');
      // The GPS path (20 Hz chords) is within 0.2 % of the integrated speed's length.
      expect(Math.abs(drawn.points.distance.at(-1) / body.distances.at(-1) - 1)).toBeLessThan(0.002);
    }
    // The same track length, lap after lap (within 0.5 m of 2.58 km: the last 20 ms sample of a lap is its end).
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThan(0.5);
  });
});
