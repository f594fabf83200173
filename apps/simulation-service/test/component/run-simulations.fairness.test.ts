import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { EXCHANGES, SIMULATION_COMMANDS, type CallerContext, type SimulationResults } from '@pitwall/contracts';
import { testPool } from '@pitwall/db/testing';
import { SIMULATION_WORKERS } from '../../src/definition';
import { startCraftedSystem, type CraftedSystem } from '../support/crafted-system';
import { buildProfile, connect, create, enteredCar, newAccount, PARAMS, readSetup, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

/** A fresh account on the crafted system with `count` setups named `<prefix> n` (one event and car), not triggered yet. */
async function accountWithSetups(s: SimulationStack, crafted: CraftedSystem, prefix: string, count: number): Promise<{ caller: CallerContext; profileId: string; setupIds: string[] }> {
  const caller = newAccount();
  await connect(s, caller, { baseUrl: crafted.url });
  const profileId = await buildProfile(s, caller, { BaseUrl: crafted.url });
  const parents = await enteredCar(s, caller, 'Car 7');
  const setupIds: string[] = [];
  for (let i = 0; i < count; i++) setupIds.push((await create(s, caller, 'Setups', parents, { Name: `${prefix} ${i}` })).Id);
  return { caller, profileId, setupIds };
}

async function trigger(s: SimulationStack, account: { caller: CallerContext; profileId: string; setupIds: string[] }): Promise<void> {
  const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller: account.caller, body: { externalProfileId: account.profileId, setupIds: account.setupIds } });
  expect(answer.results.every((r) => r.accepted)).toBe(true);
}

describe("one account's backlog of simulation jobs and another account's job", () => {
  let s: SimulationStack;
  let crafted: CraftedSystem;
  beforeAll(async () => {
    crafted = await startCraftedSystem();
    s = await startSimulationStack({}, { EGRESS_ALLOW: new URL(crafted.url).host });
  });
  afterAll(async () => {
    await s.stop();
    await crafted.stop();
  });

  test("when one account's backlog of many jobs is slow to be taken (each of its deliveries held at its share's check), then another account's job reaches the external system and completes meanwhile; once let go the backlog runs its share at a time, each job once", async () => {
    const busy = `Backlog ${randomUUID()}`;
    const count = SIMULATION_WORKERS * 5;
    const share = SIMULATION_WORKERS / 2;
    let released = false;
    for (let i = 0; i < count; i++) crafted.answers.set(`${busy} ${i}`, { status: () => (released ? '{"status":"completed"}' : '{"status":"queued"}') });
    const creates = (prefix: string) => crafted.calls.filter((c) => c.method === 'POST' && c.path === '/studies' && c.name?.startsWith(prefix));
    const a = await accountWithSetups(s, crafted, busy, count);
    const other = `Other ${randomUUID()}`;
    crafted.answers.set(`${other} 0`, { status: (poll) => (poll === 1 ? '{"status":"running","message":"lap 1"}' : '{"status":"completed"}') });
    const b = await accountWithSetups(s, crafted, other, 1);

    // Every delivery of the busy account's jobs waits at its share's check while this session holds the account's
    // admission lock: as the audit's backlog, each job of which cost a database round trip (20 a second), made the
    // queue's head wait. The other account's admissions do not take that lock.
    const pool = testPool(s.stack.databaseUrl, 1);
    const held: PoolClient = await pool.connect();
    try {
      await held.query("SELECT pg_advisory_lock(hashtextextended('simulation.jobs.share:' || $1, 0))", [a.caller.accountId]);
      await trigger(s, a);
      await trigger(s, b);

      await waitFor(() => s.events.find((e) => e.setupId === b.setupIds[0] && e.status === 'Processing completed'), "the other account's simulation to complete behind the backlog", 30_000);
      expect((await readSetup(s, b.caller, b.setupIds[0] as string))[PARAMS.status]).toBe('Processing completed');
      expect(creates(other)).toHaveLength(1);
      // The backlog waited all along: not one of its studies was created, every setup is Requested.
      expect(creates(busy)).toEqual([]);
      const waiting = await Promise.all(a.setupIds.map(async (id) => (await readSetup(s, a.caller, id))[PARAMS.status]));
      expect(waiting).toEqual(Array(count).fill('Requested'));
    } finally {
      await held.query("SELECT pg_advisory_unlock(hashtextextended('simulation.jobs.share:' || $1, 0))", [a.caller.accountId]).catch(() => undefined);
      held.release();
      await pool.end();
    }

    // Let go, the backlog runs its share of the workers at a time, and to its end, each job once.
    await waitFor(() => (creates(busy).length >= share ? true : undefined), "the backlog's first jobs to start");
    expect(creates(busy)).toHaveLength(share);
    released = true;
    for (const setupId of a.setupIds) await waitFor(() => s.events.find((e) => e.setupId === setupId && e.status === 'Processing completed'), 'every job of the backlog to complete', 60_000);
    expect(creates(busy).map((c) => c.name).sort()).toEqual(Array.from({ length: count }, (_, i) => `${busy} ${i}`).sort());
    for (const setupId of a.setupIds) expect(s.events.filter((e) => e.setupId === setupId && e.status === 'Processing completed')).toHaveLength(1);
    expect(s.stack.bus.broker.deadLettered().filter((m) => m.exchange.endsWith(EXCHANGES.simulationJobs))).toEqual([]);
  }, 120_000);
});
