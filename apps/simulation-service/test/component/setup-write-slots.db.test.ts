import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { startSimulationStack, type SimulationStack } from '../support/simulation-stack';
import { testPool } from '@pitwall/db/testing';

/** The setup write slots on the real PostgreSQL (the simulation-service's migrated schema). */
describe('setup write slots in the database', () => {
  let s: SimulationStack;
  let pool: Pool;
  let repository: SimulationRepository;
  beforeAll(async () => {
    s = await startSimulationStack();
    pool = testPool(s.stack.databaseUrl, 8);
    repository = new SimulationRepository(pool);
  });
  afterAll(async () => {
    await pool.end();
    await s.stop();
  });

  test('when requests take the same setups named in other orders at once, then none fails: each gets all its slots in turn', async () => {
    const account = randomUUID();
    const take = async (order: string[]) => {
      const slots = order.map((setupId) => ({ setupId, holder: randomUUID() }));
      let tries = 0;
      while (!(await repository.takeWriteSlots(account, slots, 60_000))) tries++;
      await repository.releaseWriteSlots(account, slots);
      return tries;
    };
    // Twenty rounds of three requests racing over setups never triggered before (their rows are inserted by the
    // requests themselves) and then over the same again: a deadlock or a lock error would reject one of them.
    for (let round = 0; round < 20; round++) {
      const setups = Array.from({ length: 6 }, () => randomUUID());
      const orders = [setups, [...setups].reverse(), [...setups.slice(3), ...setups.slice(0, 3)]];
      await expect(Promise.all(orders.map(take))).resolves.toHaveLength(3);
      await expect(Promise.all(orders.map(take))).resolves.toHaveLength(3);
    }
    const { rows } = await pool.query('SELECT count(*)::int AS held FROM simulation.setup_runs WHERE account_id = $1 AND writer IS NOT NULL', [account]);
    expect(rows[0].held).toBe(0);
  });

  test("when a run of a job is behind the job's recorded steps (another delivery went on), then its claim is superseded", async () => {
    const account = randomUUID();
    const setupId = randomUUID();
    const job = { id: randomUUID(), accountId: account, setupId, sequence: 1 };
    await pool.query(
      `INSERT INTO simulation.jobs (id, account_id, profile_id, setup_id, kind, sealed_credentials, study_id, state, sequence) VALUES ($1, $2, $3, $4, 'trigger', NULL, NULL, 'Requested', 1)`,
      [job.id, account, randomUUID(), setupId],
    );
    expect((await repository.claimWriteSlot(job, job.id, 60_000)).outcome).toBe('claimed');
    // This run records its step; a stale run of the same job still holding sequence 1 may not write over it.
    await repository.advance(pool, job.id, { status: 'Simulation started', studyId: 'st-1', message: null });
    await repository.releaseWriteSlots(account, [{ setupId, holder: job.id }]);
    expect((await repository.claimWriteSlot(job, job.id, 60_000)).outcome).toBe('superseded');
    expect((await repository.claimWriteSlot({ ...job, sequence: 2 }, job.id, 60_000)).outcome).toBe('claimed');
  });
});
