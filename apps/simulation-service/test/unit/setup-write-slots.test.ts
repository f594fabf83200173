import type { SimulationRepository } from '../../src/data-access/simulation-repository';
import { SetupWriteSlots } from '../../src/domain/setup-write-slots';

/** A repository whose slots another holder keeps (a job that died mid-step, its lease not yet run out). */
const heldElsewhere = { takeWriteSlots: async () => false } as unknown as SimulationRepository;
const slot = [{ setupId: '00000000-0000-4000-8000-000000000001', holder: '00000000-0000-4000-8000-000000000002' }];

describe('SetupWriteSlots.takeForRequest', () => {
  test("when the slots stay held, then it gives up at the request's deadline with a 503, not at the lease", async () => {
    const slots = new SetupWriteSlots(heldElsewhere, { leaseMs: 600_000, retryMs: 5 });
    await expect(slots.takeForRequest('00000000-0000-4000-8000-0000000000aa', slot, Date.now() + 50)).rejects.toMatchObject({ status: 503 });
  });

  test('when the slots are free, then it takes them at once', async () => {
    const taken: unknown[] = [];
    const free = { takeWriteSlots: async (...args: unknown[]) => (taken.push(args), true) } as unknown as SimulationRepository;
    await new SetupWriteSlots(free, { leaseMs: 1000, retryMs: 5 }).takeForRequest('00000000-0000-4000-8000-0000000000aa', slot, Date.now() + 50);
    expect(taken).toHaveLength(1);
  });
});
