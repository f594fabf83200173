import { randomUUID } from 'node:crypto';
import { SERVICES, SIMULATION_COMMANDS, type EntityJson, type SimulationResults } from '@pitwall/contracts';
import { EntityClient } from '../../src/data-access/entity-client';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { SimulationWrites } from '../../src/domain/simulation-writes';
import { buildProfile, buildSetup, connect, FINAL_STATUS, newAccount, PARAMS, readSetup, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

/** How long the cut-off request's caller waits: its deadline, and so its hold on the setups, is about as long. */
const CUT_OFF_TIMEOUT_MS = 1500;

// A Trigger whose process stops answering (killed -9, or frozen) between taking its setups' write slots and committing
// their jobs: the setups are held by no one past its deadline, the Requested it wrote is always followed by its jobs,
// once each, and a repeat of its command learns its outcome. The stall is a test hold inside the request (the process
// stays up, so the stalled request, let go afterwards, shows it can no longer write or commit anything).
describe('POST /ExternalSimulations/Trigger cut off before it committed its jobs', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    s = await startSimulationStack();
  });
  afterAll(() => s.stop());
  /** Holds a test left closed (it failed before letting them go): opened after it, or the stack's stop waits for them. */
  const gates: (() => void)[] = [];
  afterEach(() => {
    for (const open of gates.splice(0)) open();
    jest.restoreAllMocks();
  });

  async function completedSetups(count: number) {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const setupIds: string[] = [];
    for (let i = 0; i < count; i++) setupIds.push(await buildSetup(s, caller));
    // Each has run once to its end: the cut-off Trigger writes over that.
    await s.request(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds } });
    for (const id of setupIds) await waitFor(() => s.events.find((e) => e.setupId === id && e.status === 'Processing completed'), 'the first run to end');
    return { caller, profileId, setupIds };
  }
  const trigger = (payload: unknown, headers: Record<string, string>, timeoutMs?: number) =>
    s.stack.bus.request<SimulationResults>(SERVICES.simulation, SIMULATION_COMMANDS.trigger, payload, { headers, ...(timeoutMs ? { timeoutMs } : {}) });
  const keyed = () => ({ commandId: `key:${randomUUID()}`, commandHash: randomUUID() });
  const requestedEvents = (setupId: string, after: number) => s.events.slice(after).filter((e) => e.setupId === setupId && e.status === 'Requested');
  const settled = (setupIds: string[], after: number) =>
    waitFor(async () => {
      const ends = setupIds.map((id) => s.events.slice(after).find((e) => e.setupId === id && FINAL_STATUS.test(e.status)));
      return ends.every(Boolean) ? ends : undefined;
    }, 'every setup to reach its last status');

  /**
   * Holds the first `Requested` write of the setups (the cut-off request's) after it landed: `stalled` resolves once it
   * is held, `release` lets it go on, which then sends the same write once more (a write of a request that had stopped
   * answering, arriving late), and `done` resolves once that late write is answered.
   */
  function stallFirstRequestedWrite() {
    const original = EntityClient.prototype.updateSetups;
    let stalled!: () => void;
    let release!: () => void;
    let done!: (outcome: string) => void;
    const state = { stalled: new Promise<void>((r) => (stalled = r)), gate: new Promise<void>((r) => (release = r)), done: new Promise<string>((r) => (done = r)) };
    gates.push(() => release());
    let first = true;
    jest.spyOn(EntityClient.prototype, 'updateSetups').mockImplementation(async function (this: EntityClient, ...args: Parameters<EntityClient['updateSetups']>) {
      if (!first) return original.apply(this, args);
      first = false;
      const written = await original.apply(this, args);
      stalled();
      await state.gate;
      await original.apply(this, args).then(
        () => done('written'),
        (err: { status?: number }) => done(`refused ${err.status}`),
      );
      return written;
    });
    return { ...state, release };
  }

  /** Each attempt to commit a request's work, once it has ended: what it answered (the setups accepted), or its error. */
  function watchCommits(): string[] {
    const commits: string[] = [];
    const original = SimulationWrites.prototype.once;
    jest.spyOn(SimulationWrites.prototype, 'once').mockImplementation(function (this: SimulationWrites, ...args: Parameters<SimulationWrites['once']>) {
      const attempt = original.apply(this, args) as Promise<unknown>;
      attempt.then(
        (answer) => commits.push(`answered ${(answer as SimulationResults).results.filter((r) => r.accepted).length}`),
        (err: Error) => commits.push(`failed: ${err.message}`),
      );
      return attempt as ReturnType<SimulationWrites['once']>;
    });
    return commits;
  }

  test('when its process stops answering after it wrote Requested, then without any retry each setup gets one job that runs to the end, and the stalled request, let go, writes and commits nothing', async () => {
    const { caller, profileId, setupIds } = await completedSetups(3);
    const creates = s.standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length;
    const after = s.events.length;
    const hold = stallFirstRequestedWrite();
    const commits = watchCommits();

    const cutOff = trigger({ caller, body: { externalProfileId: profileId, setupIds } }, keyed(), CUT_OFF_TIMEOUT_MS);
    await hold.stalled;
    await expect(cutOff).rejects.toMatchObject({ status: 504 });
    for (const id of setupIds) expect((await readSetup(s, caller, id))[PARAMS.status]).toBe('Requested');

    // Nobody sends it again: its work is finished by the service, each setup's job running once to its end.
    const ends = await settled(setupIds, after);
    expect(ends.map((e) => e?.status)).toEqual(setupIds.map(() => 'Processing completed'));
    expect(setupIds.map((id) => requestedEvents(id, after).length)).toEqual(setupIds.map(() => 1));
    expect(s.standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length - creates).toBe(setupIds.length);

    // The stalled request let go: its late write is refused (past its deadline), its commit finds the work finished
    // (the command's answer recorded) and commits nothing more.
    hold.release();
    expect(await hold.done).toBe('refused 504');
    await waitFor(() => (commits.length >= 2 ? true : undefined), "the stalled request's commit");
    expect(commits).toEqual([`answered ${setupIds.length}`, `answered ${setupIds.length}`]);
    for (const id of setupIds) expect((await readSetup(s, caller, id))[PARAMS.status]).toBe('Processing completed');
    expect(setupIds.map((id) => requestedEvents(id, after).length)).toEqual(setupIds.map(() => 1));
  });

  test('when its process stops answering after it wrote Requested, then the retry with the same Idempotency-Key is answered its outcome, each setup accepted and run once', async () => {
    const { caller, profileId, setupIds } = await completedSetups(2);
    const creates = s.standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length;
    const after = s.events.length;
    const hold = stallFirstRequestedWrite();
    // The service's own sweep looks away: the retry alone finishes the work.
    jest.spyOn(SimulationRepository.prototype, 'lapsedPending').mockResolvedValue([]);
    const command = keyed();
    const payload = { caller, body: { externalProfileId: profileId, setupIds } };

    const cutOff = trigger(payload, command, CUT_OFF_TIMEOUT_MS);
    await hold.stalled;
    await expect(cutOff).rejects.toMatchObject({ status: 504 });

    // The retry, as a client sends it after its 504: the outcome, not a 503 while the dead request's hold runs on.
    const retried = await trigger(payload, command);
    expect(retried.results).toEqual(setupIds.map((setupId) => ({ setupId, accepted: true, studyId: null, message: null })));
    await settled(setupIds, after);
    expect(setupIds.map((id) => requestedEvents(id, after).length)).toEqual(setupIds.map(() => 1));
    expect(s.standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length - creates).toBe(setupIds.length);
    // Once more: the same answer, nothing run again.
    expect(await trigger(payload, command)).toEqual(retried);
    hold.release();
    await hold.done;
  });

  test('when its process stops answering after it took the setups\' write slots and before it wrote anything, then another Trigger of the setups is accepted once its deadline has passed, and the setups keep their status meanwhile', async () => {
    const { caller, profileId, setupIds } = await completedSetups(2);
    // The second read of the setups (made once the request holds their slots) never returns.
    const original = EntityClient.prototype.findSetups;
    let reads = 0;
    let stalled!: () => void;
    const held = new Promise<void>((r) => (stalled = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    gates.push(() => release());
    jest.spyOn(EntityClient.prototype, 'findSetups').mockImplementation(async function (this: EntityClient, ...args: Parameters<EntityClient['findSetups']>): Promise<Map<string, EntityJson>> {
      if (++reads === 2) {
        stalled();
        await gate;
      }
      return original.apply(this, args);
    });
    try {
      const cutOff = trigger({ caller, body: { externalProfileId: profileId, setupIds } }, keyed(), CUT_OFF_TIMEOUT_MS);
      await held;
      await expect(cutOff).rejects.toMatchObject({ status: 504 });
      for (const id of setupIds) expect((await readSetup(s, caller, id))[PARAMS.status]).toBe('Processing completed');

      const after = s.events.length;
      const next = await trigger({ caller, body: { externalProfileId: profileId, setupIds } }, keyed());
      expect(next.results.map((r) => [r.setupId, r.accepted, r.message])).toEqual(setupIds.map((id) => [id, true, null]));
      expect((await settled(setupIds, after)).map((e) => e?.status)).toEqual(setupIds.map(() => 'Processing completed'));
    } finally {
      // Let go, past its deadline, the stalled request records nothing.
      release();
    }
  });
});
