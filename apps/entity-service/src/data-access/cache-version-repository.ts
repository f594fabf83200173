import { prepared, type Queryable } from '@pitwall/db';

/**
 * The versions the read cache keys replies by (docs/architecture.md#read-cache): one counter per account
 * (`entity.account_versions`) and one per scope, a run sheet's subtree (`entity.cache_scope_versions`). Every write
 * transaction bumps one or the other as its last statement.
 */
export const cacheVersionRepository = {
  /**
   * The version of everything in the account: its own counter plus every scope's (each commit adds to one or more
   * of them, so the sum only grows, and a snapshot that sees more commits sees a larger sum).
   */
  async accountVersion(q: Queryable, accountId: string): Promise<string> {
    const { rows } = await q.query<{ version: string }>(
      prepared(
        'account_version',
        `SELECT (coalesce((SELECT version FROM entity.account_versions WHERE account_id = $1), 0)
               + coalesce((SELECT sum(version) FROM entity.cache_scope_versions WHERE account_id = $1), 0))::text AS version`,
        [accountId],
      ),
    );
    return rows[0]?.version ?? '0';
  },

  /**
   * The version of one scope (a run sheet's subtree): the account's own counter (every write outside a scope) in the
   * high bits, the scope's counter in the low 32, so either moving makes it larger.
   */
  async scopeVersion(q: Queryable, accountId: string, scopeId: string): Promise<string> {
    const { rows } = await q.query<{ version: string }>(
      prepared(
        'scope_version',
        `SELECT ((coalesce((SELECT version FROM entity.account_versions WHERE account_id = $1), 0) << 32)
               + coalesce((SELECT version FROM entity.cache_scope_versions WHERE account_id = $1 AND scope_id = $2), 0))::text AS version`,
        [accountId, scopeId],
      ),
    );
    return rows[0]?.version ?? '0';
  },

  /** Counts one more write confined to each of `scopeIds` (called last in its transaction, like the account's bump). */
  async bumpScopeVersions(q: Queryable, accountId: string, scopeIds: string[]): Promise<void> {
    await q.query(
      prepared(
        'bump_scope_versions',
        `INSERT INTO entity.cache_scope_versions (account_id, scope_id, version)
         SELECT $1, scope_id, 1 FROM unnest($2::uuid[]) AS scope_id ORDER BY scope_id
         ON CONFLICT (account_id, scope_id) DO UPDATE SET version = entity.cache_scope_versions.version + 1`,
        [accountId, [...new Set(scopeIds)]],
      ),
    );
  },

  /**
   * Counts one more write of the account. Called last in every write transaction: the row lock it takes is held only
   * for the commit, and a write that rolls back leaves the version as it was.
   */
  async bumpAccountVersion(q: Queryable, accountId: string): Promise<void> {
    await q.query(
      prepared(
        'bump_account_version',
        `INSERT INTO entity.account_versions (account_id, version) VALUES ($1, 1)
         ON CONFLICT (account_id) DO UPDATE SET version = entity.account_versions.version + 1`,
        [accountId],
      ),
    );
  },
};
