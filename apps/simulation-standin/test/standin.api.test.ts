import { KEPT, MAX_BODY_BYTES, startSimulationStandIn, type SimulationStandIn } from '../src/definition';

describe('the stand-in external simulation system', () => {
  let standIn: SimulationStandIn;
  beforeAll(async () => {
    standIn = await startSimulationStandIn({ runningPolls: 1 });
  });
  afterAll(() => standIn.stop());

  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${standIn.url}${path}`, { method, headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test('when a token is asked for with all four credentials, then a study runs, completes and has results', async () => {
    const token = (await call('POST', '/oauth/token', { client_id: 'c', client_secret: 's', username: 'u', password: 'p' })).body['access_token'] as string;
    const created = await call('POST', '/studies', { name: 'Setup A', parameters: { Name: 'Setup A' } }, token);
    expect(created.status).toBe(201);
    const id = created.body['studyId'] as string;
    expect((await call('GET', `/studies/${id}`, undefined, token)).body).toMatchObject({ status: 'running' });
    expect((await call('GET', `/studies/${id}`, undefined, token)).body).toMatchObject({ status: 'completed' });
    expect((await call('GET', `/studies/${id}/results`, undefined, token)).body).toEqual({ results: { LapTime: expect.any(Number), TopSpeed: expect.any(Number) } });
  });

  test('when credentials are partial or the token is missing, then it answers 401', async () => {
    expect((await call('POST', '/oauth/token', { client_id: 'c' })).status).toBe(401);
    expect((await call('POST', '/studies', { name: 'x' })).status).toBe(401);
  });

  test('when transient failures are switched on, then the next calls answer 503', async () => {
    standIn.options.transientFailures = 1;
    expect((await call('POST', '/oauth/token', { client_id: 'c', client_secret: 's', username: 'u', password: 'p' })).status).toBe(503);
    expect((await call('POST', '/oauth/token', { client_id: 'c', client_secret: 's', username: 'u', password: 'p' })).status).toBe(200);
  });

  test('when a create carries an Idempotency-Key, then a repeat with the same key answers the same study and makes no other, and another key makes another', async () => {
    const token = (await call('POST', '/oauth/token', { client_id: 'c', client_secret: 's', username: 'u', password: 'p' })).body['access_token'] as string;
    const create = async (key: string) => {
      const res = await fetch(`${standIn.url}/studies`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': key }, body: JSON.stringify({ name: 'Quali', parameters: {} }) });
      return { status: res.status, studyId: ((await res.json()) as { studyId: string }).studyId };
    };
    const before = standIn.studies.size;
    const first = await create('job-1');
    expect(first.status).toBe(201);
    expect(await create('job-1')).toEqual(first);
    expect((await create('job-2')).studyId).not.toBe(first.studyId);
    expect(standIn.studies.size).toBe(before + 2);
    expect(standIn.studies.get(first.studyId)?.idempotencyKey).toBe('job-1');
  });

  test('when a body is JSON but not an object, or a study id is not valid percent-encoding, then it is a 400 or a 404 saying so, never a 500 echoing the error', async () => {
    const token = (await call('POST', '/oauth/token', { client_id: 'c', client_secret: 's', username: 'u', password: 'p' })).body['access_token'] as string;
    for (const path of ['/oauth/token', '/studies']) expect(await call('POST', path, null, token)).toEqual({ status: 400, body: { message: 'the body is not a JSON object' } });
    expect(await call('POST', '/studies', [1], token)).toEqual({ status: 400, body: { message: 'the body is not a JSON object' } });
    expect(await call('GET', '/studies/%E0%A4%A', undefined, token)).toEqual({ status: 404, body: { message: 'study not found (its id is not valid percent-encoding)' } });
  });

  test('when its port is in use, then the start rejects with the listen error (EADDRINUSE), not an unhandled error event', async () => {
    const port = Number(new URL(standIn.url).port);
    await expect(startSimulationStandIn({}, port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('the stand-in: what it keeps, and whose credentials it takes', () => {
  const login = (url: string, body: Record<string, string>) => fetch(`${url}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  test('when it is given credentials, then only those log in: others, however complete, are 401', async () => {
    const only = { clientId: 'demo', clientSecret: 'secret-1', username: 'demo', password: 'demo' };
    const standIn = await startSimulationStandIn({ credentials: only });
    try {
      expect((await login(standIn.url, { client_id: 'demo', client_secret: 'secret-1', username: 'demo', password: 'demo' })).status).toBe(200);
      for (const body of [
        { client_id: 'demo', client_secret: 'guess', username: 'demo', password: 'demo' },
        { client_id: 'other', client_secret: 'secret-1', username: 'demo', password: 'demo' },
        { client_id: 'demo', client_secret: 'secret-1', username: 'demo', password: 'x' },
      ]) {
        expect((await login(standIn.url, body)).status).toBe(401);
      }
      expect(standIn.logins).toEqual(['demo']);
    } finally {
      await standIn.stop();
    }
  });

  test('when more studies, tokens and calls are made than it keeps, then it keeps the last ones; a body over its cap is 413 and keeps nothing', async () => {
    const standIn = await startSimulationStandIn({ runningPolls: 0 });
    try {
      const token = ((await (await login(standIn.url, { client_id: 'c', client_secret: 's', username: 'u', password: 'p' })).json()) as { access_token: string }).access_token;
      const create = (key: string, body: string) => fetch(`${standIn.url}/studies`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': key }, body });
      const first = ((await (await create('k-0', JSON.stringify({ name: 'S 0', parameters: {} }))).json()) as { studyId: string }).studyId;
      for (let i = 1; i <= KEPT; i++) expect((await create(`k-${i}`, JSON.stringify({ name: `S ${i}`, parameters: {} }))).status).toBe(201);
      expect(standIn.studies.size).toBe(KEPT);
      expect(standIn.studies.has(first)).toBe(false);
      expect(standIn.calls.length).toBe(KEPT);
      // The first study's key is forgotten with it: a repeat makes a new study.
      const again = ((await (await create('k-0', JSON.stringify({ name: 'S 0', parameters: {} }))).json()) as { studyId: string }).studyId;
      expect(again).not.toBe(first);
      const big = await create('k-big', JSON.stringify({ name: 'Big', parameters: { Name: 'N'.repeat(MAX_BODY_BYTES) } }));
      expect(big.status).toBe(413);
      expect([...standIn.studies.values()].some((s) => s.name === 'Big')).toBe(false);
      // The token still works after the refusal, on a new connection or the same.
      expect((await create('k-after', JSON.stringify({ name: 'After', parameters: {} }))).status).toBe(201);
    } finally {
      await standIn.stop();
    }
  });

});
