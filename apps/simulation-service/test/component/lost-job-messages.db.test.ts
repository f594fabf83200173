import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createLogger } from '@pitwall/service-kit';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { LOST_CONFIRM_MS, LostJobMessages } from '../../src/domain/lost-job-messages';
import { useMigratedDatabase } from '../support/migrated-database';

const REPUBLISH_MS = 10 * 60_000;
const MAX_REPUBLISH_MS = 60 * 60_000;
const logger = createLogger('test', 'silent');

/**
 * Finding a woken job's lost message by the job queue's count (not after SIMULATION_JOB_REPUBLISH_MS), on the real
 * PostgreSQL: the queue's count and the clock are the test's.
 */
describe('woken simulation jobs whose message is lost', () => {
  const database = useMigratedDatabase(4);
  let pool: Pool;
  let repository: SimulationRepository;
  let queued: number | Error;
  let clock: number;
  let lost: LostJobMessages;
  beforeAll(() => {
    pool = database.pool;
    repository = new SimulationRepository(pool);
  });
  beforeEach(() => {
    queued = 0;
    clock = 1_000_000;
    lost = new LostJobMessages(repository, { queuedMessages: async () => (queued instanceof Error ? Promise.reject(queued) : queued) }, logger, LOST_CONFIRM_MS, () => clock);
  });

  /** One waiting job of a fresh account, its setup's latest run, woken as a wake does (its message left the outbox). */
  async function wokenJob(id: string = randomUUID()): Promise<string> {
    const accountId = randomUUID();
    const setupId = randomUUID();
    await pool.query(`INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, state, sequence, waiting) VALUES ($1, $2, gen_random_uuid(), $3, 'trigger', 'Requested', 1, true)`, [id, accountId, setupId]);
    await pool.query('INSERT INTO simulation.setup_runs (account_id, setup_id, job_id) VALUES ($1, $2, $3)', [accountId, setupId, id]);
    await pool.query(`UPDATE simulation.jobs SET waiting = false, woken_at = now() - interval '1 second', woken_until = now() + interval '10 minutes' WHERE id = $1`, [id]);
    return id;
  }
  /** LostJobMessages' finding among this test's jobs (other tests' woken jobs are in the same database). */
  const find = async (ids: readonly string[]) => (await lost.find()).map((j) => j.id).filter((id) => ids.includes(id));
  /** A wake's transaction: the jobs found lost made due, and the due ones published again (their ids). */
  async function publishAgain(): Promise<string[]> {
    const found = await lost.find();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await repository.presumeLost(client, found);
      const again = await repository.republishLapsed(client, REPUBLISH_MS, MAX_REPUBLISH_MS);
      await client.query('COMMIT');
      return again.map((j) => j.id);
    } finally {
      client.release();
    }
  }

  test('when no delivery reached a woken job and the job queue holds no message at every look for a while, then its message is taken for lost and published again at once, keeping its hold; once per wake', async () => {
    const id = await wokenJob();
    expect(await find([id])).toEqual([]);
    clock += LOST_CONFIRM_MS / 2;
    expect(await find([id])).toEqual([]);
    clock += LOST_CONFIRM_MS / 2;

    expect(await publishAgain()).toContain(id);

    const { rows } = await pool.query<{ waiting: boolean; ahead_ms: number }>(`SELECT waiting, (extract(epoch FROM woken_until - now()) * 1000)::float8 AS ahead_ms FROM simulation.jobs WHERE id = $1`, [id]);
    expect(rows[0]?.waiting).toBe(false);
    expect(rows[0]?.ahead_ms).toBeGreaterThan(REPUBLISH_MS - 5000);
    // Its copy lost too: it waits for SIMULATION_JOB_REPUBLISH_MS, not a copy at every wake.
    for (let look = 0; look < 4; look++) {
      clock += LOST_CONFIRM_MS;
      expect(await find([id])).toEqual([]);
    }
  });

  test('when a delivery of the woken job reached a worker (held before its admission), then it is never taken for lost, however long', async () => {
    const id = await wokenJob();
    expect((await repository.receive(id))?.id).toBe(id);
    for (let look = 0; look < 4; look++) {
      expect(await find([id])).toEqual([]);
      clock += LOST_CONFIRM_MS;
    }
  });

  test('when the job queue holds a message at a look (the job\'s, behind busy workers), then nothing is taken for lost, and the wait starts again', async () => {
    const id = await wokenJob();
    expect(await find([id])).toEqual([]);
    clock += LOST_CONFIRM_MS;
    queued = 1;
    expect(await find([id])).toEqual([]);
    queued = 0;
    expect(await find([id])).toEqual([]);
    clock += LOST_CONFIRM_MS - 1;
    expect(await find([id])).toEqual([]);
    clock += 1;
    expect(await find([id])).toEqual([id]);
  });

  test('when the broker cannot count the queue, then nothing is taken for lost', async () => {
    const id = await wokenJob();
    queued = new Error('not connected');
    for (let look = 0; look < 3; look++) {
      expect(await find([id])).toEqual([]);
      clock += LOST_CONFIRM_MS;
    }
  });

  test("when the woken job's message is still in the outbox (not yet published), then it is not taken for lost", async () => {
    const id = await wokenJob();
    await pool.query(`INSERT INTO simulation.outbox (routing_key, payload) VALUES ('job.' || gen_random_uuid(), $1)`, [{ jobId: id }]);
    for (let look = 0; look < 3; look++) {
      expect(await find([id])).toEqual([]);
      clock += LOST_CONFIRM_MS;
    }
    await pool.query(`DELETE FROM simulation.outbox WHERE payload->>'jobId' = $1`, [id]);
  });

  test('when its hold changed between the look and the wake (another instance published it again, a worker took it), then it is not published again', async () => {
    const id = await wokenJob();
    expect(await find([id])).toEqual([]);
    clock += LOST_CONFIRM_MS;
    const [found] = (await lost.find()).filter((j) => j.id === id);
    expect(found?.id).toBe(id);
    await pool.query(`UPDATE simulation.jobs SET woken_until = woken_until + interval '1 minute' WHERE id = $1`, [id]);
    const client = await pool.connect();
    try {
      expect(await repository.presumeLost(client, [found as { id: string; wokenUntil: string }])).toEqual([]);
    } finally {
      client.release();
    }
  });

  test('when another writer takes woken jobs in id order (as a Trigger superseding them does) while a wake presumes them lost (found in the order of their holds), then neither deadlocks: the wake waits its turn and takes them all', async () => {
    const [low, high] = [randomUUID(), randomUUID()].sort() as [string, string];
    // The high one first: stored first (a scan of the table meets it first), and its hold ends first (it comes first in
    // what the wake found).
    await wokenJob(high);
    await wokenJob(low);
    const { rows: holds } = await pool.query<{ id: string; woken_until: string }>('SELECT id, woken_until::text FROM simulation.jobs WHERE id = ANY($1::uuid[])', [[low, high]]);
    const found = [high, low].map((id) => ({ id, wokenUntil: holds.find((h) => h.id === id)?.woken_until as string }));
    const writer = await pool.connect();
    const wake = await pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('SELECT 1 FROM simulation.jobs WHERE id = $1 FOR UPDATE', [low]);
      await wake.query('BEGIN');
      let settled = false;
      const presuming = repository.presumeLost(wake, found).finally(() => (settled = true));
      presuming.catch(() => undefined);
      const waiting = async () => (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]?.n ?? 0;
      while (!settled && (await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await writer.query('SELECT 1 FROM simulation.jobs WHERE id = $1 FOR UPDATE', [high]);
      await writer.query('COMMIT');
      expect((await presuming).sort()).toEqual([low, high]);
      await wake.query('COMMIT');
    } finally {
      // Either may have been ended by a deadlock: neither goes back to the pool inside a transaction.
      await wake.query('ROLLBACK').catch(() => undefined);
      await writer.query('ROLLBACK').catch(() => undefined);
      writer.release();
      wake.release();
    }
  });

  test('when a job waits for its account share or a worker runs it, then it is never taken for lost', async () => {
    const id = await wokenJob();
    await pool.query('UPDATE simulation.jobs SET waiting = true, woken_at = NULL, woken_until = NULL WHERE id = $1', [id]);
    const running = await wokenJob();
    await pool.query(`UPDATE simulation.jobs SET runner = gen_random_uuid(), runner_until = now() + interval '1 minute' WHERE id = $1`, [running]);
    for (let look = 0; look < 3; look++) {
      expect(await find([id, running])).toEqual([]);
      clock += LOST_CONFIRM_MS;
    }
  });
});
