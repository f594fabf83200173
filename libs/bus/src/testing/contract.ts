import { randomUUID } from 'node:crypto';
import { AppError } from '@pitwall/service-kit';
import { serveCommands } from '../serve-commands';
import type { Bus, BusEvent, BusRequest } from '../types';
import { EncodedJson } from '../encoded-json';
import { COMMAND_ID_HEADER, OUTCOME_UNKNOWN_TYPE } from '../wire';

/** A bus the contract can also kill like a crashed process (deliveries in flight are not acked). */
export interface ContractBus extends Bus {
  destroy(): Promise<void>;
}

export interface BusContractOptions {
  /** Runs once after the suite, when every bus is closed: delete what the buses declared. */
  cleanup?: () => Promise<void>;
}

/** Resolves when `count` items have arrived; the list keeps everything that arrived. */
export function collector<T>() {
  const items: T[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  return {
    items,
    push(item: T) {
      items.push(item);
      const ready = waiters.filter((w) => items.length >= w.count);
      waiters = waiters.filter((w) => items.length < w.count);
      for (const w of ready) w.resolve();
    },
    until(count: number): Promise<T[]> {
      if (items.length >= count) return Promise.resolve(items);
      return new Promise((resolve) => waiters.push({ count, resolve: () => resolve(items) }));
    },
  };
}

/** Waits (up to 5 s) for a count to reach 0: a broker's count of acked messages may lag the ack by a moment. */
async function eventuallyZero(count: () => Promise<number>): Promise<void> {
  const until = Date.now() + 5000;
  while ((await count()) !== 0) {
    if (Date.now() > until) throw new Error('the count did not reach 0');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A promise the test opens when it wants a handler to finish. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/**
 * The behaviour every Bus transport must share. `makeBus` returns a new bus on one shared namespace (same broker and
 * prefix), so several buses model several processes.
 */
export function busContract(name: string, makeBus: () => ContractBus, options: BusContractOptions = {}): void {
  describe(`Bus contract (${name})`, () => {
    const buses: ContractBus[] = [];
    const open = (): ContractBus => {
      const bus = makeBus();
      buses.push(bus);
      return bus;
    };
    const unique = (what: string) => `${what}-${randomUUID().slice(0, 8)}`;
    let server: ContractBus;
    let client: ContractBus;

    beforeAll(() => {
      server = open();
      client = open();
    });

    afterAll(async () => {
      await Promise.all(buses.map((bus) => bus.close().catch(() => undefined)));
      await options.cleanup?.();
    });

    describe('request/reply', () => {
      test('when a service answers, then the caller gets its reply', async () => {
        const service = unique('svc');
        await server.serve(service, async (request) => ({ type: request.type, echo: request.payload }));

        const reply = await client.request(service, 'lap.get', { lapIndex: 3, at: '2024-05-01T10:00:00.000Z' });

        expect(reply).toEqual({ type: 'lap.get', echo: { lapIndex: 3, at: '2024-05-01T10:00:00.000Z' } });
      });

      test('when the handler returns encoded JSON, then request parses it and requestEncoded hands on its bytes and headers', async () => {
        const service = unique('svc');
        // Spacing a parse and re-serialise would lose: the bytes must arrive exactly as the handler encoded them.
        const text = '{"Id": "c41a",  "Laps": [ {"LapTime": 101.5} ]}';
        await server.serve(service, async () => new EncodedJson(Buffer.from(text), { lastModifiedTime: '2026-04-02T08:13:55.120Z' }));

        expect(await client.request(service, 'entity.get', {})).toEqual({ Id: 'c41a', Laps: [{ LapTime: 101.5 }] });
        const encoded = await client.requestEncoded(service, 'entity.get', {});
        expect(encoded).toBeInstanceOf(EncodedJson);
        expect(encoded.json.toString('utf8')).toBe(text);
        expect(encoded.headers).toEqual({ lastModifiedTime: '2026-04-02T08:13:55.120Z' });
      });

      test('when the handler returns binary bytes with a media type, then requestEncoded hands on the same bytes and the type', async () => {
        const service = unique('svc');
        // Every byte value, including ones that are not UTF-8, and an odd length: nothing may decode or pad them.
        const bytes = new Uint8Array(515);
        for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 37) % 256;
        await server.serve(service, async () => EncodedJson.binary(bytes.subarray(2), 'application/x-service-channels', { note: 'raw' }));

        const encoded = await client.requestEncoded(service, 'datafile.channel', {});

        expect(encoded.contentType).toBe('application/x-service-channels');
        expect(encoded.headers).toEqual({ note: 'raw', contentType: 'application/x-service-channels' });
        expect(Buffer.compare(encoded.json, Buffer.from(bytes.subarray(2)))).toBe(0);
      });

      test('when the handler returns a plain value, then requestEncoded gets its JSON and no headers', async () => {
        const service = unique('svc');
        await server.serve(service, async () => [{ Id: 'a' }, null, 'é']);

        const encoded = await client.requestEncoded(service, 'entity.list', {});

        expect(encoded.parse()).toEqual([{ Id: 'a' }, null, 'é']);
        expect(encoded.headers).toEqual({});
      });

      test('when the handler throws an AppError, then requestEncoded rejects with an equal AppError', async () => {
        const service = unique('svc');
        await server.serve(service, async () => {
          throw new AppError(404, 'RunSheet r3 was not found');
        });

        const error = await client.requestEncoded(service, 'entity.get', {}).catch((err: unknown) => err);

        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ status: 404, message: 'RunSheet r3 was not found' });
      });

      test('when the caller sends headers, then the handler sees them', async () => {
        const service = unique('svc');
        const seen = collector<BusRequest>();
        await server.serve(service, async (request) => {
          seen.push(request);
          return null;
        });

        await client.request(service, 'entity.get', {}, { headers: { requestId: 'req-42', tenant: 'team-a' } });

        expect((await seen.until(1))[0].headers).toEqual({ requestId: 'req-42', tenant: 'team-a' });
      });

      test('when the handler throws an AppError, then the caller rejects with an equal AppError', async () => {
        const service = unique('svc');
        await server.serve(service, async () => {
          throw new AppError(422, 'Setup name is missing', { title: 'Invalid setup', errors: { name: ['Required'] } });
        });

        const error = await client.request(service, 'setup.create', {}).catch((err: unknown) => err);

        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ status: 422, title: 'Invalid setup', message: 'Setup name is missing', errors: { name: ['Required'] } });
      });

      test('when the handler throws anything else, then the caller gets a 500 that hides the internals', async () => {
        const service = unique('svc');
        await server.serve(service, async () => {
          throw new Error('password=hunter2 leaked in a stack');
        });

        const error = await client.request(service, 'setup.create', {}).catch((err: unknown) => err);

        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).status).toBe(500);
        expect((error as AppError).message).not.toContain('hunter2');
      });

      /** What a request of `type` (with `headers`) rejects with when its service answers only after the caller's 300 ms. */
      const answeredTooLate = async (type: string, headers?: Record<string, string>): Promise<unknown> => {
        const service = unique('svc');
        const release = gate();
        await server.serve(service, async () => {
          await release.opened;
          return 'too late';
        });
        const error = await client.request(service, type, {}, { timeoutMs: 300, ...(headers ? { headers } : {}) }).catch((err: unknown) => err);
        release.open();
        return error;
      };

      test('when the service does not answer in time, then the caller rejects with 504', async () => {
        const error = await answeredTooLate('slow.query');

        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).status).toBe(504);
      });

      test('when a command (it carries a command id) is not answered in time, then 504 says its outcome is unknown and names the command', async () => {
        const error = await answeredTooLate('slow.create', { [COMMAND_ID_HEADER]: 'key:abc' });

        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ status: 504, type: OUTCOME_UNKNOWN_TYPE, extensions: { commandId: 'key:abc' } });
      });

      test('when a query is not answered in time, then its 504 is a plain timeout (a query changes nothing)', async () => {
        const error = await answeredTooLate('slow.query');

        expect((error as AppError).status).toBe(504);
        expect((error as AppError).type).toBeUndefined();
      });

      test('when a request is sent, then it carries its deadline: before the caller gives up, with a grace to answer', async () => {
        const service = unique('svc');
        const seen = collector<BusRequest>();
        await server.serve(service, async (request) => {
          seen.push(request);
          return null;
        });
        const before = Date.now();

        await client.request(service, 'any.create', {}, { timeoutMs: 4000 });

        const [request] = await seen.until(1);
        const deadline = request?.deadline ?? NaN;
        expect(deadline).toBeGreaterThan(before);
        expect(deadline).toBeLessThan(before + 4000);
      });

      test('when a service is served, then its consumers are counted; none before and none once closed', async () => {
        const service = unique('svc');
        expect(await client.consumerCount(service)).toBe(0);
        const subscription = await server.serve(service, async () => null);

        expect(await client.consumerCount(service)).toBe(1);
        await subscription.close();
        expect(await client.consumerCount(service)).toBe(0);
      });

      test('when the instance handling a request stops (gracefully), then its caller is told first that the request is still held, and gets its reply', async () => {
        const service = unique('svc');
        const handling = gate();
        const release = gate();
        const serving = await server.serve(service, async () => {
          handling.open();
          await release.opened;
          return 'done';
        });
        const held = collector<number>();
        const reply = client.request<string>(service, 'slow.create', {}, { timeoutMs: 10_000, headers: { [COMMAND_ID_HEADER]: unique('cmd') }, onHeld: () => held.push(Date.now()) });
        await handling.opened;
        expect(held.items).toEqual([]);

        const closing = serving.close();
        try {
          await held.until(1);
        } finally {
          release.open();
        }

        expect(await reply).toBe('done');
        await closing;
        expect(held.items).toHaveLength(1);
        expect(await client.consumerCount(service)).toBe(0);
      });

      test('when counts of queues that exist and do not are asked at once and again, then each is counted (a missing one is 0)', async () => {
        const served = unique('svc');
        const subscription = await server.serve(served, async () => null);
        const missing = () => client.consumerCount(unique('missing'));
        for (let round = 0; round < 3; round++) {
          expect(await Promise.all([missing(), client.consumerCount(served), missing(), client.consumerCount(served)])).toEqual([0, 1, 0, 1]);
        }
        await subscription.close();
      });

      test('when nobody ever served the service, then the caller rejects with 503', async () => {
        const error = await client.request(unique('nobody'), 'entity.get', {}, { timeoutMs: 2000 }).catch((err: unknown) => err);

        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).status).toBe(503);
      });

      test('when two instances serve one service, then they share its requests', async () => {
        const service = unique('svc');
        const second = open();
        await server.serve(service, async () => 'first');
        await second.serve(service, async () => 'second');

        const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => client.request<string>(service, 'who', { i })));

        expect(new Set(replies)).toEqual(new Set(['first', 'second']));
        await second.close();
      });

      test('when a service is served by single active consumers, then one instance gets every request in order and the next takes over its unacked ones in order when it dies', async () => {
        const service = unique('svc-sac');
        const doomed = open();
        const stuck = gate();
        const atDoomed = collector<number>();
        const atSurvivor = collector<number>();
        await doomed.serve(
          service,
          async (request) => {
            atDoomed.push((request.payload as { i: number }).i);
            await stuck.opened;
            return 'doomed';
          },
          { singleActiveConsumer: true, prefetch: 3 },
        );
        const survivor = open();
        await survivor.serve(
          service,
          async (request) => {
            atSurvivor.push((request.payload as { i: number }).i);
            return 'survivor';
          },
          { singleActiveConsumer: true, prefetch: 3 },
        );

        const replies = Promise.all(Array.from({ length: 6 }, (_, i) => client.request<string>(service, 'lap', { i }, { timeoutMs: 20_000 })));
        expect(await atDoomed.until(3)).toEqual([0, 1, 2]);
        expect(atSurvivor.items).toEqual([]);
        await doomed.destroy();

        expect(await replies).toEqual(Array(6).fill('survivor'));
        expect(atSurvivor.items).toEqual([0, 1, 2, 3, 4, 5]);
        stuck.open();
      });

      test('when served through serveCommands, then known types are dispatched and unknown ones get 400', async () => {
        const service = unique('svc');
        await serveCommands(server, service, { 'entity.get': async (request) => ({ id: (request.payload as { id: string }).id }) });

        expect(await client.request(service, 'entity.get', { id: 'car-7' })).toEqual({ id: 'car-7' });
        await expect(client.request(service, 'entity.drop', {})).rejects.toMatchObject({ status: 400 });
      });
    });

    describe('events', () => {
      test('when an event is published, then every bound queue gets it with its headers', async () => {
        const exchange = unique('timing');
        const [a, b] = [collector<BusEvent>(), collector<BusEvent>()];
        await server.subscribe(exchange, unique('q-a'), ['lap.*'], async (event) => a.push(event));
        await client.subscribe(exchange, unique('q-b'), ['lap.completed'], async (event) => b.push(event));

        await client.publish(exchange, 'lap.completed', { lapIndex: 1 }, { requestId: 'req-7' });

        for (const events of [await a.until(1), await b.until(1)]) {
          // The delivery's signal (a transport's own, when its deliveries can be lost) is not part of the event.
          const { signal, ...event } = events[0] as BusEvent;
          expect(signal === undefined || signal.aborted === false).toBe(true);
          expect(event).toEqual({ exchange, routingKey: 'lap.completed', payload: { lapIndex: 1 }, headers: { requestId: 'req-7' }, redelivered: false });
        }
      });

      test('when two consumers share one queue, then they compete and each event is handled once', async () => {
        const exchange = unique('timing');
        const queue = unique('q-shared');
        const second = open();
        const all = collector<string>();
        const byFirst: number[] = [];
        const bySecond: number[] = [];
        await server.subscribe(exchange, queue, ['#'], async (event) => {
          byFirst.push((event.payload as { n: number }).n);
          all.push('first');
        });
        await second.subscribe(exchange, queue, ['#'], async (event) => {
          bySecond.push((event.payload as { n: number }).n);
          all.push('second');
        });

        for (let n = 0; n < 12; n++) await client.publish(exchange, 'lap.completed', { n });
        await all.until(12);

        expect([...byFirst, ...bySecond].sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, n) => n));
        expect(byFirst.length).toBeGreaterThan(0);
        expect(bySecond.length).toBeGreaterThan(0);
        await second.close();
      });

      test('when events wait in a subscription queue, then it counts those ready only: not the one a consumer holds unacked; a queue that does not exist counts 0', async () => {
        const exchange = unique('jobs');
        const queue = unique('q-count');
        const held = gate();
        const delivered = collector<number>();
        await server.subscribe(exchange, queue, ['#'], async (event) => {
          delivered.push((event.payload as { n: number }).n);
          await held.opened;
        }, { prefetch: 1 });
        expect(await client.queuedMessages(queue)).toBe(0);

        for (let n = 0; n < 3; n++) await client.publish(exchange, 'job.a', { n });
        await delivered.until(1);

        expect(await client.queuedMessages(queue)).toBe(2);
        held.open();
        await delivered.until(3);
        await eventuallyZero(() => client.queuedMessages(queue));
        expect(await client.queuedMessages(unique('missing'))).toBe(0);
      });

      test('when bindings use * and #, then only matching routing keys arrive', async () => {
        const exchange = unique('timing');
        const received = collector<string>();
        await server.subscribe(exchange, unique('q-topic'), ['car.*.lap', 'session.#'], async (event) => received.push(event.routingKey), { prefetch: 1 });

        for (const key of ['car.7.lap', 'car.7.sector', 'car.7.x.lap', 'car.lap', 'session', 'session.a.b', 'sessions.x']) await client.publish(exchange, key, {});
        await client.publish(exchange, 'session.end', {});
        const keys = await received.until(4);

        // Prefetch 1 on one queue keeps order, so the last event arriving means nothing else is on its way.
        expect(keys).toEqual(['car.7.lap', 'session', 'session.a.b', 'session.end']);
      });

      test('when a handler throws, then the event is redelivered and marked so', async () => {
        const exchange = unique('timing');
        const deliveries = collector<BusEvent>();
        await server.subscribe(exchange, unique('q-retry'), ['#'], async (event) => {
          deliveries.push(event);
          if (!event.redelivered) throw new Error('transient failure');
        });

        await client.publish(exchange, 'lap.completed', { lapIndex: 2 });
        const [first, second] = await deliveries.until(2);

        expect(first).toMatchObject({ payload: { lapIndex: 2 }, redelivered: false });
        expect(second).toMatchObject({ payload: { lapIndex: 2 }, redelivered: true });
      });

      test('when a consumer dies before acking, then another consumer of the queue gets the event redelivered', async () => {
        const exchange = unique('timing');
        const queue = unique('q-crash');
        const doomed = open();
        const stuck = gate();
        const arrivedAtDoomed = collector<BusEvent>();
        await doomed.subscribe(exchange, queue, ['#'], async (event) => {
          arrivedAtDoomed.push(event);
          await stuck.opened;
        });
        await client.publish(exchange, 'lap.completed', { lapIndex: 9 });
        await arrivedAtDoomed.until(1);

        await doomed.destroy();
        const survivor = collector<BusEvent>();
        await server.subscribe(exchange, queue, ['#'], async (event) => survivor.push(event));
        const [redelivered] = await survivor.until(1);
        stuck.open();

        expect(redelivered).toMatchObject({ payload: { lapIndex: 9 }, redelivered: true });
      });

      test('when a subscription closes, then it first lets the in-flight handler finish', async () => {
        const exchange = unique('timing');
        const release = gate();
        const started = collector<void>();
        let finished = false;
        const subscription = await server.subscribe(exchange, unique('q-close'), ['#'], async () => {
          started.push();
          await release.opened;
          finished = true;
        });
        await client.publish(exchange, 'lap.completed', {});
        await started.until(1);

        const closing = subscription.close();
        setTimeout(release.open, 50);
        await closing;

        expect(finished).toBe(true);
      });

      test('when a subscription stops consuming, then its handler in flight goes on and is acked at close, and what is published after is left in the queue for the next consumer', async () => {
        const exchange = unique('jobs');
        const queue = unique('q-stop');
        const release = gate();
        const first = collector<unknown>();
        let finished = false;
        const stopping = await server.subscribe(exchange, queue, ['#'], async (event) => {
          first.push(event.payload);
          await release.opened;
          finished = true;
        });
        await client.publish(exchange, 'job.a', { job: 1 });
        await first.until(1);

        await stopping.stopConsuming();
        // A hand-back: published while the first handler still runs, after the consumer was cancelled.
        await client.publish(exchange, 'job.a', { job: 2 });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(first.items).toEqual([{ job: 1 }]);
        release.open();
        await stopping.close();
        expect(finished).toBe(true);

        const next = collector<unknown>();
        const taking = await client.subscribe(exchange, queue, ['#'], async (event) => void next.push({ payload: event.payload, redelivered: event.redelivered }));
        await next.until(1);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await taking.close();
        // The first was acked (not given again); the second waited for this consumer.
        expect(next.items).toEqual([{ payload: { job: 2 }, redelivered: false }]);
      });
    });

    describe('lifecycle', () => {
      test('when open, then it is ready; when closed, then it is not and requests fail with 503', async () => {
        const bus = open();
        const service = unique('svc');
        await bus.serve(service, async () => 'ok');
        expect(await bus.request(service, 'ping', {})).toBe('ok');
        expect(await bus.isReady()).toBe(true);

        await bus.close();

        expect(await bus.isReady()).toBe(false);
        await expect(bus.request(service, 'ping', {})).rejects.toMatchObject({ status: 503 });
        // A queue's count is never guessed (an empty queue would read as messages lost).
        await expect(bus.queuedMessages(unique('q'))).rejects.toMatchObject({ status: 503 });
      });
    });
  });
}
