import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { AuthStore } from '@pitwall/auth';
import { MemoryCache } from '@pitwall/cache';
import { createPool } from '@pitwall/db';
import { entityService } from '@pitwall/entity-service';
import { createLogger } from '@pitwall/service-kit';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { gateway } from '../../src/definition';

interface UserEntity {
  Id: string;
  Parameters: { Name: string; Email: string | null };
}

/**
 * The read-only Users entities are the account's members: the gateway's auth store announces every membership change
 * (auth outbox), the entity-service mirrors it, and the ordinary entity reads show it. Both in-process, real PostgreSQL.
 */
describe('gateway: Users are the account members, kept in step with membership changes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-users-'));
  let stack: InProcessStack;
  let base: string;
  let auth: AuthStore;
  let headers: Record<string, string>;
  let accountId: string;
  let db: pg.Pool;
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService);
    const running = await stack.start(gateway);
    base = running.address;
    auth = running.parts.auth;
    const demo = await auth.ensureDemoAccount({ keyFile: join(dir, 'demo-api-key') });
    accountId = demo.accountId;
    headers = { ApiKey: demo.apiKey as string, AccountId: demo.accountId, 'Content-Type': 'application/json' };
    // createPool: every client has an error listener, so the database's drop at the end cannot raise an unhandled error.
    db = createPool({ url: stack.databaseUrl, applicationName: 'users-mirror-test', logger: createLogger('users-mirror-test', 'silent'), max: 2 });
  });
  afterAll(async () => {
    await db?.end();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const listUsers = async (): Promise<UserEntity[]> => {
    const res = await fetch(`${base}/Users`, { headers });
    expect(res.status).toBe(200);
    return (await res.json()) as UserEntity[];
  };
  const names = async () => (await listUsers()).map((u) => u.Parameters.Name).sort();
  /** Membership changes reach the Users asynchronously (an event): wait until the list shows what is expected. */
  const eventually = async (expected: string[], ms = 10_000) => {
    const until = Date.now() + ms;
    let last: string[] = [];
    while (Date.now() < until) {
      last = await names();
      if (JSON.stringify(last) === JSON.stringify([...expected].sort())) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(last).toEqual([...expected].sort());
  };

  test('when the account exists with its admin, then GET /Users lists that member with Name and Email, and GET /Users/{id} reads it', async () => {
    await eventually(['demo']);
    const [user] = await listUsers();
    expect(user?.Parameters).toEqual({ Name: 'demo', Email: null });
    const one = await fetch(`${base}/Users/${user?.Id}`, { headers });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ Id: user?.Id, Parameters: { Name: 'demo', Email: null } });
  });

  test('when a member is added, has the role changed and is removed, then the Users follow: listed, still listed, gone (404 by id)', async () => {
    const name = `engineer-${randomUUID().slice(0, 8)}`;
    const user = await auth.createUser(name, `${name}@example.com`);
    await auth.addMembership(accountId, user.id, 'reader');
    await eventually(['demo', name]);
    const added = (await listUsers()).find((u) => u.Parameters.Name === name) as UserEntity;
    expect(added.Parameters.Email).toBe(`${name}@example.com`);

    await auth.addMembership(accountId, user.id, 'editor');
    await eventually(['demo', name]);
    expect((await listUsers()).find((u) => u.Parameters.Name === name)?.Id).toBe(added.Id);

    expect(await auth.removeMembership(accountId, user.id)).toBe(true);
    await eventually(['demo']);
    expect((await fetch(`${base}/Users/${added.Id}`, { headers })).status).toBe(404);
  });

  test('when a member of another account is added, then this account\'s Users do not show it', async () => {
    const other = await auth.createAccount('Other Racing');
    const stranger = await auth.createUser(`stranger-${randomUUID().slice(0, 8)}`);
    await auth.addMembership(other.id, stranger.id, 'admin');
    const marker = await auth.createUser(`marker-${randomUUID().slice(0, 8)}`);
    await auth.addMembership(accountId, marker.id, 'reader');
    // The later change of this account arrived: the stranger, announced before it, would have been mirrored by now.
    await eventually(['demo', marker.name]);
    await auth.removeMembership(accountId, marker.id);
    await eventually(['demo']);
  });

  test('when the admin CLI (an auth store with no bus) adds a member, then the gateway publishes the left-over and the Users show it', async () => {
    const cli = new AuthStore(db, new MemoryCache(), createLogger('admin-test', 'silent'));
    const name = `cli-${randomUUID().slice(0, 8)}`;
    const user = await cli.createUser(name);
    await cli.addMembership(accountId, user.id, 'reader');
    await eventually(['demo', name], 20_000);
    await cli.removeMembership(accountId, user.id);
    await eventually(['demo'], 20_000);
  });

  test('when a membership change\'s snapshot was lost with the in-process bus (npm start killed before it was mirrored) and the gateway starts again, then the Users show the change', async () => {
    const cli = new AuthStore(db, new MemoryCache(), createLogger('admin-test', 'silent'));
    const name = `lost-${randomUUID().slice(0, 8)}`;
    const user = await cli.createUser(name);
    // The membership committed, its snapshot gone: what a kill -9 leaves once the in-process bus took it from the outbox.
    await db.query(`INSERT INTO auth.account_memberships (account_id, user_id, role) VALUES ($1, $2, 'reader')`, [accountId, user.id]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await names()).toEqual(['demo']);

    await stack.start(gateway);

    await eventually(['demo', name], 20_000);
    await cli.removeMembership(accountId, user.id);
    await eventually(['demo'], 20_000);
  });

  test('when a User is created, updated or deleted, then it is a 403 problem saying why, and the Users are unchanged', async () => {
    await eventually(['demo']);
    const before = await listUsers();
    const id = before[0]?.Id as string;
    const body = JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'Intruder' }] });
    for (const res of [
      await fetch(`${base}/Users`, { method: 'POST', headers, body }),
      await fetch(`${base}/Users/${id}`, { method: 'PUT', headers, body }),
      await fetch(`${base}/Users/${id}`, { method: 'DELETE', headers }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(((await res.json()) as { detail: string }).detail).toMatch(/read-only.*admin CLI/);
    }
    expect(await listUsers()).toEqual(before);
  });
});
