import type { Pool } from 'pg';
import type { BlobStore, ListedBlob } from '@pitwall/blob-store';
import { migrate, withTransaction } from '@pitwall/db';
import type { Logger } from '@pitwall/service-kit';
import { attachedFileRepository as files } from '../../data-access/attached-file-repository';
import { ENTITY_SCHEMA, LEGACY_BYTES_DROPPED_VERSION, entityMigrations } from '../../data-access/migrations';
import { releaseBlobs } from './attachment-context';

/**
 * Runs before the entity migrations (the service's `beforeMigrate`): while `entity.attached_file_blobs` exists (the
 * migration dropping it has not run), the schema is brought up to the version before that migration and the bytes
 * still kept there move into the blob store. Then the migration finds the table empty and drops it. Nothing to do
 * on a fresh database or once the table is gone. Returns how many files moved.
 */
export async function moveLegacyBytes(pool: Pool, openBlobs: () => BlobStore, logger: Logger): Promise<number> {
  if (!(await files.legacyBytesTableExists(pool))) return 0;
  // Up to the version before the drop; another instance starting at the same time may already be past it.
  await migrate(pool, { schema: ENTITY_SCHEMA, migrations: entityMigrations, until: LEGACY_BYTES_DROPPED_VERSION - 1, logger });
  const blobs = openBlobs();
  try {
    return await drainDatabaseBytes({ pool, blobs, logger });
  } finally {
    await blobs.close();
  }
}

/**
 * Moves attached file bytes still kept in PostgreSQL (`entity.attached_file_blobs`, from before the blob store) into
 * the blob store, a few rows per transaction: each row's bytes are stored (content-addressed, so a repeated run
 * stores nothing twice), its record takes the key and hash, and the row goes, in one commit. Safe to run again after
 * a crash at any point, and from several instances at once (rows are claimed with SKIP LOCKED; another instance may
 * drop the emptied table meanwhile). Returns how many moved.
 */
export async function drainDatabaseBytes(ctx: { pool: Pool; blobs: BlobStore; logger: Logger }, batchSize = 8): Promise<number> {
  let moved = 0;
  for (;;) {
    const n = await withTransaction(ctx.pool, async (c) => {
      // Bytes of up to a gigabyte each are read and stored in the store inside the transaction: neither the pool's
      // statement bound nor its idle-in-transaction bound applies to this one-off move.
      await c.query('SET LOCAL statement_timeout = 0; SET LOCAL idle_in_transaction_session_timeout = 0');
      const rows = await files.claimLegacyBytes(c, batchSize);
      for (const row of rows) {
        const blob = await ctx.blobs.putStream([row.data]);
        await files.lockBlob(c, blob.key);
        await files.movedLegacyBytes(c, row.attached_file_id, blob);
      }
      return rows.length;
    }).catch((err: unknown) => {
      // Dropped by another instance once it found the table empty: nothing is left to move.
      if ((err as { code?: string }).code === UNDEFINED_TABLE) return 0;
      throw err;
    });
    moved += n;
    if (n === 0) break;
  }
  if (moved) ctx.logger.info({ moved }, 'attached file bytes moved from PostgreSQL into the blob store');
  return moved;
}

const UNDEFINED_TABLE = '42P01';

/**
 * Removes uploads abandoned before they became available (state below 2, created more than `olderThanSeconds`
 * ago): the records, their staged bytes, and their blobs once nothing refers to them. Returns how many went.
 */
export async function sweepAbandonedUploads(ctx: { pool: Pool; blobs: BlobStore; logger: Logger }, olderThanSeconds: number): Promise<number> {
  const rows = await files.deleteAbandoned(ctx.pool, olderThanSeconds);
  for (const row of rows) await ctx.blobs.delete(ctx.blobs.stagingKey(row.id)).catch((err: unknown) => ctx.logger.warn({ err, attachedFileId: row.id }, 'could not remove staged bytes'));
  await releaseBlobs(ctx, rows.flatMap((r) => (r.blob_key ? [r.blob_key] : [])));
  // A filesystem write cut short by a crash leaves a temporary file, never a blob under its final name.
  const sweepable = ctx.blobs as BlobStore & { sweepTemporaries?: (olderThanMs: number) => Promise<number> };
  if (sweepable.sweepTemporaries) await sweepable.sweepTemporaries(olderThanSeconds * 1000);
  if (rows.length) ctx.logger.info({ swept: rows.length }, 'abandoned uploads swept');
  return rows.length;
}

/** Keys looked up in the database at once by the sweep of unreferenced blobs. */
const SWEEP_BATCH = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SweptBlobs {
  /** Content blobs (`sha256/`) no attached file referred to. */
  content: number;
  /** Staged bytes (`staging/`) no upload in progress owned. */
  staged: number;
}

/**
 * Removes what the store holds that no record refers to, once older than `graceSeconds`: content left by a delete or
 * a release that failed (the store was down), by a finalise cut after its promotion, and staged bytes whose upload
 * is gone or finalised. docs/blob-store.md explains why it is safe beside a finalise of the same content: young
 * blobs are left alone (putting content renews its age), and a content blob goes only under its advisory lock
 * with no reference counted, the lock a finalise takes (and re-checks the content under) to record its reference.
 */
export async function sweepUnreferencedBlobs(ctx: { pool: Pool; blobs: BlobStore; logger: Logger }, graceSeconds: number): Promise<SweptBlobs> {
  const oldEnough = (blob: ListedBlob) => blob.modifiedAt.getTime() <= Date.now() - graceSeconds * 1000;
  const swept: SweptBlobs = { content: 0, staged: 0 };
  for await (const batch of batches(ctx.blobs.list('sha256'), oldEnough)) {
    const referenced = await files.referencedOf(ctx.pool, batch.map((b) => b.key));
    for (const { key } of batch.filter((b) => !referenced.has(b.key))) {
      const removed = await withTransaction(ctx.pool, async (c) => {
        await files.lockBlob(c, key);
        if (await files.isReferenced(c, key)) return false;
        await ctx.blobs.delete(key);
        return true;
      });
      if (removed) swept.content++;
    }
  }
  for await (const batch of batches(ctx.blobs.list('staging'), oldEnough)) {
    // `staging/<attached file id>`, or a temporary of a put that never settled (`staging/put-<uuid>`).
    const ids = batch.map((b) => b.key.slice('staging/'.length)).filter((id) => UUID.test(id));
    const pending = await files.pendingOf(ctx.pool, ids);
    for (const { key } of batch.filter((b) => !pending.has(b.key.slice('staging/'.length)))) {
      await ctx.blobs.delete(key);
      swept.staged++;
    }
  }
  if (swept.content || swept.staged) ctx.logger.info({ ...swept }, 'unreferenced blobs swept');
  return swept;
}

/** The listed blobs that pass `keep`, in batches of SWEEP_BATCH. */
async function* batches(listing: AsyncIterable<ListedBlob>, keep: (blob: ListedBlob) => boolean): AsyncGenerator<ListedBlob[]> {
  let batch: ListedBlob[] = [];
  for await (const blob of listing) {
    if (!keep(blob)) continue;
    batch.push(blob);
    if (batch.length >= SWEEP_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
