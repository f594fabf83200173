import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { testPool } from '@pitwall/db/testing';
import { startSimulationStandIn, type SimulationStandIn } from '@pitwall/simulation-standin';
import { DistributedStack } from './support/distributed';
import { waitFor } from './support/simulations';

const ROOT = path.join(__dirname, '..', '..', '..');
const JOBS = 6;


describe('one external study per job (five-process stack)', () => {
  let stack: DistributedStack;
  let standIn: SimulationStandIn;
  let replacement: ChildProcess | undefined;
  let killed: Promise<unknown> | undefined;
  afterAll(async () => {
    replacement?.kill('SIGKILL');
    await stack?.stop();
    await standIn?.stop();
  });

  test('when the simulation-service is killed -9 right after the external system created a study and before it was recorded, then after a restart every job completes and the external system holds one study per job', async () => {
    // The kill lands the moment the stand-in has answered the first create: the service has the study's id in hand
    // (or on the wire) and has recorded nothing; the other jobs' creates are under way or queued behind it.
    standIn = await startSimulationStandIn({
      runningPolls: 2,
      onStudyCreated: () => {
        if (killed) return;
        const service = stack.stack.procs.find((p) => p.name === 'simulation-service')!;
        killed = new Promise((resolve) => service.child.once('exit', resolve));
        service.child.kill('SIGKILL');
      },
    });
    // The egress policy refuses loopback: the stand-in's host:port is allowed, as an operator allows a private system.
    // The killed runs' jobs go on once their leases lapse (TEST_RUN_LEASE_MS, given to the replacement too): 20 s by
    // default, waited for here; 6 s still leaves a renewal (every third of it) 4 s late on a loaded machine.
    const env = { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_POLL_INTERVAL_MS: '100', EGRESS_ALLOW: new URL(standIn.url).host, TEST_RUN_LEASE_MS: '6000' };
    stack = await DistributedStack.start({ env, readyTimeoutMs: 90_000 });
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
    for (let i = 0; i < JOBS; i++) setupIds.push(id(await m.client.addSetup(event, car, named(`Quali trim ${i}`))));
    expect((await m.client.putExternalSimulationConnection({ clientId: 'team', clientSecret: 'secret', username: 'engineer', password: 'pw', baseUrl: standIn.url })).statusCode).toBe(204);

    // Not awaited before the kill: the jobs may start (and the kill land) before the Trigger's answer has left.
    const triggered = m.client.triggerExternalSimulations({ externalProfileId: profileId, setupIds });
    await waitFor(() => killed, 'the first study to be created', 30_000);
    await killed;
    const studiesAtKill = standIn.studies.size;
    replacement = spawn(process.execPath, [path.join(ROOT, 'dist', 'apps', 'simulation-service', 'main.js')], { env: { ...process.env, ...stack.env, HEALTH_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-12_000));
    replacement.stdout?.on('data', collect);
    replacement.stderr?.on('data', collect);

    // Answered (by the replacement from its inbox, or before the kill) or, past the bus timeout, 504 outcome unknown:
    // the jobs were committed either way (a study exists, and a Trigger commits all its setups' jobs at once).
    const answer = await triggered;
    if (answer.statusCode === 200) expect(answer.returnValue?.results.map((r) => r.accepted)).toEqual(setupIds.map(() => true));
    else expect(answer.statusCode).toBe(504);
    let seen: unknown[] = [];
    const results = await waitFor(async () => {
      if (replacement?.exitCode !== null) throw new Error(`the restarted simulation-service exited with code ${replacement?.exitCode}:\n${output}`);
      const status = (await m.client.getExternalSimulationStatus(profileId, setupIds)).returnValue?.results ?? [];
      seen = status.map((s) => [s.status, s.message]);
      return status.length === JOBS && status.every((s) => s.status === 'Processing completed') ? status : undefined;
    }, 'every job to complete after the restart', 120_000).catch(async (err: Error) => {
      // What each setup last said, what the jobs and the setups' write slots hold, and what the replacement logged: a
      // run that does not end says why.
      const pool = testPool(stack.databaseUrl, 1);
      const held = await Promise.all([
        pool.query(`SELECT id, setup_id, state, message, sequence, waiting, runner IS NOT NULL AS leased, runner_until - now() AS lease_left, woken_until - now() AS woken_left, received_at - now() AS received, dead_lettered FROM simulation.jobs`),
        pool.query(`SELECT setup_id, job_id, writer, writer_until - now() AS writer_left FROM simulation.setup_runs`),
      ]).then(([jobs, runs]) => JSON.stringify({ jobs: jobs.rows, setupRuns: runs.rows }), (e: Error) => `unread: ${e.message}`).finally(() => pool.end());
      throw new Error(`${err.message}; statuses: ${JSON.stringify(seen)}; studies: ${standIn.studies.size}; the database: ${held}; the replacement's last output:\n${output}`);
    });

    expect(studiesAtKill).toBeGreaterThanOrEqual(1);
    // One study per job: every create after the restart that repeated one of before it carried the job's key.
    expect(standIn.studies.size).toBe(JOBS);
    const studies = [...standIn.studies.values()];
    expect(new Set(studies.map((s) => s.idempotencyKey)).size).toBe(JOBS);
    expect(new Set(results.map((r) => r.studyId))).toEqual(new Set(studies.map((s) => s.id)));
    // Some create was sent again after the restart (the killed instance's jobs were redelivered), answered with its study.
    expect(standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length).toBeGreaterThan(JOBS);
  }, 240_000);
});
