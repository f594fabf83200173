import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PitwallClient } from '@pitwall/client';
import { startSimulationStandIn, type SimulationStandIn } from '@pitwall/simulation-standin';
import { startEmbedded, type Embedded } from './support/embedded';
import { buildSimulationFixture } from './support/simulations';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort } = require('../../../tools/stack.cjs') as { freePort(): Promise<number> };

// npm start's bus lives in its process: the jobs it held went with a killed process. The jobs' rows say which were
// unfinished, and a restart on the same data directory queues them again.
describe('npm start killed -9 while a simulation job runs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pitwall-embedded-sim-kill-'));
  let standIn: SimulationStandIn;
  let embedded: Embedded | undefined;
  beforeAll(async () => {
    // Outside the process that is killed, so the study outlives it: running for 40 status reads.
    standIn = await startSimulationStandIn({ scenario: 'slow', slowPolls: 40 });
  });
  afterAll(async () => {
    await embedded?.stop();
    await standIn?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (env: NodeJS.ProcessEnv = {}) => startEmbedded(dataDir, await freePort(), { EGRESS_ALLOW: new URL(standIn.url).host, SIMULATION_POLL_INTERVAL_MS: '200', ...env });
  /** The account's profile and setups (the first test triggers the first; the second the others). */
  let fixture: { profileId: string; setupIds: string[] };
  const clientOf = (e: Embedded) => new PitwallClient({ baseUrl: e.baseUrl, apiKey: e.apiKey, accountId: e.accountId });
  async function statusOf(client: PitwallClient, profileId: string, setupId: string): Promise<{ status?: string | null; studyId?: string | null }> {
    return (await client.getExternalSimulationStatus(profileId, [setupId])).returnValue?.results[0] ?? {};
  }
  /** What the process said, without its request lines. */
  const logged = () => (embedded?.output() ?? '').split('\n').filter((l) => !l.includes('"msg":"request"')).join('\n').slice(-5000);
  async function until(client: PitwallClient, profileId: string, setupId: string, status: string): Promise<{ status?: string | null; studyId?: string | null }> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const seen = await statusOf(client, profileId, setupId);
      if (seen.status === status) return seen;
      if (Date.now() > deadline) throw new Error(`the setup stayed ${seen.status} (waiting for ${status})\n${logged()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  test('when the process is killed -9 while the job runs and started again on its data directory, then the job goes on with its study to Processing completed', async () => {
    embedded = await start();
    const client = clientOf(embedded);
    fixture = await buildSimulationFixture(client, standIn.url, 4);
    const { profileId, setupId } = { profileId: fixture.profileId, setupId: fixture.setupIds[0] as string };
    expect((await client.putExternalSimulationConnection({ clientId: 'team', clientSecret: 'secret', username: 'engineer', password: 'pw', baseUrl: standIn.url })).statusCode).toBe(204);
    expect((await client.triggerExternalSimulations({ externalProfileId: profileId, setupIds: [setupId] })).returnValue?.results).toEqual([expect.objectContaining({ setupId, accepted: true })]);
    const running = await until(client, profileId, setupId, 'Running');
    expect(running.studyId).toMatch(/^st-/);

    await embedded.kill();
    // Killed while the study runs (40 reads gave the kill seconds to land); from here the job of the new process reads
    // it running once more, then completed, rather than wait out the rest of the 40.
    const study = standIn.studies.get(running.studyId as string);
    expect(study?.polls).toBeLessThanOrEqual(standIn.options.slowPolls);
    standIn.options.slowPolls = (study?.polls ?? 0) + 1;
    embedded = await start();
    expect(embedded.output()).not.toMatch(/"level":(50|60)|\bERROR\b/);
    const done = await until(clientOf(embedded), profileId, setupId, 'Processing completed');
    // The same study, the one created before the kill: one study for the one job.
    expect(done.studyId).toBe(running.studyId);
    expect(standIn.studies.size).toBe(1);
  }, 240_000);

  test("when the process is killed -9 with a Trigger's jobs committed waiting, before their first wake (the in-process bus never held them), and started again, then each job is woken and runs once", async () => {
    await embedded?.stop();
    // This process holds its wakes (test-only): the Trigger's jobs are committed waiting and never published.
    embedded = await start({ TEST_HOLD_WAKES_MS: '600000' });
    const client = clientOf(embedded);
    const setupIds = fixture.setupIds.slice(1);
    // Nothing runs while the process is killed here: the studies need not run long (running at their first read).
    standIn.options.slowPolls = 1;
    const studiesBefore = standIn.studies.size;
    const answer = await client.triggerExternalSimulations({ externalProfileId: fixture.profileId, setupIds });
    expect(answer.returnValue?.results.map((r) => r.accepted)).toEqual(setupIds.map(() => true));
    for (const setupId of setupIds) expect((await statusOf(client, fixture.profileId, setupId)).status).toBe('Requested');
    expect(standIn.studies.size).toBe(studiesBefore);

    await embedded.kill();
    embedded = await start();
    const after = clientOf(embedded);
    const done: { studyId?: string | null }[] = [];
    for (const setupId of setupIds) done.push(await until(after, fixture.profileId, setupId, 'Processing completed'));
    // One study per job, each the one its setup shows: no job ran twice.
    expect(standIn.studies.size - studiesBefore).toBe(setupIds.length);
    expect(new Set(done.map((d) => d.studyId)).size).toBe(setupIds.length);
    expect(standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies')).toHaveLength(standIn.studies.size);
  }, 240_000);
});
