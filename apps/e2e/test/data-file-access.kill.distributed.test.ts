import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PitwallClient } from '@pitwall/client';
import { compressLz4, openDataFile } from '@pitwall/formats';
import { AMQP_URL, DistributedStack, REDIS_URL } from './support/distributed';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort } = require('../../../tools/stack.cjs') as { freePort(): Promise<number> };

const ROOT = join(__dirname, '..', '..', '..');

/** A run sheet (under its championship, event, session and car entry) with `bytes` attached through the upload flow. */
async function seedDataset(client: PitwallClient, bytes: Uint8Array, options: { compressed: boolean }): Promise<{ runSheet: string; fileId: string }> {
  const id = (r: { statusCode: number; returnValue: { Id: string } | null }) => {
    if (!r.returnValue) throw new Error(`create answered ${r.statusCode}`);
    return r.returnValue.Id;
  };
  const name = (value: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: value }] });
  const championship = id(await client.addChampionship(name('Data file e2e')));
  const event = id(await client.addEvent(championship, name('Event')));
  const session = id(await client.addSession(event, name('Session')));
  const car = id(await client.addCar(name('Car')));
  id(await client.addEventCar(event, car, name('Car')));
  const runSheet = id(await client.addRunSheet(session, car, name('Run')));
  const uploaded = await client.uploadAttachment('RunSheets', runSheet, options.compressed ? await compressLz4(bytes) : bytes, { FileName: 'Sample1.ld', AttachedFileGroupName: 'DataFile', UseCompression: options.compressed });
  if (!uploaded.returnValue) throw new Error(`upload answered ${uploaded.statusCode}: ${uploaded.message}`);
  return { runSheet, fileId: uploaded.returnValue.Id };
}

describe('when the datafile-service is killed (SIGKILL) in the middle of a read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-dfs-kill-'));
  let stack: DistributedStack;
  let replacement: ChildProcess | undefined;
  afterAll(async () => {
    replacement?.kill('SIGTERM');
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('then the read in flight is answered at once (its service has no instance left: nothing is kept waiting), an answer the gateway holds is not sent without it (503), and a restarted instance answers the read with every sample, and the held read with the same bytes', async () => {
    const env = { DATA_DIR: join(dir, 'data'), BLOB_DIR: join(dir, 'blobs'), DATAFILE_CACHE_DIR: join(dir, 'decompressed') };
    // Only the apps a data file read passes through: the timing-service and the simulation-service would add
    // nothing but their start.
    stack = await DistributedStack.start({ apps: ['entity-service', 'datafile-service', 'gateway'], env });
    const m = await stack.member('admin');
    const bytes = new Uint8Array(readFileSync(join(ROOT, 'libs', 'formats', 'test', 'fixtures', 'telemetry', 'Sample1.ld')));
    const eager = openDataFile(bytes);
    const { runSheet } = await seedDataset(m.client, bytes, { compressed: true });
    const names = eager.channels.filter((c) => !c.unsupported).map((c) => c.name);

    // A large read the gateway holds once asked twice (the second time the service said it still is the answer), of
    // another dataset of the file, uncompressed: the first read of the compressed one is still to come.
    const other = (await seedDataset(m.client, bytes, { compressed: false })).runSheet;
    const wholeBatch = () => fetch(`${stack.baseUrl}/RunSheets/${other}/DataFileAccess/DataFile/channels`, { method: 'POST', headers: { ApiKey: m.apiKey, AccountId: m.accountId, Accept: 'application/x-service-channels', 'Content-Type': 'application/json' }, body: JSON.stringify({ channels: names, mode: 0 }) });
    const held = Buffer.from(await (await wholeBatch()).arrayBuffer());
    expect(held.byteLength).toBeGreaterThan(256 * 1024);
    expect(Buffer.from(await (await wholeBatch()).arrayBuffer()).equals(held)).toBe(true);

    // The first read of a compressed blob decompresses it first: the kill lands while that work is under way.
    const inFlight = m.client.getRunSheetDataFileChannels(runSheet, 'DataFile', { channels: names, mode: 0 });
    const killed = stack.stack.procs.find((p) => p.name === 'datafile-service');
    await new Promise((resolve) => {
      killed?.child.once('exit', resolve);
      setTimeout(() => killed?.child.kill('SIGKILL'), 5);
    });
    const killedAt = Date.now();
    // A POST read carries a command id: the gateway cannot say it did nothing, so 504 outcome-unknown (a GET is a 503).
    expect([503, 504]).toContain((await inFlight).statusCode);
    expect(Date.now() - killedAt).toBeLessThan(2000);
    // The answer the gateway holds is not sent without the service's word: with no instance, the read is refused.
    const unheld = await wholeBatch();
    expect(unheld.status).toBe(503);
    expect(unheld.headers.get('content-type')).toContain('application/problem+json');
    await unheld.arrayBuffer();

    const healthPort = await freePort();
    replacement = spawn(process.execPath, [join(ROOT, 'dist', 'apps', 'datafile-service', 'main.js')], {
      env: { ...process.env, ...env, DATABASE_URL: stack.databaseUrl, AMQP_URL, REDIS_URL, BUS_PREFIX: `${stack.prefix}.`, HEALTH_PORT: String(healthPort), LOG_LEVEL: 'warn', CLAIM_SECRET: stack.env['CLAIM_SECRET'] as string },
      stdio: 'ignore',
    });
    for (const until = Date.now() + 60_000; !(await fetch(`http://127.0.0.1:${healthPort}/health/ready`).then((r) => r.ok, () => false)); ) {
      if (Date.now() > until) throw new Error('the restarted datafile-service did not get ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    const answer = await m.client.getRunSheetDataFileChannels(runSheet, 'DataFile', { channels: names, mode: 0 });
    expect(answer.statusCode).toBe(200);
    const channels = (answer.returnValue as { channels: { name: string; samples: (number | null)[] }[] }).channels;
    expect(channels.map((c) => c.name)).toEqual(names);
    expect(channels.find((c) => c.name === 'Engine RPM')?.samples).toEqual(Array.from(eager.readChannel('Engine RPM').samples));

    // The new instance, knowing only the file's content, tags the answer as the first did: the same bytes.
    const again = await wholeBatch();
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(held)).toBe(true);

    const lap = await m.client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Ground Speed', { lapIndex: 1 });
    expect(lap.statusCode).toBe(200);
  }, 180_000);
});
