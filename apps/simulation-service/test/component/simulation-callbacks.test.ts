import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVICES, SIMULATION_COMMANDS, type CallerContext, type SimulationCallback, type SimulationCallbackCreated, type SimulationCallbacks } from '@pitwall/contracts';
import { verifyWebhook } from '@pitwall/testing';
import { CallbackRepository } from '../../src/data-access/callback-repository';
import { CALLBACK_SECRET_UNOPENABLE } from '../../src/domain/callback-dispatcher';
import { SecretBox } from '../../src/domain/secret-box';
import { buildProfile, buildSetup, callerIn, connect, newAccount, simulateToEnd, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';
import { testPool } from '@pitwall/db/testing';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** What a receiver that leaks would put in an error page: none of it may reach the callback list. */
const SECRET_PAGE = 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY internal admin console';
const HUGE_BYTES = 200 * 1024 * 1024;

/**
 * A receiver: `/ok` answers 204, `/flaky` answers 503 to the first two attempts of each webhook-id, `/down` always 500
 * with a secret-looking page, `/huge` 500 with 200 MiB (as fast as it is read; `huge` counts what was written and
 * whether it all went out), `/redirect` 307 to `/ok?redirected`.
 */
async function startReceiver(): Promise<{ url: string; port: number; received: Received[]; huge: { written: number; finished: number; closedEarly: number }; stop(): Promise<void> }> {
  const received: Received[] = [];
  const huge = { written: 0, finished: 0, closedEarly: 0 };
  let url = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const id = String(req.headers['webhook-id']);
      const earlier = received.filter((r) => r.path === path && r.headers['webhook-id'] === id).length;
      const answered = path === '/down' || path === '/huge' ? 500 : path === '/redirect' ? 307 : path === '/flaky' && earlier < 2 ? 503 : 204;
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      if (path === '/huge') return sendHuge(res, huge);
      if (path === '/redirect') return void res.writeHead(307, { Location: `${url}/ok?redirected` }).end();
      res.writeHead(answered).end(answered >= 500 ? `${SECRET_PAGE} ${'x'.repeat(10_000)}` : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    received,
    huge,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes 200 MiB as fast as the reader takes it, until it is all out or the socket is closed under it. */
function sendHuge(res: ServerResponse, huge: { written: number; finished: number; closedEarly: number }): void {
  const chunk = Buffer.alloc(64 * 1024, SECRET_PAGE);
  let written = 0;
  res.writeHead(500, { 'Content-Type': 'text/plain' });
  res.on('close', () => {
    if (written < HUGE_BYTES) huge.closedEarly++;
  });
  const pump = () => {
    while (written < HUGE_BYTES && !res.destroyed) {
      written += chunk.length;
      huge.written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end(() => huge.finished++);
  };
  pump();
}


describe('HTTP callbacks of simulation status changes (simulation.callbacks.*)', () => {
  let s: SimulationStack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** A port nothing listens on any more, allowed like the receiver's, so its deliveries meet the closed port. */
  let closedUrl: string;
  beforeAll(async () => {
    receiver = await startReceiver();
    const closed = await startReceiver();
    await closed.stop();
    closedUrl = closed.url;
    // The policy allows the test receivers' host:port only (and the stand-in's): every other 127.0.0.1 port stays refused.
    s = await startSimulationStack({}, { SIMULATION_CALLBACK_ATTEMPTS: '3', SIMULATION_CALLBACK_BASE_DELAY_MS: '5', SIMULATION_CALLBACK_POLL_MS: '20', EGRESS_ALLOW: `127.0.0.1:${receiver.port},127.0.0.1:${closed.port}` });
  });
  afterAll(async () => {
    await s.stop();
    await receiver.stop();
  });

  const register = (caller: CallerContext, url: string, description?: string) => s.request<SimulationCallbackCreated>(SIMULATION_COMMANDS.registerCallback, { caller, body: { url, ...(description ? { description } : {}) } });
  const list = (caller: CallerContext) => s.request<SimulationCallbacks>(SIMULATION_COMMANDS.listCallbacks, { caller });

  const simulate = (caller: CallerContext) => simulateToEnd(s, caller);

  test('when a callback is registered and a simulation runs, then every status change arrives signed as documented, and the list shows them delivered without the secret', async () => {
    const caller = newAccount();
    const created = await register(caller, `${receiver.url}/ok`, 'Pit wall dashboard');
    expect(created).toEqual({ id: expect.any(String), url: `${receiver.url}/ok`, description: 'Pit wall dashboard', createdAt: expect.any(String), secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/) });

    const setupId = await simulate(caller);
    const mine = () => receiver.received.filter((r) => r.path === '/ok' && r.body.includes(setupId));
    await waitFor(() => (mine().length >= 4 ? true : undefined), 'four deliveries');
    const deliveries = mine();
    expect(deliveries.map((r) => verifyWebhook(created.secret, r.headers, r.body))).toEqual([true, true, true, true]);
    // The check fails with another secret, or with a body changed on the way.
    const [one] = deliveries as [Received];
    expect(verifyWebhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, one.headers, one.body)).toBe(false);
    expect(verifyWebhook(created.secret, one.headers, one.body.replace(/"status":"[^"]+"/, '"status":"Forged"'))).toBe(false);

    const bodies = deliveries.map((r) => JSON.parse(r.body) as { type: string; data: { setupId: string; status: string; sequence: number; eventId: string } });
    expect(bodies.every((b) => b.type === 'simulation.status' && b.data.setupId === setupId)).toBe(true);
    expect([...bodies].sort((a, b) => a.data.sequence - b.data.sequence).map((b) => b.data.status)).toEqual(['Requested', 'Simulation started', 'Running', 'Processing completed']);
    expect(deliveries.map((r) => r.headers['webhook-id'])).toEqual(bodies.map((b) => b.data.eventId));

    await waitFor(async () => ((await list(caller)).callbacks[0]?.deliveries.delivered === 4 ? true : undefined), 'the deliveries recorded as delivered');
    const listed = await list(caller);
    expect(listed).toEqual({ callbacks: [{ id: created.id, url: `${receiver.url}/ok`, description: 'Pit wall dashboard', createdAt: created.createdAt, deliveries: { delivered: 4, pending: 0, failed: 0 }, recentFailures: [] }] });
    expect(JSON.stringify(listed)).not.toContain(created.secret.slice(6));
  });

  test('when the receiver answers 5xx, then the same message is retried (same webhook-id, a new signature each time) until it is accepted', async () => {
    const caller = newAccount();
    const created = await register(caller, `${receiver.url}/flaky`);
    const setupId = await simulate(caller);
    const mine = () => receiver.received.filter((r) => r.path === '/flaky' && r.body.includes(setupId));
    await waitFor(async () => ((await list(caller)).callbacks[0]?.deliveries.delivered === 4 ? true : undefined), 'every delivery accepted at last');
    const byId = new Map<string, Received[]>();
    for (const r of mine()) byId.set(String(r.headers['webhook-id']), [...(byId.get(String(r.headers['webhook-id'])) ?? []), r]);
    expect(byId.size).toBe(4);
    for (const attempts of byId.values()) {
      expect(attempts.map((a) => a.answered)).toEqual([503, 503, 204]);
      expect(attempts.every((a) => verifyWebhook(created.secret, a.headers, a.body))).toBe(true);
    }
    expect((await list(caller)).callbacks[0]).toMatchObject({ deliveries: { delivered: 4, pending: 0, failed: 0 }, recentFailures: [] });
  });

  test("when the receiver keeps failing, then each message is given up after the configured attempts and the failure is readable in the list, in the service's own words (none of the receiver's page)", async () => {
    const caller = newAccount();
    const created = await register(caller, `${receiver.url}/down`);
    const setupId = await simulate(caller);
    await waitFor(async () => ((await list(caller)).callbacks[0]?.deliveries.failed === 4 ? true : undefined), 'every delivery given up');
    const [callback] = (await list(caller)).callbacks as [SimulationCallback];
    expect(callback).toMatchObject({ id: created.id, deliveries: { delivered: 0, pending: 0, failed: 4 } });
    expect(callback.recentFailures).toHaveLength(4);
    for (const failure of callback.recentFailures) {
      expect(failure).toEqual({
        webhookId: expect.any(String),
        setupId,
        status: expect.any(String),
        state: 'failed',
        attempts: 3,
        lastAttemptAt: expect.any(String),
        nextAttemptAt: null,
        lastStatusCode: 500,
        lastError: 'The receiver answered 500 Internal Server Error (given up after 3 attempts)',
      });
    }
    expect(JSON.stringify(await list(caller))).not.toContain('wJalrXUtnFEMI');
    // Exactly three attempts per message reached the receiver, none after the give-up.
    const attempts = receiver.received.filter((r) => r.path === '/down' && r.body.includes(setupId));
    expect(attempts).toHaveLength(12);
  });

  test('when a receiver cannot be reached, then the failure names the network reason', async () => {
    const caller = newAccount();
    await register(caller, `${closedUrl}/gone`);
    await simulate(caller);
    const callback = await waitFor(async () => {
      const [first] = (await list(caller)).callbacks;
      return first?.deliveries.failed === 4 ? first : undefined;
    }, 'every delivery given up');
    expect(callback.recentFailures[0]).toMatchObject({ lastStatusCode: null, lastError: 'The request to the receiver failed: ECONNREFUSED (given up after 3 attempts)' });
  });

  test("when a callback's secret opens under no key the service has (sealed under a key since removed), then nothing is sent, and its failure as listed says to register it again, naming none of the service's settings", async () => {
    const caller = newAccount();
    const created = await register(caller, `${receiver.url}/ok?lost-key`);
    const pool = testPool(s.stack.databaseUrl, 1);
    try {
      await pool.query('UPDATE simulation.callbacks SET sealed_secret = $2 WHERE id = $1', [created.id, new SecretBox(randomBytes(32)).seal(created.secret)]);
    } finally {
      await pool.end();
    }
    await simulate(caller);
    const callback = await waitFor(async () => {
      const [first] = (await list(caller)).callbacks;
      return first?.deliveries.failed === 4 ? first : undefined;
    }, 'every delivery given up');
    expect(callback.recentFailures.map((f) => [f.lastStatusCode, f.lastError])).toEqual(Array(4).fill([null, `${CALLBACK_SECRET_UNOPENABLE} (given up after 3 attempts)`]));
    expect(CALLBACK_SECRET_UNOPENABLE).toBe(
      "The callback's signing secret can no longer be used, so nothing was sent: delete the callback (DELETE /ExternalSimulations/Callbacks/{id}) and register it again (POST /ExternalSimulations/Callbacks) for a new secret",
    );
    expect(JSON.stringify(callback)).not.toMatch(/SIMULATION_|secret key|sealed/i);
    expect(receiver.received.filter((r) => r.path === '/ok?lost-key')).toEqual([]);
  });

  test('when "description" is null (a wrapper\'s unset string), then the callback is registered without a description', async () => {
    const caller = newAccount();
    const created = await s.request<SimulationCallbackCreated>(SIMULATION_COMMANDS.registerCallback, { caller, body: { url: `${receiver.url}/ok`, description: null } });
    expect(created).toMatchObject({ url: `${receiver.url}/ok`, description: null });
    expect((await list(caller)).callbacks).toEqual([expect.objectContaining({ id: created.id, description: null })]);
  });

  test('when the account already holds MAX_SIMULATION_CALLBACKS (20) callbacks, then another is a 409 naming it and is not registered; after a delete one more fits', async () => {
    const caller = newAccount();
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => register(caller, `${receiver.url}/ok`, `screen ${i}`)));
    await expect(register(caller, `${receiver.url}/ok`, 'one too many')).rejects.toMatchObject({
      status: 409,
      message: 'The account already has 20 simulation callbacks, the most it may hold (MAX_SIMULATION_CALLBACKS is 20): delete one first',
    });
    expect((await list(caller)).callbacks).toHaveLength(20);
    // Another account has its own count.
    await register(newAccount(), `${receiver.url}/ok`);
    await s.request(SIMULATION_COMMANDS.deleteCallback, { caller, id: (created[0] as SimulationCallbackCreated).id });
    await register(caller, `${receiver.url}/ok`, 'in its place');
    expect((await list(caller)).callbacks).toHaveLength(20);
  });

  test('when a callback URL carries a user name and password, then it is a 400 naming url and nothing is registered (the list would show them)', async () => {
    const caller = newAccount();
    await expect(register(caller, `http://ops:s3cret@${receiver.url.slice('http://'.length)}/ok`)).rejects.toMatchObject({ status: 400, errors: { 'body.url': [expect.stringMatching(/^must not carry a user name or password/)] } });
    expect((await list(caller)).callbacks).toEqual([]);
  });

  test('when a callback is deleted, then it is no longer listed nor delivered to, and deleting it again is a 404', async () => {
    const caller = newAccount();
    const created = await register(caller, `${receiver.url}/ok?deleted`);
    const kept = await register(caller, `${receiver.url}/ok?kept`);
    await s.request(SIMULATION_COMMANDS.deleteCallback, { caller, id: created.id });
    expect((await list(caller)).callbacks.map((c) => c.id)).toEqual([kept.id]);
    const setupId = await simulate(caller);
    // Once the kept callback has every message, the deleted one has had its chance: it got none.
    await waitFor(() => (receiver.received.filter((r) => r.path === '/ok?kept' && r.body.includes(setupId)).length === 4 ? true : undefined), 'the kept callback to get every message');
    expect(receiver.received.filter((r) => r.path === '/ok?deleted')).toEqual([]);
    await expect(s.request(SIMULATION_COMMANDS.deleteCallback, { caller, id: created.id })).rejects.toMatchObject({ status: 404, message: `Callback ${created.id} was not found in the account` });

    // A callback with deliveries: once its delete answered, its records are removed (after the answer, in batches).
    await waitFor(async () => ((await list(caller)).callbacks[0]?.deliveries.delivered === 4 ? true : undefined), "the kept callback's deliveries recorded");
    await s.request(SIMULATION_COMMANDS.deleteCallback, { caller, id: kept.id });
    expect(await list(caller)).toEqual({ callbacks: [] });
    const pool = testPool(s.stack.databaseUrl, 1);
    try {
      const left = async () => (await pool.query('SELECT (SELECT count(*)::int FROM simulation.callback_deliveries WHERE callback_id = $1) + (SELECT count(*)::int FROM simulation.callbacks WHERE id = $1) AS n', [kept.id])).rows[0]?.n as number;
      await waitFor(async () => ((await left()) === 0 ? true : undefined), "the deleted callback's records removed");
    } finally {
      await pool.end();
    }
  });

  test('when ended deliveries are older than the kept days, then the sweep removes them and keeps the recent and the pending ones', async () => {
    const caller = newAccount();
    const created = await register(caller, `${receiver.url}/down`);
    await simulate(caller);
    await waitFor(async () => ((await list(caller)).callbacks[0]?.deliveries.failed === 4 ? true : undefined), 'every delivery given up');
    const pool = testPool(s.stack.databaseUrl, 1);
    try {
      // Two of the four ended 31 days ago; one more is still pending (due in an hour).
      await pool.query(`UPDATE simulation.callback_deliveries SET last_attempt_at = now() - interval '31 days' WHERE id IN (SELECT id FROM simulation.callback_deliveries WHERE callback_id = $1 ORDER BY id LIMIT 2)`, [created.id]);
      await pool.query(`INSERT INTO simulation.callback_deliveries (id, callback_id, webhook_id, setup_id, status, body, next_attempt_at) VALUES ($1, $2, 'w', $1, 'Requested', '{}', now() + interval '1 hour')`, [randomUUID(), created.id]);
      const repository = new CallbackRepository(pool);
      expect(await repository.sweepEnded(30)).toBe(2);
      expect((await list(caller)).callbacks[0]?.deliveries).toEqual({ delivered: 0, pending: 1, failed: 2 });
    } finally {
      await pool.end();
    }
  });

  test("when another account's callback is deleted, then it is a 404 and the callback stays", async () => {
    const owner = newAccount();
    const created = await register(owner, `${receiver.url}/ok`);
    await expect(s.request(SIMULATION_COMMANDS.deleteCallback, { caller: newAccount(), id: created.id })).rejects.toMatchObject({ status: 404 });
    expect((await list(owner)).callbacks.map((c) => c.id)).toEqual([created.id]);
  });

  test('when an editor registers, lists or deletes callbacks, then each is a 403', async () => {
    const admin = newAccount();
    const created = await register(admin, `${receiver.url}/ok`);
    const editor = callerIn(admin.accountId, 'editor');
    await expect(register(editor, `${receiver.url}/ok`)).rejects.toMatchObject({ status: 403, message: 'Your role in this account is editor: only an admin registers simulation callbacks' });
    await expect(list(editor)).rejects.toMatchObject({ status: 403 });
    await expect(s.request(SIMULATION_COMMANDS.deleteCallback, { caller: editor, id: created.id })).rejects.toMatchObject({ status: 403 });
    expect((await list(admin)).callbacks).toHaveLength(1);
  });

  describe('the egress policy (EGRESS_ALLOW names the test receivers only)', () => {
    test.each([
      ['127.0.0.1', 'http://127.0.0.1:9/hook'],
      ['127.1', 'http://127.1:9/hook'],
      ['0x7f000001', 'http://0x7f000001:9/hook'],
      ['[::1]', 'http://[::1]:9/hook'],
      ['localhost', 'http://localhost:9/hook'],
      ['::ffff:127.0.0.1', 'http://[::ffff:127.0.0.1]:9/hook'],
      ['10.x', 'https://10.0.0.12/hook'],
      ['169.254.x', 'http://169.254.169.254/latest/meta-data/'],
      ['100.64.x', 'https://100.64.1.1/hook'],
      ['the receiver address on a port EGRESS_ALLOW does not name', 'http://127.0.0.1:1/hook'],
    ])('when a callback URL names %s, then the registration is a 400 naming url and nothing is registered', async (_what, url) => {
      const caller = newAccount();
      // An address the URL gives is named with its range; a name's resolved address is not told (the service's network).
      await expect(register(caller, url)).rejects.toMatchObject({ status: 400, errors: { url: [expect.stringMatching(/^address not allowed: (.*\((loopback|private|linkLocal|carrierGradeNat)\)|localhost resolves to an address this service may not send requests to);/)] } });
      expect((await list(caller)).callbacks).toEqual([]);
    });

    test('when a callback stored before the policy names a refused address, then its deliveries are sent nowhere and recorded as failed at once, with the reason "address not allowed"', async () => {
      const caller = newAccount();
      const created = await register(caller, `${receiver.url}/ok?moved`);
      // As a row registered before the policy existed: its URL points at a loopback port nothing allows.
      const pool = testPool(s.stack.databaseUrl, 1);
      try {
        await pool.query(`UPDATE simulation.callbacks SET url = 'http://127.0.0.1:9/internal' WHERE id = $1`, [created.id]);
      } finally {
        await pool.end();
      }
      const setupId = await simulate(caller);
      const callback = await waitFor(async () => {
        const [first] = (await list(caller)).callbacks;
        return first?.deliveries.failed === 4 ? first : undefined;
      }, 'every delivery recorded as failed');
      expect(callback.recentFailures).toHaveLength(4);
      for (const failure of callback.recentFailures)
        expect(failure).toMatchObject({
          setupId,
          state: 'failed',
          attempts: 1,
          lastStatusCode: null,
          lastError: 'The request to the receiver was not sent: address not allowed: 127.0.0.1 (loopback); EGRESS_ALLOW names the hosts and ranges that may be reached',
        });
    });

    test('when the receiver answers 500 with 200 MiB, then the read stops at the 64 KiB cap (the receiver sees the socket closed before it finished writing) and the list shows none of the body', async () => {
      const caller = newAccount();
      await register(caller, `${receiver.url}/huge`);
      await simulate(caller);
      const callback = await waitFor(async () => {
        const [first] = (await list(caller)).callbacks;
        return first?.deliveries.failed === 4 ? first : undefined;
      }, 'every delivery given up');
      expect(callback.recentFailures.map((f) => f.lastError)).toEqual(Array(4).fill('The receiver answered 500 Internal Server Error (given up after 3 attempts)'));
      expect(JSON.stringify(callback)).not.toContain('wJalrXUtnFEMI');
      // Twelve attempts: each connection closed by the reader long before its 200 MiB went out.
      await waitFor(() => (receiver.huge.closedEarly === 12 ? true : undefined), 'the receiver to see all twelve sockets closed');
      expect(receiver.huge.finished).toBe(0);
      expect(receiver.huge.written).toBeLessThan(12 * 20 * 1024 * 1024);
    });

    test('when the receiver redirects, then the redirect is not followed: its target gets nothing and the delivery fails with the 307', async () => {
      const caller = newAccount();
      await register(caller, `${receiver.url}/redirect`);
      const setupId = await simulate(caller);
      const callback = await waitFor(async () => {
        const [first] = (await list(caller)).callbacks;
        return first?.deliveries.failed === 4 ? first : undefined;
      }, 'every delivery given up');
      expect(callback.recentFailures[0]).toMatchObject({ lastStatusCode: 307, lastError: 'The receiver answered 307 Temporary Redirect (given up after 3 attempts)' });
      expect(receiver.received.filter((r) => r.path === '/redirect' && r.body.includes(setupId))).toHaveLength(12);
      expect(receiver.received.filter((r) => r.path === '/ok?redirected')).toEqual([]);
    });
  });

  test.each([
    ['a leading space', ` ${'http://127.0.0.1:9'}/hook`],
    ['a trailing space', 'https://hooks.example/hook '],
    ['a CR LF (header injection)', 'https://hooks.example/hook\r\nX-Injected: 1'],
    ['a LF inside', 'https://hooks.exa\nmple/hook'],
  ])('when the URL has %s, then it is a 400 naming url and nothing is registered', async (_what, url) => {
    const caller = newAccount();
    await expect(register(caller, url)).rejects.toMatchObject({ status: 400, errors: { 'body.url': ['must not contain CR, LF or tabs, nor begin or end with spaces'] } });
    expect(await list(caller)).toEqual({ callbacks: [] });
  });

  test.each([['ftp://files.example/hook'], ['not a url'], ['javascript:alert(1)'], ['/relative/path']])('when the URL is %s, then it is a 400 naming the url and nothing is registered', async (url) => {
    const caller = newAccount();
    await expect(register(caller, url)).rejects.toMatchObject({ status: 400, errors: { 'body.url': ['must be an absolute http:// or https:// URL'] } });
    expect(await list(caller)).toEqual({ callbacks: [] });
  });
});

describe('simulation-service commands redelivered (the inbox)', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    // Studies stay running: these tests count jobs and registrations, not runs.
    s = await startSimulationStack({ scenario: 'slow', slowPolls: 1_000_000 }, { SIMULATION_POLL_INTERVAL_MS: '200' });
  });
  afterAll(() => s.stop());

  /** The same command twice, as the broker redelivers it (same command id and request hash). */
  const twice = async <R>(type: string, payload: unknown): Promise<[R, R]> => {
    const headers = { commandId: `request:${randomUUID()}`, commandHash: randomUUID() };
    const first = await s.stack.bus.request<R>(SERVICES.simulation, type, payload, { headers });
    const second = await s.stack.bus.request<R>(SERVICES.simulation, type, payload, { headers });
    return [first, second];
  };

  test('when a trigger is delivered twice, then the second answers the first results and queues no second job', async () => {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller);
    const [first, second] = await twice(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
    expect(second).toEqual(first);
    await waitFor(() => s.events.find((e) => e.setupId === setupId && e.status === 'Running'), 'the job to run');
    // One job: one Requested event, and every event of the setup belongs to it.
    expect(s.events.filter((e) => e.setupId === setupId && e.status === 'Requested')).toHaveLength(1);
    expect(new Set(s.events.filter((e) => e.setupId === setupId).map((e) => e.jobId)).size).toBe(1);
    // A new command (another id) is a new trigger.
    await s.request(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
    await waitFor(() => (s.events.filter((e) => e.setupId === setupId && e.status === 'Requested').length === 2 ? true : undefined), 'the second trigger');
  });

  test('when a callback registration is delivered twice, then one callback exists and both answers carry the same secret', async () => {
    const caller = newAccount();
    const [first, second] = await twice<SimulationCallbackCreated>(SIMULATION_COMMANDS.registerCallback, { caller, body: { url: 'https://hooks.example/pitwall' } });
    expect(second).toEqual(first);
    expect((await s.request<SimulationCallbacks>(SIMULATION_COMMANDS.listCallbacks, { caller })).callbacks.map((c) => c.id)).toEqual([first.id]);
  });

  test('when a callback deletion is delivered twice, then the second answers as the first did (not a 404)', async () => {
    const caller = newAccount();
    const created = await s.request<SimulationCallbackCreated>(SIMULATION_COMMANDS.registerCallback, { caller, body: { url: 'https://hooks.example/pitwall' } });
    const [first, second] = await twice(SIMULATION_COMMANDS.deleteCallback, { caller, id: created.id });
    expect([first, second]).toEqual([null, null]);
  });

  test('when the same command id comes with another request, then it is a 422 and nothing is written', async () => {
    const caller = newAccount();
    const commandId = `key:${randomUUID()}`;
    await s.stack.bus.request(SERVICES.simulation, SIMULATION_COMMANDS.registerCallback, { caller, body: { url: 'https://a.example/' } }, { headers: { commandId, commandHash: 'one' } });
    await expect(s.stack.bus.request(SERVICES.simulation, SIMULATION_COMMANDS.registerCallback, { caller, body: { url: 'https://b.example/' } }, { headers: { commandId, commandHash: 'two' } })).rejects.toMatchObject({ status: 422 });
    expect((await s.request<SimulationCallbacks>(SIMULATION_COMMANDS.listCallbacks, { caller })).callbacks.map((c) => c.url)).toEqual(['https://a.example/']);
  });
});
