import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { AMQP_URL, DistributedStack, REDIS_URL, type Member, type Stack } from './support/distributed';
import { closeBrokerConnections, until } from './support/broker-faults';
import { testPool } from '@pitwall/db/testing';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { startStack } = require('../../../tools/stack.cjs') as {
  startStack(options: { env: Record<string, string>; apps?: string[]; port?: number; readyPath?: string }): Promise<Stack>;
};

const OUTCOME_UNKNOWN = 'urn:pitwall:problem:outcome-unknown';
/** The apps a championship's write passes through. */
const WRITE_PATH = ['entity-service', 'gateway'];

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * The apps on the real servers (the five, or only the entity-service and the gateway a championship's write passes
 * through: the other three would add nothing but their start), with a database pool to look at what was written.
 */
async function startWith(env: Record<string, string>, apps?: string[]): Promise<{ stack: DistributedStack; db: pg.Pool; member: Member; extra: Stack[] }> {
  const stack = await DistributedStack.start({ env, ...(apps ? { apps } : {}) });
  const db = testPool(stack.databaseUrl);
  return { stack, db, member: await stack.member('admin'), extra: [] };
}

async function stopAll(s: { stack: DistributedStack; db: pg.Pool; extra: Stack[] } | undefined): Promise<void> {
  if (!s) return;
  for (const extra of s.extra) await extra.stop();
  await s.db.end();
  await s.stack.stop();
}

async function send(stack: DistributedStack, m: Member, method: string, path: string, body: unknown, key?: string): Promise<Answer> {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const championship = (name: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: name }] });

async function rows(db: pg.Pool, name: string): Promise<string[]> {
  const { rows: found } = await db.query<{ id: string }>(`SELECT id::text FROM entity.entities WHERE type = 'Championships' AND parameters->>'Name' = $1`, [name]);
  return found.map((r) => r.id);
}

/** Starts another `app` on the stack's database, bus and cache (after a kill -9), the gateway on the stack's port; ready once the gateway says so. */
async function restart(s: { stack: DistributedStack; extra: Stack[] }, app: 'entity-service' | 'gateway', env: Record<string, string> = {}): Promise<void> {
  const prefix = s.stack.prefix;
  const port = Number(new URL(s.stack.baseUrl).port);
  const env0 = { DATABASE_URL: s.stack.databaseUrl, AMQP_URL, REDIS_URL, BUS_PREFIX: `${prefix}.`, REDIS_PREFIX: `${prefix}:`, LOG_LEVEL: 'info', CLAIM_SECRET: s.stack.env['CLAIM_SECRET'] as string, ...env };
  s.extra.push(await startStack({ env: env0, apps: [app], port }));
}

async function kill9(proc: { child: import('node:child_process').ChildProcess }): Promise<void> {
  await new Promise((resolve) => {
    proc.child.once('exit', resolve);
    proc.child.kill('SIGKILL');
  });
}

describe('a write that runs past its deadline', () => {
  let s: Awaited<ReturnType<typeof startWith>> | undefined;
  afterAll(() => stopAll(s));

  test('when the gateway gave up on it, then the service rolls it back: nothing is left behind once the service finished', async () => {
    // The gateway waits 1.5 s; every write is held 4 s inside its transaction (a test-only hook), so it misses its deadline.
    s = await startWith({ BUS_TIMEOUT_MS: '1500', TEST_HOLD_BEFORE_COMMIT_MS: '4000' }, WRITE_PATH);
    const name = `Late ${randomUUID()}`;
    const key = randomUUID();

    const answer = await send(s.stack, s.member, 'POST', '/Championships', championship(name), key);

    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ type: OUTCOME_UNKNOWN, commandId: `key:${key}` });
    const entity = s.stack.stack.procs.find((p) => p.name === 'entity-service')!;
    await until('the entity-service rolled the late write back', () => entity.output.includes('its deadline passed'));
    expect(await rows(s.db, name)).toEqual([]);
    const { rows: commands } = await s.db.query(`SELECT 1 FROM entity.inbox WHERE command_id = $1`, [`key:${key}`]);
    expect(commands).toEqual([]);
  });
});

describe('a kill -9 of the entity-service between the commit of a write and its reply', () => {
  let s: Awaited<ReturnType<typeof startWith>> | undefined;
  afterAll(() => stopAll(s));

  test('then the gateway answers "outcome unknown", and the retry with the key returns the committed entity without writing it again', async () => {
    // Every reply is held a minute after its commit (a test-only hook): the kill lands in that window for certain.
    s = await startWith({ BUS_TIMEOUT_MS: '4000', TEST_HOLD_REPLY_AFTER_COMMIT_MS: '60000' }, WRITE_PATH);
    const keyed = `Keyed ${randomUUID()}`;
    const unkeyed = `Unkeyed ${randomUUID()}`;
    const key = randomUUID();
    const answers = Promise.all([send(s.stack, s.member, 'POST', '/Championships', championship(keyed), key), send(s.stack, s.member, 'POST', '/Championships', championship(unkeyed))]);
    const db = s.db;
    await until('both writes committed', async () => (await rows(db, keyed)).length === 1 && (await rows(db, unkeyed)).length === 1);
    const [committed] = await rows(db, keyed);

    await kill9(s.stack.stack.procs.find((p) => p.name === 'entity-service')!);
    const [keyedAnswer, unkeyedAnswer] = await answers;

    expect(keyedAnswer.status).toBe(504);
    expect(keyedAnswer.body).toMatchObject({ type: OUTCOME_UNKNOWN, commandId: `key:${key}` });
    expect(unkeyedAnswer.status).toBe(504);
    expect(unkeyedAnswer.body.type).toBe(OUTCOME_UNKNOWN);
    await restart(s, 'entity-service', { TEST_HOLD_REPLY_AFTER_COMMIT_MS: '0' });
    const retried = await send(s.stack, s.member, 'POST', '/Championships', championship(keyed), key);
    expect(retried.status).toBe(201);
    expect(retried.body.Id).toBe(committed);
    expect(await rows(db, keyed)).toEqual([committed]);
    // Whether the broker redelivered the unkeyed request to the new instance or it expired, it was written once.
    expect(await rows(db, unkeyed)).toHaveLength(1);
  });
});

describe('a kill -9 of the gateway while writes wait for their replies', () => {
  let s: Awaited<ReturnType<typeof startWith>> | undefined;
  afterAll(() => stopAll(s));

  test('then those clients get no answer, and once a gateway is back the retry with the key returns the committed entity; nothing is written twice', async () => {
    // Every reply is held 3 s after its commit (a test-only hook of the entity-service): the kill lands in that window.
    // The five processes: none of the others may go with the gateway.
    s = await startWith({ TEST_HOLD_REPLY_AFTER_COMMIT_MS: '3000' });
    const keyed = `Keyed ${randomUUID()}`;
    const unkeyed = `Unkeyed ${randomUUID()}`;
    const key = randomUUID();
    const answers = Promise.all([send(s.stack, s.member, 'POST', '/Championships', championship(keyed), key), send(s.stack, s.member, 'POST', '/Championships', championship(unkeyed))].map((p) => p.catch(() => 'no answer')));
    const db = s.db;
    await until('both writes committed', async () => (await rows(db, keyed)).length === 1 && (await rows(db, unkeyed)).length === 1);
    const [committed] = await rows(db, keyed);

    await kill9(s.stack.stack.procs.find((p) => p.name === 'gateway')!);
    expect(await answers).toEqual(['no answer', 'no answer']);
    await restart(s, 'gateway');
    const retried = await send(s.stack, s.member, 'POST', '/Championships', championship(keyed), key);
    expect([retried.status, retried.body.Id]).toEqual([201, committed]);
    expect(await rows(db, keyed)).toEqual([committed]);
    expect(await rows(db, unkeyed)).toHaveLength(1);
    // The entity-service and the other processes did not go with the gateway.
    expect(s.stack.stack.procs.filter((p) => p.name !== 'gateway' && (p.child.exitCode !== null || p.child.signalCode !== null)).map((p) => p.name)).toEqual([]);
  });
});

describe('the broker closes the connection of the entity-service, then of the gateway, while clients write', () => {
  let s: Awaited<ReturnType<typeof startWith>> | undefined;
  afterAll(() => stopAll(s));

  test('then every 2xx is there, no write is doubled, every "not sent" left no trace, and every "outcome unknown" retried with its key returns the original', async () => {
    s = await startWith({ BUS_TIMEOUT_MS: '5000' }, WRITE_PATH);
    const { stack, member, db } = s;
    const created: { name: string; key?: string; answer: Answer }[] = [];
    const updated: { id: string; name: string; key: string; answer: Answer }[] = [];
    const phase = { stop: false };
    const client = async (n: number): Promise<void> => {
      const own = await send(stack, member, 'POST', '/Championships', championship(`Client ${n} ${randomUUID()}`));
      expect(own.status).toBe(201);
      for (let i = 0; !phase.stop; i++) {
        const name = `C${n}.${i} ${randomUUID()}`;
        const key = i % 2 === 0 ? randomUUID() : undefined;
        created.push({ name, ...(key ? { key } : {}), answer: await send(stack, member, 'POST', '/Championships', championship(name), key) });
        if (i % 3 === 0) {
          const updateKey = randomUUID();
          const newName = `U${n}.${i} ${randomUUID()}`;
          updated.push({ id: own.body.Id, name: newName, key: updateKey, answer: await send(stack, member, 'PUT', `/Championships/${own.body.Id}`, championship(newName), updateKey) });
        }
      }
    };
    const clients = Promise.all([0, 1, 2, 3].map(client));
    const entity = stack.stack.procs.find((p) => p.name === 'entity-service')!;
    const gateway = stack.stack.procs.find((p) => p.name === 'gateway')!;
    const closed: number[] = [];
    try {
      await until('some writes answered', () => created.length >= 20);
      closed.push(await closeBrokerConnections(entity.child.pid!, stack.prefix));
      const afterEntityFault = created.length;
      await until('writes answered after the entity-service reconnected', () => created.slice(afterEntityFault + 8).some((c) => c.answer.status === 201));
      closed.push(await closeBrokerConnections(gateway.child.pid!, stack.prefix));
      const afterGatewayFault = created.length;
      await until('writes answered after the gateway reconnected', () => created.slice(afterGatewayFault + 8).some((c) => c.answer.status === 201));
    } finally {
      phase.stop = true;
      await clients;
    }

    expect(closed.every((n) => n > 0)).toBe(true);
    expect(created.every((c) => [201, 503, 504].includes(c.answer.status))).toBe(true);
    for (const c of created) {
      const found = await rows(db, c.name);
      if (c.answer.status === 201) expect(found).toEqual([c.answer.body.Id]);
      else if (c.answer.status === 503) expect(found).toEqual([]);
      else {
        expect(c.answer.body.type).toBe(OUTCOME_UNKNOWN);
        expect(found.length).toBeLessThanOrEqual(1);
        if (c.key) {
          const retried = await send(stack, member, 'POST', '/Championships', championship(c.name), c.key);
          expect(retried.status).toBe(201);
          expect(await rows(db, c.name)).toEqual([retried.body.Id]);
        }
      }
    }
    expect(updated.every((u) => [200, 503, 504].includes(u.answer.status))).toBe(true);
    for (const u of updated.filter((x) => x.answer.status === 504)) {
      expect((await send(stack, member, 'PUT', `/Championships/${u.id}`, championship(u.name), u.key)).status).toBe(200);
    }
  });
});
