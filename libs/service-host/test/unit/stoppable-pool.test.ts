import { join } from 'node:path';
import { StoppablePool } from '../../src/stoppable-pool';

const hang = join(__dirname, '..', 'fixtures', 'hang.worker.js');
const double = join(__dirname, '..', 'fixtures', 'double.worker.js');
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the worker pool of a service: its stop is final', () => {
  test('when a task is aborted by its caller while the pool runs, then it fails with the abort and the pool goes on serving', async () => {
    const pool = new StoppablePool({ filename: hang, minThreads: 1, maxThreads: 1 });
    try {
      const deadline = new AbortController();
      const task = pool.run(1, { signal: deadline.signal });
      deadline.abort(new Error('read timeout'));
      await expect(task).rejects.toThrow();
      const doubled = await pool.run(21, { filename: double });
      expect(doubled).toBe(42);
    } finally {
      await pool.destroy();
    }
  });

  test('when a task is submitted after the pool was destroyed, then it is refused and no thread starts', async () => {
    const pool = new StoppablePool({ filename: double, minThreads: 0, maxThreads: 1 });
    await pool.destroy();
    await expect(pool.run(1)).rejects.toThrow('the worker pool is stopped');
    await settle();
    // Piscina on its own starts a thread for it, which nothing will ever stop (a late read after its service stopped).
    expect(pool.threads.length).toBe(0);
  });
});
