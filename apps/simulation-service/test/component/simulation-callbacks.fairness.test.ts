import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIMULATION_COMMANDS, type CallerContext, type SimulationCallback, type SimulationCallbackCreated, type SimulationCallbacks } from '@pitwall/contracts';
import { newAccount, simulateToEnd, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

/**
 * A receiver that answers `/ok/...` at once and holds every request to `/hold/<name>/...` unanswered until the test
 * releases that name (a receiver slower than anything a test waits for, without a clock in the assertions).
 */
async function startHoldingReceiver() {
  const held: { name: string; path: string; webhookId: string; res: ServerResponse }[] = [];
  const received: { path: string; webhookId: string }[] = [];
  const released = new Set<string>();
  let mostHeld = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      const webhookId = String(req.headers['webhook-id']);
      received.push({ path, webhookId });
      const name = /^\/hold\/([^/]+)\//.exec(path)?.[1];
      if (name === undefined || released.has(name)) return void res.writeHead(204).end();
      held.push({ name, path, webhookId, res });
      mostHeld = Math.max(mostHeld, held.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const release = (name: string) => {
    released.add(name);
    for (const h of held.filter((x) => x.name === name)) h.res.writeHead(204).end();
    held.splice(0, held.length, ...held.filter((x) => x.name !== name));
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    held: (name: string) => held.filter((h) => h.name === name),
    /** The most requests held at once, since the last reset. */
    mostHeld: () => mostHeld,
    release,
    stop: () => {
      for (const h of held) release(h.name);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}


describe('callback deliveries shared between accounts and callbacks (SIMULATION_CALLBACK_IN_FLIGHT...)', () => {
  let s: SimulationStack;
  let receiver: Awaited<ReturnType<typeof startHoldingReceiver>>;
  beforeAll(async () => {
    receiver = await startHoldingReceiver();
    // Small bounds, and held requests never time out: four in flight, two of one account, one of one callback.
    s = await startSimulationStack(
      {},
      {
        SIMULATION_CALLBACK_IN_FLIGHT: '4',
        SIMULATION_CALLBACK_IN_FLIGHT_PER_ACCOUNT: '2',
        SIMULATION_CALLBACK_IN_FLIGHT_PER_CALLBACK: '1',
        SIMULATION_CALLBACK_TIMEOUT_MS: '600000',
        EGRESS_TIMEOUT_MS: '600000',
        SIMULATION_CALLBACK_POLL_MS: '20',
        EGRESS_ALLOW: `127.0.0.1:${receiver.port}`,
      },
    );
  });
  afterAll(async () => {
    await receiver.stop();
    await s.stop();
  });

  const register = (caller: CallerContext, url: string) => s.request<SimulationCallbackCreated>(SIMULATION_COMMANDS.registerCallback, { caller, body: { url } });
  const list = async (caller: CallerContext) => (await s.request<SimulationCallbacks>(SIMULATION_COMMANDS.listCallbacks, { caller })).callbacks;
  const byUrl = (callbacks: SimulationCallback[], url: string) => callbacks.find((c) => c.url === url)?.deliveries;

  const simulate = (caller: CallerContext) => simulateToEnd(s, caller);

  test("when one account's receivers hold its deliveries and it has a backlog, then another account's deliveries are delivered while that backlog is still pending, and the holding account never has more in flight than its bounds", async () => {
    const stuck = newAccount();
    const name = randomUUID();
    const stuckUrls = [1, 2, 3].map((i) => `${receiver.url}/hold/${name}/${i}`);
    for (const url of stuckUrls) await register(stuck, url);
    await simulate(stuck);
    // Twelve deliveries due: two in flight (the account's bound), each of another callback (one per callback).
    await waitFor(() => (receiver.held(name).length === 2 ? true : undefined), "the stuck account's first two deliveries to be held");

    const other = newAccount();
    await register(other, `${receiver.url}/ok/${randomUUID()}`);
    await simulate(other);
    await waitFor(async () => ((await list(other))[0]?.deliveries.delivered === 4 ? true : undefined), "the other account's four deliveries");

    // Meanwhile nothing of the stuck account got through, and no more of it was sent than its bounds allow.
    const stuckCallbacks = await list(stuck);
    expect(stuckCallbacks.map((c) => c.deliveries)).toEqual(Array(3).fill({ delivered: 0, pending: 4, failed: 0 }));
    expect(receiver.held(name)).toHaveLength(2);
    expect(new Set(receiver.held(name).map((h) => h.path)).size).toBe(2);
    expect(receiver.received.filter((r) => r.path.startsWith(`/hold/${name}/`))).toHaveLength(2);

    // Released, the backlog drains: every message once to each callback (none was given up or sent twice).
    receiver.release(name);
    await waitFor(async () => ((await list(stuck)).every((c) => c.deliveries.delivered === 4) ? true : undefined), "the stuck account's backlog delivered");
    for (const url of stuckUrls) {
      const path = new URL(url).pathname;
      const ids = receiver.received.filter((r) => r.path === path).map((r) => r.webhookId);
      expect(new Set(ids).size).toBe(4);
      expect(ids).toHaveLength(4);
    }
    expect(receiver.mostHeld()).toBe(2);
  });

  test("when one callback of an account holds its deliveries, then the account's other callback is delivered meanwhile", async () => {
    const caller = newAccount();
    const name = randomUUID();
    const slowUrl = `${receiver.url}/hold/${name}/slow`;
    const fastUrl = `${receiver.url}/ok/${randomUUID()}`;
    await register(caller, slowUrl);
    await register(caller, fastUrl);
    await simulate(caller);

    await waitFor(async () => (byUrl(await list(caller), fastUrl)?.delivered === 4 ? true : undefined), 'the fast callback to get every message');
    expect(byUrl(await list(caller), slowUrl)).toEqual({ delivered: 0, pending: 4, failed: 0 });
    expect(receiver.held(name)).toHaveLength(1);

    receiver.release(name);
    await waitFor(async () => (byUrl(await list(caller), slowUrl)?.delivered === 4 ? true : undefined), 'the slow callback to get every message');
  });
});
