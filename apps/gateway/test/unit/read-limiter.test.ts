import { CacheUnavailableError, MemoryCache, type Cache } from '@pitwall/cache';
import { ReadLimitError, ReadLimiter } from '../../src/domain/read-limiter';

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
  incrWhileBelow = (steps: readonly { key: string; limit: number }[], ttl: number) => this.when(() => this.memory.incrWhileBelow(steps, ttl));
  decr = (key: string) => this.when(() => this.memory.decr(key));
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

  test('when the cache answers, then it alone counts: its counters hold the reads', async () => {
    const release = await limiter.acquire('u1');
    expect(await cache.get('reads:running:u1')).toBe('1');
    await release();
    expect(await cache.get('reads:running:u1')).toBe('0');
  });
});
