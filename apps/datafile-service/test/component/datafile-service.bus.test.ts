import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICES } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { datafileService } from '../../src/definition';
import { bundleShapeWorker } from '../support/worker-bundle';
import { workspaceTempDir } from '../support/workspace-tmp';

describe('datafile-service on the bus (in-process)', () => {
  let stack: InProcessStack;
  let address: string;
  const dir = workspaceTempDir('datafile-bus-');
  beforeAll(async () => {
    stack = await startInProcessStack({ database: false });
    const worker = await bundleShapeWorker(join(dir, 'worker'));
    address = (await stack.start({ ...datafileService, pools: [{ name: 'shape', entry: worker, maxThreads: 1 }] }, { DATA_DIR: dir })).address;
  });
  afterAll(async () => {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when pinged, then it answers pong on its request queue', async () => {
    expect(await stack.bus.request(SERVICES.datafile, 'ping', {})).toBe('pong');
  });

  test('when sent a command it does not have, then it refuses with a 400 naming the command', async () => {
    await expect(stack.bus.request(SERVICES.datafile, 'datafile.anything', { x: 1 })).rejects.toMatchObject({ status: 400, message: 'The datafile service has no command datafile.anything' });
  });

  test('when a read message is malformed, then 400 names the field', async () => {
    await expect(stack.bus.request(SERVICES.datafile, 'datafile.metadata', { type: 'RunSheets' })).rejects.toMatchObject({ status: 400 });
  });

  test('when its health endpoints are asked, then it is alive and ready with the bus and the blob store up', async () => {
    const live = await fetch(`${address}/health`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${address}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', dependencies: { bus: 'up', blobStore: 'up' } });
  });
});
