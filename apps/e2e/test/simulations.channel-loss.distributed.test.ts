import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { testPool } from '@pitwall/db/testing';
import { startSimulationStandIn, type SimulationStandIn } from '@pitwall/simulation-standin';
import { closeBrokerConnections, until } from './support/broker-faults';
import { DistributedStack } from './support/distributed';
import { waitFor } from './support/simulations';

/** More jobs than one instance's workers (SIMULATION_WORKERS, 8), all of one account allowed to run them all. */
const JOBS = 12;
const WORKERS = 8;

describe('simulation jobs when the broker closes the simulation-service\'s connection (five-process stack)', () => {
  let stack: DistributedStack;
  let standIn: SimulationStandIn;
  let pool: Pool;
  afterAll(async () => {
    await pool?.end();
    await stack?.stop();
    await standIn?.stop();
  });

  test('when the connection carrying 8 running jobs is closed, then the instance still runs at most 8 at once (the lost deliveries\' runs stop and their redelivered copies resume them), and every job completes with one study', async () => {
    // Studies stay running until the test lets them complete.
    standIn = await startSimulationStandIn({ runningPolls: 1_000_000 });
    const env = { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_POLL_INTERVAL_MS: '100', EGRESS_ALLOW: new URL(standIn.url).host, SIMULATION_MAX_JOBS_PER_ACCOUNT: String(JOBS) };
    stack = await DistributedStack.start({ env, readyTimeoutMs: 90_000 });
    pool = testPool(stack.databaseUrl, 2);
    const m = await stack.member('admin');
    const id = (r: { statusCode: number; returnValue?: { Id: string } | null }): string => {
      if (!r.returnValue) throw new Error(`create answered ${r.statusCode}`);
      return r.returnValue.Id;
    };
    const named = (value: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: value }] });
    for (const name of ['SimStatus', 'SimMessage', 'SimStudyId', 'SimUpdated'])
      expect((await m.client.addParameterDefinition({ ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'EntityType', Value: 'Setups' }, { Name: 'ParameterType', Value: 'Text' }] })).statusCode).toBe(201);
    const profileId = id(
      await m.client.addExternalSimulationProfile({
        ParameterUpdates: [
          { Name: 'Name', Value: 'Lap sim' },
          { Name: 'BaseUrl', Value: standIn.url },
          { Name: 'StatusParameterName', Value: 'SimStatus' },
          { Name: 'StatusMessageParameterName', Value: 'SimMessage' },
          { Name: 'StudyIdParameterName', Value: 'SimStudyId' },
          { Name: 'StatusUpdateTimeParameterName', Value: 'SimUpdated' },
        ],
      }),
    );
    const event = id(await m.client.addEvent(id(await m.client.addChampionship(named('Cup'))), named('Spa')));
    const car = id(await m.client.addCar(named('Car 7')));
    await m.client.addEventCar(event, car, {});
    const setupIds: string[] = [];
    for (let i = 0; i < JOBS; i++) setupIds.push(id(await m.client.addSetup(event, car, named(`Race trim ${i}`))));
    expect((await m.client.putExternalSimulationConnection({ clientId: 'team', clientSecret: 'secret', username: 'engineer', password: 'pw', baseUrl: standIn.url })).statusCode).toBe(204);
    expect((await m.client.triggerExternalSimulations({ externalProfileId: profileId, setupIds })).statusCode).toBe(200);

    // Jobs a worker runs now: each holds a live lease.
    const leased = async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM simulation.jobs WHERE runner_until > now()')).rows[0]?.n);
    await until('the instance to run as many jobs as its workers', async () => (await leased()) === WORKERS && standIn.studies.size === WORKERS);

    const service = stack.stack.procs.find((p) => p.name === 'simulation-service');
    expect(await closeBrokerConnections(service?.child.pid as number, stack.prefix)).toBeGreaterThan(0);
    // The instance reconnects and consumes again: the jobs it held come back to it, and so do the 4 it had not taken.
    let most = 0;
    for (const end = Date.now() + 8000; Date.now() < end; ) {
      most = Math.max(most, await leased());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(most).toBeLessThanOrEqual(WORKERS);

    standIn.options.runningPolls = 0;
    const results = await waitFor(async () => {
      const status = (await m.client.getExternalSimulationStatus(profileId, setupIds)).returnValue?.results ?? [];
      return status.length === JOBS && status.every((s) => s.status === 'Processing completed') ? status : undefined;
    }, 'every job to complete', 120_000);
    expect(standIn.studies.size).toBe(JOBS);
    expect(new Set(results.map((r) => r.studyId)).size).toBe(JOBS);
    expect(service?.child.exitCode).toBeNull();
  }, 240_000);
});
