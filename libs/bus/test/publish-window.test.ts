import { PublishWindow } from '../src/publish-window';

describe('PublishWindow', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  test('when more publishers come than the window holds, then only the window size go at once and the rest go in call order', async () => {
    const window = new PublishWindow(3);
    const started: number[] = [];
    const all = Array.from({ length: 10 }, (_, i) => window.acquire().then(() => started.push(i)));
    await settle();
    expect(started).toEqual([0, 1, 2]);
    expect(window.queued).toBe(7);

    window.release();
    window.release();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);

    for (let i = 0; i < 8; i++) window.release();
    await Promise.all(all);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(window.queued).toBe(0);
  });

  test('when the waiting ones are failed, then each rejects with the reason and the ones in flight keep their places', async () => {
    const window = new PublishWindow(2);
    await window.acquire();
    await window.acquire();
    const waiting = [window.acquire(), window.acquire()].map((p) => p.then(() => 'sent', (err: Error) => err.message));
    window.failWaiting(new Error('no confirm within 10 ms'));
    expect(await Promise.all(waiting)).toEqual(['no confirm within 10 ms', 'no confirm within 10 ms']);

    // Two still in flight: a third waits until one of them is released.
    let third = false;
    const next = window.acquire().then(() => (third = true));
    await settle();
    expect(third).toBe(false);
    window.release();
    await next;
    expect(third).toBe(true);
  });

  test('when a hundred thousand wait, then they are all served in order', async () => {
    const window = new PublishWindow(16);
    let last = -1;
    let outOfOrder = 0;
    const all = Array.from({ length: 100_000 }, (_, i) =>
      window.acquire().then(() => {
        if (i !== last + 1) outOfOrder++;
        last = i;
        window.release();
      }),
    );
    await Promise.all(all);
    expect({ last, outOfOrder, queued: window.queued }).toEqual({ last: 99_999, outOfOrder: 0, queued: 0 });
  });

  test('when the size is not a positive integer, then it is refused', () => {
    expect(() => new PublishWindow(0)).toThrow(/positive integer/);
  });
});
