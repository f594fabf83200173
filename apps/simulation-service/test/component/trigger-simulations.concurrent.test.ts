import { SIMULATION_COMMANDS, type EntityJson, type SimulationResults } from '@pitwall/contracts';
import { EntityClient } from '../../src/data-access/entity-client';
import { ExternalSimulationClient } from '../../src/data-access/external-simulation-client';
import { buildProfile, buildSetup, connect, FINAL_STATUS, newAccount, PARAMS, readSetup, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

// A Trigger and a Reprocess of the same setup sent at the same moment: whatever order their checks and writes
// interleave in, the outcome is that of one after the other.
describe('a Trigger and a Reprocess of the same setup at the same moment', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    s = await startSimulationStack();
  });
  afterAll(() => s.stop());

  const lastOf = (jobId: string) => waitFor(() => s.events.find((e) => e.jobId === jobId && FINAL_STATUS.test(e.status)), `the last status of job ${jobId}`);

  test("when the Reprocess checked the setups before the Trigger was accepted but takes their write slots after it, then it is refused for the triggered setup (its study ID cleared, as if sent after the Trigger), the other setup is reprocessed, and the Trigger's new study runs to the end", async () => {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const [raced, other] = [await buildSetup(s, caller), await buildSetup(s, caller)] as [string, string];
    // Both completed once: each holds its study ID.
    const first = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [raced, other] } });
    expect(first.results.map((r) => r.accepted)).toEqual([true, true]);
    const done = await Promise.all([raced, other].map((id) => waitFor(() => s.events.find((e) => e.setupId === id && e.status === 'Processing completed'), 'the first run\'s end')));
    const [oldRaced, oldOther] = done.map((e) => e.studyId as string) as [string, string];
    expect((await readSetup(s, caller, raced))[PARAMS.studyId]).toBe(oldRaced);

    // The Reprocess's check reads the setups (both study IDs there), then waits until the Trigger has been answered.
    let entered!: () => void;
    const checked = new Promise<void>((resolve) => (entered = resolve));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const original = EntityClient.prototype.findSetups;
    let held = false;
    const spy = jest.spyOn(EntityClient.prototype, 'findSetups').mockImplementation(async function (this: EntityClient, ...args: Parameters<EntityClient['findSetups']>): Promise<Map<string, EntityJson>> {
      const read = await original.apply(this, args);
      if (!held && args[1].includes(other)) {
        held = true;
        entered();
        await gate;
      }
      return read;
    });
    // The Trigger's job creates its study (and writes its id) only once the Reprocess is answered, so the Reprocess
    // meets the setup as the Trigger's `Requested` left it.
    let answered!: () => void;
    const reprocessAnswered = new Promise<void>((resolve) => (answered = resolve));
    const create = ExternalSimulationClient.prototype.createStudy;
    const createSpy = jest.spyOn(ExternalSimulationClient.prototype, 'createStudy').mockImplementation(async function (this: ExternalSimulationClient, ...args: Parameters<ExternalSimulationClient['createStudy']>) {
      await reprocessAnswered;
      return create.apply(this, args);
    });
    try {
      const reprocess = s.request<SimulationResults>(SIMULATION_COMMANDS.reprocess, { caller, body: { externalProfileId: profileId, setupIds: [raced, other], parameterNameForStudyId: PARAMS.studyId } });
      await checked;
      const trigger = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [raced] } });
      expect(trigger.results).toEqual([{ setupId: raced, accepted: true, studyId: null, message: null }]);
      open();
      const answer = await reprocess.finally(answered);
      expect(answer.results).toEqual([
        { setupId: raced, accepted: false, studyId: null, message: `The setup has no study ID in its parameter ${PARAMS.studyId}` },
        { setupId: other, accepted: true, studyId: oldOther, message: null },
      ]);
    } finally {
      open();
      answered();
      spy.mockRestore();
      createSpy.mockRestore();
    }

    // The raced setup ends with the Trigger's new study, the other reprocessed with its own.
    const triggerJob = await waitFor(() => s.events.find((e) => e.setupId === raced && e.status === 'Requested' && e.jobId !== done[0]?.jobId), "the Trigger's Requested");
    const last = await lastOf(triggerJob.jobId);
    expect(last.status).toBe('Processing completed');
    expect(last.studyId).not.toBe(oldRaced);
    expect(await readSetup(s, caller, raced)).toMatchObject({ [PARAMS.status]: 'Processing completed', [PARAMS.studyId]: last.studyId });
    expect(s.events.filter((e) => e.setupId === raced && e.jobId !== done[0]?.jobId && e.jobId !== triggerJob.jobId)).toEqual([]);
    const reprocessJob = await waitFor(() => s.events.find((e) => e.setupId === other && e.status === 'Requested' && e.jobId !== done[1]?.jobId), "the Reprocess's Requested");
    expect(await lastOf(reprocessJob.jobId)).toMatchObject({ status: 'Processing completed', studyId: oldOther });
  });
});
