import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { EXCHANGES, SIMULATION_COMMANDS, type SimulationResults, type SimulationStatusResults } from '@pitwall/contracts';
import { testPool } from '@pitwall/db/testing';
import { createLogger } from '@pitwall/service-kit';
import { startInProcessStack } from '@pitwall/service-host/testing';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { SIMULATION_JOBS_QUEUE, simulationService } from '../../src/definition';
import { JobRetention } from '../../src/domain/job-retention';
import { JOB_ROUTING_PREFIX, type JobMessage } from '../../src/domain/request-simulations';
import { FINAL_STATUS, startSimulationStack, triggerOne, waitFor, type SimulationStack } from '../support/simulation-stack';

const DAYS = 30;

/** What a client reads of a setup whose finished job the retention purged (docs/simulation-events.md, "Retention"). */
describe('GET /ExternalSimulations/Status of a setup whose job was purged', () => {
  let s: SimulationStack;
  let pool: Pool;
  beforeAll(async () => {
    s = await startSimulationStack({ runningPolls: 1 });
    pool = testPool(s.stack.databaseUrl, 2);
  });
  afterAll(async () => {
    await pool.end();
    await s.stop();
  });

  /** The setup's jobs made older than the retention, and one purge pass, as an instance's hourly one. */
  async function purgeJobsOf(setupId: string): Promise<string[]> {
    const { rows } = await pool.query<{ id: string }>(`UPDATE simulation.jobs SET updated_at = now() - make_interval(days => $2 + 1) WHERE setup_id = $1 RETURNING id`, [setupId, DAYS]);
    await new JobRetention(new SimulationRepository(pool), { days: DAYS }, createLogger('test')).purge();
    const left = await pool.query('SELECT 1 FROM simulation.jobs WHERE id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
    expect(left.rowCount).toBe(0);
    return rows.map((r) => r.id);
  }
  const statusOf = async (t: Awaited<ReturnType<typeof triggerOne>>) =>
    (await s.request<SimulationStatusResults>(SIMULATION_COMMANDS.status, { caller: t.caller, externalProfileId: t.profileId, setupIds: [t.setupId] })).results;

  test("when a finished job is purged, then the setup's Status answers exactly as before (its last status is the setup's own parameter), a late copy of the job's message does nothing, and the setup can be triggered again", async () => {
    const triggered = await triggerOne(s);
    const last = await waitFor(() => s.events.find((e) => e.setupId === triggered.setupId && FINAL_STATUS.test(e.status)), 'the last status event');
    const before = await statusOf(triggered);
    expect(before).toEqual([{ setupId: triggered.setupId, setupFound: true, status: 'Processing completed', message: null, studyId: last.studyId, lastUpdateTime: last.occurredAt }]);

    const [jobId] = await purgeJobsOf(triggered.setupId);

    expect(await statusOf(triggered)).toEqual(before);

    // A copy of its message (a dead-letter shovelled back, a republished copy) finds no job: acked, nothing written.
    const studies = s.standIn.studies.size;
    const eventsBefore = s.events.length;
    await s.stack.bus.publish(EXCHANGES.simulationJobs, `${JOB_ROUTING_PREFIX}${triggered.caller.accountId}`, { jobId } satisfies JobMessage);
    await waitFor(() => ((s.stack.bus.broker.findQueue(`test.${SIMULATION_JOBS_QUEUE}`)?.size ?? 0) === 0 ? true : undefined), 'the copy to be delivered');
    await sleep(300);
    expect(s.standIn.studies.size).toBe(studies);
    expect(s.events.length).toBe(eventsBefore);
    expect(await statusOf(triggered)).toEqual(before);
    expect(s.stack.bus.broker.deadLettered().filter((m) => m.exchange.endsWith(EXCHANGES.simulationJobs))).toEqual([]);

    // The setup's latest-run row went with its last job: a new Trigger makes one and runs, its events numbered from 1.
    const again = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller: triggered.caller, body: { externalProfileId: triggered.profileId, setupIds: [triggered.setupId] } });
    expect(again.results[0]?.accepted).toBe(true);
    const next = await waitFor(() => s.events.find((e) => e.setupId === triggered.setupId && e.jobId !== jobId && FINAL_STATUS.test(e.status)), 'the new run to end');
    expect(next.status).toBe('Processing completed');
    expect(s.events.filter((e) => e.jobId === next.jobId).map((e) => e.sequence).sort()).toEqual([1, 2, 3, 4]);
  });
});

describe('SIMULATION_JOB_RETENTION_DAYS', () => {
  test.each(['abc', '-1', '1.5', '36501'])('when it is %s, then the service does not start, naming the variable', async (value) => {
    const stack = await startInProcessStack();
    try {
      await expect(stack.start(simulationService, { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_JOB_RETENTION_DAYS: value })).rejects.toThrow(/SIMULATION_JOB_RETENTION_DAYS/);
    } finally {
      await stack.stop();
    }
  });

  test('when it is 0 (keep for ever) or 36500, then the service starts', async () => {
    const stack = await startInProcessStack();
    try {
      for (const value of ['0', '36500']) {
        const running = await stack.start(simulationService, { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_JOB_RETENTION_DAYS: value });
        await running.stop();
      }
    } finally {
      await stack.stop();
    }
  });
});
