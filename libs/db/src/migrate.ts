import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from '@pitwall/service-kit';

/** One step of a schema's history. Versions only grow; an applied migration is never edited. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface MigrateOptions {
  /** The owning service's schema (auth, entity, timing, simulation, datafile). */
  schema: string;
  migrations: readonly Migration[];
  logger: Logger;
  /**
   * Apply no migration above this version (a step run before a later migration, e.g. a data move). The history is
   * still checked against the whole list, so a schema another instance already moved past is not an error.
   */
  until?: number;
}

export interface MigrateResult {
  /** Versions applied by this call (empty when the schema was already up to date). */
  applied: number[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Brings `schema` up to date: creates it and `<schema>.schema_migrations` if missing, then applies each pending
 * migration in its own transaction. Every transaction first takes a transaction-scoped advisory lock keyed on the
 * schema, so instances starting together apply each migration once. (A transaction-scoped lock rather than a
 * session lock: the embedded PGlite server is one session, where session locks are re-entrant and guard nothing.)
 * Throws, changing nothing, when the recorded history disagrees with `migrations`.
 */
export async function migrate(pool: pg.Pool, { schema, migrations, logger, until }: MigrateOptions): Promise<MigrateResult> {
  if (!IDENTIFIER.test(schema)) throw new Error(`migrate: invalid schema name "${schema}"`);
  checkList(schema, migrations);
  const table = `${schema}.schema_migrations`;
  const lockKey = advisoryKey(schema);
  const applied: number[] = [];
  const client = await pool.connect();
  let broken: Error | undefined;
  const inTransaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    await client.query('BEGIN');
    try {
      // A migration (an index built over a large table) and the wait for another instance's run them may take longer
      // than the pool's bounds for requests: none here.
      await client.query("SET LOCAL statement_timeout = 0; SET LOCAL idle_in_transaction_session_timeout = 0");
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey]);
      const result = await fn();
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    }
  };
  try {
    await inTransaction(async () => {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${table} (version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
    });
    for (;;) {
      // History is re-read under the lock each time: another instance may have moved it on meanwhile.
      const next = await inTransaction(async () => {
        const { rows } = await client.query<{ version: number; name: string; checksum: string }>(`SELECT version, name, checksum FROM ${table} ORDER BY version`);
        const pending = pendingAfterCheck(schema, rows, migrations);
        if (!pending || (until !== undefined && pending.version > until)) return null;
        try {
          await client.query(pending.sql);
        } catch (err) {
          throw new Error(`migrate: ${schema} migration ${pending.version} (${pending.name}) failed: ${(err as Error).message}`, { cause: err });
        }
        await client.query(`INSERT INTO ${table} (version, name, checksum) VALUES ($1, $2, $3)`, [pending.version, pending.name, checksum(pending)]);
        return pending;
      });
      if (!next) break;
      applied.push(next.version);
      logger.info({ schema, version: next.version, name: next.name }, 'migration applied');
    }
    return { applied };
  } finally {
    client.release(broken);
  }
}

function checkList(schema: string, migrations: readonly Migration[]): void {
  let previous = 0;
  for (const m of migrations) {
    if (!Number.isInteger(m.version) || m.version <= previous) {
      throw new Error(`migrate: ${schema} migrations must have increasing positive integer versions (got ${m.version} after ${previous})`);
    }
    previous = m.version;
  }
}

/** Returns the first migration still to apply, or null; throws when the database's history is not a prefix of the list. */
function pendingAfterCheck(schema: string, recorded: { version: number; name: string; checksum: string }[], migrations: readonly Migration[]): Migration | null {
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  for (const row of recorded) {
    const given = byVersion.get(row.version);
    if (!given) throw new Error(`migrate: ${schema} history has migration ${row.version} (${row.name}), which the code does not know; refusing to continue`);
    if (given.name !== row.name || checksum(given) !== row.checksum) {
      throw new Error(`migrate: ${schema} migration ${row.version} (${row.name}) was changed after it was applied; add a new migration instead`);
    }
  }
  const last = recorded.at(-1)?.version ?? 0;
  const pending = migrations.filter((m) => !recorded.some((r) => r.version === m.version));
  const stray = pending.find((m) => m.version < last);
  if (stray) throw new Error(`migrate: ${schema} migration ${stray.version} (${stray.name}) is older than applied migration ${last}; give it a higher version`);
  return pending[0] ?? null;
}

function checksum(m: Migration): string {
  return createHash('sha256').update(m.sql).digest('hex');
}

/** A stable signed 64-bit key per schema, as pg_advisory_xact_lock wants it. */
function advisoryKey(schema: string): string {
  return createHash('sha256').update(`pitwall:migrate:${schema}`).digest().readBigInt64BE(0).toString();
}
