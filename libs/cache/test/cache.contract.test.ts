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

  test('when places are taken while their sets are below their limits, then the walk stops at the first full one, and a holder\'s place counts once', async () => {
    const steps = [
      { key: 'admitted', limit: 3 },
      { key: 'running', limit: 1 },
    ];
    expect(await cache.takePlaces(steps, 'a', 10_000)).toBe(2);
    expect(await cache.takePlaces(steps, 'b', 10_000)).toBe(1);
    expect(await cache.takePlaces(steps, 'c', 10_000)).toBe(1);
    expect(await cache.takePlaces(steps, 'd', 10_000)).toBe(0);
    // A holder taking again keeps its places (renewed), not new ones.
    expect(await cache.takePlaces(steps, 'a', 10_000)).toBe(2);
    expect([await cache.countPlaces('admitted'), await cache.countPlaces('running')]).toEqual([3, 1]);
    await cache.releasePlaces(['running', 'admitted'], 'a');
    expect([await cache.countPlaces('admitted'), await cache.countPlaces('running')]).toEqual([2, 0]);
    expect(await cache.takePlaces([{ key: 'running', limit: 1 }], 'b', 10_000)).toBe(1);
    // Giving back what is not held changes nothing.
    await cache.releasePlaces(['running'], 'nobody');
    expect(await cache.countPlaces('running')).toBe(1);
    expect(await cache.takePlaces([], 'e', 10_000)).toBe(0);
    expect(await cache.countPlaces('never')).toBe(0);
  });

  test('when a holder stops renewing, then its place lapses after its lease and the place is free; renewed, it stays', async () => {
    // Leases of 1 s, the living holder renewing every 200 ms: a machine busy for most of a second between two calls
    // does not make the holder that is still taking its places lose one (300 ms leases did, on a loaded CI machine).
    const lease = 1000;
    expect(await cache.takePlaces([{ key: 'slots', limit: 2 }], 'alive', lease)).toBe(1);
    expect(await cache.takePlaces([{ key: 'slots', limit: 2 }], 'dead', lease)).toBe(1);
    expect(await cache.takePlaces([{ key: 'slots', limit: 2 }], 'third', lease)).toBe(0);
    for (let i = 0; i < 7; i++) {
      await new Promise((r) => setTimeout(r, 200));
      await cache.renewPlaces(['slots'], 'alive', lease);
    }
    // 1.4 s on: 'dead' lapsed, 'alive' renewed every 200 ms stays.
    expect(await cache.countPlaces('slots')).toBe(1);
    expect(await cache.takePlaces([{ key: 'slots', limit: 2 }], 'third', lease)).toBe(1);
    // A lapsed place is not brought back by a renewal.
    await cache.renewPlaces(['slots'], 'dead', lease);
    expect(await cache.countPlaces('slots')).toBe(2);
  });

  test('when a counter is incremented, then it counts up from 1', async () => {
    expect(await cache.incr('c', 10)).toBe(1);
    expect(await cache.incr('c', 10)).toBe(2);
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
