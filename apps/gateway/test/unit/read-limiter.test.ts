import { CacheUnavailableError, MemoryCache, type Cache } from '@pitwall/cache';
import { admittedKey, READ_LEASE_MS, ReadLimitError, ReadLimiter, runningKey } from '../../src/domain/read-limiter';

/** A shared cache (as Redis is) that the test makes unreachable: every call then fails as RedisCache's do. */
class SwitchableCache implements Cache {
  readonly shared = true;
  reachable = true;
  private readonly memory = new MemoryCache();
  private async when<T>(call: () => Promise<T>): Promise<T> {
    if (!this.reachable) throw new CacheUnavailableError('redis cache unavailable (circuit open)');
    return call();
  }
  get = (key: string) => this.when(() => this.memory.get(key));
  getMany = (keys: readonly string[]) => this.when(() => this.memory.getMany(keys));
  set = (key: string, value: string, ttl?: number) => this.when(() => this.memory.set(key, value, ttl));
  del = (...keys: string[]) => this.when(() => this.memory.del(...keys));
  incr = (key: string, ttl: number) => this.when(() => this.memory.incr(key, ttl));
  takePlaces = (steps: readonly { key: string; limit: number }[], holder: string, leaseMs: number) => this.when(() => this.memory.takePlaces(steps, holder, leaseMs));
  renewPlaces = (keys: readonly string[], holder: string, leaseMs: number) => this.when(() => this.memory.renewPlaces(keys, holder, leaseMs));
  releasePlaces = (keys: readonly string[], holder: string) => this.when(() => this.memory.releasePlaces(keys, holder));
  countPlaces = (key: string) => this.when(() => this.memory.countPlaces(key));
  isReady = async () => this.reachable;
  close = () => this.memory.close();
}

describe('ReadLimiter when its shared cache is unavailable', () => {
  let cache: SwitchableCache;
  let limiter: ReadLimiter;
  beforeEach(() => {
    cache = new SwitchableCache();
    limiter = new ReadLimiter(cache, { perUser: 1, queue: 1 });
  });
  afterEach(async () => {
    await limiter.close();
    await cache.close();
  });

  test('when the cache is unreachable, then reads are counted in the process with the same limits: one runs, one waits, one more is a 429', async () => {
    cache.reachable = false;
    const first = await limiter.acquire('u1');
    const second = limiter.acquire('u1');
    await expect(limiter.acquire('u1')).rejects.toBeInstanceOf(ReadLimitError);
    await first();
    const release = await second;
    await release();
    // Another user has limits of their own.
    await (await limiter.acquire('u2'))();
  });

  test('when the cache is lost while a read waits for its slot, then that read is admitted in the process instead of failing', async () => {
    const running = await limiter.acquire('u1');
    const waiting = limiter.acquire('u1');
    await new Promise((r) => setTimeout(r, 50));
    cache.reachable = false;
    const release = await waiting;
    // The slot taken in the lost cache cannot be given back there: its release does not throw.
    await expect(running()).resolves.toBeUndefined();
    await expect(release()).resolves.toBeUndefined();
  });

  test('when the cache answers, then it alone counts: its places hold the reads', async () => {
    const release = await limiter.acquire('u1');
    expect(await cache.countPlaces(runningKey('u1'))).toBe(1);
    expect(await cache.countPlaces(admittedKey('u1'))).toBe(1);
    await release();
    expect(await cache.countPlaces(runningKey('u1'))).toBe(0);
    expect(await cache.countPlaces(admittedKey('u1'))).toBe(0);
  });

  test('when a replica died holding a user\'s places (it renews them no more), then they are free within READ_LEASE_MS, not 300 s', async () => {
    // What a gateway killed -9 leaves: a read running and one queued, never given back nor renewed.
    expect(await cache.takePlaces([{ key: admittedKey('u1'), limit: 2 }, { key: runningKey('u1'), limit: 1 }], 'dead-replica-read-1', READ_LEASE_MS)).toBe(2);
    expect(await cache.takePlaces([{ key: admittedKey('u1'), limit: 2 }], 'dead-replica-read-2', READ_LEASE_MS)).toBe(1);
    await expect(limiter.acquire('u1')).rejects.toBeInstanceOf(ReadLimitError);
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      jest.setSystemTime(Date.now() + READ_LEASE_MS - 1000);
      await expect(limiter.acquire('u1')).rejects.toBeInstanceOf(ReadLimitError);
      jest.setSystemTime(Date.now() + 1001);
      const release = await limiter.acquire('u1');
      expect(await cache.countPlaces(runningKey('u1'))).toBe(1);
      await release();
    } finally {
      jest.useRealTimers();
    }
  });

  test('when a read runs longer than its lease, then its places are renewed and still count: another read waits rather than runs', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'clearTimeout', 'nextTick', 'queueMicrotask', 'setImmediate'] });
    try {
      const release = await limiter.acquire('u1');
      // Three lease lengths later, each renewal run in between.
      for (let i = 0; i < 9; i++) {
        jest.setSystemTime(Date.now() + READ_LEASE_MS / 3);
        await jest.advanceTimersByTimeAsync(READ_LEASE_MS / 3);
      }
      expect(await cache.countPlaces(runningKey('u1'))).toBe(1);
      const queued = limiter.acquire('u1');
      let admitted = false;
      void queued.then(() => (admitted = true));
      await new Promise((r) => setTimeout(r, 100));
      expect(admitted).toBe(false);
      await release();
      await (await queued)();
    } finally {
      jest.useRealTimers();
    }
  });

  test('when the caller is gone by the time its places are taken, then they are given back and the read is refused, not held (and renewed) for a read that will not run', async () => {
    const gone = new AbortController();
    gone.abort(new Error('client closed'));
    await expect(limiter.acquire('u1', gone.signal)).rejects.toThrow('client closed');
    expect([await cache.countPlaces(admittedKey('u1')), await cache.countPlaces(runningKey('u1'))]).toEqual([0, 0]);
    // Queued, then gone while waiting: the same.
    const running = await limiter.acquire('u1');
    const leaving = new AbortController();
    const waiting = limiter.acquire('u1', leaving.signal);
    await new Promise((r) => setTimeout(r, 50));
    leaving.abort(new Error('client closed'));
    await expect(waiting).rejects.toThrow('client closed');
    expect(await cache.countPlaces(admittedKey('u1'))).toBe(1);
    await running();
    expect(await cache.countPlaces(admittedKey('u1'))).toBe(0);
  });
});
