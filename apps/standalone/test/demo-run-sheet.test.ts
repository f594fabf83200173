import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { InProcessBus } from '@pitwall/bus';
import { MemoryCache } from '@pitwall/cache';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { buildMetadataRecord, createDemoLdFile, openDataFile, sliceByLap } from '@pitwall/formats';
import { bundleWorkerEntry } from '@pitwall/service-host/testing';
import { createLogger } from '@pitwall/service-kit';
import { composeStack, type ComposedStack } from '../src/compose';
import { demoRunSheetLines, seedDemoRunSheet } from '../src/demo-run-sheet';

// Ports for the servers a test starts: below the ephemeral range (tools/free-port.cjs).
// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort } = require('../../../tools/free-port.cjs') as { freePort(): Promise<number> };

const root = join(__dirname, '..', '..', '..');

describe('the demo run sheet npm start seeds and the requests it prints', () => {
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, 'tmp', 'standalone-demo-'));
  const bus = new InProcessBus({ prefix: 'standalone-demo-test.', logger: createLogger('test', 'silent') });
  const cache = new MemoryCache();
  let db: TestDatabase;
  let stack: ComposedStack;
  let base: string;
  let demo: { accountId: string; apiKey: string };

  beforeAll(async () => {
    db = await createTestDatabase();
    const workerDir = join(dir, 'workers');
    await bundleWorkerEntry(join(root, 'apps', 'datafile-service', 'src', 'shape.worker.entry.ts'), workerDir);
    await bundleWorkerEntry(join(root, 'apps', 'entity-service', 'src', 'lz4.worker.entry.ts'), workerDir);
    const port = await freePort();
    base = `http://localhost:${port}`;
    stack = await composeStack({ DATABASE_URL: db.url, PORT: String(port), HEALTH_PORT: '0', WORKER_DIR: workerDir, DATA_DIR: dir, PUBLIC_BASE_URL: base, LOG_LEVEL: 'warn' }, { bus, cache });
    const account = await stack.gateway.parts.auth.ensureDemoAccount({ keyFile: join(dir, 'demo-api-key') });
    demo = { accountId: account.accountId, apiKey: account.apiKey as string };
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await bus.close();
    await cache.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when seeded, then the printed metadata curl and channel curl answer the generated file\'s record and lap', async () => {
    const seeded = await seedDemoRunSheet(base, demo, dir);
    const lines = demoRunSheetLines(base, demo, seeded);
    const curls = lines.map((l) => /^\s+(curl -s .*)$/.exec(l)?.[1]).filter((c): c is string => c !== undefined);
    expect(curls).toHaveLength(2);
    // Asynchronously: the stack answering the curl runs in this process.
    const run = async (curl: string) => JSON.parse((await promisify(execFile)('bash', ['-c', curl], { encoding: 'utf8', timeout: 60_000 })).stdout);

    const file = openDataFile(createDemoLdFile({ fullChannelSet: true }));
    const metadata = await run(curls[0] as string);
    expect(metadata).toEqual(buildMetadataRecord({ entityId: seeded.runSheetId, entityType: 'RunSheets', attachedFileGroupName: 'DataFile' }, file));
    expect(metadata.lapCount).toBe(5);
    expect(metadata.channels.length).toBeGreaterThanOrEqual(20);

    const lap = await run(curls[1] as string);
    expect(lap).toMatchObject({ name: seeded.channel, unit: 'km/h' });
    expect(lap.samples).toEqual(Array.from(sliceByLap(file.readChannel(seeded.channel), file.laps, seeded.lapIndex).samples));
    expect(lap.samples.length).toBeGreaterThan(1000);

    // The run sheet sits in the chain a user would find it through.
    const championships = await run(`curl -s ${base}/Championships -H 'ApiKey: ${demo.apiKey}' -H 'AccountId: ${demo.accountId}'`);
    expect(championships.map((c: { Parameters: { Name: string } }) => c.Parameters.Name)).toEqual(['Demo Championship']);
  }, 120_000);

  test('when seeded again on the same data directory, then the same run sheet is found and nothing is added', async () => {
    const first = await seedDemoRunSheet(base, demo, dir);
    const again = await seedDemoRunSheet(base, demo, dir);
    expect(again).toEqual(first);
    const championships = await (await fetch(`${base}/Championships`, { headers: { ApiKey: demo.apiKey, AccountId: demo.accountId } })).json();
    expect(championships).toHaveLength(1);
  }, 60_000);
});
