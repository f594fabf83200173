/** `closed`: calls go through; `open`: they fail at once; `probing`: one probe is asking whether the dependency is back. */
export type BreakerState = 'closed' | 'open' | 'probing';

export interface CircuitBreakerOptions {
  /** Failures in a row that open the circuit. */
  failureThreshold: number;
  /** While open, how long between two probes. */
  probeIntervalMs: number;
  /** Asks the dependency whether it is back (and readies it for use): resolves when it is, rejects when not. */
  probe: () => Promise<void>;
  /** Told of every change of state. */
  onChange?: (state: BreakerState, cause?: unknown) => void;
}

/** A call refused because the circuit is open: the dependency was failing and has not been seen back yet. */
export class CircuitOpenError extends Error {
  constructor(what: string) {
    super(`${what} is unavailable (circuit open)`);
    this.name = 'CircuitOpenError';
  }
}

/**
 * A circuit breaker whose probes run by themselves: once open it probes the dependency every `probeIntervalMs`
 * (or at once when told it may be back), without waiting for a caller to risk a call, and only a successful probe
 * closes it. Calls that were already sent when it opened do not close it, whatever they answer.
 */
export class CircuitBreaker {
  private current: BreakerState = 'closed';
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Bumped by every opening: a probe that began before the last one does not close the circuit. */
  private openings = 0;

  constructor(
    private readonly what: string,
    private readonly options: CircuitBreakerOptions,
  ) {}

  get state(): BreakerState {
    return this.current;
  }

  /** Runs `call` while closed; refuses it at once otherwise. A rejection that `counts` is a failure of the dependency. */
  async run<T>(call: () => Promise<T>, counts: (err: unknown) => boolean = () => true): Promise<T> {
    if (this.current !== 'closed') throw new CircuitOpenError(this.what);
    try {
      const value = await call();
      if (this.current === 'closed') this.failures = 0;
      return value;
    } catch (err) {
      if (counts(err)) this.failure(err);
      throw err;
    }
  }

  /** Opens at once (a lost connection says more than a count of failures). */
  trip(cause?: unknown): void {
    if (this.stopped || this.current === 'open') return;
    // A probe in flight finds the state changed and does not close the circuit.
    this.open(cause);
  }

  /** The dependency may be back (it reconnected): probe now rather than at the next interval. */
  probeSoon(): void {
    if (this.current !== 'open' || this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.probe(), 0);
    this.timer.unref();
  }

  /** Stops probing (the owner is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private failure(cause: unknown): void {
    if (this.current !== 'closed') return;
    if (++this.failures >= this.options.failureThreshold) this.open(cause);
  }

  private open(cause?: unknown): void {
    this.current = 'open';
    this.openings++;
    this.failures = 0;
    this.options.onChange?.('open', cause);
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.probe(), this.options.probeIntervalMs);
    this.timer.unref();
  }

  private async probe(): Promise<void> {
    if (this.current !== 'open' || this.stopped) return;
    this.current = 'probing';
    const opening = this.openings;
    this.options.onChange?.('probing');
    try {
      await this.options.probe();
      // Tripped again while probing: the answer is already stale.
      if (this.current !== 'probing' || opening !== this.openings) return;
      this.current = 'closed';
      this.failures = 0;
      this.options.onChange?.('closed');
    } catch (err) {
      if (this.current !== 'probing' || opening !== this.openings) return;
      this.current = 'open';
      this.options.onChange?.('open', err);
      this.schedule();
    }
  }
}
