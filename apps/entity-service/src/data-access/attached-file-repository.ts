import { randomUUID } from 'node:crypto';
import type { DatasetFile } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';

/** An attached file record with what its upload and its bytes need. */
export interface AttachedFileRecord {
  id: string;
  account_id: string;
  entity_id: string;
  user_id: string | null;
  file_name: string;
  custom_file_name: string | null;
  group_name: string | null;
  use_compression: boolean;
  auto_download: boolean;
  replace_existing: boolean;
  state: number;
  file_size: string | null;
  blob_key: string | null;
  blob_sha256: string | null;
  created_time: Date;
  modified_at: Date;
}

const COLUMNS = `id, account_id, entity_id, user_id, file_name, custom_file_name, group_name, use_compression, auto_download, replace_existing,
  state, file_size, blob_key, blob_sha256, created_time, modified_at`;

/** What an entity's read shows of its attached files. */
export interface AttachedFileRow {
  id: string;
  account_id: string;
  entity_id: string;
  file_name: string;
  group_name: string | null;
  use_compression: boolean;
  state: number;
  file_size: string | null;
  created_time: Date;
}

export type NewAttachedFile = Pick<AttachedFileRecord, 'id' | 'account_id' | 'entity_id' | 'user_id' | 'file_name' | 'custom_file_name' | 'group_name' | 'use_compression' | 'auto_download' | 'replace_existing' | 'created_time'>;

/** Holds the advisory lock of `name` until the transaction ends. */
async function lockName(q: Queryable, name: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [name]);
}

/** Serialises the reference count of one blob: adding a reference and removing the blob never interleave. */
async function lockBlob(q: Queryable, blobKey: string): Promise<void> {
  await lockName(q, `blob:${blobKey}`);
}

/**
 * Holds an entity's custom file name until the transaction ends: finalises that replace the files under one name take
 * their turns. Taken before any other lock of the finalise (a blob's, a record's row), so two of them never hold one
 * record each while waiting for the other's (a deadlock PostgreSQL broke with a 500).
 */
async function lockCustomName(q: Queryable, entityId: string, customFileName: string): Promise<void> {
  await lockName(q, `custom-name:${entityId}:${customFileName}`);
}

/** Plain-object access to `entity.attached_files`; the blob store holds the bytes, these rows reference them by key. */
export const attachedFileRepository = {
  async insert(q: Queryable, f: NewAttachedFile): Promise<void> {
    await q.query(
      `INSERT INTO entity.attached_files (id, account_id, entity_id, user_id, file_name, custom_file_name, group_name, use_compression, auto_download, replace_existing, state, created_time, modified_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, $11)`,
      [f.id, f.account_id, f.entity_id, f.user_id, f.file_name, f.custom_file_name, f.group_name, f.use_compression, f.auto_download, f.replace_existing, f.created_time],
    );
  },

  /** The record of one entity of the account, or undefined. */
  async find(q: Queryable, accountId: string, entityId: string, id: string, forUpdate = false): Promise<AttachedFileRecord | undefined> {
    const { rows } = await q.query<AttachedFileRecord>(
      `SELECT ${COLUMNS} FROM entity.attached_files WHERE id = $1 AND entity_id = $2 AND account_id = $3${forUpdate ? ' FOR UPDATE' : ''}`,
      [id, entityId, accountId],
    );
    return rows[0];
  },

  /** A record by id alone: signed URLs carry only the id (the signature is the authority). */
  async findById(q: Queryable, id: string): Promise<AttachedFileRecord | undefined> {
    const { rows } = await q.query<AttachedFileRecord>(`SELECT ${COLUMNS} FROM entity.attached_files WHERE id = $1`, [id]);
    return rows[0];
  },

  /** The records of one entity, optionally only `ids`, in creation order. */
  async listOf(q: Queryable, accountId: string, entityId: string, ids?: string[]): Promise<AttachedFileRecord[]> {
    const { rows } = await q.query<AttachedFileRecord>(
      `SELECT ${COLUMNS} FROM entity.attached_files WHERE entity_id = $1 AND account_id = $2 ${ids ? 'AND id = ANY($3::uuid[])' : ''} ORDER BY created_time, id`,
      ids ? [entityId, accountId, ids] : [entityId, accountId],
    );
    return rows;
  },

  /** Records the uploaded bytes of a pending record (state 0 → 1) in one step; false when it was not pending any more. */
  async recordUpload(q: Queryable, id: string, blob: { key: string; sha256: string; size: number }): Promise<{ account_id: string } | undefined> {
    const { rows } = await q.query<{ account_id: string }>(
      `UPDATE entity.attached_files SET state = 1, blob_key = $2, blob_sha256 = $3, file_size = $4, modified_at = now()
       WHERE id = $1 AND state = 0 RETURNING account_id`,
      [id, blob.key, blob.sha256, blob.size],
    );
    return rows[0];
  },

  /** Moves a record to AvailableOnServer, if it is still as `expected` saw it; false when it changed meanwhile. */
  async markAvailable(q: Queryable, id: string, expected: { state: number; blob_key: string | null }, blob: { key: string; sha256: string; size: number }, fileName: string, groupName: string | null): Promise<boolean> {
    const { rowCount } = await q.query(
      `UPDATE entity.attached_files SET state = 2, blob_key = $4, blob_sha256 = $5, file_size = $6, file_name = $7, group_name = $8, modified_at = now(),
              finalising_token = NULL, finalising_until = NULL
       WHERE id = $1 AND state = $2 AND blob_key IS NOT DISTINCT FROM $3`,
      [id, expected.state, expected.blob_key, blob.key, blob.sha256, blob.size, fileName, groupName],
    );
    return rowCount === 1;
  },

  /**
   * Takes the finalise lease of a record for `ms` under `token` unless another holds it unexpired: whether it was
   * taken, and when the other's ends (null when there is no such record).
   */
  async takeFinaliseLease(q: Queryable, id: string, token: string, ms: number): Promise<{ taken: boolean; heldUntil: Date | null }> {
    const { rows } = await q.query<{ taken: boolean; held_until: Date | null }>(
      `WITH taken AS (
         UPDATE entity.attached_files SET finalising_token = $2, finalising_until = now() + $3 * interval '1 millisecond'
          WHERE id = $1 AND (finalising_until IS NULL OR finalising_until <= now()) RETURNING id)
       SELECT EXISTS (SELECT 1 FROM taken) AS taken, (SELECT finalising_until FROM entity.attached_files WHERE id = $1) AS held_until`,
      [id, token, ms],
    );
    return { taken: rows[0]?.taken === true, heldUntil: rows[0]?.held_until ?? null };
  },

  /** Moves the end of a lease still held under `token` to `ms` from now. */
  async renewFinaliseLease(q: Queryable, id: string, token: string, ms: number): Promise<void> {
    await q.query(`UPDATE entity.attached_files SET finalising_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND finalising_token = $2`, [id, token, ms]);
  },

  /** Ends a lease still held under `token` (a no-op once the finalise committed, which ended it). */
  async endFinaliseLease(q: Queryable, id: string, token: string): Promise<void> {
    await q.query(`UPDATE entity.attached_files SET finalising_token = NULL, finalising_until = NULL WHERE id = $1 AND finalising_token = $2`, [id, token]);
  },

  async updateNames(q: Queryable, id: string, fileName: string, groupName: string | null): Promise<void> {
    await q.query(`UPDATE entity.attached_files SET file_name = $2, group_name = $3, modified_at = now() WHERE id = $1`, [id, fileName, groupName]);
  },

  /** Deletes one record; returns its blob key (null when it had no bytes), or undefined when there was none. */
  async delete(q: Queryable, id: string): Promise<{ blob_key: string | null } | undefined> {
    const { rows } = await q.query<{ blob_key: string | null }>(`DELETE FROM entity.attached_files WHERE id = $1 RETURNING blob_key`, [id]);
    return rows[0];
  },

  /**
   * Deletes the other available files (state 2) of an entity under the same single-file custom property; returns their
   * blob keys. Uploads still in progress are no earlier files: each replaces the available ones when it is finalised.
   */
  /**
   * Locks the record being finalised and the available ones it replaces, in id order: the order a CopyAll share-locks
   * them in (`copyAttachedFiles`), so the two never wait for each other in a cycle (a 40P01 that failed the copy).
   */
  async lockSameCustomName(q: Queryable, entityId: string, customFileName: string, finalisingId: string): Promise<void> {
    await q.query(`SELECT id FROM entity.attached_files WHERE entity_id = $1 AND (id = $3 OR (custom_file_name = $2 AND state = 2)) ORDER BY id FOR UPDATE`, [entityId, customFileName, finalisingId]);
  },

  async deleteSameCustomName(q: Queryable, entityId: string, customFileName: string, keepId: string): Promise<string[]> {
    const { rows } = await q.query<{ blob_key: string | null }>(
      `DELETE FROM entity.attached_files WHERE entity_id = $1 AND custom_file_name = $2 AND id <> $3 AND state = 2 RETURNING blob_key`,
      [entityId, customFileName, keepId],
    );
    return rows.flatMap((r) => (r.blob_key ? [r.blob_key] : []));
  },

  /** The blob keys referenced by the attached files of these entities (what deleting them may release). */
  async blobKeysOf(q: Queryable, entityIds: string[]): Promise<string[]> {
    if (entityIds.length === 0) return [];
    const { rows } = await q.query<{ blob_key: string }>(`SELECT DISTINCT blob_key FROM entity.attached_files WHERE entity_id = ANY($1::uuid[]) AND blob_key IS NOT NULL`, [entityIds]);
    return rows.map((r) => r.blob_key);
  },

  /** Which of these blob keys an attached file refers to (the sweep's first, lock-free pass). */
  async referencedOf(q: Queryable, blobKeys: string[]): Promise<Set<string>> {
    if (blobKeys.length === 0) return new Set();
    const { rows } = await q.query<{ blob_key: string }>(`SELECT DISTINCT blob_key FROM entity.attached_files WHERE blob_key = ANY($1::text[])`, [blobKeys]);
    return new Set(rows.map((r) => r.blob_key));
  },

  /** Which of these ids are uploads still waiting for their bytes or their finalise (state below 2): their staged bytes are theirs. */
  async pendingOf(q: Queryable, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await q.query<{ id: string }>(`SELECT id FROM entity.attached_files WHERE id = ANY($1::uuid[]) AND state < 2`, [ids]);
    return new Set(rows.map((r) => r.id));
  },

  async isReferenced(q: Queryable, blobKey: string): Promise<boolean> {
    const { rows } = await q.query(`SELECT 1 FROM entity.attached_files WHERE blob_key = $1 LIMIT 1`, [blobKey]);
    return rows.length > 0;
  },

  /** Serialises the reference count of one blob: adding a reference and removing the blob never interleave. */
  lockBlob,
  lockCustomName,

  /**
   * The available files (state 2, bytes in the blob store) of one group of an entity, oldest first, or null when the account has no
   * such entity: one statement, so one snapshot, without a transaction around two queries.
   */
  async datasetFiles(q: Queryable, accountId: string, type: string, entityId: string, group: string): Promise<DatasetFile[] | null> {
    const { rows } = await q.query<{ id: string | null; file_name: string; blob_key: string; file_size: string | null; use_compression: boolean; created_time: Date }>(
      `SELECT f.id, f.file_name, f.blob_key, f.file_size, f.use_compression, f.created_time
         FROM entity.entities e
         LEFT JOIN entity.attached_files f
           ON f.entity_id = e.id AND f.account_id = e.account_id AND f.group_name = $4 AND f.state = 2 AND f.blob_key IS NOT NULL
        WHERE e.id = $1 AND e.account_id = $2 AND e.type = $3
        ORDER BY f.created_time, f.id`,
      [entityId, accountId, type, group],
    );
    if (rows.length === 0) return null;
    return rows
      .filter((r): r is typeof r & { id: string } => r.id !== null)
      .map((r) => ({ attachedFileId: r.id, fileName: r.file_name, blobKey: r.blob_key, size: r.file_size === null ? null : Number(r.file_size), useCompression: r.use_compression, createdTime: r.created_time.toISOString() }));
  },

  async attachedFilesOf(q: Queryable, accountId: string, entityIds: string[]): Promise<AttachedFileRow[]> {
    if (entityIds.length === 0) return [];
    const { rows } = await q.query<AttachedFileRow>(
      `SELECT id, account_id, entity_id, file_name, group_name, use_compression, state, file_size::text AS file_size, created_time
       FROM entity.attached_files WHERE entity_id = ANY($1::uuid[]) AND account_id = $2 ORDER BY entity_id, created_time, id`,
      [entityIds, accountId],
    );
    return rows;
  },

  /**
   * Copies the attached files (records and their blob references, never the bytes) of each `from` entity onto its `to` entity. Creation times
   * are kept: the files of a dataset are read in that order (per-lap files in lap order).
   */
  async copyAttachedFiles(q: Queryable, accountId: string, pairs: [from: string, to: string][], modifiedAt: Date): Promise<number> {
    if (pairs.length === 0) return 0;
    const { rows } = await q.query<{ id: string; entity_id: string; blob_key: string | null }>(
      // A copy is one more reference to the same blob (never a copy of the bytes). The source records are share-locked
      // to the commit: a delete or replace of one waits for this copy, and the release that follows it then counts the
      // copy's reference, so the blob stays; a record deleted first is not copied. Row locks live in the rows, not in
      // PostgreSQL's shared lock table: one advisory lock per blob had failed a copy of more than about 12,800 files.
      `SELECT id, entity_id, blob_key FROM entity.attached_files WHERE entity_id = ANY($1::uuid[]) AND account_id = $2 ORDER BY id FOR SHARE`,
      [pairs.map(([from]) => from), accountId],
    );
    if (rows.length === 0) return 0;
    const target = new Map(pairs);
    const copies = rows.map((f) => ({ from: f.id, to: randomUUID(), entity: target.get(f.entity_id) as string }));
    const values = [copies.map((c) => c.from), copies.map((c) => c.to), copies.map((c) => c.entity)];
    await q.query(
      `INSERT INTO entity.attached_files (id, account_id, entity_id, user_id, file_name, custom_file_name, group_name, use_compression, auto_download, state, file_size, created_time, modified_at, blob_key, blob_sha256, replace_existing)
       SELECT m.to_id, f.account_id, m.entity_id, f.user_id, f.file_name, f.custom_file_name, f.group_name, f.use_compression, f.auto_download, f.state, f.file_size, f.created_time, $4,
              f.blob_key, f.blob_sha256, f.replace_existing
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS m(from_id, to_id, entity_id) JOIN entity.attached_files f ON f.id = m.from_id`,
      [...values, modifiedAt],
    );
    return copies.length;
  },

  /** Whether `entity.attached_file_blobs` (the bytes kept in PostgreSQL before the blob store) is still there. */
  async legacyBytesTableExists(q: Queryable): Promise<boolean> {
    const { rows } = await q.query<{ table: string | null }>(`SELECT to_regclass('entity.attached_file_blobs')::text AS table`);
    return !!rows[0]?.table;
  },

  /** Up to `limit` rows of bytes still kept in PostgreSQL, locked, skipping those another instance holds. */
  async claimLegacyBytes(q: Queryable, limit: number): Promise<{ attached_file_id: string; data: Buffer }[]> {
    const { rows } = await q.query<{ attached_file_id: string; data: Buffer }>(
      `SELECT attached_file_id, data FROM entity.attached_file_blobs ORDER BY attached_file_id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows;
  },

  /** Points the record at the bytes now in the blob store, and drops the row that kept them in PostgreSQL. */
  async movedLegacyBytes(q: Queryable, attachedFileId: string, blob: { key: string; sha256: string; size: number }): Promise<void> {
    await q.query(`UPDATE entity.attached_files SET blob_key = $2, blob_sha256 = $3, file_size = $4 WHERE id = $1`, [attachedFileId, blob.key, blob.sha256, blob.size]);
    await q.query(`DELETE FROM entity.attached_file_blobs WHERE attached_file_id = $1`, [attachedFileId]);
  },

  /** Deletes the uploads abandoned before they became available (state below 2, older than `olderThanSeconds`). */
  async deleteAbandoned(q: Queryable, olderThanSeconds: number): Promise<{ id: string; blob_key: string | null }[]> {
    const { rows } = await q.query<{ id: string; blob_key: string | null }>(
      `DELETE FROM entity.attached_files WHERE state < 2 AND created_time < now() - make_interval(secs => $1) RETURNING id, blob_key`,
      [olderThanSeconds],
    );
    return rows;
  },
};
