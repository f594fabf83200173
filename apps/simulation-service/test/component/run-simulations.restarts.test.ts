import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_MAX_DELIVERIES } from '@pitwall/bus';
import { EXCHANGES, SIMULATION_COMMANDS, SERVICES, type SimulationResults, type SimulationStatusChanged } from '@pitwall/contracts';
import type { RunningService } from '@pitwall/service-host';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '@pitwall/entity-service';
import { simulationService } from '../../src/definition';
import { startCraftedSystem, type CraftedSystem } from '../support/crafted-system';
import { buildProfile, buildSetup, connect, newAccount, waitFor, type SimulationStack } from '../support/simulation-stack';

/** A long job on an instance stopped and started again more times than the job queue's delivery limit (deploys). */
describe('a simulation job across stops of its instance', () => {
  let stack: InProcessStack;
  let crafted: CraftedSystem;
  let simulation: RunningService;
  const events: SimulationStatusChanged[] = [];
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    crafted = await startCraftedSystem();
    stack = await startInProcessStack();
    await stack.start(entityService);
    env = { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_POLL_INTERVAL_MS: '5', EGRESS_ALLOW: new URL(crafted.url).host };
    simulation = await stack.start(simulationService, env);
    await stack.bus.subscribe(EXCHANGES.simulationStatus, `status-watch-${randomUUID()}`, ['#'], async (e) => void events.push(e.payload as SimulationStatusChanged));
  });
  afterAll(async () => {
    await stack.stop();
    await crafted.stop();
  });

  test("when its instance stops more times than the delivery limit while the study runs, then the job is never dead-lettered: it resumes after each start and completes, each step once", async () => {
    // The helpers take a stack of this shape: the simulation-service answers through the same bus.
    const s = { stack, standIn: { url: crafted.url }, request: (type: string, payload: unknown) => stack.bus.request(SERVICES.simulation, type, payload) } as unknown as SimulationStack;
    const caller = newAccount();
    await connect(s, caller, { baseUrl: crafted.url });
    const profileId = await buildProfile(s, caller, { BaseUrl: crafted.url });
    const name = `Deploys ${randomUUID()}`;
    let released = false;
    crafted.answers.set(name, { status: () => (released ? '{"status":"completed"}' : '{"status":"queued"}') });
    const setupId = await buildSetup(s, caller, { Name: name });
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
    expect(answer.results[0]?.accepted).toBe(true);
    await waitFor(() => events.find((e) => e.setupId === setupId && e.status === 'Simulation started'), 'the job to start');

    const reads = () => crafted.calls.filter((c) => c.method === 'GET' && c.name === name).length;
    for (let stop = 0; stop <= DEFAULT_MAX_DELIVERIES; stop++) {
      const before = reads();
      await waitFor(() => (reads() > before ? true : undefined), 'the job to poll its study');
      await simulation.stop();
      simulation = await stack.start(simulationService, env);
    }
    released = true;
    await waitFor(() => events.find((e) => e.setupId === setupId && e.status === 'Processing completed'), 'the job to complete', 30_000);
    expect(events.filter((e) => e.setupId === setupId).map((e) => e.status)).toEqual(['Requested', 'Simulation started', 'Processing completed']);
    expect(stack.bus.broker.deadLettered().filter((m) => m.exchange.endsWith(EXCHANGES.simulationJobs))).toEqual([]);
  }, 60_000);
});
