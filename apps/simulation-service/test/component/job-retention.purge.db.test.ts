import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createLogger } from '@pitwall/service-kit';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { JobRetention } from '../../src/domain/job-retention';
import { useMigratedDatabase } from '../support/migrated-database';

const DAYS = 30;
const logger = createLogger('test');

/** A job row as the service leaves it, `ageDays` after its last change (its time of creation and last step). */
interface JobRow {
  state?: string;
  deadLettered?: boolean;
  waiting?: boolean;
  woken?: boolean;
  /** A worker runs it now (a live lease), or ran it and died (a lapsed one). */
  lease?: 'live' | 'lapsed';
  ageDays: number;
  /** The setup's latest run (default), or superseded by a newer job of the setup. */
  latest?: boolean;
  accountId?: string;
  setupId?: string;
  /** An exact time of last change, shared by many jobs (one Trigger's, never run). */
  at?: string;
}

/** The retention purge of finished simulation jobs, on the real PostgreSQL (a migrated database, nothing of the service running). */
describe('purging finished simulation jobs (SIMULATION_JOB_RETENTION_DAYS)', () => {
  const database = useMigratedDatabase(6);
  let pool: Pool;
  let repository: SimulationRepository;
  beforeAll(() => {
    pool = database.pool;
    repository = new SimulationRepository(pool);
  });

  async function insertJob(row: JobRow): Promise<{ id: string; accountId: string; setupId: string }> {
    const job = { id: randomUUID(), accountId: row.accountId ?? randomUUID(), setupId: row.setupId ?? randomUUID() };
    const at = row.at ?? `${new Date(Date.now() - row.ageDays * 86_400_000).toISOString()}`;
    await pool.query(
      `INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, state, sequence, dead_lettered, waiting, woken_at, woken_until, runner, runner_until, created_at, updated_at)
       VALUES ($1, $2, gen_random_uuid(), $3, 'trigger', $4, 3, $5, $6,
               CASE WHEN $7 THEN $9::timestamptz END, CASE WHEN $7 THEN now() + interval '10 minutes' END,
               CASE WHEN $8::text IS NOT NULL THEN gen_random_uuid() END,
               CASE $8::text WHEN 'live' THEN now() + interval '20 seconds' WHEN 'lapsed' THEN now() - interval '1 second' END,
               $9::timestamptz, $9::timestamptz)`,
      [job.id, job.accountId, job.setupId, row.state ?? 'Processing completed', row.deadLettered ?? false, row.waiting ?? false, row.woken ?? false, row.lease ?? null, at],
    );
    const latest = row.latest ?? true;
    await pool.query(
      `INSERT INTO simulation.setup_runs (account_id, setup_id, job_id) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, setup_id) DO UPDATE SET job_id = CASE WHEN $4 THEN EXCLUDED.job_id ELSE simulation.setup_runs.job_id END`,
      [job.accountId, job.setupId, latest ? job.id : randomUUID(), latest],
    );
    return job;
  }

  const remaining = async (ids: readonly string[]): Promise<string[]> =>
    (await pool.query<{ id: string }>('SELECT id FROM simulation.jobs WHERE id = ANY($1::uuid[]) ORDER BY id', [ids])).rows.map((r) => r.id);
  const runOf = async (job: { accountId: string; setupId: string }) =>
    (await pool.query<{ job_id: string | null }>('SELECT job_id FROM simulation.setup_runs WHERE account_id = $1 AND setup_id = $2', [job.accountId, job.setupId])).rows[0];
  /** Everything older than the cutoff that a test before left purgeable is gone: each test counts only its own. */
  const purgeAll = () => new JobRetention(repository, { days: DAYS }, logger).purge();

  test('when finished jobs are older than the retention, then they are deleted, and never a job that is queued, woken, running, recent or may still run', async () => {
    await purgeAll();
    const finished = [
      await insertJob({ ageDays: DAYS + 1 }),
      await insertJob({ ageDays: DAYS + 400, state: 'Simulation failed' }),
      await insertJob({ ageDays: DAYS + 1, state: 'Simulation start failed' }),
      // Gave up on the external system: its message dead-lettered, its last status recorded as it was.
      await insertJob({ ageDays: DAYS + 1, state: 'Running', deadLettered: true }),
      // Superseded by a newer run of its setup: it stopped without a last status and never runs again.
      await insertJob({ ageDays: DAYS + 1, state: 'Running', latest: false }),
    ];
    const kept = [
      await insertJob({ ageDays: DAYS - 1 }),
      await insertJob({ ageDays: DAYS + 5, state: 'Requested', waiting: true }),
      await insertJob({ ageDays: DAYS + 5, state: 'Requested', woken: true }),
      await insertJob({ ageDays: DAYS + 5, state: 'Running', lease: 'live' }),
      // Its worker died (the lease lapsed) and its message is redelivered: it resumes, so it is not finished.
      await insertJob({ ageDays: DAYS + 5, state: 'Running', lease: 'lapsed' }),
      await insertJob({ ageDays: DAYS + 5, state: 'Requested' }),
      // A finished job that a delivery has just taken (a copy of its message): not deleted under the live lease.
      await insertJob({ ageDays: DAYS + 5, lease: 'live' }),
    ];

    expect(await purgeAll()).toBe(finished.length);

    expect(await remaining(finished.map((j) => j.id))).toEqual([]);
    expect(await remaining(kept.map((j) => j.id))).toEqual(kept.map((j) => j.id).sort());
    // A setup whose last job went has no latest run any more (a new Trigger makes one); the others keep theirs.
    for (const job of finished) expect(await runOf(job)).toBeUndefined();
    for (const job of kept) expect((await runOf(job))?.job_id).toBe(job.id);
  });

  test("when a setup keeps a newer job, then only the old finished one goes and the setup's latest run stays; once its last job goes, so does the run", async () => {
    await purgeAll();
    const accountId = randomUUID();
    const setupId = randomUUID();
    const old = await insertJob({ accountId, setupId, ageDays: DAYS + 10, latest: false, state: 'Simulation failed' });
    const newer = await insertJob({ accountId, setupId, ageDays: DAYS - 10 });

    expect(await purgeAll()).toBe(1);
    expect(await remaining([old.id, newer.id])).toEqual([newer.id]);
    expect((await runOf(newer))?.job_id).toBe(newer.id);

    await pool.query(`UPDATE simulation.jobs SET updated_at = now() - interval '${DAYS + 1} days' WHERE id = $1`, [newer.id]);
    expect(await purgeAll()).toBe(1);
    expect(await runOf(newer)).toBeUndefined();
  });

  test("when a request holds the write slot of a setup whose last job is purged (a Trigger between its slot and its commit), then the setup's latest-run row and its slot stay", async () => {
    await purgeAll();
    const job = await insertJob({ ageDays: DAYS + 1 });
    const holder = randomUUID();
    expect(await repository.takeWriteSlots(job.accountId, [{ setupId: job.setupId, holder }], 60_000)).toBe(true);

    expect(await purgeAll()).toBe(1);

    const { rows } = await pool.query<{ writer: string | null }>('SELECT writer FROM simulation.setup_runs WHERE account_id = $1 AND setup_id = $2', [job.accountId, job.setupId]);
    expect(rows).toEqual([{ writer: holder }]);
  });

  test('when more jobs than a page are old, some of them to be kept at the head of the walk, then each statement reads one bounded page and the pass deletes every finished one', async () => {
    await purgeAll();
    const PAGE = 4;
    // The oldest are kept (a backlog still waiting): a purge that started from the oldest at every statement would never pass them.
    const waiting = [];
    for (let i = 0; i < 2 * PAGE; i++) waiting.push(await insertJob({ ageDays: DAYS + 60, state: 'Requested', waiting: true }));
    const finished = [];
    for (let i = 0; i < 3 * PAGE + 1; i++) finished.push(await insertJob({ ageDays: DAYS + 50 - i }));
    const pages: { jobs: number; next: unknown }[] = [];
    const counting = Object.assign(Object.create(repository) as SimulationRepository, {
      purgeFinished: async (...args: Parameters<SimulationRepository['purgeFinished']>) => {
        const batch = await repository.purgeFinished(...args);
        pages.push(batch);
        return batch;
      },
    });

    expect(await new JobRetention(counting, { days: DAYS, pageRows: PAGE }, logger).purge()).toBe(finished.length);

    expect(await remaining(finished.map((j) => j.id))).toEqual([]);
    expect(await remaining(waiting.map((j) => j.id))).toHaveLength(waiting.length);
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil((waiting.length + finished.length) / PAGE));
    for (const page of pages) expect(page.jobs).toBeLessThanOrEqual(PAGE);
  });

  test('when more jobs than a page share one instant of last change (a Trigger whose jobs were superseded before they ran), then the pass walks past them all', async () => {
    await purgeAll();
    const PAGE = 5;
    const { rows } = await pool.query<{ at: string }>(`SELECT (now() - interval '${DAYS + 3} days' + interval '123.456789 milliseconds')::text AS at`);
    const at = rows[0]?.at as string;
    const jobs = [];
    // Kept ones among them, so a page that started over at the same place would find no progress to make.
    for (let i = 0; i < 3 * PAGE; i++) jobs.push(await insertJob({ ageDays: 0, at, state: 'Requested', waiting: i % 3 === 0, latest: i % 3 === 0 }));

    const purged = await new JobRetention(repository, { days: DAYS, pageRows: PAGE }, logger).purge();

    expect(purged).toBe(2 * PAGE);
    expect(await remaining(jobs.map((j) => j.id))).toHaveLength(PAGE);
  });

  test('when two instances purge at once, then together they delete every old finished job once, each counting only its own; a job another transaction holds is skipped, not waited for', async () => {
    await purgeAll();
    const jobs = [];
    for (let i = 0; i < 240; i++) jobs.push(await insertJob({ ageDays: DAYS + 1 + (i % 7) }));
    // A transaction holding one of them (a delivery reading it FOR UPDATE): the purges go on without it.
    const held = await pool.connect();
    try {
      await held.query('BEGIN');
      await held.query('SELECT 1 FROM simulation.jobs WHERE id = $1 FOR UPDATE', [jobs[100]?.id]);
      const purgers = [0, 1].map(() => new JobRetention(repository, { days: DAYS, pageRows: 10 }, logger));

      const counts = await Promise.all(purgers.map((p) => p.purge()));

      expect((counts[0] ?? 0) + (counts[1] ?? 0)).toBe(jobs.length - 1);
      expect(await remaining(jobs.map((j) => j.id))).toEqual([jobs[100]?.id]);
    } finally {
      await held.query('ROLLBACK');
      held.release();
    }
    expect(await purgeAll()).toBe(1);
    expect(await remaining(jobs.map((j) => j.id))).toEqual([]);
  }, 30_000);

  test("when another instance is purging a page, then this one's pass ends without a statement of its own, so a setup's two old jobs on two pages never leave its latest-run row behind", async () => {
    await purgeAll();
    // One setup's two old finished jobs, a page each (a reviewer's case: two pages purged at once each saw the other's
    // job still there, and neither deleted the setup's latest-run row).
    const accountId = randomUUID();
    const setupId = randomUUID();
    const first = await insertJob({ accountId, setupId, ageDays: DAYS + 3, latest: false });
    const second = await insertJob({ accountId, setupId, ageDays: DAYS + 2 });
    // Another instance mid-page: its transaction holds the purge's lock.
    const other = await pool.connect();
    try {
      await other.query('BEGIN');
      await other.query("SELECT pg_advisory_xact_lock(hashtextextended('simulation.jobs.purge', 0))");
      expect(await repository.purgeFinished(DAYS, 1, null)).toEqual({ jobs: 0, runs: 0, next: null, busy: true });
      expect(await new JobRetention(repository, { days: DAYS, pageRows: 1 }, logger).purge()).toBe(0);
      expect(await remaining([first.id, second.id])).toEqual([first.id, second.id].sort());
    } finally {
      await other.query('ROLLBACK');
      other.release();
    }
    expect(await new JobRetention(repository, { days: DAYS, pageRows: 1 }, logger).purge()).toBe(2);
    expect(await runOf(second)).toBeUndefined();
  });

  test('when the retention is 0, then nothing is ever purged', async () => {
    const job = await insertJob({ ageDays: DAYS + 1000 });
    const retention = new JobRetention(repository, { days: 0 }, logger);
    retention.start();
    expect(await retention.purge()).toBe(0);
    await retention.stop();
    expect(await remaining([job.id])).toEqual([job.id]);
  });
});
