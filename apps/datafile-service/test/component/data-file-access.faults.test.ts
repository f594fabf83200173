import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '../support/fixtures';
import { expectReadLimitAcrossReplicas, heldTaskSource, READ_LIMITS, useDatafileStack } from '../support/datafile-stack';

/**
 * The real pool worker, wrapped: a read of `Engine RPM` kills its worker thread (process.exit in a worker ends that
 * thread only), a read of `Ground Speed` never finishes, a read of `Brake Pres Front` is held until the test lets it
 * go; every other read is the real worker's.
 */
function faultyWorker(dir: string, real: string): string {
  const path = join(dir, 'faulty.worker.js');
  writeFileSync(
    path,
    `const real = require(${JSON.stringify(real)});
${heldTaskSource(dir)}
module.exports = function (task) {
  const name = task.channels[0] && task.channels[0].name;
  if (name === 'Engine RPM') process.exit(1);
  if (name === 'Ground Speed') return new Promise(() => undefined);
  if (name === 'Brake Pres Front') return held(() => (real.default || real)(task));
  return (real.default || real)(task);
};
module.exports.catalogue = real.catalogue;
module.exports.stored = real.stored;
`,
  );
  return path;
}

describe('data file reads that fail on the pool (a worker crash, a read over the timeout) or beyond the per-user limit', () => {
  // With a second gateway replica: the per-user read limit is counted in the cache they share. With a user of another
  // account, whose reads that user's limit does not hold back.
  const started = useDatafileStack('datafile-faults-', { ...READ_LIMITS, URL_SIGNING_SECRET: 'datafile-faults-test-secret' }, { worker: faultyWorker, replica: true, outsider: true });
  let path: (channel: string, at?: string) => string;
  let othersPath: (channel: string, at?: string) => string;

  beforeAll(async () => {
    const read = (runSheet: string) => (channel: string, at = started.base) => `${at}/RunSheets/${runSheet}/DataFileAccess/DataFile/channel?channel=${encodeURIComponent(channel)}&lapIndex=1`;
    path = read(await started.attached.entityWithFile('DataFile', 'Sample1.ld', fixture('Sample1.ld')));
    othersPath = read(await started.outsider.entityWithFile('DataFile', 'Sample1.ld', fixture('Sample1.ld')));
  }, 60_000);

  test('when the worker of a read dies, then that read alone is a 500 problem+json revealing nothing, and the pool keeps serving', async () => {
    const [crashed, healthy] = await Promise.all([fetch(path('Engine RPM'), { headers: started.headers }), fetch(path('Susp Pos FL'), { headers: started.headers })]);
    expect(crashed.status).toBe(500);
    expect(crashed.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await crashed.json()) as { detail?: string };
    expect(JSON.stringify(problem)).not.toMatch(/worker|exit|piscina|stack|\.ts|\.js/i);
    expect(healthy.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await fetch(path('Susp Pos FL'), { headers: started.headers })).status).toBe(200);
  });

  test('when a read runs past the timeout, then 504 problem+json through either gateway replica, its work is abandoned and the next reads are served', async () => {
    // Both threads are given hanging reads at once (the other account's user's beside the demo user's: one user's second
    // read would wait for the first): had they not been aborted, nothing would be served now. The other user's goes
    // through the second gateway replica, which answers the service's 504 as the first does.
    const [r, others] = await Promise.all([fetch(path('Ground Speed'), { headers: started.headers }), fetch(othersPath('Ground Speed', started.second), { headers: started.outsider.headers })]);
    expect(r.status).toBe(504);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(((await r.json()) as { detail: string }).detail).toContain(`within ${READ_LIMITS.DATAFILE_READ_TIMEOUT_MS} ms (DATAFILE_READ_TIMEOUT_MS)`);
    expect(others.status).toBe(504);
    expect(others.headers.get('content-type')).toContain('application/problem+json');
    expect(((await others.json()) as { detail: string }).detail).toContain('(DATAFILE_READ_TIMEOUT_MS)');
    expect((await fetch(path('Susp Pos FL'), { headers: started.headers })).status).toBe(200);
    expect((await fetch(path('Susp Pos FL'), { headers: started.headers })).status).toBe(200);
  });

  test('when a user has 1 read running and 1 waiting across two gateway replicas, then one more is a 429 with Retry-After', async () => {
    // Reads of Brake Pres Front are held on the pool until the test lets them go: one runs, the other waits for its slot.
    await expectReadLimitAcrossReplicas(started, (at) => path('Brake Pres Front', at), (at) => path('Susp Pos FL', at));
  });
});
