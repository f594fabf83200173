import { prepared, type Queryable } from '@pitwall/db';
import type { ParameterValue } from '../domain/parameters';
import { ENTITY_COLUMNS as COLUMNS, RENDER_COLUMNS, ofAccount, type AssociationParameters, type EntityRow, type RenderRow } from './entity-row';

/** Sibling order: an ordering parameter (registry `orderByParameter`, numeric) first, then position; `DESC` reverses it. */
function siblingOrder(orderByParameter?: string, direction: 'ASC' | 'DESC' = 'ASC'): string {
  const name = orderByParameter?.replace(/[^A-Za-z0-9_]/g, '');
  const nulls = direction === 'ASC' ? 'NULLS LAST' : 'NULLS FIRST';
  const order = `position ${direction}, created_at ${direction}`;
  return name ? `(parameters->>'${name}')::numeric ${direction} ${nulls}, ${order}` : order;
}

/** An entity a delete takes with it. */
export interface ScopeEntry {
  id: string;
  type: string;
}

/**
 * Plain-object access to the entity rows and their tree (parents, siblings, descendants, references); every read is
 * scoped to one account. The timing-keyed rows are `timingRowRepository`'s, the cache versions
 * `cacheVersionRepository`'s, the attached files `attachedFileRepository`'s.
 */
export const entityRepository = {
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

  /** How many descendants `descendants` would return, counted up to `atMost + 1` at most (the walk stops there). */
  async countDescendants(q: Queryable, accountId: string, rootId: string, atMost: number): Promise<number> {
    const { rows } = await q.query<{ n: number }>(
      `WITH RECURSIVE tree AS (
         SELECT id FROM entity.entities WHERE parent_id = $1 AND account_id = $2
         UNION ALL
         SELECT e.id FROM entity.entities e JOIN tree t ON e.parent_id = t.id
       ) SELECT count(*)::int AS n FROM (SELECT 1 FROM tree LIMIT $3) AS walked`,
      [rootId, accountId, atMost + 1],
    );
    return rows[0]?.n ?? 0;
  },

  /** The entity and everything a delete of it cascades to (children through either parent link): ids and types. */
  async deletionScope(q: Queryable, accountId: string, rootId: string | readonly string[], atMost?: number): Promise<ScopeEntry[]> {
    // With `atMost`, the walk stops one entity past it (a LIMIT pulls the recursion only as far as it reads).
    const { rows } = await q.query<ScopeEntry>(
      `WITH RECURSIVE tree AS (
         SELECT id, type FROM entity.entities WHERE id = ANY($1::uuid[]) AND account_id = $2
         UNION
         SELECT e.id, e.type FROM entity.entities e JOIN tree t ON e.parent_id = t.id OR e.parent2_id = t.id
       ) SELECT id::text, type FROM tree${atMost === undefined ? '' : ' LIMIT $3'}`,
      [typeof rootId === 'string' ? [rootId] : rootId, accountId, ...(atMost === undefined ? [] : [atMost + 1])],
    );
    return rows;
  },

  /**
   * Entities of `type` in the account, outside `ids`, whose parameter named one of `names` holds one of `ids`, locked.
   * Only the rows of that one type are read (not every entity of the account), and only the named keys of each.
   */
  async referringTo(q: Queryable, accountId: string, type: string, names: readonly string[], ids: readonly string[]): Promise<EntityRow[]> {
    // Against the ids as a set (a hashed subplan), not `= ANY(array)`, which reads the whole array for every row: 2.5 s
    // a type for a 210,000-entity subtree.
    const matches = names.map((_, i) => `(e.parameters->>$${i + 4}) IN (SELECT unnest($3::text[]))`).join(' OR ');
    const { rows } = await q.query<EntityRow>(
      `SELECT ${COLUMNS} FROM entity.entities e
       WHERE account_id = $1 AND type = $2 AND NOT (id::text IN (SELECT unnest($3::text[]))) AND (${matches})
       FOR UPDATE`,
      [accountId, type, ids, ...names],
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

  /** Every entity of an account-level type (math channels: the few definitions a rule checks together). */
  async entitiesOfType(q: Queryable, accountId: string, type: string): Promise<EntityRow[]> {
    const { rows } = await q.query<EntityRow>(`SELECT ${COLUMNS} FROM entity.entities WHERE account_id = $1 AND type = $2`, [accountId, type]);
    return rows;
  },

  /** Serialises writes of an account's entities of one type until the transaction ends (checks across them: names, cycles). */
  async lockEntityType(q: Queryable, accountId: string, type: string): Promise<void> {
    await q.query(`SELECT pg_advisory_xact_lock(hashtext('entity.type:' || $1 || ':' || $2))`, [accountId, type]);
  },

  /**
   * Of these (parent, car) pairs of entities that need their car entered in the event (`requiresEventCar`: the parent
   * is the event, or a session of it), the cars with no EventCar there, each once: one statement for a whole copy.
   */
  async carsNotEntered(q: Queryable, accountId: string, pairs: { parentId: string; carId: string; parentIs: 'event' | 'session' }[]): Promise<string[]> {
    if (pairs.length === 0) return [];
    const { rows } = await q.query<{ car: string }>(
      `SELECT DISTINCT x.car::text AS car
         FROM unnest($2::uuid[], $3::uuid[], $4::text[]) AS x(parent, car, parent_is)
         LEFT JOIN entity.entities s ON x.parent_is = 'session' AND s.id = x.parent AND s.account_id = $1
        WHERE NOT EXISTS (SELECT 1 FROM entity.entities ec
                           WHERE ec.account_id = $1 AND ec.type = 'EventCars' AND ec.parent2_id = x.car
                             AND ec.parent_id = CASE WHEN x.parent_is = 'session' THEN s.parent_id ELSE x.parent END)
        ORDER BY 1`,
      [accountId, pairs.map((p) => p.parentId), pairs.map((p) => p.carId), pairs.map((p) => p.parentIs)],
    );
    return rows.map((r) => r.car);
  },

  async eventCarExists(q: Queryable, accountId: string, eventId: string, carId: string): Promise<boolean> {
    const { rows } = await q.query(`SELECT 1 FROM entity.entities WHERE account_id = $1 AND type = 'EventCars' AND parent_id = $2 AND parent2_id = $3 LIMIT 1`, [accountId, eventId, carId]);
    return rows.length > 0;
  },
};
