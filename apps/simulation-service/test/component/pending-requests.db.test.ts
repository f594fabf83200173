import { randomUUID } from 'node:crypto';
import { SimulationRepository, type PendingRequest, type WriteSlot } from '../../src/data-access/simulation-repository';
import { useMigratedDatabase } from '../support/migrated-database';

/** A Trigger's recorded work on the real PostgreSQL: who may finish it, and what its setups' write slots do meanwhile. */
describe("a request's recorded work in the database", () => {
  const db = useMigratedDatabase(4);
  const repository = () => new SimulationRepository(db.pool);

  function pendingOn(accountId: string, setups: number): { pending: PendingRequest; slots: WriteSlot[] } {
    const jobs = Array.from({ length: setups }, () => ({ id: randomUUID(), setupId: randomUUID(), studyId: null }));
    const pending: PendingRequest = {
      id: randomUUID(),
      accountId,
      command: { id: `key:${randomUUID()}`, requestHash: 'h' },
      owner: randomUUID(),
      sealedCredentials: null,
      work: {
        kind: 'trigger',
        profileId: randomUUID(),
        profileNames: { statusParameter: 'SimStatus', messageParameter: null, studyIdParameter: null, updateTimeParameter: null, resultParameters: [] },
        at: new Date().toISOString(),
        requestId: null,
        results: jobs.map((job) => ({ setupId: job.setupId, accepted: true, studyId: null, message: null, jobId: job.id })),
        items: jobs.map((job) => ({ id: job.setupId, updates: [{ Name: 'SimStatus', Value: 'Requested' }] })),
        jobs,
      },
    };
    return { pending, slots: jobs.map((job) => ({ setupId: job.setupId, holder: job.id })) };
  }

  test('when a request records its work, then its setups stay held for it past the request\'s hold, a restart under npm start keeps them, and only one new owner at a time takes it over once the hold lapsed; the former owner can no longer settle it', async () => {
    const repo = repository();
    const account = randomUUID();
    const { pending, slots } = pendingOn(account, 2);
    // The request's hold: long enough that it cannot lapse between taking the slots and recording the work on a machine
    // whose cores CI keeps busy (200 ms lapsed there on 1 December: 'slots-lost').
    const holdMs = 2000;
    expect(await repo.takeWriteSlots(account, slots, holdMs)).toBe(true);
    expect(await repo.recordPending(pending, slots, holdMs)).toBe('recorded');
    // The same command recorded twice: the second is told so, and records nothing.
    expect(await repo.recordPending({ ...pendingOn(account, 0).pending, command: pending.command }, [], holdMs)).toBe('duplicate');

    // Held: neither the request's lease lapsing nor a restart's freeing lets another take the setups.
    await new Promise((resolve) => setTimeout(resolve, holdMs + 200));
    const client = await db.pool.connect();
    try {
      await repo.freeRuns(client, 60_000, { at: await repo.databaseNow() });
    } finally {
      client.release();
    }
    expect(await repo.takeWriteSlots(account, slots.map((slot) => ({ ...slot, holder: randomUUID() })), 60_000)).toBe(false);

    // Lapsed: found by the sweep and by a repeat of the command; taken over by one of two at once.
    expect(await repo.lapsedPending(1000)).toContain(pending.id);
    expect(await repo.pendingOf(account, pending.command?.id as string)).toMatchObject({ id: pending.id, lapsed: true, work: pending.work });
    const [a, b] = await Promise.all([repo.takeOverPending(pending.id, randomUUID(), 60_000), repo.takeOverPending(pending.id, randomUUID(), 60_000)]);
    const taken = (a ?? b) as PendingRequest;
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await repo.lapsedPending(1000)).not.toContain(pending.id);
    expect(await repo.takeOverPending(pending.id, randomUUID(), 60_000)).toBeNull();

    // The former owner's settle does nothing; the new owner's removes the work.
    expect(await repo.settlePending(db.pool, pending.id, pending.owner)).toBe(false);
    expect(await repo.settlePending(db.pool, pending.id, taken.owner)).toBe(true);
    expect(await repo.pendingOf(account, pending.command?.id as string)).toBeNull();
  });

  test("when a request's slots lapsed before it recorded its work (it ran past its deadline), then nothing is recorded", async () => {
    const repo = repository();
    const account = randomUUID();
    const { pending, slots } = pendingOn(account, 2);
    expect(await repo.takeWriteSlots(account, slots, 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await repo.recordPending(pending, slots, 60_000)).toBe('slots-lost');
    expect(await repo.pendingOf(account, pending.command?.id as string)).toBeNull();
    // Another request takes the setups.
    expect(await repo.takeWriteSlots(account, slots.map((slot) => ({ ...slot, holder: randomUUID() })), 60_000)).toBe(true);
  });

  test('when its owner gives the work up, then it lapses at once and is never held longer by that', async () => {
    const repo = repository();
    const account = randomUUID();
    const { pending, slots } = pendingOn(account, 1);
    expect(await repo.takeWriteSlots(account, slots, 60_000)).toBe(true);
    expect(await repo.recordPending(pending, slots, 60_000)).toBe('recorded');
    expect(await repo.lapsedPending(1000)).not.toContain(pending.id);
    await repo.leavePending(pending.id, pending.owner, 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await repo.lapsedPending(1000)).toContain(pending.id);
    await repo.leavePending(pending.id, pending.owner, 60_000);
    expect(await repo.lapsedPending(1000)).toContain(pending.id);
  });
});
