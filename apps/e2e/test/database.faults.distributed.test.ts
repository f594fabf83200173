import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DistributedStack, type Member } from './support/distributed';
import { until } from './support/broker-faults';
import { terminateEveryBackend } from './support/database';

interface Answer {
  status: number;
  contentType?: string | null;
  retryAfter?: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** The answer of a create; status 0 when no answer came at all (the gateway gone). */
async function create(stack: DistributedStack, m: Member, name: string, key: string): Promise<Answer> {
  const res = await fetch(`${stack.baseUrl}/Championships`, {
    method: 'POST',
    headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }] }),
  }).catch(() => undefined);
  if (!res) return { status: 0, body: null };
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after'), body: text ? JSON.parse(text) : null };
}

describe('every backend of the database is terminated three times while clients write', () => {
  let stack: DistributedStack | undefined;
  beforeAll(async () => {
    // Five processes on a shared 2-core machine can take longer than the default 30 s to be ready.
    stack = await DistributedStack.start({ readyTimeoutMs: 90_000 });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  test('then no process exits, every acknowledged create is readable, and no request answers 500', async () => {
    // Each create is retried for up to 20 s; each phase is bounded at 30 s.
    const s = stack as DistributedStack;
    const member = await s.member('admin');
    const acknowledged: { name: string; id: string }[] = [];
    const statuses = new Map<number, number>();
    const unavailable: Answer[] = [];
    const phase = { stop: false };
    // A client that retries a create under its key on 503 and 504 until it is answered, as the client library does.
    const writer = async (n: number): Promise<void> => {
      for (let i = 0; !phase.stop; i++) {
        const name = `Writer ${n}.${i} ${randomUUID()}`;
        const key = randomUUID();
        const started = Date.now();
        for (;;) {
          const answer = await create(s, member, name, key);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 503) unavailable.push(answer);
          if (answer.status === 201) {
            acknowledged.push({ name, id: answer.body.Id });
            break;
          }
          // Bounded, so the writers end even when the stack stops answering (the assertions then say why).
          if (![0, 503, 504].includes(answer.status) || Date.now() - started > 20_000) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    };
    const writers = Promise.all([0, 1, 2, 3].map(writer));
    const terminated: number[] = [];
    let stalled: unknown;
    try {
      for (let round = 0; round < 3; round++) {
        const before = acknowledged.length;
        await until('writes acknowledged before the next termination', () => acknowledged.length >= before + 15, 30_000);
        terminated.push(await terminateEveryBackend(s.databaseUrl));
      }
      const after = acknowledged.length;
      await until('writes acknowledged after the last termination', () => acknowledged.length >= after + 15, 30_000);
    } catch (err) {
      // The stack stopped answering: the process exits asserted below say why.
      stalled = err;
    } finally {
      phase.stop = true;
      await writers;
    }

    process.stdout.write(`database faults: terminated ${terminated.join(', ')} backends; answers ${JSON.stringify(Object.fromEntries(statuses))}; ${acknowledged.length} acknowledged\n`);
    expect(s.stack.procs.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null).map((p) => p.name)).toEqual([]);
    expect(stalled).toBeUndefined();
    expect(terminated).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);
    expect(terminated.every((n) => n > 0)).toBe(true);
    expect(statuses.get(500) ?? 0).toBe(0);
    expect([...statuses.keys()].every((status) => [201, 503, 504].includes(status))).toBe(true);
    // A lost connection is a problem+json 503 saying when to retry.
    for (const answer of unavailable) {
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    for (const { id, name } of acknowledged) {
      const res = await fetch(`${s.baseUrl}/Championships/${id}?parametersToInclude=Name`, { headers: { ApiKey: member.apiKey, AccountId: member.accountId } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { Parameters: { Name: string } }).Parameters.Name).toBe(name);
    }
    // Nothing done twice: every name (each create retried under one key) is stored at most once, an acknowledged one
    // exactly once, as its answered id.
    const db = new pg.Client({ connectionString: s.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ name: string; ids: string[] }>(`SELECT parameters->>'Name' AS name, array_agg(id::text) AS ids FROM entity.entities WHERE type = 'Championships' AND account_id = $1 GROUP BY 1`, [member.accountId]);
      expect(rows.filter((r) => r.ids.length > 1)).toEqual([]);
      const stored = new Map(rows.map((r) => [r.name, r.ids]));
      expect(acknowledged.filter(({ id, name }) => stored.get(name)?.[0] !== id)).toEqual([]);
    } finally {
      await db.end();
    }
  }, 240_000);
});
