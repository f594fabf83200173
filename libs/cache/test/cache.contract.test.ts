import { randomUUID } from 'node:crypto';
import { MemoryCache, RedisCache, type Cache } from '../src';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const transports: [string, () => Cache][] = [
  ['memory', () => new MemoryCache()],
  ['redis', () => new RedisCache(REDIS_URL, `pitwall-test:${randomUUID()}:`)],
  // Every key kept near: the same contract must hold when reads are served from this process's memory.
  ['redis, every key near', () => new RedisCache(REDIS_URL, `pitwall-test:${randomUUID()}:`, undefined, { near: { prefixes: [''] } })],
];

async function trackingOn(cache: Cache): Promise<void> {
  if (!(cache instanceof RedisCache) || !cache.nearStats()) return;
  for (let i = 0; i < 100 && !cache.nearStats()?.tracking; i++) await new Promise((r) => setTimeout(r, 20));
  expect(cache.nearStats()?.tracking).toBe(true);
}

describe.each(transports)('Cache contract (%s)', (_name, make) => {
  let cache: Cache;
  beforeAll(async () => {
    cache = make();
    await trackingOn(cache);
  });
  afterAll(async () => {
    if (cache instanceof RedisCache) await cache.clear();
    await cache.close();
  });

  test('when a key is set, then get returns it until it is deleted', async () => {
    await cache.set('k1', 'v1');
    expect(await cache.get('k1')).toBe('v1');
    await cache.del('k1');
    expect(await cache.get('k1')).toBeNull();
  });

  test('when several keys are read at once, then their values come in order, null for a missing or deleted one', async () => {
    await cache.set('many-a', 'A');
    await cache.set('many-c', 'C');
    await cache.set('many-gone', 'x');
    await cache.del('many-gone');
    expect(await cache.getMany(['many-a', 'many-b', 'many-c', 'many-gone', 'many-a'])).toEqual(['A', null, 'C', null, 'A']);
    expect(await cache.getMany([])).toEqual([]);
  });

  test('when a key has a ttl, then it is gone after the ttl', async () => {
    await cache.set('k2', 'v2', 1);
    expect(await cache.get('k2')).toBe('v2');
    await new Promise((r) => setTimeout(r, 1100));
    expect(await cache.get('k2')).toBeNull();
  });

  test('when counters are taken while below their limits, then the walk stops at the first one that is full', async () => {
    const steps = [
      { key: 'admitted', limit: 3 },
      { key: 'running', limit: 1 },
    ];
    expect(await cache.incrWhileBelow(steps, 10)).toBe(2);
    expect(await cache.incrWhileBelow(steps, 10)).toBe(1);
    expect(await cache.incrWhileBelow(steps, 10)).toBe(1);
    expect(await cache.incrWhileBelow(steps, 10)).toBe(0);
    expect([await cache.get('admitted'), await cache.get('running')]).toEqual(['3', '1']);
    expect(await cache.decr('running')).toBe(0);
    expect(await cache.incrWhileBelow([{ key: 'running', limit: 1 }], 10)).toBe(1);
    expect(await cache.incrWhileBelow([], 10)).toBe(0);
  });

  test('when a counter is incremented and decremented, then it never goes below zero', async () => {
    expect(await cache.incr('c', 10)).toBe(1);
    expect(await cache.incr('c', 10)).toBe(2);
    expect(await cache.decr('c')).toBe(1);
    expect(await cache.decr('c')).toBe(0);
    expect(await cache.decr('c')).toBe(0);
  });

  test('when asked, then it reports ready', async () => {
    expect(await cache.isReady()).toBe(true);
  });
});

test('when two prefixes are used, then their keys do not collide', async () => {
  const a = new RedisCache(REDIS_URL, `pitwall-test:${randomUUID()}:`);
  const b = new RedisCache(REDIS_URL, `pitwall-test:${randomUUID()}:`);
  await a.set('same', 'a');
  await b.set('same', 'b');
  expect(await a.get('same')).toBe('a');
  expect(await b.get('same')).toBe('b');
  await a.clear();
  await b.clear();
  await a.close();
  await b.close();
});

test('when the in-memory cache passes its cap, then the oldest entries go first', async () => {
  const cache = new MemoryCache(3);
  for (const k of ['a', 'b', 'c', 'd']) await cache.set(k, k);
  expect(await cache.get('a')).toBeNull();
  expect(await cache.get('d')).toBe('d');
  await cache.close();
});
