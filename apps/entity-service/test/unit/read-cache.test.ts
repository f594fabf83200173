import { ReadCache, type RenderedReply } from '../../src/domain/read-cache';

const reply = (text: string): RenderedReply => ({ json: Buffer.from(text) });
const body = (r: RenderedReply | undefined) => r?.json.toString('utf8');
const ACCOUNT = '8d1e0000-0000-4000-8000-000000000001';
const OTHER = '8d1e0000-0000-4000-8000-000000000002';

describe('ReadCache', () => {
  test('when a reply was kept at a version, then a read at that version gets it and a read at another does not', () => {
    const cache = new ReadCache(1024 * 1024);
    cache.set(ACCOUNT, '7', 'get RunSheets r3', reply('{"Id":"r3"}'));

    expect(body(cache.get(ACCOUNT, '7', 'get RunSheets r3'))).toBe('{"Id":"r3"}');
    expect(cache.get(ACCOUNT, '8', 'get RunSheets r3')).toBeUndefined();
    expect(cache.get(ACCOUNT, '7', 'get RunSheets r4')).toBeUndefined();
    expect(cache.get(OTHER, '7', 'get RunSheets r3')).toBeUndefined();
  });

  test('when a read sees a newer version of the account, then the replies kept under older ones are gone', () => {
    const cache = new ReadCache(1024 * 1024);
    cache.set(ACCOUNT, '7', 'a', reply('"a"'));
    cache.set(OTHER, '7', 'a', reply('"other"'));

    cache.get(ACCOUNT, '8', 'a');

    expect(cache.get(ACCOUNT, '7', 'a')).toBeUndefined();
    expect(body(cache.get(OTHER, '7', 'a'))).toBe('"other"');
    expect(cache.stats().entries).toBe(1);
  });

  test('when a reply rendered at an older version arrives after a newer one was kept, then it is not kept', () => {
    const cache = new ReadCache(1024 * 1024);
    cache.set(ACCOUNT, '9', 'a', reply('"new"'));

    cache.set(ACCOUNT, '8', 'b', reply('"old"'));

    expect(cache.get(ACCOUNT, '8', 'b')).toBeUndefined();
    expect(body(cache.get(ACCOUNT, '9', 'a'))).toBe('"new"');
  });

  test('when versions pass 2^53, then they still compare exactly', () => {
    const cache = new ReadCache(1024 * 1024);
    cache.set(ACCOUNT, '9007199254740993', 'a', reply('"x"'));

    expect(cache.get(ACCOUNT, '9007199254740992', 'a')).toBeUndefined();
    expect(body(cache.get(ACCOUNT, '9007199254740993', 'a'))).toBe('"x"');
  });

  test('when the replies pass the memory budget, then the least recently used go first', () => {
    const cache = new ReadCache(100);
    cache.set(ACCOUNT, '1', 'a', reply('x'.repeat(20)));
    cache.set(ACCOUNT, '1', 'b', reply('x'.repeat(20)));
    cache.set(ACCOUNT, '1', 'c', reply('x'.repeat(20)));
    cache.get(ACCOUNT, '1', 'a'); // a is now the most recently used

    cache.set(ACCOUNT, '1', 'd', reply('x'.repeat(20)));
    cache.set(ACCOUNT, '1', 'e', reply('x'.repeat(20)));

    expect(cache.get(ACCOUNT, '1', 'b')).toBeUndefined();
    expect(cache.get(ACCOUNT, '1', 'a')).toBeDefined();
    expect(cache.stats().bytes).toBeLessThanOrEqual(100);
  });

  test('when one reply would take more than a quarter of the budget, then it is not kept', () => {
    const cache = new ReadCache(100);

    cache.set(ACCOUNT, '1', 'big', reply('x'.repeat(30)));

    expect(cache.get(ACCOUNT, '1', 'big')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  test('when the same key is kept twice, then the second replaces the first and the bytes are counted once', () => {
    const cache = new ReadCache(1000);
    cache.set(ACCOUNT, '1', 'a', reply('first'));

    cache.set(ACCOUNT, '1', 'a', reply('second'));

    expect(body(cache.get(ACCOUNT, '1', 'a'))).toBe('second');
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 'second'.length + 1 });
  });

  test('when the budget is 0, then nothing is kept', () => {
    const cache = new ReadCache(0);
    cache.set(ACCOUNT, '1', 'a', reply('"a"'));

    expect(cache.enabled).toBe(false);
    expect(cache.get(ACCOUNT, '1', 'a')).toBeUndefined();
  });
});
