import type { Bus } from '@pitwall/bus';
import type { Logger } from '@pitwall/service-kit';

interface Watched {
  /** What the last look found: a consumer, none, or not looked yet. */
  present: boolean | undefined;
  /** The look under way, shared by everyone who asks meanwhile. */
  looking?: Promise<boolean>;
  /** Requests in flight to this service, each failed when it is found gone. */
  waiting: Set<() => void>;
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
   * Whether a request for `service` may be sent: yes unless the last look found no consumer and a fresh look agrees
   * (so a service that just came back is served at once, and one never looked at yet is not refused).
   */
  mayServe(service: string): boolean | Promise<boolean> {
    const watched = this.watch(service);
    return watched.present === false ? this.look(service, watched) : true;
  }

  /** Whether `service` has a consumer now (a fresh look: readiness). */
  async isPresent(service: string): Promise<boolean> {
    return this.look(service, this.watch(service));
  }

  /** `call`, or `gone()`'s error as soon as a look finds its service without a consumer while it is in flight. */
  unlessGone<T>(service: string, call: Promise<T>, gone: () => Error): Promise<T> {
    const { waiting } = this.watch(service);
    return new Promise<T>((resolve, reject) => {
      const fail = () => reject(gone());
      waiting.add(fail);
      call.then(
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
      watched = { present: undefined, waiting: new Set() };
      this.watched.set(service, watched);
    }
    return watched;
  }

  private async lookAtAll(): Promise<void> {
    if (this.stopped) return;
    await Promise.all([...this.watched].map(([service, watched]) => this.look(service, watched)));
  }

  private look(service: string, watched: Watched): Promise<boolean> {
    watched.looking ??= this.count(service)
      .then((consumers) => {
        // The bus itself being down is the bus's to answer (503 not connected), not a service's absence.
        if (consumers === undefined) return watched.present !== false;
        this.record(service, watched, consumers > 0);
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

  private record(service: string, watched: Watched, present: boolean): void {
    if (watched.present !== present && watched.present !== undefined) {
      if (present) this.options.logger.info({ service }, 'service has a consumer again: requests to it are sent');
      else this.options.logger.warn({ service }, 'service has no consumer: requests to it answer 503 until one is back');
    }
    watched.present = present;
    if (present) return;
    const waiting = [...watched.waiting];
    watched.waiting.clear();
    for (const fail of waiting) fail();
  }
}
