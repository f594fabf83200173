import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pino from 'pino';
import { freePort, tcpProxy } from '@pitwall/testing';
import { CacheUnavailableError, RedisCache } from '../src';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const target = new URL(REDIS_URL);

async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<void> {
  const stop = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > stop) throw new Error(`never within ${limitMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** How long a call took to settle, and how (the bound asserted is generous: the issue asks for no waiting on Redis). */
async function timed(call: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  const error = await call().then(
    () => undefined,
    (err: unknown) => err,
  );
  return { ms: performance.now() - started, error };
}

describe('RedisCache when Redis cannot be reached', () => {
  test('when nothing listens on its port, then every call fails fast with CacheUnavailableError and it says it is not ready', async () => {
    const cache = new RedisCache(`redis://127.0.0.1:${await freePort()}`, `pitwall-test:${randomUUID()}:`, undefined, { near: { prefixes: ['key:'] } });
    try {
      const calls = [() => cache.get('key:a'), () => cache.getMany(['key:a', 'b']), () => cache.set('a', '1', 60), () => cache.del('a'), () => cache.takePlaces([{ key: 'n', limit: 2 }], 'h', 60_000), () => cache.renewPlaces(['n'], 'h', 60_000), () => cache.releasePlaces(['n'], 'h'), () => cache.countPlaces('n'), () => cache.incr('n', 60)];
      for (const call of calls) {
        const { ms, error } = await timed(call);
        expect(error).toBeInstanceOf(CacheUnavailableError);
        expect(ms).toBeLessThan(1500);
      }
      expect(cache.breakerState).not.toBe('closed');
      const ready = await timed(async () => expect(await cache.isReady()).toBe(false));
      expect(ready.ms).toBeLessThan(1500);
    } finally {
      await cache.close();
    }
  });

  test('when Redis cannot be reached, then one warn line names its address (never the password) and the cause; its return is one info line', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const cache = new RedisCache(`redis://default:s3cr3t-pass@127.0.0.1:${proxy.port}/0`, `pitwall-test:${randomUUID()}:`, logger, { breakerProbeMs: 100 });
    try {
      await until('the breaker opens', () => cache.breakerState !== 'closed');
      await new Promise((r) => setTimeout(r, 300)); // a few reconnection attempts and probes
      expect(lines).toEqual([
        expect.objectContaining({ level: 40, msg: 'redis unavailable: cache bypassed until it answers again', address: `redis://127.0.0.1:${proxy.port}`, reason: `connection to redis lost: connect ECONNREFUSED 127.0.0.1:${proxy.port}` }),
      ]);
      await proxy.open();
      await until('the breaker closes', () => cache.breakerState === 'closed');
      expect(lines.slice(1)).toEqual([expect.objectContaining({ level: 30, msg: 'redis answers again: cache in use', address: `redis://127.0.0.1:${proxy.port}` })]);
      // A connection cut while in use: the line says it was lost, and how.
      await proxy.cut();
      await until('the breaker opens again', () => cache.breakerState !== 'closed');
      expect(lines.slice(2)).toEqual([expect.objectContaining({ level: 40, address: `redis://127.0.0.1:${proxy.port}`, reason: expect.stringMatching(/^connection to redis lost: ./) })]);
      expect(JSON.stringify(lines)).not.toContain('s3cr3t');
    } finally {
      await cache.close();
      await proxy.cut();
    }
  });

  test('when Redis comes back on its port, then the breaker closes by itself, the entries named to forget are gone, and the cache is used again', async () => {
    const prefix = `pitwall-test:${randomUUID()}:`;
    const plain = new Redis(REDIS_URL);
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const cache = new RedisCache(`redis://127.0.0.1:${proxy.port}`, prefix, undefined, { near: { prefixes: ['key:'] }, breakerProbeMs: 200, forgetAfterOutage: ['key:'] });
    try {
      await expect(cache.get('key:a')).rejects.toBeInstanceOf(CacheUnavailableError);
      await until('the breaker opens', () => cache.breakerState !== 'closed');
      // What another process cached before the outage, and a change it could not evict meanwhile (a revoked key's).
      await plain.set(`${prefix}key:revoked`, 'stale', 'EX', 60);
      await plain.set(`${prefix}counter`, '7', 'EX', 60);

      await proxy.open();
      await until('the breaker closes by itself', () => cache.breakerState === 'closed');
      expect(await cache.isReady()).toBe(true);
      expect(await cache.get('key:revoked')).toBeNull();
      expect(await cache.get('counter')).toBe('7');
      await cache.set('key:fresh', 'v', 60);
      expect(await plain.get(`${prefix}key:fresh`)).toBe('v');

      // Cut again: the lost connection opens the breaker at once; back again: closed again by itself.
      await proxy.cut();
      await until('the breaker opens on the lost connection', () => cache.breakerState !== 'closed');
      const refused = await timed(() => cache.get('counter'));
      expect(refused.error).toBeInstanceOf(CacheUnavailableError);
      expect(refused.ms).toBeLessThan(1500);
      await proxy.open();
      await until('the breaker closes again', () => cache.breakerState === 'closed');
      expect(await cache.get('counter')).toBe('7');
    } finally {
      await cache.close();
      await proxy.cut();
      const keys = await plain.keys(`${prefix}*`);
      if (keys.length) await plain.del(...keys);
      await plain.quit();
    }
  });

  test('when Redis answers a command with its own error, then that error comes through and the breaker stays closed', async () => {
    const prefix = `pitwall-test:${randomUUID()}:`;
    const cache = new RedisCache(REDIS_URL, prefix, undefined, { breakerFailures: 1 });
    try {
      await cache.set('text', 'not a number', 60);
      await expect(cache.incr('text', 60)).rejects.toThrow(/not an integer/);
      expect(cache.breakerState).toBe('closed');
    } finally {
      await cache.clear();
      await cache.close();
    }
  });
});
