/**
 * A pass over the database that runs one at a time: `wake()` starts it, or, while one runs, has it run once more when
 * that ends (any number of wakes meanwhile make that one). A failed pass goes to `failed` and waits for the next wake.
 * While `enabled()` says no, a wake starts nothing (a stopped service): `idle()` then waits for the pass running.
 */
export class CoalescedPass {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly failed: (err: unknown) => void,
    private readonly enabled: () => boolean,
  ) {}

  wake(): void {
    if (!this.enabled()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch(this.failed)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves when the pass running now, if any, has ended. */
  async idle(): Promise<void> {
    await this.running;
  }
}

/**
 * A CoalescedPass run at `start()` and then every `intervalMs` (the timer never holds the process) until `stop()`, which
 * waits for the pass running; `halted` tells that pass to end at its next page.
 */
export class PeriodicPass {
  private timer: NodeJS.Timeout | undefined;
  /** Started and not stopped: the timer's passes run. */
  private started = false;
  /** A stop came: a pass running ends after its current page. */
  halted = false;
  private readonly pass: CoalescedPass;

  constructor(
    run: () => Promise<void>,
    failed: (err: unknown) => void,
    private readonly intervalMs: number,
  ) {
    this.pass = new CoalescedPass(run, failed, () => this.started);
  }

  start(): void {
    this.started = true;
    this.halted = false;
    this.timer = setInterval(() => this.pass.wake(), this.intervalMs);
    this.timer.unref();
    this.pass.wake();
  }

  /** Runs the pass now, or once more after the one running. */
  wake(): void {
    this.pass.wake();
  }

  async stop(): Promise<void> {
    this.started = false;
    this.halted = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.pass.idle();
  }
}
