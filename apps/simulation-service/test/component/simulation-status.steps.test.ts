import { SIMULATION_COMMANDS, type SimulationStatusResults } from '@pitwall/contracts';
import { PARAMS, readSetup, startSimulationStack, triggerOne, waitFor, type SimulationStack } from '../support/simulation-stack';

/**
 * What a user polling GET /ExternalSimulations/Status sees of the steps (docs/api.md): the latest one. `Simulation
 * started` is recorded (on the setup, the job, the events) and replaced by the study's first status read, which
 * follows it at once: here the pause between two reads is ten minutes, and Running still comes without it.
 */
describe('the status steps of a simulation, as Status polls and the events show them', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    s = await startSimulationStack({ runningPolls: 5 }, { SIMULATION_POLL_INTERVAL_MS: '600000' });
  });
  afterAll(() => s.stop());

  test('when a study has started and its first status read answered running, then Status answers Running, and Simulation started is on the events before it with the same study', async () => {
    const { caller, profileId, setupId } = await triggerOne(s);

    const running = await waitFor(() => s.events.find((e) => e.setupId === setupId && e.status === 'Running'), 'Running');
    const events = s.events.filter((e) => e.setupId === setupId).sort((a, b) => a.sequence - b.sequence);
    expect(events.map((e) => [e.sequence, e.status])).toEqual([
      [1, 'Requested'],
      [2, 'Simulation started'],
      [3, 'Running'],
    ]);
    const studyId = events[1]?.studyId as string;
    expect(studyId).toMatch(/^st-/);
    // One status read of the study so far: the one right after it started.
    expect(s.standIn.studies.get(studyId)?.polls).toBe(1);

    const [status] = (await s.request<SimulationStatusResults>(SIMULATION_COMMANDS.status, { caller, externalProfileId: profileId, setupIds: [setupId] })).results;
    expect(status).toEqual({ setupId, setupFound: true, status: 'Running', message: running.message, studyId, lastUpdateTime: running.occurredAt });
    expect(await readSetup(s, caller, setupId)).toMatchObject({ [PARAMS.status]: 'Running', [PARAMS.studyId]: studyId });
  });
});
