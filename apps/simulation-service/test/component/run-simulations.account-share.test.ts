import { randomUUID } from 'node:crypto';
import { EXCHANGES, SIMULATION_COMMANDS, type CallerContext, type SimulationResults } from '@pitwall/contracts';
import { randomBytes } from 'node:crypto';
import { startInProcessStack } from '@pitwall/service-host/testing';
import { SIMULATION_WORKERS, simulationService } from '../../src/definition';
import { startCraftedSystem, type CraftedSystem } from '../support/crafted-system';
import { buildProfile, buildSetup, connect, newAccount, PARAMS, readSetup, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

const QUEUED = '{"status":"queued"}';

/** A fresh account on the crafted system with `count` setups named `<prefix> n`, all triggered at once. */
async function triggerMany(s: SimulationStack, crafted: CraftedSystem, prefix: string, count: number): Promise<{ caller: CallerContext; setupIds: string[] }> {
  const caller = newAccount();
  await connect(s, caller, { baseUrl: crafted.url });
  const profileId = await buildProfile(s, caller, { BaseUrl: crafted.url });
  const setupIds: string[] = [];
  for (let i = 0; i < count; i++) setupIds.push(await buildSetup(s, caller, { Name: `${prefix} ${i}` }));
  const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds } });
  expect(answer.results.every((r) => r.accepted)).toBe(true);
  return { caller, setupIds };
}

describe("an account's share of the simulation workers (SIMULATION_MAX_JOBS_PER_ACCOUNT)", () => {
  let s: SimulationStack;
  let crafted: CraftedSystem;
  beforeAll(async () => {
    crafted = await startCraftedSystem();
    // The default share: half of SIMULATION_WORKERS.
    s = await startSimulationStack({}, { EGRESS_ALLOW: new URL(crafted.url).host });
  });
  afterAll(async () => {
    await s.stop();
    await crafted.stop();
  });

  test("when one account's studies stay queued on more setups than an instance has workers, then it runs only its share, another account's simulation runs to its end meanwhile, and once the studies end every waiting job runs, each once", async () => {
    const busy = `Busy ${randomUUID()}`;
    let released = false;
    const count = SIMULATION_WORKERS + 2;
    for (let i = 0; i < count; i++) crafted.answers.set(`${busy} ${i}`, { status: () => (released ? '{"status":"completed"}' : QUEUED) });
    const creates = () => crafted.calls.filter((c) => c.method === 'POST' && c.path === '/studies' && c.name?.startsWith(busy));
    const a = await triggerMany(s, crafted, busy, count);
    const share = SIMULATION_WORKERS / 2;
    await waitFor(() => (creates().length >= share ? true : undefined), "the busy account's running jobs");

    const other = `Other ${randomUUID()}`;
    crafted.answers.set(`${other} 0`, { status: (poll) => (poll === 1 ? '{"status":"running","message":"lap 1"}' : '{"status":"completed"}') });
    const b = await triggerMany(s, crafted, other, 1);
    await waitFor(() => s.events.find((e) => e.setupId === b.setupIds[0] && e.status === 'Processing completed'), "the other account's simulation to complete");
    expect((await readSetup(s, b.caller, b.setupIds[0] as string))[PARAMS.status]).toBe('Processing completed');

    // The busy account still runs its share and no more: the rest are Requested, their studies not created.
    expect(creates()).toHaveLength(share);
    const statuses = await Promise.all(a.setupIds.map(async (id) => (await readSetup(s, a.caller, id))[PARAMS.status]));
    expect(statuses.filter((status) => status === 'Simulation started')).toHaveLength(share);
    expect(statuses.filter((status) => status === 'Requested')).toHaveLength(count - share);

    released = true;
    for (const setupId of a.setupIds) await waitFor(() => s.events.find((e) => e.setupId === setupId && e.status === 'Processing completed'), 'every busy setup to complete', 60_000);
    // Nothing twice: one study per setup, one Requested and one Processing completed per job; nothing dead-lettered.
    expect(creates().map((c) => c.name).sort()).toEqual(Array.from({ length: count }, (_, i) => `${busy} ${i}`).sort());
    for (const setupId of a.setupIds) {
      const statusesOf = s.events.filter((e) => e.setupId === setupId).map((e) => e.status);
      expect(statusesOf.filter((x) => x === 'Requested')).toHaveLength(1);
      expect(statusesOf.filter((x) => x === 'Processing completed')).toHaveLength(1);
    }
    expect(s.stack.bus.broker.deadLettered().filter((m) => m.exchange.endsWith(EXCHANGES.simulationJobs))).toEqual([]);
  }, 90_000);
});

describe('the longest a job follows its study (SIMULATION_MAX_RUN_MS)', () => {
  let s: SimulationStack;
  let crafted: CraftedSystem;
  beforeAll(async () => {
    crafted = await startCraftedSystem();
    s = await startSimulationStack({}, { EGRESS_ALLOW: new URL(crafted.url).host, SIMULATION_MAX_RUN_MS: '300' });
  });
  afterAll(async () => {
    await s.stop();
    await crafted.stop();
  });

  test('when a study stays queued past it, then the run ends Simulation failed naming the variable and the study is no longer read', async () => {
    const name = `Forever ${randomUUID()}`;
    crafted.answers.set(`${name} 0`, { status: () => QUEUED });
    const { caller, setupIds } = await triggerMany(s, crafted, name, 1);
    const setupId = setupIds[0] as string;
    const last = await waitFor(() => s.events.find((e) => e.setupId === setupId && /failed|completed/.test(e.status)), 'the last status event');
    const message = "The study did not end within 300 ms of the job's start (SIMULATION_MAX_RUN_MS); it is no longer followed";
    expect(last).toMatchObject({ status: 'Simulation failed', message });
    expect(await readSetup(s, caller, setupId)).toMatchObject({ [PARAMS.status]: 'Simulation failed', [PARAMS.message]: message });
    const reads = () => crafted.calls.filter((c) => c.method === 'GET' && c.name === `${name} 0`).length;
    const readsAtEnd = reads();
    await new Promise((r) => setTimeout(r, 200));
    expect(reads()).toBe(readsAtEnd);
  });
});

describe('SIMULATION_JOB_REPUBLISH_MS below a second', () => {
  test('when it is below 1000, then the service does not start, naming the variable (a woken job would be published again at almost every wake)', async () => {
    const stack = await startInProcessStack();
    try {
      await expect(stack.start(simulationService, { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_JOB_REPUBLISH_MS: '999' })).rejects.toThrow(/SIMULATION_JOB_REPUBLISH_MS/);
    } finally {
      await stack.stop();
    }
  });
});

describe('SIMULATION_MAX_RUN_MS of 0', () => {
  test('when it is 0, then the service does not start, naming the variable', async () => {
    const stack = await startInProcessStack();
    try {
      await expect(stack.start(simulationService, { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_MAX_RUN_MS: '0' })).rejects.toThrow(/SIMULATION_MAX_RUN_MS/);
    } finally {
      await stack.stop();
    }
  });
});
