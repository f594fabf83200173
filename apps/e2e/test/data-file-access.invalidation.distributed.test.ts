import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PitwallClient } from '@pitwall/client';
import { compressLz4 } from '@pitwall/formats';
import { closeBrokerConnections } from './support/broker-faults';
import { AMQP_URL, DistributedStack, REDIS_URL } from './support/distributed';

const ROOT = join(__dirname, '..', '..', '..');

/** The decompressed copies an instance holds (`<blob key>.raw` under its DATAFILE_CACHE_DIR). */
const copies = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.raw'));
  } catch {
    return [];
  }
};

async function eventually(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} never happened`);
}

/** A run sheet of a fresh championship, event, session and car, with Sample1.ld attached LZ4-compressed (a decompressed copy per instance that reads it). */
async function runSheetWithSample1(client: PitwallClient): Promise<{ runSheet: string; fileId: string }> {
  const id = (r: { statusCode: number; returnValue: { Id: string } | null }) => {
    if (!r.returnValue) throw new Error(`create answered ${r.statusCode}`);
    return r.returnValue.Id;
  };
  const name = (value: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: value }] });
  const event = id(await client.addEvent(id(await client.addChampionship(name('Cup'))), name('Event')));
  const session = id(await client.addSession(event, name('Session')));
  const car = id(await client.addCar(name('Car')));
  id(await client.addEventCar(event, car, name('Car')));
  const runSheet = id(await client.addRunSheet(session, car, name('Run')));
  const bytes = new Uint8Array(readFileSync(join(ROOT, 'libs', 'formats', 'test', 'fixtures', 'telemetry', 'Sample1.ld')));
  const uploaded = await client.uploadAttachment('RunSheets', runSheet, await compressLz4(bytes), { FileName: 'Sample1.ld', AttachedFileGroupName: 'DataFile', UseCompression: true });
  expect(uploaded.statusCode).toBe(200);
  return { runSheet, fileId: uploaded.returnValue?.Id as string };
}

describe('two datafile-service instances on RabbitMQ, each with its own cache directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-dfs-invalidation-'));
  let stack: DistributedStack;
  let second: ChildProcess | undefined;
  afterAll(async () => {
    second?.kill('SIGTERM');
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when an attached file is deleted, then both instances drop their decompressed copies of it and a read is 404', async () => {
    const first = join(dir, 'decompressed-1');
    const other = join(dir, 'decompressed-2');
    const env = { DATA_DIR: join(dir, 'data'), BLOB_DIR: join(dir, 'blobs'), DATAFILE_CACHE_DIR: first };
    // Only the apps a data file read passes through: the timing-service and the simulation-service would add
    // nothing but their start.
    stack = await DistributedStack.start({ apps: ['entity-service', 'datafile-service', 'gateway'], env });
    second = spawn(process.execPath, [join(ROOT, 'dist', 'apps', 'datafile-service', 'main.js')], {
      env: { ...process.env, ...env, DATAFILE_CACHE_DIR: other, DATABASE_URL: stack.databaseUrl, AMQP_URL, REDIS_URL, BUS_PREFIX: `${stack.prefix}.`, HEALTH_PORT: '0', LOG_LEVEL: 'warn', CLAIM_SECRET: stack.env['CLAIM_SECRET'] as string },
      stdio: 'ignore',
    });
    const { client } = await stack.member('admin');
    const { runSheet, fileId } = await runSheetWithSample1(client);

    // Reads go round the two instances' consumers: read until each has opened the dataset (made its copy).
    await eventually(async () => {
      expect((await client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Ground Speed', { lapIndex: 1 })).statusCode).toBe(200);
      return copies(first).length === 1 && copies(other).length === 1;
    }, 'both instances reading the dataset');

    expect((await client.deleteRunSheetAttachment(runSheet, fileId)).statusCode).toBe(204);
    expect((await client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Ground Speed', { lapIndex: 1 })).statusCode).toBe(404);
    await eventually(() => copies(first).length === 0 && copies(other).length === 0, 'both copies dropped');
  }, 180_000);

  test('when the broker closes the connection of one datafile-service instance, then it stays up, serves reads again, and still hears a deletion (its own queue declared anew)', async () => {
    const first = join(dir, 'decompressed-1');
    const instance = stack.stack.procs.find((p) => p.name === 'datafile-service')!;
    const { client } = await stack.member('admin');
    expect(await closeBrokerConnections(instance.child.pid as number, stack.prefix)).toBeGreaterThan(0);
    const { runSheet, fileId } = await runSheetWithSample1(client);
    // Reads go round both instances: read until the one whose connection was closed has opened the file (its copy).
    await eventually(async () => {
      expect((await client.getRunSheetDataFileChannel(runSheet, 'DataFile', 'Ground Speed', { lapIndex: 1 })).statusCode).toBe(200);
      return copies(first).length === 1;
    }, 'the reconnected instance reading the dataset');

    expect((await client.deleteRunSheetAttachment(runSheet, fileId)).statusCode).toBe(204);
    await eventually(() => copies(first).length === 0, 'the reconnected instance dropping its copy');
    expect([instance.child.exitCode, instance.child.signalCode]).toEqual([null, null]);
  }, 180_000);
});
