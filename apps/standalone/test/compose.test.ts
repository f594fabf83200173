import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { InProcessBus } from '@pitwall/bus';
import { MemoryCache } from '@pitwall/cache';
import { SERVICES } from '@pitwall/contracts';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { bundleWorkerEntry } from '@pitwall/service-host/testing';
import { createLogger } from '@pitwall/service-kit';
import apps from '../apps.json';
import { composeStack } from '../src/compose';

const root = join(__dirname, '..', '..', '..');

/** The composed services' pool workers bundled as the build bundles them (jest runs the sources, not dist/). */
async function bundleWorkers(): Promise<string> {
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const outdir = mkdtempSync(join(root, 'tmp', 'standalone-workers-'));
  await bundleWorkerEntry(join(root, 'apps', 'datafile-service', 'src', 'shape.worker.entry.ts'), outdir);
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
});
