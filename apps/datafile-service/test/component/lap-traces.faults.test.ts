import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '../support/fixtures';
import { expectReadLimitAcrossReplicas, heldTaskSource, READ_LIMITS, useDatafileStack } from '../support/datafile-stack';

/**
 * The real pool worker, wrapped: a lap trace of lap 4 never finishes, one of lap 3 is held until the test lets it go;
 * every other task is the real worker's.
 */
function hangingLapWorker(dir: string, real: string): string {
  const path = join(dir, 'hanging-lap.worker.js');
  writeFileSync(
    path,
    `const real = require(${JSON.stringify(real)});
${heldTaskSource(dir)}
module.exports = real.default;
module.exports.catalogue = real.catalogue;
module.exports.stored = real.stored;
module.exports.laps = function (task) {
  if (task.lap.ref.lapIndex === 4) return new Promise(() => undefined);
  if (task.lap.ref.lapIndex === 3) return held(() => real.laps(task));
  return real.laps(task);
};
`,
  );
  return path;
}

describe('lap traces (distance, delta) over the read timeout or beyond the per-user read limit', () => {
  // With a second gateway replica: the per-user read limit is counted in the cache they share. With a user of another
  // account, whose reads that user's limit does not hold back.
  const started = useDatafileStack('datafile-laps-faults-', { ...READ_LIMITS, URL_SIGNING_SECRET: 'lap-traces-test-secret' }, { worker: hangingLapWorker, replica: true, outsider: true });
  let dataset: string;
  let othersDataset: string;
  let delta: (lapIndex: number, at?: string) => string;

  beforeAll(async () => {
    dataset = `/RunSheets/${await started.attached.entityWithFile('DataFile', 'Sample1.ld', fixture('Sample1.ld'))}/DataFileAccess/DataFile`;
    othersDataset = `/RunSheets/${await started.outsider.entityWithFile('DataFile', 'Sample1.ld', fixture('Sample1.ld'))}/DataFileAccess/DataFile`;
    delta = (lapIndex, at = started.base) => `${at}${dataset}/delta?lapIndex=${lapIndex}&referenceLapIndex=1`;
  }, 60_000);

  test('when a delta or a distance runs past the timeout, then 504 problem+json and the next deltas are served', async () => {
    // At once: the distance is the other account's user's (one user's second read would wait for the first).
    const [r, distance] = await Promise.all([fetch(delta(4), { headers: started.headers }), fetch(`${started.base}${othersDataset}/distance?lapIndex=4`, { headers: started.outsider.headers })]);
    expect(r.status).toBe(504);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(((await r.json()) as { detail: string }).detail).toContain(`within ${READ_LIMITS.DATAFILE_READ_TIMEOUT_MS} ms (DATAFILE_READ_TIMEOUT_MS)`);
    expect(distance.status).toBe(504);
    expect((await fetch(delta(2), { headers: started.headers })).status).toBe(200);
  });

  test('when a user has 1 read running and 1 waiting across two gateway replicas, then one more delta is a 429 with Retry-After', async () => {
    // Deltas of lap 3 are held on the pool until the test lets them go: one runs, the other waits for its slot.
    await expectReadLimitAcrossReplicas(started, (at) => delta(3, at), (at) => delta(2, at));
  });
});
