import { startSimulationStandIn, type SimulationStandIn } from '../src/definition';

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
});
