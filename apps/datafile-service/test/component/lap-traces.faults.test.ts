import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { admittedKey } from '@pitwall/gateway';
import type { InProcessStack } from '@pitwall/service-host/testing';
import type { UploadedDatasets } from '../support/uploaded-datasets';
import { fixture } from '../support/fixtures';
import { READ_LIMITS, startDatafileStack } from '../support/datafile-stack';
import { workspaceTempDir } from '../support/workspace-tmp';

/** The real pool worker, wrapped: a lap trace of lap 4 never finishes; every other task is the real worker's. */
function hangingLapWorker(dir: string, real: string): string {
  const path = join(dir, 'hanging-lap.worker.js');
  writeFileSync(
    path,
    `const real = require(${JSON.stringify(real)});
module.exports = real.default;
module.exports.catalogue = real.catalogue;
module.exports.stored = real.stored;
module.exports.laps = function (task) {
  if (task.lap.ref.lapIndex === 4) return new Promise(() => undefined);
  return real.laps(task);
};
`,
  );
  return path;
}

describe('lap traces (distance, delta) over the read timeout or beyond the per-user read limit', () => {
  const dir = workspaceTempDir('datafile-laps-faults-');
  let stack: InProcessStack;
  let base: string;
  let second: string;
  let userId: string;
  let headers: Record<string, string>;
  let dataset: string;
  let delta: (lapIndex: number, at?: string) => string;
  let attached: UploadedDatasets;

  beforeAll(async () => {
    let demo: { apiKey: string; accountId: string; userId: string };
    // With a second gateway replica: the per-user read limit is counted in the cache they share.
    ({ stack, base, second, demo, attached } = await startDatafileStack(dir, { ...READ_LIMITS, URL_SIGNING_SECRET: 'lap-traces-test-secret' }, { worker: hangingLapWorker, replica: true }));
    headers = { ApiKey: demo.apiKey, AccountId: demo.accountId };
    userId = demo.userId;
    const runSheet = await attached.entity();
    await attached.attach(runSheet, 'DataFile', 'Sample1.ld', fixture('Sample1.ld'));
    dataset = `/RunSheets/${runSheet}/DataFileAccess/DataFile`;
    delta = (lapIndex, at = base) => `${at}${dataset}/delta?lapIndex=${lapIndex}&referenceLapIndex=1`;
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when a delta or a distance runs past the timeout, then 504 problem+json and the next deltas are served', async () => {
    const r = await fetch(delta(4), { headers });
    expect(r.status).toBe(504);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(((await r.json()) as { detail: string }).detail).toContain('1500 ms');
    expect((await fetch(delta(2), { headers })).status).toBe(200);
    expect((await fetch(`${base}${dataset}/distance?lapIndex=4`, { headers })).status).toBe(504);
  });

  test('when a user has 1 read running and 1 waiting across two gateway replicas, then one more delta is a 429 with Retry-After', async () => {
    const admitted = async (n: number) => {
      while (Number(await stack.cache.get(admittedKey(userId))) !== n) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const running = fetch(delta(4), { headers });
    await admitted(1);
    const waiting = fetch(delta(4, second), { headers });
    await admitted(2);
    const refused = await fetch(delta(2, second), { headers });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect((await running).status).toBe(504);
    expect((await waiting).status).toBe(504);
    await admitted(0);
    expect((await fetch(delta(2, second), { headers })).status).toBe(200);
  });
});
