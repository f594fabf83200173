import { createLogger } from '@pitwall/service-kit';
import { failFastBus, InProcessBroker, InProcessBus, ServicePresence, type Bus } from '../src';

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
  test('when the last instance stops gracefully while it handles a write, then the write is answered (not failed as its service gone), and a write sent after it stopped is failed at the next look', async () => {
    const broker = new InProcessBroker();
    const serving = new InProcessBus({ logger, broker });
    const handling: (() => void)[] = [];
    const release: (() => void)[] = [];
    const subscription = await serving.serve('entity', async (request) => {
      await new Promise<void>((resolve) => {
        release.push(resolve);
        handling.shift()?.();
      });
      return `done ${String(request.type)}`;
    });
    const bus = new InProcessBus({ logger, broker, requestTimeoutMs: 30_000 });
    const presence = new ServicePresence(bus, { intervalMs: 50, logger });
    presence.start();
    const command = (id: string) => ({ headers: { commandId: id } });
    try {
      const taken = new Promise<void>((resolve) => handling.push(resolve));
      const first = failFastBus(bus, presence).request('entity', 'entity.create', {}, command('key:first'));
      await taken;
      const stopped = subscription.close();
      // Sent before the process saw the service go: it waits in the queue nobody reads.
      const late = failFastBus(bus, presence).request('entity', 'entity.update', {}, command('key:late'));
      late.catch(() => undefined);

      await expect(late).rejects.toMatchObject({ status: 504, retryAfterSeconds: 2, message: expect.stringContaining('lost its last running instance') });
      release.shift()?.();
      expect(await first).toBe('done entity.create');
      await stopped;
    } finally {
      presence.stop();
      await bus.close();
      await serving.destroy();
    }
  });

  test('when a look that began before a request was sent answers that its service had no consumer, then the request is not failed: only a look begun after it can say its service went', async () => {
    const broker = new InProcessBroker();
    const serving = new InProcessBus({ logger, broker });
    let answer: (value: string) => void = () => undefined;
    await serving.serve('entity', () => new Promise<string>((resolve) => (answer = resolve)));
    const bus = new InProcessBus({ logger, broker, requestTimeoutMs: 30_000 });
    // The consumer counts this process sees, answered when the test says (a count taken in the moment before a restarted
    // instance attached, that arrives after the request reached it).
    const counts: ((n: number) => void)[] = [];
    const counted = Object.assign(Object.create(bus) as Bus, { consumerCount: () => new Promise<number>((resolve) => counts.push(resolve)) });
    const presence = new ServicePresence(counted, { intervalMs: 60_000, logger });
    try {
      const stale = presence.isPresent('entity');
      const before = counts.length;
      await new Promise((resolve) => setImmediate(resolve));
      expect(counts.length).toBe(before + 1);
      const pending = presence.unlessGone('entity', bus.request('entity', 'entity.write', {}), () => new Error('gone'));
      counts.shift()!(0);
      expect(await stale).toBe(false);
      // A look begun after the send still finds none: now the request is failed.
      const late = presence.isPresent('entity');
      await new Promise((resolve) => setImmediate(resolve));
      let settled: unknown = 'pending';
      pending.then((v) => (settled = v), (e: Error) => (settled = e.message));
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe('pending');
      counts.shift()!(0);
      await late;
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe('gone');
      answer('done');
    } finally {
      await serving.destroy();
      await bus.close();
    }
  });
});
