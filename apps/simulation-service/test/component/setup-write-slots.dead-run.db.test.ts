import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import type { Logger } from '@pitwall/service-kit';
import { testPool } from '@pitwall/db/testing';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { SetupWriteSlots } from '../../src/domain/setup-write-slots';
import { startSimulationStack, type SimulationStack } from '../support/simulation-stack';

/** The deployment's SIMULATION_SETUP_WRITE_LEASE_MS: two minutes, as long as the study-once e2e waits for its jobs. */
const WRITE_LEASE_MS = 120_000;
/** A worker's lease on its job, short so that it lapses within the test (RUN_LEASE_MS is 20 s). */
const RUN_LEASE_MS = 1_000;

/**
 * A worker killed -9 in the middle of a step: it had claimed its setup's write slot (and maybe written the step to the
 * setup), never committed nor released it. simulations.study-once.distributed.test.ts failed so now and then: the kill
 * landed there, and the delivery that took the job over once the dead run's lease lapsed (20 s) waited, silently, for
 * the slot's own lease (two minutes) before it could write the job's next step.
 */
describe("a run killed in the middle of a step, holding its setup's write slot", () => {
  let s: SimulationStack;
  let pool: Pool;
  let repository: SimulationRepository;
  beforeAll(async () => {
    s = await startSimulationStack();
    pool = testPool(s.stack.databaseUrl, 4);
    repository = new SimulationRepository(pool);
  });
  afterAll(async () => {
    await pool.end();
    await s.stop();
  });

  async function buildJob(): Promise<{ id: string; accountId: string; setupId: string; sequence: number }> {
    const job = { id: randomUUID(), accountId: randomUUID(), setupId: randomUUID(), sequence: 1 };
    await pool.query(`INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, state, sequence) VALUES ($1, $2, $3, $4, 'trigger', 'Requested', 1)`, [
      job.id,
      job.accountId,
      randomUUID(),
      job.setupId,
    ]);
    await pool.query('INSERT INTO simulation.setup_runs (account_id, setup_id, job_id) VALUES ($1, $2, $3)', [job.accountId, job.setupId, job.id]);
    return job;
  }

  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const logger = { warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }), info: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;

  test('when the delivery that takes the job over comes once the dead run\'s lease lapsed, then it claims the slot at once, not after the slot\'s lease; the dead run\'s writes could not land past its lease', async () => {
    const job = await buildJob();
    const slots = new SetupWriteSlots(repository, { leaseMs: WRITE_LEASE_MS, retryMs: 20 }, logger);
    const dead = randomUUID();
    expect(await repository.admit(job, dead, 4, RUN_LEASE_MS)).toMatchObject({ outcome: 'run' });
    const claimedAt = Date.now();
    const deadline = await slots.claimForJob(job, dead, AbortSignal.timeout(5_000));
    // Killed -9 here: nothing released, nothing renewed. Its lease lapses, and the redelivered job is admitted.
    await sleep(RUN_LEASE_MS + 200);
    const next = randomUUID();
    expect(await repository.admit(job, next, 4, 20_000)).toMatchObject({ outcome: 'run' });
    const started = Date.now();
    await expect(slots.claimForJob(job, next, AbortSignal.timeout(5_000))).resolves.toEqual(expect.any(Number));
    expect(Date.now() - started).toBeLessThan(5_000);
    const { rows } = await pool.query<{ writer: string }>('SELECT writer FROM simulation.setup_runs WHERE account_id = $1 AND setup_id = $2', [job.accountId, job.setupId]);
    expect(rows[0]?.writer).toBe(next);
    // The dead run's writes to the setup carried this deadline: no later than its lease (the entity-service rolls back a
    // write past it), so none of them can land after the step of the delivery that took the job over.
    expect(deadline).toBeLessThanOrEqual(claimedAt + RUN_LEASE_MS + 50);
  });

  test("when the process restarts with an in-process bus (npm start) after a run and a request died holding their slots, then the start frees both: the job's next run claims its slot at once, a new request takes the other; a request the new process served before the start's freeing keeps its slot", async () => {
    const job = await buildJob();
    const other = await buildJob();
    const served = await buildJob();
    const slots = new SetupWriteSlots(repository, { leaseMs: WRITE_LEASE_MS, retryMs: 20 }, logger);
    const dead = randomUUID();
    // The default lease (20 s): only the start's freeing can let the next run in within the test.
    expect(await repository.admit(job, dead, 4, 20_000)).toMatchObject({ outcome: 'run' });
    await slots.claimForJob(job, dead, AbortSignal.timeout(5_000));
    // A Trigger of the dead process, killed between taking its slot and its commit.
    const deadRequest = randomUUID();
    expect(await repository.takeWriteSlots(other.accountId, [{ setupId: other.setupId, holder: deadRequest }], WRITE_LEASE_MS)).toBe(true);
    // The new process starts (its build reads the clock), and its bus serves a request before the start's freeing runs.
    const restart = { at: await repository.databaseNow() };
    const servedRequest = randomUUID();
    expect(await repository.takeWriteSlots(served.accountId, [{ setupId: served.setupId, holder: servedRequest }], WRITE_LEASE_MS)).toBe(true);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await repository.freeRuns(client, 60_000, restart);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const next = randomUUID();
    expect(await repository.admit(job, next, 4, 20_000)).toMatchObject({ outcome: 'run' });
    await expect(slots.claimForJob(job, next, AbortSignal.timeout(2_000))).resolves.toEqual(expect.any(Number));
    const request = randomUUID();
    expect(await repository.takeWriteSlots(other.accountId, [{ setupId: other.setupId, holder: request }], WRITE_LEASE_MS)).toBe(true);
    expect(await repository.takeWriteSlots(served.accountId, [{ setupId: served.setupId, holder: randomUUID() }], WRITE_LEASE_MS)).toBe(false);
    const writers = await pool.query<{ setup_id: string; writer: string | null }>('SELECT setup_id, writer FROM simulation.setup_runs WHERE setup_id = ANY($1::uuid[])', [
      [job.setupId, other.setupId, served.setupId],
    ]);
    expect(Object.fromEntries(writers.rows.map((r) => [r.setup_id, r.writer]))).toEqual({ [job.setupId]: next, [other.setupId]: request, [served.setupId]: servedRequest });
  });

  test("when a step waits for its setup's slot, then it says so after a while, naming the holder", async () => {
    const job = await buildJob();
    // A Trigger of a newer run of the setup holds the slot (between taking it and its commit).
    const request = randomUUID();
    expect(await repository.takeWriteSlots(job.accountId, [{ setupId: job.setupId, holder: request }], WRITE_LEASE_MS)).toBe(true);
    const runner = randomUUID();
    expect(await repository.admit(job, runner, 4, 20_000)).toMatchObject({ outcome: 'run' });
    const slots = new SetupWriteSlots(repository, { leaseMs: WRITE_LEASE_MS, retryMs: 20, warnAfterMs: 200 }, logger);
    warnings.length = 0;
    await expect(slots.claimForJob(job, runner, AbortSignal.timeout(700))).rejects.toThrow();
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings[0]?.fields).toMatchObject({ jobId: job.id, holder: runner, writer: request });
    expect(warnings[0]?.fields['writerLeftMs']).toBeGreaterThan(100_000);
    expect(warnings[0]?.message).toMatch(/waits for its setup's write slot/);
  });
});
