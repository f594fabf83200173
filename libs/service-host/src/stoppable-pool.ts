import { Piscina } from 'piscina';

/**
 * A Piscina pool whose stop is final. After `destroy()` resolves, Piscina no longer knows it was destroyed: a task
 * submitted later (a read that was waiting on the bus or the blob store while its service stopped) starts a new
 * worker thread, which keeps the process alive or, once the worker's file is gone, throws in the main thread. Here a
 * task submitted once `destroy()` was called is refused.
 */
export class StoppablePool extends Piscina {
  private stopped = false;

  override run(task: unknown, options?: Parameters<Piscina['run']>[1]): ReturnType<Piscina['run']> {
    if (this.stopped) return Promise.reject(new Error('the worker pool is stopped: its service is stopping'));
    return super.run(task, options);
  }

  override destroy(): Promise<void> {
    this.stopped = true;
    return super.destroy();
  }
}
