import { ReadResultCache } from '../../src/domain/read-result-cache';

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe('the encoded answers kept by content', () => {
  test('when an answer is kept, then the same read of the same content gets it back; another read or content does not', () => {
    const cache = new ReadResultCache(1000);
    const read = { channels: ['Ground Speed'], scope: { mode: 'lap', lapIndex: 1 }, binary: true };
    cache.set('sha256/a', ReadResultCache.keyOf('sha256/a', read), bytes(10, 7));

    expect(cache.get(ReadResultCache.keyOf('sha256/a', { ...read }))).toEqual(bytes(10, 7));
    expect(cache.get(ReadResultCache.keyOf('sha256/b', read))).toBeUndefined();
    expect(cache.get(ReadResultCache.keyOf('sha256/a', { ...read, binary: false }))).toBeUndefined();
    expect(cache.get(ReadResultCache.keyOf('sha256/a', { ...read, maxPoints: 100 }))).toBeUndefined();
  });

  test('when the bound is passed, then the least recently used answers go first', () => {
    const cache = new ReadResultCache(800);
    cache.set('c', 'one', bytes(100));
    cache.set('c', 'two', bytes(100));
    cache.get('one');
    for (let i = 0; i < 7; i++) cache.set('c', `more-${i}`, bytes(100));

    expect(cache.heldBytes).toBeLessThanOrEqual(800);
    expect(cache.get('one')).toBeDefined();
    expect(cache.get('two')).toBeUndefined();
  });

  test('when an answer is larger than an eighth of the bound, or the cache is off, then it is not kept', () => {
    const cache = new ReadResultCache(800);
    cache.set('c', 'big', bytes(101));
    expect(cache.get('big')).toBeUndefined();
    const off = new ReadResultCache(0);
    off.set('c', 'any', bytes(1));
    expect(off.get('any')).toBeUndefined();
    expect(off.heldBytes).toBe(0);
  });

  test('when a dataset is dropped, then every answer read from its content goes and the others stay', () => {
    const cache = new ReadResultCache(10_000);
    cache.set('sha256/old', 'x', bytes(10));
    cache.set('sha256/old', 'y', bytes(10));
    cache.set('sha256/new', 'z', bytes(10));

    expect(cache.deleteAll('sha256/old')).toBe(2);
    expect(cache.deleteAll('sha256/old')).toBe(0);
    expect(cache.get('z')).toBeDefined();
    expect(cache.heldBytes).toBe(10);
  });
});
