import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { EXCHANGES, SERVICES, SIMULATION_COMMANDS, type CallerContext, type SimulationCallbackCreated, type SimulationResults, type SimulationStatusChanged } from '@pitwall/contracts';
import { testPool } from '@pitwall/db/testing';
import { startInProcessStack, startRefusal, type InProcessStack } from '@pitwall/service-host/testing';
import { verifyWebhook } from '@pitwall/testing';
import { entityService } from '@pitwall/entity-service';
import { startSimulationStandIn, type SimulationStandIn } from '@pitwall/simulation-standin';
import { simulationService } from '../../src/definition';
import { recordedRegistrationSecret } from '../../src/domain/callbacks';
import { CONNECTION_UNOPENABLE } from '../../src/domain/run-simulation-job';
import { SecretBox } from '../../src/domain/secret-box';
import { buildProfile, buildSetup, connect, FINAL_STATUS, newAccount, waitFor, type SimulationStack } from '../support/simulation-stack';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const base64 = (key: Buffer): string => key.toString('base64');

/** An account connected, with a callback registered (under an Idempotency-Key), a profile and a setup, all under key A. */
interface Prepared {
  caller: CallerContext;
  clientId: string;
  profileId: string;
  setupId: string;
  created: SimulationCallbackCreated;
  registration: { commandId: string; commandHash: string };
}

describe('rotating SIMULATION_SECRET_KEY (SIMULATION_SECRET_KEY_PREVIOUS)', () => {
  let stack: InProcessStack;
  let standIn: SimulationStandIn;
  let pool: Pool;
  let s: SimulationStack;
  const events: SimulationStatusChanged[] = [];
  const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  let receiverUrl = '';
  const env = (key: Buffer, previous?: string): NodeJS.ProcessEnv => ({
    SIMULATION_SECRET_KEY: base64(key),
    ...(previous === undefined ? {} : { SIMULATION_SECRET_KEY_PREVIOUS: previous }),
    SIMULATION_POLL_INTERVAL_MS: '5',
    SIMULATION_CALLBACK_POLL_MS: '20',
    EGRESS_ALLOW: `${new URL(standIn.url).host},${new URL(receiverUrl).host}`,
  });
  let simulation: Awaited<ReturnType<typeof startSimulation>>;
  const startSimulation = (e: NodeJS.ProcessEnv) => stack.start(simulationService, e);
  const restart = async (e: NodeJS.ProcessEnv) => {
    await simulation.stop();
    simulation = await startSimulation(e);
  };

  async function prepare(): Promise<Prepared> {
    const caller = newAccount();
    const { clientId } = await connect(s, caller);
    const registration = { commandId: `key:${randomUUID()}`, commandHash: randomUUID() };
    const created = await stack.bus.request<SimulationCallbackCreated>(SERVICES.simulation, SIMULATION_COMMANDS.registerCallback, { caller, body: { url: `${receiverUrl}/${caller.accountId}` } }, { headers: registration });
    return { caller, clientId, profileId: await buildProfile(s, caller), setupId: await buildSetup(s, caller), created, registration };
  }
  const trigger = async ({ caller, profileId, setupId }: Prepared): Promise<SimulationStatusChanged> => {
    const from = events.length;
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
    expect(answer.results[0]?.accepted).toBe(true);
    return waitFor(() => events.slice(from).find((e) => e.setupId === setupId && FINAL_STATUS.test(e.status)), 'the last status event');
  };
  /** The account's stored sealed values: its connection, its callback's secret, its registration's recorded answer's secret. */
  async function storedOf(caller: CallerContext): Promise<Buffer[]> {
    const connection = await pool.query<{ sealed: Buffer }>('SELECT sealed FROM simulation.connections WHERE account_id = $1', [caller.accountId]);
    const callback = await pool.query<{ sealed_secret: Buffer }>('SELECT sealed_secret FROM simulation.callbacks WHERE account_id = $1', [caller.accountId]);
    const recorded = await pool.query<{ reply_body: Buffer }>(`SELECT reply_body FROM simulation.inbox WHERE scope = $1 AND reply_body IS NOT NULL AND position('"secret"'::bytea IN reply_body) > 0`, [caller.accountId]);
    const [c] = connection.rows;
    const [b] = callback.rows;
    const sealedReply = recorded.rows.length === 1 ? recordedRegistrationSecret.sealedIn(recorded.rows[0]?.reply_body ?? Buffer.alloc(0)) : null;
    if (!c || !b || connection.rows.length + callback.rows.length !== 2 || !sealedReply) throw new Error('the account has one connection, one callback and one recorded registration');
    return [c.sealed, b.sealed_secret, sealedReply];
  }

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    standIn = await startSimulationStandIn();
    stack = await startInProcessStack();
    pool = testPool(stack.databaseUrl);
    await stack.start(entityService);
    simulation = await startSimulation(env(keyA));
    await stack.bus.subscribe(EXCHANGES.simulationStatus, `status-watch-${randomUUID()}`, ['#'], async (e) => void events.push(e.payload as SimulationStatusChanged));
    s = { stack, standIn, events, request: (type: string, payload: unknown) => stack.bus.request(SERVICES.simulation, type, payload) } as unknown as SimulationStack;
  });
  afterAll(async () => {
    await pool.end();
    await stack.stop();
    await standIn.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  test('when the key is replaced without the old one kept as previous, then a connection sealed under the old one does not open: its job ends naming the connection; with the old key as previous, the connection and the callback keep working, everything is re-sealed under the new key alone, and a replayed registration answers the same secret', async () => {
    const rotated = await prepare();
    const onlyB = new SecretBox(keyB);
    expect((await storedOf(rotated.caller)).map((sealed) => onlyB.sealedUnder(sealed))).toEqual(['none', 'none', 'none']);

    // The new key alone: the old values do not open (as before rotation existed), and nothing is re-sealed.
    await restart(env(keyB));
    const refused = await trigger(rotated);
    expect(refused).toMatchObject({ status: 'Simulation start failed', message: CONNECTION_UNOPENABLE });
    // What the account reads says what to do, never the service's settings (its log names the keys tried).
    expect(CONNECTION_UNOPENABLE).toBe("The account's connection to the external simulation system can no longer be used: an admin must set it again (PUT /ExternalSimulations/Connection)");
    expect(standIn.logins).not.toContain(rotated.clientId);
    expect((await storedOf(rotated.caller)).map((sealed) => onlyB.sealedUnder(sealed))).toEqual(['none', 'none', 'none']);

    // The new key with the old one as previous: everything opens, and the sweep re-seals it under the new key alone.
    await restart(env(keyB, ` ${base64(randomBytes(32))},${base64(keyA)} `));
    const completed = await trigger(rotated);
    expect(completed.status).toBe('Processing completed');
    expect(standIn.logins).toContain(rotated.clientId);
    const mine = () => received.filter((r) => r.path === `/${rotated.caller.accountId}` && r.body.includes(rotated.setupId));
    await waitFor(() => (mine().some((r) => r.body.includes('Processing completed')) ? true : undefined), 'the callback deliveries of the completed run');
    expect(mine().length).toBeGreaterThanOrEqual(3);
    expect(mine().every((r) => verifyWebhook(rotated.created.secret, r.headers, r.body))).toBe(true);

    await waitFor(async () => ((await storedOf(rotated.caller)).every((sealed) => onlyB.sealedUnder(sealed) === 'current') ? true : undefined), 'every value re-sealed under the new key');
    expect(await simulation.parts.rotation.pass()).toMatchObject({ connections: { previous: 0 }, jobs: { previous: 0 }, callbacks: { previous: 0 }, registrations: { previous: 0 } });
    const replayed = await stack.bus.request<SimulationCallbackCreated>(SERVICES.simulation, SIMULATION_COMMANDS.registerCallback, { caller: rotated.caller, body: { url: `${receiverUrl}/${rotated.caller.accountId}` } }, { headers: rotated.registration });
    expect(replayed).toEqual(rotated.created);

    // Now re-sealed, they open under the new key alone.
    await restart(env(keyB));
    const setupId = await buildSetup(s, rotated.caller);
    expect((await trigger({ ...rotated, setupId })).status).toBe('Processing completed');
  }, 60_000);

  describe('when SIMULATION_SECRET_KEY_PREVIOUS is not a list of 32-byte base64 keys other than the current one, then the start fails naming it, never printing a key', () => {
    const cases: [string, () => string][] = [
      ['a malformed key', () => `${base64(keyA)},not base64!`],
      ['a key of the wrong length', () => base64(randomBytes(16))],
    ];
    test.each(cases)('%s', async (_, previous) => {
      const value = previous();
      const message = await startRefusal(simulationService, { SIMULATION_SECRET_KEY: base64(keyB), SIMULATION_SECRET_KEY_PREVIOUS: value });
      expect(message).toMatch(/SIMULATION_SECRET_KEY_PREVIOUS: key \d of \d is not/);
      for (const part of value.split(',')) expect(message).not.toContain(part);
      expect(message).not.toContain(base64(keyB));
    });

    test('no current key every instance shares (SIMULATION_SECRET_KEY unset, its key file not there yet: one would be generated and everything re-sealed under it)', async () => {
      const { SIMULATION_SECRET_KEY: _current, ...rest } = env(keyB, base64(keyA));
      const file = join(tmpdir(), `pitwall-no-key-${randomBytes(6).toString('hex')}`);
      const refused = stack.start(simulationService, { ...rest, SIMULATION_SECRET_KEY_FILE: file });
      await expect(refused).rejects.toThrow(/SIMULATION_SECRET_KEY_PREVIOUS: set without a current key/);
      expect(existsSync(file)).toBe(false);
      expect(await refused.catch((err: Error) => err.message)).not.toContain(base64(keyA));
    });

    test('the current key itself', async () => {
      const equal = stack.start(simulationService, { ...env(keyB), SIMULATION_SECRET_KEY_PREVIOUS: `${base64(keyA)},${base64(keyB)}` });
      await expect(equal).rejects.toThrow(/SIMULATION_SECRET_KEY_PREVIOUS: key 2 of 2 is the current key/);
      const message = await equal.catch((err: Error) => err.message);
      expect(message).not.toContain(base64(keyA));
      expect(message).not.toContain(base64(keyB));
    });
  });
});
