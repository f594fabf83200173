import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createOutbox } from '@pitwall/messaging';
import { createLogger } from '@pitwall/service-kit';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { AccountShares } from '../../src/domain/account-shares';
import { SIMULATION_SCHEMA } from '../../src/data-access/migrations';
import { useMigratedDatabase } from '../support/migrated-database';

const SHARE = 2;
const LEASE_MS = 60_000;
/** A woken job's message is presumed lost after this (SIMULATION_JOB_REPUBLISH_MS), then after as long as it waited, up to the max. */
const REPUBLISH_MS = 10 * 60_000;
const MAX_REPUBLISH_MS = 60 * 60_000;

/** Waking an account's waiting jobs on the real PostgreSQL (a migrated database, nothing consuming what is woken). */
describe('waking the jobs that waited for their account share', () => {
  const database = useMigratedDatabase(4);
  let pool: Pool;
  let repository: SimulationRepository;
  beforeAll(() => {
    pool = database.pool;
    repository = new SimulationRepository(pool);
  });

  /** `count` jobs of the account, each its setup's latest run at `Requested`, created a millisecond apart (oldest first). */
  async function buildJobs(accountId: string, count: number, waiting: boolean): Promise<{ id: string; accountId: string }[]> {
    const jobs = Array.from({ length: count }, () => ({ id: randomUUID(), accountId, setupId: randomUUID() }));
    for (const [i, job] of jobs.entries()) {
      await pool.query(
        `INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, state, sequence, waiting, created_at)
         VALUES ($1, $2, $3, $4, 'trigger', 'Requested', 1, $5, now() - make_interval(secs => $6::double precision / 1000))`,
        [job.id, accountId, randomUUID(), job.setupId, waiting, 1_000 - i],
      );
      await pool.query('INSERT INTO simulation.setup_runs (account_id, setup_id, job_id) VALUES ($1, $2, $3)', [accountId, job.setupId, job.id]);
    }
    return jobs;
  }

  /**
   * The plan of one statement a repository call sends (the first, or the first holding `containing`), executed (EXPLAIN
   * ANALYZE) and rolled back; `$1` may be given another value (`accountId`).
   */
  async function planOf(call: (spy: Pool) => Promise<unknown>, which: 0 | string, accountId?: string): Promise<PlanNode[]> {
    const sent: { text: string; values: unknown[] }[] = [];
    const query = async (text: string, values: unknown[] = []) => {
      sent.push({ text, values });
      return { rows: [{ running: 0, elapsed_ms: 0 }], rowCount: 0 };
    };
    const spy = { query, connect: async () => ({ query, release: () => undefined }) } as unknown as Pool;
    await call(spy).catch(() => undefined);
    const statement = which === 0 ? sent[0] : sent.find((s) => s.text.includes(which));
    if (!statement) throw new Error(`no statement ${String(which)} was sent`);
    const values = accountId ? [accountId, ...statement.values.slice(1)] : statement.values;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, values);
      return nodesOf(rows[0]?.['QUERY PLAN'][0].Plan as PlanNode);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }
  const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
  /** Rows read from the tables by a plan's scans, over all their loops (rows a scan's filter removed included). */
  const rowsRead = (nodes: PlanNode[]) => nodes.filter((n) => n['Relation Name'] !== undefined).reduce((sum, n) => sum + (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * n['Actual Loops'], 0);

  /**
   * One wake as AccountShares runs it, committed (its jobs would be published in the same transaction): the ids of the
   * woken jobs published again (their message may be lost) and of the waiting jobs woken, each sorted.
   */
  async function pass(): Promise<{ again: string[]; woken: string[] }> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const again = await repository.republishLapsed(client, REPUBLISH_MS, MAX_REPUBLISH_MS);
      const woken = await repository.wakeWaiting(client, SHARE, REPUBLISH_MS);
      await client.query('COMMIT');
      return { again: again.map((j) => j.id).sort(), woken: woken.map((j) => j.id).sort() };
    } finally {
      client.release();
    }
  }
  /** The waiting jobs one wake wakes (asserting it publishes no woken job again). */
  async function wake(): Promise<string[]> {
    const { again, woken } = await pass();
    expect(again).toEqual([]);
    return woken;
  }
  const holdOf = async (id: string | undefined) =>
    (await pool.query<{ waiting: boolean; held: boolean; ahead_ms: number | null }>(
      `SELECT waiting, woken_until IS NOT NULL AS held, (extract(epoch FROM woken_until - now()) * 1000)::float8 AS ahead_ms FROM simulation.jobs WHERE id = $1`,
      [id],
    )).rows[0];

  test('when waiting jobs are woken and no worker has taken them yet, then the next wakes publish none again and a fresh delivery of another job waits, however long their messages wait; each admitted one frees its slot for the next oldest', async () => {
    const accountId = randomUUID();
    const waiting = await buildJobs(accountId, 5, true);
    const ids = waiting.map((j) => j.id);

    // The account's 2 slots are free: its 2 oldest waiting jobs are woken, and they hold the slots until taken.
    expect(await wake()).toEqual(ids.slice(0, 2).sort());
    expect(await wake()).toEqual([]);
    expect(await wake()).toEqual([]);

    // A job published for the first time meanwhile finds its account's slots held by the woken ones: it waits its turn.
    const [fresh] = await buildJobs(accountId, 1, false);
    expect(await repository.admit(fresh as { id: string; accountId: string }, randomUUID(), SHARE, LEASE_MS)).toEqual({ outcome: 'wait' });

    // The first woken job reaches a worker: it runs in the slot it held; nothing more is woken (one runs, one is held).
    expect(await repository.admit(waiting[0] as { id: string; accountId: string }, randomUUID(), SHARE, LEASE_MS)).toMatchObject({ outcome: 'run' });
    expect(await wake()).toEqual([]);

    // The second woken job's message waits in the job queue far longer than a worker's lease (every worker busy with
    // other accounts' long studies): it keeps its slot, and nothing more of the account is woken (before, its hold
    // lapsed with a lease and each wake published the next oldest beside its queued message).
    await pool.query(`UPDATE simulation.jobs SET woken_at = now() - interval '5 minutes' WHERE id = $1`, [ids[1]]);
    expect(await wake()).toEqual([]);

    // The second one ends: its slot goes to the next oldest.
    await repository.advance(pool, ids[1] as string, { status: 'Processing completed', studyId: null, message: null });
    expect(await wake()).toEqual([ids[2]]);
    expect(await wake()).toEqual([]);
  });

  test("when a woken job's message is not taken by a worker within SIMULATION_JOB_REPUBLISH_MS (it may be lost), then that job is published again, keeping its slot, and next after as long again as it has waited; the account's other jobs stay waiting", async () => {
    const accountId = randomUUID();
    const ids = (await buildJobs(accountId, 4, true)).map((j) => j.id);
    expect(await wake()).toEqual(ids.slice(0, 2).sort());

    // Its deadline passed, woken 30 minutes ago: the job itself is published again (not the next oldest), its slot kept.
    await pool.query(`UPDATE simulation.jobs SET woken_at = now() - interval '30 minutes', woken_until = now() - interval '1 second' WHERE id = $1`, [ids[0]]);
    expect(await pass()).toEqual({ again: [ids[0]], woken: [] });
    expect(await holdOf(ids[0])).toMatchObject({ waiting: false, held: true });
    // Its next deadline is as far as it has waited (30 minutes), more than the bound: the next wakes leave it be.
    expect((await holdOf(ids[0]))?.ahead_ms).toBeGreaterThan(REPUBLISH_MS);
    expect(await pass()).toEqual({ again: [], woken: [] });

    // Taken by a worker at last (a copy is acked without running: run-simulations.second-delivery.test.ts): its slot
    // is the run's, and a third is woken when another ends.
    expect(await repository.admit({ id: ids[0] as string, accountId }, randomUUID(), SHARE, LEASE_MS)).toMatchObject({ outcome: 'run' });
    expect(await pass()).toEqual({ again: [], woken: [] });
    await repository.advance(pool, ids[1] as string, { status: 'Processing completed', studyId: null, message: null });
    expect(await wake()).toEqual([ids[2]]);
  });

  test('when a woken job whose message is presumed lost can no longer run, then it is not published again: one another run holds waits for that run, one superseded holds nothing', async () => {
    const accountId = randomUUID();
    const ids = (await buildJobs(accountId, 4, true)).map((j) => j.id);
    expect(await wake()).toEqual(ids.slice(0, 2).sort());
    // The first is run by a worker under a live lease (a run thought dead came back); the second's setup has a newer run.
    await pool.query(`UPDATE simulation.jobs SET runner = gen_random_uuid(), runner_until = now() + interval '1 minute' WHERE id = $1`, [ids[0]]);
    await pool.query('UPDATE simulation.setup_runs SET job_id = gen_random_uuid() WHERE job_id = $1', [ids[1]]);
    await pool.query(`UPDATE simulation.jobs SET woken_until = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [ids.slice(0, 2)]);

    // Neither is published again; the superseded one's slot goes to the next oldest, the running one keeps its own.
    expect(await pass()).toEqual({ again: [], woken: [ids[2]] });
    expect(await holdOf(ids[0])).toMatchObject({ waiting: true, held: false });
    expect(await holdOf(ids[1])).toMatchObject({ waiting: false, held: false });
  });

  test("when the service starts again with an in-process bus (the woken jobs' messages died with the process), then the woken jobs are among those queued again, their wait for a worker starting afresh", async () => {
    const accountId = randomUUID();
    const ids = (await buildJobs(accountId, 3, true)).map((j) => j.id);
    expect(await wake()).toEqual(ids.slice(0, 2).sort());
    await pool.query(`UPDATE simulation.jobs SET woken_until = now() - interval '1 second' WHERE id = $1`, [ids[0]]);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await repository.freeRuns(client, REPUBLISH_MS, { at: '1970-01-01 00:00:00+00' });
      const queued = (await repository.unfinishedJobs('job.', client)).map((j) => j.id);
      await client.query('COMMIT');
      expect(queued).toEqual(expect.arrayContaining(ids.slice(0, 2)));
      expect(queued).not.toContain(ids[2]);
    } finally {
      client.release();
    }
    // Queued again at the start, not again by the next wake (which may wake other tests' jobs: this start freed their leases).
    const next = await pass();
    expect([...next.again, ...next.woken].filter((id) => ids.includes(id))).toEqual([]);
    expect(await holdOf(ids[0])).toMatchObject({ waiting: false, held: true });
  });

  test('when a woken job ends at a last status or is dead-lettered before a worker takes it, then its slot goes to the next oldest at once and its hold is cleared', async () => {
    const accountId = randomUUID();
    const ids = (await buildJobs(accountId, 4, true)).map((j) => j.id);
    expect(await wake()).toEqual(ids.slice(0, 2).sort());

    await repository.advance(pool, ids[0] as string, { status: 'Processing completed', studyId: null, message: null });
    expect(await wake()).toEqual([ids[2]]);
    const held = await pool.query<{ woken_until: Date | null }>('SELECT woken_until FROM simulation.jobs WHERE id = $1', [ids[0]]);
    expect(held.rows[0]?.woken_until).toBeNull();

    await pool.query('UPDATE simulation.jobs SET dead_lettered = true WHERE id = $1', [ids[1]]);
    expect(await wake()).toEqual([ids[3]]);
  });

  test("when one account's woken jobs hold its slots, then another account's waiting jobs are woken all the same", async () => {
    const [busy, other] = [randomUUID(), randomUUID()];
    const busyJobs = await buildJobs(busy, 3, true);
    const otherJobs = await buildJobs(other, 1, true);
    expect(await wake()).toEqual([...busyJobs.slice(0, 2), ...otherJobs].map((j) => j.id).sort());
    expect(await wake()).toEqual([]);
  });

  test("when one account has thousands of waiting jobs queued by one Trigger, then a wake reads only as many of them as the account has room for, each admission counts only the jobs holding slots, and a Trigger superseding them takes them out of the wait", async () => {
    const [busy, other] = [randomUUID(), randomUUID()];
    // 5,000 waiting jobs of one Trigger (one created_at), 5,000 finished, 1 running: a backlog and a history.
    await pool.query(
      `WITH j AS (
         INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, state, sequence, waiting, runner, runner_until)
         SELECT gen_random_uuid(), $1, gen_random_uuid(), gen_random_uuid(), 'trigger',
                CASE WHEN i <= 5000 THEN 'Requested' ELSE 'Processing completed' END, 1, i <= 5000,
                CASE WHEN i = 10001 THEN gen_random_uuid() END, CASE WHEN i = 10001 THEN now() + interval '1 minute' END
         FROM generate_series(1, 10001) AS i RETURNING id, account_id, setup_id)
       INSERT INTO simulation.setup_runs (account_id, setup_id, job_id) SELECT account_id, setup_id, id FROM j`,
      [busy],
    );
    await pool.query(`UPDATE simulation.jobs SET state = 'Running' WHERE account_id = $1 AND runner IS NOT NULL`, [busy]);
    const [otherJob] = await buildJobs(other, 1, true);
    const { rows } = await pool.query<{ id: string; setup_id: string }>('SELECT id, setup_id FROM simulation.jobs WHERE account_id = $1 AND waiting ORDER BY created_at DESC, id DESC LIMIT 3', [busy]);
    const newer = rows.map((r) => ({ id: randomUUID(), accountId: busy, setupId: r.setup_id }));

    for (const analysed of [false, true]) {
      if (analysed) await pool.query('ANALYZE simulation.jobs; ANALYZE simulation.setup_runs');
      const wakePlan = await planOf((spy) => new SimulationRepository(spy).wakeWaiting(spy, SHARE, LEASE_MS), 0);
      expect(rowsRead(wakePlan)).toBeLessThanOrEqual(40);
      // The woken jobs past their deadline are found on their own index, whatever the waiting and ended jobs.
      expect(rowsRead(await planOf((spy) => new SimulationRepository(spy).republishLapsed(spy, REPUBLISH_MS, MAX_REPUBLISH_MS), 0))).toBeLessThanOrEqual(10);
      const admitPlan = await planOf((spy) => new SimulationRepository(spy).admit(otherJob as { id: string; accountId: string }, randomUUID(), SHARE, LEASE_MS), 'count(*)', busy);
      expect(rowsRead(admitPlan)).toBeLessThanOrEqual(10);
      expect(rowsRead(await planOf((spy) => new SimulationRepository(spy).makeLatest(spy, newer), 0))).toBeLessThanOrEqual(10);
    }
    // One free slot of the busy account (one runs): its oldest waiting job, and the other account's.
    const woken = await wake();
    expect(woken).toHaveLength(2);
    expect(woken).toContain(otherJob?.id);
    expect(await wake()).toEqual([]);

    // A Trigger's newer runs of 3 waiting setups: those jobs wait no more (they would end at once if run).
    await repository.makeLatest(pool, newer);
    const after = await pool.query<{ waiting: boolean }>('SELECT waiting FROM simulation.jobs WHERE id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
    expect(after.rows.map((r) => r.waiting)).toEqual([false, false, false]);
  });

  test("when a job is delivered before the service's start-up work has ended, then no worker takes it until the shares start (that work frees every lease it finds)", async () => {
    const [job] = await buildJobs(randomUUID(), 1, false);
    const outbox = createOutbox({ pool, schema: SIMULATION_SCHEMA, publish: async () => undefined, logger: createLogger('test') });
    const shares = new AccountShares(repository, outbox, { maxJobsPerAccount: SHARE, wakeIntervalMs: 60_000 }, createLogger('test'));
    const runner = async () => (await pool.query<{ runner: string | null }>('SELECT runner FROM simulation.jobs WHERE id = $1', [job?.id])).rows[0]?.runner;
    let settled = false;
    const admitted = shares.admit(job as { id: string; accountId: string }).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(settled).toBe(false);
    expect(await runner()).toBeNull();

    shares.start();
    const slot = await admitted;
    if (typeof slot === 'string') throw new Error(`not admitted: ${slot}`);
    expect(await runner()).toBe(slot.runner);
    await slot.end();
    await shares.stop();
  });

  test('when the instance runs as many jobs as its workers (SIMULATION_WORKERS), then a further admission waits for one to end, and one whose delivery is lost meanwhile stops waiting and takes nothing', async () => {
    // Each of another account, so the account share never counts: only the instance's workers (2 here) do.
    const jobs = await Promise.all(Array.from({ length: 4 }, async () => (await buildJobs(randomUUID(), 1, false))[0] as { id: string; accountId: string }));
    const outbox = createOutbox({ pool, schema: SIMULATION_SCHEMA, publish: async () => undefined, logger: createLogger('test') });
    const shares = new AccountShares(repository, outbox, { maxJobsPerAccount: SHARE, wakeIntervalMs: 60_000, workers: 2 }, createLogger('test'));
    shares.start();
    const runnerOf = async (job: { id: string }) => (await pool.query<{ runner: string | null }>('SELECT runner FROM simulation.jobs WHERE id = $1', [job.id])).rows[0]?.runner ?? null;
    try {
      const [a, b, c, d] = jobs as [{ id: string; accountId: string }, { id: string; accountId: string }, { id: string; accountId: string }, { id: string; accountId: string }];
      const first = await shares.admit(a);
      const second = await shares.admit(b);
      if (typeof first === 'string' || typeof second === 'string') throw new Error('not admitted');
      let thirdSettled = false;
      const third = shares.admit(c).finally(() => (thirdSettled = true));
      const lost = new AbortController();
      const fourth = shares.admit(d, lost.signal);
      await new Promise((r) => setTimeout(r, 300));
      expect(thirdSettled).toBe(false);
      expect(await runnerOf(c)).toBeNull();

      lost.abort(new Error('the delivery was lost'));
      await expect(fourth).rejects.toThrow('the delivery was lost');
      expect(await runnerOf(d)).toBeNull();

      await first.end();
      const admitted = await third;
      if (typeof admitted === 'string') throw new Error(`not admitted: ${admitted}`);
      expect(await runnerOf(c)).toBe(admitted.runner);
      await second.end();
      await admitted.end();
    } finally {
      await shares.stop();
    }
  });

  test('when a stopping instance hands a running job back, then the job is woken with its new message: should that message be lost, the lost-message look finds it', async () => {
    const [job] = await buildJobs(randomUUID(), 1, false);
    const outbox = createOutbox({ pool, schema: SIMULATION_SCHEMA, publish: async () => undefined, logger: createLogger('test') });
    const shares = new AccountShares(repository, outbox, { maxJobsPerAccount: SHARE, wakeIntervalMs: 60_000, republishMs: REPUBLISH_MS }, createLogger('test'));
    shares.start();
    try {
      // Delivered and run, then handed back at a stop.
      await repository.receive((job as { id: string }).id);
      const slot = await shares.admit(job as { id: string; accountId: string });
      if (typeof slot === 'string') throw new Error(`not admitted: ${slot}`);
      await slot.end();
      expect((await repository.unclaimedWoken('job.')).map((j) => j.id)).not.toContain(job?.id);
      await shares.requeue(job as { id: string; accountId: string });
      await outbox.settled();

      expect((await repository.unclaimedWoken('job.')).map((j) => j.id)).toContain(job?.id);
      const row = await pool.query<{ waiting: boolean; due_in_ms: number }>('SELECT waiting, extract(epoch FROM woken_until - now()) * 1000 AS due_in_ms FROM simulation.jobs WHERE id = $1', [job?.id]);
      expect(row.rows[0]?.waiting).toBe(false);
      expect(Number(row.rows[0]?.due_in_ms)).toBeGreaterThan(REPUBLISH_MS - 60_000);
    } finally {
      await shares.stop();
    }
  });

  test('when the service stops before its start-up work has ended, then a job delivered meanwhile is not admitted (it is handed back)', async () => {
    const [job] = await buildJobs(randomUUID(), 1, false);
    const outbox = createOutbox({ pool, schema: SIMULATION_SCHEMA, publish: async () => undefined, logger: createLogger('test') });
    const shares = new AccountShares(repository, outbox, { maxJobsPerAccount: SHARE, wakeIntervalMs: 60_000 }, createLogger('test'));
    const admitted = shares.admit(job as { id: string; accountId: string });
    await shares.stop();
    await expect(admitted).rejects.toThrow('The simulation-service is stopping: the job is not admitted here');
    const row = await pool.query<{ runner: string | null }>('SELECT runner FROM simulation.jobs WHERE id = $1', [job?.id]);
    expect(row.rows[0]?.runner).toBeNull();
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}
