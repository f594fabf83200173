import { SERVICES } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { datafileService } from '../../src/definition';

describe('datafile-service on the bus (in-process)', () => {
  let stack: InProcessStack;
  let address: string;
  beforeAll(async () => {
    stack = await startInProcessStack({ database: false });
    address = (await stack.start(datafileService)).address;
  });
  afterAll(() => stack.stop());

  test('when pinged, then it answers pong on its request queue', async () => {
    expect(await stack.bus.request(SERVICES.datafile, 'ping', {})).toBe('pong');
  });

  test('when sent any other command, then it refuses with a 501 naming the command', async () => {
    await expect(stack.bus.request(SERVICES.datafile, 'datafile.anything', { x: 1 })).rejects.toMatchObject({ status: 501, message: 'datafile-service does not implement datafile.anything yet' });
  });

  test('when its health endpoints are asked, then it is alive and ready with the bus up', async () => {
    const live = await fetch(`${address}/health`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${address}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', dependencies: { bus: 'up' } });
  });
});
