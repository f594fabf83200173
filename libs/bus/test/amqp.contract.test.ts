import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { AppError, createLogger } from '@pitwall/service-kit';
import { tcpProxy } from '@pitwall/testing';
import { AmqpBus, COMMAND_ID_HEADER, OUTCOME_UNKNOWN_TYPE, type AmqpBusOptions } from '../src';
import { withHeartbeat } from '../src/amqp-bus';
import { busContract, closeAmqpConnectionsNamed, collector, deleteAmqpTopology, gate } from '../src/testing';

const AMQP_URL = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger('bus-test');

const contractPrefix = `pitwall-test.${randomUUID().slice(0, 8)}.`;
const contractBuses: AmqpBus[] = [];
busContract(
  'amqp',
  () => {
    const bus = new AmqpBus({ url: AMQP_URL, prefix: contractPrefix, logger, requestTimeoutMs: 5000 });
    contractBuses.push(bus);
    return bus;
  },
  { cleanup: () => deleteAmqpTopology(AMQP_URL, contractBuses) },
);

describe('AmqpBus (broker-specific)', () => {
  const prefix = `pitwall-test.${randomUUID().slice(0, 8)}.`;
  const buses: AmqpBus[] = [];
  const open = (options: Partial<AmqpBusOptions> = {}) => {
    const bus = new AmqpBus({ url: AMQP_URL, prefix, logger, reconnect: { initialDelayMs: 50, maxDelayMs: 500 }, ...options });
    buses.push(bus);
    return bus;
  };
  const unique = (what: string) => `${what}-${randomUUID().slice(0, 8)}`;
  /** A TCP proxy to the test broker (closed until opened) and the AMQP URL that reaches the broker through it. */
  async function brokerProxy() {
    const broker = new URL(AMQP_URL);
    const proxy = await tcpProxy({ host: broker.hostname, port: Number(broker.port || 5672) });
    const through = new URL(AMQP_URL);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    return { proxy, url: through.toString() };
  }

  /** A plain connection to look at the broker's state directly. */
  async function inspect<T>(look: (channel: import('amqplib').Channel) => Promise<T>): Promise<T> {
    const connection = await connect(AMQP_URL);
    // A look may fail on purpose (checkQueue of a queue not declared again yet closes the channel with a 404): the
    // rejection is the answer, so the channel's and connection's error events are not unhandled.
    connection.on('error', () => undefined);
    try {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      return await look(channel);
    } finally {
      await connection.close();
    }
  }

  async function eventually<T>(probe: () => Promise<T | undefined | false>, tries = 100): Promise<T> {
    for (let i = 0; i < tries; i++) {
      const value = await probe().catch(() => undefined);
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('condition never became true');
  }

  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close().catch(() => undefined)));
    await deleteAmqpTopology(AMQP_URL, buses);
  });

  test('when publish resolves, then the broker holds the event in the bound durable queue', async () => {
    const bus = open();
    const exchange = unique('timing');
    const queue = unique('q-confirm');
    const subscription = await bus.subscribe(exchange, queue, ['lap.*'], async () => undefined);
    await subscription.close();

    await bus.publish(exchange, 'lap.completed', { lapIndex: 1 });

    expect((await inspect((channel) => channel.checkQueue(`${prefix}${queue}`))).messageCount).toBe(1);
  });

  test("when an event names itself in a messageId header (an outbox's), then its AMQP message_id is that id on every copy; otherwise each gets one of its own", async () => {
    const bus = open();
    const exchange = unique('timing');
    const queue = unique('q-ids');
    const subscription = await bus.subscribe(exchange, queue, ['lap.*'], async () => undefined);
    await subscription.close();

    await bus.publish(exchange, 'lap.completed', { lapIndex: 1 }, { messageId: 'event-1' });
    await bus.publish(exchange, 'lap.completed', { lapIndex: 1 }, { messageId: 'event-1' });
    await bus.publish(exchange, 'lap.completed', { lapIndex: 2 });
    await bus.publish(exchange, 'lap.completed', { lapIndex: 3 });

    const ids = await inspect(async (channel) => {
      const got: (string | undefined)[] = [];
      for (let i = 0; i < 4; i++) {
        const message = await channel.get(`${prefix}${queue}`, { noAck: true });
        if (message) got.push(message.properties.messageId as string | undefined);
      }
      return got;
    });
    expect(ids.slice(0, 2)).toEqual(['event-1', 'event-1']);
    expect(new Set(ids.slice(2)).size).toBe(2);
    expect(ids.slice(2)).not.toContain('event-1');
  });

  test('when thousands of events are published at once through a small window, then every one arrives, in publish order, and requests are served meanwhile', async () => {
    const bus = open({ publishWindow: 8 });
    const exchange = unique('entity');
    const service = unique('svc');
    await bus.serve(service, async (request) => ({ served: request.payload }));
    const received = collector<number>();
    await bus.subscribe(exchange, unique('q-window'), ['#'], async (event) => received.push((event.payload as { n: number }).n), { prefetch: 500 });

    const published = Promise.all(Array.from({ length: 3000 }, (_, n) => bus.publish(exchange, 'lap.created', { n })));
    expect(await bus.request(service, 'ping', 1)).toEqual({ served: 1 });
    await published;

    expect(await received.until(3000)).toEqual(Array.from({ length: 3000 }, (_, n) => n));
  }, 30_000);

  test('when the connection is lost while events wait for the window, then every unconfirmed publish rejects with 503 and none hangs', async () => {
    const name = `window-${randomUUID().slice(0, 8)}`;
    const bus = open({ connectionName: `${prefix}${name}`, publishWindow: 1, reconnect: { initialDelayMs: 3000, maxDelayMs: 3000 } });
    const exchange = unique('entity');
    await bus.publish(exchange, 'warm', {});

    // One at a time: far more than the broker confirms before the connection is closed.
    const outcomes = Array.from({ length: 50_000 }, (_, n) => bus.publish(exchange, 'lap.created', { n }).then(() => 'confirmed', (err: AppError) => err.status));
    await closeAmqpConnectionsNamed(name);
    const settled = await Promise.all(outcomes);

    expect(settled.filter((o) => o !== 'confirmed' && o !== 503)).toEqual([]);
    expect(settled.filter((o) => o === 503).length).toBeGreaterThan(0);
  }, 30_000);

  test('when a per-instance subscription closes, then its queue is gone from the broker and keeps no events', async () => {
    const bus = open();
    const exchange = unique('cache');
    const queue = unique('q-instance');
    const received = collector<unknown>();
    const subscription = await bus.subscribe(exchange, queue, ['#'], async (event) => received.push(event.payload), { perInstance: true });
    await bus.publish(exchange, 'attachment.available', { n: 1 });
    expect(await received.until(1)).toEqual([{ n: 1 }]);
    await subscription.close();

    const exists = (name: string) =>
      inspect((channel) => {
        // A missing queue closes the channel with an error event besides the rejected check.
        channel.on('error', () => undefined);
        return channel.checkQueue(name).then(
          () => true,
          () => false,
        );
      });
    await eventually(async () => !(await exists(`${prefix}${queue}`)));
  });

  test('when an event fails on every delivery, then it ends in the dead-letter queue', async () => {
    const bus = open({ maxDeliveries: 2 });
    const exchange = unique('timing');
    const deliveries = collector<boolean>();
    await bus.subscribe(exchange, unique('q-poison'), ['#'], async (event) => {
      deliveries.push(event.redelivered);
      throw new Error('poison');
    });

    await bus.publish(exchange, 'lap.completed', { poison: true });

    const dead = await eventually(() => inspect((channel) => channel.get(`${prefix}dlq`, { noAck: true })));
    expect(JSON.parse(dead.content.toString())).toEqual({ poison: true });
    expect(deliveries.items).toHaveLength(2);
  });

  test.each([
    ['published by a bus (its message id)', 3, (exchange: string, bus: AmqpBus) => bus.publish(exchange, 'attachment.available', { poison: true })],
    [
      'published by another producer, not JSON, no message id',
      // Its body fails before any handler runs.
      0,
      async (exchange: string) => {
        const connection = await connect(AMQP_URL);
        try {
          const channel = await connection.createConfirmChannel();
          channel.publish(`${prefix}${exchange}`, 'attachment.available', Buffer.from('not json'));
          await channel.waitForConfirms();
        } finally {
          await connection.close();
        }
      },
    ],
  ])('when an event %s fails on every delivery of a per-instance subscription, then it is dead-lettered after maxDeliveries, not redelivered for ever', async (_what, handled, send) => {
    const bus = open({ maxDeliveries: 3 });
    const exchange = unique('entity');
    let deliveries = 0;
    await bus.subscribe(exchange, unique('q-own'), ['#'], async () => {
      deliveries++;
      throw new Error('poison');
    }, { perInstance: true });
    // The DLQ may hold an earlier test's letters: this one is known by its routing key's exchange.
    await inspect((channel) => channel.purgeQueue(`${prefix}dlq`));

    await send(exchange, bus);

    const dead = await eventually(() => inspect((channel) => channel.get(`${prefix}dlq`, { noAck: true })), 50);
    expect(dead.properties.headers?.['x-first-death-exchange']).toBe(`${prefix}${exchange}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(deliveries).toBe(handled);
  });

  test('when the broker deletes a served queue and an event queue under a live connection, then the bus consumes both again: requests are served and events heard', async () => {
    const bus = open();
    const peer = open();
    const service = unique('deaf');
    const exchange = unique('timing');
    const queue = unique('q-deleted');
    await bus.serve(service, async (request) => ({ served: request.payload }));
    const events = collector<unknown>();
    await bus.subscribe(exchange, queue, ['#'], async (event) => events.push(event.payload));
    expect(await peer.request(service, 'ping', 1)).toEqual({ served: 1 });

    await inspect(async (channel) => {
      await channel.deleteQueue(`${prefix}svc.${service}`);
      await channel.deleteQueue(`${prefix}${queue}`);
    });
    // Declared anew, with a consumer, by the bus that served them.
    await eventually(() => inspect(async (channel) => (await channel.checkQueue(`${prefix}svc.${service}`)).consumerCount === 1 && (await channel.checkQueue(`${prefix}${queue}`)).consumerCount === 1));
    expect(await peer.request(service, 'ping', 2, { timeoutMs: 5000 })).toEqual({ served: 2 });
    await peer.publish(exchange, 'lap.completed', { after: 'cancel' });
    expect(await events.until(1)).toEqual([{ after: 'cancel' }]);
    expect(await bus.isReady()).toBe(true);
  }, 20_000);

  test('when the broker closes a consumer\'s channel under a live connection (a 406 of its own), then that consumer alone consumes again: requests in flight on the connection are answered', async () => {
    const bus = open();
    const peer = open();
    const slow = unique('slow');
    const exchange = unique('jobs');
    const release = gate();
    await peer.serve(slow, async () => {
      await release.opened;
      return 'late';
    });
    const events = collector<unknown>();
    await bus.subscribe(exchange, unique('q-jobs'), ['#'], async (event) => events.push(event.payload));
    const inFlight = bus.request(slow, 'slow.query', {}, { timeoutMs: 15_000 });

    // The consumer's channel, closed by the broker as its ack timeout or an unknown delivery tag does (a 406).
    const consumer = [...(bus as unknown as { consumers: Set<{ queue: string; channel?: import('amqplib').Channel }> }).consumers].find((c) => c.queue.includes('q-jobs'));
    const closedByBroker = new Promise((resolve) => consumer?.channel?.once('close', resolve));
    consumer?.channel?.ack({ fields: { deliveryTag: 999_999 } } as import('amqplib').Message);
    await closedByBroker;

    await new Promise((resolve) => setTimeout(resolve, 300));
    release.open();
    expect(await inFlight).toBe('late');
    await peer.publish(exchange, 'job.trigger', { after: 'its channel closed' });
    expect(await events.until(1)).toEqual([{ after: 'its channel closed' }]);
  }, 20_000);

  test('when a request, a reply or an event is over BUS_MAX_MESSAGE_BYTES, then that one is a 413 and nothing else is disturbed (the broker would have closed the channel under every request in flight)', async () => {
    const client = open({ maxMessageBytes: 1024 * 1024 });
    const server = open({ maxMessageBytes: 1024 * 1024 });
    const service = unique('sized');
    const exchange = unique('sized-events');
    const big = 'x'.repeat(2 * 1024 * 1024);
    let served = 0;
    const release = gate();
    await server.serve(service, async (request) => {
      served++;
      if (request.type === 'slow') await release.opened;
      return request.type === 'big' ? { big } : 'small';
    });
    const inFlight = client.request(service, 'slow', {}, { timeoutMs: 15_000 });

    const bigRequest = await client.request(service, 'small', { big }).catch((e: unknown) => e);
    const bigReply = await client.request(service, 'big', {}).catch((e: unknown) => e);
    const bigEvent = await client.publish(exchange, 'x', { big }).catch((e: unknown) => e);
    release.open();

    expect(bigRequest).toMatchObject({ status: 413, message: expect.stringMatching(/^The request is \d+ bytes, more than the message broker takes \(BUS_MAX_MESSAGE_BYTES is 1048576\): nothing was sent$/) });
    expect(bigReply).toMatchObject({ status: 413, message: expect.stringMatching(/^The answer is \d+ bytes, more than the message broker takes \(BUS_MAX_MESSAGE_BYTES is 1048576\): ask for less$/) });
    expect(bigEvent).toMatchObject({ status: 413 });
    expect(await inFlight).toBe('small');
    // The big answer's request was answered once (acked), not redelivered; the big request never reached the service.
    expect(served).toBe(2);
    expect(await client.request(service, 'small', {})).toBe('small');
  }, 20_000);

  test('when the broker closes the channel of a per-instance subscription, then its queue and the events waiting in it are kept and handled on the new channel', async () => {
    const bus = open();
    const peer = open();
    const exchange = unique('own');
    const seen: number[] = [];
    const first = gate();
    await bus.subscribe(exchange, unique('q-own-kept'), ['#'], async (event) => {
      const n = (event.payload as { n: number }).n;
      if (n === 1 && !seen.includes(1)) {
        seen.push(1);
        await first.opened;
        throw AppError.unavailable('held');
      }
      if (!seen.includes(n)) seen.push(n);
    }, { perInstance: true, prefetch: 1 });
    await peer.publish(exchange, 'e', { n: 1 });
    await eventually(async () => seen.length === 1);
    // Two more wait in the queue behind the held one.
    await peer.publish(exchange, 'e', { n: 2 });
    await peer.publish(exchange, 'e', { n: 3 });

    const consumer = [...(bus as unknown as { consumers: Set<{ queue: string; channel?: import('amqplib').Channel }> }).consumers].find((c) => c.queue.includes('q-own-kept'));
    const closedByBroker = new Promise((resolve) => consumer?.channel?.once('close', resolve));
    consumer?.channel?.ack({ fields: { deliveryTag: 999_999 } } as import('amqplib').Message);
    await closedByBroker;
    first.open();

    await eventually(async () => seen.length === 3);
    expect([...seen].sort()).toEqual([1, 2, 3]);
  }, 20_000);

  test('when the broker closes the connection, then in-flight requests fail with 503 and everything works again after recovery', async () => {
    const victimName = `victim-${randomUUID().slice(0, 8)}`;
    const victim = open({ connectionName: `${prefix}${victimName}` });
    const peer = open();
    const slowService = unique('slow');
    const victimService = unique('victim-svc');
    const exchange = unique('timing');
    const release = gate();
    await peer.serve(slowService, async () => {
      await release.opened;
      return 'late';
    });
    await victim.serve(victimService, async (request) => ({ served: request.payload }));
    const events = collector<unknown>();
    await victim.subscribe(exchange, unique('q-victim'), ['#'], async (event) => events.push(event.payload));
    expect(await peer.request(victimService, 'ping', 1)).toEqual({ served: 1 });

    const inFlight = victim.request(slowService, 'slow.query', {}, { timeoutMs: 30_000 }).catch((err: unknown) => err);
    const closed = await closeAmqpConnectionsNamed(victimName).finally(() => setTimeout(release.open, 200));
    expect(closed).toBe(1);

    const error = await inFlight;
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(503);

    await eventually(() => victim.isReady());
    expect(await victim.request(slowService, 'slow.query', {})).toBe('late');
    expect(await peer.request(victimService, 'ping', 2)).toEqual({ served: 2 });
    await peer.publish(exchange, 'lap.completed', { after: 'recovery' });
    expect(await events.until(1)).toEqual([{ after: 'recovery' }]);
  }, 20_000);

  test('when the connection is lost while a handler holds an event, then that delivery\'s signal is aborted and the event comes again with a signal of its own', async () => {
    const victimName = `holder-${randomUUID().slice(0, 8)}`;
    const holder = open({ connectionName: `${prefix}${victimName}` });
    const peer = open();
    const exchange = unique('held');
    const deliveries: { redelivered: boolean; signal: AbortSignal | undefined }[] = [];
    const firstLost = gate();
    await holder.subscribe(exchange, unique('q-held'), ['#'], async (event) => {
      deliveries.push({ redelivered: event.redelivered, signal: event.signal });
      if (deliveries.length > 1) return;
      // The first delivery is held (as a handler waiting out an outage holds it) until it is lost.
      await new Promise<void>((resolve) => event.signal?.addEventListener('abort', () => resolve(), { once: true }));
      firstLost.open();
      throw AppError.unavailable('still waiting');
    });
    await peer.publish(exchange, 'job.trigger', { job: 1 });
    await eventually(async () => deliveries.length === 1);
    expect(deliveries[0]?.signal?.aborted).toBe(false);

    expect(await closeAmqpConnectionsNamed(victimName)).toBe(1);

    await firstLost.opened;
    await eventually(async () => deliveries.length === 2);
    expect(deliveries.map((d) => [d.redelivered, d.signal?.aborted])).toEqual([
      [false, true],
      [true, false],
    ]);
  }, 20_000);

  test('when the broker closes the connection while a command waits for its reply, then 504 outcome unknown with its command id, not a 503', async () => {
    const victimName = `victim-${randomUUID().slice(0, 8)}`;
    const victim = open({ connectionName: `${prefix}${victimName}` });
    const peer = open();
    const slowService = unique('slow');
    const release = gate();
    await peer.serve(slowService, async () => {
      await release.opened;
      return 'late';
    });

    const inFlight = victim.request(slowService, 'slow.create', {}, { timeoutMs: 30_000, headers: { [COMMAND_ID_HEADER]: 'request:1' } }).catch((err: unknown) => err);
    const closed = await closeAmqpConnectionsNamed(victimName).finally(() => setTimeout(release.open, 200));
    expect(closed).toBe(1);

    expect(await inFlight).toMatchObject({ status: 504, type: OUTCOME_UNKNOWN_TYPE, extensions: { commandId: 'request:1' } });
  }, 20_000);

  test('when a request waits for the first connection, then the deadline it carries is within the caller\'s own wait', async () => {
    const { proxy, url } = await brokerProxy();
    await proxy.open();
    // The broker is reached, but nothing passes for 1.5 s: the first connection takes half of the request's wait.
    proxy.hold();
    const peer = open();
    const service = unique('deadline');
    const seen: (number | undefined)[] = [];
    await peer.serve(service, async (request) => {
      seen.push(request.deadline);
      return 'served';
    });
    const late = new AmqpBus({ url, prefix, logger });
    try {
      const sent = Date.now();
      setTimeout(() => proxy.release(), 1500);
      expect(await late.request(service, 'query', {}, { timeoutMs: 3000 })).toBe('served');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBeLessThanOrEqual(sent + 3000);
    } finally {
      await late.close();
      await proxy.cut();
    }
  }, 20_000);

  test('when the broker is unreachable after connecting, then requests fail at once with 503 and a Retry-After', async () => {
    const name = `down-${randomUUID().slice(0, 8)}`;
    // A long first backoff keeps the bus disconnected for the whole test.
    const bus = open({ connectionName: `${prefix}${name}`, reconnect: { initialDelayMs: 3000, maxDelayMs: 3000 } });
    const service = unique('svc');
    await bus.serve(service, async () => 'ok');
    await closeAmqpConnectionsNamed(name);
    await eventually(async () => !(await bus.isReady()));

    await expect(bus.request(service, 'ping', {}, { timeoutMs: 20_000 })).rejects.toMatchObject({ status: 503, message: 'Not connected to the message broker', retryAfterSeconds: 2 });
    await expect(bus.publish(unique('timing'), 'x', {})).rejects.toMatchObject({ status: 503, retryAfterSeconds: 2 });

    // Registered while disconnected, started by the reconnect.
    const lateService = unique('late');
    await bus.serve(lateService, async () => 'served after reconnect');
    await eventually(() => bus.isReady());
    expect(await bus.request(lateService, 'ping', {})).toBe('served after reconnect');
    expect(await bus.request(service, 'ping', {})).toBe('ok');
  }, 20_000);

  test('when the broker is unreachable from the start, then once a try to connect has failed requests fail at once with 503 (not after their timeout), and the bus connects and serves when it comes', async () => {
    // Closed (connections refused) until opened: the broker down as the process starts.
    const { proxy, url } = await brokerProxy();
    let bus: AmqpBus | undefined;
    try {
      const down = open({ url, reconnect: { initialDelayMs: 200, maxDelayMs: 200 } });
      bus = down;
      const service = unique('svc');
      // Registered while never connected: started by the first connection.
      await down.serve(service, async () => 'served once connected');
      // Far longer than this test may take (20 s): a request that waited for the connection would fail the test.
      await expect(down.request(service, 'ping', {}, { timeoutMs: 120_000 })).rejects.toMatchObject({ status: 503, message: 'Not connected to the message broker', retryAfterSeconds: 2 });
      await expect(down.request(service, 'ping', {}, { timeoutMs: 120_000 })).rejects.toMatchObject({ status: 503, retryAfterSeconds: 2 });

      await proxy.open();
      await eventually(() => down.isReady(), 100);
      expect(await down.request(service, 'ping', {})).toBe('served once connected');
    } finally {
      await bus?.close();
      await proxy.cut();
    }
  }, 20_000);

  test('when the broker stops answering without closing the connection (a silent partition), then the bus notices within a few heartbeats: requests fail at once with 503 and it reconnects once the partition heals', async () => {
    const { proxy, url } = await brokerProxy();
    await proxy.open();
    let bus: AmqpBus | undefined;
    try {
      const partitioned = open({ url, heartbeatSeconds: 1 });
      bus = partitioned;
      const peer = open();
      const service = unique('svc');
      await peer.serve(service, async () => 'ok');
      await eventually(() => partitioned.isReady());
      expect(await partitioned.request(service, 'ping', {})).toBe('ok');

      // No byte passes either way and nothing closes: only missed heartbeats can tell.
      proxy.hold();
      await eventually(async () => !(await partitioned.isReady()));
      await expect(partitioned.request(service, 'ping', {}, { timeoutMs: 30_000 })).rejects.toMatchObject({ status: 503, retryAfterSeconds: 2 });

      proxy.release();
      await eventually(() => partitioned.isReady(), 200);
      expect(await partitioned.request(service, 'ping', {})).toBe('ok');
    } finally {
      // Closed while its broker is reachable: a bus left reconnecting to a closed port does not close.
      await bus?.close();
      await proxy.cut();
    }
  }, 40_000);

  test("when AMQP_URL sets a heartbeat, then it is kept; otherwise the bus's own is added", () => {
    expect(withHeartbeat('amqp://guest:guest@127.0.0.1:5672', 10)).toBe('amqp://guest:guest@127.0.0.1:5672?heartbeat=10');
    expect(withHeartbeat('amqps://u:p%40ss@rabbit.internal/team?heartbeat=30&frameMax=8192', 10)).toBe('amqps://u:p%40ss@rabbit.internal/team?heartbeat=30&frameMax=8192');
    expect(withHeartbeat('amqp://u:p%40ss@rabbit.internal/%2F', 5)).toBe('amqp://u:p%40ss@rabbit.internal/%2F?heartbeat=5');
  });
});
