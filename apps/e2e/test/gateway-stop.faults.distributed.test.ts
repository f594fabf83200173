import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { Client } from 'undici';
import { testPool } from '@pitwall/db/testing';
import { DistributedStack, type Member } from './support/distributed';
import { until } from './support/broker-faults';

// A graceful stop (SIGTERM) of the gateway while clients write over keep-alive connections (docs/operations.md,
// "Stopping"): it stops taking connections, answers every request it took (each last answer on a connection saying
// `Connection: close`) before its bus and pools close, and exits 0; a request it did not take is refused (nothing done).
// Only a request still unanswered when SHUTDOWN_GRACE_MS passes is cut, and the cut is logged.

/** One request as a client saw it: its answer (status, the Connection header, the id made) or the connection error. */
interface Seen {
  name: string;
  sentAt: number;
  answeredAt: number;
  status?: number;
  connection?: string;
  id?: string;
  error?: string;
}

/** An unkeyed create of a championship named `name` on `client`'s one keep-alive connection. */
async function create(client: Client, m: Member, name: string, requestId?: string): Promise<Seen> {
  const sentAt = Date.now();
  try {
    const res = await client.request({
      method: 'POST',
      path: '/Championships',
      headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json', ...(requestId ? { 'X-Request-Id': requestId } : {}) },
      body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }] }),
    });
    const body = (await res.body.json()) as { Id?: string };
    const connection = res.headers['connection'];
    return { name, sentAt, answeredAt: Date.now(), status: res.statusCode, ...(typeof connection === 'string' ? { connection } : {}), ...(body.Id ? { id: body.Id } : {}) };
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } };
    return { name, sentAt, answeredAt: Date.now(), error: e.cause?.code ?? e.code ?? String(err) };
  }
}

/** The championships named `name` (their ids): one per create that was done, whatever its client was answered. */
async function rows(db: pg.Pool, name: string): Promise<string[]> {
  const { rows: found } = await db.query<{ id: string }>(`SELECT id::text FROM entity.entities WHERE type = 'Championships' AND parameters->>'Name' = $1`, [name]);
  return found.map((r) => r.id);
}

async function stored(db: pg.Pool, prefix: string): Promise<number> {
  const { rows: found } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM entity.entities WHERE type = 'Championships' AND parameters->>'Name' LIKE $1`, [`${prefix}%`]);
  return found[0]?.n ?? 0;
}

/** Writes held in their transactions by the entity-service now (TEST_HOLD_BEFORE_COMMIT_MS). */
async function inTransactions(db: pg.Pool): Promise<number> {
  const { rows: open } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'entity-service' AND xact_start IS NOT NULL AND state <> 'idle'`);
  return open[0]?.n ?? 0;
}

/** SIGTERM to the gateway; resolves with its exit code. */
function stopGateway(stack: DistributedStack): Promise<number | null> {
  const gateway = stack.stack.procs.find((p) => p.name === 'gateway');
  if (!gateway) throw new Error('the stack has no gateway');
  return new Promise((resolve) => {
    gateway.child.once('exit', (code) => resolve(code));
    gateway.child.kill('SIGTERM');
  });
}

const gatewayOutput = (stack: DistributedStack) => stack.stack.procs.find((p) => p.name === 'gateway')?.output ?? '';
const GRACE_PASSED = /the shutdown grace \(SHUTDOWN_GRACE_MS/;

/**
 * A stack of this file's own (its gateway is stopped), a pool on its database, and the clients, closed after. Only the
 * apps a championship's create passes through: the other three would add nothing but their start to each test.
 */
function useStack(): { start(env: Record<string, string>): Promise<{ stack: DistributedStack; db: pg.Pool }>; clients: Client[] } {
  let stack: DistributedStack | undefined;
  let db: pg.Pool | undefined;
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.destroy()));
    await db?.end();
    await stack?.stop();
  });
  return {
    clients,
    async start(env) {
      stack = await DistributedStack.start({ apps: ['entity-service', 'gateway'], env });
      db = testPool(stack.databaseUrl);
      return { stack, db };
    },
  };
}

describe('a SIGTERM of the gateway while clients write over keep-alive connections', () => {
  const held = useStack();

  test('then every request it took is answered (the last on each connection saying Connection: close) and every 2xx is stored once; a request it did not take is refused with nothing stored; it exits 0 without cutting any', async () => {
    // Each write held 1 s in its transaction (a test-only hook): the signal comes while one of each client's is held.
    const { stack: s, db } = await held.start({ TEST_HOLD_BEFORE_COMMIT_MS: '1000' });
    const prefix = `Drain ${randomUUID()}`;
    // Each client in an account of its own (an account's writes wait for each other), on one keep-alive connection.
    const members = await Promise.all([0, 1, 2, 3, 4].map(() => s.member('admin')));
    const client = (i: number) => {
      const c = new Client(s.baseUrl, { pipelining: 1 });
      held.clients.push(c);
      return { c, m: members[i] as Member };
    };
    const seen: Seen[][] = [[], [], [], []];
    let signalledAt = Infinity;
    // Each writes until a request of its own fails after the signal (its connection refused), at most for a minute.
    const writer = async (i: number): Promise<void> => {
      const { c, m } = client(i);
      const until = Date.now() + 60_000;
      for (let n = 0; Date.now() < until; n++) {
        const answer = await create(c, m, `${prefix} ${i}.${n}`);
        seen[i]?.push(answer);
        if (answer.error && answer.sentAt >= signalledAt) return;
        if (answer.error) await new Promise((r) => setTimeout(r, 50));
      }
    };
    // The fifth client's connection is idle when the signal comes: it wrote once before.
    const idle = client(4);
    const before = await create(idle.c, idle.m, `${prefix} idle before`);
    expect(before.status).toBe(201);

    const writers = Promise.all([0, 1, 2, 3].map(writer));
    await until('each writer answered twice and four writes held in their transactions', async () => seen.every((w) => w.filter((a) => a.status === 201).length >= 2) && (await inTransactions(db)) >= 4);
    signalledAt = Date.now();
    const exited = stopGateway(s);
    // Sent once the gateway has begun its stop, while it still answers the writes it took: not taken.
    await until('the gateway to begin its stop', () => gatewayOutput(s).includes('"shutting down"'));
    const idleAfter = await create(idle.c, idle.m, `${prefix} idle after`);
    const exitCode = await exited;
    await writers;

    const all = seen.flat();
    // Every request was answered 201 or failed on its connection; none other.
    expect(all.filter((a) => a.status !== 201 && a.error === undefined)).toEqual([]);
    // Each 2xx is stored once as answered; a request that got no answer was never taken: nothing stored.
    for (const a of [...all, before, idleAfter]) expect({ name: a.name, rows: await rows(db, a.name) }).toEqual({ name: a.name, rows: a.id ? [a.id] : [] });
    expect(await stored(db, prefix)).toBe(all.filter((a) => a.status === 201).length + 1);
    // Each failure was a connection not taken: refused, or closed idle under it.
    for (const a of [...all, idleAfter].filter((x) => x.error)) expect(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']).toContain(a.error);
    expect(idleAfter.error).toBeDefined();

    // After the signal a keep-alive connection gets one more answer at most besides an answer written before the
    // signal and read after it, and its last says Connection: close; the writes held at the signal were answered so.
    for (const [i, w] of seen.entries()) {
      const after = w.filter((a) => a.answeredAt >= signalledAt && a.status !== undefined);
      expect({ client: i, keptAlive: after.slice(1).filter((a) => a.connection !== 'close').length }).toEqual({ client: i, keptAlive: 0 });
      expect(after.length).toBeLessThanOrEqual(2);
    }
    expect(all.filter((a) => a.connection === 'close').length).toBeGreaterThanOrEqual(1);
    // It exited by itself within the grace (before its deadline's exit 1), cutting nothing.
    expect(exitCode).toBe(0);
    expect(gatewayOutput(s)).not.toMatch(GRACE_PASSED);
  }, 180_000);
});

describe('a SIGTERM of the gateway while a request runs longer than SHUTDOWN_GRACE_MS', () => {
  const held = useStack();

  test('then that request is cut when the grace passes, the cut is logged with its request id, and the gateway exits 0', async () => {
    // The write is held 6 s in its transaction, the gateway's grace is 1 s.
    const { stack: s, db } = await held.start({ TEST_HOLD_BEFORE_COMMIT_MS: '6000', SHUTDOWN_GRACE_MS: '1000' });
    const m = await s.member('admin');
    const c = new Client(s.baseUrl);
    held.clients.push(c);
    const requestId = `slow-${randomUUID()}`;
    const name = `Slow ${randomUUID()}`;
    const answer = create(c, m, name, requestId);
    await until('the write to be held in its transaction', async () => (await inTransactions(db)) >= 1);
    const exitCode = await stopGateway(s);
    const seen = await answer;

    expect(seen.status).toBeUndefined();
    expect(['UND_ERR_SOCKET', 'ECONNRESET']).toContain(seen.error);
    expect(exitCode).toBe(0);
    const line = gatewayOutput(s)
      .split('\n')
      .find((l) => GRACE_PASSED.test(l));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 40, graceMs: 1000, requestsCut: 1, requestIds: [requestId] });
    // The write itself was taken by the entity-service, which goes on: it commits unanswered (a retry with an
    // Idempotency-Key learns it; docs/operations.md).
    await until('the cut write to commit', async () => (await rows(db, name)).length === 1);
  }, 120_000);
});
