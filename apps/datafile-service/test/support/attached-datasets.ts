import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { BlobStore } from '@pitwall/blob-store';
import { compressLz4 } from '@pitwall/formats';

/**
 * Attached files as the upload flow leaves them (a record in state 2 whose `blob_key` names its bytes in the blob
 * store), made directly: the SQL row beside `putStream`. Swap `attach` for the real flow (prepare, PUT to the signed
 * URL, finalise) once the attachment endpoints land; the tests only use `entity` and `attach`.
 */
export class AttachedDatasets {
  private readonly pg: Pool;

  constructor(
    databaseUrl: string,
    private readonly blobs: BlobStore,
  ) {
    this.pg = new Pool({ connectionString: databaseUrl, max: 2 });
  }

  /** An entity of a type with data file access in the account (a bare row: its parents do not matter to reads). */
  async entity(accountId: string, type = 'RunSheets'): Promise<string> {
    const id = randomUUID();
    await this.pg.query(`INSERT INTO entity.entities (id, account_id, type, parameters, created_at, modified_at) VALUES ($1, $2, $3, $4, now(), now())`, [id, accountId, type, JSON.stringify({ Name: `dataset ${id.slice(0, 8)}` })]);
    return id;
  }

  /** Attaches `bytes` to the entity in `group` (LZ4-compressed in the store with `compressed`); returns the record id. */
  async attach(accountId: string, entityId: string, group: string, fileName: string, bytes: Uint8Array, options: { compressed?: boolean; state?: number } = {}): Promise<string> {
    const stored = await this.blobs.putStream([options.compressed ? await compressLz4(bytes) : bytes]);
    const id = randomUUID();
    await this.pg.query(
      `INSERT INTO entity.attached_files (id, account_id, entity_id, file_name, group_name, use_compression, state, file_size, created_time, modified_at, blob_key, blob_sha256)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, clock_timestamp(), now(), $9, $10)`,
      [id, accountId, entityId, fileName, group, options.compressed === true, options.state ?? 2, bytes.byteLength, stored.key, stored.sha256],
    );
    return id;
  }

  close(): Promise<void> {
    return this.pg.end();
  }
}
