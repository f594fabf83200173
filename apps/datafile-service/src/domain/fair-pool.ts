import type { Piscina } from 'piscina';

/** What a read needs of the worker pool: a task run on one of its threads. */
export type TaskPool = Pick<Piscina, 'run'>;

type RunOptions = Parameters<Piscina['run']>[1];

interface Waiting {
  user: string;
  task: unknown;
  options: RunOptions;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
  /** Removes the abort listener once the task leaves the queue. */
  settled(): void;
}

/**
 * The pool's threads shared among users. Piscina serves its queue in order, so one user's burst of heavy reads (a
 * script reading every channel of every lap, four at a time) took every thread, and another user's read waited behind
 * all of it, up to DATAFILE_READ_TIMEOUT_MS. Here at most as many tasks as the pool has threads are handed to Piscina
 * at once; the others wait in this queue, and a thread that frees goes to the waiting task whose user runs the fewest
 * tasks (of those, the user served longest ago; then the oldest task). A user alone keeps every thread; a second
 * user's read takes the next one that frees, even with one thread. Tasks are never taken from a thread (a task runs to its end, or a stalled stream gives its thread up:
 * `StalledStreams`, which counts this queue as waiting work).
 */
export class FairPool {
  private readonly waiting: Waiting[] = [];
  private readonly running = new Map<string, number>();
  /** When each user with work here last got a thread (a tick of `clock`): between users running as many, the one served longest ago goes first. */
  private readonly served = new Map<string, number>();
  private clock = 0;
  private inFlight = 0;

  constructor(
    private readonly pool: Pick<Piscina, 'run' | 'queueSize'>,
    private readonly threads: number,
  ) {
    if (!(Number.isSafeInteger(threads) && threads >= 1)) throw new RangeError(`FairPool: threads must be a positive integer (got ${threads})`);
  }

  /** The pool as one user's reads see it (`user`: the caller's user id; '' for work on behalf of no one in particular). */
  forUser(user: string): TaskPool {
    return { run: (task, options) => this.run(user, task, options) } as TaskPool;
  }

  /** Tasks waiting for a thread: in this queue, and in Piscina's own (work handed to it directly). */
  get queueSize(): number {
    return this.waiting.length + this.pool.queueSize;
  }

  private run(user: string, task: unknown, options: RunOptions): Promise<unknown> {
    const signal = options?.signal as AbortSignal | null | undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(entry);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      const entry: Waiting = { user, task, options, resolve, reject, settled: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.dispatch();
    });
  }

  /** Whether `a`'s waiting task goes before `b`'s: fewer tasks running, else served longer ago (the queue's order breaks a tie). */
  private before(a: string, b: string): boolean {
    const [ra, rb] = [this.running.get(a) ?? 0, this.running.get(b) ?? 0];
    if (ra !== rb) return ra < rb;
    return (this.served.get(a) ?? 0) < (this.served.get(b) ?? 0);
  }

  private dispatch(): void {
    while (this.inFlight < this.threads && this.waiting.length > 0) {
      let next = 0;
      for (let i = 1; i < this.waiting.length; i++) if (this.before((this.waiting[i] as Waiting).user, (this.waiting[next] as Waiting).user)) next = i;
      const [entry] = this.waiting.splice(next, 1) as [Waiting];
      entry.settled();
      this.inFlight++;
      this.running.set(entry.user, (this.running.get(entry.user) ?? 0) + 1);
      this.served.set(entry.user, ++this.clock);
      let started: Promise<unknown>;
      try {
        started = this.pool.run(entry.task, entry.options);
      } catch (err) {
        started = Promise.reject(err);
      }
      started.then(entry.resolve, entry.reject).finally(() => {
        this.inFlight--;
        const left = (this.running.get(entry.user) ?? 1) - 1;
        if (left > 0) this.running.set(entry.user, left);
        else {
          this.running.delete(entry.user);
          if (!this.waiting.some((w) => w.user === entry.user)) this.served.delete(entry.user);
        }
        this.dispatch();
      });
    }
  }
}
