import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PitwallClient } from '@pitwall/client';
import { DistributedStack, readJson } from './support/distributed';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort } = require('../../../tools/stack.cjs') as { freePort(): Promise<number> };

const ROOT = join(__dirname, '..', '..', '..');

/** A run sheet with the demo `.ld` file attached through the upload flow: its data file reads go to the datafile-service. */
async function seedDataset(client: PitwallClient): Promise<string> {
  const id = (r: { statusCode: number; returnValue: { Id: string } | null }) => {
    if (!r.returnValue) throw new Error(`create answered ${r.statusCode}`);
    return r.returnValue.Id;
  };
  const name = (value: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: value }] });
  const championship = id(await client.addChampionship(name('Service loss')));
  const event = id(await client.addEvent(championship, name('Event')));
  const session = id(await client.addSession(event, name('Session')));
  const car = id(await client.addCar(name('Car')));
  id(await client.addEventCar(event, car, name('Car')));
  const runSheet = id(await client.addRunSheet(session, car, name('Run')));
  const bytes = new Uint8Array(readFileSync(join(ROOT, 'libs', 'formats', 'test', 'fixtures', 'telemetry', 'Sample1.ld')));
  const uploaded = await client.uploadAttachment('RunSheets', runSheet, bytes, { FileName: 'Sample1.ld', AttachedFileGroupName: 'DataFile' });
  if (!uploaded.returnValue) throw new Error(`upload answered ${uploaded.statusCode}: ${uploaded.message}`);
  return runSheet;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it holds (at most `limitMs`); the milliseconds that took. */
async function until(probe: () => Promise<boolean>, limitMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await probe().catch(() => false))) {
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
    await sleep(25);
  }
  return Date.now() - started;
}

async function kill9(child: ChildProcess): Promise<void> {
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

const healthy = async (port: number) => (await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(1000) })).ok;

describe('when the datafile-service is killed -9 and later comes back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-service-loss-'));
  let stack: DistributedStack;
  let replacement: ChildProcess | undefined;
  afterAll(async () => {
    if (replacement && replacement.exitCode === null) await kill9(replacement);
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('then reads answer 503 with Retry-After within 2 s, readiness names it, and reads work again within 2 s of its return', async () => {
    stack = await DistributedStack.start({ env: { DATA_DIR: join(dir, 'data'), BLOB_DIR: join(dir, 'blobs'), DATAFILE_CACHE_DIR: join(dir, 'decompressed') } });
    const m = await stack.member('reader');
    const admin = await stack.member('admin', m.accountId);
    const runSheet = await seedDataset(admin.client);
    const read = () => m.client.getRunSheetDataFileMetadata(runSheet, 'DataFile');
    expect((await read()).statusCode).toBe(200);

    const datafile = stack.stack.procs.find((p) => p.name === 'datafile-service')!;
    await kill9(datafile.child);
    const killedAt = Date.now();

    // A read sent at once may already be on its way to the queue nobody reads: it too is answered within 2 s.
    const first = await fetch(`${stack.baseUrl}/RunSheets/${runSheet}/DataFileAccess/DataFile/metadata`, { headers: { ApiKey: m.apiKey, AccountId: m.accountId } });
    expect(Date.now() - killedAt).toBeLessThan(2000);
    expect(first.status).toBe(503);
    expect(first.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) {
      const sent = Date.now();
      expect((await read()).statusCode).toBe(503);
      expect(Date.now() - sent).toBeLessThan(2000);
    }
    // Named, and degraded: the gateway stays ready (a load balancer keeps it), as every other route is served.
    const ready = await fetch(`${stack.baseUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect((await readJson(ready)).dependencies).toMatchObject({ 'datafile-service': 'degraded', 'entity-service': 'up' });
    // The rest of the API is served meanwhile.
    expect((await m.client.getAllChampionships()).statusCode).toBe(200);

    const healthPort = await freePort();
    replacement = spawn(process.execPath, [join(ROOT, 'dist', 'apps', 'datafile-service', 'main.js')], { env: { ...datafile.env, HEALTH_PORT: String(healthPort) }, stdio: 'ignore' });
    // Back once its own readiness says so (its bus consumer runs); from then reads are answered within 2 s.
    await until(() => healthy(healthPort), 30_000, 'the new datafile-service to be ready');
    const back = await until(async () => (await read()).statusCode === 200, 2000 + 1000, 'reads to work again');
    expect(back).toBeLessThan(2000);
    expect((await readJson(await fetch(`${stack.baseUrl}/health/ready`))).dependencies).toMatchObject({ 'datafile-service': 'up' });
  }, 240_000);

  test('when then the entity-service is killed -9, then routes that reach it through another service (a data file read, a timing update) answer 503 with Retry-After within 2 s, not after the bus timeout', async () => {
    const m = await stack.member('editor');
    const admin = await stack.member('admin', m.accountId);
    const runSheet = await seedDataset(admin.client);
    const headers = { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json' };
    const metadata = () => fetch(`${stack.baseUrl}/RunSheets/${runSheet}/DataFileAccess/DataFile/metadata`, { headers });
    expect((await metadata()).status).toBe(200);
    const entity = stack.stack.procs.find((p) => p.name === 'entity-service')!;
    await kill9(entity.child);
    // Once the gateway sees it gone (its readiness), every process that asks it does too within its look's interval.
    await until(async () => (await readJson(await fetch(`${stack.baseUrl}/health/ready`))).dependencies['entity-service'] !== 'up', 5000, 'the gateway to see the entity-service gone');
    await sleep(600);
    for (const [what, send] of [
      ['a data file read (datafile-service asks the entity-service for the dataset)', metadata],
      ['a timing update (timing-service writes through the entity-service)', () => fetch(`${stack.baseUrl}/TimingIntegration/Runs`, { method: 'PUT', headers, body: JSON.stringify({ accountId: m.accountId, championshipId: randomUUID(), eventId: randomUUID(), sessionId: randomUUID(), carId: randomUUID(), runIndex: 1 }) })],
    ] as const) {
      const sent = Date.now();
      const answer = await send();
      const took = Date.now() - sent;
      expect({ what, status: answer.status, fast: took < 2000, retryAfter: Number(answer.headers.get('retry-after')) > 0 }).toEqual({ what, status: 503, fast: true, retryAfter: true });
      expect((await readJson(answer)).detail).toContain('entity service has no running instance');
    }
  }, 120_000);
});

describe('when a process of a supervised stack (npm run start:distributed) is killed -9', () => {
  let stack: DistributedStack;
  afterAll(async () => {
    await stack?.stop();
  });

  test('then the supervisor starts it again, with a longer delay each time it keeps dying, and says so', async () => {
    // Only the apps a championship's read and write pass through: the other three would add nothing but their start.
    stack = await DistributedStack.start({ apps: ['entity-service', 'gateway'], supervise: true });
    const m = await stack.member('admin');
    const entity = stack.stack.procs.find((p) => p.name === 'entity-service')!;

    for (const restart of [1, 2]) {
      const killed = entity.child;
      await kill9(killed);
      await until(async () => entity.child !== killed && (await healthy(entity.healthPort)), 30_000, `restart ${restart}`);
      await until(async () => (await m.client.getAllChampionships()).statusCode === 200, 10_000, 'the entity-service to answer');
    }

    expect(entity.restarts).toBe(2);
    // The second exit waited twice as long as the first (the process did not stay up long enough to reset it).
    expect(stack.stack.supervision).toEqual([
      expect.stringMatching(/^entity-service \(pid \d+\) exited \(signal SIGKILL\) after [\d.]+ s; restarting in 0\.5 s \(restart 1\)$/),
      expect.stringMatching(/^entity-service restarted \(pid \d+\)$/),
      expect.stringMatching(/^entity-service \(pid \d+\) exited \(signal SIGKILL\) after [\d.]+ s; restarting in 1\.0 s \(restart 2\)$/),
      expect.stringMatching(/^entity-service restarted \(pid \d+\)$/),
    ]);
    const created = await m.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'After restarts' }] });
    // The message travels with the status, so that a failure says which refusal it was.
    const said = (name: string) => `${name}: ${stack.stack.procs.find((p) => p.name === name)!.output.slice(-4000)}`;
    expect({ status: created.statusCode, message: created.statusCode === 201 ? '' : [created.message, said('gateway'), said('entity-service')].join('\n') }).toEqual({ status: 201, message: '' });
    // A supervised stack still stops: nothing is restarted after stop, and every process exits 0.
    const exits = await stack.stack.stop();
    expect(exits.map((e) => ({ name: e.name, exitCode: e.exitCode }))).toEqual(stack.stack.procs.map((p) => ({ name: p.name, exitCode: 0 })));
    await sleep(1500);
    expect(stack.stack.procs.every((p) => p.child.exitCode !== null)).toBe(true);
  }, 240_000);
});
