import { FairPool } from '../../src/domain/fair-pool';

/** A pool stand-in: records each task it is handed and finishes it when the test says. */
function fakePool() {
  const started: { task: string; finish: (value: string) => void; fail: (err: Error) => void }[] = [];
  const pool = {
    queueSize: 0,
    run: (task: unknown) =>
      new Promise<string>((resolve, reject) => {
        started.push({ task: task as string, finish: resolve, fail: reject });
      }),
  };
  return { pool: pool as unknown as ConstructorParameters<typeof FairPool>[0], started, names: () => started.map((s) => s.task) };
}
const tick = () => new Promise((r) => setImmediate(r));

describe("the datafile-service pool's threads shared among users (FairPool)", () => {
  test("when one user's burst holds every thread and another user reads, then the next thread that frees goes to the other user, before the rest of the burst", async () => {
    const { pool, started, names } = fakePool();
    const fair = new FairPool(pool, 2);
    const alice = fair.forUser('alice');
    const bob = fair.forUser('bob');
    const answers: string[] = [];
    const failures: string[] = [];
    const settle = (p: Promise<unknown>) => void p.then((v) => answers.push(v as string), (err: Error) => failures.push(err.message));
    for (const n of [1, 2, 3, 4]) settle(alice.run(`alice ${n}`));
    await tick();
    expect(names()).toEqual(['alice 1', 'alice 2']);
    expect(fair.queueSize).toBe(2);

    settle(bob.run('bob 1'));
    await tick();
    expect(fair.queueSize).toBe(3);
    started[0]?.finish('done alice 1');
    await tick();
    expect(names()).toEqual(['alice 1', 'alice 2', 'bob 1']);

    // Alice now runs none, Bob one: her next task goes.
    started[1]?.finish('done alice 2');
    await tick();
    expect(names()).toEqual(['alice 1', 'alice 2', 'bob 1', 'alice 3']);
    started[2]?.finish('done bob 1');
    started[3]?.fail(new Error('alice 3 failed'));
    await tick();
    await tick();
    expect(names()).toEqual(['alice 1', 'alice 2', 'bob 1', 'alice 3', 'alice 4']);
    expect(answers).toEqual(['done alice 1', 'done alice 2', 'done bob 1']);
    // A task's failure is its reader's: the thread goes on to the next.
    expect(failures).toEqual(['alice 3 failed']);
    expect(fair.queueSize).toBe(0);
  });

  test("when the pool has one thread, then users take turns: another user's read runs before the rest of a burst", async () => {
    const { pool, started, names } = fakePool();
    const fair = new FairPool(pool, 1);
    for (const n of [1, 2, 3]) void fair.forUser('alice').run(`alice ${n}`);
    await tick();
    void fair.forUser('bob').run('bob 1');
    void fair.forUser('carol').run('carol 1');
    for (let i = 0; i < 4; i++) {
      started[i]?.finish('done');
      await tick();
    }
    expect(names()).toEqual(['alice 1', 'bob 1', 'carol 1', 'alice 2', 'alice 3']);
  });

  test('when a user is alone, then it keeps every thread', async () => {
    const { pool, names } = fakePool();
    const fair = new FairPool(pool, 3);
    for (const n of [1, 2, 3, 4]) void fair.forUser('alice').run(`alice ${n}`);
    await tick();
    expect(names()).toEqual(['alice 1', 'alice 2', 'alice 3']);
  });

  test('when a waiting read is aborted (its timeout, its client gone), then it leaves the queue rejected with the reason and never runs', async () => {
    const { pool, started, names } = fakePool();
    const fair = new FairPool(pool, 1);
    void fair.forUser('alice').run('alice 1');
    const abort = new AbortController();
    const waiting = fair.forUser('bob').run('bob 1', { signal: abort.signal });
    await tick();
    abort.abort(new Error('The read did not finish in time'));
    await expect(waiting).rejects.toThrow('The read did not finish in time');
    expect(fair.queueSize).toBe(0);
    started[0]?.finish('done');
    await tick();
    expect(names()).toEqual(['alice 1']);
    await expect(fair.forUser('bob').run('bob 2', { signal: abort.signal })).rejects.toThrow('The read did not finish in time');
  });
});
