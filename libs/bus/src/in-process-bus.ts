import { randomUUID } from 'node:crypto';
import { AppError, type Logger } from '@pitwall/service-kit';
import { Topology, topicMatches } from './topology';
import { EncodedJson, decodeJson, encodeJson } from './encoded-json';
import { DEADLINE_HEADER, cleanHeaders, deadlineOf, runRequestHandler, settleReply, requestHeaders, timeoutError, unansweredError, unavailableError, type Reply } from './wire';
import type { Bus, BusHeaders, EventHandler, RequestHandler, RequestOptions, ServeOptions, SubscribeOptions, Subscription } from './types';

export const DEFAULT_REQUEST_TIMEOUT_MS = 5000;
export const DEFAULT_PREFETCH = 16;
/** Deliveries of one event before it is dead-lettered; matches the AMQP transport's `x-delivery-limit`. */
export const DEFAULT_MAX_DELIVERIES = 5;

interface QueuedMessage {
  content: Buffer;
  headers: Record<string, string>;
  exchange: string;
  routingKey: string;
  type: string;
  redelivered: boolean;
  deliveries: number;
  /** Requests expire like AMQP messages with `expiration`: nobody waits for them any more. */
  deadline?: number;
  reply?: (reply: Reply) => void;
  /** Tells the request's caller that the instance handling it stops and still answers it (AMQP's `reply.held`). */
  held?: () => void;
}

type Outcome = 'ack' | 'requeue';

class InProcessQueue {
  private readonly messages: QueuedMessage[] = [];
  private readonly consumers: InProcessConsumer[] = [];

  get consumerCount(): number {
    return this.consumers.length;
  }
  private nextConsumer = 0;
  private scheduled = false;

  constructor(
    readonly name: string,
    private readonly broker: InProcessBroker,
    private readonly maxDeliveries: number,
    /** Like `x-single-active-consumer`: only the oldest consumer gets deliveries; the next takes over when it goes. */
    private readonly singleActiveConsumer = false,
  ) {}

  enqueue(message: QueuedMessage): void {
    this.messages.push(message);
    this.schedule();
  }

  /** A delivery that was not acked goes back to the head of the queue, marked redelivered, unless it hit the cap. */
  requeue(message: QueuedMessage): void {
    if (this.maxDeliveries > 0 && message.deliveries >= this.maxDeliveries) {
      this.broker.deadLetter(message);
      return;
    }
    this.messages.unshift({ ...message, redelivered: true });
    this.schedule();
  }

  addConsumer(consumer: InProcessConsumer): void {
    this.consumers.push(consumer);
    this.schedule();
  }

  removeConsumer(consumer: InProcessConsumer): void {
    const index = this.consumers.indexOf(consumer);
    if (index >= 0) this.consumers.splice(index, 1);
  }

  get size(): number {
    return this.messages.length;
  }

  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // Deliveries are asynchronous, as on the wire: a publisher never runs a handler on its own stack.
    setImmediate(() => {
      this.scheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.messages.length > 0) {
      const consumer = this.pickConsumer();
      if (!consumer) return;
      const message = this.messages.shift() as QueuedMessage;
      if (message.deadline !== undefined && message.deadline <= Date.now()) continue;
      consumer.deliver({ ...message, deliveries: message.deliveries + 1 });
    }
  }

  /** Round-robin over consumers with free prefetch, so instances of one service compete fairly. */
  private pickConsumer(): InProcessConsumer | undefined {
    if (this.singleActiveConsumer) {
      const active = this.consumers[0];
      return active?.hasCapacity() ? active : undefined;
    }
    for (let i = 0; i < this.consumers.length; i++) {
      const index = (this.nextConsumer + i) % this.consumers.length;
      const consumer = this.consumers[index];
      if (consumer.hasCapacity()) {
        this.nextConsumer = (index + 1) % this.consumers.length;
        return consumer;
      }
    }
    return undefined;
  }
}

class InProcessConsumer {
  private readonly inFlight = new Set<QueuedMessage>();
  private idleWaiters: (() => void)[] = [];
  private active = true;

  constructor(
    private readonly queue: InProcessQueue,
    private readonly prefetch: number,
    private readonly handle: (message: QueuedMessage, stillOwned: () => boolean) => Promise<Outcome>,
  ) {}

  hasCapacity(): boolean {
    return this.active && this.inFlight.size < this.prefetch;
  }

  deliver(message: QueuedMessage): void {
    this.inFlight.add(message);
    const stillOwned = () => this.inFlight.has(message);
    setImmediate(() => {
      this.handle(message, stillOwned)
        .catch((): Outcome => 'requeue')
        .then((outcome) => {
          // A killed consumer already handed its deliveries back; its late ack or reply goes nowhere.
          if (!this.inFlight.delete(message)) return;
          if (outcome === 'requeue') this.queue.requeue(message);
          this.queue.schedule();
          this.notifyIfIdle();
        });
    });
  }

  /** Stops taking deliveries; the ones in flight finish normally, their callers told first that they still do. */
  cancel(): Promise<void> {
    this.stop();
    return this.whenIdle();
  }

  /** cancel() without waiting for the deliveries in flight. */
  stop(): void {
    if (this.active) for (const message of this.inFlight) message.held?.();
    this.active = false;
    this.queue.removeConsumer(this);
  }

  /** Like a consumer whose connection died: unacked deliveries return to the queue at once. */
  kill(): void {
    this.active = false;
    this.queue.removeConsumer(this);
    const unacked = [...this.inFlight];
    this.inFlight.clear();
    // Each goes back to the head: the latest first, so they end up in the order they were delivered.
    for (const message of unacked.reverse()) this.queue.requeue(message);
    this.notifyIfIdle();
  }

  private whenIdle(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private notifyIfIdle(): void {
    if (this.inFlight.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * The in-process stand-in for the broker: queues, topic bindings and the dead-letter queue. Buses sharing one
 * broker see each other's messages, like processes sharing one RabbitMQ.
 */
/** Dead letters an in-process broker keeps, the most recent (the oldest go first); a message is at most a few KB. */
export const MAX_DEAD_LETTERS = 1000;

export class InProcessBroker {
  private readonly queues = new Map<string, InProcessQueue>();
  private readonly bindings = new Map<string, { queue: string; pattern: string }[]>();
  private readonly deadLetters: QueuedMessage[] = [];

  declareQueue(name: string, maxDeliveries = 0, singleActiveConsumer = false): InProcessQueue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new InProcessQueue(name, this, maxDeliveries, singleActiveConsumer);
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Removes a queue with its bindings (a per-instance queue once its consumer is gone). */
  deleteQueue(name: string): void {
    this.queues.delete(name);
    for (const [exchange, list] of this.bindings) this.bindings.set(exchange, list.filter((b) => b.queue !== name));
  }

  findQueue(name: string): InProcessQueue | undefined {
    return this.queues.get(name);
  }

  bind(queue: string, exchange: string, pattern: string): void {
    const list = this.bindings.get(exchange) ?? [];
    if (!list.some((b) => b.queue === queue && b.pattern === pattern)) list.push({ queue, pattern });
    this.bindings.set(exchange, list);
  }

  /** Topic routing: each bound queue gets one copy however many of its bindings match. */
  route(message: QueuedMessage): void {
    const targets = new Set<string>();
    for (const binding of this.bindings.get(message.exchange) ?? []) {
      if (topicMatches(binding.pattern, message.routingKey)) targets.add(binding.queue);
    }
    for (const name of targets) this.queues.get(name)?.enqueue({ ...message });
  }

  deadLetter(message: QueuedMessage): void {
    this.deadLetters.push(message);
    // The last ones only: a process that runs for months (npm start) must not keep every event it gave up on.
    if (this.deadLetters.length > MAX_DEAD_LETTERS) this.deadLetters.splice(0, this.deadLetters.length - MAX_DEAD_LETTERS);
  }

  /**
   * Events given up after too many failed deliveries, oldest first (the `<prefix>dlq` of the AMQP transport): the last
   * MAX_DEAD_LETTERS.
   */
  deadLettered(): { exchange: string; routingKey: string; payload: unknown }[] {
    return this.deadLetters.map((m) => ({ exchange: m.exchange, routingKey: m.routingKey, payload: decodeJson(m.content) }));
  }
}

export interface InProcessBusOptions {
  /** Prepended to every queue and exchange name, as on the AMQP transport. Default ''. */
  prefix?: string;
  logger: Logger;
  /** Default per-request timeout. Default 5000 ms. */
  requestTimeoutMs?: number;
  /** Share one broker between several buses to model several processes. Default: a broker of its own. */
  broker?: InProcessBroker;
  /** Failed deliveries of one event before it is dead-lettered; 0 disables the cap. Default 5. */
  maxDeliveries?: number;
}

interface PendingRequest {
  reject: (err: Error) => void;
}

/** The bus for the embedded single-process stack: same semantics as AmqpBus, no broker. */
export class InProcessBus implements Bus {
  readonly broker: InProcessBroker;
  private readonly topology: Topology;
  private readonly logger: Logger;
  private readonly requestTimeoutMs: number;
  private readonly maxDeliveries: number;
  private readonly consumers = new Set<InProcessConsumer>();
  private readonly pending = new Map<string, PendingRequest>();
  private closed = false;

  constructor(options: InProcessBusOptions) {
    this.broker = options.broker ?? new InProcessBroker();
    this.topology = new Topology(options.prefix ?? '');
    this.logger = options.logger;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.maxDeliveries = options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES;
  }

  request<R = unknown>(service: string, type: string, payload: unknown, options: RequestOptions = {}): Promise<R> {
    return this.send<R>(service, type, payload, options, false);
  }

  requestEncoded(service: string, type: string, payload: unknown, options: RequestOptions = {}): Promise<EncodedJson> {
    return this.send<EncodedJson>(service, type, payload, options, true);
  }

  private send<R>(service: string, type: string, payload: unknown, options: RequestOptions, encoded: boolean): Promise<R> {
    if (this.closed) return Promise.reject(unavailableError('The bus is closed'));
    const queue = this.broker.findQueue(this.topology.serviceQueue(service));
    if (!queue) return Promise.reject(unavailableError(`No instance of service ${service} has ever served requests`));
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const correlationId = randomUUID();
    return new Promise<R>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        this.pending.delete(correlationId);
      };
      const timer = setTimeout(() => {
        finish();
        reject(unansweredError(options.headers, timeoutError(service, type, timeoutMs)));
      }, timeoutMs);
      this.pending.set(correlationId, {
        reject: (err) => {
          finish();
          reject(err instanceof AppError ? unansweredError(options.headers, err) : err);
        },
      });
      queue.enqueue({
        content: encodeJson(payload),
        headers: requestHeaders(options.headers, timeoutMs, options.deadline),
        exchange: '',
        routingKey: queue.name,
        type,
        redelivered: false,
        deliveries: 0,
        deadline: Date.now() + timeoutMs,
        reply: (reply) => {
          if (!this.pending.has(correlationId)) return;
          finish();
          const outcome = settleReply<R>(reply, encoded);
          if ('error' in outcome) reject(outcome.error);
          else resolve(outcome.value);
        },
        held: () => {
          if (this.pending.has(correlationId)) options.onHeld?.();
        },
      });
    });
  }

  async serve(service: string, handler: RequestHandler, options: ServeOptions = {}): Promise<Subscription> {
    this.assertOpen();
    const queue = this.broker.declareQueue(this.topology.serviceQueue(service), 0, options.singleActiveConsumer === true);
    return this.consume(queue, options.prefetch, async (message, stillOwned) => {
      const reply = await runRequestHandler(
        () => {
          // The wire's deadline header becomes the request's deadline, as on AMQP.
          const { [DEADLINE_HEADER]: _deadline, ...headers } = message.headers;
          const deadline = deadlineOf(message.headers);
          return handler({ type: message.type, payload: decodeJson(message.content), headers, ...(deadline === undefined ? {} : { deadline }) });
        },
        this.logger,
        { service, type: message.type, requestId: message.headers['requestId'] },
      );
      if (stillOwned()) message.reply?.(reply);
      return 'ack';
    });
  }

  async publish(exchange: string, routingKey: string, payload: unknown, headers?: BusHeaders): Promise<void> {
    if (this.closed) throw unavailableError('The bus is closed');
    this.broker.route({
      content: encodeJson(payload),
      headers: cleanHeaders(headers),
      exchange: this.topology.exchange(exchange),
      routingKey,
      type: '',
      redelivered: false,
      deliveries: 0,
    });
  }

  async subscribe(exchange: string, queueName: string, bindingKeys: string[], handler: EventHandler, options: SubscribeOptions = {}): Promise<Subscription> {
    this.assertOpen();
    const queue = this.broker.declareQueue(this.topology.queue(queueName), this.maxDeliveries);
    for (const key of bindingKeys) this.broker.bind(queue.name, this.topology.exchange(exchange), key);
    const subscription = await this.consume(queue, options.prefetch, async (message) => {
      try {
        await handler({
          exchange: this.topology.unprefixExchange(message.exchange),
          routingKey: message.routingKey,
          payload: decodeJson(message.content),
          headers: { ...message.headers },
          redelivered: message.redelivered,
        });
        return 'ack';
      } catch (err) {
        this.logger.warn({ err, queue: queue.name, routingKey: message.routingKey, deliveries: message.deliveries }, 'bus event handler failed; requeued');
        return 'requeue';
      }
    });
    if (!options.perInstance) return subscription;
    return {
      close: async () => {
        await subscription.close();
        this.broker.deleteQueue(queue.name);
      },
      stopConsuming: () => subscription.stopConsuming(),
    };
  }

  async isReady(): Promise<boolean> {
    return !this.closed;
  }

  async consumerCount(service: string): Promise<number> {
    if (this.closed) return 0;
    return this.broker.findQueue(this.topology.serviceQueue(service))?.consumerCount ?? 0;
  }

  async queuedMessages(queue: string): Promise<number> {
    if (this.closed) throw unavailableError('The bus is closed');
    return this.broker.findQueue(this.topology.queue(queue))?.size ?? 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.consumers].map((consumer) => consumer.cancel()));
    this.consumers.clear();
    this.failPending('The bus is closed');
  }

  /** Dies like a crashed process: consumers vanish without acking, their deliveries are redelivered elsewhere. */
  async destroy(): Promise<void> {
    this.closed = true;
    for (const consumer of this.consumers) consumer.kill();
    this.consumers.clear();
    this.failPending('The bus was destroyed');
  }

  private consume(queue: InProcessQueue, prefetch = DEFAULT_PREFETCH, handle: (message: QueuedMessage, stillOwned: () => boolean) => Promise<Outcome>): Subscription {
    const consumer = new InProcessConsumer(queue, prefetch, handle);
    this.consumers.add(consumer);
    queue.addConsumer(consumer);
    return {
      close: async () => {
        await consumer.cancel();
        this.consumers.delete(consumer);
      },
      // Taken off its queue at once; cancel() then waits for the deliveries in flight.
      stopConsuming: async () => void consumer.stop(),
    };
  }

  private failPending(detail: string): void {
    for (const pending of [...this.pending.values()]) pending.reject(unavailableError(detail));
  }

  private assertOpen(): void {
    if (this.closed) throw unavailableError('The bus is closed');
  }
}
