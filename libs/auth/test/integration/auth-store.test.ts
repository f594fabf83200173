import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { MemoryCache, RedisCache, type Cache } from '@pitwall/cache';
import { createPool, migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { createLogger } from '@pitwall/service-kit';
import { uniquePrefix } from '@pitwall/testing';
import { AUTH_SCHEMA, AuthStore, authMigrations, DEMO_ACCOUNT_ID } from '../../src';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const logger = createLogger('auth-test');

interface StoredValue {
  table: string;
  column: string;
  value: unknown;
}

/** The key as text in any case, with or without hyphens, and its UTF-8 or 16 GUID bytes as hex, base64 or base64url. */
function encodingsOf(apiKey: string): string[] {
  const utf8 = Buffer.from(apiKey);
  const raw = Buffer.from(apiKey.replace(/-/g, ''), 'hex');
  return [apiKey, apiKey.replace(/-/g, ''), ...[utf8, raw].flatMap((b) => [b.toString('hex'), b.toString('base64').replace(/=+$/, ''), b.toString('base64url')])];
}

/** Where a stored value holds the key in any encoding (bytes compared raw too); [] when nowhere. */
function findEncodings(apiKey: string, values: StoredValue[]): string[] {
  const candidates = encodingsOf(apiKey).map((c) => c.toLowerCase());
  const rawBytes = [Buffer.from(apiKey), Buffer.from(apiKey.replace(/-/g, ''), 'hex')];
  const found: string[] = [];
  for (const { table, column, value } of values) {
    if (value === null || value === undefined) continue;
    const texts = Buffer.isBuffer(value) ? [value.toString('latin1'), value.toString('hex'), value.toString('base64'), value.toString('base64url')] : [value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value)];
    const hit = texts.some((t) => candidates.some((c) => t.toLowerCase().includes(c))) || (Buffer.isBuffer(value) && rawBytes.some((b) => value.includes(b)));
    if (hit) found.push(`${table}.${column}`);
  }
  return found;
}

describe('AuthStore', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const prefix = uniquePrefix('auth');
  const caches: RedisCache[] = [];
  const store = () => {
    const cache = new RedisCache(REDIS_URL, prefix, logger);
    caches.push(cache);
    return new AuthStore(pool, cache, logger, { cacheTtlSeconds: 300 });
  };
  const member = async (s: AuthStore, role: 'reader' | 'editor' | 'admin' = 'reader') => {
    const account = await s.createAccount(`Team ${Math.random().toString(36).slice(2, 8)}`);
    const user = await s.createUser(`driver-${Math.random().toString(36).slice(2, 8)}`);
    await s.addMembership(account.id, user.id, role);
    return { accountId: account.id, userId: user.id };
  };

  /** Every value of every column of every table of the auth schema. */
  const everyAuthValue = async (): Promise<StoredValue[]> => {
    const { rows: tables } = await pool.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'auth' AND table_type = 'BASE TABLE'");
    expect(tables.map((t) => t.table_name)).toContain('api_keys');
    const values: StoredValue[] = [];
    for (const { table_name: table } of tables) {
      const { rows } = await pool.query<Record<string, unknown>>(`SELECT * FROM auth."${table}"`);
      for (const row of rows) for (const [column, value] of Object.entries(row)) values.push({ table, column, value });
    }
    return values;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ url: db.url, applicationName: 'auth-test', logger, max: 4 });
    await migrate(pool, { schema: AUTH_SCHEMA, migrations: authMigrations, logger });
  });
  afterAll(async () => {
    await caches[0]?.clear();
    await Promise.all(caches.map((c) => c.close()));
    await pool.end();
    await db.drop();
  });

  describe('API keys', () => {
    test('when a key is created, then it is a v4 GUID that authenticates as its user, and only its hash is stored', async () => {
      const s = store();
      const { userId } = await member(s);
      const { keyId, apiKey } = await s.createApiKey(userId, 'laptop');
      expect(apiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await s.authenticate(apiKey)).toEqual({ userId, keyId });
      expect(findEncodings(apiKey, await everyAuthValue())).toEqual([]);
      expect(await s.listApiKeys(userId)).toEqual([expect.objectContaining({ keyId, label: 'laptop', revokedAt: null })]);
    });

    test('when a key is written into a column in any common encoding, then the stored-key scan finds it (the scan can fail)', async () => {
      const apiKey = '0f1e2d3c-4b5a-4697-8877-665544332211';
      const raw = Buffer.from(apiKey.replace(/-/g, ''), 'hex');
      for (const planted of [apiKey.toUpperCase(), apiKey.replace(/-/g, ''), Buffer.from(apiKey).toString('base64'), raw.toString('base64url'), Buffer.from(apiKey), raw]) {
        expect(findEncodings(apiKey, [{ table: 'api_keys', column: 'label', value: planted }])).not.toEqual([]);
      }
    });

    /**
     * A gateway that read an entry from the database just before a change committed writes it to the cache just after the
     * change's first eviction (played here by the cache itself, right after that eviction): the second eviction removes
     * it. The admin CLI ends its process when the change returns, so it awaits the second eviction; a long-running
     * process leaves it to a timer, and right after the change the stale entry is still there.
     */
    test.each([
      [true, 'the change returns only after the second eviction, and the stale entry is gone'],
      [false, 'the stale entry is still there when the change returns (the second eviction comes later, on a timer)'],
    ])('when a gateway caches the old entry just after the first eviction and awaitSecondEviction is %s, then %s', async (awaited) => {
      const redis = new Redis(REDIS_URL);
      const racePrefix = uniquePrefix('race');
      const real = new RedisCache(REDIS_URL, racePrefix, logger);
      caches.push(real);
      let lateWrite: (() => Promise<unknown>) | undefined;
      const racing: Cache = new Proxy(real, {
        get(target, name) {
          if (name === 'del') {
            return async (...keys: string[]) => {
              await target.del(...keys);
              const write = lateWrite;
              lateWrite = undefined;
              await write?.();
            };
          }
          const value = Reflect.get(target, name) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      try {
        const gateway = new AuthStore(pool, real, logger, { cacheTtlSeconds: 300 });
        // The second eviction's delay well past what the two changes and the look take on a loaded machine (100 ms had passed
        // before the look, and the entries were gone already).
        const admin = new AuthStore(pool, racing, logger, { awaitSecondEviction: awaited, secondEvictionDelayMs: 2000 });
        const { accountId, userId } = await member(admin);
        const { keyId, apiKey } = await admin.createApiKey(userId);
        expect(await gateway.authenticate(apiKey)).toEqual({ userId, keyId });
        expect(await gateway.roleFor(userId, accountId)).toBe('reader');
        const entries = async () => (await redis.keys(`${racePrefix}*`)).sort();
        const [keyEntry, roleEntry] = await entries();
        expect([keyEntry?.startsWith(`${racePrefix}key:`), roleEntry?.startsWith(`${racePrefix}role:`)]).toEqual([true, true]);
        const staleWrite = async (entry: string) => {
          const [value, ttl] = [await redis.get(entry), await redis.ttl(entry)];
          return () => redis.set(entry, value as string, 'EX', ttl);
        };

        lateWrite = await staleWrite(keyEntry as string);
        expect(await admin.revokeApiKey(keyId)).toBe(true);
        lateWrite = await staleWrite(roleEntry as string);
        expect(await admin.removeMembership(accountId, userId)).toBe(true);
        if (awaited) {
          expect(await entries()).toEqual([]);
          expect([await gateway.authenticate(apiKey), await gateway.roleFor(userId, accountId)]).toEqual([null, null]);
        } else {
          expect(await entries()).toEqual([keyEntry, roleEntry].sort());
          // The timer's eviction follows within its delay.
          while ((await entries()).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
          expect([await gateway.authenticate(apiKey), await gateway.roleFor(userId, accountId)]).toEqual([null, null]);
        }
      } finally {
        await real.clear();
        redis.disconnect();
      }
    });

    test('when a cached key is revoked, then it is refused at once, also by a second store sharing the cache', async () => {
      const first = store();
      const second = store();
      const { userId } = await member(first);
      const { keyId, apiKey } = await first.createApiKey(userId);
      expect(await first.authenticate(apiKey)).not.toBeNull();
      expect(await second.authenticate(apiKey)).not.toBeNull(); // now cached in Redis

      expect(await first.revokeApiKey(keyId)).toBe(true);

      expect(await second.authenticate(apiKey)).toBeNull();
      expect(await first.authenticate(apiKey)).toBeNull();
      expect(await first.revokeApiKey(keyId)).toBe(false);
      expect((await first.listApiKeys(userId))[0].revokedAt).toBeInstanceOf(Date);
    });

    test('when the cache is process-local and another process revokes a cached key, then it is refused within 2 s', async () => {
      const gateway = new AuthStore(pool, new MemoryCache(), logger, { cacheTtlSeconds: 300 });
      const admin = new AuthStore(pool, new MemoryCache(), logger);
      const { userId } = await member(admin);
      const { keyId, apiKey } = await admin.createApiKey(userId);
      expect(await gateway.authenticate(apiKey)).not.toBeNull(); // now cached in the gateway's process only

      expect(await admin.revokeApiKey(keyId)).toBe(true);
      const revokedAt = Date.now();
      while ((await gateway.authenticate(apiKey)) !== null) {
        expect(Date.now() - revokedAt).toBeLessThan(2000);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(Date.now() - revokedAt).toBeLessThan(2000);
    });

    test('when a key is not in GUID form, then it is refused without a database query', async () => {
      const s = store();
      const query = jest.spyOn(pool, 'query');
      try {
        for (const bad of ['', 'not-a-key', 'ABCDEF01-2345-4678-89AB-CDEF01234567', '12345678-1234-1234-1234-123456789012']) {
          expect(await s.authenticate(bad)).toBeNull();
        }
        expect(query).not.toHaveBeenCalled();
      } finally {
        query.mockRestore();
      }
    });

    test('when a well-formed key was never issued, then it is refused', async () => {
      expect(await store().authenticate('0f8fad5b-d9cb-469f-a165-70867728950e')).toBeNull();
    });

    test('when a key is created for an unknown user, then it is a 404', async () => {
      await expect(store().createApiKey('0f8fad5b-d9cb-469f-a165-70867728950e')).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('callerFor (key and role together)', () => {
    /** The real Redis cache, counting the round trips the store asks of it. */
    const countingStore = (failing: { getMany?: boolean } = {}) => {
      const cache = new RedisCache(REDIS_URL, prefix, logger);
      caches.push(cache);
      const calls: string[] = [];
      const counted = new Proxy(cache, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver) as unknown;
          if (typeof value !== 'function' || !['get', 'getMany', 'set'].includes(String(name))) return value;
          return (...args: unknown[]) => {
            calls.push(String(name));
            // A cache that cannot be reached answers this read with an error.
            if (name === 'getMany' && failing.getMany) return Promise.reject(new Error('Connection is closed.'));
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      return { store: new AuthStore(pool, counted, logger, { cacheTtlSeconds: 300 }), calls, failing };
    };

    test('when a key is used again, then its user and role come in one cache round trip and agree with authenticate and roleFor', async () => {
      const { store: s, calls } = countingStore();
      const { accountId, userId } = await member(s, 'editor');
      const { keyId, apiKey } = await s.createApiKey(userId);
      expect(await s.callerFor(apiKey, accountId)).toEqual({ principal: { userId, keyId }, role: 'editor' });
      calls.length = 0;
      expect(await s.callerFor(apiKey, accountId)).toEqual({ principal: { userId, keyId }, role: 'editor' });
      expect(calls).toEqual(['getMany']);
      expect(await s.authenticate(apiKey)).toEqual({ userId, keyId });
      expect(await s.roleFor(userId, accountId)).toBe('editor');
    });

    test('when the cache cannot be read, then the database answers at once, revocation included, with no further cache calls', async () => {
      const { store: s, calls, failing } = countingStore();
      const { accountId, userId } = await member(s, 'reader');
      const { keyId, apiKey } = await s.createApiKey(userId);
      await s.callerFor(apiKey, accountId); // the key is now known to this store
      failing.getMany = true;
      calls.length = 0;
      expect(await s.callerFor(apiKey, accountId)).toEqual({ principal: { userId, keyId }, role: 'reader' });
      expect(calls).toEqual(['getMany']);
      await store().revokeApiKey(keyId);
      expect(await s.callerFor(apiKey, accountId)).toBeNull();
    });

    test('when a known key is revoked by another store, then its next request is refused', async () => {
      const gateway = store();
      const admin = store();
      const { accountId, userId } = await member(admin, 'admin');
      const { keyId, apiKey } = await admin.createApiKey(userId);
      expect(await gateway.callerFor(apiKey, accountId)).not.toBeNull();
      expect(await gateway.callerFor(apiKey, accountId)).not.toBeNull(); // known to this store, cached in Redis

      expect(await admin.revokeApiKey(keyId)).toBe(true);

      expect(await gateway.callerFor(apiKey, accountId)).toBeNull();
    });

    test('when the membership changes or goes, then the next request sees the new role, or none', async () => {
      const gateway = store();
      const admin = store();
      const { accountId, userId } = await member(admin, 'reader');
      const { apiKey } = await admin.createApiKey(userId);
      expect((await gateway.callerFor(apiKey, accountId))?.role).toBe('reader');
      await admin.addMembership(accountId, userId, 'admin');
      expect((await gateway.callerFor(apiKey, accountId))?.role).toBe('admin');
      expect(await admin.removeMembership(accountId, userId)).toBe(true);
      expect(await gateway.callerFor(apiKey, accountId)).toEqual({ principal: expect.objectContaining({ userId }), role: null });
    });

    test('when the membership is lowered or removed with the ids in upper case (as .NET prints a Guid), then the next request sees the new role, or none', async () => {
      const gateway = store();
      const admin = store();
      const { accountId, userId } = await member(admin, 'admin');
      const { apiKey } = await admin.createApiKey(userId);
      expect((await gateway.callerFor(apiKey, accountId))?.role).toBe('admin');
      expect(await admin.addMembership(accountId.toUpperCase(), userId.toUpperCase(), 'reader')).toBe('admin');
      expect((await gateway.callerFor(apiKey, accountId))?.role).toBe('reader');
      expect(await admin.removeMembership(accountId.toUpperCase(), userId.toUpperCase())).toBe(true);
      expect(await gateway.callerFor(apiKey, accountId)).toEqual({ principal: expect.objectContaining({ userId }), role: null });
    });

    test('when the key is malformed or unknown, or the account is not a GUID, then it answers as authenticate and roleFor do', async () => {
      const s = store();
      const { accountId, userId } = await member(s);
      const { apiKey } = await s.createApiKey(userId);
      expect(await s.callerFor('not-a-key', accountId)).toBeNull();
      expect(await s.callerFor('0f8fad5b-d9cb-469f-a165-70867728950e', accountId)).toBeNull();
      await s.callerFor(apiKey, accountId);
      expect(await s.callerFor(apiKey, 'nonsense')).toEqual({ principal: expect.objectContaining({ userId }), role: null });
    });
  });

  describe('roles and accounts', () => {
    test('when a membership is added, changed and removed, then roleFor follows at once despite the cache', async () => {
      const s = store();
      const other = store();
      const { accountId, userId } = await member(s, 'reader');
      expect(await other.roleFor(userId, accountId)).toBe('reader');
      await s.addMembership(accountId, userId, 'admin');
      expect(await other.roleFor(userId, accountId)).toBe('admin');
      expect(await s.removeMembership(accountId, userId)).toBe(true);
      expect(await other.roleFor(userId, accountId)).toBeNull();
    });

    test('when the user is not a member of an account, then roleFor is null', async () => {
      const s = store();
      const a = await member(s);
      const b = await member(s);
      expect(await s.roleFor(a.userId, b.accountId)).toBeNull();
      expect(await s.roleFor('nonsense', b.accountId)).toBeNull();
    });

    test('when a membership change would make a members event larger than maxMessageBytes, then it is refused (413) and the members stay as they were', async () => {
      const cache = new RedisCache(REDIS_URL, prefix, logger);
      caches.push(cache);
      const s = new AuthStore(pool, cache, logger, { maxMessageBytes: 2048 });
      const account = await s.createAccount('Crowded Racing');
      const added: string[] = [];
      let refused: unknown;
      for (let i = 0; i < 100 && refused === undefined; i++) {
        const user = await s.createUser(`engineer-${i}-${'x'.repeat(40)}`);
        refused = await s.addMembership(account.id, user.id, 'reader').then(
          () => void added.push(user.id),
          (err: unknown) => {
            added.push(user.id);
            return err;
          },
        );
      }

      expect(refused).toMatchObject({ status: 413, message: expect.stringMatching(/\(BUS_MAX_MESSAGE_BYTES is 2048\): nothing was written$/) });
      const last = added.at(-1) as string;
      expect(added.length).toBeGreaterThan(2);
      expect(await s.roleFor(last, account.id)).toBeNull();
      for (const userId of added.slice(0, -1)) expect(await s.roleFor(userId, account.id)).toBe('reader');
    });

    test('when a role is not reader, editor or admin, then addMembership refuses it', async () => {
      const s = store();
      const { accountId, userId } = await member(s);
      await expect(s.addMembership(accountId, userId, 'owner' as 'admin')).rejects.toMatchObject({ status: 400 });
    });

    test('when a user belongs to two accounts, then listAccounts returns both as {Id, Name, Role} and no others', async () => {
      const s = store();
      const { accountId, userId } = await member(s);
      const second = await s.createAccount('Zeta Motorsport');
      await s.addMembership(second.id, userId, 'editor');
      await member(s); // someone else's account
      const accounts = await s.listAccounts(userId);
      expect(accounts).toHaveLength(2);
      expect(accounts).toEqual(expect.arrayContaining([{ Id: second.id, Name: 'Zeta Motorsport', Role: 'editor' }, expect.objectContaining({ Id: accountId })]));
      expect((await s.listAllAccounts()).map((a) => a.id)).toEqual(expect.arrayContaining([accountId, second.id]));
    });
  });

  describe('ensureDemoAccount', () => {
    test('when run on every start with a key file, then the demo records exist once and the printed key always works', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pitwall-auth-'));
      const keyFile = join(dir, 'demo-api-key');
      try {
        const s = store();
        const first = await s.ensureDemoAccount({ keyFile });
        const again = await store().ensureDemoAccount({ keyFile });
        expect(again).toEqual(first);
        expect(readFileSync(keyFile, 'utf8').trim()).toBe(first.apiKey);
        expect(await s.authenticate(first.apiKey as string)).toMatchObject({ userId: first.userId });
        expect(await s.roleFor(first.userId, DEMO_ACCOUNT_ID)).toBe('admin');
        expect(await s.listAccounts(first.userId)).toEqual([{ Id: DEMO_ACCOUNT_ID, Name: 'Demo Racing', Role: 'admin' }]);

        // A lost or revoked key is replaced by a fresh one.
        const [key] = await s.listApiKeys(first.userId);
        await s.revokeApiKey(key.keyId);
        const replaced = await s.ensureDemoAccount({ keyFile });
        expect(replaced.apiKey).not.toBe(first.apiKey);
        expect(await s.authenticate(replaced.apiKey as string)).not.toBeNull();
        const { rows } = await pool.query("SELECT count(*)::int AS n FROM auth.accounts WHERE name = 'Demo Racing'");
        expect(rows[0].n).toBe(1);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
