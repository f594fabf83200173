import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICES } from '@pitwall/contracts';
import { entityService } from '@pitwall/entity-service';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { gateway } from '../../src/definition';

describe('gateway over HTTP, with entity-service in-process on the same bus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-gateway-'));
  let stack: InProcessStack;
  let base: string;
  let demo: { accountId: string; apiKey: string | null };
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService);
    // Stand-ins for the other services: the gateway's readiness names each one without a running instance.
    for (const service of [SERVICES.timing, SERVICES.simulation, SERVICES.datafile]) await stack.bus.serve(service, async () => 'pong');
    const running = await stack.start(gateway);
    base = running.address;
    demo = await running.parts.auth.ensureDemoAccount({ keyFile: join(dir, 'demo-api-key') });
  });
  afterAll(async () => {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when its health endpoints are asked, then it is alive, and ready with its database, cache, bus, blob store and every service up', async () => {
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { dependencies: unknown }).dependencies).toEqual({ database: 'up', bus: 'up', cache: 'up', 'entity-service': 'up', 'timing-service': 'up', 'simulation-service': 'up', 'datafile-service': 'up', blobStore: 'up' });
  });

  test('when the ApiKey header is missing, then 401 problem+json with WWW-Authenticate: ApiKey', async () => {
    const r = await fetch(`${base}/Championships`, { headers: { AccountId: demo.accountId } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('ApiKey');
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  });

  test('when the ApiKey header comes twice, or the key is in upper case, then 401 saying so', async () => {
    const twice = new Headers({ AccountId: demo.accountId });
    twice.append('ApiKey', demo.apiKey as string);
    twice.append('ApiKey', demo.apiKey as string);
    const repeated = await fetch(`${base}/Championships`, { headers: twice });
    expect([repeated.status, repeated.headers.get('www-authenticate')]).toEqual([401, 'ApiKey']);
    expect(((await repeated.json()) as { detail: string }).detail).toBe('The ApiKey header came more than once (or holds a comma): send one key, once');
    const upper = await fetch(`${base}/Championships`, { headers: { ApiKey: (demo.apiKey as string).toUpperCase(), AccountId: demo.accountId } });
    expect(upper.status).toBe(401);
    expect(((await upper.json()) as { detail: string }).detail).toBe('The API key has upper-case letters: keys are lower-case GUIDs, sent as they were issued');
  });

  test.each([
    ['missing', undefined, 'is required'],
    ['malformed', 'account-7', 'is not a GUID'],
  ])('when the AccountId header is %s, then 400 names it', async (_what, accountId, message) => {
    const headers: Record<string, string> = { ApiKey: demo.apiKey as string };
    if (accountId) headers['AccountId'] = accountId;
    const r = await fetch(`${base}/Championships`, { headers });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { errors: unknown }).errors).toEqual({ AccountId: [message] });
  });

  test('when a member creates a championship and reads it back, then the request crosses the in-process bus to entity-service', async () => {
    const headers = { ApiKey: demo.apiKey as string, AccountId: demo.accountId, 'Content-Type': 'application/json' };
    const created = await fetch(`${base}/Championships`, { method: 'POST', headers, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Gateway Cup' }] }) });
    expect(created.status).toBe(201);
    const { Id } = (await created.json()) as { Id: string };
    const read = await fetch(`${base}/Championships/${Id}`, { headers });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { Parameters: unknown }).Parameters).toEqual({ Name: 'Gateway Cup', Year: null, Description: null });
  });

  test('when a path is written in another case or with a trailing slash, then it reaches the same operation, and an unknown first segment is 404', async () => {
    const headers = { ApiKey: demo.apiKey as string, AccountId: demo.accountId, 'Content-Type': 'application/json' };
    const created = await fetch(`${base}/Championships`, { method: 'POST', headers, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Case Cup' }] }) });
    const { Id } = (await created.json()) as { Id: string };
    for (const path of [`/championships/${Id}`, `/CHAMPIONSHIPS/${Id}`, `/Championships/${Id}/`]) {
      const read = await fetch(`${base}${path}`, { headers });
      expect([path, read.status]).toEqual([path, 200]);
      expect(((await read.json()) as { Id: string }).Id).toBe(Id);
    }
    const unknown = await fetch(`${base}/Championshipz/${Id}`, { headers });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
  });
});
