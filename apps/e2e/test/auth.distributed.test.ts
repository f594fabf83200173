import { randomUUID } from 'node:crypto';
import { DistributedStack, type Member } from './support/distributed';

let stack: DistributedStack;
let admin: Member;
let championshipId: string;

beforeAll(async () => {
  stack = await DistributedStack.shared();
  admin = await stack.member('admin');
  championshipId = (await admin.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'Owned' }] })).returnValue!.Id;
});
afterAll(async () => {
  await stack?.stop();
});

async function call(path: string, headers: Record<string, string>, method = 'GET', body?: unknown) {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), auth: res.headers.get('www-authenticate'), body: text ? JSON.parse(text) : null };
}

describe('auth matrix (wire.md §1)', () => {
  test('when the ApiKey header is missing, then 401 with WWW-Authenticate: ApiKey', async () => {
    const r = await call(`/Championships/${championshipId}`, { AccountId: admin.accountId });
    expect(r).toMatchObject({ status: 401, auth: 'ApiKey' });
    expect(r.type).toContain('application/problem+json');
  });

  test.each([
    ['not in GUID form', 'let-me-in'],
    ['an unknown GUID', randomUUID()],
    ['an upper-case copy of a valid key', ''],
  ])('when the key is %s, then 401', async (_what, key) => {
    const r = await call(`/Championships/${championshipId}`, { ApiKey: key || admin.apiKey.toUpperCase(), AccountId: admin.accountId });
    expect(r).toMatchObject({ status: 401, auth: 'ApiKey' });
  });

  // Twice before each change: the gateway keeps a key's and a role's cache entries in its memory once seen, and
  // Redis tells it when one changes, so the second request is answered from that copy and the change must reach it.
  test('when a key is revoked, then its very next request is 401', async () => {
    const m = await stack.member('admin');
    expect((await m.client.getAllChampionships()).statusCode).toBe(200);
    expect((await m.client.getAllChampionships()).statusCode).toBe(200);
    await stack.auth.revokeApiKey(m.keyId);
    expect((await m.client.getAllChampionships()).statusCode).toBe(401);
  });

  test('when a role is lowered or a membership removed, then the very next request is decided by it', async () => {
    const m = await stack.member('editor', admin.accountId);
    const create = () => m.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'By a changing member' }] });
    expect((await create()).statusCode).toBe(201);
    expect((await create()).statusCode).toBe(201);
    await stack.auth.addMembership(admin.accountId, m.userId, 'reader');
    expect((await create()).statusCode).toBe(403);
    expect((await m.client.getChampionshipById(championshipId)).statusCode).toBe(200);
    await stack.auth.removeMembership(admin.accountId, m.userId);
    expect((await m.client.getChampionshipById(championshipId)).statusCode).toBe(404);
    expect((await m.client.getAllChampionships()).statusCode).toBe(403);
  });

  test.each([
    ['missing', undefined, 'is required'],
    ['malformed', 'account-7', 'is not a GUID'],
  ])('when the AccountId header is %s, then 400 names it', async (_what, accountId, message) => {
    const headers: Record<string, string> = { ApiKey: admin.apiKey };
    if (accountId) headers['AccountId'] = accountId;
    const r = await call('/Championships', headers);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ AccountId: [message] });
  });

  test('when the account is not one the key belongs to, then its entities are 404 and its lists, searches and creates 403', async () => {
    const outsider = await stack.member('admin');
    const h = { ApiKey: outsider.apiKey, AccountId: admin.accountId };
    expect((await call(`/Championships/${championshipId}`, h)).status).toBe(404);
    expect((await call(`/Championships/${championshipId}`, h, 'PUT', { ParameterUpdates: [{ Name: 'Name', Value: 'Stolen' }] })).status).toBe(404);
    expect((await call(`/Championships/${championshipId}`, h, 'DELETE')).status).toBe(404);
    expect((await call(`/Events?championshipId=${championshipId}`, h)).status).toBe(404);
    expect((await call('/Championships', h)).status).toBe(403);
    expect((await call('/Championships', h, 'POST', { ParameterUpdates: [] })).status).toBe(403);
    expect((await call('/Tyres/Search', h, 'POST', { AssociatedModelSearchMode: 0, AccountId: admin.accountId })).status).toBe(403);
    expect((await admin.client.getChampionshipById(championshipId)).returnValue?.Parameters).toEqual({ Name: 'Owned', Year: null, Description: null });
  });

  test('when an entity id of another account is used with the caller\'s own account, then it is 404 as if missing', async () => {
    const other = await stack.member('admin');
    expect((await other.client.getChampionshipById(championshipId)).statusCode).toBe(404);
    expect((await other.client.deleteChampionship(championshipId)).statusCode).toBe(404);
  });

  test('when a reader reads and writes, then reads succeed and every write is 403 with nothing changed', async () => {
    const reader = await stack.member('reader', admin.accountId);
    expect((await reader.client.getChampionshipById(championshipId)).statusCode).toBe(200);
    expect((await reader.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'No' }] })).statusCode).toBe(403);
    expect((await reader.client.updateChampionship(championshipId, { ParameterUpdates: [{ Name: 'Name', Value: 'No' }] })).statusCode).toBe(403);
    expect((await reader.client.deleteChampionship(championshipId)).statusCode).toBe(403);
    expect((await admin.client.getChampionshipById(championshipId)).returnValue?.Parameters).toEqual({ Name: 'Owned', Year: null, Description: null });
  });

  test('when an editor writes, then it succeeds', async () => {
    const editor = await stack.member('editor', admin.accountId);
    expect((await editor.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'By editor' }] })).statusCode).toBe(201);
  });

  test('when GET /Accounts/GetAll is called with an empty AccountId, then it lists the caller\'s accounts', async () => {
    const m = await stack.member('reader', admin.accountId);
    const r = await call('/Accounts/GetAll', { ApiKey: m.apiKey, AccountId: '' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ Id: admin.accountId, Name: expect.any(String), Role: 'reader' }]);
    expect((await call('/Accounts/GetAll', {})).status).toBe(401);
  });
});
