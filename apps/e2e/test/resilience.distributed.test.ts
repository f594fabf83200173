import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DistributedStack, readJson } from './support/distributed';

/** The Node options every app process starts with (apps.json's nodeArgs, read as tools/stack.cjs reads them). */
const nodeArgs = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'standalone', 'apps.json'), 'utf8')) as { nodeArgs: string[] }).nodeArgs;

describe('when a service behind the gateway does not answer', () => {
  let stack: DistributedStack;
  afterAll(async () => {
    await stack?.stop();
  });

  test('then a request to a service that died is a 503 at once (the gateway sees its queue has no consumer: nothing is sent), and readiness says which part is down', async () => {
    stack = await DistributedStack.start({ env: { BUS_TIMEOUT_MS: '10000' } });
    const m = await stack.member('admin');
    expect((await m.client.getAllChampionships()).statusCode).toBe(200);
    const entity = stack.stack.procs.find((p) => p.name === 'entity-service')!;
    await new Promise((resolve) => {
      entity.child.once('exit', resolve);
      entity.child.kill('SIGKILL');
    });
    const started = Date.now();
    const r = await m.client.getAllChampionships();
    expect(r.statusCode).toBe(503);
    expect(r.problem?.title).toBe('Service Unavailable');
    expect(Date.now() - started).toBeLessThan(2000);
    const ready = await fetch(`${stack.baseUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect((await readJson(ready)).dependencies['entity-service']).toBe('down');
  });
});

describe('when a service was never started', () => {
  test('then requests for it fail at once with 503 instead of waiting', async () => {
    const stack = await DistributedStack.start({ apps: ['gateway'], env: { BUS_TIMEOUT_MS: '5000' }, readyPath: '/health' });
    try {
      const m = await stack.member('admin');
      const started = Date.now();
      const r = await m.client.getAllChampionships();
      expect(r.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await stack.stop();
    }
  });
});

describe('when the stack receives SIGTERM', () => {
  test('then every process (each started with the Node options of apps.json) drains and exits 0', async () => {
    const stack = await DistributedStack.start();
    for (const p of stack.stack.procs) {
      const argv = readFileSync(`/proc/${p.child.pid}/cmdline`, 'utf8').split('\0');
      expect({ app: p.name, options: argv.slice(1, 1 + nodeArgs.length) }).toEqual({ app: p.name, options: nodeArgs });
    }
    const m = await stack.member('admin');
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => m.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: `C${i}` }] })));
    expect(created.every((c) => c.statusCode === 201)).toBe(true);
    const exits = await stack.stop();
    expect(exits).toEqual(expect.arrayContaining(['entity-service', 'timing-service', 'simulation-service', 'datafile-service', 'gateway'].map((name) => ({ name, exitCode: 0, signal: null }))));
  });
});
