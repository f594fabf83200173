import { openDataFile, writeLdFile } from '@pitwall/formats';
import { fixture } from '../support/fixtures';
import { useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * Lap statistics with no sectors asked and no track sectors: the logger's split beacons time them, from its split time
 * channel (MoTeC's `Split Time`, the time of the split just completed, logged a little after each split beacon).
 */
describe('POST .../lapstats: sectors from the logger\'s split times', () => {
  const started = useDatafileStack('datafile-lapstats-splits-', {});
  const sample1 = fixture('Sample1.ld');
  let runSheet: string;
  let withDistances: string;

  /** Four 20 s laps at 10 Hz with splits of 5, 7 and 8 s on the flying laps, logged 1.5 s after each crossing, and a Lap Distance. */
  function splitsLd(): Uint8Array {
    const n = 800;
    const crossings: { at: number; split: number }[] = [];
    for (const lapStart of [20, 40]) for (const [k, split] of [5, 7, 8].entries()) crossings.push({ at: lapStart + ([5, 12, 20][k] as number), split });
    const splitAt = (t: number) => crossings.filter((c) => c.at + 1.5 <= t + 1e-9).at(-1)?.split ?? 0;
    return writeLdFile({
      channels: [
        { name: 'Lap Number', frequency: 10, samples: Array.from({ length: n }, (_, i) => Math.floor(i / 200)) },
        { name: 'Split Time', unit: 's', frequency: 10, type: 'float32', samples: Array.from({ length: n }, (_, i) => splitAt(i / 10)) },
        { name: 'Lap Distance', unit: 'm', frequency: 10, type: 'float32', samples: Array.from({ length: n }, (_, i) => (i % 200) * 5) },
      ],
    });
  }

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
    withDistances = await started.attached.entityWithFile('DataFile', 'splits.ld', splitsLd());
  }, 90_000);

  const lapStats = async (id: string, body: unknown): Promise<Json> => {
    const r = await fetch(`${started.base}/RunSheets/${id}/DataFileAccess/DataFile/lapstats`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(r.status).toBe(200);
    return r.json();
  };

  test("when Sample1.ld's statistics are read with no sectors, then its flying laps are split at the logger's split beacons, the splits add up to each lap, and there is a theoretical best", async () => {
    const body = await lapStats(runSheet, { channels: [] });
    expect(body.sectors).toEqual({ count: 3, startDistances: [], source: { kind: 'splits', channel: 'Split Time' } });
    // The logger's own splits, read independently: each change of Split Time, in order.
    const file = openDataFile(sample1);
    const split = file.readChannel('Split Time');
    const logged: number[] = [];
    for (let i = 1; i < split.samples.length; i++) if (split.samples[i] !== split.samples[i - 1]) logged.push(Number((split.samples[i] as number).toFixed(2)));
    const flying = body.laps.filter((l: Json) => l.kind === 'flying');
    expect(flying).toHaveLength(4);
    for (const lap of flying) {
      expect(lap.sectorTimes).toHaveLength(3);
      // The first two sectors are the logger's splits; the last is what is left of the lap, within a few hundredths of its split.
      const at = logged.findIndex((s, k) => Math.abs(s - lap.sectorTimes[0]) < 0.006 && Math.abs((logged[k + 1] as number) - lap.sectorTimes[1]) < 0.006);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(Math.abs((logged[at + 2] as number) - lap.sectorTimes[2])).toBeLessThan(0.06);
      expect(lap.sectorTimes.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(lap.lapTime, 6);
    }
    for (const lap of body.laps.filter((l: Json) => l.kind !== 'flying')) expect(lap.sectorTimes).toEqual([null, null, null]);
    const best = [0, 1, 2].map((k) => Math.min(...flying.map((l: Json) => l.sectorTimes[k])));
    expect(body.theoreticalBest.lapTime).toBeCloseTo(best.reduce((a, b) => a + b, 0), 6);
    expect(body.theoreticalBestNote).toBeNull();
  });

  test('when sectorStartDistances are given, then they time the sectors on the distance channel, not the splits', async () => {
    const splits = await lapStats(withDistances, { channels: [] });
    expect(splits.sectors.source).toEqual({ kind: 'splits', channel: 'Split Time' });
    expect(splits.laps.map((l: Json) => l.sectorTimes)).toEqual([
      [null, null, null],
      [5, 7, 8],
      [5, 7, 8],
      [null, null, null],
    ]);
    const byDistance = await lapStats(withDistances, { channels: [], sectorStartDistances: [0, 500] });
    expect(byDistance.sectors).toEqual({ count: 2, startDistances: [0, 500], source: { kind: 'channel', channel: 'Lap Distance' } });
    expect(byDistance.laps[1].sectorTimes.map((t: number) => Number(t.toFixed(6)))).toEqual([10, 10]);
  });
});
