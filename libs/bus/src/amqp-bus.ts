import { createHash, randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage, type Message, type RecoveringChannelModel } from 'amqplib';
import { AppError, serializeAppError, type Logger } from '@pitwall/service-kit';
import { DEFAULT_MAX_DELIVERIES, DEFAULT_PREFETCH, DEFAULT_REQUEST_TIMEOUT_MS } from './in-process-bus';
import { coalesceFrameWrites } from './coalesce-writes';
import { PublishWindow } from './publish-window';
import { Topology } from './topology';
import { EncodedJson, decodeJson, encodeJson } from './encoded-json';
import { CONTENT_TYPE, REPLY_ERROR, REPLY_HELD, REPLY_OK, cleanHeaders, deadlineOf, runRequestHandler, settleReply, requestHeaders, timeoutError, toBusHeaders, unansweredError, unavailableError } from './wire';
import type { Bus, BusHeaders, EventHandler, RequestHandler, RequestOptions, ServeOptions, SubscribeOptions, Subscription } from './types';

/** RabbitMQ's pseudo-queue for replies: no reply queue to declare, replies go straight to the caller's channel. */
/** AMQP's reply code of a passive declare of a queue that does not exist. */
const NOT_FOUND = 404;
const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

export interface AmqpBusOptions {
  /** `AMQP_URL`, e.g. amqp://guest:guest@127.0.0.1:5672. */
  url: string;
  /** Prepended to every queue and exchange name so deployments (and test runs) never see each other. Default ''. */
  prefix?: string;
  logger: Logger;
  /** Default per-request timeout. Default 5000 ms. */
  requestTimeoutMs?: number;
  /** Failed deliveries of one event before it goes to `<prefix>dlq`; 0 disables the cap. Default 5. */
  maxDeliveries?: number;
  /** Reconnect backoff (exponential with jitter). Defaults: 100 ms first, 5000 ms at most. */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /** Shown in the RabbitMQ management UI and `rabbitmqctl list_connections`. Default `pitwall <prefix> pid <pid>`. */
  connectionName?: string;
  /**
   * Events published and not yet confirmed at most (`BUS_PUBLISH_WINDOW`); later ones wait their turn, in order, so
   * a reply on the same connection never queues behind thousands of events. Default 1024.
   */
  publishWindow?: number;
  /**
   * The connection's heartbeat in seconds, when `url` sets none (its `heartbeat` query parameter wins): a broker that
   * stops answering without closing the connection (a silent partition, a frozen host) is noticed after about two
   * missed beats, so requests fail at once with a 503 and the bus reconnects, instead of every request waiting out
   * its timeout on a connection that looks alive. Default 10 (RabbitMQ would propose 60: two minutes of that).
   */
  heartbeatSeconds?: number;
  /**
   * `BUS_MAX_MESSAGE_BYTES`: the broker's `max_message_size`. A request over it is a 413 before it is sent, a reply
   * over it is replied as a 413 instead, an event over it is refused; the broker would close the channel of any of
   * them (a 406), failing every request in flight on it. Default DEFAULT_MAX_MESSAGE_BYTES.
   */
  maxMessageBytes?: number;
}

export const DEFAULT_PUBLISH_WINDOW = 1024;
/** RabbitMQ 3.13's `max_message_size` (128 MiB); 4.x's default is 16 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 128 * 1024 * 1024;
export const DEFAULT_HEARTBEAT_S = 10;

/** `url` with a `heartbeat` query parameter of `seconds` unless it has one. */
export function withHeartbeat(url: string, seconds: number): string {
  const parsed = new URL(url);
  if (parsed.searchParams.has('heartbeat')) return url;
  parsed.searchParams.set('heartbeat', String(seconds));
  return parsed.toString();
}

/** One live broker connection and the channels the bus needs on it; replaced wholesale on reconnect. */
interface Connection {
  model: ChannelModel;
  alive: boolean;
  /** Publishes requests and consumes their replies: direct reply-to requires both on one channel. */
  requests: Channel;
  /** Confirm channel for events, so publish resolves only once the broker has taken responsibility. */
  events: ConfirmChannel;
  /** The events sent on `events` and not confirmed yet, bounded. */
  window: PublishWindow;
  assertedExchanges: Set<string>;
  /** The channel that counts consumers (a look at a missing queue closes it: then the next look opens another). */
  counting?: Promise<Channel>;
  /** The counts asked, one at a time: a missing queue's look closes the channel under any other look sharing it. */
  countQueue?: Promise<unknown>;
}

interface PendingRequest {
  connection: Connection;
  service: string;
  type: string;
  /** The caller wants the reply's bytes unparsed (`requestEncoded`). */
  encoded: boolean;
  settle: (outcome: { value: unknown } | { error: Error }) => void;
  /** The request's headers: a command carries its id (its lost reply is an unknown outcome, not a 503). */
  headers: BusHeaders | undefined;
  /** The caller's `onHeld`: the instance handling it stops, and its reply still comes. */
  held: (() => void) | undefined;
}

type DeliveryHandler = (message: ConsumeMessage, channel: Channel) => Promise<void>;
/** Tells the sender of a delivery being handled that this consumer stops and still finishes it. */
type HeldNotice = (message: ConsumeMessage, channel: Channel) => void;

/** A consumer that survives reconnects: it re-declares its queue and consumes again on every new connection. */
class AmqpConsumer implements Subscription {
  private channel: Channel | undefined;
  private consumerTag: string | undefined;
  private attachedTo: Connection | undefined;
  private attaching: Promise<void> = Promise.resolve();
  /** The deliveries being handled (in flight), each settled once acked or requeued, with its message. */
  private readonly handling = new Map<Promise<void>, ConsumeMessage>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  private stopping: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly bus: AmqpBus,
    readonly queue: string,
    private readonly declare: (channel: Channel) => Promise<void>,
    private readonly prefetch: number,
    private readonly handle: DeliveryHandler,
    private readonly held?: HeldNotice,
    /** A process's own queue (exclusive: the broker removes it with the connection): removed here when the consumer closes. */
    private readonly ownQueue = false,
  ) {}

  isAttachedTo(connection: Connection): boolean {
    return this.closed || this.attachedTo === connection;
  }

  attach(connection: Connection): Promise<void> {
    if (this.closed || this.attachedTo === connection) return this.attaching;
    this.attachedTo = connection;
    this.attaching = (async () => {
      const channel = await connection.model.createChannel();
      this.bus.watchChannel(connection, channel, `consumer of ${this.queue}`, () => this.channel === channel && !this.closed, () => this.consumeAgain(channel, 'its channel was closed by the broker'));
      try {
        await this.declare(channel);
        await channel.prefetch(this.prefetch);
        const { consumerTag } = await channel.consume(this.queue, (message) => this.onDelivery(message, channel), { noAck: false });
        this.channel = channel;
        this.consumerTag = consumerTag;
      } catch (err) {
        await channel.close().catch(() => undefined);
        throw err;
      }
    })();
    return this.attaching;
  }

  /**
   * Stops consuming, lets in-flight handlers finish (and ack or requeue), then closes the channel. The senders of the
   * deliveries in flight are told first (`held`), so a caller that sees the queue without a consumer still waits for
   * their answers; a delivery that comes before the broker confirms the cancel is handled and told the same.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.stopConsuming();
      await this.whenIdle();
      const channel = this.channel;
      this.channel = undefined;
      if (channel && this.ownQueue && this.attachedTo?.alive) await channel.deleteQueue(this.queue).catch(() => undefined);
      if (channel && this.attachedTo?.alive) await channel.close().catch(() => undefined);
      this.bus.forget(this);
    })();
    return this.closing;
  }

  /** Cancels the consumer (the senders of the deliveries in flight told first); the handlers in flight go on. */
  stopConsuming(): Promise<void> {
    this.stopping ??= (async () => {
      this.closed = true;
      await this.attaching.catch(() => undefined);
      const { channel, consumerTag } = this;
      if (channel && this.attachedTo?.alive) for (const message of this.handling.values()) this.tellHeld(message, channel);
      if (channel && consumerTag && this.attachedTo?.alive) await channel.cancel(consumerTag).catch(() => undefined);
    })();
    return this.stopping;
  }

  /** For destroy(): stop re-attaching; the connection's end hands unacked deliveries back to the broker. */
  abandon(): void {
    this.closed = true;
    this.channel = undefined;
  }

  private onDelivery(message: ConsumeMessage | null, channel: Channel): void {
    if (message === null) {
      this.onCancelled(channel);
      return;
    }
    if (this.closed) this.tellHeld(message, channel);
    const handled = this.handle(message, channel)
      .catch((err) => this.bus.logger.error({ err, queue: this.queue }, 'bus delivery handling failed'))
      .finally(() => {
        this.handling.delete(handled);
        if (this.handling.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
    this.handling.set(handled, message);
  }

  private tellHeld(message: ConsumeMessage, channel: Channel): void {
    try {
      this.held?.(message, channel);
    } catch (err) {
      // The channel went: the delivery goes back to the broker, and its caller learns it as a lost instance.
      this.bus.logger.warn({ err, queue: this.queue }, 'bus could not tell a caller that its request is still handled');
    }
  }

  /**
   * The broker ended this consumer (its queue was deleted, or a queue's node went): consume again on a new channel,
   * its queue declared anew, so the service does not go deaf under a live connection. The old channel closes once
   * the deliveries it holds are handled (their acks go on it); when consuming again fails, the connection is closed
   * for amqplib's recovery to start everything again.
   */
  private onCancelled(channel: Channel): void {
    this.consumeAgain(channel, 'cancelled by the broker (queue deleted?)');
  }

  /**
   * Consumes again on a new channel under the same connection, when the broker ended this consumer or closed its
   * channel (a closed channel's deliveries go back to the queue, their handlers' signals aborted).
   */
  private consumeAgain(channel: Channel, why: string): void {
    const connection = this.attachedTo;
    if (this.closed || this.channel !== channel || !connection?.alive) return;
    this.bus.logger.warn({ queue: this.queue, why }, 'bus consumer lost; consuming again');
    this.channel = undefined;
    this.consumerTag = undefined;
    this.attachedTo = undefined;
    void Promise.allSettled([...this.handling.keys()]).then(() => channel.close().catch(() => undefined));
    this.attach(connection).catch((err: unknown) => {
      this.bus.logger.warn({ err, queue: this.queue }, 'bus consumer could not consume again; reconnecting');
      connection.model.close().catch(() => undefined);
    });
  }

  private whenIdle(): Promise<void> {
    if (this.handling.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}

/**
 * The bus over RabbitMQ. Requests go to `<prefix>svc.<service>` with direct reply-to; events go to durable topic
 * exchanges with publisher confirms. amqplib's `recovery` reconnects with backoff and `setup` re-declares the
 * topology and restarts every consumer on each new connection.
 */
export class AmqpBus implements Bus {
  readonly logger: Logger;
  private readonly topology: Topology;
  private readonly requestTimeoutMs: number;
  private readonly maxDeliveries: number;
  private readonly maxMessageBytes: number;
  private readonly publishWindow: number;
  private readonly recovering: Promise<RecoveringChannelModel>;
  private readonly consumers = new Set<AmqpConsumer>();
  private readonly pending = new Map<string, PendingRequest>();
  private readonly declaredQueues = new Set<string>();
  private readonly declaredExchanges = new Set<string>();
  private readonly firstConnection: Promise<void>;
  /** Settles at the first failed try to connect: a request waiting for the first connection stops waiting then. */
  private readonly firstFailure: Promise<void>;
  private current: Connection | undefined;
  private everConnected = false;
  /**
   * The latest try to connect failed and none has succeeded since (the broker is down at start): a request is refused
   * at once with 503, as while reconnecting, instead of waiting BUS_TIMEOUT_MS for a connection that is not coming.
   */
  private connectFailing = false;
  private closing = false;

  constructor(options: AmqpBusOptions) {
    this.logger = options.logger;
    this.topology = new Topology(options.prefix ?? '');
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.maxDeliveries = options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.publishWindow = options.publishWindow ?? DEFAULT_PUBLISH_WINDOW;
    new PublishWindow(this.publishWindow); // a bad size throws here, not on the first connection
    const connectionName = options.connectionName ?? `pitwall ${options.prefix || 'bus'} pid ${process.pid}`;
    this.recovering = connect(withHeartbeat(options.url, options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_S), {
      // amqplib leaves Nagle on; a request is several small frames, so without this every round trip
      // waits ~40 ms for the peer's delayed ACK (docs/benchmarks.md).
      noDelay: true,
      clientProperties: { connection_name: connectionName },
      recovery: {
        waitForConnect: false,
        initialDelay: options.reconnect?.initialDelayMs ?? 100,
        maxDelay: options.reconnect?.maxDelayMs ?? 5000,
        setup: (model: ChannelModel) => this.setup(model),
      },
    });
    let firstFailed: () => void = () => undefined;
    this.firstFailure = new Promise<void>((resolve) => (firstFailed = resolve));
    this.firstConnection = new Promise<void>((resolve, reject) => {
      this.recovering.then((recovering) => {
        recovering.on('error', (err) => this.logger.warn({ err }, 'bus connection error'));
        recovering.on('handler-error', (err, event) => this.logger.error({ err, event }, 'bus connection listener threw'));
        recovering.on('disconnect', (err) => this.logger.warn({ err }, 'bus disconnected from the broker; reconnecting'));
        recovering.on('connect-failed', (err) => {
          this.connectFailing = true;
          firstFailed();
          this.logger.warn({ err }, 'bus could not connect to the broker');
        });
        recovering.on('reconnect-failed', (err) => {
          this.logger.error({ err }, 'bus gave up reconnecting');
          reject(err);
        });
        recovering.on('connect', () => {
          this.everConnected = true;
          this.connectFailing = false;
          this.logger.info({ connectionName }, 'bus connected to the broker');
          resolve();
        });
      }, reject);
    });
    this.firstConnection.catch(() => undefined);
  }

  request<R = unknown>(service: string, type: string, payload: unknown, options: RequestOptions = {}): Promise<R> {
    return this.send<R>(service, type, payload, options, false);
  }

  requestEncoded(service: string, type: string, payload: unknown, options: RequestOptions = {}): Promise<EncodedJson> {
    return this.send<EncodedJson>(service, type, payload, options, true);
  }

  private async send<R>(service: string, type: string, payload: unknown, options: RequestOptions, encoded: boolean): Promise<R> {
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    const body = encodeJson(payload);
    if (body.byteLength > this.maxMessageBytes) throw this.tooLarge('request', body.byteLength, 'nothing was sent');
    const connection = await this.connection(timeoutMs);
    // What is left of the caller's wait once connected (the first connection may have taken part of it): the request
    // carries that, so its service's deadline and its expiry on the broker are never after the caller gave up.
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) throw unavailableError('Not connected to the message broker in time');
    const correlationId = randomUUID();
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => settle({ error: unansweredError(options.headers, timeoutError(service, type, timeoutMs)) }), Math.max(0, deadline - Date.now()));
      const settle = (outcome: { value: unknown } | { error: Error }) => {
        if (!this.pending.delete(correlationId)) return;
        clearTimeout(timer);
        if ('error' in outcome) reject(outcome.error);
        else resolve(outcome.value as R);
      };
      this.pending.set(correlationId, { connection, service, type, encoded, settle, headers: options.headers, held: options.onHeld });
      try {
        connection.requests.publish('', this.topology.serviceQueue(service), body, {
          correlationId,
          replyTo: DIRECT_REPLY_TO,
          type,
          headers: requestHeaders(options.headers, remainingMs, options.deadline),
          contentType: CONTENT_TYPE,
          // The caller waits, so a request may be transient; once nobody waits it must not be served.
          persistent: false,
          expiration: String(remainingMs),
          // Unroutable (no such service queue) comes back as basic.return: fail fast instead of timing out.
          mandatory: true,
        });
      } catch (err) {
        settle({ error: unavailableError('The connection to the message broker is not usable', err) });
      }
    });
  }

  async serve(service: string, handler: RequestHandler, options: ServeOptions = {}): Promise<Subscription> {
    const queue = this.topology.serviceQueue(service);
    return this.addConsumer(
      queue,
      async (channel) => {
        await channel.assertQueue(queue, { durable: true, ...(options.singleActiveConsumer ? { arguments: { 'x-single-active-consumer': true } } : {}) });
        this.declaredQueues.add(queue);
      },
      options.prefetch,
      async (message, channel) => {
        const type = String(message.properties.type ?? '');
        const headers = toBusHeaders(message.properties.headers);
        const deadline = deadlineOf(message.properties.headers);
        let reply = await runRequestHandler(() => handler({ type, payload: decodeJson(message.content), headers, ...(deadline === undefined ? {} : { deadline }) }), this.logger, {
          service,
          type,
          requestId: headers.requestId,
        });
        if (reply.content.byteLength > this.maxMessageBytes) {
          this.logger.warn({ service, type, bytes: reply.content.byteLength, maxMessageBytes: this.maxMessageBytes }, 'bus reply over BUS_MAX_MESSAGE_BYTES; answered 413 instead');
          reply = { ok: false, content: encodeJson(serializeAppError(this.tooLarge('answer', reply.content.byteLength, 'ask for less'))) };
        }
        try {
          if (message.properties.replyTo) {
            channel.sendToQueue(message.properties.replyTo, reply.content, {
              correlationId: message.properties.correlationId,
              contentType: CONTENT_TYPE,
              type: reply.ok ? REPLY_OK : REPLY_ERROR,
              headers: reply.ok ? reply.headers : undefined,
            });
          }
          channel.ack(message);
        } catch (err) {
          this.logger.warn({ err, service, type }, 'bus reply lost with its channel; the request will be redelivered');
        }
      },
      (message, channel) => {
        if (message.properties.replyTo) channel.sendToQueue(message.properties.replyTo, Buffer.alloc(0), { correlationId: message.properties.correlationId, type: REPLY_HELD });
      },
    );
  }

  async publish(exchange: string, routingKey: string, payload: unknown, headers?: BusHeaders): Promise<void> {
    const content = encodeJson(payload);
    if (content.byteLength > this.maxMessageBytes) throw this.tooLarge(`event ${exchange}/${routingKey}`, content.byteLength, 'it was not published');
    const connection = await this.connection(this.requestTimeoutMs);
    const name = this.topology.exchange(exchange);
    try {
      if (!connection.assertedExchanges.has(name)) {
        await connection.events.assertExchange(name, 'topic', { durable: true });
        connection.assertedExchanges.add(name);
        this.declaredExchanges.add(name);
      }
      // In call order: every publish reaches this point after the same few ticks, so the window keeps their order.
      await connection.window.acquire();
      try {
        await new Promise<void>((resolve, reject) => {
          // A broker that blocks publishers (memory or disk alarm) never confirms: give up after the request timeout,
          // and with it on every event waiting behind (they stay in their outbox for its retry).
          const timer = setTimeout(() => {
            const err = new Error(`no confirm within ${this.requestTimeoutMs} ms`);
            connection.window.failWaiting(err);
            reject(err);
          }, this.requestTimeoutMs);
          try {
            connection.events.publish(
              name,
              routingKey,
              content,
              // An event from an outbox names itself in its `messageId` header, the same on every copy: the AMQP property too.
              { persistent: true, headers: cleanHeaders(headers), contentType: CONTENT_TYPE, messageId: headers?.['messageId'] ?? randomUUID(), timestamp: Math.floor(Date.now() / 1000) },
              (err) => {
                clearTimeout(timer);
                if (err) reject(err);
                else resolve();
              },
            );
          } catch (err) {
            clearTimeout(timer);
            reject(err);
          }
        });
      } finally {
        connection.window.release();
      }
    } catch (err) {
      throw unavailableError(`The message broker did not confirm the event ${exchange}/${routingKey}`, err);
    }
  }

  async subscribe(exchange: string, queueName: string, bindingKeys: string[], handler: EventHandler, options: SubscribeOptions = {}): Promise<Subscription> {
    const exchangeName = this.topology.exchange(exchange);
    const queue = this.topology.queue(queueName);
    const deadLetters = this.topology.deadLetterQueue();
    // A process's own queue is a classic queue (it must be exclusive), which counts no deliveries: its failures are
    // counted here, by message, and past maxDeliveries the event is dead-lettered as a quorum queue's would be (it had
    // come round again at once, thousands of times a second, for as long as the process ran).
    const failures = options.perInstance && this.maxDeliveries > 0 ? new FailureCounts() : undefined;
    return this.addConsumer(
      queue,
      async (channel) => {
        await channel.assertExchange(exchangeName, 'topic', { durable: true });
        this.declaredExchanges.add(exchangeName);
        if (options.perInstance) {
          // This process's own queue: the broker deletes it with the connection; the subscription's close deletes it
          // too. Not autoDelete: a consumer channel the broker closed (its ack timeout) would take the queue and the
          // events in it along, where the consumer consumes again on a new channel.
          await channel.assertQueue(queue, { durable: false, exclusive: true, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': deadLetters } });
        } else {
          // Quorum queues count deliveries, so a poison event is dead-lettered instead of looping forever.
          const args: Record<string, unknown> = { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': deadLetters };
          if (this.maxDeliveries > 0) args['x-delivery-limit'] = this.maxDeliveries - 1;
          await channel.assertQueue(queue, { durable: true, arguments: args });
        }
        this.declaredQueues.add(queue);
        for (const key of bindingKeys) await channel.bindQueue(queue, exchangeName, key);
      },
      options.prefetch,
      async (message, channel) => {
        let handled = true;
        try {
          await handler({
            exchange: this.topology.unprefixExchange(message.fields.exchange),
            routingKey: message.fields.routingKey,
            payload: decodeJson(message.content),
            headers: toBusHeaders(message.properties.headers),
            redelivered: message.fields.redelivered,
            signal: deliveriesLost(channel),
          });
        } catch (err) {
          handled = false;
          this.logger.warn({ err, queue, routingKey: message.fields.routingKey, redelivered: message.fields.redelivered }, 'bus event handler failed; requeued');
        }
        try {
          const id = failures ? messageKey(message) : '';
          if (handled) {
            failures?.forget(id);
            channel.ack(message);
          } else if (failures && failures.add(id) >= this.maxDeliveries) {
            failures.forget(id);
            this.logger.error({ queue, routingKey: message.fields.routingKey, deliveries: this.maxDeliveries }, 'bus event failed on every delivery; dead-lettered');
            channel.nack(message, false, false);
          } else channel.nack(message, false, true);
        } catch {
          // The channel died meanwhile: the broker requeues the unacked delivery for another consumer.
        }
      },
      undefined,
      options.perInstance === true,
    );
  }

  /** A message the broker would refuse (over its max_message_size, BUS_MAX_MESSAGE_BYTES): a 413 saying which. */
  private tooLarge(what: string, bytes: number, outcome: string): AppError {
    return new AppError(413, `The ${what} is ${bytes} bytes, more than the message broker takes (BUS_MAX_MESSAGE_BYTES is ${this.maxMessageBytes}): ${outcome}`);
  }

  async isReady(): Promise<boolean> {
    return this.current?.alive === true;
  }

  async consumerCount(service: string): Promise<number> {
    const connection = this.current?.alive ? this.current : undefined;
    if (!connection) return 0;
    return (await this.checkQueue(connection, this.topology.serviceQueue(service))).consumerCount;
  }

  async queuedMessages(queue: string): Promise<number> {
    const connection = this.current?.alive ? this.current : undefined;
    if (!connection) throw unavailableError('The message broker is not connected: the queue cannot be counted');
    try {
      return (await this.checkQueue(connection, this.topology.queue(queue))).messageCount;
    } catch (err) {
      throw unavailableError('The message broker did not count the queue', err);
    }
  }

  /** Passive declares on the connection's counting channel, one at a time: a queue that does not exist counts none. */
  private checkQueue(connection: Connection, queue: string): Promise<{ consumerCount: number; messageCount: number }> {
    const check = (connection.countQueue ?? Promise.resolve()).catch(() => undefined).then(() => this.checkOnCountingChannel(connection, queue));
    connection.countQueue = check;
    return check;
  }

  private async checkOnCountingChannel(connection: Connection, queue: string): Promise<{ consumerCount: number; messageCount: number }> {
    connection.counting ??= connection.model.createChannel().then((channel) => {
      channel.on('error', () => undefined);
      channel.on('close', () => {
        connection.counting = undefined;
      });
      return channel;
    });
    const channel = await connection.counting;
    try {
      const { consumerCount, messageCount } = await channel.checkQueue(queue);
      return { consumerCount, messageCount };
    } catch (err) {
      if ((err as { code?: number }).code === NOT_FOUND) return { consumerCount: 0, messageCount: 0 };
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.all([...this.consumers].map((consumer) => consumer.close()));
    this.failPending(this.pending.keys(), 'The bus is closed');
    await (await this.recovering.catch(() => undefined))?.close();
  }

  /** Drops the connection at once, like a crashed process: unacked deliveries go back to the broker. */
  async destroy(): Promise<void> {
    this.closing = true;
    for (const consumer of this.consumers) consumer.abandon();
    this.consumers.clear();
    this.failPending(this.pending.keys(), 'The bus was destroyed');
    await (await this.recovering.catch(() => undefined))?.close();
  }

  /** Every queue and exchange this bus declared (prefixed), for test teardown and ephemeral environments. */
  declaredTopology(): { queues: string[]; exchanges: string[] } {
    return { queues: [...this.declaredQueues], exchanges: [...this.declaredExchanges] };
  }

  /** @internal */
  forget(consumer: AmqpConsumer): void {
    this.consumers.delete(consumer);
  }

  /**
   * @internal Every channel gets an error handler; one that dies under a live connection restarts the connection,
   * unless `replace` can stand a new channel in for it alone (a consumer's: the broker closed it for its ack timeout,
   * or a 406 of its own), so that the requests and publications on the others go on.
   */
  watchChannel(connection: Connection, channel: Channel, role: string, stillWanted: () => boolean = () => true, replace?: () => void): void {
    channel.on('error', (err) => this.logger.warn({ err, role }, 'bus channel error'));
    channel.on('handler-error', (err, event) => this.logger.error({ err, role, event }, 'bus channel listener threw'));
    channel.on('close', () => {
      // Channels close just before their connection reports it; look once that report had its chance.
      setImmediate(() => {
        if (!connection.alive || this.closing || !stillWanted()) return;
        if (replace) {
          this.logger.warn({ role }, 'bus channel closed under a live connection; opening another for it');
          replace();
          return;
        }
        this.logger.warn({ role }, 'bus channel closed under a live connection; reconnecting');
        connection.model.close().catch(() => undefined);
      });
    });
  }

  /** amqplib recovery runs this after every (re)connect: channels, direct reply-to, DLQ, then every consumer. */
  private async setup(model: ChannelModel): Promise<void> {
    const connection = { model, alive: true, assertedExchanges: new Set<string>(), window: new PublishWindow(this.publishWindow) } as Connection;
    if (!coalesceFrameWrites(model)) this.logger.warn('amqplib internals not as expected: each message goes to the socket in its own write');
    model.on('error', (err) => this.logger.warn({ err }, 'bus connection error'));
    model.on('close', () => this.onConnectionLost(connection));
    connection.requests = await model.createChannel();
    this.watchChannel(connection, connection.requests, 'requests');
    connection.requests.on('return', (message: Message) => this.onReturned(message));
    await connection.requests.consume(DIRECT_REPLY_TO, (message) => this.onReply(message), { noAck: true });
    connection.events = await model.createConfirmChannel();
    this.watchChannel(connection, connection.events, 'events');
    const deadLetters = this.topology.deadLetterQueue();
    await connection.events.assertQueue(deadLetters, { durable: true });
    this.declaredQueues.add(deadLetters);
    // Ready only once every consumer runs again; serve()/subscribe() calls made meanwhile are picked up by the loop.
    for (;;) {
      const waiting = [...this.consumers].filter((consumer) => !consumer.isAttachedTo(connection));
      if (waiting.length === 0) break;
      for (const consumer of waiting) await consumer.attach(connection);
    }
    this.current = connection;
  }

  private onConnectionLost(connection: Connection): void {
    connection.alive = false;
    if (this.current === connection) this.current = undefined;
    connection.window.failWaiting(new Error('the connection to the message broker was lost'));
    const lost = [...this.pending].filter(([, p]) => p.connection === connection).map(([id]) => id);
    // These were published: a command among them may have taken effect (504, outcome unknown); a query is a 503.
    this.failPending(lost, 'The connection to the message broker was lost while waiting for the reply');
  }

  private onReply(message: ConsumeMessage | null): void {
    if (!message) return;
    const pending = this.pending.get(String(message.properties.correlationId));
    if (!pending) return; // a reply after its timeout: the caller has moved on
    try {
      const kind = message.properties.type;
      if (kind === REPLY_HELD) {
        pending.held?.();
        return;
      }
      if (kind !== REPLY_OK && kind !== REPLY_ERROR) throw new Error(`reply of unknown type ${String(kind)}`);
      const reply = kind === REPLY_OK ? { ok: true as const, content: message.content, headers: cleanHeaders(toBusHeaders(message.properties.headers)) } : { ok: false as const, content: message.content };
      pending.settle(settleReply(reply, pending.encoded));
    } catch (err) {
      pending.settle({ error: unavailableError(`Service ${pending.service} sent an unreadable reply to ${pending.type}`, err) });
    }
  }

  private onReturned(message: Message): void {
    const pending = this.pending.get(String(message.properties.correlationId));
    pending?.settle({ error: unavailableError(`No instance of service ${pending.service} has ever served requests`) });
  }

  private failPending(ids: Iterable<string>, detail: string): void {
    // Every pending request was published: a command's outcome is unknown.
    for (const id of [...ids]) {
      const pending = this.pending.get(id);
      pending?.settle({ error: unansweredError(pending.headers, unavailableError(detail)) });
    }
  }

  /**
   * The live connection. Before the first one, while the first try is still on its way, waits for it (bounded): a
   * request sent as the process starts is served. Once a try has failed (the broker is down at start), and while
   * reconnecting, fails fast with 503.
   */
  private async connection(waitMs: number): Promise<Connection> {
    if (this.closing) throw unavailableError('The bus is closed');
    if (this.current?.alive) return this.current;
    if (!this.everConnected && !this.connectFailing) {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
      await Promise.race([this.firstConnection, this.firstFailure, gaveUp]).catch(() => undefined);
      clearTimeout(timer);
      if (this.current?.alive) return this.current;
    }
    throw unavailableError('Not connected to the message broker');
  }

  private async addConsumer(queue: string, declare: (channel: Channel) => Promise<void>, prefetch = DEFAULT_PREFETCH, handle: DeliveryHandler, held?: HeldNotice, ownQueue = false): Promise<Subscription> {
    if (this.closing) throw unavailableError('The bus is closed');
    const consumer = new AmqpConsumer(this, queue, declare, prefetch, handle, held, ownQueue);
    this.consumers.add(consumer);
    const connection = this.current?.alive ? this.current : this.everConnected ? undefined : await this.connection(this.requestTimeoutMs).catch(() => undefined);
    // Disconnected: the consumer is registered and starts when setup runs on the next connection.
    if (!connection) return consumer;
    try {
      await consumer.attach(connection);
    } catch (err) {
      // Lost the connection meanwhile: setup attaches it on the next one. Otherwise the declaration was refused.
      if (!connection.alive && !this.closing) return consumer;
      this.consumers.delete(consumer);
      consumer.abandon();
      throw err;
    }
    return consumer;
  }
}

/** One signal per consumer channel, aborted when it closes: every delivery it holds can no longer be acked then. */
const channelSignals = new WeakMap<Channel, AbortSignal>();

function deliveriesLost(channel: Channel): AbortSignal {
  let signal = channelSignals.get(channel);
  if (!signal) {
    const controller = new AbortController();
    channel.once('close', () => controller.abort(new Error('the delivery\'s channel closed: the broker gives the event to a consumer again')));
    signal = controller.signal;
    channelSignals.set(channel, signal);
  }
  return signal;
}

/** Failed deliveries by message, for the queues that count none (a process's own): the latest 10,000 messages. */
class FailureCounts {
  private readonly counts = new Map<string, number>();

  add(id: string): number {
    const count = (this.counts.get(id) ?? 0) + 1;
    this.counts.delete(id);
    this.counts.set(id, count);
    if (this.counts.size > 10_000) this.counts.delete(this.counts.keys().next().value as string);
    return count;
  }

  forget(id: string): void {
    this.counts.delete(id);
  }
}

/** A message's identity across its redeliveries: its message id (every publish of this bus sets one), else its bytes' hash. */
function messageKey(message: ConsumeMessage): string {
  const id: unknown = message.properties.messageId;
  return typeof id === 'string' && id ? `id:${id}` : `sha1:${createHash('sha1').update(message.content).digest('base64')}`;
}
