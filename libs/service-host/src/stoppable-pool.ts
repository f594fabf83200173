import { Piscina } from 'piscina';
import type { Logger } from '@pitwall/service-kit';

type PoolOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

/** What a task whose worker ran out of its heap (`resourceLimits`) is answered instead of the worker's bare error. */
export type OutOfMemoryAnswer = () => Error;

/**
 * A Piscina pool whose stop is final, and whose failures never take the process down.
 *
 * - After `destroy()` resolves, Piscina no longer knows it was destroyed: a task submitted later (a read that was
 *   waiting on the bus or the blob store while its service stopped) starts a new worker thread, which keeps the process
 *   alive or, once the worker's file is gone, throws in the main thread. Here a task submitted once `destroy()` was
 *   called is refused.
 * - Piscina emits `error` for a worker that fails while it holds no task (it crashed idle, or a replacement for a
 *   terminated worker could not start), and an `error` event nobody listens to is thrown in the main thread. Here it is
 *   logged (at error level while the pool serves; at debug level once it is stopped, when a late replacement of an
 *   aborted task's worker may find its file gone) and the pool goes on.
 */
export class StoppablePool extends Piscina {
  private stopped = false;

  /**
   * `outOfMemory`: with `resourceLimits` set, a task whose worker passes them fails with this (a 4xx naming the setting,
   * say) rather than ERR_WORKER_OUT_OF_MEMORY; the worker alone is ended (not the process) and replaced.
   */
  constructor(
    options: PoolOptions,
    logger?: Logger,
    private readonly outOfMemory?: OutOfMemoryAnswer,
  ) {
    super(options);
    this.on('error', (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      if (this.stopped) logger?.debug({ err: message }, 'a worker of the stopped pool failed');
      else logger?.error({ err: message }, 'a worker of the pool failed while it held no task; the pool goes on');
    });
  }

  override run(task: unknown, options?: Parameters<Piscina['run']>[1]): ReturnType<Piscina['run']> {
    if (this.stopped) return Promise.reject(new Error('the worker pool is stopped: its service is stopping'));
    const running = super.run(task, options);
    const outOfMemory = this.outOfMemory;
    if (!outOfMemory) return running;
    return running.catch((err: unknown) => {
      throw (err as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY' ? outOfMemory() : err;
    });
  }

  override destroy(): Promise<void> {
    this.stopped = true;
    return super.destroy();
  }
}
