import { ENTITY_COMMANDS, EXCHANGES, SERVICES, SIMULATION_COMMANDS, type SimulationResults, type SimulationStatusResults } from '@pitwall/contracts';
import { standInResults } from '@pitwall/simulation-standin';
import { buildProfile, buildSetup, connect, create, newAccount, PARAMS, readSetup, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

describe('simulation jobs against the external system (stand-in)', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    s = await startSimulationStack({ runningPolls: 2 });
  });
  afterAll(() => s.stop());

  /** Triggers one setup of a fresh connected account and waits for the job's last status. */
  async function runOne(setupParameters: Record<string, string> = {}, last = /^(Processing completed|Simulation start failed|Simulation failed)$/) {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller, setupParameters);
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
    expect(answer.results[0]?.accepted).toBe(true);
    await waitFor(() => s.events.find((e) => e.setupId === setupId && last.test(e.status)), 'the last status event');
    const events = s.events.filter((e) => e.setupId === setupId).sort((a, b) => a.sequence - b.sequence);
    return { caller, profileId, setupId, events, setup: await readSetup(s, caller, setupId) };
  }

  test('when the study runs and completes, then the status goes Requested → Simulation started → Running → Processing completed, each announced in order, and the results are on the setup', async () => {
    const { setupId, events, setup } = await runOne();
    expect(events.map((e) => [e.sequence, e.status])).toEqual([
      [1, 'Requested'],
      [2, 'Simulation started'],
      [3, 'Running'],
      [4, 'Processing completed'],
    ]);
    const studyId = events[1]?.studyId as string;
    expect(studyId).toMatch(/^st-/);
    expect(events.slice(1).every((e) => e.studyId === studyId)).toBe(true);
    expect(setup).toMatchObject({ [PARAMS.status]: 'Processing completed', [PARAMS.studyId]: studyId, [PARAMS.message]: null });
    const study = s.standIn.studies.get(studyId);
    expect(setup).toMatchObject(standInResults(study as { name: string }));
    expect(study?.parameters).toMatchObject({ Name: setup['Name'] });
    expect(Date.parse(String(setup[PARAMS.updated]))).toBeGreaterThanOrEqual(Date.parse(events[3]?.occurredAt as string) - 1000);
    expect(events.every((e) => e.setupId === setupId)).toBe(true);
  });

  test("when the external system refuses to start the study, then the status is Simulation start failed saying so in the service's own words, not the system's body", async () => {
    const { events, setup } = await runOne({ Notes: 'standin:start-failure' });
    expect(events.map((e) => e.status)).toEqual(['Requested', 'Simulation start failed']);
    expect(setup).toMatchObject({ [PARAMS.status]: 'Simulation start failed', [PARAMS.message]: 'The simulation system answered 422 Unprocessable Entity to POST /studies' });
  });

  test('when a result does not fit the setup parameter the profile names for it, then the run ends Simulation failed saying why, not Running for ever', async () => {
    const caller = newAccount();
    await connect(s, caller);
    // The account defines TopSpeed as a Boolean: the stand-in's 300-something cannot be stored there.
    for (const name of Object.values(PARAMS)) await create(s, caller, 'ParameterDefinitions', {}, { Name: name, EntityType: 'Setups', ParameterType: 'Text' });
    await create(s, caller, 'ParameterDefinitions', {}, { Name: 'LapTime', EntityType: 'Setups', ParameterType: 'Double' });
    await create(s, caller, 'ParameterDefinitions', {}, { Name: 'TopSpeed', EntityType: 'Setups', ParameterType: 'Boolean' });
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller);
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
    expect(answer.results[0]?.accepted).toBe(true);
    await waitFor(() => s.events.find((e) => e.setupId === setupId && /failed|completed/.test(e.status)), 'the last status event');
    const events = s.events.filter((e) => e.setupId === setupId).sort((a, b) => a.sequence - b.sequence);
    expect(events.map((e) => e.status)).toEqual(['Requested', 'Simulation started', 'Running', 'Simulation failed']);
    const message = events[3]?.message as string;
    expect(message).toMatch(/^The results could not be written to the setup: TopSpeed is a Boolean; '3\d\d' is not true or false$/);
    expect(await readSetup(s, caller, setupId)).toMatchObject({ [PARAMS.status]: 'Simulation failed', [PARAMS.message]: message, LapTime: null });
  });

  test('when the study fails, then the status is Simulation failed with the reason', async () => {
    const { events, setup } = await runOne({ Notes: 'standin:fail' });
    expect(events.map((e) => e.status)).toEqual(['Requested', 'Simulation started', 'Running', 'Simulation failed']);
    expect(setup).toMatchObject({ [PARAMS.status]: 'Simulation failed', [PARAMS.message]: 'The solver diverged at lap 3' });
  });

  test('when a setup is triggered again while its first run is still going, then the second run supersedes it: the first stops polling and writes nothing more, and the status only moves forward through the second run to its end', async () => {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    // The first study is slow (it would finish long after the second), the second completes at once.
    const setupId = await buildSetup(s, caller, { Notes: 'standin:slow' });
    const trigger = () => s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
    expect((await trigger()).results[0]?.accepted).toBe(true);
    const firstRunning = await waitFor(() => s.events.find((e) => e.setupId === setupId && e.status === 'Running'), "the first run's Running");
    const firstStudy = firstRunning.studyId as string;
    await s.stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.update, { caller, type: 'Setups', id: setupId, body: { ParameterUpdates: [{ Name: 'Notes', Value: 'quick' }] } });

    const second = await trigger();
    const acceptedAt = Date.now();
    expect(second.results[0]?.accepted).toBe(true);
    // Every status read from the second's acceptance on, until well after the first study would have ended.
    const reads: { status: string | null; studyId: string | null }[] = [];
    const firstPolls = () => s.standIn.studies.get(firstStudy)?.polls ?? 0;
    const pollsAtAcceptance = firstPolls();
    // At least 1.5 s, and on until the second run's end is read (a loaded machine may take longer than that to get there).
    const readUntil = Date.now() + 1500;
    const giveUpAt = Date.now() + 30_000;
    while (Date.now() < readUntil || (reads.at(-1)?.status !== 'Processing completed' && Date.now() < giveUpAt)) {
      const [entry] = (await s.request<SimulationStatusResults>(SIMULATION_COMMANDS.status, { caller, externalProfileId: profileId, setupIds: [setupId] })).results;
      reads.push({ status: entry?.status ?? null, studyId: entry?.studyId ?? null });
      await new Promise((r) => setTimeout(r, 10));
    }

    await waitFor(() => s.events.find((e) => e.setupId === setupId && e.jobId !== firstRunning.jobId && e.status === 'Processing completed'), "the second run's last status event");
    const secondJob = s.events.find((e) => e.setupId === setupId && e.jobId !== firstRunning.jobId)?.jobId;
    const secondEvents = s.events.filter((e) => e.jobId === secondJob).sort((a, b) => a.sequence - b.sequence);
    expect(secondEvents.map((e) => e.status)).toEqual(['Requested', 'Simulation started', 'Running', 'Processing completed']);
    const secondStudy = secondEvents[1]?.studyId as string;
    expect(secondStudy).not.toBe(firstStudy);
    // The first run announced nothing after the second was accepted, and stopped polling its study.
    expect(s.events.filter((e) => e.jobId === firstRunning.jobId).every((e) => Date.parse(e.occurredAt) <= acceptedAt)).toBe(true);
    expect(firstPolls()).toBeLessThanOrEqual(pollsAtAcceptance + 1);
    expect(firstPolls()).toBeLessThan(s.standIn.options.slowPolls);
    // Each read shows the second run (never the first's study), its states in order.
    expect(reads.filter((r) => r.studyId === firstStudy)).toEqual([]);
    const order = ['Requested', 'Simulation started', 'Running', 'Processing completed'];
    const positions = reads.map((r) => order.indexOf(r.status as string));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(reads.at(-1)).toEqual({ status: 'Processing completed', studyId: secondStudy });
    expect(await readSetup(s, caller, setupId)).toMatchObject({ [PARAMS.status]: 'Processing completed', [PARAMS.studyId]: secondStudy });
  });

  test('when the external system answers 503 a few times, then the calls are retried with backoff and the simulation completes', async () => {
    const before = s.standIn.calls.filter((c) => c.status === 503).length;
    s.standIn.options.transientFailures = 2;
    const { events } = await runOne();
    expect(events.at(-1)?.status).toBe('Processing completed');
    expect(s.standIn.calls.filter((c) => c.status === 503).length - before).toBe(2);
  });

  test('when the external system keeps failing, then the job ends Simulation failed saying what it answered (not its body) and its message is dead-lettered', async () => {
    const { events, setup } = await runOne({ Notes: 'standin:unavailable' });
    expect(events.map((e) => e.status)).toEqual(['Requested', 'Simulation failed']);
    expect(setup[PARAMS.message]).toBe('The simulation system answered 503 Service Unavailable to POST /studies');
    const dead = await waitFor(() => s.stack.bus.broker.deadLettered().find((m) => m.exchange.endsWith(EXCHANGES.simulationJobs) && (m.payload as { jobId: string }).jobId === events[0]?.jobId), 'the dead-lettered job');
    expect(dead.routingKey).toMatch(/^job\./);
  });
});
