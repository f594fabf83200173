import type { EncodedJson } from './encoded-json';

/**
 * The bus every service talks through. Two transports implement it: AMQP (RabbitMQ, amqplib) for the
 * distributed stack and in-process for the embedded default. One contract suite (src/testing) runs on both.
 */

/** Headers that travel with every message; `requestId` is the HTTP caller's X-Request-Id. */
export interface BusHeaders {
  requestId?: string;
  [name: string]: string | undefined;
}

export interface RequestOptions {
  /** Per-call timeout; past it the promise rejects with AppError 504. Default: the bus's `requestTimeoutMs`. */
  timeoutMs?: number;
  headers?: BusHeaders;
  /** An earlier deadline (epoch ms) than the timeout gives, e.g. a caller's own deadline passed on. */
  deadline?: number;
  /**
   * Called when the instance that took the request stops (a graceful stop: it takes no more and finishes what it took)
   * while it handles this one: its reply still comes, though the service may have no consumer left.
   */
  onHeld?: () => void;
}

export interface BusRequest<T = unknown> {
  /** Command or query name, e.g. `entity.get`. */
  type: string;
  payload: T;
  headers: BusHeaders;
  /**
   * Epoch ms past which the caller no longer waits for the answer (less a grace for the reply to travel): a write
   * must not commit past it. Set by the bus on every request.
   */
  deadline?: number;
}

/**
 * Answers one request. Return value is the reply payload (JSON-serialisable, or an `EncodedJson` whose bytes are
 * sent as they are). Throwing an AppError sends it
 * back to the caller, whose promise rejects with an equal AppError (status, title, detail, errors);
 * any other error reaches the caller as a 500 AppError whose detail hides the internals.
 */
export type RequestHandler = (request: BusRequest) => Promise<unknown>;

export interface BusEvent<T = unknown> {
  exchange: string;
  routingKey: string;
  payload: T;
  headers: BusHeaders;
  /** True when this delivery was seen before by a consumer that did not ack it. */
  redelivered: boolean;
  /**
   * Aborted once this delivery can no longer be acknowledged: its channel closed (the connection lost, the broker's
   * ack timeout), and the broker gives the event to a consumer again. A handler that waits a long time (one holding
   * its event through an outage) stops waiting then, so a redelivered copy is not held twice. Absent on a transport
   * whose deliveries cannot be lost under a running handler (the in-process bus).
   */
  signal?: AbortSignal;
}

/** Handles one event. Resolving acks it; throwing nacks it and it is redelivered (requeued). */
export type EventHandler = (event: BusEvent) => Promise<void>;

export interface Subscription {
  /**
   * Stops consuming; in-flight handlers finish and are acked or requeued before it resolves. The callers of the
   * requests in flight are told first that their replies still come (`RequestOptions.onHeld`).
   */
  close(): Promise<void>;
  /**
   * The first half of `close`: no delivery is taken after it resolves (the broker confirmed the cancel), the callers of
   * the requests in flight told, and the handlers in flight left running; `close` then waits for them. A process that
   * stops its work (hands its running jobs back as new messages) does so between the two, so this instance, stopping,
   * is not given them again.
   */
  stopConsuming(): Promise<void>;
}

export interface ServeOptions {
  /** Unacknowledged requests one instance handles at once. Default 16. */
  prefetch?: number;
  /**
   * Only one consumer of the queue gets its requests at a time (RabbitMQ's `x-single-active-consumer`): the others
   * wait, and the next one takes over when it goes away, with its unacked requests back in their places. So one
   * instance sees the queue's requests in publish order. The queue is declared with it: a queue declared without it
   * cannot be served with it (use another service name, e.g. a partition's).
   */
  singleActiveConsumer?: boolean;
}

export interface SubscribeOptions {
  /** Unacknowledged events one consumer holds at once. Default 16. */
  prefetch?: number;
  /**
   * A queue of this one instance (give it a unique name), gone with its consumer: for state local to a process (its
   * caches), which every instance must hear about. Not durable: events published while it is not consuming are lost.
   */
  perInstance?: boolean;
}

export interface Bus {
  /**
   * Sends a request to `service`'s queue and waits for its reply. Rejects with AppError 504 on timeout and
   * 503 when the connection is lost while waiting or not available; never hangs.
   */
  request<R = unknown>(service: string, type: string, payload: unknown, options?: RequestOptions): Promise<R>;
  /** Like `request`, but the reply payload comes back unparsed: its JSON bytes and the headers its handler set. */
  requestEncoded(service: string, type: string, payload: unknown, options?: RequestOptions): Promise<EncodedJson>;
  /** Consumes `service`'s request queue. Several instances of one service compete for its requests. */
  serve(service: string, handler: RequestHandler, options?: ServeOptions): Promise<Subscription>;
  /** Publishes a persistent event on a topic exchange; resolves once the broker confirmed it. */
  publish(exchange: string, routingKey: string, payload: unknown, headers?: BusHeaders): Promise<void>;
  /**
   * Binds the durable `queue` to the topic `exchange` with `bindingKeys` and consumes it with manual acks.
   * Consumers of one queue compete; different queues each get every matching event.
   */
  subscribe(exchange: string, queue: string, bindingKeys: string[], handler: EventHandler, options?: SubscribeOptions): Promise<Subscription>;
  /** True while the transport can carry messages. */
  isReady(): Promise<boolean>;
  /**
   * How many consumers `service`'s request queue has now (0 when it has none or does not exist): a service whose
   * consumers are gone would only queue requests, so readiness reports it down.
   */
  consumerCount(service: string): Promise<number>;
  /**
   * How many messages the subscription queue `queue` (the name given to `subscribe`) holds ready for delivery now: not
   * those delivered to a consumer and not yet acked. 0 when the queue does not exist (a message routed to it would be
   * dropped). Rejects (503) while the broker cannot be asked: never a guess.
   */
  queuedMessages(queue: string): Promise<number>;
  /** Stops all consumers (finishing in-flight work), then closes the connection. */
  close(): Promise<void>;
}
