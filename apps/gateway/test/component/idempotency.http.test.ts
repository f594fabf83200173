import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { EncodedJson } from '@pitwall/bus';
import { testPool } from '@pitwall/db/testing';
import { useEntityStack } from '../support/entity-stack';

/** Idempotency-Key on writes, through the gateway, with the entity-service in-process on real PostgreSQL. */
describe('gateway: a write sent again with its Idempotency-Key takes effect once', () => {
  const env = useEntityStack();
  let db: pg.Pool;
  beforeAll(() => {
    db = testPool(env.stack.databaseUrl);
  });
  afterAll(async () => {
    await db?.end();
  });

  const named = async (name: string): Promise<number> =>
    Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM entity.entities WHERE account_id = $1 AND parameters->>'Name' = $2`, [env.accountId, name])).rows[0]?.n);
  const post = (body: unknown, key?: string) =>
    fetch(`${env.base}/Championships`, { method: 'POST', headers: { ...env.headers, ...(key ? { 'Idempotency-Key': key } : {}) }, body: JSON.stringify(body) });
  const championship = (name: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: name }] });

  test('when a create is sent twice with one key, then the second answers the first reply (same Id, Location, time) and one entity exists', async () => {
    const name = `Idem ${randomUUID()}`;
    const key = randomUUID();
    const first = await post(championship(name), key);
    const second = await post(championship(name), key);

    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    const [a, b] = [await first.text(), await second.text()];
    expect(b).toBe(a);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(second.headers.get('x-last-modified-time')).toBe(first.headers.get('x-last-modified-time'));
    expect(await named(name)).toBe(1);
  });

  test('when the same create is sent twice without a key, then it is two writes (each HTTP request is its own command)', async () => {
    const name = `No key ${randomUUID()}`;
    expect((await post(championship(name))).status).toBe(201);
    expect((await post(championship(name))).status).toBe(201);

    expect(await named(name)).toBe(2);
  });

  test('when one key is reused with another body, then 422 problem+json naming the case, and the second body is not written', async () => {
    const key = randomUUID();
    const name = `First ${randomUUID()}`;
    const other = `Other ${randomUUID()}`;
    expect((await post(championship(name), key)).status).toBe(201);

    const reused = await post(championship(other), key);

    expect(reused.status).toBe(422);
    expect(reused.headers.get('content-type')).toContain('application/problem+json');
    expect(((await reused.json()) as { type: string }).type).toBe('urn:pitwall:problem:idempotency-key-reused');
    expect(await named(other)).toBe(0);
    expect(await named(name)).toBe(1);
  });

  test('when the retry spells the same request with its keys in another order or case, then it is the same request: the first reply, one entity', async () => {
    const name = `Spelled ${randomUUID()}`;
    const key = randomUUID();
    const first = await post({ ParameterUpdates: [{ Name: 'Name', Value: name }], CopyAll: false }, key);
    const reordered = await post({ copyAll: false, parameterUpdates: [{ value: name, name: 'Name' }] }, key);

    expect(first.status).toBe(201);
    expect([reordered.status, await reordered.text()]).toEqual([201, await first.text()]);
    expect(await named(name)).toBe(1);
    // The order of a list is part of the request: reordered updates are another request.
    const listed = await post({ ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'Name', Value: `${name} 2` }] }, `${key}-list`);
    expect(listed.status).toBe(201);
    const swapped = await post({ ParameterUpdates: [{ Name: 'Name', Value: `${name} 2` }, { Name: 'Name', Value: name }] }, `${key}-list`);
    expect(swapped.status).toBe(422);
  });

  test('when the retry spells a GUID of the body in upper case, then it is the same request (GUIDs compare case-insensitively): the first reply, one entity', async () => {
    const source = (await (await post(championship(`Source ${randomUUID()}`))).json()) as { Id: string };
    const name = `Copied ${randomUUID()}`;
    const key = randomUUID();
    const first = await post({ CopyFromId: source.Id, ParameterUpdates: [{ Name: 'Name', Value: name }] }, key);
    const upper = await post({ CopyFromId: source.Id.toUpperCase(), ParameterUpdates: [{ Name: 'Name', Value: name }] }, key);

    expect(first.status).toBe(201);
    expect([upper.status, await upper.text()]).toEqual([201, await first.text()]);
    expect(await named(name)).toBe(1);
  });

  test('when five requests with one key arrive at once, then all get the same entity and it is created once', async () => {
    const name = `Concurrent ${randomUUID()}`;
    const key = randomUUID();

    const answers = await Promise.all(Array.from({ length: 5 }, () => post(championship(name), key)));

    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { Id: string }).Id)));
    expect(ids.size).toBe(1);
    expect(await named(name)).toBe(1);
  });

  test('when an update and a delete are repeated with their keys, then the repeats answer as the first did and write nothing', async () => {
    const created = (await (await post(championship(`Upd ${randomUUID()}`))).json()) as { Id: string };
    const renamed = `Renamed ${randomUUID()}`;
    const updateKey = randomUUID();
    const put = () => fetch(`${env.base}/Championships/${created.Id}`, { method: 'PUT', headers: { ...env.headers, 'Idempotency-Key': updateKey }, body: JSON.stringify(championship(renamed)) });

    const firstPut = await put();
    const secondPut = await put();

    expect(firstPut.status).toBe(200);
    expect(secondPut.status).toBe(200);
    expect(await secondPut.text()).toBe(await firstPut.text());
    // Not written again: a second write would have moved the modified time on.
    expect(secondPut.headers.get('x-last-modified-time')).toBe(firstPut.headers.get('x-last-modified-time'));

    const deleteKey = randomUUID();
    const del = () => fetch(`${env.base}/Championships/${created.Id}`, { method: 'DELETE', headers: { ...env.headers, 'Idempotency-Key': deleteKey } });
    const firstDelete = await del();
    const secondDelete = await del();
    // Without the key, the second delete would be a 404: the entity is gone.
    expect(secondDelete.status).toBe(firstDelete.status);
    expect(firstDelete.status).toBeLessThan(300);
    expect((await fetch(`${env.base}/Championships/${created.Id}`, { headers: env.headers })).status).toBe(404);
  });

  test('when a write is refused (400), then its key is not used up: the corrected request with the same key is written', async () => {
    const key = randomUUID();
    const name = `Corrected ${randomUUID()}`;
    const refused = await post({ ParameterUpdates: [{ Name: 'NoSuchParameter', Value: 1 }] }, key);
    expect(refused.status).toBe(400);

    // Another body under the key of a refused request is not a reuse: the refused one left no trace.
    const corrected = await post(championship(name), key);

    expect(corrected.status).toBe(201);
    expect(await named(name)).toBe(1);
  });

  test.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not visible ASCII', 'key with spaces'],
  ])('when the Idempotency-Key is %s, then 400 names the header and nothing is written', async (_what, key) => {
    const name = `Bad key ${randomUUID()}`;
    const r = await fetch(`${env.base}/Championships`, { method: 'POST', headers: { ...env.headers, 'Idempotency-Key': key }, body: JSON.stringify(championship(name)) });

    expect(r.status).toBe(400);
    expect(((await r.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty('Idempotency-Key');
    expect(await named(name)).toBe(0);
  });

  test('when a command reaches the service past its deadline, then it answers 504 "deadline passed" and its write is rolled back', async () => {
    const name = `Late ${randomUUID()}`;
    const caller = { accountId: env.accountId, userId: randomUUID(), role: 'admin' };
    const late = env.stack.bus.requestEncoded(
      'entity',
      'entity.create',
      { caller, type: 'Championships', parentIds: {}, body: championship(name) },
      { deadline: Date.now() - 1, headers: { commandId: `request:${randomUUID()}`, commandHash: 'h' } },
    );

    await expect(late).rejects.toMatchObject({ status: 504, type: 'urn:pitwall:problem:deadline-passed' });
    expect(await named(name)).toBe(0);
    // The same command within its deadline is written: the late one left nothing behind, not even its command id.
    const inTime = await env.stack.bus.requestEncoded('entity', 'entity.create', { caller, type: 'Championships', parentIds: {}, body: championship(name) }, { headers: { commandId: `request:${randomUUID()}`, commandHash: 'h' } });
    expect(inTime).toBeInstanceOf(EncodedJson);
    expect(await named(name)).toBe(1);
  });
});
