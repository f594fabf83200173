import { tcpProxy, type TcpProxy } from '@pitwall/testing';
import { DistributedStack, REDIS_URL, readJson, type Member } from './support/distributed';
import { until } from './support/broker-faults';

// The five processes on the real PostgreSQL and RabbitMQ, with REDIS_URL on a proxy port that refuses connections
// (Redis unreachable) until the test opens it onto the shared Redis (Redis back). The shared server is never touched.
const target = { host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) };
/** "Close to normal latency": a bound far above a normal answer here and far below the ~6 s each took before. */
const NEAR_NORMAL_MS = 2000;

const headersOf = (m: Member) => ({ ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json' });

async function timed(url: string, init?: RequestInit): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now();
  const res = await fetch(url, init);
  const body = await res.text();
  return { status: res.status, ms: performance.now() - started, body };
}

describe('Redis unreachable under the five-process stack, then back', () => {
  let proxy: TcpProxy;
  let stack: DistributedStack | undefined;
  beforeAll(async () => {
    proxy = await tcpProxy(target);
    stack = await DistributedStack.start({ env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_BREAKER_PROBE_MS: '200' }, readyTimeoutMs: 90_000 });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await proxy?.cut();
  });

  test('when Redis cannot be reached, then requests answer near normal latency, data file reads never 500, a revoked key is refused, readiness says cache degraded; when it returns, readiness notices by itself', async () => {
    const s = stack as DistributedStack;
    const member = await s.member('editor');
    const ready = async () => readJson(await fetch(`${s.baseUrl}/health/ready`));

    // Every service seen running by the gateway (on a loaded machine the last may still be starting), the cache not.
    await until('readiness names every service up', async () => Object.entries((await ready()).dependencies ?? {}).every(([name, state]) => name === 'cache' || state === 'up'), 30_000);
    expect(await ready()).toMatchObject({ dependencies: { cache: 'degraded' } });

    // Unmeasured warm-up: a fresh stack's first write pays for cold connections with or without Redis.
    expect((await timed(`${s.baseUrl}/Championships`, { method: 'POST', headers: headersOf(member), body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Warm' }] }) })).status).toBe(201);
    const created = await timed(`${s.baseUrl}/Championships`, { method: 'POST', headers: headersOf(member), body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'No cache Cup' }] }) });
    expect(created.status).toBe(201);
    expect(created.ms).toBeLessThan(NEAR_NORMAL_MS);
    const id = (JSON.parse(created.body) as { Id: string }).Id;
    const read = await timed(`${s.baseUrl}/Championships/${id}`, { headers: headersOf(member) });
    expect({ status: read.status, fast: read.ms < NEAR_NORMAL_MS }).toEqual({ status: 200, fast: true });

    // The per-user read limiter counts in Redis: without it each gateway's own limiter admits reads. A run sheet with
    // nothing attached answers the service's own 404, never a 500 from the limiter.
    const dataRead = await timed(`${s.baseUrl}/RunSheets/${id}/DataFileAccess/DataFile/metadata`, { headers: headersOf(member) });
    expect({ status: dataRead.status, fast: dataRead.ms < NEAR_NORMAL_MS }).toEqual({ status: 404, fast: true });

    // A key revoked while Redis is away (the operator's eviction cannot reach the gateway's cache) is refused at once:
    // with the breaker open the gateway asks PostgreSQL for every key.
    const victim = await s.member('editor');
    expect((await timed(`${s.baseUrl}/Championships`, { headers: headersOf(victim) })).status).toBe(200);
    expect(await s.auth.revokeApiKey(victim.keyId)).toBe(true);
    const refused = await timed(`${s.baseUrl}/Championships`, { headers: headersOf(victim) });
    expect({ status: refused.status, fast: refused.ms < NEAR_NORMAL_MS }).toEqual({ status: 401, fast: true });

    // Redis back: noticed by the gateway's own probe, no restart.
    await proxy.open();
    await until('readiness says the cache is up', async () => (await ready()).dependencies?.cache === 'up', 15_000);
    expect((await timed(`${s.baseUrl}/Championships/${id}`, { headers: headersOf(member) })).status).toBe(200);
    expect((await timed(`${s.baseUrl}/Championships`, { headers: headersOf(victim) })).status).toBe(401);
  }, 120_000);
});
