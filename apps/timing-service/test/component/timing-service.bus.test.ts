import { SERVICES } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { timingService } from '../../src/definition';

describe('timing-service on the bus (in-process)', () => {
  let stack: InProcessStack;
  let address: string;
  beforeAll(async () => {
    stack = await startInProcessStack({ database: false });
    address = (await stack.start(timingService)).address;
  });
  afterAll(() => stack.stop());

  test('when pinged, then it answers pong on its request queue', async () => {
    expect(await stack.bus.request(SERVICES.timing, 'ping', {})).toBe('pong');
  });

  test('when sent any other command, then it refuses with a 501 naming the command', async () => {
    await expect(stack.bus.request(SERVICES.timing, 'timing.anything', { x: 1 })).rejects.toMatchObject({ status: 501, message: 'timing-service does not implement timing.anything yet' });
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
