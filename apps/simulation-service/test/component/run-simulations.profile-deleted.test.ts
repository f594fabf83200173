import { randomUUID } from 'node:crypto';
import { ENTITY_COMMANDS, EXCHANGES, SERVICES, SIMULATION_COMMANDS, type SimulationResults } from '@pitwall/contracts';
import { testPool } from '@pitwall/db/testing';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { buildProfile, buildSetup, connect, newAccount, PARAMS, readSetup, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

// A Trigger writes `Requested` to its setups under the names its profile configures; jobs that wait for their account's
// share run later. A profile deleted meanwhile no longer names those parameters: each waiting job still ends
// `Simulation failed` on its setup, under the names the request wrote `Requested` under, not only on its events.
describe('a simulation profile deleted while its jobs wait for their account’s share', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    // One job of the account at a time; its study stays running until the test lets it complete.
    s = await startSimulationStack({ runningPolls: Number.MAX_SAFE_INTEGER }, { SIMULATION_MAX_JOBS_PER_ACCOUNT: '1' });
  });
  afterAll(() => s.stop());

  test('when the profile is deleted, then each waiting job, once it runs, ends Simulation failed on its setup, saying the profile was deleted, while the running job carries on to its end', async () => {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const setupIds = [await buildSetup(s, caller), await buildSetup(s, caller), await buildSetup(s, caller)];
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds } });
    expect(answer.results.every((r) => r.accepted)).toBe(true);

    // One job runs (its account's share), the others wait at Requested.
    const running = await waitFor(() => s.events.find((e) => setupIds.includes(e.setupId) && e.status === 'Running'), 'the first job to run');
    const waiting = setupIds.filter((id) => id !== running.setupId);
    for (const id of waiting) expect((await readSetup(s, caller, id))[PARAMS.status]).toBe('Requested');

    await s.stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.delete, { caller, type: 'ExternalSimulationProfiles', id: profileId });
    // The running job carries on with the profile it read; once it ends, the waiting jobs run.
    s.standIn.options.runningPolls = 0;
    await waitFor(() => s.events.find((e) => e.setupId === running.setupId && e.status === 'Processing completed'), 'the running job to complete');
    expect((await readSetup(s, caller, running.setupId))[PARAMS.status]).toBe('Processing completed');

    for (const id of waiting) {
      const last = await waitFor(() => s.events.find((e) => e.setupId === id && e.status === 'Simulation failed'), 'the waiting job to end');
      // The step is written to the setup before it is announced: the setup holds it by now.
      const setup = await readSetup(s, caller, id);
      expect(setup).toMatchObject({ [PARAMS.status]: 'Simulation failed', [PARAMS.message]: last.message });
      expect(setup[PARAMS.studyId] ?? null).toBeNull();
      expect(last.message).toMatch(/simulation profile/i);
      expect(last.message).toContain(profileId);
      expect(last.message).toMatch(/deleted/);
      expect(typeof setup[PARAMS.updated]).toBe('string');
      // Each waiting job announced Requested then Simulation failed, once each, and created no study.
      expect(s.events.filter((e) => e.setupId === id).sort((a, b) => a.sequence - b.sequence).map((e) => e.status)).toEqual(['Requested', 'Simulation failed']);
    }
    expect(s.standIn.studies.size).toBe(1);
    expect(s.stack.bus.broker.deadLettered().filter((m) => m.exchange.endsWith(EXCHANGES.simulationJobs))).toEqual([]);
  }, 90_000);

  test('when a job queued without the names (before they were kept on jobs) finds its profile deleted, then it ends Simulation failed on its row and events only, as before', async () => {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller);
    await s.stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.delete, { caller, type: 'ExternalSimulationProfiles', id: profileId });
    const jobId = randomUUID();
    const pool = testPool(s.stack.databaseUrl, 1);
    try {
      const repository = new SimulationRepository(pool);
      await repository.insertJobs(pool, [{ id: jobId, accountId: caller.accountId, profileId, setupId, kind: 'trigger', sealedCredentials: null, studyId: null, status: 'Requested', sequence: 1 }]);
      await repository.makeLatest(pool, [{ id: jobId, accountId: caller.accountId, setupId }]);
    } finally {
      await pool.end();
    }
    const last = await waitFor(() => s.events.find((e) => e.jobId === jobId && e.status === 'Simulation failed'), "the job's last status");
    expect(last.message).toBe(`The simulation profile ${profileId} was deleted while the simulation ran`);
    expect((await readSetup(s, caller, setupId))[PARAMS.status] ?? null).toBeNull();
  }, 30_000);
});
