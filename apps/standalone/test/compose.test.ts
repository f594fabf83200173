import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { InProcessBus } from '@pitwall/bus';
import { deleteAmqpNames } from '@pitwall/bus/testing';
import { MemoryCache } from '@pitwall/cache';
import { SERVICES } from '@pitwall/contracts';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { bundleWorkerEntry } from '@pitwall/service-host/testing';
import { createLogger } from '@pitwall/service-kit';
import apps from '../apps.json';
import { composeStack } from '../src/compose';
import { busTopology } from '../src/bus-topology.entry';
import { seedDemoRunSheet } from '../src/demo-run-sheet';

// Ports for the servers a test starts: below the ephemeral range (tools/free-port.cjs).
// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort } = require('../../../tools/free-port.cjs') as { freePort(): Promise<number> };

const AMQP_URL = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';

const root = join(__dirname, '..', '..', '..');

/** The composed services' pool workers bundled as the build bundles them (jest runs the sources, not dist/). */
async function bundleWorkers(): Promise<string> {
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const outdir = mkdtempSync(join(root, 'tmp', 'standalone-workers-'));
  await bundleWorkerEntry(join(root, 'apps', 'datafile-service', 'src', 'shape.worker.entry.ts'), outdir);
  await bundleWorkerEntry(join(root, 'apps', 'entity-service', 'src', 'lz4.worker.entry.ts'), outdir);
  return outdir;
}

describe('the one-process stack composed from the definitions', () => {
  let db: TestDatabase;
  let workerDir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    workerDir = await bundleWorkers();
  });
  afterAll(() => db.drop());

  test('when composed on shared transports, then every app of apps.json runs in this process, the gateway answers ready, and stop closes them all', async () => {
    const bus = new InProcessBus({ prefix: 'standalone-test.', logger: createLogger('test') });
    const cache = new MemoryCache();
    const stack = await composeStack({ DATABASE_URL: db.url, PORT: '0', HEALTH_PORT: '0', WORKER_DIR: workerDir }, { bus, cache });
    try {
      expect(stack.services).toHaveLength(apps.services.length);
      for (const service of Object.values(SERVICES)) expect(await bus.request(service, 'ping', {})).toBe('pong');
      const ready = await fetch(`http://127.0.0.1:${stack.gateway.port}/health/ready`);
      expect(ready.status).toBe(200);
      const demo = await stack.gateway.parts.auth.ensureDemoAccount();
      const list = await fetch(`http://127.0.0.1:${stack.gateway.port}/Championships`, { headers: { ApiKey: demo.apiKey as string, AccountId: demo.accountId } });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual([]);
    } finally {
      await stack.stop();
    }
    await expect(fetch(`http://127.0.0.1:${stack.gateway.port}/health`)).rejects.toThrow();
    await expect(bus.request(SERVICES.entity, 'ping', {}, { timeoutMs: 300 })).rejects.toMatchObject({ status: expect.any(Number) });
    await bus.close();
    await cache.close();
  });

  test('when composed on a real broker (AMQP_URL) without CLAIM_SECRET, as `DATABASE_URL=… AMQP_URL=… npm start` runs, then it starts and a data file read too large for the bus is answered by claim', async () => {
    const prefix = `standalone-amqp-${randomUUID().slice(0, 8)}.`;
    const dir = mkdtempSync(join(root, 'tmp', 'standalone-amqp-'));
    const cache = new MemoryCache();
    const port = await freePort();
    const base = `http://localhost:${port}`;
    // A 1 KiB inline limit: the demo file's catalogue goes by claim.
    const stack = await composeStack({ DATABASE_URL: db.url, AMQP_URL, BUS_PREFIX: prefix, PORT: String(port), HEALTH_PORT: '0', WORKER_DIR: workerDir, DATA_DIR: dir, PUBLIC_BASE_URL: base, LOG_LEVEL: 'warn', CLAIM_INLINE_MAX_BYTES: '1024' }, { cache });
    try {
      // Ready once the gateway has seen every service's queue on the broker (its presence is polled).
      let ready = 0;
      for (const until = Date.now() + 15_000; ready !== 200 && Date.now() < until; await new Promise((r) => setTimeout(r, 200))) ready = (await fetch(`${base}/health/ready`)).status;
      expect(ready).toBe(200);
      const account = await stack.gateway.parts.auth.ensureDemoAccount({ keyFile: join(dir, 'demo-api-key') });
      const demo = { accountId: account.accountId, apiKey: account.apiKey as string };
      const seeded = await seedDemoRunSheet(base, demo, dir);
      const metadata = await fetch(`${base}/RunSheets/${seeded.runSheetId}/DataFileAccess/${seeded.group}/metadata`, { headers: { ApiKey: demo.apiKey, AccountId: demo.accountId } });
      expect(metadata.status).toBe(200);
      const body = await metadata.text();
      expect(body.length).toBeGreaterThan(1024);
      expect(JSON.parse(body).channels.length).toBeGreaterThanOrEqual(20);
    } finally {
      await stack.stop();
      await cache.close();
      await deleteAmqpNames(AMQP_URL, busTopology(prefix));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
