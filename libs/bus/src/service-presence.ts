import { AppError, type Logger } from '@pitwall/service-kit';
import type { Bus, RequestOptions } from './types';
import { unansweredError } from './wire';

interface Watched {
  /** What the last look found: a consumer, none, or not looked yet. */
  present: boolean | undefined;
  /** The look under way, shared by everyone who asks meanwhile. */
  looking?: Promise<boolean>;
  /**
   * Requests in flight to this service, each failed when it is found gone, with the tick it was sent at: only a look
   * begun after a request was sent can say its service went while it was in flight (one begun before may have counted
   * in the moment before a restarted instance attached, and answered after the request reached that instance).
   */
  waiting: Map<() => void, number>;
}

export interface ServicePresenceOptions {
  /** How often each service's request queue is looked at (its consumer count). */
  intervalMs: number;
  logger: Logger;
}

/**
 * Which services behind the gateway have a live consumer, looked at on their request queues every `intervalMs` (the
 * bus's consumer count, on RabbitMQ and on the in-process bus alike). A request for a service found without one is
 * refused at once instead of waiting out the bus timeout in a queue nobody reads, and a request already in flight to
 * it is failed when its service is found gone.
 */
export class ServicePresence {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Orders sends and the start of looks. */
  private tick = 0;

  constructor(
    private readonly bus: Bus,
    private readonly options: ServicePresenceOptions,
  ) {}

  /** Looks at `services` now and then every interval (others are added as requests name them). */
  start(services: readonly string[] = []): void {
    for (const service of services) this.watch(service);
    this.timer = setInterval(() => void this.lookAtAll(), this.options.intervalMs);
    // Never what keeps a process alive.
    this.timer.unref();
    void this.lookAtAll();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /**
   * Whether a request for `service` may be sent: yes when the last look found a consumer; otherwise what a fresh look
   * finds (so a service that just came back is served at once, and the first request to a service not looked at yet
   * is not sent into a queue nobody reads, where it could wait to be done when its service returns).
   */
  mayServe(service: string): boolean | Promise<boolean> {
    const watched = this.watch(service);
    return watched.present === true ? true : this.look(service, watched);
  }

  /** Whether `service` has a consumer now (a fresh look: readiness). */
  async isPresent(service: string): Promise<boolean> {
    return this.look(service, this.watch(service));
  }

  /**
   * `call`, or `gone()`'s error as soon as a look finds its service without a consumer while it is in flight. `call`
   * may take a `held` callback to pass on as the request's `onHeld`: a request held by an instance that stops
   * gracefully is then not failed (its instance answers it, though no consumer is left).
   */
  unlessGone<T>(service: string, call: Promise<T> | ((held: () => void) => Promise<T>), gone: () => Error): Promise<T> {
    const { waiting } = this.watch(service);
    return new Promise<T>((resolve, reject) => {
      const fail = () => reject(gone());
      waiting.set(fail, ++this.tick);
      const held = () => void waiting.delete(fail);
      (typeof call === 'function' ? call(held) : call).then(
        (value) => {
          waiting.delete(fail);
          resolve(value);
        },
        (err: unknown) => {
          waiting.delete(fail);
          reject(err);
        },
      );
    });
  }

  private watch(service: string): Watched {
    let watched = this.watched.get(service);
    if (!watched) {
      watched = { present: undefined, waiting: new Map() };
      this.watched.set(service, watched);
    }
    return watched;
  }

  private async lookAtAll(): Promise<void> {
    if (this.stopped) return;
    await Promise.all([...this.watched].map(([service, watched]) => this.look(service, watched)));
  }

  private look(service: string, watched: Watched): Promise<boolean> {
    const begun = ++this.tick;
    watched.looking ??= this.count(service)
      .then((consumers) => {
        // The bus itself being down is the bus's to answer (503 not connected), not a service's absence.
        if (consumers === undefined) return watched.present !== false;
        this.record(service, watched, consumers > 0, begun);
        return consumers > 0;
      })
      .finally(() => {
        watched.looking = undefined;
      });
    return watched.looking;
  }

  /** The consumer count, or undefined when the bus cannot say (disconnected, or the look failed). */
  private async count(service: string): Promise<number | undefined> {
    try {
      if (!(await this.bus.isReady())) return undefined;
      return await this.bus.consumerCount(service);
    } catch {
      return undefined;
    }
  }

  private record(service: string, watched: Watched, present: boolean, begun: number): void {
    if (watched.present !== present && watched.present !== undefined) {
      if (present) this.options.logger.info({ service }, 'service has a consumer again: requests to it are sent');
      else this.options.logger.warn({ service }, 'service has no consumer: requests to it answer 503 until one is back');
    }
    watched.present = present;
    if (present) return;
    const sentBefore = [...watched.waiting].filter(([, sent]) => sent < begun).map(([fail]) => fail);
    for (const fail of sentBefore) {
      watched.waiting.delete(fail);
      fail();
    }
  }
}

/** When a client may try a service again that has no instance now (the supervisor's or orchestrator's restart). */
export const ABSENT_SERVICE_RETRY_AFTER_SECONDS = 2;

/**
 * The bus as a process sends requests to other services with it: a request for a service with no running instance is
 * a 503 at once (nothing was sent), and one in flight when its service goes fails then, rather than at the bus timeout.
 * `advise` may reword a failure for the caller (the gateway tells a client how to learn an unanswered write's outcome); it
 * is given the service the request went to (a partition queue's service: `timing` for `timing.p3`).
 * Everything else is the bus's own. The gateway wraps its bus so for the clients' requests, and every service that
 * asks another (the timing, datafile and simulation services ask the entity-service) for its own requests: the client
 * of a route that passes through two services gets the same fast 503 as one the gateway sends straight on.
 */
export function failFastBus(bus: Bus, presence: ServicePresence | undefined, advise: (err: unknown, options: RequestOptions | undefined, service: string) => unknown = (err) => err): Bus {
  const send = <T>(service: string, call: (options: RequestOptions | undefined) => Promise<T>, options: RequestOptions | undefined): Promise<T> => {
    const advised = (p: Promise<T>) => p.catch((err: unknown) => Promise.reject(advise(err, options, serviceName(service))));
    if (!presence) return advised(call(options));
    // A request held by an instance that stops gracefully is answered by it: no longer failed when the service is found gone.
    const withHeld = (held: () => void): RequestOptions => ({
      ...options,
      onHeld: () => {
        held();
        options?.onHeld?.();
      },
    });
    const sent = () => advised(presence.unlessGone(service, (held) => call(withHeld(held)), () => advise(goneInFlight(service, options), options, serviceName(service)) as Error));
    const may = presence.mayServe(service);
    if (may === true) return sent();
    return Promise.resolve(may).then((served) => (served ? sent() : Promise.reject(absent(service))));
  };
  return {
    request: (service, type, payload, options) => send(service, (sent) => bus.request(service, type, payload, sent), options),
    requestEncoded: (service, type, payload, options) => send(service, (sent) => bus.requestEncoded(service, type, payload, sent), options),
    serve: (service, handler, options) => bus.serve(service, handler, options),
    publish: (exchange, routingKey, payload, headers) => bus.publish(exchange, routingKey, payload, headers),
    subscribe: (exchange, queue, bindingKeys, handler, options) => bus.subscribe(exchange, queue, bindingKeys, handler, options),
    isReady: () => bus.isReady(),
    consumerCount: (service) => bus.consumerCount(service),
    queuedMessages: (queue) => bus.queuedMessages(queue),
    close: () => bus.close(),
  };
}

/** A service as a client knows it: a partition queue (`timing.p3`) is its service's (`timing`). */
const serviceName = (queue: string): string => queue.replace(/\.p\d+$/, '');

/** Nothing was sent: always safe to retry, once an instance is back. */
function absent(service: string): AppError {
  return new AppError(503, `The ${serviceName(service)} service has no running instance: the request was not sent and nothing was done; retry shortly`, { retryAfterSeconds: ABSENT_SERVICE_RETRY_AFTER_SECONDS });
}

/** Sent, and its service gone before it answered: a query is a 503 (it did nothing), a write's outcome is unknown. */
function goneInFlight(service: string, options: RequestOptions | undefined): AppError {
  const fallback = new AppError(503, `The ${serviceName(service)} service lost its last running instance before it answered; retry shortly`, { retryAfterSeconds: ABSENT_SERVICE_RETRY_AFTER_SECONDS });
  return unansweredError(options?.headers, fallback);
}
