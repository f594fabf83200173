import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoppablePool } from '../../src/stoppable-pool';

const hang = join(__dirname, '..', 'fixtures', 'hang.worker.js');
const double = join(__dirname, '..', 'fixtures', 'double.worker.js');
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the worker pool of a service: a task past its worker\'s heap bound', () => {
  test('when a task runs its worker out of its heap, then the task fails with the pool\'s own answer, the process goes on, and the next task is served', async () => {
    const hog = join(__dirname, '..', 'fixtures', 'hog.worker.js');
    const answer = new Error('this read needs more memory than a worker may use (TEST_HEAP_MB)');
    const pool = new StoppablePool({ filename: hog, minThreads: 1, maxThreads: 1, resourceLimits: { maxOldGenerationSizeMb: 32 } }, undefined, () => answer);
    try {
      await expect(pool.run('hog')).rejects.toBe(answer);
      expect(await pool.run(21)).toBe(42);
    } finally {
      await pool.destroy();
    }
  }, 30_000);
});

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

  test("when the replacement of an aborted task's worker cannot start (its file is gone), then the failure is logged and the process goes on, at debug level once the pool is stopped", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pitwall-pool-'));
    const entry = join(dir, 'hang.worker.js');
    copyFileSync(hang, entry);
    const logged: { level: string; message: string }[] = [];
    const logger = { error: (o: { err: string }) => logged.push({ level: 'error', message: o.err }), debug: (o: { err: string }) => logged.push({ level: 'debug', message: o.err }) };
    // Piscina alone emits 'error' with no listener: thrown in the main thread, it ends the process (here, jest's worker).
    const pool = new StoppablePool({ filename: entry, minThreads: 1, maxThreads: 1 }, logger as never);
    try {
      const deadline = new AbortController();
      const task = pool.run(1, { signal: deadline.signal });
      for (let i = 0; i < 40 && pool.threads.length === 0; i++) await settle();
      await settle();
      rmSync(dir, { recursive: true, force: true });
      deadline.abort(new Error('read timeout'));
      await expect(task).rejects.toThrow();
      for (let i = 0; i < 40 && logged.length === 0; i++) await settle();
      expect(logged[0]).toEqual({ level: 'error', message: expect.stringContaining('hang.worker.js') });
      // Once stopped, the same failure (a late replacement) is only a debug line.
      await pool.destroy();
      pool.emit('error', new Error('a late replacement failed'));
      expect(logged.at(-1)).toEqual({ level: 'debug', message: 'a late replacement failed' });
    } finally {
      await pool.destroy();
    }
  });
});
