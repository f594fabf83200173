import { KeyedQueue } from '../../src/car-queue';

/** A task that finishes when `release` is called, recording when it started and finished. */
function gate(log: string[], name: string) {
  let release: () => void = () => undefined;
  const done = new Promise<void>((r) => (release = r));
  return {
    task: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    release: () => release(),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('KeyedQueue', () => {
  test('when tasks of one key are queued, then each starts only after the previous one ended, in the order queued', async () => {
    const log: string[] = [];
    const queue = new KeyedQueue();
    const [a, b, c] = [gate(log, 'a'), gate(log, 'b'), gate(log, 'c')];
    const results = [queue.run('car-1', a.task), queue.run('car-1', b.task), queue.run('car-1', c.task)];
    await tick();
    expect(log).toEqual(['start a']);
    c.release();
    b.release();
    a.release();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  test('when tasks of two keys are queued, then the second key does not wait for the first', async () => {
    const log: string[] = [];
    const queue = new KeyedQueue();
    const [a, b] = [gate(log, 'a'), gate(log, 'b')];
    const first = queue.run('car-1', a.task);
    const second = queue.run('car-2', b.task);
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    b.release();
    await second;
    expect(log).toEqual(['start a', 'start b', 'end b']);
    a.release();
    await first;
  });

  test('when a task fails, then its caller sees the failure and the next task of the key still runs', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('car-1', async () => {
      throw new Error('refused');
    });
    const next = queue.run('car-1', async () => 'applied');
    await expect(failed).rejects.toThrow('refused');
    expect(await next).toBe('applied');
  });

  test('when every task of a key has ended, then the key holds no memory', async () => {
    const queue = new KeyedQueue();
    await Promise.all([queue.run('car-1', async () => 1), queue.run('car-2', async () => 2)]);
    await tick();
    expect(queue.size).toBe(0);
  });
});
