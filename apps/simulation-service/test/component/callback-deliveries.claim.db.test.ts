import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { CallbackRepository, type ClaimLimits, type DueDelivery } from '../../src/data-access/callback-repository';
import { useMigratedDatabase } from '../support/migrated-database';

/** Claims of due callback deliveries on the real PostgreSQL (a migrated database, no dispatcher sending them). */
describe('claiming due callback deliveries', () => {
  const database = useMigratedDatabase(8);
  let pool: Pool;
  let repository: CallbackRepository;
  beforeAll(() => {
    pool = database.pool;
    repository = new CallbackRepository(pool);
  });

  const LEASE_MS = 60_000;

  /** A callback of the account, with `due` pending deliveries due from `agoMs` ago on, a millisecond apart (all due). */
  async function buildCallback(accountId: string, due: number, agoMs: number): Promise<string> {
    const id = randomUUID();
    await repository.insert(pool, { id, accountId, url: `https://hooks.example/${id}`, description: null, createdAt: new Date(), sealedSecret: Buffer.from('sealed') });
    await pool.query(
      `INSERT INTO simulation.callback_deliveries (id, callback_id, webhook_id, setup_id, status, body, next_attempt_at, created_at)
       SELECT gen_random_uuid(), $1, gen_random_uuid()::text, gen_random_uuid(), 'Requested', '{}', now() - make_interval(secs => ($3::double precision + $2 - i + 1) / 1000), now()
       FROM generate_series(1, $2::int) AS i`,
      [id, due, agoMs],
    );
    return id;
  }

  const limits = (overrides: Partial<ClaimLimits> = {}): ClaimLimits => ({ limit: 100, perAccount: 3, perCallback: 2, sendingByAccount: new Map(), sendingByCallback: new Map(), ...overrides });
  const countBy = (due: DueDelivery[], key: 'accountId' | 'callbackId') => due.reduce((m, d) => m.set(d[key], (m.get(d[key]) ?? 0) + 1), new Map<string, number>());
  // A claim takes from every account: each test's claims see its own deliveries only (the database is this file's).
  afterEach(() => pool.query(`UPDATE simulation.callback_deliveries SET state = 'delivered' WHERE state = 'pending'`));

  test("when one account has a long backlog due before another account's one delivery, then one claim takes at most perAccount of the backlog and the other account's delivery too", async () => {
    const [slow, other] = [randomUUID(), randomUUID()];
    const backlog = [await buildCallback(slow, 200, 3_600_000), await buildCallback(slow, 200, 3_600_000)];
    const fresh = await buildCallback(other, 1, 0);

    const claimed = await repository.claimDue(limits(), LEASE_MS);
    expect(Object.fromEntries(countBy(claimed, 'accountId'))).toEqual({ [slow]: 3, [other]: 1 });
    // The account's share is spread over its callbacks (at most perCallback of one).
    expect([...countBy(claimed, 'callbackId').entries()].filter(([id]) => backlog.includes(id)).map(([, n]) => n).sort()).toEqual([1, 2]);
    expect(claimed.find((d) => d.accountId === other)).toMatchObject({ callbackId: fresh, url: `https://hooks.example/${fresh}`, attempts: 0 });
  });

  test('when a claim is full, then the accounts with the fewest deliveries in flight come first, whatever is due longest', async () => {
    const [busy, idle] = [randomUUID(), randomUUID()];
    await buildCallback(busy, 50, 3_600_000);
    await buildCallback(idle, 5, 0);

    // The claimer already sends two of the busy account's: a claim of two slots gives both to the idle account.
    const claimed = await repository.claimDue(limits({ limit: 2, sendingByAccount: new Map([[busy, 2]]) }), LEASE_MS);
    expect(claimed.map((d) => d.accountId)).toEqual([idle, idle]);
  });

  test("when the claimer already sends an account or a callback up to its bound, then a claim takes none of it; below them, the account's callbacks with the fewest in flight come first", async () => {
    const account = randomUUID();
    const first = await buildCallback(account, 20, 3_600_000);
    const second = await buildCallback(account, 20, 60_000);

    expect(await repository.claimDue(limits({ sendingByAccount: new Map([[account, 3]]) }), LEASE_MS)).toEqual([]);
    const besideFull = await repository.claimDue(limits({ sendingByAccount: new Map([[account, 2]]), sendingByCallback: new Map([[first, 2]]) }), LEASE_MS);
    expect(besideFull.map((d) => d.callbackId)).toEqual([second]);
    // Two slots of the account left, the first callback busier (though due longer): both go to the second.
    const besideBusier = await repository.claimDue(limits({ perAccount: 4, perCallback: 4, sendingByAccount: new Map([[account, 2]]), sendingByCallback: new Map([[first, 2]]) }), LEASE_MS);
    expect(besideBusier.map((d) => d.callbackId)).toEqual([second, second]);
  });

  test('when deliveries are claimed, then they are leased: no claim takes them again until the lease ends, and concurrent claims never share one', async () => {
    await Promise.all(Array.from({ length: 10 }, () => buildCallback(randomUUID(), 4, 1000)));
    const claims = await Promise.all(Array.from({ length: 6 }, () => repository.claimDue(limits({ perAccount: 4, perCallback: 4 }), LEASE_MS)));
    const ids = claims.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Every due delivery was taken by one claim or another (a claim whose chosen rows another locked took fewer).
    const rest = await repository.claimDue(limits({ perAccount: 4, perCallback: 4 }), LEASE_MS);
    expect(ids.length + rest.length).toBe(40);
    expect(await repository.claimDue(limits({ perAccount: 4, perCallback: 4 }), LEASE_MS)).toEqual([]);

    // A lease run out (the claimer died mid-attempt): the delivery is due again, its attempts as they were.
    const [lost] = ids as [string];
    await pool.query(`UPDATE simulation.callback_deliveries SET next_attempt_at = now() - interval '1 second' WHERE id = $1`, [lost]);
    expect(await repository.claimDue(limits(), LEASE_MS)).toEqual([expect.objectContaining({ id: lost, attempts: 0 })]);
  });

  /** Every node of a JSON plan, nested plans included. */
  const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

  /** The plan of the claim as the repository sends it, executed (EXPLAIN ANALYZE) and rolled back. */
  async function claimPlan(claimLimits: ClaimLimits): Promise<PlanNode[]> {
    const sent: { text: string; values: unknown[] }[] = [];
    const spy = { query: async (text: string, values: unknown[]) => (sent.push({ text, values }), { rows: [] }) } as unknown as Pool;
    await new CallbackRepository(spy).claimDue(claimLimits, LEASE_MS);
    const [claim] = sent as [{ text: string; values: unknown[] }];
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${claim.text}`, claim.values);
      return nodesOf(rows[0]?.['QUERY PLAN'][0].Plan as PlanNode);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }
  /** Rows read from simulation.callbacks by a plan's nodes, over all their loops. */
  const callbackRowsRead = (nodes: PlanNode[]) => nodes.filter((n) => n['Relation Name'] === 'callbacks').reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0);

  test('when thousands of callbacks are registered and few or none have due deliveries, then a claim reads only the callbacks with due work and claims exactly their deliveries', async () => {
    await pool.query(
      `INSERT INTO simulation.callbacks (id, account_id, url, description, sealed_secret)
       SELECT gen_random_uuid(), gen_random_uuid(), 'https://hooks.example/idle', NULL, 'sealed'::bytea FROM generate_series(1, 5000)`,
    );
    await pool.query('ANALYZE simulation.callbacks');

    const idle = await claimPlan(limits());
    expect(idle.filter((n) => n['Relation Name'] === 'callbacks' && n['Node Type'] === 'Seq Scan')).toEqual([]);
    expect(callbackRowsRead(idle)).toBe(0);

    const due = [await buildCallback(randomUUID(), 2, 1000), await buildCallback(randomUUID(), 1, 1000)];
    const busy = await claimPlan(limits());
    expect(busy.filter((n) => n['Relation Name'] === 'callbacks' && n['Node Type'] === 'Seq Scan')).toEqual([]);
    // Each callback with due work is read for the choice and for the claimed rows: never the idle thousands.
    expect(callbackRowsRead(busy)).toBeLessThanOrEqual(2 * (due.length + 3));
    const claimed = await repository.claimDue(limits(), LEASE_MS);
    expect(Object.fromEntries(countBy(claimed, 'callbackId'))).toEqual({ [due[0] as string]: 2, [due[1] as string]: 1 });
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}
