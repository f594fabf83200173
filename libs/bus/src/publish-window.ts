/**
 * At most `size` events published and not yet confirmed on one confirm channel; the others wait their turn here, in
 * the order they came. Without it a write with 10,000 events puts them all on the connection's socket at once: the
 * replies to other requests queue behind them on the same socket (a committed write answered after its deadline), and
 * amqplib's bookkeeping of unconfirmed messages (`Array#shift` over all of them) grows with their square.
 */
export class PublishWindow {
  private inFlight = 0;
  /** Waiting publishers, oldest at `head`: a queue of hundreds of thousands must not pay `shift` per release. */
  private waiting: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private head = 0;

  constructor(readonly size: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new Error(`publish window must be a positive integer (got ${size})`);
  }

  /** How many wait for a place. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** Resolves once this publisher may send; in call order. */
  acquire(): Promise<void> {
    if (this.inFlight < this.size && this.queued === 0) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** A sent message was confirmed, refused or given up on: its place goes to the next waiting one. */
  release(): void {
    const next = this.take();
    if (next) next.resolve();
    else this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** Every waiting publisher is refused (the broker stopped confirming, or the connection went). */
  failWaiting(err: Error): void {
    for (let next = this.take(); next; next = this.take()) next.reject(err);
  }

  private take(): { resolve: () => void; reject: (err: Error) => void } | undefined {
    if (this.head >= this.waiting.length) return undefined;
    const next = this.waiting[this.head];
    this.waiting[this.head++] = undefined as never;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return next;
  }
}
