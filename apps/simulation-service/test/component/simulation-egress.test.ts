import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENTITY_COMMANDS, SERVICES, SIMULATION_COMMANDS, type CallerContext, type SimulationResults } from '@pitwall/contracts';
import { SimulationRepository } from '../../src/data-access/simulation-repository';
import { buildProfile, buildSetup, callerIn, connect, FINAL_STATUS, newAccount, PARAMS, readSetup, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';
import { testPool } from '@pitwall/db/testing';

/** A receiver on 127.0.0.1 that counts every request reaching it and answers with `handler`. */
async function startReceiver(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: { method: string; path: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** What an internal page would hold: none of it may reach a setup's status message. */
const SECRET_PAGE = 'db_password=hunter2-internal; AKIAIOSFODNN7EXAMPLE';

describe('outbound calls of simulations (the egress policy, credentials bound to their origin)', () => {
  let s: SimulationStack;
  let counting: Receiver;
  let redirecting: Receiver;
  let redirectTarget: Receiver;
  let failing: Receiver;
  beforeAll(async () => {
    counting = await startReceiver((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"access_token":"t"}'));
    redirectTarget = await startReceiver((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"access_token":"t"}'));
    redirecting = await startReceiver((_req, res) => res.writeHead(307, { Location: `${redirectTarget.url}/oauth/token` }).end());
    failing = await startReceiver((req, res) => {
      // An outage's error page longer than EGRESS_MAX_RESPONSE_BYTES (64 KiB).
      if (req.url?.includes('huge')) return void res.writeHead(503, { 'Content-Type': 'text/plain' }).end(`${SECRET_PAGE}\n${'z'.repeat(100_000)}`);
      const status = req.url?.includes('unauthorized') ? 401 : 500;
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(`${SECRET_PAGE}\n${'y'.repeat(30_000)}`);
    });
    // Every receiver is allowed by the policy: what stops the calls below is the binding or the redirect rule.
    const allow = [counting, redirecting, redirectTarget, failing].map((r) => `127.0.0.1:${r.port}`).join(',');
    s = await startSimulationStack({}, { EGRESS_ALLOW: allow, SIMULATION_RETRY_ATTEMPTS: '2' });
  });
  afterAll(async () => {
    await s.stop();
    await Promise.all([counting, redirecting, redirectTarget, failing].map((r) => r.stop()));
  });

  const trigger = (caller: CallerContext, profileId: string, setupIds: string[]) => s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds } });
  const lastStatus = (setupId: string) => waitFor(() => s.events.find((e) => e.setupId === setupId && FINAL_STATUS.test(e.status)), 'the last status event');

  describe('credentials bound to the origin an admin set them for', () => {
    test("when an editor points a profile's BaseUrl at another origin, then its Trigger is refused per setup with that reason and no request leaves the service", async () => {
      const admin = newAccount();
      await connect(s, admin); // bound to the stand-in's origin
      const editor = callerIn(admin.accountId, 'editor');
      const profileId = await buildProfile(s, editor, { BaseUrl: `${counting.url}/steal` });
      const setups = [await buildSetup(s, editor), await buildSetup(s, editor)];
      const answer = await trigger(editor, profileId, setups);
      const reason = "The simulation profile's BaseUrl is on another origin than the one the account's connection was set for: its credentials are sent only there (an admin sets the connection, an editor the profile)";
      expect(answer.results).toEqual(setups.map((setupId) => ({ setupId, accepted: false, studyId: null, message: reason })));
      // A job would have logged in at once: give it the time, then count.
      await new Promise((r) => setTimeout(r, 500));
      expect(counting.requests).toEqual([]);
      expect((await readSetup(s, editor, setups[0] as string))[PARAMS.status] ?? null).toBeNull();
    });

    test('when the profile names the same origin as the connection, spelled otherwise and with another path, then the credentials are used there', async () => {
      const admin = newAccount();
      await connect(s, admin, { baseUrl: `${s.standIn.url.replace('http://', 'HTTP://')}/v2/api` });
      const profileId = await buildProfile(s, admin, { BaseUrl: `${s.standIn.url}/` });
      const setupId = await buildSetup(s, admin);
      expect((await trigger(admin, profileId, [setupId])).results[0]).toMatchObject({ accepted: true });
      expect((await lastStatus(setupId)).status).toBe('Processing completed');
    });

    test('when the profile is pointed at another origin after the Trigger was accepted, then the job checks again: it sends nothing and ends Simulation start failed with that reason', async () => {
      const admin = newAccount();
      await connect(s, admin);
      const profileId = await buildProfile(s, admin, { BaseUrl: `${counting.url}/later` });
      const setupId = await buildSetup(s, admin);
      // A job as a Trigger accepted it while the profile still named the connection's origin: queued, the wake publishes it.
      const jobId = randomUUID();
      const pool = testPool(s.stack.databaseUrl, 1);
      try {
        const repository = new SimulationRepository(pool);
        await repository.insertJobs(pool, [{ id: jobId, accountId: admin.accountId, profileId, setupId, kind: 'trigger', sealedCredentials: null, studyId: null, status: 'Requested', sequence: 1 }]);
        await repository.makeLatest(pool, [{ id: jobId, accountId: admin.accountId, setupId }]);
      } finally {
        await pool.end();
      }
      const last = await waitFor(() => s.events.find((e) => e.jobId === jobId && FINAL_STATUS.test(e.status)), "the job's last status");
      expect(last).toMatchObject({ status: 'Simulation start failed', message: expect.stringMatching(/^The simulation profile's BaseUrl is on another origin/) });
      expect(counting.requests.filter((r) => r.path.startsWith('/later'))).toEqual([]);
    });

    test('when the connection names no baseUrl (as connections stored before did), then its credentials are sent nowhere: the Trigger is refused saying an admin sets it again', async () => {
      const admin = newAccount();
      await connect(s, admin, { baseUrl: undefined });
      const profileId = await buildProfile(s, admin, { BaseUrl: counting.url });
      const setupId = await buildSetup(s, admin);
      expect((await trigger(admin, profileId, [setupId])).results).toEqual([
        { setupId, accepted: false, studyId: null, message: "The account's connection names no baseUrl, so its credentials are sent nowhere: an admin sets the connection again with the baseUrl of the simulation system they are for" },
      ]);
      await new Promise((r) => setTimeout(r, 300));
      expect(counting.requests).toEqual([]);
    });

    test("when credentials come with the request, then they are the caller's to send: the profile's BaseUrl gets them", async () => {
      const editor = newAccount('editor');
      const profileId = await buildProfile(s, editor, { BaseUrl: counting.url });
      const setupId = await buildSetup(s, editor);
      const credentials = { clientId: `own-${randomUUID()}`, clientSecret: 'mine', username: 'me', password: 'pw' };
      const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller: editor, body: { externalProfileId: profileId, setupIds: [setupId], credentials } });
      expect(answer.results[0]).toMatchObject({ accepted: true });
      await waitFor(() => counting.requests.find((r) => r.body.includes(credentials.clientId)), 'the login with the request credentials');
    });

    test("when the baseUrl of a connection is not an http(s) URL, then it is a 400 naming body.baseUrl", async () => {
      await expect(s.request(SIMULATION_COMMANDS.putConnection, { caller: newAccount(), body: { clientId: 'a', clientSecret: 'b', username: 'c', password: 'd', baseUrl: 'ftp://sim.example' } })).rejects.toMatchObject({
        status: 400,
        errors: { 'body.baseUrl': [expect.stringMatching(/^must be an absolute http/)] },
      });
    });
  });

  describe('answers of the simulation system', () => {
    test('when the token call is redirected, then the redirect is not followed (its target gets nothing) and the setup says so', async () => {
      const admin = newAccount();
      await connect(s, admin, { baseUrl: redirecting.url });
      const profileId = await buildProfile(s, admin, { BaseUrl: redirecting.url });
      const setupId = await buildSetup(s, admin);
      expect((await trigger(admin, profileId, [setupId])).results[0]).toMatchObject({ accepted: true });
      const last = await lastStatus(setupId);
      expect(last).toMatchObject({ status: 'Simulation start failed', message: 'The simulation system answered 307 Temporary Redirect to POST /oauth/token (a redirect, which is not followed)' });
      expect(redirecting.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /oauth/token']);
      expect(redirectTarget.requests).toEqual([]);
    });

    test.each([
      ['500 with a large secret-looking page', '/farm', 'Simulation failed', 'The simulation system answered 500 Internal Server Error to POST /farm/oauth/token'],
      ['401 with a secret-looking page', '/unauthorized', 'Simulation start failed', 'The simulation system answered 401 Unauthorized to POST /unauthorized/oauth/token'],
    ])('when the system answers %s, then the status message is in the service\'s own words and carries none of the body', async (_what, path, status, message) => {
      const admin = newAccount();
      await connect(s, admin, { baseUrl: failing.url });
      const profileId = await buildProfile(s, admin, { BaseUrl: `${failing.url}${path}` });
      const setupId = await buildSetup(s, admin);
      expect((await trigger(admin, profileId, [setupId])).results[0]).toMatchObject({ accepted: true });
      expect(await lastStatus(setupId)).toMatchObject({ status, message });
      const setup = await readSetup(s, admin, setupId);
      expect(setup[PARAMS.message]).toBe(message);
      const read = await s.stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.get, { caller: admin, type: 'Setups', id: setupId });
      expect(JSON.stringify(read)).not.toContain('hunter2');
      expect(JSON.stringify(s.events.filter((e) => e.setupId === setupId))).not.toContain('hunter2');
    });

    test('when an outage answers 503 with a page past EGRESS_MAX_RESPONSE_BYTES, then the call is retried as an outage (not refused at once) and the status says so without the page', async () => {
      const admin = newAccount();
      await connect(s, admin, { baseUrl: failing.url });
      const profileId = await buildProfile(s, admin, { BaseUrl: `${failing.url}/huge` });
      const setupId = await buildSetup(s, admin);
      expect((await trigger(admin, profileId, [setupId])).results[0]).toMatchObject({ accepted: true });
      const last = await lastStatus(setupId);
      expect(last).toMatchObject({ status: 'Simulation failed', message: 'The simulation system answered 503 to POST /huge/oauth/token with more than 65536 bytes (EGRESS_MAX_RESPONSE_BYTES); the answer was not read' });
      expect(failing.requests.filter((r) => r.path === '/huge/oauth/token').length).toBeGreaterThan(1);
      expect(JSON.stringify(s.events.filter((e) => e.setupId === setupId))).not.toContain('hunter2');
    });

    test('when the BaseUrl names an address the policy refuses, then the job sends nothing and the setup says the address is not allowed', async () => {
      const admin = newAccount();
      await connect(s, admin, { baseUrl: 'http://127.0.0.1:9' });
      const profileId = await buildProfile(s, admin, { BaseUrl: 'http://127.0.0.1:9' });
      const setupId = await buildSetup(s, admin);
      expect((await trigger(admin, profileId, [setupId])).results[0]).toMatchObject({ accepted: true });
      expect(await lastStatus(setupId)).toMatchObject({
        status: 'Simulation start failed',
        message: 'The simulation system was not called: address not allowed: 127.0.0.1 (loopback); EGRESS_ALLOW names the hosts and ranges that may be reached',
      });
    });
  });
});
