import { AuthStore } from '@pitwall/auth';
import { MemoryCache, RedisCache } from '@pitwall/cache';
import { createPool } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { createLogger } from '@pitwall/service-kit';
import { freePort, uniquePrefix } from '@pitwall/testing';
import { EXIT_FAILURE, EXIT_NOT_EVICTED, EXIT_OK, EXIT_USAGE, runAdmin } from '../src/cli';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const logger = createLogger('admin-test');

describe('admin CLI', () => {
  let db: TestDatabase;
  const cachePrefix = uniquePrefix('admin');

  const admin = async (...argv: string[]) => adminOn(REDIS_URL, ...argv);
  const adminOn = async (redisUrl: string, ...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, { env: { DATABASE_URL: db.url, REDIS_URL: redisUrl }, io: { out: (l) => out.push(l), err: (l) => err.push(l) }, cachePrefix, secondEvictionDelayMs: 50 });
    return { code, out: out.join('\n'), err: err.join('\n'), ids: [...(out.join('\n').match(GUID) ?? [])] as string[] };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  test('when an operator sets up an account, a member and a key, then the key works and revoking it evicts the gateway cache', async () => {
    const account = await admin('create-account', 'Apex Racing');
    expect(account.code).toBe(EXIT_OK);
    const [accountId] = account.ids;
    const [userId] = (await admin('create-user', 'Jo Engineer')).ids;
    expect(await admin('add-member', accountId, userId, 'editor')).toMatchObject({ code: EXIT_OK, out: `User ${userId} is now editor of account ${accountId} (a new member)` });
    const created = await admin('create-key', userId, 'pit laptop');
    expect(created.code).toBe(EXIT_OK);
    const [keyId, apiKey] = created.ids;

    // A "gateway" sharing the Redis prefix authenticates, so the key is now cached.
    const pool = createPool({ url: db.url, applicationName: 'admin-test', logger, max: 2 });
    const cache = new RedisCache(REDIS_URL, cachePrefix, logger);
    try {
      const gateway = new AuthStore(pool, cache, logger, { cacheTtlSeconds: 300 });
      expect(await gateway.authenticate(apiKey)).toEqual({ userId, keyId });
      expect(await gateway.roleFor(userId, accountId)).toBe('editor');

      const listed = await admin('list-keys', userId);
      expect(listed.out).toContain(keyId);
      expect(listed.out).toContain('pit laptop');
      expect(listed.out).not.toContain(apiKey);
      expect((await admin('list-accounts')).out).toMatch(new RegExp(`${accountId}\\tApex Racing`));

      expect((await admin('remove-member', accountId, userId)).code).toBe(EXIT_OK);
      expect(await gateway.roleFor(userId, accountId)).toBeNull();
      expect((await admin('remove-member', accountId, userId)).code).toBe(EXIT_FAILURE);
      expect((await admin('add-member', accountId, userId, 'admin')).code).toBe(EXIT_OK);
      // A role changed says what it was: a mistyped id that demoted someone shows at once.
      expect(await admin('add-member', accountId, userId, 'editor')).toMatchObject({ code: EXIT_OK, out: `User ${userId} is now editor of account ${accountId} (was admin)` });
      expect(await gateway.roleFor(userId, accountId)).toBe('editor');

      const revoked = await admin('revoke-key', keyId);
      expect(revoked).toMatchObject({ code: EXIT_OK, err: '' });
      expect(await gateway.authenticate(apiKey)).toBeNull();
      expect((await admin('list-keys', userId)).out).toMatch(/revoked/);
    } finally {
      await cache.clear();
      await cache.close();
      await pool.end();
    }
  });

  test('when the CLI cannot reach the Redis the gateways use, then revoke-key revokes the key, warns and exits 3; revoked again once Redis answers, the gateways refuse it', async () => {
    const [userId] = (await admin('create-user', 'Cut Off')).ids;
    const [keyId, apiKey] = (await admin('create-key', userId)).ids;
    const pool = createPool({ url: db.url, applicationName: 'admin-test', logger, max: 1 });
    const cache = new RedisCache(REDIS_URL, cachePrefix, logger);
    try {
      // A gateway cached the key before the revocation (its entry lives 300 s).
      const gateway = new AuthStore(pool, cache, logger, { cacheTtlSeconds: 300 });
      expect(await gateway.authenticate(apiKey)).toEqual({ userId, keyId });

      const revoked = await adminOn(`redis://127.0.0.1:${await freePort()}`, 'revoke-key', keyId);
      expect(revoked.code).toBe(EXIT_NOT_EVICTED);
      expect(revoked.out).toBe(`Revoked key ${keyId}`);
      expect(revoked.err).toMatch(/^warning: the change is committed, but the gateways' Redis \(REDIS_URL\) did not take its eviction .*Run the command again once Redis answers\.$/);
      expect((await admin('list-keys', userId)).out).toMatch(/revoked/);
      // The gateway, whose Redis never failed, still holds the entry: what the warning says.
      expect(await gateway.authenticate(apiKey)).toEqual({ userId, keyId });

      const again = await admin('revoke-key', keyId);
      expect(again).toMatchObject({ code: EXIT_OK, out: `Key ${keyId} was already revoked; evicted from the gateways\u2019 cache again`, err: '' });
      expect(await gateway.authenticate(apiKey)).toBeNull();
      expect(await new AuthStore(pool, cache, logger).authenticate(apiKey)).toBeNull();
    } finally {
      await cache.clear();
      await cache.close();
      await pool.end();
    }
  });

  test.each([
    ['the gateways\u2019 own', 'refused at once', true],
    ['another', 'still taken until its entry expires', false],
  ])('when REDIS_PREFIX is %s, then a revoked key the gateways cached is %s', async (_which, _outcome, same) => {
    const [userId] = (await admin('create-user', 'Prefixed')).ids;
    const [keyId, apiKey] = (await admin('create-key', userId)).ids;
    const gatewayPrefix = uniquePrefix('gw');
    const pool = createPool({ url: db.url, applicationName: 'admin-test', logger, max: 1 });
    const cache = new RedisCache(REDIS_URL, gatewayPrefix, logger);
    try {
      const gateway = new AuthStore(pool, cache, logger, { cacheTtlSeconds: 300 });
      expect(await gateway.authenticate(apiKey)).toEqual({ userId, keyId });
      const env = { DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: same ? gatewayPrefix : uniquePrefix('other') };
      expect(await runAdmin(['revoke-key', keyId], { env, io: { out: () => undefined, err: () => undefined } })).toBe(EXIT_OK);
      expect(await gateway.authenticate(apiKey)).toEqual(same ? null : { userId, keyId });
    } finally {
      await cache.clear();
      await cache.close();
      await pool.end();
    }
  });

  test('when a key that does not exist is revoked, then it fails with exit code 1 and says why', async () => {
    const result = await admin('revoke-key', '0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.err).toMatch(/No API key 0f8fad5b-d9cb-469f-a165-70867728950e/);
  });

  test('when a member is added to an account that does not exist, then it fails with exit code 1', async () => {
    const [userId] = (await admin('create-user', 'Lost')).ids;
    const result = await admin('add-member', '0f8fad5b-d9cb-469f-a165-70867728950e', userId, 'reader');
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.err).toMatch(/No account/);
  });

  test('when a user who is not a member is removed from an account, then it fails with exit code 1 naming both, and the account keeps its members', async () => {
    const [accountId] = (await admin('create-account', 'Quiet Racing')).ids;
    const [member] = (await admin('create-user', 'Stays')).ids;
    const [stranger] = (await admin('create-user', 'Never Joined')).ids;
    expect((await admin('add-member', accountId, member, 'reader')).code).toBe(EXIT_OK);
    const result = await admin('remove-member', accountId, stranger);
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.err).toContain(`User ${stranger} is not a member of account ${accountId}`);
    expect(result.out).toBe('');
    // The member is still one: removing them works.
    expect((await admin('remove-member', accountId, member)).code).toBe(EXIT_OK);
  });

  test('when a key is created for a user that does not exist, then it fails with exit code 1 naming the user, and no key is made', async () => {
    const unknown = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const result = await admin('create-key', unknown, 'laptop');
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.err).toContain(`No user ${unknown}`);
    expect(result.out).not.toMatch(/API key/);
    expect((await admin('list-keys', unknown)).ids).toEqual([]);
  });

  test.each([
    [[], /Usage: npm run admin/],
    [['launch-rocket'], /Unknown command "launch-rocket"/],
    [['create-account'], /create-account <name>/],
    [['add-member', 'x', 'y', 'admin'], /accountId must be a GUID/],
    [['add-member', '0f8fad5b-d9cb-469f-a165-70867728950e', '0f8fad5b-d9cb-469f-a165-70867728950e', 'owner'], /role must be one of reader, editor, admin/],
  ])('when called with %j, then it exits 2 with a usage message', async (argv, message) => {
    const result = await admin(...argv);
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.err).toMatch(message);
  });

  test.each([
    [['create-account', '--dry-run'], 'Unknown option "--dry-run"'],
    [['create-key', '0f8fad5b-d9cb-469f-a165-70867728950e', '--label', 'x'], 'Unknown option "--label"'],
    [['-v'], 'Unknown option "-v"'],
    [['constructor'], 'Unknown command "constructor"'],
    [['__proto__'], 'Unknown command "__proto__"'],
    // Names and labels that would break the lists' tab-separated columns, or reach the operator's terminal.
    [['create-account', 'Apex\tRacing'], 'name must not hold control characters'],
    [['create-user', 'Jo\nEngineer'], 'name must not hold control characters'],
    [['create-account', 'x'.repeat(201)], 'name must be at most 200 characters, got 201'],
    [['create-key', '0f8fad5b-d9cb-469f-a165-70867728950e', 'pit\u001b[2Jlaptop'], 'label must not hold control characters'],
  ])('when called with %j, then it exits 2 naming it and changes nothing', async (argv, message) => {
    const accountsBefore = (await admin('list-accounts')).out;
    const result = await admin(...argv);
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.err).toContain(message);
    expect((await admin('list-accounts')).out).toBe(accountsBefore);
  });

  test('when --help or -h follows a command, then it prints the usage and exits 0, and nothing is created (no key labelled --help)', async () => {
    const [userId] = (await admin('create-user', 'Asks For Help')).ids;
    const accountsBefore = (await admin('list-accounts')).out;
    for (const argv of [['create-key', userId, '--help'], ['create-account', '-h'], ['revoke-key', '--help']]) {
      const result = await admin(...argv);
      expect({ code: result.code, usage: result.out.startsWith('Usage: npm run admin'), key: /^API key: /m.test(result.out) }).toEqual({ code: EXIT_OK, usage: true, key: false });
    }
    expect((await admin('list-keys', userId)).ids).toEqual([]);
    expect((await admin('list-accounts')).out).toBe(accountsBefore);
  });

  test('when a name stored before the check holds control characters, then the list prints them escaped, one line an account', async () => {
    const pool = createPool({ url: db.url, applicationName: 'admin-test', logger, max: 1 });
    try {
      const account = await new AuthStore(pool, new MemoryCache(), logger).createAccount('Red\u001b[31m\nTeam');
      const listed = (await admin('list-accounts')).out.split('\n').filter((line) => line.startsWith(account.id));
      expect(listed).toEqual([`${account.id}\tRed\\u001b[31m\\u000aTeam\t${account.createdAt.toISOString()}`]);
    } finally {
      await pool.end();
    }
  });

  test('when a name begins with -, then it is given after -- and taken as it is', async () => {
    const created = await admin('create-account', '--', '-Team-');
    expect(created.code).toBe(EXIT_OK);
    expect((await admin('list-accounts')).out).toMatch(new RegExp(`${created.ids[0]}\t-Team-\t`));
  });

  test('when a read-only command is pointed at a database without the auth schema, then it exits 1 saying so and creates nothing there', async () => {
    const other = await createTestDatabase();
    try {
      const err: string[] = [];
      const code = await runAdmin(['list-accounts'], { env: { DATABASE_URL: other.url }, io: { out: () => undefined, err: (l) => err.push(l) } });
      expect(code).toBe(EXIT_FAILURE);
      expect(err.join('\n')).toContain('has no Pitwall auth schema (auth.api_keys): is it the Pitwall database?');
      const pool = createPool({ url: other.url, applicationName: 'admin-test', logger, max: 1 });
      try {
        expect((await pool.query("SELECT to_regnamespace('auth') AS schema")).rows[0].schema).toBeNull();
      } finally {
        await pool.end();
      }
    } finally {
      await other.drop();
    }
  });

  test('when LOG_FORMAT is not json or pretty, then it exits 2 naming it', async () => {
    const err: string[] = [];
    const code = await runAdmin(['list-accounts'], { env: { DATABASE_URL: 'postgres://127.0.0.1:1/none', LOG_FORMAT: 'xml' }, io: { out: () => undefined, err: (l) => err.push(l) } });
    expect(code).toBe(EXIT_USAGE);
    expect(err.join('\n')).toContain('LOG_FORMAT');
  });

  test.each([['help'], ['--help'], ['-h']])('when asked for %s, then it prints the usage on stdout, REDIS_PREFIX explained, and exits 0 without DATABASE_URL', async (ask) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin([ask], { env: {}, io: { out: (l) => out.push(l), err: (l) => err.push(l) } });
    expect(code).toBe(EXIT_OK);
    expect(out.join('\n')).toMatch(/^Usage: npm run admin/);
    expect(out.join('\n')).toMatch(/REDIS_PREFIX {2}the gateways\u2019 REDIS_PREFIX when they set one \(default pitwall:auth:\)/);
    expect(err).toEqual([]);
  });

  test('when DATABASE_URL is not a postgres:// URL, then it exits 2 naming the variable, without repeating its password', async () => {
    const err: string[] = [];
    const code = await runAdmin(['list-accounts'], { env: { DATABASE_URL: 'mysql://root:hunter2@db/pitwall' }, io: { out: () => undefined, err: (l) => err.push(l) } });
    expect(code).toBe(EXIT_USAGE);
    expect(err.join('\n')).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(err.join('\n')).not.toContain('hunter2');
  });

  test('when REDIS_PREFIX is set empty, then it exits 2 naming it, rather than evicting under the default prefix the gateways may not use', async () => {
    const err: string[] = [];
    const code = await runAdmin(['list-accounts'], { env: { DATABASE_URL: 'postgres://127.0.0.1:1/none', REDIS_PREFIX: '' }, io: { out: () => undefined, err: (l) => err.push(l) } });
    expect(code).toBe(EXIT_USAGE);
    expect(err.join('\n')).toContain('REDIS_PREFIX: must not be empty or blank (unset, it is pitwall:auth:)');
  });

  test('when DATABASE_URL is missing, then it exits 2 naming the variable', async () => {
    const err: string[] = [];
    const code = await runAdmin(['list-accounts'], { env: {}, io: { out: () => undefined, err: (l) => err.push(l) } });
    expect(code).toBe(EXIT_USAGE);
    expect(err.join('\n')).toMatch(/DATABASE_URL is not set/);
  });
});
