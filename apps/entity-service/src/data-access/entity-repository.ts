import { randomUUID } from 'node:crypto';
import type { DatasetFile } from '@pitwall/contracts';
import { prepared, type PreparedStatement } from '@pitwall/db';
import type { ParameterValue } from '../domain/parameters';
import { attachedFileRepository } from './attached-file-repository';

/** Anything that runs a query: a pool or a client inside a transaction. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(text: string | PreparedStatement, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

export interface EntityRow {
  id: string;
  account_id: string;
  type: string;
  parent_id: string | null;
  parent2_id: string | null;
  position: number;
  parameters: Record<string, ParameterValue>;
  /** Parameters given with associations (`ChampionshipAssociationsToAdd` items); none when absent. */
  association_parameters?: AssociationParameters;
  created_at: Date;
  modified_at: Date;
}

/** Reference parameter name (`ChampionshipId`) → the entity the association names and the parameters given with it. */
export type AssociationParameters = Record<string, { Id: string; Parameters: Record<string, string> }>;

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

/** The advisory lock key of one car's timing updates in a session, from two SQL text expressions. */
const timingCarKey = (sessionId: string, carId: string) => `hashtext('entity.timing:' || ${sessionId} || ':' || ${carId})`;
const COLUMNS = 'id, account_id, type, parent_id, parent2_id, position, parameters, association_parameters, created_at, modified_at';
/**
 * A timing-keyed row's lookup key, as the expression index `entities_timing_lookup` (migration 90) computes it, and
 * as `timingLookupKey` builds it: the parent's id (lower-case text), the type and the timing key, joined by `|` (none
 * of the three holds one).
 */
const TIMING_LOOKUP_KEY = "parent_id::text || '|' || type || '|' || timing_key";
export const TIMING_KEY_LOOKUP = `SELECT ${COLUMNS}, timing_key FROM entity.entities WHERE timing_key IS NOT NULL AND (${TIMING_LOOKUP_KEY}) = ANY($1::text[]) FOR UPDATE`;
export const timingLookupKey = (parentId: string, type: string, timingKey: string): string => `${parentId.toLowerCase()}|${type}|${timingKey}`;
/**
 * The run sheets, laps, sectors and speed traps that have no timing key (created by the standard POSTs), by parent
 * and type, as the expression index `entities_untimed_children` (migration 100) computes it: a timing update takes
 * one of them over (`TimingAdoption`) before it creates a row of its own. The type list must stay that of the index.
 */
const UNTIMED_CHILD_KEY = "parent_id::text || '|' || type";
const UNTIMED_CHILDREN = `timing_key IS NULL AND type IN ('RunSheets', 'Laps', 'LapSectors', 'LapSpeedTraps') AND (${UNTIMED_CHILD_KEY})`;
/** `TIMING_KEY_LOOKUP`, and the rows without a timing key under the (parent, type) pairs of $2 (not locked). */
export const TIMING_KEY_LOOKUP_WITH_UNTIMED = `WITH keyed AS (${TIMING_KEY_LOOKUP})
  SELECT * FROM keyed
  UNION ALL
  SELECT ${COLUMNS}, timing_key FROM entity.entities WHERE ${UNTIMED_CHILDREN} = ANY($2::text[])`;
export const untimedChildKey = (parentId: string, type: string): string => `${parentId.toLowerCase()}|${type}`;

/**
 * Which entity without a timing key a timing update takes over when none has its timing key yet: the run sheet at
 * that index among the car's run sheets in the session (`ordinal`), or the lap, sector or speed trap whose
 * `parameter` (StintLapNumber, TrackSectorDefinitionId, TrackSpeedTrapDefinitionId) holds `value`.
 */
export type TimingAdoption = { ordinal: number } | { parameter: string; value: string | number };
/** What rendering needs: reads that only render skip the timestamps, whose parsing was a tenth of a big read's CPU. */
const RENDER_COLUMNS = 'id, account_id, type, parent_id, parent2_id, position, parameters, association_parameters';

export type RenderRow = Omit<EntityRow, 'created_at' | 'modified_at'>;

/**
 * The rows of `accountId` among rows found by id. The lookups by a list of ids on the write paths (a timing update's
 * rows, a write's references) leave the account out of their WHERE and check it here, so the primary key is the
 * only index that fits them. Given `account_id = $2` as well, PostgreSQL may combine the key with an index on
 * account_id, which reads every entry of the account; it does so when the table's statistics lag its growth (never
 * analysed, or an account that grew faster than autovacuum analyses: a live session's), since it then takes one
 * account for half a percent of the rows. A timing update's five ids read 19,000 entries that way, 0.5 ms a call and
 * growing with the session. (Lookups by parent keep the account: without it, and without statistics, PostgreSQL
 * was seen to scan the type column of another index across every account instead.)
 */
function ofAccount<R extends { account_id: string }>(rows: R[], accountId: string): R[] {
  return rows.filter((r) => r.account_id === accountId);
}

/** Sibling order: an ordering parameter (registry `orderByParameter`, numeric) first, then position; `DESC` reverses it. */
function siblingOrder(orderByParameter?: string, direction: 'ASC' | 'DESC' = 'ASC'): string {
  const name = orderByParameter?.replace(/[^A-Za-z0-9_]/g, '');
  const nulls = direction === 'ASC' ? 'NULLS LAST' : 'NULLS FIRST';
  const order = `position ${direction}, created_at ${direction}`;
  return name ? `(parameters->>'${name}')::numeric ${direction} ${nulls}, ${order}` : order;
}

/** Plain-object access to entity rows; every read is scoped to one account. */
export const entityRepository = {
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

  async findById(q: Queryable, accountId: string, type: string, id: string, forUpdate = false): Promise<EntityRow | undefined> {
    const { rows } = await q.query<EntityRow>(
      prepared(forUpdate ? 'find_by_id_for_update' : 'find_by_id', `SELECT ${COLUMNS} FROM entity.entities WHERE id = $1 AND account_id = $2 AND type = $3${forUpdate ? ' FOR UPDATE' : ''}`, [id, accountId, type]),
    );
    return rows[0];
  },

  async findByIds(q: Queryable, accountId: string, type: string, ids: string[]): Promise<RenderRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await q.query<RenderRow>(`SELECT ${RENDER_COLUMNS} FROM entity.entities WHERE id = ANY($1::uuid[]) AND account_id = $2 AND type = $3`, [ids, accountId, type]);
    return rows;
  },

  /** Children of many parents in one query, in sibling order. */
  async childrenOf(q: Queryable, accountId: string, type: string, parentIds: string[], orderByParameter?: string): Promise<RenderRow[]> {
    if (parentIds.length === 0) return [];
    const { rows } = await q.query<RenderRow>(
      `SELECT ${RENDER_COLUMNS} FROM entity.entities WHERE parent_id = ANY($1::uuid[]) AND account_id = $2 AND type = $3 ORDER BY parent_id, ${siblingOrder(orderByParameter)}`,
      [parentIds, accountId, type],
    );
    return rows;
  },

  /** `filters`: parameter name → the id it must hold (a type's declared list filters). */
  async list(q: Queryable, accountId: string, type: string, parent: { parent_id?: string; parent2_id?: string }, orderByParameter?: string, filters: Record<string, string> = {}): Promise<RenderRow[]> {
    const where = ['account_id = $1', 'type = $2'];
    const values: unknown[] = [accountId, type];
    if (parent.parent_id) where.push(`parent_id = $${values.push(parent.parent_id)}`);
    if (parent.parent2_id) where.push(`parent2_id = $${values.push(parent.parent2_id)}`);
    for (const [name, id] of Object.entries(filters)) where.push(`parameters->>'${name.replace(/[^A-Za-z]/g, '')}' = $${values.push(id)}`);
    const { rows } = await q.query<RenderRow>(`SELECT ${RENDER_COLUMNS} FROM entity.entities WHERE ${where.join(' AND ')} ORDER BY parent_id, parent2_id, ${siblingOrder(orderByParameter)}`, values);
    return rows;
  },

  /** Association search (wire.md §5): the filters are parameter names → ids. */
  async searchByAssociations(q: Queryable, accountId: string, type: string, filters: Record<string, string>): Promise<RenderRow[]> {
    const where = ['account_id = $1', 'type = $2'];
    const values: unknown[] = [accountId, type];
    for (const [name, id] of Object.entries(filters)) where.push(`parameters->>'${name.replace(/[^A-Za-z]/g, '')}' = $${values.push(id)}`);
    const { rows } = await q.query<RenderRow>(`SELECT ${RENDER_COLUMNS} FROM entity.entities WHERE ${where.join(' AND ')} ORDER BY position, created_at`, values);
    return rows;
  },

  /** The last sibling in list order (the registry's `orderByParameter`, then position): the one CopyFromLast copies. */
  async lastListed(q: Queryable, accountId: string, type: string, parent_id: string | null, parent2_id: string | null, orderByParameter?: string): Promise<EntityRow | undefined> {
    const { rows } = await q.query<EntityRow>(
      `SELECT ${COLUMNS} FROM entity.entities WHERE account_id = $1 AND type = $2 AND parent_id IS NOT DISTINCT FROM $3 AND parent2_id IS NOT DISTINCT FROM $4
       ORDER BY ${siblingOrder(orderByParameter, 'DESC')} LIMIT 1`,
      [accountId, type, parent_id, parent2_id],
    );
    return rows[0];
  },

  /** The sibling with the highest position: a new sibling is appended after it. */
  async lastSibling(q: Queryable, accountId: string, type: string, parent_id: string | null, parent2_id: string | null): Promise<EntityRow | undefined> {
    const { rows } = await q.query<EntityRow>(
      `SELECT ${COLUMNS} FROM entity.entities WHERE account_id = $1 AND type = $2 AND parent_id IS NOT DISTINCT FROM $3 AND parent2_id IS NOT DISTINCT FROM $4
       ORDER BY position DESC, created_at DESC LIMIT 1`,
      [accountId, type, parent_id, parent2_id],
    );
    return rows[0];
  },

  async siblingCount(q: Queryable, accountId: string, type: string, parent_id: string | null, parent2_id: string | null): Promise<number> {
    const { rows } = await q.query<{ n: string }>(
      `SELECT count(*) AS n FROM entity.entities WHERE account_id = $1 AND type = $2 AND parent_id IS NOT DISTINCT FROM $3 AND parent2_id IS NOT DISTINCT FROM $4`,
      [accountId, type, parent_id, parent2_id],
    );
    return Number(rows[0]?.n ?? 0);
  },

  /** Renumbers siblings 0, 1, 2… in their current order, closing the gaps deletions left. */
  async renumberSiblings(q: Queryable, accountId: string, type: string, parent_id: string | null, parent2_id: string | null): Promise<void> {
    await q.query(
      `UPDATE entity.entities e SET position = o.rn - 1 FROM (
         SELECT id, row_number() OVER (ORDER BY position, created_at) AS rn FROM entity.entities
         WHERE account_id = $1 AND type = $2 AND parent_id IS NOT DISTINCT FROM $3 AND parent2_id IS NOT DISTINCT FROM $4) o
       WHERE e.id = o.id`,
      [accountId, type, parent_id, parent2_id],
    );
  },

  /** Makes room at `position` among siblings (ordered insert). */
  async shiftPositions(q: Queryable, accountId: string, type: string, parent_id: string | null, parent2_id: string | null, from: number): Promise<void> {
    await q.query(
      `UPDATE entity.entities SET position = position + 1 WHERE account_id = $1 AND type = $2 AND parent_id IS NOT DISTINCT FROM $3 AND parent2_id IS NOT DISTINCT FROM $4 AND position >= $5`,
      [accountId, type, parent_id, parent2_id, from],
    );
  },

  async insert(q: Queryable, row: EntityRow): Promise<void> {
    await q.query(
      `INSERT INTO entity.entities (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [row.id, row.account_id, row.type, row.parent_id, row.parent2_id, row.position, JSON.stringify(row.parameters), JSON.stringify(row.association_parameters ?? {}), row.created_at, row.modified_at],
    );
  },

  /**
   * Many rows in one statement (set-based: a collection update of 10,000 items is one round trip, not 10,000). The
   * columns every row shares (a collection update's account, type and times) go once, not once per row.
   */
  async insertMany(q: Queryable, rows: EntityRow[]): Promise<void> {
    if (rows.length === 0) return;
    const first = rows[0] as EntityRow;
    const shared = rows.every(
      (r) => r.account_id === first.account_id && r.type === first.type && r.created_at.getTime() === first.created_at.getTime() && r.modified_at.getTime() === first.modified_at.getTime(),
    );
    const perRow = [
      rows.map((r) => r.id),
      rows.map((r) => r.parent_id),
      rows.map((r) => r.parent2_id),
      rows.map((r) => r.position),
      rows.map((r) => JSON.stringify(r.parameters)),
      // Most rows have no association parameters: null, not '{}', keeps the array small.
      rows.map((r) => (r.association_parameters && Object.keys(r.association_parameters).length ? JSON.stringify(r.association_parameters) : null)),
    ];
    if (shared) {
      await q.query(
        `INSERT INTO entity.entities (${COLUMNS})
         SELECT u.id, $7, $8, u.parent_id, u.parent2_id, u.position, u.parameters, COALESCE(u.association_parameters, '{}'::jsonb), $9, $10
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::integer[], $5::jsonb[], $6::jsonb[]) AS u(id, parent_id, parent2_id, position, parameters, association_parameters)`,
        [...perRow, first.account_id, first.type, first.created_at, first.modified_at],
      );
      return;
    }
    await q.query(
      `INSERT INTO entity.entities (${COLUMNS})
       SELECT u.id, u.account_id, u.type, u.parent_id, u.parent2_id, u.position, u.parameters, COALESCE(u.association_parameters, '{}'::jsonb), u.created_at, u.modified_at
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::integer[], $5::jsonb[], $6::jsonb[], $7::uuid[], $8::text[], $9::timestamptz[], $10::timestamptz[])
         AS u(id, parent_id, parent2_id, position, parameters, association_parameters, account_id, type, created_at, modified_at)`,
      [...perRow, rows.map((r) => r.account_id), rows.map((r) => r.type), rows.map((r) => r.created_at), rows.map((r) => r.modified_at)],
    );
  },

  /**
   * Sets the parameters and modification time of many rows in one statement. `indexedGeneric`: the caller's
   * transaction was begun with INDEXED_GENERIC_PLANS (a timing batch), so the statement is prepared (see `prepared`).
   */
  async updateParametersMany(q: Queryable, changes: { id: string; parameters: Record<string, ParameterValue>; modifiedAt: Date }[], indexedGeneric = false): Promise<void> {
    if (changes.length === 0) return;
    // Otherwise not prepared (see `prepared` in @pitwall/db): planned on each call with its arrays and the table as they are.
    const text = `UPDATE entity.entities e SET parameters = u.parameters, modified_at = u.modified_at
       FROM unnest($1::uuid[], $2::jsonb[], $3::timestamptz[]) AS u(id, parameters, modified_at) WHERE e.id = u.id`;
    const values = [changes.map((c) => c.id), changes.map((c) => JSON.stringify(c.parameters)), changes.map((c) => c.modifiedAt)];
    await (indexedGeneric ? q.query(prepared('update_parameters_many', text, values)) : q.query(text, values));
  },

  async deleteMany(q: Queryable, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await q.query(`DELETE FROM entity.entities WHERE id = ANY($1::uuid[])`, [ids]);
  },

  /** The rows of `type` among `ids` in the account, locked for the transaction (a collection update's items). */
  async findManyForUpdate(q: Queryable, accountId: string, type: string, ids: string[]): Promise<EntityRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await q.query<EntityRow>(`SELECT ${COLUMNS} FROM entity.entities WHERE id = ANY($1::uuid[]) AND account_id = $2 AND type = $3 FOR UPDATE`, [ids, accountId, type]);
    return rows;
  },

  /** Every entity of `type` in the account, locked for the transaction (the mirrored Users of a membership snapshot). */
  async listForUpdate(q: Queryable, accountId: string, type: string): Promise<EntityRow[]> {
    const { rows } = await q.query<EntityRow>(`SELECT ${COLUMNS} FROM entity.entities WHERE account_id = $1 AND type = $2 FOR UPDATE`, [accountId, type]);
    return rows;
  },

  /** Which of `ids` name an entity of `type` in the account. */
  async existingIds(q: Queryable, accountId: string, type: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await q.query<{ id: string; account_id: string }>(`SELECT id::text AS id, account_id FROM entity.entities WHERE id = ANY($1::uuid[]) AND type = $2`, [ids, type]);
    return new Set(ofAccount(rows, accountId).map((r) => r.id));
  },

  async updateParameters(q: Queryable, id: string, parameters: Record<string, ParameterValue>, modifiedAt: Date, associationParameters?: AssociationParameters): Promise<void> {
    if (associationParameters === undefined) await q.query(prepared('update_parameters', `UPDATE entity.entities SET parameters = $2, modified_at = $3 WHERE id = $1`, [id, JSON.stringify(parameters), modifiedAt]));
    else
      await q.query(`UPDATE entity.entities SET parameters = $2, modified_at = $3, association_parameters = $4 WHERE id = $1`, [id, JSON.stringify(parameters), modifiedAt, JSON.stringify(associationParameters)]);
  },

  async delete(q: Queryable, id: string): Promise<void> {
    await q.query(`DELETE FROM entity.entities WHERE id = $1`, [id]);
  },

  /** Every descendant through first-parent links, parents before children (for CopyAll). */
  async descendants(q: Queryable, accountId: string, rootId: string): Promise<(EntityRow & { depth: number })[]> {
    const { rows } = await q.query<EntityRow & { depth: number }>(
      `WITH RECURSIVE tree AS (
         SELECT ${COLUMNS}, 1 AS depth FROM entity.entities WHERE parent_id = $1 AND account_id = $2
         UNION ALL
         SELECT e.id, e.account_id, e.type, e.parent_id, e.parent2_id, e.position, e.parameters, e.association_parameters, e.created_at, e.modified_at, t.depth + 1
         FROM entity.entities e JOIN tree t ON e.parent_id = t.id
       ) SELECT * FROM tree ORDER BY depth, position, created_at`,
      [rootId, accountId],
    );
    return rows;
  },

  /** The entity and everything a delete of it cascades to (children through either parent link), ids only. */
  async deletionScope(q: Queryable, accountId: string, rootId: string): Promise<string[]> {
    const { rows } = await q.query<{ id: string }>(
      `WITH RECURSIVE tree AS (
         SELECT id FROM entity.entities WHERE id = $1 AND account_id = $2
         UNION
         SELECT e.id FROM entity.entities e JOIN tree t ON e.parent_id = t.id OR e.parent2_id = t.id
       ) SELECT id::text FROM tree`,
      [rootId, accountId],
    );
    return rows.map((r) => r.id);
  },

  /** Entities of the account, outside `ids`, with a parameter whose value is one of `ids` (candidates for references), locked. */
  async referringTo(q: Queryable, accountId: string, ids: string[]): Promise<EntityRow[]> {
    const { rows } = await q.query<EntityRow>(
      `SELECT ${COLUMNS} FROM entity.entities e
       WHERE account_id = $1 AND NOT (id = ANY($2::uuid[]))
         AND EXISTS (SELECT 1 FROM jsonb_each_text(e.parameters) kv WHERE kv.value = ANY($2::text[]))
       FOR UPDATE`,
      [accountId, ids],
    );
    return rows;
  },

  async parameterDefinitions(q: Queryable, accountId: string): Promise<EntityRow[]> {
    const { rows } = await q.query<EntityRow>(prepared('parameter_definitions', `SELECT ${COLUMNS} FROM entity.entities WHERE account_id = $1 AND type = 'ParameterDefinitions'`, [accountId]));
    return rows;
  },

  /** Serialises sibling inserts under one parent until the transaction ends, so positions are read and shifted by one writer at a time. */
  async lockSiblings(q: Queryable, accountId: string, type: string, parent_id: string | null, parent2_id: string | null): Promise<void> {
    await q.query(`SELECT pg_advisory_xact_lock(hashtext('entity.siblings:' || $1 || ':' || $2 || ':' || coalesce($3, '') || ':' || coalesce($4, '')))`, [accountId, type, parent_id, parent2_id]);
  },

  /** How many entities of `type` hold a non-null value of the parameter `name`. */
  async countHoldingParameter(q: Queryable, accountId: string, type: string, name: string): Promise<number> {
    const { rows } = await q.query<{ n: string }>(
      `SELECT count(*) AS n FROM entity.entities WHERE account_id = $1 AND type = $2 AND parameters ? $3 AND parameters -> $3 <> 'null'::jsonb`,
      [accountId, type, name],
    );
    return Number(rows[0]?.n ?? 0);
  },

  /** Serialises writes of an account's parameter definitions until the transaction ends (name uniqueness). */
  async lockParameterDefinitions(q: Queryable, accountId: string): Promise<void> {
    await q.query(`SELECT pg_advisory_xact_lock(hashtext('entity.parameter_definitions:' || $1))`, [accountId]);
  },

  async eventCarExists(q: Queryable, accountId: string, eventId: string, carId: string): Promise<boolean> {
    const { rows } = await q.query(`SELECT 1 FROM entity.entities WHERE account_id = $1 AND type = 'EventCars' AND parent_id = $2 AND parent2_id = $3 LIMIT 1`, [accountId, eventId, carId]);
    return rows.length > 0;
  },

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

  /**
   * Copies the attached files (records and their blob references, never the bytes) of each `from` entity onto its `to` entity. Creation times
   * are kept: the files of a dataset are read in that order (per-lap files in lap order).
   */
  async copyAttachedFiles(q: Queryable, accountId: string, pairs: [from: string, to: string][], modifiedAt: Date): Promise<number> {
    if (pairs.length === 0) return 0;
    const { rows } = await q.query<{ id: string; entity_id: string; blob_key: string | null }>(
      `SELECT id, entity_id, blob_key FROM entity.attached_files WHERE entity_id = ANY($1::uuid[]) AND account_id = $2`,
      [pairs.map(([from]) => from), accountId],
    );
    if (rows.length === 0) return 0;
    // A copy is one more reference to the same blob (never a copy of the bytes): taken under the blob's lock, so a
    // concurrent delete of the source cannot remove the blob between its count and this insert's commit.
    for (const key of [...new Set(rows.flatMap((r) => (r.blob_key ? [r.blob_key] : [])))].sort()) await attachedFileRepository.lockBlob(q, key);
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

  /**
   * The rows a timing update names (any type, of the account) and whether its car is entered in its event, in one
   * statement: the entry check is an uncorrelated subquery, run once, carried on every row (false when none match;
   * an update naming no existing row is refused before the entry matters). An EventCar is a child of its event, so
   * it is of the account whenever the event is, which the update checks first.
   */
  async findTimingRows(q: Queryable, accountId: string, ids: string[], eventId: string, carId: string): Promise<{ rows: EntityRow[]; carEntered: boolean }> {
    // Not prepared (see `prepared` in @pitwall/db): planned on each call with its arrays and the table as they are.
    const { rows } = await q.query<EntityRow & { car_entered: boolean }>(
      `SELECT ${COLUMNS},
              (SELECT EXISTS (SELECT 1 FROM entity.entities WHERE parent_id = $2 AND type = 'EventCars' AND parent2_id = $3)) AS car_entered
         FROM entity.entities WHERE id = ANY($1::uuid[])`,
      [ids, eventId, carId],
    );
    return { rows: ofAccount(rows, accountId).map(({ car_entered: _, ...row }) => row as EntityRow), carEntered: rows[0]?.car_entered === true };
  },

  /**
   * `lockTimingCar`'s locks for several cars, as SQL text with the ids inline, to ride in the same round trip as a
   * `BEGIN` or a `COMMIT` (a simple query takes no parameters; the ids go in as literals the client escapes):
   * `lock` holds them for the connection's session (across transactions) until `unlock`, `xact` until the transaction
   * ends. One statement each, the locks taken in the order of their keys, so two batches locking overlapping cars
   * cannot deadlock (a volatile function in the select list runs after the sort).
   */
  timingCarLocksSql(q: { escapeLiteral(value: string): string }, cars: { sessionId: string; carId: string }[], lock: 'lock' | 'unlock' | 'xact'): string {
    const values = cars.map((car) => `(${q.escapeLiteral(car.sessionId)}, ${q.escapeLiteral(car.carId)})`).join(', ');
    const keys = `SELECT DISTINCT ${timingCarKey('s', 'c')} AS k FROM (VALUES ${values}) AS t(s, c)`;
    const fn = lock === 'lock' ? 'pg_advisory_lock' : lock === 'unlock' ? 'pg_advisory_unlock' : 'pg_advisory_xact_lock';
    return `SELECT ${fn}(k) FROM (${keys}) keys${lock === 'unlock' ? '' : ' ORDER BY k'}`;
  },

  /** Serialises the timing updates of one car in one session until the transaction ends. */
  async lockTimingCar(q: Queryable, sessionId: string, carId: string): Promise<void> {
    await q.query(prepared('lock_timing_car', `SELECT pg_advisory_xact_lock(${timingCarKey('$1', '$2')})`, [sessionId, carId]));
  },

  /**
   * The entity at `timing_key` under its parent, created from `row` when there is none (database uniqueness on
   * (parent, type, timing key) makes a repeated or racing create find the first one), locked for the transaction.
   */
  async upsertByTimingKey(q: Queryable, row: EntityRow, timingKey: string, adopt: TimingAdoption): Promise<{ row: EntityRow; inserted: boolean }> {
    const ordinal = 'ordinal' in adopt ? adopt.ordinal : null;
    const [parameter, value] = 'parameter' in adopt ? [adopt.parameter, JSON.stringify(adopt.value)] : [null, null];
    const { rows } = await q.query<EntityRow & { inserted: boolean }>(
      prepared(
        'upsert_by_timing_key',
        // An entity without a timing key at that place is taken over (given the key) when no row has the key yet;
        // else the row with the key, created when there is none. One statement: one snapshot, one round trip.
        `WITH adopted AS (
           UPDATE entity.entities SET timing_key = $11
            WHERE id = (
              SELECT c.id FROM entity.entities c
               WHERE c.${UNTIMED_CHILDREN} = $4::uuid::text || '|' || $3::text
                 AND c.parent2_id IS NOT DISTINCT FROM $5::uuid
                 AND NOT EXISTS (SELECT 1 FROM entity.entities k WHERE k.timing_key IS NOT NULL AND (k.${TIMING_LOOKUP_KEY}) = c.parent_id::text || '|' || c.type || '|' || $11::text)
                 AND CASE WHEN $12::text IS NULL
                     THEN (SELECT count(*) FROM entity.entities o WHERE o.parent_id = c.parent_id AND o.parent2_id IS NOT DISTINCT FROM c.parent2_id AND o.type = c.type AND o.position < c.position) = $14::bigint
                     ELSE c.parameters -> $12::text = $13::jsonb END
               ORDER BY c.position LIMIT 1
               FOR UPDATE)
           RETURNING ${COLUMNS}, false AS inserted
         ), created AS (
           INSERT INTO entity.entities (${COLUMNS}, timing_key)
           SELECT $1::uuid, $2::uuid, $3::text, $4::uuid, $5::uuid, $6::integer, $7::jsonb, $8::jsonb, $9::timestamptz, $10::timestamptz, $11::text WHERE NOT EXISTS (SELECT 1 FROM adopted)
           ON CONFLICT (parent_id, type, timing_key) WHERE timing_key IS NOT NULL DO UPDATE SET timing_key = EXCLUDED.timing_key
           RETURNING ${COLUMNS}, (xmax = 0) AS inserted
         )
         SELECT * FROM adopted UNION ALL SELECT * FROM created`,
        [row.id, row.account_id, row.type, row.parent_id, row.parent2_id, row.position, JSON.stringify(row.parameters), JSON.stringify(row.association_parameters ?? {}), row.created_at, row.modified_at, timingKey, parameter, value, ordinal],
      ),
    );
    const { inserted, ...stored } = rows[0] as EntityRow & { inserted: boolean };
    return { row: stored, inserted };
  },

  /**
   * `findTimingRows` for a whole batch of one account: the rows among `ids`, and which (event, car) pairs of
   * `entries` have an EventCar (each as `eventId:carId`).
   */
  async findTimingRowsMany(q: Queryable, accountId: string, ids: string[], entries: { eventId: string; carId: string }[]): Promise<{ rows: EntityRow[]; entered: Set<string> }> {
    // Prepared: runs only in a timing batch's transaction, begun with INDEXED_GENERIC_PLANS (see `prepared`). The
    // EventCars are looked up per (event, car) pair (LATERAL, not flattened into a join: OFFSET 0), so even a plan
    // made on an empty table reads each pair's entry through the index rather than every EventCar. Each pair once.
    const pairs = [...new Map(entries.map((e) => [`${e.eventId}:${e.carId}`, e])).values()];
    const { rows } = await q.query<EntityRow>(
      prepared(
        'timing_rows_many',
        `SELECT ${COLUMNS} FROM entity.entities WHERE id = ANY($1::uuid[])
         UNION ALL
         SELECT e.* FROM unnest($2::uuid[], $3::uuid[]) AS t(event_id, car_id),
           LATERAL (SELECT ${COLUMNS} FROM entity.entities WHERE parent_id = t.event_id AND type = 'EventCars' AND parent2_id = t.car_id OFFSET 0) e`,
        [ids, pairs.map((e) => e.eventId), pairs.map((e) => e.carId)],
      ),
    );
    const found = ofAccount(rows, accountId);
    const entered = new Set(found.filter((r) => r.type === 'EventCars').map((r) => `${r.parent_id}:${r.parent2_id}`));
    return { rows: found, entered };
  },

  /**
   * The timing-keyed rows at `keys` (each a (parent, type, key) as `timingLookupKey` spells it), locked for the
   * transaction, with their keys: found on the index of migration 90 (`TIMING_KEY_LOOKUP`), one index entry per key
   * whatever the parent holds. With `untimedParents` (each a (parent, type) as `untimedChildKey` spells it), also
   * the rows without a timing key under them (`timing_key` null, not locked), in the same statement.
   */
  async findByTimingKeysForUpdate(q: Queryable, keys: string[], untimedParents: string[] = []): Promise<(EntityRow & { timing_key: string | null })[]> {
    if (keys.length === 0) return [];
    // Prepared: runs only in a timing batch's transaction, begun with INDEXED_GENERIC_PLANS (see `prepared`).
    if (untimedParents.length === 0) return (await q.query<EntityRow & { timing_key: string }>(prepared('timing_key_lookup', TIMING_KEY_LOOKUP, [keys]))).rows;
    const { rows } = await q.query<EntityRow & { timing_key: string | null }>(prepared('timing_key_lookup_untimed', TIMING_KEY_LOOKUP_WITH_UNTIMED, [keys, untimedParents]));
    return rows;
  },

  /** Inserts timing-keyed rows (a batch's new runs, laps, sectors and speed traps; parents before children) in one statement. */
  async insertTimingRows(q: Queryable, rows: { row: EntityRow; timingKey: string }[]): Promise<void> {
    if (rows.length === 0) return;
    await q.query(
      prepared(
        'insert_timing_rows',
        `INSERT INTO entity.entities (${COLUMNS}, timing_key)
         SELECT u.id, u.account_id, u.type, u.parent_id, u.parent2_id, u.position, u.parameters, '{}'::jsonb, u.created_at, u.modified_at, u.timing_key
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::uuid[], $6::integer[], $7::jsonb[], $8::timestamptz[], $9::timestamptz[], $10::text[])
             AS u(id, account_id, type, parent_id, parent2_id, position, parameters, created_at, modified_at, timing_key)`,
        [
          rows.map((r) => r.row.id),
          rows.map((r) => r.row.account_id),
          rows.map((r) => r.row.type),
          rows.map((r) => r.row.parent_id),
          rows.map((r) => r.row.parent2_id),
          rows.map((r) => r.row.position),
          rows.map((r) => JSON.stringify(r.row.parameters)),
          rows.map((r) => r.row.created_at),
          rows.map((r) => r.row.modified_at),
          rows.map((r) => r.timingKey),
        ],
      ),
    );
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
};
