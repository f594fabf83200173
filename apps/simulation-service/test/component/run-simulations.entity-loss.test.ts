import { EXCHANGES } from '@pitwall/contracts';
import { entityService } from '@pitwall/entity-service';
import { standInResults } from '@pitwall/simulation-standin';
import { PARAMS, readSetup, startSimulationStack, triggerOne, waitFor, type SimulationStack } from '../support/simulation-stack';

// An accepted job is never lost to an outage of what it writes through: while the entity-service has no running
// instance (a restart, a deployment) the job's event is kept and run again, not handed back to its queue, where five
// redeliveries within milliseconds would have dead-lettered it.
describe('a simulation job while the entity-service has no running instance', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    // The study stays running until the test lets it complete.
    s = await startSimulationStack({ runningPolls: Number.MAX_SAFE_INTEGER });
  });
  afterAll(() => s.stop());

  test('when the entity-service goes while the study runs and comes back seconds later, then the job completes with its results, each status once and in order, and nothing is dead-lettered', async () => {
    const { caller, setupId } = await triggerOne(s);
    await waitFor(() => s.events.find((e) => e.setupId === setupId && e.status === 'Running'), 'the job to run');

    await s.entity.stop();
    // The study completes now: the job reads the result and cannot write it (no entity-service). Handed back, its event
    // would be dead-lettered within milliseconds; it is kept across these seconds instead.
    s.standIn.options.runningPolls = 0;
    await waitFor(() => s.standIn.calls.find((c) => c.method === 'GET' && c.path.endsWith('/results')), 'the job to read the results');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const deadJobs = () => s.stack.bus.broker.deadLettered().filter((m) => m.exchange.endsWith(EXCHANGES.simulationJobs));
    expect(deadJobs()).toEqual([]);

    await s.stack.start(entityService);
    await waitFor(() => s.events.find((e) => e.setupId === setupId && e.status === 'Processing completed'), 'the job to complete', 60_000);
    const events = s.events.filter((e) => e.setupId === setupId).sort((a, b) => a.sequence - b.sequence);
    expect(events.map((e) => e.status)).toEqual(['Requested', 'Simulation started', 'Running', 'Processing completed']);
    const setup = await readSetup(s, caller, setupId);
    const studyId = events[1]?.studyId as string;
    expect(setup).toMatchObject({ [PARAMS.status]: 'Processing completed', [PARAMS.studyId]: studyId, ...standInResults(s.standIn.studies.get(studyId) as { name: string }) });
    expect(s.standIn.studies.size).toBe(1);
    expect(deadJobs()).toEqual([]);
  }, 90_000);
});
