import { randomBytes } from 'node:crypto';
import { SERVICES } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { simulationService } from '../../src/definition';

describe('simulation-service on the bus (in-process)', () => {
  let stack: InProcessStack;
  let address: string;
  beforeAll(async () => {
    stack = await startInProcessStack();
    address = (await stack.start(simulationService, { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64') })).address;
  });
  afterAll(() => stack.stop());

  test('when pinged, then it answers pong on its request queue', async () => {
    expect(await stack.bus.request(SERVICES.simulation, 'ping', {})).toBe('pong');
  });

  test('when sent a command it does not have, then it refuses with a 400 naming the command', async () => {
    await expect(stack.bus.request(SERVICES.simulation, 'simulation.anything', { x: 1 })).rejects.toMatchObject({ status: 400, message: 'The simulation service has no command simulation.anything' });
  });

  test('when its health endpoints are asked, then it is alive and ready with the database and the bus up', async () => {
    const live = await fetch(`${address}/health`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${address}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', dependencies: { database: 'up', bus: 'up' } });
  });

  test('when the secret key is not 32 bytes, then the service does not start and names the variable', async () => {
    await expect(stack.start(simulationService, { SIMULATION_SECRET_KEY: Buffer.from('short').toString('base64') })).rejects.toThrow(/SIMULATION_SECRET_KEY: is not 32 bytes long: it must be 32 bytes/);
  });
});
