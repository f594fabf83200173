import { createLogger } from '@pitwall/service-kit';
import { failFastBus, InProcessBroker, InProcessBus, ServicePresence } from '../src';

// A process's requests to a service with no running instance (docs/operations.md, "A service with no running
// instance"): refused at once, nothing sent, in words a client knows.
describe('failFastBus', () => {
  const logger = createLogger('fail-fast-test', 'silent');

  test('when the first request goes to a service whose queue has no consumer, then it is a 503 with Retry-After at once, naming the service (a partition queue by its service), and nothing is sent', async () => {
    const broker = new InProcessBroker();
    const serving = new InProcessBus({ logger, broker });
    const received: string[] = [];
    await serving.serve('timing.p3', async (request) => void received.push(request.type));
    await serving.destroy();
    const bus = new InProcessBus({ logger, broker, requestTimeoutMs: 30_000 });
    const presence = new ServicePresence(bus, { intervalMs: 60_000, logger });
    presence.start();
    try {
      const sent = Date.now();
      await expect(failFastBus(bus, presence).request('timing.p3', 'timing.runs', {})).rejects.toMatchObject({
        status: 503,
        retryAfterSeconds: 2,
        message: 'The timing service has no running instance: the request was not sent and nothing was done; retry shortly',
      });
      expect(Date.now() - sent).toBeLessThan(5_000);
      // Back: the next request looks again and is sent.
      const back = new InProcessBus({ logger, broker });
      await back.serve('timing.p3', async (request) => {
        received.push(request.type);
        return 'done';
      });
      expect(await failFastBus(bus, presence).request('timing.p3', 'timing.laps', {})).toBe('done');
      expect(received).toEqual(['timing.laps']);
      await back.destroy();
    } finally {
      presence.stop();
      await bus.close();
    }
  });
});
