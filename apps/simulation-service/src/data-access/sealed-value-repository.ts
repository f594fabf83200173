import type { Pool } from 'pg';
import { SIMULATION_FINAL_STATUSES } from '@pitwall/contracts';
import { SIMULATION_SCHEMA } from './migrations';

/** Where sealed bytes are stored: a table's column, the rows worth re-sealing, and the primary key that walks them. */
interface SealedColumn {
  table: string;
  /** The primary key's columns and their types, in the order the walk follows. */
  keys: readonly (readonly [name: string, type: 'uuid' | 'text'])[];
  column: string;
  /** The rows whose value is still opened by the service (a finished job's credentials, a deleted callback's secret never are). */
  where: string;
}

const finals = `ARRAY[${SIMULATION_FINAL_STATUSES.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')}]::text[]`;

/**
 * Every place sealed bytes are stored (SecretBox.seal): the accounts' connections, the credentials a Trigger or Reprocess
 * gave its jobs (of jobs that can still run, and of a request's jobs not yet committed), the callbacks' signing secrets, and the inbox's recorded answers of
 * callback registrations (their secret sealed inside the JSON reply; the prefilter only spares reading the others).
 */
export const SEALED_COLUMNS = {
  connections: { table: `${SIMULATION_SCHEMA}.connections`, keys: [['account_id', 'uuid']], column: 'sealed', where: 'true' },
  jobs: {
    table: `${SIMULATION_SCHEMA}.jobs`,
    keys: [['id', 'uuid']],
    column: 'sealed_credentials',
    where: `sealed_credentials IS NOT NULL AND NOT dead_lettered AND state <> ALL(${finals})`,
  },
  callbacks: { table: `${SIMULATION_SCHEMA}.callbacks`, keys: [['id', 'uuid']], column: 'sealed_secret', where: 'deleted_at IS NULL' },
  pending: { table: `${SIMULATION_SCHEMA}.pending_requests`, keys: [['id', 'uuid']], column: 'sealed_credentials', where: 'sealed_credentials IS NOT NULL' },
  registrations: {
    table: `${SIMULATION_SCHEMA}.inbox`,
    keys: [
      ['scope', 'text'],
      ['command_id', 'text'],
    ],
    column: 'reply_body',
    where: `reply_body IS NOT NULL AND position('"secret":"'::bytea IN reply_body) > 0`,
  },
} as const satisfies Record<string, SealedColumn>;

export type SealedTable = keyof typeof SEALED_COLUMNS;

/** One stored value: its row's primary key (as text, in SealedColumn.keys' order) and the bytes stored. */
export interface StoredSealed {
  key: string[];
  stored: Buffer;
}

/** A stored value to replace, only if it still holds the bytes read (`stored`). */
export interface SealedReplacement extends StoredSealed {
  replacement: Buffer;
}

export class SealedValueRepository {
  constructor(private readonly pool: Pool) {}

  /** Up to `rows` values of the table after `after` (a key read before; null: from the first), in primary key order. */
  async page(table: SealedTable, after: string[] | null, rows: number): Promise<StoredSealed[]> {
    const { table: name, keys, column, where } = SEALED_COLUMNS[table];
    const names = keys.map(([key]) => key).join(', ');
    const cursor = after ? ` AND (${names}) > (${keys.map(([, type], i) => `$${i + 2}::${type}`).join(', ')})` : '';
    const { rows: found } = await this.pool.query<Record<string, unknown> & { stored: Buffer }>(
      `SELECT ${keys.map(([key]) => `${key}::text AS ${key}`).join(', ')}, ${column} AS stored FROM ${name} WHERE ${where}${cursor} ORDER BY ${names} LIMIT $1`,
      [rows, ...(after ?? [])],
    );
    return found.map((r) => ({ key: keys.map(([key]) => String(r[key])), stored: r.stored }));
  }

  /**
   * Replaces each value that still holds the bytes read (a compare-and-set: a value another instance re-sealed, or an
   * admin set again, meanwhile is left as it is now), in one statement; returns how many were replaced. The rows are
   * locked first, in primary key order, and a row another transaction holds is skipped, never waited for: whatever
   * order another writer takes them in, the sweep is never part of a deadlock; a skipped value, still under a previous
   * key, is re-sealed by a later pass.
   */
  async replace(table: SealedTable, replacements: readonly SealedReplacement[]): Promise<number> {
    if (!replacements.length) return 0;
    const { table: name, keys, column } = SEALED_COLUMNS[table];
    const names = keys.map(([key]) => key);
    const primaryKey = names.map((key) => `t.${key}`).join(', ');
    const arrays = keys.map(([, type], i) => `$${i + 1}::${type}[]`);
    const { rowCount } = await this.pool.query(
      `WITH locked AS (
         SELECT ${primaryKey}, u.replacement FROM ${name} t
           JOIN unnest(${arrays.join(', ')}, $${keys.length + 1}::bytea[], $${keys.length + 2}::bytea[]) AS u(${names.join(', ')}, stored, replacement)
             ON ${names.map((key) => `t.${key} = u.${key}`).join(' AND ')} AND t.${column} = u.stored
          ORDER BY ${primaryKey} FOR NO KEY UPDATE OF t SKIP LOCKED)
       UPDATE ${name} t SET ${column} = l.replacement FROM locked l WHERE ${names.map((key) => `t.${key} = l.${key}`).join(' AND ')}`,
      [...keys.map((_, i) => replacements.map((r) => r.key[i])), replacements.map((r) => r.stored), replacements.map((r) => r.replacement)],
    );
    return rowCount ?? 0;
  }
}
