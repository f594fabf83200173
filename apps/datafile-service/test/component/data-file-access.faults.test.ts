import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import { entityService } from '@pitwall/entity-service';
import { admittedKey, gateway } from '@pitwall/gateway';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { datafileService } from '../../src/definition';
import { AttachedDatasets } from '../support/attached-datasets';
import { fixture } from '../support/fixtures';
import { bundleShapeWorker } from '../support/worker-bundle';
import { workspaceTempDir } from '../support/workspace-tmp';


/**
 * The real pool worker, wrapped: a read of `Engine RPM` kills its worker thread (process.exit in a worker ends that
 * thread only), a read of `Ground Speed` never finishes; every other read is the real worker's.
 */
function faultyWorker(dir: string, real: string): string {
  const path = join(dir, 'faulty.worker.js');
  writeFileSync(
    path,
    `const real = require(${JSON.stringify(real)});
module.exports = function (task) {
  const name = task.channels[0] && task.channels[0].name;
  if (name === 'Engine RPM') process.exit(1);
  if (name === 'Ground Speed') return new Promise(() => undefined);
  return (real.default || real)(task);
};
`,
  );
  return path;
}

describe('data file reads that fail on the pool (a worker crash, a read over the timeout) or beyond the per-user limit', () => {
  const dir = workspaceTempDir('datafile-faults-');
  let stack: InProcessStack;
  let base: string;
  let second: string;
  let userId: string;
  let headers: Record<string, string>;
  let path: (channel: string, at?: string) => string;
  let attached: AttachedDatasets;

  beforeAll(async () => {
    const worker = faultyWorker(dir, await bundleShapeWorker(join(dir, 'worker')));
    stack = await startInProcessStack({ env: { BLOB_DIR: join(dir, 'blobs'), DATAFILE_CACHE_DIR: join(dir, 'decompressed'), DATAFILE_READ_TIMEOUT_MS: '1500', DATAFILE_READS_PER_USER: '1', DATAFILE_READ_QUEUE: '1' } });
    await stack.start(entityService);
    await stack.start({ ...datafileService, pools: [{ name: 'shape', entry: worker, maxThreads: 2 }] });
    const running = await stack.start(gateway);
    base = running.address;
    // A second gateway replica: the per-user read limit is counted in the cache they share.
    second = (await stack.start(gateway)).address;
    const demo = await running.parts.auth.ensureDemoAccount({ keyFile: join(dir, 'demo-api-key') });
    headers = { ApiKey: demo.apiKey as string, AccountId: demo.accountId };
    userId = demo.userId;
    attached = new AttachedDatasets(stack.databaseUrl, new FilesystemBlobStore(join(dir, 'blobs')));
    const runSheet = await attached.entity(demo.accountId);
    await attached.attach(demo.accountId, runSheet, 'DataFile', 'Sample1.ld', fixture('Sample1.ld'));
    path = (channel, at = base) => `${at}/RunSheets/${runSheet}/DataFileAccess/DataFile/channel?channel=${encodeURIComponent(channel)}&lapIndex=1`;
  }, 60_000);
  afterAll(async () => {
    await attached?.close();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when the worker of a read dies, then that read alone is a 500 problem+json revealing nothing, and the pool keeps serving', async () => {
    const [crashed, healthy] = await Promise.all([fetch(path('Engine RPM'), { headers }), fetch(path('Susp Pos FL'), { headers })]);
    expect(crashed.status).toBe(500);
    expect(crashed.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await crashed.json()) as { detail?: string };
    expect(JSON.stringify(problem)).not.toMatch(/worker|exit|piscina|stack|\.ts|\.js/i);
    expect(healthy.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await fetch(path('Susp Pos FL'), { headers })).status).toBe(200);
  });

  test('when a read runs past the timeout, then 504 problem+json, its work is abandoned and the next reads are served', async () => {
    const r = await fetch(path('Ground Speed'), { headers });
    expect(r.status).toBe(504);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(((await r.json()) as { detail: string }).detail).toContain('1500 ms');
    // Both threads were given hanging reads in turn: had they not been aborted, nothing would be served now.
    expect((await fetch(path('Ground Speed'), { headers })).status).toBe(504);
    expect((await fetch(path('Susp Pos FL'), { headers })).status).toBe(200);
    expect((await fetch(path('Susp Pos FL'), { headers })).status).toBe(200);
  });

  test('when a user has 1 read running and 1 waiting across two gateway replicas, then one more is a 429 with Retry-After', async () => {
    const admitted = async (n: number) => {
      while (Number(await stack.cache.get(admittedKey(userId))) !== n) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    // Two reads that hang until the 1.5 s read timeout: one runs, the other waits for its slot.
    const running = fetch(path('Ground Speed'), { headers });
    await admitted(1);
    const waiting = fetch(path('Ground Speed', second), { headers });
    await admitted(2);
    const refused = await fetch(path('Susp Pos FL', second), { headers });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect((await running).status).toBe(504);
    expect((await waiting).status).toBe(504);
    await admitted(0);
    expect((await fetch(path('Susp Pos FL', second), { headers })).status).toBe(200);
  });
});
