import { randomUUID } from 'node:crypto';
import { EncodedJson, InProcessBroker, InProcessBus, ServicePresence, type BusRequest } from '@pitwall/bus';
import { SERVICES } from '@pitwall/contracts';
import { createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { authHeaders, fakeAuth } from '../support/gateway-harness';

const RUN_SHEET = '00000000-0000-4000-8000-0000000000a1';
const metadataPath = `/RunSheets/${RUN_SHEET}/DataFileAccess/DataFile/metadata`;

/**
 * The gateway over a broker shared with its services' processes, each a bus of its own on that broker, so one can
 * die like a crashed process (`destroy`) and come back.
 */
describe('a request for a service with no running instance', () => {
  const logger = createLogger('gateway-test', 'silent');
  const broker = new InProcessBroker();
  const gatewayBus = new InProcessBus({ logger, broker, requestTimeoutMs: 30_000 });
  const presence = new ServicePresence(gatewayBus, { intervalMs: 100, logger });
  /** The running processes of each service. */
  const instances = new Map<string, InProcessBus[]>();
  let http: HttpEntryPoint;

  /** A process serving `service`: each request is answered by `answer` (which may never settle). */
  async function startService(service: string, answer: (request: BusRequest) => Promise<unknown> = async (request) => (request.type === 'ping' ? 'pong' : new EncodedJson(Buffer.from('{"ok":true}')))): Promise<InProcessBus> {
    const bus = new InProcessBus({ logger, broker });
    await bus.serve(service, answer);
    instances.set(service, [...(instances.get(service) ?? []), bus]);
    return bus;
  }

  beforeAll(async () => {
    for (const service of Object.values(SERVICES)) await startService(service);
    presence.start(Object.values(SERVICES));
    http = await listen(buildGateway({ bus: gatewayBus, auth: fakeAuth, logger, presence }), 0, '127.0.0.1');
  });
  /** Kills every process of `service` (as a kill -9 would). */
  const kill = async (service: string) => {
    for (const bus of instances.get(service) ?? []) await bus.destroy();
    instances.set(service, []);
  };
  afterAll(async () => {
    presence.stop();
    await http.stop();
    for (const service of instances.keys()) await kill(service);
    await gatewayBus.close();
  });

  const read = () => fetch(`${http.address}${metadataPath}`, { headers: authHeaders });
  const timed = async <T>(what: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const started = performance.now();
    const value = await what();
    return { value, ms: performance.now() - started };
  };
  /** Polls `probe` until it holds; how long that took. */
  const until = async (probe: () => Promise<boolean>, limitMs: number): Promise<number> => {
    const started = performance.now();
    while (!(await probe())) {
      if (performance.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return performance.now() - started;
  };

  test('when the datafile-service is gone, then a read is a 503 problem+json with Retry-After within 2 s, readiness names it, and reads work again within 2 s of its return', async () => {
    expect((await read()).status).toBe(200);
    await kill(SERVICES.datafile);

    const refused = await timed(read);
    expect(refused.value.status).toBe(503);
    expect(refused.ms).toBeLessThan(2000);
    expect(refused.value.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.value.headers.get('retry-after')).toBe('2');
    // Sent before the next look (then failed in flight when the look finds it gone), or refused at once after it.
    expect(((await refused.value.json()) as { detail: string }).detail).toMatch(/^The datafile service (has no running instance: the request was not sent|lost its last running instance before it answered)/);
    expect(((await (await read()).json()) as { detail: string }).detail).toMatch(/^The datafile service has no running instance: the request was not sent and nothing was done/);

    // Named, and degraded: the gateway stays ready, as every other route is served.
    const ready = await fetch(`${http.address}/health/ready`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { dependencies: Record<string, string> }).dependencies).toMatchObject({ 'datafile-service': 'degraded', 'entity-service': 'up', 'timing-service': 'up', 'simulation-service': 'up' });
    // The entity-service's reads are not refused meanwhile.
    expect((await fetch(`${http.address}/Championships`, { headers: authHeaders })).status).toBe(200);

    await startService(SERVICES.datafile);
    expect(await until(async () => (await read()).status === 200, 2000)).toBeLessThan(2000);
    expect(((await (await fetch(`${http.address}/health/ready`)).json()) as { dependencies: Record<string, string> }).dependencies['datafile-service']).toBe('up');
  });

  test('when the last instance dies while a read and a write wait for it, then the read is a 503 and the write a 504 outcome-unknown, both within 2 s', async () => {
    const held: BusRequest[] = [];
    // The entity-service's one instance now holds every request without answering.
    await kill(SERVICES.entity);
    await startService(SERVICES.entity, (request) => {
      held.push(request);
      return new Promise(() => undefined);
    });

    const inFlightRead = timed(() => fetch(`${http.address}/Championships`, { headers: authHeaders }));
    const inFlightWrite = timed(() => fetch(`${http.address}/Championships`, { method: 'POST', headers: { ...authHeaders, 'Content-Type': 'application/json' }, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Held' }] }) }));
    await until(async () => held.length === 2, 2000);
    const killedAt = performance.now();
    await kill(SERVICES.entity);

    const [r, w] = [await inFlightRead, await inFlightWrite];
    expect(performance.now() - killedAt).toBeLessThan(2000);
    expect(r.value.status).toBe(503);
    expect(w.value.status).toBe(504);
    const problem = (await w.value.json()) as { type: string; detail: string; commandId: string };
    expect(problem.type).toBe('urn:pitwall:problem:outcome-unknown');
    expect(problem.commandId).toMatch(/^request:/);
    expect(problem.detail).toContain('carried no Idempotency-Key');
    // Its outcome can be learnt once an instance is back: it says when, as the read's 503 does.
    expect(w.value.headers.get('retry-after')).toBe('2');
    expect(r.value.headers.get('retry-after')).toBe('2');
    await startService(SERVICES.entity);
  });
});

describe('a write whose answer never comes (504 outcome unknown)', () => {
  const logger = createLogger('gateway-test', 'silent');
  const bus = new InProcessBus({ logger, requestTimeoutMs: 300 });
  let http: HttpEntryPoint;
  beforeAll(async () => {
    await bus.serve(SERVICES.entity, () => new Promise(() => undefined));
    await bus.serve(SERVICES.timing, () => new Promise(() => undefined));
    http = await listen(buildGateway({ bus, auth: fakeAuth, logger }), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await http.stop();
    await bus.destroy();
  });

  const create = (key?: string) =>
    fetch(`${http.address}/Championships`, { method: 'POST', headers: { ...authHeaders, 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) }, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Lost' }] }) });

  test('when it carried no Idempotency-Key, then the detail says a retry would be a new write and to send a key next time', async () => {
    const r = await create();
    expect(r.status).toBe(504);
    const problem = (await r.json()) as { type: string; detail: string };
    expect(problem.type).toBe('urn:pitwall:problem:outcome-unknown');
    expect(problem.detail).toContain('may or may not have taken effect');
    expect(problem.detail).toContain('It carried no Idempotency-Key, so a retry would be a new write');
    expect(problem.detail).toContain('send an Idempotency-Key with each write next time');
    // A service that is there but slow: no time to come back is known.
    expect(r.headers.get('retry-after')).toBeNull();
    expect(problem.detail).not.toContain('same Idempotency-Key');
  });

  test('when a timing update carried no Idempotency-Key, then the detail says to send it again (an upsert), not that a retry would be a new write', async () => {
    const ids = { accountId: authHeaders.AccountId, championshipId: randomUUID(), eventId: randomUUID(), sessionId: randomUUID(), carId: randomUUID(), runIndex: 0, stintLapNumber: 1 };
    const r = await fetch(`${http.address}/TimingIntegration/Laps`, { method: 'PUT', headers: { ...authHeaders, 'Content-Type': 'application/json' }, body: JSON.stringify(ids) });
    expect(r.status).toBe(504);
    const problem = (await r.json()) as { type: string; detail: string; commandId: string };
    expect(problem.type).toBe('urn:pitwall:problem:outcome-unknown');
    expect(problem.commandId).toMatch(/^request:/);
    expect(problem.detail).toContain('may or may not have taken effect');
    expect(problem.detail).toContain('A timing update is an upsert on its timing keys: send the same update again');
    expect(problem.detail).not.toContain('a retry would be a new write');
  });

  test('when it carried one, then the detail says to retry with the same Idempotency-Key', async () => {
    const r = await create(randomUUID());
    expect(r.status).toBe(504);
    const problem = (await r.json()) as { type: string; detail: string; commandId: string };
    expect(problem.commandId).toMatch(/^key:/);
    expect(problem.detail).toContain('may or may not have taken effect');
    expect(problem.detail).toContain('Retry it with the same Idempotency-Key to learn its outcome');
    expect(problem.detail).not.toContain('carried no Idempotency-Key');
  });
});
