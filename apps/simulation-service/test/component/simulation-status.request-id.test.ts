import { randomUUID } from 'node:crypto';
import type { BusEvent } from '@pitwall/bus';
import { EXCHANGES, SERVICES, SIMULATION_COMMANDS, type SimulationResults, type SimulationStatusChanged } from '@pitwall/contracts';
import { buildProfile, buildSetup, connect, newAccount, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

/** docs/api.md: the request id travels to the events a request causes, the job's later steps included. */
describe('simulation status events carry the request id of the Trigger that started the job', () => {
  let s: SimulationStack;
  const events: BusEvent[] = [];
  const setupEvents: BusEvent[] = [];
  beforeAll(async () => {
    s = await startSimulationStack();
    await s.stack.bus.subscribe(EXCHANGES.simulationStatus, `status-request-id-${randomUUID()}`, ['#'], async (e) => void events.push(e));
    await s.stack.bus.subscribe(EXCHANGES.entityEvents, `setup-request-id-${randomUUID()}`, ['entity.Setup.updated'], async (e) => void setupEvents.push(e));
  });
  afterAll(() => s.stop());

  test('when a Trigger with a request id runs to its end, then every step, Requested to Processing completed, carries that request id', async () => {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller);
    const requestId = `req-trigger-${randomUUID()}`;
    const answer = await s.stack.bus.request<SimulationResults>(SERVICES.simulation, SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } }, { headers: { requestId } });
    expect(answer.results[0]?.accepted).toBe(true);

    const mine = () => events.filter((e) => (e.payload as SimulationStatusChanged).setupId === setupId);
    await waitFor(() => mine().find((e) => (e.payload as SimulationStatusChanged).status === 'Processing completed'), 'the last status event');
    const steps = mine().sort((a, b) => (a.payload as SimulationStatusChanged).sequence - (b.payload as SimulationStatusChanged).sequence);
    // In the header and in the payload (what an HTTP callback's `data` is: a subscriber ties the job to its request).
    expect(steps.map((e) => [(e.payload as SimulationStatusChanged).status, e.headers.requestId, (e.payload as SimulationStatusChanged).requestId])).toEqual([
      ['Requested', requestId, requestId],
      ['Simulation started', requestId, requestId],
      ['Running', requestId, requestId],
      ['Processing completed', requestId, requestId],
    ]);
    // Each step is written to the setup too: those entity.Setup.updated events carry the Trigger's request id, the
    // job's later steps as well as the Trigger's own write.
    const ofSetup = () => setupEvents.filter((e) => JSON.stringify(e.payload).toLowerCase().includes(setupId.toLowerCase()));
    await waitFor(() => (ofSetup().length >= 4 ? true : undefined), 'a setup event for each step');
    expect(ofSetup().map((e) => e.headers.requestId)).toEqual(ofSetup().map(() => requestId));
  });
});
