import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { CallbackRepository, type ClaimLimits } from '../../src/data-access/callback-repository';
import { useMigratedDatabase } from '../support/migrated-database';

/** The callback list, deletes and sweeps over many deliveries, on the real PostgreSQL (a migrated database, nothing sending). */
describe('listing and deleting callbacks whatever their deliveries', () => {
  const database = useMigratedDatabase(4);
  let pool: Pool;
  let repository: CallbackRepository;
  beforeAll(() => {
    pool = database.pool;
    repository = new CallbackRepository(pool);
  });

  const LEASE_MS = 60_000;
  const limits = (overrides: Partial<ClaimLimits> = {}): ClaimLimits => ({ limit: 1000, perAccount: 1000, perCallback: 1000, sendingByAccount: new Map(), sendingByCallback: new Map(), ...overrides });

  async function buildCallback(accountId: string): Promise<string> {
    const id = randomUUID();
    await repository.insert(pool, { id, accountId, url: `https://hooks.example/${id}`, description: null, createdAt: new Date(), sealedSecret: Buffer.from('sealed') });
    return id;
  }

  /** `count` deliveries of the callback in `state` (the failed ones and half the pending ones with an error), in one statement. */
  async function addDeliveries(callbackId: string, state: 'pending' | 'delivered' | 'failed', count: number, endedDaysAgo = 0): Promise<void> {
    await pool.query(
      `INSERT INTO simulation.callback_deliveries (id, callback_id, webhook_id, setup_id, status, body, state, attempts, last_attempt_at, last_error, next_attempt_at)
       SELECT gen_random_uuid(), $1, gen_random_uuid()::text, gen_random_uuid(), 'Running', '{}', $2, 1,
              now() - make_interval(days => $4) - make_interval(secs => i), CASE WHEN $2 = 'failed' OR ($2 = 'pending' AND i % 2 = 0) THEN 'The receiver answered 500 Internal Server Error' END,
              now() + interval '1 hour'
       FROM generate_series(1, $3::int) AS i`,
      [callbackId, state, count, endedDaysAgo],
    );
  }

  /** The deliveries as rows, counted: what the list's counters must say. */
  async function counted(callbackId: string): Promise<{ delivered: number; pending: number; failed: number }> {
    const { rows } = await pool.query<{ state: string; n: number }>('SELECT state, count(*)::int AS n FROM simulation.callback_deliveries WHERE callback_id = $1 GROUP BY state', [callbackId]);
    const by = Object.fromEntries(rows.map((r) => [r.state, r.n]));
    return { delivered: by['delivered'] ?? 0, pending: by['pending'] ?? 0, failed: by['failed'] ?? 0 };
  }

  const listed = async (accountId: string, callbackId: string) => (await repository.list(accountId)).find((c) => c.id === callbackId);

  /** Every node of the plan of one statement the repository sends (the first), executed (EXPLAIN ANALYZE) and rolled back. */
  async function planOf(call: (spied: CallbackRepository, spy: Pool) => Promise<unknown>): Promise<PlanNode[]> {
    const sent: { text: string; values: unknown[] }[] = [];
    const spy = { query: async (text: string, values: unknown[]) => (sent.push({ text, values }), { rows: [], rowCount: 0 }) } as unknown as Pool;
    await call(new CallbackRepository(spy), spy);
    const [statement] = sent as [{ text: string; values: unknown[] }];
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
      return nodesOf(rows[0]?.['QUERY PLAN'][0].Plan as PlanNode);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }
  const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
  const deliveryRowsRead = (nodes: PlanNode[]) => nodes.filter((n) => n['Relation Name'] === 'callback_deliveries').reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0);
  const seqScans = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'callback_deliveries');

  test('when deliveries are written, attempted, retried, given up and swept, then the list counts them by state exactly as their rows say', async () => {
    const accountId = randomUUID();
    const [first, second] = [await buildCallback(accountId), await buildCallback(accountId)];
    const enqueued = await repository.enqueue(
      pool,
      Array.from({ length: 6 }, (_, i) => ({ accountId, webhookId: randomUUID(), setupId: randomUUID(), status: 'Running', body: `{"n":${i}}` })),
    );
    expect(enqueued).toBe(6);
    expect(await repository.writeDeliveries(1000)).toEqual({ messages: 6, deliveries: 12 });
    expect((await listed(accountId, first))?.deliveries).toEqual({ delivered: 0, pending: 6, failed: 0 });

    // A claim only leases them: nothing changes state.
    const claimed = await repository.claimDue(limits(), LEASE_MS);
    expect(claimed).toHaveLength(12);
    expect((await listed(accountId, second))?.deliveries).toEqual({ delivered: 0, pending: 6, failed: 0 });

    const mine = claimed.filter((d) => d.callbackId === first);
    await repository.recordAttempt(mine[0]?.id as string, { ok: true, statusCode: 204 });
    await repository.recordAttempt(mine[1]?.id as string, { ok: false, statusCode: 500, error: 'The receiver answered 500 Internal Server Error', retryAt: new Date(Date.now() + 60_000) });
    await repository.recordAttempt(mine[2]?.id as string, { ok: false, statusCode: null, error: 'The request to the receiver failed: ECONNREFUSED (given up after 8 attempts)', retryAt: null });
    // A late record of an attempt whose delivery another attempt already ended changes nothing.
    await repository.recordAttempt(mine[0]?.id as string, { ok: false, statusCode: 500, error: 'late', retryAt: null });
    await repository.recordAttempt(mine[2]?.id as string, { ok: true, statusCode: 200 });
    expect((await listed(accountId, first))?.deliveries).toEqual({ delivered: 1, pending: 4, failed: 1 });
    expect((await listed(accountId, first))?.deliveries).toEqual(await counted(first));
    expect((await listed(accountId, first))?.recentFailures.map((f) => [f.state, f.lastError])).toEqual([
      ['failed', 'The request to the receiver failed: ECONNREFUSED (given up after 8 attempts)'],
      ['retrying', 'The receiver answered 500 Internal Server Error'],
    ]);

    // Ended deliveries older than the kept days are swept in batches; the pending and the recent stay.
    await addDeliveries(first, 'delivered', 250, 31);
    await addDeliveries(first, 'failed', 40, 31);
    await addDeliveries(first, 'pending', 10, 31);
    expect((await listed(accountId, first))?.deliveries).toEqual({ delivered: 251, pending: 14, failed: 41 });
    expect(await repository.sweepEnded(30, 100)).toBe(290);
    expect((await listed(accountId, first))?.deliveries).toEqual({ delivered: 1, pending: 14, failed: 1 });
    expect((await listed(accountId, first))?.deliveries).toEqual(await counted(first));
    expect((await listed(accountId, second))?.deliveries).toEqual(await counted(second));
  });

  test('when a callback holds tens of thousands of deliveries, then the list reads at most its 20 latest failures of them, and a delete reads none', async () => {
    const accountId = randomUUID();
    const busy = await buildCallback(accountId);
    const idle = await buildCallback(accountId);
    await addDeliveries(busy, 'delivered', 40_000);
    await addDeliveries(busy, 'pending', 6_000);
    await addDeliveries(busy, 'failed', 4_000);
    expect((await listed(accountId, busy))?.deliveries).toEqual({ delivered: 40_000, pending: 6_000, failed: 4_000 });
    expect((await listed(accountId, busy))?.recentFailures).toHaveLength(20);
    expect((await listed(accountId, idle))?.deliveries).toEqual({ delivered: 0, pending: 0, failed: 0 });

    // Before and after the planner has statistics (the embedded database never gathers them by itself).
    for (const analysed of [false, true]) {
      if (analysed) await pool.query('ANALYZE simulation.callback_deliveries; ANALYZE simulation.callbacks');
      const list = await planOf((spied) => spied.list(accountId));
      expect(seqScans(list)).toEqual([]);
      expect(deliveryRowsRead(list)).toBeLessThanOrEqual(20);
      const remove = await planOf((spied, spy) => spied.delete(spy, accountId, busy));
      expect(deliveryRowsRead(remove)).toBe(0);
    }
  });

  test('when a callback is deleted, then it is no longer listed, counted against the account nor claimed from at once, and what it left is removed in batches', async () => {
    const accountId = randomUUID();
    const gone = await buildCallback(accountId);
    const kept = await buildCallback(accountId);
    await addDeliveries(gone, 'delivered', 2_500);
    await repository.enqueue(pool, [{ accountId, webhookId: randomUUID(), setupId: randomUUID(), status: 'Running', body: '{}' }]);
    expect(await repository.writeDeliveries(1000)).toEqual({ messages: 1, deliveries: 2 });

    expect(await repository.delete(pool, accountId, gone)).toBe(true);
    expect(await repository.delete(pool, accountId, gone)).toBe(false);
    expect((await repository.list(accountId)).map((c) => c.id)).toEqual([kept]);
    expect(await repository.countForUpdate(pool, accountId)).toBe(1);
    const claimed = await repository.claimDue(limits(), LEASE_MS);
    expect(claimed.filter((d) => d.accountId === accountId).map((d) => d.callbackId)).toEqual([kept]);
    // A step that read the callback before its delete committed writes a delivery after it: it goes too.
    await pool.query(`INSERT INTO simulation.callback_deliveries (id, callback_id, webhook_id, setup_id, status, body) VALUES (gen_random_uuid(), $1, 'late', gen_random_uuid(), 'Running', '{}')`, [gone]);

    expect(await repository.purgeDeleted(1_000)).toBe(2_502);
    expect((await counted(gone)).delivered + (await counted(gone)).pending).toBe(0);
    expect((await pool.query('SELECT 1 FROM simulation.callbacks WHERE id = $1', [gone])).rowCount).toBe(0);
    expect((await listed(accountId, kept))?.deliveries).toEqual(await counted(kept));
    expect(await repository.purgeDeleted(1_000)).toBe(0);
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}
