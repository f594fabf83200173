import type { Queryable } from '@pitwall/db';

/** The version of the last auth membership snapshot mirrored into each account's Users (`entity.member_mirror`). */
export const memberMirrorRepository = {
  /** Records `version` as the account's mirrored snapshot when it is newer than the last one; false when it is not. */
  async advance(q: Queryable, accountId: string, version: string): Promise<boolean> {
    const newer = await q.query(
      `INSERT INTO entity.member_mirror (account_id, version) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET version = EXCLUDED.version
       WHERE entity.member_mirror.version < EXCLUDED.version RETURNING account_id`,
      [accountId, version],
    );
    return newer.rowCount !== 0;
  },
};
