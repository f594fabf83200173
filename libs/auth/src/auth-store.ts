import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type pg from 'pg';
import { CacheUnavailableError, type Cache } from '@pitwall/cache';
import { ACCOUNT_MEMBERS_ROUTING_KEY, type AccountMembersEvent } from '@pitwall/contracts';
import { withTransaction, type Queryable } from '@pitwall/db';
import { createOutbox, type Outbox, type PublishMessage } from '@pitwall/messaging';
import { AppError, makeDirectorySync, type Logger } from '@pitwall/service-kit';
import { generateApiKey, hashApiKey, isApiKey, sameHash } from './api-key';

/** Prefix of every auth cache key in Redis; the gateway and the admin CLI must agree on it. */
export const AUTH_CACHE_PREFIX = 'pitwall:auth:';

/**
 * The auth cache's entries a gateway keeps in its own memory (`RedisCache`'s `near`): the keys' and the roles'.
 * Redis tells the gateway at once when one changes (a revocation, a membership change), so a request is still
 * decided by what Redis holds, without a Redis round trip per request.
 */
export const AUTH_NEAR_PREFIXES: readonly string[] = ['key:', 'role:'];
const [KEY_ENTRY, ROLE_ENTRY] = AUTH_NEAR_PREFIXES as [string, string];

export const ROLES = ['reader', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export interface Principal {
  userId: string;
  keyId: string;
}

export interface AccountSummary {
  Id: string;
  Name: string;
  /** The user's role in the account. */
  Role: Role;
}

export interface AccountRecord {
  id: string;
  name: string;
  createdAt: Date;
}

export interface UserRecord {
  id: string;
  name: string;
  email: string | null;
  createdAt: Date;
}

export interface ApiKeyRecord {
  keyId: string;
  userId: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface DemoAccount {
  accountId: string;
  userId: string;
  /** A working key, or null when no key file was given and the demo user already existed (its key is only stored hashed). */
  apiKey: string | null;
}

export interface AuthStoreOptions {
  /**
   * How long an authenticated key or a role stays cached (default 60 s). Revocation and membership changes evict at
   * once from a shared cache; a process-local one keeps entries at most PROCESS_LOCAL_CACHE_TTL_SECONDS.
   */
  cacheTtlSeconds?: number;
  /**
   * Publishes a membership event (`AccountMembersEvent` on the auth events exchange) right after its change commits.
   * Without it (the admin CLI has no bus) the event waits in `auth.outbox` until a gateway's retry publishes it.
   */
  publishMembershipEvent?: PublishMessage<AccountMembersEvent>;
  /** BUS_MAX_MESSAGE_BYTES: a membership change whose snapshot event is larger is refused (413), as the broker would refuse the event. */
  maxMessageBytes?: number;
  /**
   * A change's second eviction (SECOND_EVICTION_DELAY_MS after the first, for a gateway that read the old entry just
   * before the change and cached it just after the first eviction) is awaited by the change, not left to a timer: the
   * admin CLI ends its process right after the command, which would drop the timer.
   */
  awaitSecondEviction?: boolean;
  /** The delay of the second eviction (default SECOND_EVICTION_DELAY_MS); tests shorten it. */
  secondEvictionDelayMs?: number;
  /** Told of every eviction the cache refused (the change stays committed): the admin CLI warns and exits non-zero. */
  onEvictionFailed?: (err: Error) => void;
}

/** The demo records have fixed ids, so creating them is idempotent across restarts and processes. */
export const DEMO_ACCOUNT_ID = '00000000-0000-4000-8000-00000000de01';
export const DEMO_USER_ID = '00000000-0000-4000-8000-00000000de02';

const NONE = '-';
const NOT_PUBLISHED_HERE: PublishMessage<AccountMembersEvent> = async () => {
  throw new Error('this auth store does not publish: a gateway publishes the auth outbox');
};
const FOREIGN_KEY_VIOLATION = '23503';
// Covers an authenticate() that read the key just before the revocation and writes the cache just after our eviction.
const SECOND_EVICTION_DELAY_MS = 2000;

/** How long a process-local cache (the embedded default) may trust an entry another process may have revoked. */
export const PROCESS_LOCAL_CACHE_TTL_SECONDS = 1;
/** Keys whose user this process remembers (see `callerFor`); beyond it the oldest is forgotten. */
const KNOWN_KEYS_MAX = 10_000;

/**
 * The columns of one account's member snapshot (AccountMembersEvent) with the next membership version: `accountText`
 * and `accountUuid` are SQL giving the account's id as text and as a uuid.
 */
function membersSnapshot(accountText: string, accountUuid: string): string {
  return `${accountText} AS "accountId", nextval('auth.membership_version')::text AS version,
          COALESCE((SELECT jsonb_agg(jsonb_build_object('userId', u.id, 'name', u.name, 'email', u.email, 'role', m.role) ORDER BY u.id)
                    FROM auth.account_memberships m JOIN auth.users u ON u.id = m.user_id WHERE m.account_id = ${accountUuid}), '[]'::jsonb) AS members`;
}

/** Accounts, users, memberships and API keys (schema `auth`), with the hot reads cached. */
export class AuthStore {
  private readonly ttl: number;
  /** Membership events: written with each membership change; a gateway runs `events.start()` to publish left-overs. */
  readonly events: Outbox<AccountMembersEvent>;
  private readonly publishesEvents: boolean;
  /**
   * Cache key of an API key → its principal. A key's user never changes, so this only says which role entry to fetch
   * beside the key's own entry; whether the key still works is decided by that entry and the database, every time.
   */
  private readonly knownKeys = new Map<string, Principal>();
  private readonly evictions: Pick<AuthStoreOptions, 'awaitSecondEviction' | 'onEvictionFailed'> & { delayMs: number };

  constructor(
    private readonly pool: pg.Pool,
    private readonly cache: Cache,
    private readonly logger: Logger,
    options: AuthStoreOptions = {},
  ) {
    // Another process (the admin CLI) cannot evict an in-process cache: its entries must expire within the 2 s in
    // which a revoked key or a removed membership stops working.
    const ttl = options.cacheTtlSeconds ?? 60;
    this.ttl = cache.shared === true ? ttl : Math.min(ttl, PROCESS_LOCAL_CACHE_TTL_SECONDS);
    this.publishesEvents = options.publishMembershipEvent !== undefined;
    this.events = createOutbox({ pool, schema: 'auth', publish: options.publishMembershipEvent ?? NOT_PUBLISHED_HERE, logger, maxMessageBytes: options.maxMessageBytes });
    this.evictions = { awaitSecondEviction: options.awaitSecondEviction, onEvictionFailed: options.onEvictionFailed, delayMs: options.secondEvictionDelayMs ?? SECOND_EVICTION_DELAY_MS };
  }

  async createAccount(name: string): Promise<AccountRecord> {
    const { rows } = await this.pool.query('INSERT INTO auth.accounts (id, name) VALUES ($1, $2) RETURNING id, name, created_at', [randomUUID(), requireName(name)]);
    return toAccount(rows[0]);
  }

  async createUser(name: string, email?: string): Promise<UserRecord> {
    const { rows } = await this.pool.query('INSERT INTO auth.users (id, name, email) VALUES ($1, $2, $3) RETURNING id, name, email, created_at', [randomUUID(), requireName(name), email ?? null]);
    return toUser(rows[0]);
  }

  /**
   * Adds the user to the account, or changes the role of an existing membership; the account's members are announced.
   * Returns the role the user had there before (null: none).
   */
  async addMembership(accountId: string, userId: string, role: Role): Promise<Role | null> {
    if (!isRole(role)) throw AppError.badRequest(`Role must be one of ${ROLES.join(', ')}`);
    accountId = requireUuid(accountId, 'account id');
    userId = requireUuid(userId, 'user id');
    let before: Role | null = null;
    try {
      await this.changeMembers(accountId, async (c) => {
        // The account row is locked (changeMembers): the role read here is the one this change replaces.
        const { rows } = await c.query<{ role: Role }>('SELECT role FROM auth.account_memberships WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
        before = rows[0]?.role ?? null;
        await c.query(
          'INSERT INTO auth.account_memberships (account_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT (account_id, user_id) DO UPDATE SET role = EXCLUDED.role',
          [accountId, userId, role],
        );
        return true;
      });
    } catch (err) {
      if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) throw AppError.notFound(`No account ${accountId} or no user ${userId}`);
      throw err;
    }
    await this.evictTwice(roleKey(userId, accountId));
    return before;
  }

  /** Returns false when there was no such membership. */
  async removeMembership(accountId: string, userId: string): Promise<boolean> {
    accountId = requireUuid(accountId, 'account id');
    userId = requireUuid(userId, 'user id');
    const removed = await this.changeMembers(accountId, async (c) => {
      const { rowCount } = await c.query('DELETE FROM auth.account_memberships WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
      return (rowCount ?? 0) > 0;
    });
    await this.evictTwice(roleKey(userId, accountId));
    return removed;
  }

  /**
   * Runs a membership change and, when `change` says it changed something, writes the account's whole member list
   * with the next membership version into the auth outbox, in the same transaction. The account row is locked first,
   * so two changes of one account take their versions in commit order and each snapshot holds the changes before it.
   */
  private async changeMembers(accountId: string, change: (c: Queryable) => Promise<boolean>): Promise<boolean> {
    const { changed, publish } = await withTransaction(this.pool, async (c) => {
      const locked = await c.query('SELECT 1 FROM auth.accounts WHERE id = $1 FOR UPDATE', [accountId]);
      if (locked.rowCount === 0) return { changed: await change(c), publish: undefined };
      if (!(await change(c))) return { changed: false, publish: undefined };
      const { rows } = await c.query<AccountMembersEvent>(`SELECT ${membersSnapshot('$1::text', '$1::uuid')}`, [accountId]);
      return { changed: true, publish: await this.events.add(c, [{ routingKey: ACCOUNT_MEMBERS_ROUTING_KEY, payload: rows[0] as AccountMembersEvent }]) };
    });
    if (publish && this.publishesEvents) await publish();
    return changed;
  }

  /**
   * Announces every account's members again, each snapshot with a new version (as auth migration 3 did once), and
   * returns how many. For a bus that keeps its queues in the process's memory (npm start): a snapshot published there
   * had its outbox row deleted, and went with the process if it was killed before the entity-service mirrored it. The
   * accounts are share-locked first, so a change committing meanwhile either comes before (its members read here) or
   * waits and takes the next version; the mirror applies each version once.
   */
  async announceAllMembers(): Promise<number> {
    const { count, publish } = await withTransaction(this.pool, async (c) => {
      // Every account, those left with no member too: a lost snapshot may be the one that removed the last.
      await c.query(`SELECT a.id FROM auth.accounts a ORDER BY a.id FOR SHARE`);
      const { rows } = await c.query<AccountMembersEvent>(`SELECT ${membersSnapshot('a.id::text', 'a.id')} FROM auth.accounts a ORDER BY a.id`);
      return { count: rows.length, publish: rows.length ? await this.events.add(c, rows.map((payload) => ({ routingKey: ACCOUNT_MEMBERS_ROUTING_KEY, payload }))) : undefined };
    });
    if (publish && this.publishesEvents) await publish();
    return count;
  }

  /** Creates a key for the user. The plain key is returned here and never again: only its hash is stored. */
  async createApiKey(userId: string, label?: string): Promise<{ keyId: string; apiKey: string }> {
    userId = requireUuid(userId, 'user id');
    const keyId = randomUUID();
    const apiKey = generateApiKey();
    try {
      await this.pool.query('INSERT INTO auth.api_keys (id, user_id, key_hash, label) VALUES ($1, $2, $3, $4)', [keyId, userId, hashApiKey(apiKey), label ?? null]);
    } catch (err) {
      if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) throw AppError.notFound(`No user ${userId}`);
      throw err;
    }
    this.logger.info({ userId, keyId }, 'api key created');
    return { keyId, apiKey };
  }

  /** Revokes the key and evicts it from the cache, so every process sharing the cache refuses it at once. False when no such live key. */
  async revokeApiKey(keyId: string): Promise<boolean> {
    keyId = requireUuid(keyId, 'key id');
    const { rows } = await this.pool.query<{ key_hash: Buffer }>('UPDATE auth.api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING key_hash', [keyId]);
    if (rows.length === 0) return false;
    this.logger.info({ keyId }, 'api key revoked');
    await this.evictTwice(apiKeyCacheKey(rows[0].key_hash));
    return true;
  }

  /**
   * Evicts an already revoked key from the cache again (twice, as a revocation does): for a revocation whose eviction
   * could not reach the gateways' cache. False when there is no revoked key of that id.
   */
  async evictRevokedApiKey(keyId: string): Promise<boolean> {
    keyId = requireUuid(keyId, 'key id');
    const { rows } = await this.pool.query<{ key_hash: Buffer }>('SELECT key_hash FROM auth.api_keys WHERE id = $1 AND revoked_at IS NOT NULL', [keyId]);
    if (rows.length === 0) return false;
    await this.evictTwice(apiKeyCacheKey(rows[0].key_hash));
    return true;
  }

  /** The key's user, or null for a malformed, unknown or revoked key. A malformed key never reaches the database. */
  async authenticate(apiKey: string): Promise<Principal | null> {
    if (typeof apiKey !== 'string' || !isApiKey(apiKey)) return null;
    const hash = hashApiKey(apiKey);
    const cacheKey = apiKeyCacheKey(hash);
    const cached = await this.readCache(cacheKey);
    if (cached) return this.remember(cacheKey, JSON.parse(cached) as Principal);
    return this.principalFromDatabase(hash);
  }

  private async principalFromDatabase(hash: Buffer, cacheWrites = true): Promise<Principal | null> {
    const cacheKey = apiKeyCacheKey(hash);
    const { rows } = await this.pool.query<{ id: string; user_id: string; key_hash: Buffer }>(
      'SELECT id, user_id, key_hash FROM auth.api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
    const row = rows[0];
    if (!row || !sameHash(row.key_hash, hash)) return null;
    const principal: Principal = { userId: row.user_id, keyId: row.id };
    if (cacheWrites) await this.writeCache(cacheKey, JSON.stringify(principal));
    return this.remember(cacheKey, principal);
  }

  /**
   * `authenticate`, then `roleFor` in that account: the key's user and role, or null for a key that does not
   * authenticate. Once this process has seen the key, the key's cached entry and the role's come in one round trip
   * (the role's key needs the user, which the key's entry holds). The key's entry still decides every time: a revoked
   * key's entry is evicted, so its next request goes to the database as `authenticate` does, and is refused.
   */
  async callerFor(apiKey: string, accountId: string): Promise<{ principal: Principal; role: Role | null } | null> {
    if (typeof apiKey !== 'string' || !isApiKey(apiKey)) return null;
    const hash = hashApiKey(apiKey);
    const cacheKey = apiKeyCacheKey(hash);
    const known = this.knownKeys.get(cacheKey);
    if (known && isUuid(accountId)) {
      const entries = await this.readCacheMany([cacheKey, roleKey(known.userId, accountId)]);
      if (!entries) {
        // The cache is unreachable: straight to the database, without waiting on the cache twice more.
        const principal = await this.principalFromDatabase(hash, false);
        return principal && { principal, role: await this.roleFromDatabase(principal.userId, accountId, false) };
      }
      const [keyEntry, roleEntry] = entries;
      const principal = keyEntry ? (JSON.parse(keyEntry) as Principal) : undefined;
      if (principal && principal.userId === known.userId && principal.keyId === known.keyId) {
        if (roleEntry) return { principal, role: roleEntry === NONE ? null : (roleEntry as Role) };
        return { principal, role: await this.roleFor(principal.userId, accountId) };
      }
    }
    const principal = await this.authenticate(apiKey);
    if (!principal) return null;
    return { principal, role: await this.roleFor(principal.userId, accountId) };
  }

  /** The user's role in the account, or null when not a member. */
  async roleFor(userId: string, accountId: string): Promise<Role | null> {
    if (!isUuid(userId) || !isUuid(accountId)) return null;
    const key = roleKey(userId, accountId);
    const cached = await this.readCache(key);
    if (cached) return cached === NONE ? null : (cached as Role);
    return this.roleFromDatabase(userId, accountId);
  }

  private async roleFromDatabase(userId: string, accountId: string, cacheWrites = true): Promise<Role | null> {
    const { rows } = await this.pool.query<{ role: Role }>('SELECT role FROM auth.account_memberships WHERE user_id = $1 AND account_id = $2', [userId, accountId]);
    const role = rows[0]?.role ?? null;
    if (cacheWrites) await this.writeCache(roleKey(userId, accountId), role ?? NONE);
    return role;
  }

  /** The accounts the user is a member of, in the wire shape of `GET /Accounts/GetAll`. */
  async listAccounts(userId: string): Promise<AccountSummary[]> {
    if (!isUuid(userId)) return [];
    const { rows } = await this.pool.query<{ id: string; name: string; role: Role }>(
      'SELECT a.id, a.name, m.role FROM auth.accounts a JOIN auth.account_memberships m ON m.account_id = a.id WHERE m.user_id = $1 ORDER BY a.name, a.id',
      [userId],
    );
    return rows.map((r) => ({ Id: r.id, Name: r.name, Role: r.role }));
  }

  /** Every account (for operators). */
  async listAllAccounts(): Promise<AccountRecord[]> {
    const { rows } = await this.pool.query('SELECT id, name, created_at FROM auth.accounts ORDER BY name, id');
    return rows.map(toAccount);
  }

  async getUser(userId: string): Promise<UserRecord | null> {
    if (!isUuid(userId)) return null;
    const { rows } = await this.pool.query('SELECT id, name, email, created_at FROM auth.users WHERE id = $1', [userId]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** The user's keys, newest first, revoked ones included; never the keys themselves. */
  async listApiKeys(userId: string): Promise<ApiKeyRecord[]> {
    userId = requireUuid(userId, 'user id');
    const { rows } = await this.pool.query('SELECT id, user_id, label, created_at, revoked_at FROM auth.api_keys WHERE user_id = $1 ORDER BY created_at DESC, id', [userId]);
    return rows.map((r) => ({ keyId: r.id, userId: r.user_id, label: r.label, createdAt: r.created_at, revokedAt: r.revoked_at }));
  }

  /**
   * Makes sure the demo account "Demo Racing", its user "demo" and the admin membership exist (fixed ids, so this is
   * idempotent across restarts). With `keyFile`, always returns a working key: the one stored in the file if it
   * still authenticates, otherwise a fresh one written there (mode 0600). Without it, a key is created only when the
   * demo user is created, and `apiKey` is null on later starts.
   */
  async ensureDemoAccount(options: { keyFile?: string } = {}): Promise<DemoAccount> {
    await this.pool.query("INSERT INTO auth.accounts (id, name) VALUES ($1, 'Demo Racing') ON CONFLICT (id) DO NOTHING", [DEMO_ACCOUNT_ID]);
    const created = await this.pool.query("INSERT INTO auth.users (id, name) VALUES ($1, 'demo') ON CONFLICT (id) DO NOTHING", [DEMO_USER_ID]);
    await this.addMembership(DEMO_ACCOUNT_ID, DEMO_USER_ID, 'admin');
    const demo = { accountId: DEMO_ACCOUNT_ID, userId: DEMO_USER_ID };
    if (options.keyFile) {
      const stored = readKeyFile(options.keyFile);
      if (stored && (await this.authenticate(stored))?.userId === DEMO_USER_ID) return { ...demo, apiKey: stored };
      const { apiKey } = await this.createApiKey(DEMO_USER_ID, 'demo');
      makeDirectorySync(dirname(options.keyFile));
      writeFileSync(options.keyFile, `${apiKey}\n`, { mode: 0o600 });
      return { ...demo, apiKey };
    }
    if ((created.rowCount ?? 0) === 0) return { ...demo, apiKey: null };
    return { ...demo, apiKey: (await this.createApiKey(DEMO_USER_ID, 'demo')).apiKey };
  }

  // The cache speeds things up but is not the authority: when it is unreachable, the database answers.
  private async readCache(key: string): Promise<string | null> {
    try {
      return await this.cache.get(key);
    } catch (err) {
      this.cacheFailed(err, 'auth cache read failed; using the database');
      return null;
    }
  }

  /** The entries, or undefined when the cache could not be read. */
  private async readCacheMany(keys: string[]): Promise<(string | null)[] | undefined> {
    try {
      return await this.cache.getMany(keys);
    } catch (err) {
      this.cacheFailed(err, 'auth cache read failed; using the database');
      return undefined;
    }
  }

  /**
   * Evicts after a committed change. A cache that cannot be reached does not undo the change: it holds the entry at
   * most its TTL, and a gateway's Redis cache forgets every auth entry when Redis returns (`forgetAfterOutage`).
   */
  private async evict(key: string): Promise<void> {
    try {
      await this.cache.del(key);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'auth cache eviction failed: the change is committed; gateways read the database while their cache is unreachable');
      this.evictions.onEvictionFailed?.(err as Error);
    }
  }

  /**
   * Evicts now and again after the delay: a gateway that read the old entry from the database just before the change
   * committed may write it to the cache just after the first eviction. Awaited where the process ends right after
   * (`awaitSecondEviction`), else on a timer.
   */
  private async evictTwice(key: string): Promise<void> {
    await this.evict(key);
    if (this.evictions.awaitSecondEviction) {
      await new Promise((resolve) => setTimeout(resolve, this.evictions.delayMs));
      await this.evict(key);
    } else {
      setTimeout(() => void this.cache.del(key).catch(() => undefined), this.evictions.delayMs).unref();
    }
  }

  /** An unreachable cache is logged once by the cache itself (per outage), not once per request. */
  private cacheFailed(err: unknown, message: string): void {
    if (err instanceof CacheUnavailableError) this.logger.debug({ err: err.message }, message);
    else this.logger.warn({ err: (err as Error).message }, message);
  }

  private remember(cacheKey: string, principal: Principal): Principal {
    if (!this.knownKeys.has(cacheKey)) {
      if (this.knownKeys.size >= KNOWN_KEYS_MAX) this.knownKeys.delete(this.knownKeys.keys().next().value as string);
      this.knownKeys.set(cacheKey, { userId: principal.userId, keyId: principal.keyId });
    }
    return principal;
  }

  private async writeCache(key: string, value: string): Promise<void> {
    try {
      await this.cache.set(key, value, this.ttl);
    } catch (err) {
      this.cacheFailed(err, 'auth cache write failed');
    }
  }
}

function apiKeyCacheKey(hash: Buffer): string {
  return `${KEY_ENTRY}${hash.toString('hex')}`;
}

function roleKey(userId: string, accountId: string): string {
  return `${ROLE_ENTRY}${userId.toLowerCase()}:${accountId.toLowerCase()}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isUuid(value: string): boolean {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * The GUID in its canonical lower case (as PostgreSQL writes a uuid and the gateway keys its cache), or a 400: an id
 * typed in upper case must evict the cache entry the gateways read, and name the account as its events do.
 */
function requireUuid(value: string, what: string): string {
  if (!isUuid(value)) throw AppError.badRequest(`The ${what} "${value}" is not a GUID`);
  return value.toLowerCase();
}

function requireName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed) throw AppError.badRequest('A name is required');
  return trimmed;
}

function readKeyFile(path: string): string | null {
  try {
    const key = readFileSync(path, 'utf8').trim();
    return isApiKey(key) ? key : null;
  } catch {
    return null;
  }
}

function toAccount(r: { id: string; name: string; created_at: Date }): AccountRecord {
  return { id: r.id, name: r.name, createdAt: r.created_at };
}

function toUser(r: { id: string; name: string; email: string | null; created_at: Date }): UserRecord {
  return { id: r.id, name: r.name, email: r.email, createdAt: r.created_at };
}
