import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { DistributedStack } from './distributed';
import { TEST_DATABASE_ADMIN_URL, testPool } from '@pitwall/db/testing';

/** Direct access to the stack's database, for what the API cannot show: orphan rows, legacy data, attached file records. */
export class StackDatabase {
  private readonly pool: pg.Pool;

  constructor(stack: DistributedStack) {
    this.pool = testPool(stack.databaseUrl);
    this.pool.on('error', () => undefined);
  }

  async countEntities(accountId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM entity.entities WHERE account_id = $1', [accountId]);
    return Number(rows[0]?.n);
  }

  async countAttachedFiles(accountId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM entity.attached_files WHERE account_id = $1', [accountId]);
    return Number(rows[0]?.n);
  }

  /** Rows whose parent is gone (a cascade that missed them). */
  async countOrphans(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM entity.entities e
       WHERE (e.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM entity.entities p WHERE p.id = e.parent_id))
          OR (e.parent2_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM entity.entities p WHERE p.id = e.parent2_id))`,
    );
    return Number(rows[0]?.n);
  }

  /** Writes a parameter behind the API's back (data from before a rule existed, or a bug elsewhere). */
  async setParameter(entityId: string, name: string, value: string): Promise<void> {
    await this.pool.query(`UPDATE entity.entities SET parameters = parameters || jsonb_build_object($2::text, $3::text) WHERE id = $1`, [entityId, name, value]);
  }

  async addAttachedFile(accountId: string, entityId: string, file: { fileName: string; groupName: string; size: number }): Promise<string> {
    const id = randomUUID();
    await this.pool.query(
      `INSERT INTO entity.attached_files (id, account_id, entity_id, file_name, group_name, use_compression, state, file_size, created_time, modified_at)
       VALUES ($1, $2, $3, $4, $5, true, 2, $6, '2026-04-12T12:03:07.250Z', now())`,
      [id, accountId, entityId, file.fileName, file.groupName, file.size],
    );
    return id;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * Terminates every backend of the stack's database, as an operator's `pg_terminate_backend` or a failover does (the
 * shared server itself is never stopped); returns how many it terminated.
 */
export async function terminateEveryBackend(databaseUrl: string): Promise<number> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const { rows } = await admin.query('SELECT pg_terminate_backend(pid) AS gone FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [new URL(databaseUrl).pathname.slice(1)]);
    return rows.filter((r: { gone: boolean }) => r.gone).length;
  } finally {
    await admin.end();
  }
}

/** The rows of a table of the stack's database (an outbox left to drain). */
export async function countRows(databaseUrl: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}
