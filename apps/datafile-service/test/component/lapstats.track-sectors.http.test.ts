import { rmSync } from 'node:fs';
import { writeLdFile } from '@pitwall/formats';
import type { InProcessStack } from '@pitwall/service-host/testing';
import { startDatafileStack } from '../support/datafile-stack';
import type { UploadedDatasets } from '../support/uploaded-datasets';
import { workspaceTempDir } from '../support/workspace-tmp';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * A 40 s outing at 10 Hz in four 10 s laps (out, flying, flying, in): Ground Speed 50 km/h on the out- and in-lap,
 * 36 km/h (10 m/s) on lap 1 and 72 km/h (20 m/s) on lap 2, so a sector starting at d metres starts d/10 s into lap 1
 * and d/20 s into lap 2.
 */
function fourLapsLd(): Uint8Array {
  const n = 400;
  const lapOf = (i: number) => Math.floor(i / 100);
  return writeLdFile({
    channels: [
      { name: 'Ground Speed', unit: 'km/h', frequency: 10, type: 'float32', samples: Array.from({ length: n }, (_, i) => [50, 36, 72, 50][lapOf(i)] as number) },
      { name: 'Lap Number', frequency: 10, samples: Array.from({ length: n }, (_, i) => lapOf(i)) },
    ],
  });
}

/** Laps but no distance or speed channel: sectors cannot be timed on it. */
function noSpeedLd(): Uint8Array {
  return writeLdFile({
    channels: [
      { name: 'Engine RPM', unit: 'rpm', frequency: 10, samples: Array.from({ length: 200 }, (_, i) => 4000 + i) },
      { name: 'Lap Number', frequency: 10, samples: Array.from({ length: 200 }, (_, i) => Math.floor(i / 100)) },
    ],
  });
}

describe("POST .../lapstats without sectorStartDistances: the sectors of the session's track (TrackSectorDefinitions)", () => {
  const dir = workspaceTempDir('datafile-track-sectors-');
  let stack: InProcessStack;
  let base: string;
  let demo: { accountId: string; apiKey: string };
  let attached: UploadedDatasets;
  let runSheet: string;
  let noSpeed: string;
  let setup: string;
  const sectorIds: string[] = [];

  const request = async (method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<Json> => {
    const result = await attached.client.request<Json>(method, path, { query, ...(body ? { body } : {}) });
    if (!result.success) throw new Error(`${method} ${path}: ${result.statusCode} ${result.message}`);
    return result.returnValue;
  };
  const parameters = (values: Record<string, string>) => ({ ParameterUpdates: Object.entries(values).map(([Name, Value]) => ({ Name, Value })) });
  const lapStats = async (id: string, body: unknown, type = 'RunSheets'): Promise<Json> => {
    const r = await fetch(`${base}/${type}/${id}/DataFileAccess/DataFile/lapstats`, { method: 'POST', headers: { ApiKey: demo.apiKey, AccountId: demo.accountId, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer: Json = await r.json();
    if (r.status !== 200) throw new Error(`expected 200, got ${r.status}: ${JSON.stringify(answer)}`);
    return answer;
  };

  beforeAll(async () => {
    ({ stack, base, demo, attached } = await startDatafileStack(dir, {}));
    runSheet = await attached.entity();
    await attached.attach(runSheet, 'DataFile', 'four-laps.ld', fourLapsLd());
    noSpeed = await attached.entity();
    await attached.attach(noSpeed, 'DataFile', 'no-speed.ld', noSpeedLd());
    setup = await attached.entity('Setups');
    await attached.attach(setup, 'DataFile', 'four-laps.ld', fourLapsLd());
    // The track: a configuration with three sectors from 0, 50 and 70 m, and the session (the helper's one) run on it.
    const track = await request('POST', '/Tracks', parameters({ Name: 'Test track' }));
    const configuration = await request('POST', '/TrackConfigurations', parameters({ Name: 'Full' }), { trackId: track.Id });
    for (const [name, start] of [['S1', '0'], ['S2', '50'], ['S3', '70']] as const) {
      sectorIds.push((await request('POST', '/TrackSectorDefinitions', parameters({ Name: name, StartDistance: start }), { trackConfigurationId: configuration.Id })).Id);
    }
    const [championship] = await request('GET', '/Championships');
    const [event] = await request('GET', '/Events', undefined, { championshipId: championship.Id });
    const [session] = await request('GET', '/Sessions', undefined, { eventId: event.Id });
    await request('PUT', `/Sessions/${session.Id}`, parameters({ TrackConfigurationId: configuration.Id }));
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("when the session's track has sector definitions, then each lap is split at their start distances and the splits add up to the lap time", async () => {
    const body = await lapStats(runSheet, { channels: [] });
    expect(body.sectors).toEqual({ count: 3, startDistances: [0, 50, 70], source: { kind: 'integrated', channel: 'Ground Speed' } });
    const [, lap1, lap2] = body.laps;
    // Lap 1 at 10 m/s: 5 s to 50 m, 2 s to 70 m, the rest of its 10 s; lap 2 at 20 m/s: 2.5 s, 1 s, the rest.
    [5, 2, 3].forEach((t, k) => expect(lap1.sectorTimes[k]).toBeCloseTo(t, 9));
    [2.5, 1, 6.5].forEach((t, k) => expect(lap2.sectorTimes[k]).toBeCloseTo(t, 9));
    for (const lap of [lap1, lap2]) expect(lap.sectorTimes.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(lap.lapTime, 9);
    expect(body.theoreticalBest.lapTime).toBeCloseTo(2.5 + 1 + 3, 9);
    expect(body.theoreticalBest.sectors.map((s: Json) => s.lapIndex)).toEqual([2, 2, 1]);
  });

  test('when the request gives sectorStartDistances, then they are the sectors, not the track\'s', async () => {
    const body = await lapStats(runSheet, { channels: [], sectorStartDistances: [0, 50] });
    expect(body.sectors.startDistances).toEqual([0, 50]);
    expect(body.laps[1].sectorTimes).toHaveLength(2);
  });

  test('when a sector definition is edited, then the next read splits at its new start distance', async () => {
    await request('PUT', `/TrackSectorDefinitions/${sectorIds[2]}`, parameters({ StartDistance: '80' }));
    const body = await lapStats(runSheet, { channels: [] });
    expect(body.sectors.startDistances).toEqual([0, 50, 80]);
    expect(body.laps[1].sectorTimes[2]).toBeCloseTo(2, 9);
  });

  test('when the file has no distance or speed channel, or the entity is under no session, then there are no sectors and no error', async () => {
    const unsplit = await lapStats(noSpeed, { channels: [] });
    expect(unsplit.sectors).toBeNull();
    expect(unsplit.theoreticalBestNote).toMatch(/TrackSectorDefinitions/);
    const ofSetup = await lapStats(setup, { channels: [] }, 'Setups');
    expect(ofSetup.sectors).toBeNull();
    expect(ofSetup.laps).toHaveLength(4);
  });
});
