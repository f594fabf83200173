import { execFile } from 'node:child_process';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { RedisCache } from '../src';
import { subscriberName } from '../src/near-keys';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const run = promisify(execFile);

/** Another process changes Redis (as the admin CLI revoking a key does): its answer comes back before we read. */
async function inAnotherProcess(...command: string[]): Promise<void> {
  const script = `const R = require('ioredis'); const r = new R(process.argv[1]); r.call(...process.argv.slice(2)).then(() => r.quit(), (e) => { console.error(e); process.exit(1); });`;
  await run(process.execPath, ['-e', script, REDIS_URL, ...command], { cwd: __dirname });
}

async function until(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (probe()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never: ${what}`);
}

describe('RedisCache with near keys', () => {
  const prefix = `pitwall-test:${randomUUID()}:`;
  let cache: RedisCache;
  let plain: Redis;
  beforeAll(async () => {
    cache = new RedisCache(REDIS_URL, prefix, undefined, { near: { prefixes: ['key:', 'role:'], maxAgeMs: 60_000 } });
    plain = new Redis(REDIS_URL);
    await until(() => cache.nearStats()?.tracking === true, 'tracking on');
  });
  afterAll(async () => {
    await cache.clear();
    await cache.close();
    await plain.quit();
  });

  test('when a near key is read again, then the answer comes from memory, the same', async () => {
    await cache.set('key:a', 'principal a', 60);
    expect(await cache.getMany(['key:a', 'role:missing'])).toEqual(['principal a', null]);
    // The set's own invalidation comes back from Redis a moment after it, and an answer read before it came is not kept
    // (it could be older than the change): read until one was kept (CI once read the second time before it came).
    for (let i = 0; i < 100; i++) {
      const seen = cache.nearStats()?.hits ?? 0;
      expect(await cache.get('key:a')).toBe('principal a');
      if ((cache.nearStats()?.hits ?? 0) > seen) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const before = cache.nearStats()?.hits ?? 0;
    expect(await cache.getMany(['key:a', 'role:missing'])).toEqual(['principal a', null]);
    expect(await cache.get('key:a')).toBe('principal a');
    expect(cache.nearStats()?.hits).toBe(before + 2);
  });

  test('when another process deletes or changes a near key, then the next read here sees it at once', async () => {
    await cache.set('key:revoked', 'principal', 60);
    await cache.set('role:changed', 'editor', 60);
    expect(await cache.getMany(['key:revoked', 'role:changed'])).toEqual(['principal', 'editor']);
    expect(await cache.getMany(['key:revoked', 'role:changed'])).toEqual(['principal', 'editor']);
    await inAnotherProcess('DEL', `${prefix}key:revoked`);
    expect(await cache.get('key:revoked')).toBeNull();
    await inAnotherProcess('SET', `${prefix}role:changed`, 'reader');
    expect(await cache.get('role:changed')).toBe('reader');
  });

  test('when this process deletes or sets a near key, then its next read sees it at once', async () => {
    await cache.set('role:local', 'admin', 60);
    expect(await cache.get('role:local')).toBe('admin');
    await cache.set('role:local', '-', 60);
    expect(await cache.get('role:local')).toBe('-');
    await cache.del('role:local');
    expect(await cache.get('role:local')).toBeNull();
  });

  test('when a key is not under the near prefixes, then every read asks Redis', async () => {
    await cache.set('other:x', '1', 60);
    const before = cache.nearStats()?.hits ?? 0;
    expect(await cache.get('other:x')).toBe('1');
    await plain.set(`${prefix}other:x`, '2');
    expect(await cache.get('other:x')).toBe('2');
    expect(cache.nearStats()?.hits).toBe(before);
  });

  test('when a kept key expires in Redis, then it is not served past its expiry', async () => {
    await cache.set('key:short', 'soon gone', 1);
    expect(await cache.get('key:short')).toBe('soon gone');
    expect(await cache.get('key:short')).toBe('soon gone');
    await new Promise((r) => setTimeout(r, 1100));
    expect(await cache.get('key:short')).toBeNull();
  });

  /** The id of the subscriber connection of the cache whose key prefix is `of`. */
  async function subscriberId(of = prefix): Promise<string> {
    const clients = String(await plain.call('CLIENT', 'LIST', 'TYPE', 'pubsub')).split('\n');
    const id = /\bid=(\d+)/.exec(clients.find((line) => line.includes(` name=${subscriberName(of)} `)) ?? '')?.[1];
    if (!id) throw new Error('no subscriber connection of this cache');
    return id;
  }

  test('when the subscriber is cut and the key deleted in one go, then the deleted value is gone within the max age', async () => {
    // The invalidation and the connection's end race on two sockets here: what bounds a miss is maxAgeMs.
    const quickPrefix = `pitwall-test:${randomUUID()}:`;
    const quick = new RedisCache(REDIS_URL, quickPrefix, undefined, { near: { prefixes: ['key:'], maxAgeMs: 400 } });
    try {
      for (let round = 0; round < 5; round++) {
        await until(() => quick.nearStats()?.tracking === true, 'tracking on');
        await quick.set('key:raced', `value ${round}`, 60);
        expect(await quick.get('key:raced')).toBe(`value ${round}`);
        expect(await quick.get('key:raced')).toBe(`value ${round}`);
        await plain.pipeline().call('CLIENT', 'KILL', 'ID', await subscriberId(quickPrefix)).del(`${quickPrefix}key:raced`).exec();
        await new Promise((r) => setTimeout(r, 400));
        expect(await quick.get('key:raced')).toBeNull();
      }
    } finally {
      await quick.clear();
      await quick.close();
    }
  });

  test('when invalidations silently stop arriving, then the canary notices: nothing is kept until they arrive again', async () => {
    // A proxy between the cache and Redis that can stop passing Redis's data to the subscriber, its socket left open
    // (a connection dropped by a NAT or a partition without a FIN).
    const { hostname, port } = new URL(REDIS_URL);
    const links: { client: net.Socket; upstream: net.Socket; subscriber: boolean }[] = [];
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(port || 6379), hostname || '127.0.0.1');
      const link = { client, upstream, subscriber: false };
      links.push(link);
      client.on('data', (d) => {
        if (/SUBSCRIBE/i.test(d.toString('latin1'))) link.subscriber = true;
        upstream.write(d);
      });
      upstream.on('data', (d) => {
        if (!(link as { frozen?: boolean }).frozen) client.write(d);
      });
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = new RedisCache(`redis://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`, prefix, undefined, { near: { prefixes: ['key:'], maxAgeMs: 600 } });
    try {
      await until(() => proxied.nearStats()?.tracking === true, 'tracking on through the proxy');
      await proxied.set('key:silent', 'before', 60);
      expect(await proxied.get('key:silent')).toBe('before');
      for (const link of links) if (link.subscriber) (link as { frozen?: boolean }).frozen = true;
      await until(() => proxied.nearStats()?.tracking === false, 'the canary missed');
      await inAnotherProcess('SET', `${prefix}key:silent`, 'after');
      expect(await proxied.get('key:silent')).toBe('after');
      // The subscriber was reconnected (a new link, not frozen): kept again, and told again.
      await until(() => proxied.nearStats()?.tracking === true, 'tracking back on');
      expect(await proxied.get('key:silent')).toBe('after');
      expect(await proxied.get('key:silent')).toBe('after');
      await inAnotherProcess('DEL', `${prefix}key:silent`);
      expect(await proxied.get('key:silent')).toBeNull();
    } finally {
      await proxied.close();
      for (const link of links) link.client.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 20_000);

  test('when the invalidation connection is cut, then nothing kept is served and tracking comes back', async () => {
    await cache.set('key:cut', 'before', 60);
    expect(await cache.get('key:cut')).toBe('before');
    expect(await cache.get('key:cut')).toBe('before');
    // Cut this cache's subscriber (the connection that receives its invalidations), then change the key.
    await plain.call('CLIENT', 'KILL', 'ID', await subscriberId());
    await inAnotherProcess('SET', `${prefix}key:cut`, 'after');
    expect(await cache.get('key:cut')).toBe('after');
    await until(() => cache.nearStats()?.tracking === true, 'tracking back on');
    expect(await cache.get('key:cut')).toBe('after');
    const hits = cache.nearStats()?.hits ?? 0;
    expect(await cache.get('key:cut')).toBe('after');
    expect(cache.nearStats()?.hits).toBe(hits + 1);
    await inAnotherProcess('DEL', `${prefix}key:cut`);
    expect(await cache.get('key:cut')).toBeNull();
  });
});
