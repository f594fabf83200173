import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { AmqpBus, type Subscription } from '@pitwall/bus';
import { tcpProxy, type TcpProxy } from '@pitwall/testing';
import { until } from './support/broker-faults';
import { countRows, terminateEveryBackend } from './support/database';
import { AMQP_URL, DistributedStack, REDIS_URL, readJson } from './support/distributed';
import { expectedTiming, storedTiming, storedTimingPath, timingFeed, timingSession, type FeedItem, type Send } from './support/timing';

// Three cars fed through the gateway while the stack loses each of its dependencies in turn: Redis cut, every
// PostgreSQL backend of its database terminated three times, the broker unreachable. The stack's AMQP_URL and
// REDIS_URL go through TCP proxies the test cuts and opens again; the shared servers are never touched.
const RUNS = 2;
const LAPS = 4;
/** How long the broker stays unreachable: past the bus's reconnect attempts, short for the suite. */
const BROKER_OUTAGE_MS = 7000;
/** The types a timing update creates, as their events name them. */
const FEED_TYPES = new Set(['RunSheet', 'Lap', 'LapSector', 'LapSpeedTrap']);

const proxyTo = (url: string, defaultPort: number) => tcpProxy({ host: new URL(url).hostname, port: Number(new URL(url).port || defaultPort) });
/** `url` with its host and port replaced by the proxy's. */
const through = (url: string, proxy: TcpProxy): string => {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return proxied.toString();
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A payload with its keys in one order: an event published again from the outbox (jsonb) has them in another. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(canonical) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, canonical(v)])) : value;

describe('a timing feed through the gateway while the stack loses Redis, PostgreSQL and the broker in turn', () => {
  let amqpProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let stack: DistributedStack | undefined;
  let events: AmqpBus | undefined;
  let subscription: Subscription | undefined;
  /** The `created` events seen for this test's account, by entity id: each one's payload as JSON (keys sorted). */
  const created = new Map<string, string[]>();
  let accountId = '';

  beforeAll(async () => {
    amqpProxy = await proxyTo(AMQP_URL, 5672);
    redisProxy = await proxyTo(REDIS_URL, 6379);
    await amqpProxy.open();
    await redisProxy.open();
    stack = await DistributedStack.start({ apps: ['entity-service', 'timing-service', 'gateway'], env: { AMQP_URL: through(AMQP_URL, amqpProxy), REDIS_URL: through(REDIS_URL, redisProxy), REDIS_BREAKER_PROBE_MS: '200' }, readyTimeoutMs: 90_000 });
    // A subscriber of the entity events on the broker directly (not through the proxy): it hears every publication.
    events = new AmqpBus({ url: AMQP_URL, prefix: `${stack.prefix}.`, logger: pino({ level: 'silent' }) });
    subscription = await events.subscribe('entity.events', `e2e-timing-faults-${randomUUID()}`, ['entity.#'], async ({ payload }) => {
      const event = payload as { action: string; accountId: string; entityType: string; entityId: string };
      if (event.action !== 'created' || event.accountId !== accountId || !FEED_TYPES.has(event.entityType)) return;
      created.set(event.entityId, [...(created.get(event.entityId) ?? []), JSON.stringify(canonical(event))]);
    }, { perInstance: true });
  }, 120_000);
  afterAll(async () => {
    // The proxies open for the stack's stop; then closed even when the stop reports a crash.
    await amqpProxy?.open();
    await redisProxy?.open();
    try {
      await subscription?.close();
      await events?.close();
      await stack?.stop();
    } finally {
      await amqpProxy?.cut();
      await redisProxy?.cut();
    }
  });

  test('when Redis is cut, every database connection is terminated three times and the broker is unreachable for seconds in the middle of the feed, then every update is answered 200 after retries with its Idempotency-Key, the store holds the feed exactly, each created entity is announced, and no process exits', async () => {
    const s = stack as DistributedStack;
    const m = await s.member('editor');
    accountId = m.accountId;
    const send: Send = async (member, method, path, body) => {
      const res = await fetch(`${s.baseUrl}${path}`, { method, headers: { ApiKey: member.apiKey, AccountId: member.accountId, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await readJson(res) };
    };
    const session = await timingSession(send, m, 3);
    const feeds = session.cars.map((_, car) => timingFeed(session, car, RUNS, LAPS));
    const total = feeds.reduce((n, f) => n + f.length, 0);

    // Every answer, by status; the fault phase each came in.
    let phase = 'before the faults';
    const answers = new Map<string, number>();
    let answered = 0;
    const halted: { reason?: unknown } = {};
    const seen = () => `${answered} of ${total} updates answered 200; answers ${JSON.stringify(Object.fromEntries(answers))}`;
    /** One car's feed in order; each update sent again with its own Idempotency-Key on 503 and 504 until it is answered. */
    const play = async (car: number, items: FeedItem[]): Promise<void> => {
      for (const item of items) {
        const key = `feed-${randomUUID()}`;
        const body = JSON.stringify({ ...session.ids, carId: session.cars[car], ...item.body });
        for (const started = Date.now(); ; ) {
          // A fault step that failed ends the feed too: the test fails with that step's message, not after retries.
          if (halted.reason !== undefined) throw halted.reason;
          const res = await fetch(`${s.baseUrl}/TimingIntegration/${item.path}`, { method: 'PUT', headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json', 'Idempotency-Key': key }, body, signal: AbortSignal.timeout(60_000) }).catch((err: Error) => {
            throw new Error(`${item.path} of car ${car} got no answer ${phase} (${err.message})`);
          });
          const text = await res.text();
          answers.set(`${phase}: ${res.status}`, (answers.get(`${phase}: ${res.status}`) ?? 0) + 1);
          if (res.status === 200) break;
          if (![503, 504].includes(res.status)) throw new Error(`${item.path} of car ${car} answered ${res.status} ${phase}: ${text}`);
          if (Date.now() - started > 90_000) throw new Error(`${item.path} of car ${car} still answered ${res.status} after 90 s of retries (${phase}): ${text}`);
          await pause(200);
        }
        answered++;
      }
    };
    const ready = async () => (await readJson(await fetch(`${s.baseUrl}/health/ready`))).dependencies ?? {};
    /** Waits for `updates` answered; fails at once when a car's feed failed, or ended before (a fault would come after the feed). */
    const progress = async (what: string, updates: number) =>
      until(() => `${what} (${seen()})`, () => {
        if (halted.reason !== undefined) throw halted.reason;
        if (answered >= total && updates > total) throw new Error(`the feed ended before ${what} (${seen()})`);
        return answered >= updates;
      }, 60_000);

    const terminated: number[] = [];
    const brokerOutage = { answeredAtCut: 0, answeredAtReturn: 0 };
    const faults = async () => {
      await progress('a tenth of the feed answered', total / 10);
      phase = 'while Redis is cut';
      await redisProxy.cut();
      await until(() => `the gateway to say the cache is degraded (${seen()})`, async () => (await ready()).cache === 'degraded', 30_000);
      // Updates answered while the gateway has no Redis (keys checked in PostgreSQL).
      await progress('updates answered without Redis', answered + 10);
      await redisProxy.open();
      phase = 'while the database connections are terminated';
      for (let round = 0; round < 3; round++) {
        terminated.push(await terminateEveryBackend(s.databaseUrl));
        await progress('updates answered after a termination', answered + 10);
      }
      phase = 'while the broker is unreachable';
      brokerOutage.answeredAtCut = answered;
      await amqpProxy.cut();
      await pause(BROKER_OUTAGE_MS);
      await amqpProxy.open();
      brokerOutage.answeredAtReturn = answered;
      phase = 'after the broker returned';
    };
    const faulted = faults();
    faulted.catch((err: unknown) => (halted.reason = err));
    const fed = await Promise.allSettled(feeds.map((items, car) => play(car, items).catch((err: unknown) => {
      halted.reason ??= err;
      throw err;
    })));
    expect(fed.filter((r) => r.status === 'rejected')).toEqual([]);
    await faulted;
    process.stdout.write(`timing faults: terminated ${terminated.join(', ')} backends; ${seen()}\n`);

    // Each fault was real and came mid-feed: the gateway saw Redis go, each termination ended connections, and the
    // broker's outage was answered 503/504 with updates still to send after it.
    expect(terminated.map((n) => n > 0)).toEqual([true, true, true]);
    expect((answers.get('while the broker is unreachable: 503') ?? 0) + (answers.get('while the broker is unreachable: 504') ?? 0)).toBeGreaterThan(0);
    expect(brokerOutage.answeredAtReturn).toBeLessThan(total);
    expect(answered).toBe(total);
    expect([...answers.keys()].filter((k) => !/: (200|503|504)$/.test(k))).toEqual([]);
    expect(s.stack.procs.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null).map((p) => p.name)).toEqual([]);

    // Nothing lost, nothing doubled: each car's store is exactly its feed.
    for (const car of session.cars.keys()) expect(await storedTiming(send, m, session, car)).toEqual(expectedTiming(session, car, RUNS, LAPS));

    // Every run, lap, sector and speed trap the feed created is announced, once as an event (a copy only as the same
    // event published again after a lost confirm, docs/events.md), and the outbox drains.
    const stored = new Set<string>();
    for (const car of session.cars.keys()) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      for (const run of (await send(m, 'GET', storedTimingPath(session, car))).body as any[]) {
        stored.add(run.Id);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        for (const lap of run.Laps) for (const child of [lap, ...lap.LapSectors, ...lap.LapSpeedTraps] as any[]) stored.add(child.Id);
      }
    }
    const unannounced = () => [...stored].filter((id) => !created.has(id));
    await until(() => `every stored entity announced created (${unannounced().length} of ${stored.size} not yet)`, () => unannounced().length === 0, 30_000);
    let outbox = -1;
    await until(() => `the entity outbox drained (${outbox} rows left)`, async () => (outbox = await countRows(s.databaseUrl, 'entity.outbox')) === 0, 30_000);
    expect([...created.keys()].filter((id) => !stored.has(id))).toEqual([]);
    expect([...created.entries()].filter(([, copies]) => new Set(copies).size > 1)).toEqual([]);
    const republished = [...created.values()].filter((copies) => copies.length > 1).length;
    if (republished) process.stdout.write(`timing faults: ${republished} created events published again (the same event: at least once)\n`);
  }, 240_000);
});
