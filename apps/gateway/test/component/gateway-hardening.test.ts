import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { OPERATIONS, SERVICES, type Operation } from '@pitwall/contracts';
import { authHeaders, send, startGateway, USER_ID, type Harness } from '../support/gateway-harness';

describe('gateway hardening', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.stop());

  describe('POST /Championships without an API key', () => {
    test('when a 1 MB body is announced but not yet sent, then 401 answers before the body is read', async () => {
      const size = 1024 * 1024;
      const answer = await new Promise<{ status: number; sentBytes: number }>((resolve, reject) => {
        let sentBytes = 0;
        const req = httpRequest(new URL('/Championships', gw.baseUrl), { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': String(size), AccountId: authHeaders.AccountId } }, (res) => {
          resolve({ status: res.statusCode ?? 0, sentBytes });
          res.resume();
          req.destroy();
        });
        req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
        // Only the first kilobyte: a gateway that buffered the body before checking the key would never answer.
        const first = Buffer.alloc(1024, 0x20);
        req.write(first);
        sentBytes += first.length;
      });
      expect(answer).toEqual({ status: 401, sentBytes: 1024 });
    });

    test('when a body above the JSON limit is sent in full, then it is 401, not 413 (the key is checked first)', async () => {
      const res = await send(gw.baseUrl, 'POST', '/Championships', { body: `{"Name":"${'x'.repeat(2 * 1024 * 1024)}"}`, headers: { 'Content-Type': 'application/json', AccountId: authHeaders.AccountId } });
      expect(res.status).toBe(401);
    });

    test('when the body is not even JSON, then it is 401, not 400 or 415', async () => {
      expect((await send(gw.baseUrl, 'POST', '/Championships', { body: '{not json', headers: { 'Content-Type': 'application/json' } })).status).toBe(401);
      expect((await send(gw.baseUrl, 'POST', '/Championships', { body: 'a=b', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBe(401);
    });
  });

  describe('API answers', () => {
    test.each([
      ['a success', 'GET', '/Championships', authHeaders, 200],
      ['a refusal', 'GET', '/Championships', {}, 401],
      ['a validation error', 'GET', '/Championships/not-a-guid', authHeaders, 400],
      ['an unknown path', 'GET', '/Nowhere', authHeaders, 404],
      ['another method', 'PATCH', '/Championships', authHeaders, 405],
      ['the account list', 'GET', '/Accounts/GetAll', { ApiKey: authHeaders.ApiKey }, 200],
    ])('when %s is answered, then it says nosniff and no-store', async (_what, method, path, headers, status) => {
      const res = await send(gw.baseUrl, method, path, { headers });
      expect(res.status).toBe(status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });

  describe('the access log', () => {
    const accessLine = (requestId: string) => gw.logLines().find((l) => l['msg'] === 'request' && l['requestId'] === requestId);
    test('when a request is answered, then its access line names the peer\'s address and who asked: the user, the key and the account', async () => {
      const requestId = randomUUID();
      expect((await send(gw.baseUrl, 'GET', '/Championships', { headers: { ...authHeaders, 'X-Request-Id': requestId } })).status).toBe(200);
      expect(accessLine(requestId)).toMatchObject({ status: 200, client: '127.0.0.1', userId: USER_ID, keyId: expect.any(String), accountId: authHeaders.AccountId });
    });

    test('when a request with an unknown key is refused, then its access line names the peer\'s address and no user', async () => {
      const requestId = randomUUID();
      expect((await send(gw.baseUrl, 'GET', '/Championships', { headers: { ApiKey: 'not-a-key', AccountId: authHeaders.AccountId, 'X-Request-Id': requestId } })).status).toBe(401);
      const line = accessLine(requestId);
      expect(line).toMatchObject({ status: 401, client: '127.0.0.1' });
      expect(line).not.toHaveProperty('userId');
    });
  });

  describe('the metrics', () => {
    const count = async (labels: Record<string, string>) => (await gw.metrics.httpRequests.get()).values.find((v) => v.metricName === 'pitwall_http_request_duration_seconds_count' && Object.entries(labels).every(([k, want]) => (v.labels as Record<string, unknown>)[k] === want))?.value ?? 0;
    test('when operations are answered, then each is counted under its path template and status, whatever the ids; a path no operation has is unmatched', async () => {
      const route = '/Championships/{id}';
      const before = { ok: await count({ route, status: '200' }), refused: await count({ route, status: '401' }), unmatched: await count({ route: 'unmatched', status: '404' }) };
      for (const id of [randomUUID(), randomUUID()]) expect((await send(gw.baseUrl, 'GET', `/Championships/${id}`, { headers: authHeaders })).status).toBe(200);
      expect((await send(gw.baseUrl, 'GET', `/Championships/${randomUUID()}`, {})).status).toBe(401);
      expect((await send(gw.baseUrl, 'GET', '/Nowhere/at-all', { headers: authHeaders })).status).toBe(404);
      expect(await count({ route, status: '200', method: 'GET' })).toBe(before.ok + 2);
      expect(await count({ route, status: '401' })).toBe(before.refused + 1);
      expect(await count({ route: 'unmatched', status: '404' })).toBe(before.unmatched + 1);
      const series = (await gw.metrics.httpRequests.get()).values.map((v) => String(v.labels['route']));
      expect(series.filter((r) => /[0-9a-f]{8}-/.test(r))).toEqual([]);
    });

    test('when the gateway\'s own pages are answered, then each is counted under its path (the health endpoints too), not unmatched (docs/operations.md#metrics)', async () => {
      const before = { ready: await count({ route: '/health/ready' }), swagger: await count({ route: '/swagger/v1/swagger.json', status: '200' }) };
      // Ready or not (this harness has no datafile-service), it is counted under its path.
      await send(gw.baseUrl, 'GET', '/health/ready', {});
      expect((await send(gw.baseUrl, 'GET', '/swagger/v1/swagger.json', {})).status).toBe(200);
      expect(await count({ route: '/health/ready' })).toBe(before.ready + 1);
      expect(await count({ route: '/swagger/v1/swagger.json', status: '200' })).toBe(before.swagger + 1);
    });

    test('when /metrics is asked of the public port, then it is answered as any path it does not serve: 401 without a key, 404 with one (the metrics are on the internal port only)', async () => {
      expect((await send(gw.baseUrl, 'GET', '/metrics', {})).status).toBe(401);
      const withKey = await send(gw.baseUrl, 'GET', '/metrics', { headers: authHeaders });
      expect(withKey.status).toBe(404);
      expect(withKey.body).not.toContain('pitwall_http_request_duration_seconds');
    });
  });

  describe('every bus operation of the table', () => {
    // The entity operations, which take `{}` and name their type; the simulation ones have their own cases below.
    const busOps = OPERATIONS.filter((op) => 'service' in op.target && op.target.service === SERVICES.entity && !op.refusal);
    test.each(busOps.map((op) => [op.operationId, op] as const))('when %s is called, then its command reaches its service', async (_id, op) => {
      // Every path parameter is an id ({id}, {attachedFileId}); a body is the smallest valid one of its operation.
      const path = op.path.replace(/\{\w+\}/g, () => randomUUID());
      const body = op.body ? JSON.stringify(validBody(op)) : undefined;
      const before = gw.received.length;
      const res = await send(gw.baseUrl, op.method.toUpperCase(), path, { headers: { ...authHeaders, ...(body ? { 'Content-Type': 'application/json' } : {}) }, ...(body ? { body } : {}) });
      expect(res.status).toBe(op.response.status);
      const command = gw.received[before];
      expect(command?.type).toBe((op.target as { name: string }).name);
      expect(command?.payload).toMatchObject({ type: op.tags[0], caller: { accountId: authHeaders.AccountId, role: 'admin' } });
      if (op.response.location) expect(res.headers['location']).toBe(`${op.path}/00000000-0000-4000-8000-000000000001`);
    });

    // Writes of a read-only type (registry `readOnly`: the Users) are refused at the edge, whatever the body.
    const refused = OPERATIONS.filter((op) => op.refusal);
    test('the refused operations are the writes of the read-only types', () => {
      expect(refused.map((op) => op.operationId).sort()).toEqual(['AddUser', 'DeleteUser', 'UpdateUser']);
    });
    test.each(refused.map((op) => [op.operationId, op] as const))('when %s is called, then it is its refusal problem and no command is sent', async (_id, op) => {
      const path = op.path.replace(/\{\w+\}/g, () => randomUUID());
      const body = op.body ? JSON.stringify(validBody(op)) : undefined;
      const before = gw.received.length;
      const res = await send(gw.baseUrl, op.method.toUpperCase(), path, { headers: { ...authHeaders, ...(body ? { 'Content-Type': 'application/json' } : {}) }, ...(body ? { body } : {}) });
      expect(res.status).toBe(op.refusal?.status);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(JSON.parse(res.body).detail).toBe(op.refusal?.detail);
      expect(gw.received.length).toBe(before);
    });
  });
});

/** The least body each bus operation accepts: `{}` for most, the required fields of a search or a timing update. */
function validBody(op: Operation): unknown {
  if (op.operationId.startsWith('SearchFor')) return { AssociatedModelSearchMode: 0, AccountId: authHeaders.AccountId };
  if (op.operationId.endsWith('DataFileChannels')) return { channels: ['Engine RPM'], mode: 0 };
  if (/^Add\w+Attachment$/.test(op.operationId)) return { FileName: 'file.ld' };
  if (op.path.startsWith('/TimingIntegration/')) {
    const ids = { accountId: authHeaders.AccountId, championshipId: randomUUID(), eventId: randomUUID(), sessionId: randomUUID(), carId: randomUUID(), runIndex: 0 };
    return { ...ids, ...(op.path === '/TimingIntegration/Runs' ? {} : { stintLapNumber: 1 }), ...(op.path.endsWith('/Sectors') ? { sectorId: randomUUID() } : {}), ...(op.path.endsWith('/SpeedTraps') ? { speedTrapId: randomUUID() } : {}) };
  }
  return {};
}
describe('the external simulation operations', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.stop());
  const json = (body: unknown) => ({ headers: { ...authHeaders, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const lastCommand = () => gw.received[gw.received.length - 1];

  test('when Trigger, Reprocess and Connection are called with valid bodies, then their commands reach the simulation service with the caller', async () => {
    const setupId = randomUUID();
    const cases: [string, string, unknown, string][] = [
      ['POST', '/ExternalSimulations/Trigger', { externalProfileId: randomUUID(), setupIds: [setupId] }, 'simulation.trigger'],
      ['POST', '/ExternalSimulations/Reprocess', { externalProfileId: randomUUID(), setupIds: [setupId], parameterNameForStudyId: 'StudyId' }, 'simulation.reprocess'],
      ['PUT', '/ExternalSimulations/Connection', { clientId: 'c', clientSecret: 's', username: 'u', password: 'p' }, 'simulation.connection.put'],
    ];
    for (const [method, path, body, type] of cases) {
      const res = await send(gw.baseUrl, method, path, json(body));
      expect(res.status).toBe(method === 'PUT' ? 204 : 200);
      expect(lastCommand()).toMatchObject({ type, payload: { body, caller: { accountId: authHeaders.AccountId, role: 'admin' } } });
    }
  });

  test('when Trigger and Reprocess carry "credentials": null, a callback "description": null and a connection "baseUrl": null (a .NET wrapper\'s unset optional values), then they are accepted as omitted and reach the simulation service', async () => {
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/ExternalSimulations/Trigger', { externalProfileId: randomUUID(), setupIds: [randomUUID()], credentials: null }, 200, 'simulation.trigger'],
      ['POST', '/ExternalSimulations/Reprocess', { externalProfileId: randomUUID(), setupIds: [randomUUID()], parameterNameForStudyId: 'StudyId', credentials: null }, 200, 'simulation.reprocess'],
      ['POST', '/ExternalSimulations/Callbacks', { url: 'https://hooks.team.example/sim', description: null }, 201, 'simulation.callbacks.register'],
      ['PUT', '/ExternalSimulations/Connection', { clientId: 'c', clientSecret: 's', username: 'u', password: 'p', baseUrl: null }, 204, 'simulation.connection.put'],
    ];
    for (const [method, path, body, status, type] of cases) {
      const res = await send(gw.baseUrl, method, path, json(body));
      expect(res.status).toBe(status);
      expect(lastCommand()).toMatchObject({ type, payload: { body } });
    }
  });

  test('when the status is asked with setupIds repeated, then the service gets every id, lower-cased, in order', async () => {
    const [a, b] = [randomUUID().toUpperCase(), randomUUID()];
    const profile = randomUUID();
    const res = await send(gw.baseUrl, 'GET', `/ExternalSimulations/Status?externalProfileId=${profile}&setupIds=${a}&setupIds=${b}`, { headers: authHeaders });
    expect(res.status).toBe(200);
    expect(lastCommand()).toMatchObject({ type: 'simulation.status', payload: { externalProfileId: profile, setupIds: [a.toLowerCase(), b] } });
  });

  test('when the status is asked for 1,500 setups, the profile last, then the service gets every id (the query parser kept 1,000 pairs and dropped the rest without a word)', async () => {
    const ids = Array.from({ length: 1_500 }, () => randomUUID());
    const profile = randomUUID();
    const res = await send(gw.baseUrl, 'GET', `/ExternalSimulations/Status?${ids.map((id) => `setupIds=${id}`).join('&')}&externalProfileId=${profile}`, { headers: authHeaders });
    expect(res.status).toBe(200);
    expect(lastCommand()).toMatchObject({ type: 'simulation.status', payload: { externalProfileId: profile, setupIds: ids } });
  });

  test('when a query string has more than MAX_QUERY_PARAMETERS (10,000) parameters, then it is a 400 naming it and nothing is sent', async () => {
    const before = gw.received.length;
    const res = await send(gw.baseUrl, 'GET', `/ExternalSimulations/Status?externalProfileId=${randomUUID()}&${Array.from({ length: 10_000 }, () => 'x=1').join('&')}`, { headers: authHeaders });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ detail: 'The query string has more than 10000 parameters, the most one request may carry (MAX_QUERY_PARAMETERS)' });
    expect(gw.received.length).toBe(before);
  });

  test('when an unknown query parameter has a 100,000-character name, then the 400 names its first 200 characters (the answer does not echo it whole)', async () => {
    const name = `n${'x'.repeat(99_999)}`;
    const res = await send(gw.baseUrl, 'GET', `/ExternalSimulations/Status?externalProfileId=${randomUUID()}&setupIds=${randomUUID()}&${name}=1`, { headers: authHeaders });
    expect(res.status).toBe(400);
    const shown = `${name.slice(0, 200)}…`;
    expect(JSON.parse(res.body)).toMatchObject({ detail: `unknown query parameter '${shown}'`, errors: { [shown]: ['unknown query parameter'] } });
    expect(res.body.length).toBeLessThan(name.length * 2);
  });

  test('when the status query lacks externalProfileId or setupIds, or a setup id is not a GUID, then it is a 400 naming the parameter and nothing is sent', async () => {
    const before = gw.received.length;
    const ask = (query: string) => send(gw.baseUrl, 'GET', `/ExternalSimulations/Status?${query}`, { headers: authHeaders });
    const noProfile = await ask(`setupIds=${randomUUID()}`);
    expect(noProfile.status).toBe(400);
    expect(JSON.parse(noProfile.body)).toMatchObject({ errors: { externalProfileId: ['is required'] } });
    const noSetups = await ask(`externalProfileId=${randomUUID()}`);
    expect(noSetups.status).toBe(400);
    expect(JSON.parse(noSetups.body)).toMatchObject({ errors: { setupIds: ['is required (once per value)'] } });
    const badSetup = await ask(`externalProfileId=${randomUUID()}&setupIds=${randomUUID()}&setupIds=nope`);
    expect(badSetup.status).toBe(400);
    expect(JSON.parse(badSetup.body)).toMatchObject({ detail: "setupIds 'nope' is not a GUID" });
    // Two ids in one value, comma-separated: the whole value shown and how to give a list.
    const [a, b] = [randomUUID(), randomUUID()];
    const commas = await ask(`externalProfileId=${randomUUID()}&setupIds=${a},${b}`);
    expect(commas.status).toBe(400);
    expect(JSON.parse(commas.body)).toMatchObject({
      detail: `setupIds '${a},${b}' is not a GUID; give each value as its own setupIds parameter (setupIds=a&setupIds=b), not separated by commas`,
    });
    expect(gw.received.length).toBe(before);
  });

  test('when setupIds is given with no value, then it is not given: none left is a 400 that it is required, a trailing empty one is ignored', async () => {
    const before = gw.received.length;
    const ask = (query: string) => send(gw.baseUrl, 'GET', `/ExternalSimulations/Status?${query}`, { headers: authHeaders });
    const empty = await ask(`externalProfileId=${randomUUID()}&setupIds=`);
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body)).toMatchObject({ detail: 'setupIds is required (once per value)', errors: { setupIds: ['is required (once per value)'] } });
    const twiceEmpty = await ask(`externalProfileId=${randomUUID()}&setupIds=&setupIds=`);
    expect(JSON.parse(twiceEmpty.body)).toMatchObject({ detail: 'setupIds is required (once per value)' });
    // Both missing (one given empty): one 400 names both, as it names every other missing or invalid value.
    const neither = await ask('externalProfileId=&setupIds=');
    expect(neither.status).toBe(400);
    expect(JSON.parse(neither.body)).toMatchObject({ detail: 'externalProfileId is required; setupIds is required (once per value)', errors: { externalProfileId: ['is required'], setupIds: ['is required (once per value)'] } });
    expect(gw.received.length).toBe(before);
    const [a, profile] = [randomUUID(), randomUUID()];
    const trailing = await ask(`externalProfileId=${profile}&setupIds=${a}&setupIds=`);
    expect(trailing.status).toBe(200);
    expect(lastCommand()).toMatchObject({ type: 'simulation.status', payload: { externalProfileId: profile, setupIds: [a] } });
  });

  test('when a trigger carries partial credentials, then it is a 400 naming each missing field and nothing is sent', async () => {
    const before = gw.received.length;
    const res = await send(gw.baseUrl, 'POST', '/ExternalSimulations/Trigger', json({ externalProfileId: randomUUID(), setupIds: [randomUUID()], credentials: { clientId: 'c', password: 'p' } }));
    expect(res.status).toBe(400);
    expect(Object.keys(JSON.parse(res.body).errors).sort()).toEqual(['credentials.clientSecret', 'credentials.username']);
    expect(gw.received.length).toBe(before);
  });

  test('when callbacks are registered, listed and deleted, then their commands reach the simulation service with the caller (201, 200, 204)', async () => {
    const id = randomUUID();
    const cases: [string, string, string | undefined, number, string, Record<string, unknown>][] = [
      ['POST', '/ExternalSimulations/Callbacks', JSON.stringify({ url: 'http://10.0.0.5:8080/hooks', description: 'dashboard' }), 201, 'simulation.callbacks.register', { body: { url: 'http://10.0.0.5:8080/hooks', description: 'dashboard' } }],
      ['GET', '/ExternalSimulations/Callbacks', undefined, 200, 'simulation.callbacks.list', {}],
      ['DELETE', `/ExternalSimulations/Callbacks/${id}`, undefined, 204, 'simulation.callbacks.delete', { id }],
    ];
    for (const [method, path, body, status, type, payload] of cases) {
      const res = await send(gw.baseUrl, method, path, body === undefined ? { headers: authHeaders } : { headers: { ...authHeaders, 'Content-Type': 'application/json' }, body });
      expect(res.status).toBe(status);
      expect(lastCommand()).toMatchObject({ type, payload: { ...payload, caller: { accountId: authHeaders.AccountId, role: 'admin' } } });
    }
  });

  test.each([['ftp://files.example/hook'], ['not a url'], ['mailto:ops@team.example']])('when a callback URL is %s, then it is a 400 problem naming url and nothing is sent', async (url) => {
    const before = gw.received.length;
    const res = await send(gw.baseUrl, 'POST', '/ExternalSimulations/Callbacks', json({ url }));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ errors: { url: ['must be an absolute http:// or https:// URL'] } });
    expect(gw.received.length).toBe(before);
  });

  test('when a callback URL or description holds a NUL, then it is a 400 problem naming the field (PostgreSQL cannot store it) and nothing is sent', async () => {
    const before = gw.received.length;
    for (const [body, field] of [
      [{ url: 'https://hooks.team.example/a\u0000' }, 'url'],
      [{ url: 'https://hooks.team.example/a', description: 'pit\u0000wall' }, 'description'],
    ] as const) {
      const res = await send(gw.baseUrl, 'POST', '/ExternalSimulations/Callbacks', json(body));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ errors: { [field]: ['may not contain NUL characters or unpaired surrogates'] } });
    }
    expect(gw.received.length).toBe(before);
  });

  test.each([['https://ops:s3cret@hooks.team.example/sim'], ['http://token@10.0.0.5:8080/hooks']])('when a callback URL carries credentials (%s), then it is a 400 problem naming url and nothing is sent', async (url) => {
    const before = gw.received.length;
    const res = await send(gw.baseUrl, 'POST', '/ExternalSimulations/Callbacks', json({ url }));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ errors: { url: [expect.stringMatching(/^must not carry a user name or password/)] } });
    expect(res.body).not.toContain('s3cret');
    expect(gw.received.length).toBe(before);
  });

  test('when a callback id is not a GUID, then the delete is a 400 and nothing is sent', async () => {
    const before = gw.received.length;
    expect((await send(gw.baseUrl, 'DELETE', '/ExternalSimulations/Callbacks/nope', { headers: authHeaders })).status).toBe(400);
    expect(gw.received.length).toBe(before);
  });
});

describe('an operation with a streamed body', () => {
  const upload: Operation = {
    operationId: 'UploadTestBytes',
    method: 'post',
    path: '/TestUploads/{id}',
    tags: ['TestUploads'],
    summary: 'Takes raw bytes',
    permission: 'write',
    nonMember: 'not-found',
    params: z.object({ id: z.string() }),
    bodyKind: 'stream',
    responseKind: 'json',
    response: { status: 200, description: 'What arrived', contentTypes: ['application/json'] },
    target: { gateway: 'echoUpload' },
    client: [],
  };
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway([upload], {
      echoUpload: async (_caller, request) => {
        const chunks: Buffer[] = [];
        for await (const chunk of request.body as AsyncIterable<Buffer>) chunks.push(chunk);
        return { received: Buffer.concat(chunks).toString('utf8') };
      },
    });
  });
  afterAll(() => gw.stop());

  test('when bytes that claim to be JSON are streamed, then the handler reads them unparsed', async () => {
    const res = await send(gw.baseUrl, 'POST', '/TestUploads/x', { body: '{not json at all', headers: { ...authHeaders, 'Content-Type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ received: '{not json at all' });
  });
});

describe('the bounds of a request\'s lists (REQUEST_LIMITS), at their defaults', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.stop());
  const json = (body: unknown) => ({ headers: { ...authHeaders, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  /** The request's answer as a problem, with whether any command left the gateway for it. */
  const refusal = async (method: string, path: string, options: { headers: Record<string, string>; body?: string } = { headers: authHeaders }) => {
    const before = gw.received.length;
    const res = await send(gw.baseUrl, method, path, options);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    return { status: res.status, problem: JSON.parse(res.body) as { detail: string; errors?: Record<string, string[]> }, sent: gw.received.length - before };
  };

  describe('GET /Championships?parametersToInclude=', () => {
    test('when it names more than MAX_INCLUDE_PATHS (200) paths, then it is a 400 whose detail and errors name the variable, and nothing is sent', async () => {
      const paths = (n: number) => Array.from({ length: n }, (_, i) => `P${i}`).join(',');
      expect(await refusal('GET', `/Championships?parametersToInclude=${paths(201)}`)).toEqual({
        status: 400,
        problem: expect.objectContaining({ detail: 'parametersToInclude names more than 200 paths (MAX_INCLUDE_PATHS)', errors: { parametersToInclude: ['names more than 200 paths (MAX_INCLUDE_PATHS)'] } }),
        sent: 0,
      });
      // At the bound it is read.
      expect((await send(gw.baseUrl, 'GET', `/Championships?parametersToInclude=${paths(200)}`, { headers: authHeaders })).status).toBe(200);
    });

    test('when one path is longer than MAX_INCLUDE_PATH_LENGTH (500) characters, then it is a 400 whose detail and errors name the variable, and nothing is sent', async () => {
      expect(await refusal('GET', `/Championships?parametersToInclude=*,${'a'.repeat(501)}`)).toEqual({
        status: 400,
        problem: expect.objectContaining({
          detail: 'parametersToInclude has a path longer than 500 characters (MAX_INCLUDE_PATH_LENGTH)',
          errors: { parametersToInclude: [`path '${'a'.repeat(40)}…' is longer than 500 characters (MAX_INCLUDE_PATH_LENGTH)`] },
        }),
        sent: 0,
      });
      expect((await send(gw.baseUrl, 'GET', `/Championships?parametersToInclude=*,${'a'.repeat(500)}`, { headers: authHeaders })).status).toBe(200);
    });
  });

  describe('PUT /Championships/{id}, POST /Tyres', () => {
    test('when CollectionUpdateModels holds more than MAX_COLLECTION_ITEMS (10,000) items in all, then it is a 400 naming the variable and nothing is sent', async () => {
      // 6,000 + 4,001 items: each collection is under the bound, the two together are not.
      const items = (n: number) => Array.from({ length: n }, () => ({ ParameterUpdates: [] }));
      expect(await refusal('PUT', `/Championships/${randomUUID()}`, json({ CollectionUpdateModels: { Events: items(6_000), Cars: items(4_001) } }))).toEqual({
        status: 400,
        problem: expect.objectContaining({ errors: { CollectionUpdateModels: ['holds more than 10000 items in all (MAX_COLLECTION_ITEMS)'] } }),
        sent: 0,
      });
    });

    test('when an association key holds more than MAX_ASSOCIATION_ITEMS (100) items, or an item more than 100 ParameterUpdates, then it is a 400 naming the variable and nothing is sent', async () => {
      const championshipId = randomUUID();
      expect(await refusal('POST', '/Tyres', json({ ChampionshipAssociationsToAdd: Array.from({ length: 101 }, () => ({ ChampionshipId: championshipId })) }))).toEqual({
        status: 400,
        problem: expect.objectContaining({ errors: { ChampionshipAssociationsToAdd: ['must have at most 100 items (MAX_ASSOCIATION_ITEMS)'] } }),
        sent: 0,
      });
      const updates = Array.from({ length: 101 }, (_, i) => ({ Name: `P${i}`, Value: 'x' }));
      expect(await refusal('PUT', `/Tyres/${randomUUID()}`, json({ EventAssociationsToAdd: [{ EventId: randomUUID(), ParameterUpdates: updates }] }))).toEqual({
        status: 400,
        problem: expect.objectContaining({ errors: { 'EventAssociationsToAdd[0].ParameterUpdates': ['must have at most 100 items (MAX_ASSOCIATION_ITEMS)'] } }),
        sent: 0,
      });
    });
  });

  describe('POST .../DataFileAccess/{group}/lapstats', () => {
    test('when it names more than MAX_LAP_STATS_CHANNELS (1,000) channels, then it is a 400 naming the variable and nothing is sent', async () => {
      const channels = Array.from({ length: 1_001 }, (_, i) => `Channel ${i}`);
      expect(await refusal('POST', `/RunSheets/${randomUUID()}/DataFileAccess/DataFile/lapstats`, json({ channels }))).toEqual({
        status: 400,
        problem: expect.objectContaining({ errors: { channels: ['must have at most 1000 items (MAX_LAP_STATS_CHANNELS)'] } }),
        sent: 0,
      });
    });
  });

  describe('/ExternalSimulations Trigger, Reprocess and Status', () => {
    const setupIds = (n: number) => Array.from({ length: n }, () => randomUUID());

    test('when Trigger or Reprocess names more than MAX_SIMULATION_SETUPS (5,000) setups, then it is a 400 naming the variable and nothing is sent', async () => {
      for (const [path, extra] of [
        ['/ExternalSimulations/Trigger', {}],
        ['/ExternalSimulations/Reprocess', { parameterNameForStudyId: 'StudyId' }],
      ] as const) {
        expect(await refusal('POST', path, json({ externalProfileId: randomUUID(), setupIds: setupIds(5_001), ...extra }))).toEqual({
          status: 400,
          problem: expect.objectContaining({ errors: { setupIds: ['must have at most 5000 items (MAX_SIMULATION_SETUPS)'] } }),
          sent: 0,
        });
      }
    });

    test('when Trigger names no setup (setupIds []), then it is a 400 saying it needs one and nothing is sent', async () => {
      expect(await refusal('POST', '/ExternalSimulations/Trigger', json({ externalProfileId: randomUUID(), setupIds: [] }))).toEqual({
        status: 400,
        problem: expect.objectContaining({ errors: { setupIds: ['needs at least one setup'] } }),
        sent: 0,
      });
    });
  });

  describe('GET /Cars/{id}/Attachments?attachedFileIds=', () => {
    test('when it names more than MAX_ATTACHMENT_IDS (1,000) ids, then it is a 400 naming the variable and nothing is sent', async () => {
      const ids = (n: number) => Array.from({ length: n }, () => randomUUID()).join(',');
      expect(await refusal('GET', `/Cars/${randomUUID()}/Attachments?attachedFileIds=${ids(1_001)}`)).toEqual({
        status: 400,
        problem: expect.objectContaining({ detail: expect.stringContaining('MAX_ATTACHMENT_IDS'), errors: { attachedFileIds: ['must have at most 1000 items (MAX_ATTACHMENT_IDS)'] } }),
        sent: 0,
      });
      expect((await send(gw.baseUrl, 'GET', `/Cars/${randomUUID()}/Attachments?attachedFileIds=${ids(1_000)}`, { headers: authHeaders })).status).toBe(200);
    });

    test('when it has an empty entry (a trailing comma) or none at all, then the empty entry is not an id given: the ids listed are asked for, or every file', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const listed = async (value: string) => {
        const res = await send(gw.baseUrl, 'GET', `/Cars/${randomUUID()}/Attachments?attachedFileIds=${value}`, { headers: authHeaders });
        expect(res.status).toBe(200);
        const command = gw.received[gw.received.length - 1] as { type: string; payload: Record<string, unknown> };
        expect(command.type).toBe('entity.attachments.list');
        return command.payload['attachedFileIds'];
      };
      expect(await listed(`${a},`)).toEqual([a]);
      expect(await listed(`${a},,${b.toUpperCase()}`)).toEqual([a, b]);
      expect(await listed(',')).toBeUndefined();
      expect(await listed('')).toBeUndefined();
    });
  });
});

describe('GET /ExternalSimulations/Status under a lowered MAX_SIMULATION_SETUPS', () => {
  // At the default (5,000) a status read past the bound cannot be sent: its request line passes 192 KiB (431) near 4,200
  // setups. A gateway started with MAX_SIMULATION_SETUPS=3 reaches the bound with a short query.
  let gw: Harness;
  // The isolated harness's own key and account.
  let headers: Record<string, string>;
  beforeAll(async () => {
    process.env['MAX_SIMULATION_SETUPS'] = '3';
    try {
      let harness: typeof import('../support/gateway-harness') | undefined;
      jest.isolateModules(() => {
        harness = require('../support/gateway-harness') as typeof import('../support/gateway-harness');
      });
      const { startGateway: start, authHeaders: theirs } = harness as typeof import('../support/gateway-harness');
      gw = await start();
      headers = theirs;
    } finally {
      delete process.env['MAX_SIMULATION_SETUPS'];
    }
  });
  afterAll(() => gw.stop());

  test('when the status is asked for more setups than MAX_SIMULATION_SETUPS, then it is a 400 naming the variable and nothing is sent', async () => {
    const ask = (n: number) => send(gw.baseUrl, 'GET', `/ExternalSimulations/Status?externalProfileId=${randomUUID()}&${Array.from({ length: n }, () => `setupIds=${randomUUID()}`).join('&')}`, { headers });
    const before = gw.received.length;
    const refused = await ask(4);
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.body)).toMatchObject({ detail: 'setupIds must have at most 3 items (MAX_SIMULATION_SETUPS)', errors: { setupIds: ['must have at most 3 items (MAX_SIMULATION_SETUPS)'] } });
    expect(gw.received.length).toBe(before);
    // At the bound it is sent.
    expect((await ask(3)).status).toBe(200);
    expect(gw.received.length).toBe(before + 1);
  });
});
