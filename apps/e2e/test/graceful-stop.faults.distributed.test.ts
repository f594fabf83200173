import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { testPool } from '@pitwall/db/testing';
import { AMQP_URL, DistributedStack, REDIS_URL, type Member, type Stack } from './support/distributed';
import { until } from './support/broker-faults';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { startStack } = require('../../../tools/stack.cjs') as {
  startStack(options: { env: Record<string, string>; apps?: string[]; port?: number }): Promise<Stack>;
};

// A graceful stop (SIGTERM) of the only entity-service instance while clients write (docs/operations.md, "Stopping"):
// what it took it finishes and answers; what it did not take is answered 503 (not sent, nothing done) or, sent in the
// moment before the gateway saw it go, 504 outcome-unknown (settled by its Idempotency-Key once an instance is back).

const OUTCOME_UNKNOWN = 'urn:pitwall:problem:outcome-unknown';

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  retryAfter: string | null;
}

async function send(stack: DistributedStack, m: Member, method: string, path: string, body: unknown, key: string): Promise<Answer> {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, retryAfter: res.headers.get('retry-after') };
}

const championship = (name: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: name }] });

/** The championships named `name` (their ids): one per create, whatever its answer said. */
async function rows(db: pg.Pool, name: string): Promise<string[]> {
  const { rows: found } = await db.query<{ id: string }>(`SELECT id::text FROM entity.entities WHERE type = 'Championships' AND parameters->>'Name' = $1`, [name]);
  return found.map((r) => r.id);
}

async function nameOf(db: pg.Pool, id: string): Promise<string | undefined> {
  const { rows: found } = await db.query<{ name: string }>(`SELECT parameters->>'Name' AS name FROM entity.entities WHERE id = $1`, [id]);
  return found[0]?.name;
}

/** SIGTERM to the entity-service; resolves with its exit code. */
async function stopGracefully(stack: DistributedStack): Promise<number | null> {
  const entity = stack.stack.procs.find((p) => p.name === 'entity-service');
  if (!entity) throw new Error('the stack has no entity-service');
  return new Promise((resolve) => {
    entity.child.once('exit', (code) => resolve(code));
    entity.child.kill('SIGTERM');
  });
}

/** Another entity-service on the stack's database, bus and cache (its only instance again). */
async function startEntityService(stack: DistributedStack, extra: Stack[], env: Record<string, string> = {}): Promise<void> {
  const port = Number(new URL(stack.baseUrl).port);
  const { prefix } = stack;
  extra.push(await startStack({ env: { DATABASE_URL: stack.databaseUrl, AMQP_URL, REDIS_URL, BUS_PREFIX: `${prefix}.`, REDIS_PREFIX: `${prefix}:`, LOG_LEVEL: 'info', CLAIM_SECRET: stack.env['CLAIM_SECRET'] as string, ...env }, apps: ['entity-service'], port }));
}

/**
 * What a test below starts, stopped after it: the stack, a pool on its database, and entity-services started again.
 * Only the apps a championship's write passes through: the other three would add nothing but their start to each test.
 */
function useStopped(): { start(env: Record<string, string>): Promise<{ stack: DistributedStack; pool: pg.Pool }>; extra: Stack[] } {
  let stack: DistributedStack | undefined;
  let db: pg.Pool | undefined;
  const extra: Stack[] = [];
  afterAll(async () => {
    for (const s of extra) await s.stop();
    await db?.end();
    await stack?.stop();
  });
  return {
    extra,
    async start(env) {
      stack = await DistributedStack.start({ apps: ['entity-service', 'gateway'], env });
      db = testPool(stack.databaseUrl);
      return { stack, pool: db };
    },
  };
}

describe('a SIGTERM of the only entity-service while writes it took are in their transactions', () => {
  const held = useStopped();

  test('then each of them commits and is answered 2xx, once, and the service exits 0', async () => {
    // Every write is held 1.5 s inside its transaction (a test-only hook): the signal lands while they all run.
    const { stack: s, pool } = await held.start({ TEST_HOLD_BEFORE_COMMIT_MS: '1500' });
    // Each write in an account of its own, so none waits for another's lock.
    const members = await Promise.all([0, 1, 2, 3, 4, 5].map(() => s.member('admin')));
    const [a, b, c, d, e, f] = members as [Member, Member, Member, Member, Member, Member];
    const own = await Promise.all([e, f].map((m, i) => send(s, m, 'POST', '/Championships', championship(`Own ${i} ${randomUUID()}`), randomUUID())));
    expect(own.map((o) => o.status)).toEqual([201, 201]);

    const creates = [a, b, c, d].map((m) => ({ m, name: `Create ${randomUUID()}` }));
    const updates = [e, f].map((m, i) => ({ m, id: own[i]?.body.Id as string, name: `Update ${randomUUID()}` }));
    const answers = Promise.all([
      ...creates.map((w) => send(s, w.m, 'POST', '/Championships', championship(w.name), randomUUID())),
      ...updates.map((u) => send(s, u.m, 'PUT', `/Championships/${u.id}`, championship(u.name), randomUUID())),
    ]);
    // All six inside their transactions, held: the entity-service took them.
    await until('the six writes to be in their transactions', async () => {
      const { rows: open } = await pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'entity-service' AND xact_start IS NOT NULL`);
      return (open[0] as { n: number }).n >= 6;
    });

    const exitCode = await stopGracefully(s);
    const answered = await answers;

    expect({ exitCode, statuses: answered.map((a) => a.status) }).toEqual({ exitCode: 0, statuses: [201, 201, 201, 201, 200, 200] });
    for (const [i, w] of creates.entries()) expect(await rows(pool, w.name)).toEqual([answered[i]?.body.Id]);
    for (const u of updates) expect(await nameOf(pool, u.id)).toBe(u.name);
  }, 120_000);
});

describe('a SIGTERM of the only entity-service under a steady load of writes', () => {
  const held = useStopped();

  test('then every write it took is answered 2xx; the others 503 (not sent) or, sent as it stopped, 504 outcome-unknown (settled by its key once an instance is back); nothing is lost or written twice', async () => {
    // Each write held 700 ms in its transaction (a test-only hook), longer than the gateway's look at the queue takes
    // to come round (SERVICE_PRESENCE_INTERVAL_MS, 500 ms): the writes in flight at the signal are in flight at a look.
    const { stack: s, pool } = await held.start({ TEST_HOLD_BEFORE_COMMIT_MS: '700' });
    const writes: { m: Member; name: string; key: string; method: 'POST' | 'PUT'; id?: string; answeredAt: number; answer: Answer }[] = [];
    const phase = { stop: false };
    // Each client in an account of its own: an account's writes wait for each other (its version row).
    const client = async (n: number): Promise<void> => {
      const m = await s.member('admin');
      const own = await send(s, m, 'POST', '/Championships', championship(`Client ${n} ${randomUUID()}`), randomUUID());
      expect(own.status).toBe(201);
      for (let i = 0; !phase.stop; i++) {
        const key = randomUUID();
        if (i % 3 === 2) {
          const name = `U${n}.${i} ${randomUUID()}`;
          const answer = await send(s, m, 'PUT', `/Championships/${own.body.Id}`, championship(name), key);
          writes.push({ m, name, key, method: 'PUT', id: own.body.Id, answeredAt: Date.now(), answer });
        } else {
          const name = `C${n}.${i} ${randomUUID()}`;
          const answer = await send(s, m, 'POST', '/Championships', championship(name), key);
          writes.push({ m, name, key, method: 'POST', answeredAt: Date.now(), answer });
        }
        // Once the service is gone the answers come at once: no need to spin.
        if (writes.at(-1)?.answer.status === 503) await new Promise((r) => setTimeout(r, 20));
      }
    };
    const clients = Promise.all([0, 1, 2, 3, 4, 5].map(client));
    let signalledAt = 0;
    let exitCode: number | null = null;
    try {
      await until('writes under way', () => writes.filter((w) => w.answer.status < 300).length >= 24);
      signalledAt = Date.now();
      exitCode = await stopGracefully(s);
      // Writes go on meanwhile and a while after it is gone.
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      phase.stop = true;
      await clients;
    }

    expect(exitCode).toBe(0);
    const seen = (statuses: number[]) => writes.filter((w) => statuses.includes(w.answer.status));
    expect(seen([201, 200, 503, 504])).toHaveLength(writes.length);
    // Writes in flight at the signal were finished and answered by the stopping instance.
    expect(writes.filter((w) => w.answeredAt > signalledAt && w.answer.status < 300).length).toBeGreaterThan(0);
    // Whatever it did (its inbox holds the command, committed with the write) was answered 2xx; a 503 or a 504 it never took.
    const { rows: done } = await pool.query<{ command_id: string }>(`SELECT command_id FROM entity.inbox WHERE command_id = ANY($1)`, [writes.map((w) => `key:${w.key}`)]);
    const doneKeys = new Set(done.map((r) => r.command_id.slice('key:'.length)));
    expect(writes.filter((w) => doneKeys.has(w.key) !== w.answer.status < 300).map((w) => `${w.method} ${w.answer.status} ${JSON.stringify(w.answer.body)}`)).toEqual([]);
    for (const w of seen([503])) expect([w.answer.body.detail, w.answer.retryAfter]).toEqual([expect.stringContaining('entity service has no running instance'), '2']);
    for (const w of seen([504])) expect([w.answer.body, w.answer.retryAfter]).toEqual([expect.objectContaining({ type: OUTCOME_UNKNOWN, detail: expect.stringContaining('lost its last running instance') }), '2']);

    // Outcome-unknown writes are settled by their keys once an instance is back; 503s were never sent.
    await startEntityService(s, held.extra, { TEST_HOLD_BEFORE_COMMIT_MS: '0' });
    for (const w of seen([504])) {
      const retried = await send(s, w.m, w.method, w.method === 'POST' ? '/Championships' : `/Championships/${w.id}`, championship(w.name), w.key);
      expect(retried.status).toBe(w.method === 'POST' ? 201 : 200);
      if (w.method === 'POST') w.answer = retried;
    }
    for (const w of writes.filter((x) => x.method === 'POST')) {
      const found = await rows(pool, w.name);
      if (w.answer.status === 201) expect(found).toEqual([w.answer.body.Id]);
      else expect(found).toEqual([]);
    }
  }, 180_000);
});
