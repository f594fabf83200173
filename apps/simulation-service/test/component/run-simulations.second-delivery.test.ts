import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { EXCHANGES, SIMULATION_COMMANDS, type SimulationResults } from '@pitwall/contracts';
import { createOutbox } from '@pitwall/messaging';
import { createLogger } from '@pitwall/service-kit';
import { testPool } from '@pitwall/db/testing';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { AccountShares } from '../../src/domain/account-shares';
import { startCraftedSystem, type CraftedSystem } from '../support/crafted-system';
import { buildProfile, buildSetup, connect, newAccount, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

/** Two deliveries of one job: published twice (a start-up requeue beside a wake), or redelivered while its first run goes on. */
describe('a second delivery of a running simulation job', () => {
  let s: SimulationStack;
  let crafted: CraftedSystem;
  let pool: Pool;
  let repository: SimulationRepository;
  beforeAll(async () => {
    crafted = await startCraftedSystem();
    s = await startSimulationStack({}, { EGRESS_ALLOW: new URL(crafted.url).host });
    pool = testPool(s.stack.databaseUrl, 4);
    repository = new SimulationRepository(pool);
  });
  afterAll(async () => {
    await pool.end();
    await s.stop();
    await crafted.stop();
  });

  /** A job row of a fresh account, its setup's latest run, at `Requested`. */
  async function buildJob(): Promise<{ id: string; accountId: string; setupId: string; sequence: number }> {
    const job = { id: randomUUID(), accountId: randomUUID(), setupId: randomUUID(), sequence: 1 };
    await pool.query(
      `INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, state, sequence) VALUES ($1, $2, $3, $4, 'trigger', 'Requested', 1)`,
      [job.id, job.accountId, randomUUID(), job.setupId],
    );
    await pool.query('INSERT INTO simulation.setup_runs (account_id, setup_id, job_id) VALUES ($1, $2, $3)', [job.accountId, job.setupId, job.id]);
    return job;
  }
  const rowOf = async (id: string) => (await pool.query<{ runner: string | null; waiting: boolean }>('SELECT runner, waiting FROM simulation.jobs WHERE id = $1', [id])).rows[0];

  test('when a delivery comes while another runs the job under a live lease, then it is not admitted: the first keeps the lease, and the job is woken only once no live lease holds it', async () => {
    const job = await buildJob();
    const [first, second] = [randomUUID(), randomUUID()];
    expect(await repository.admit(job, first, 4, 60_000)).toMatchObject({ outcome: 'run' });
    expect(await repository.admit(job, second, 4, 60_000)).toEqual({ outcome: 'busy' });
    expect(await rowOf(job.id)).toEqual({ runner: first, waiting: true });
    expect(await repository.renewRun(job.id, first, 60_000)).toBe(true);

    const woken = async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        return (await repository.wakeWaiting(client, 4, 60_000)).map((j) => j.id);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    };
    expect(await woken()).not.toContain(job.id);
    // The first run died (its lease lapsed): the job is published again rather than lost with the acked delivery.
    await pool.query(`UPDATE simulation.jobs SET runner_until = now() - interval '1 second' WHERE id = $1`, [job.id]);
    expect(await woken()).toContain(job.id);
  });

  test("when two runs of one job claim its setup's write slot at the same step, then only the lease holder gets it; a run whose lease was taken over gets none and renews nothing", async () => {
    const job = await buildJob();
    const [first, second] = [randomUUID(), randomUUID()];
    await repository.admit(job, first, 4, 60_000);
    // A run of the job without the lease (the second delivery before the fix) cannot claim beside the holder.
    expect((await repository.claimWriteSlot(job, second, 60_000)).outcome).not.toBe('claimed');
    expect((await repository.claimWriteSlot(job, first, 60_000)).outcome).toBe('claimed');
    await repository.releaseWriteSlots(job.accountId, [{ setupId: job.setupId, holder: first }]);

    // The first run's lease lapsed (its process froze) and the second delivery took the job over.
    await pool.query(`UPDATE simulation.jobs SET runner_until = now() - interval '1 second' WHERE id = $1`, [job.id]);
    expect(await repository.admit(job, second, 4, 60_000)).toMatchObject({ outcome: 'run' });
    expect((await repository.claimWriteSlot(job, first, 60_000)).outcome).toBe('lost');
    expect(await repository.advance(pool, job.id, { status: 'Running', studyId: 's-1', message: null }, first)).toBeNull();
    expect(await repository.renewRun(job.id, first, 60_000)).toBe(false);
    expect((await repository.claimWriteSlot(job, second, 60_000)).outcome).toBe('claimed');
  });

  test("when another delivery takes a run's lapsed lease over, then the run's slot says it is lost (the run stops)", async () => {
    const job = await buildJob();
    // Publishes nothing (its rows stay for the stack's own outbox): the shares' start wakes the stack's waiting jobs too.
    const outbox = createOutbox({ pool, schema: 'simulation', publish: () => Promise.reject(new Error('not published by this test')), logger: createLogger('test') });
    const shares = new AccountShares(repository, outbox, { maxJobsPerAccount: 4, wakeIntervalMs: 60_000, leaseMs: 300 }, createLogger('test'));
    shares.start();
    const slot = await shares.admit(job);
    if (typeof slot === 'string') throw new Error(`not admitted: ${slot}`);
    expect(slot.lost.aborted).toBe(false);
    await pool.query(`UPDATE simulation.jobs SET runner_until = now() - interval '1 second' WHERE id = $1`, [job.id]);
    expect(await repository.admit(job, randomUUID(), 4, 60_000)).toMatchObject({ outcome: 'run' });
    await waitFor(() => (slot.lost.aborted ? true : undefined), 'the run to learn it lost its lease');
    await slot.end();
    await shares.stop();
  });

  test('when a running job is published again, then the second delivery is acked unrun and the job ends with each step recorded once, its worker slot freed', async () => {
    const caller = newAccount();
    await connect(s, caller, { baseUrl: crafted.url });
    const profileId = await buildProfile(s, caller, { BaseUrl: crafted.url });
    const name = `Twice ${randomUUID()}`;
    let released = false;
    crafted.answers.set(name, { status: () => (released ? '{"status":"completed"}' : '{"status":"queued"}') });
    const setupId = await buildSetup(s, caller, { Name: name });
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
    expect(answer.results[0]?.accepted).toBe(true);
    const started = await waitFor(() => s.events.find((e) => e.setupId === setupId && e.status === 'Simulation started'), 'the job to start');
    const runner = (await rowOf(started.jobId))?.runner;
    expect(runner).toEqual(expect.any(String));

    await s.stack.bus.publish(EXCHANGES.simulationJobs, `job.${caller.accountId}`, { jobId: started.jobId });
    await waitFor(async () => ((await rowOf(started.jobId))?.waiting ? true : undefined), 'the second delivery to be handled');
    expect((await rowOf(started.jobId))?.runner).toBe(runner);

    released = true;
    await waitFor(() => s.events.find((e) => e.setupId === setupId && e.status === 'Processing completed'), 'the job to complete');
    await waitFor(async () => ((await rowOf(started.jobId))?.runner === null ? true : undefined), 'the worker slot to be freed');
    // Ended, it is no longer marked waiting (the second delivery marked it): no wake reads it again.
    expect((await rowOf(started.jobId))?.waiting).toBe(false);
    const statuses = s.events.filter((e) => e.jobId === started.jobId).map((e) => e.status);
    expect(statuses).toEqual(['Requested', 'Simulation started', 'Processing completed']);
    expect(crafted.calls.filter((c) => c.method === 'POST' && c.name === name)).toHaveLength(1);
    expect(s.stack.bus.broker.deadLettered().filter((m) => m.exchange.endsWith(EXCHANGES.simulationJobs))).toEqual([]);
  });
});
