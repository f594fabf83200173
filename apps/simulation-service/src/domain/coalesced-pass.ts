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
