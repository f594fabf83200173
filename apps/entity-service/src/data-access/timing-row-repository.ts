import { INDEXED_GENERIC_PLANS, prepared, type Queryable } from '@pitwall/db';
import { ENTITY_COLUMNS as COLUMNS, ofAccount, type EntityRow } from './entity-row';

/**
 * The advisory lock key of one car's timing updates in a session, from three SQL text expressions. The caller's account
 * is part of it: an update naming another account's session and car (refused once it is resolved) never waits on, nor
 * holds up, that account's own feed.
 */
const timingCarKey = (accountId: string, sessionId: string, carId: string) => `hashtext('entity.timing:' || ${accountId} || ':' || ${sessionId} || ':' || ${carId})`;
/**
 * A timing-keyed row's lookup key, as the expression index `entities_timing_lookup` (migration 90) computes it, and
 * as `timingLookupKey` builds it: the parent's id (lower-case text), the type and the timing key, joined by `|` (none
 * of the three holds one).
 */
const TIMING_LOOKUP_KEY = "parent_id::text || '|' || type || '|' || timing_key";
/**
 * The timing-keyed rows at the keys of $1 that belong to one of the accounts of $2 (the batch's callers), locked: a
 * key naming another account's parent finds (and locks) nothing, and its update is refused when it is resolved. The
 * accounts are compared as text (lower case, as a uuid prints), which no index serves: the rows are found through
 * the lookup index alone and the accounts only filter them (compared as uuids, PostgreSQL would AND in the account's
 * index, reading every row of the account).
 */
export const TIMING_KEY_LOOKUP = `SELECT ${COLUMNS}, timing_key FROM entity.entities WHERE timing_key IS NOT NULL AND (${TIMING_LOOKUP_KEY}) = ANY($1::text[]) AND account_id::text = ANY($2::text[]) FOR UPDATE`;
export const timingLookupKey = (parentId: string, type: string, timingKey: string): string => `${parentId.toLowerCase()}|${type}|${timingKey}`;
/**
 * The run sheets, laps, sectors and speed traps that have no timing key (created by the standard POSTs), by parent
 * and type, as the expression index `entities_untimed_children` (migration 100) computes it: a timing update takes
 * one of them over (`TimingAdoption`) before it creates a row of its own. The type list must stay that of the index.
 */
const UNTIMED_CHILD_KEY = "parent_id::text || '|' || type";
const UNTIMED_CHILDREN = `timing_key IS NULL AND type IN ('RunSheets', 'Laps', 'LapSectors', 'LapSpeedTraps') AND (${UNTIMED_CHILD_KEY})`;
/** `TIMING_KEY_LOOKUP`, and the rows without a timing key under the (parent, type) pairs of $3 (not locked), of the same accounts. */
export const TIMING_KEY_LOOKUP_WITH_UNTIMED = `WITH keyed AS (${TIMING_KEY_LOOKUP})
  SELECT * FROM keyed
  UNION ALL
  SELECT ${COLUMNS}, timing_key FROM entity.entities WHERE ${UNTIMED_CHILDREN} = ANY($3::text[]) AND account_id::text = ANY($2::text[])`;
export const untimedChildKey = (parentId: string, type: string): string => `${parentId.toLowerCase()}|${type}`;

/**
 * Which entity without a timing key a timing update takes over when none has its timing key yet: the run sheet at
 * that index among the car's run sheets in the session (`ordinal`), or the lap, sector or speed trap whose
 * `parameter` (StintLapNumber, TrackSectorDefinitionId, TrackSpeedTrapDefinitionId) holds `value`.
 */
export type TimingAdoption = { ordinal: number } | { parameter: string; value: string | number };
/** What `timingCarLocksSql` needs of a connection: the literal escaping of node-postgres's client. */
type Escaping = { escapeLiteral(value: string): string };
type TimingCar = { accountId: string; sessionId: string; carId: string };

/**
 * `lockTimingCar`'s locks for several cars, as SQL text with the ids inline, to ride in the same round trip as a
 * `BEGIN` or a `COMMIT` (a simple query takes no parameters; the ids go in as literals the client escapes):
 * `lock` holds them for the connection's session (across transactions) until `unlock`, `xact` until the transaction
 * ends. One statement each, the locks taken in the order of their keys, so two batches locking overlapping cars
 * cannot deadlock (a volatile function in the select list runs after the sort).
 */
function timingCarLocksSql(q: Escaping, cars: TimingCar[], lock: 'lock' | 'unlock' | 'xact'): string {
  const values = cars.map((car) => `(${q.escapeLiteral(car.accountId)}, ${q.escapeLiteral(car.sessionId)}, ${q.escapeLiteral(car.carId)})`).join(', ');
  const keys = `SELECT DISTINCT ${timingCarKey('a', 's', 'c')} AS k FROM (VALUES ${values}) AS t(a, s, c)`;
  const fn = lock === 'lock' ? 'pg_advisory_lock' : lock === 'unlock' ? 'pg_advisory_unlock' : 'pg_advisory_xact_lock';
  return `SELECT ${fn}(k) FROM (${keys}) keys${lock === 'unlock' ? '' : ' ORDER BY k'}`;
}

/**
 * Plain-object access to the timing-keyed rows (run sheets, laps, sectors and speed traps a timing update finds by
 * index, docs/timing.md) and to the locks and transaction steps that serialise one car's timing updates.
 */
export const timingRowRepository = {
  /** The `BEGIN` of a single update's transaction, its car locked until the transaction ends, in one round trip. */
  beginLockingCars(q: Escaping, cars: TimingCar[]): string {
    return `BEGIN; ${timingCarLocksSql(q, cars, 'xact')}`;
  },

  /**
   * The `BEGIN` of a batch's bulk attempt: its lookups planned to read by index (`INDEXED_GENERIC_PLANS`), its cars
   * locked for the connection's session (kept across the attempts), in one round trip.
   */
  beginBatchLockingCars(q: Escaping, cars: TimingCar[]): string {
    return `BEGIN; ${INDEXED_GENERIC_PLANS}; ${timingCarLocksSql(q, cars, 'lock')}`;
  },

  /** The `COMMIT` that releases the session-level locks of `beginBatchLockingCars` in the same round trip. */
  commitUnlockingCars(q: Escaping, cars: TimingCar[]): string {
    return `COMMIT; ${timingCarLocksSql(q, cars, 'unlock')}`;
  },

  /** Releases the session-level locks of `beginBatchLockingCars` outside a commit. */
  async unlockCars(q: Queryable & Escaping, cars: TimingCar[]): Promise<void> {
    await q.query(timingCarLocksSql(q, cars, 'unlock'));
  },

  /** One update's savepoint in a batch's transaction: a refused update rolls back to it and the others go on. */
  async savepoint(q: Queryable): Promise<void> {
    await q.query('SAVEPOINT timing_update');
  },

  async releaseSavepoint(q: Queryable): Promise<void> {
    await q.query('RELEASE SAVEPOINT timing_update');
  },

  async rollbackToSavepoint(q: Queryable): Promise<void> {
    await q.query('ROLLBACK TO SAVEPOINT timing_update');
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

  /** Serialises the timing updates of one car in one session (of the caller's account) until the transaction ends. */
  async lockTimingCar(q: Queryable, accountId: string, sessionId: string, carId: string): Promise<void> {
    await q.query(prepared('lock_timing_car', `SELECT pg_advisory_xact_lock(${timingCarKey('$1', '$2', '$3')})`, [accountId, sessionId, carId]));
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
   * The timing-keyed rows of `accountIds` at `keys` (each a (parent, type, key) as `timingLookupKey` spells it), locked for the
   * transaction, with their keys: found on the index of migration 90 (`TIMING_KEY_LOOKUP`), one index entry per key
   * whatever the parent holds. With `untimedParents` (each a (parent, type) as `untimedChildKey` spells it), also
   * the rows without a timing key under them (`timing_key` null, not locked), in the same statement.
   */
  async findByTimingKeysForUpdate(q: Queryable, accountIds: string[], keys: string[], untimedParents: string[] = []): Promise<(EntityRow & { timing_key: string | null })[]> {
    if (keys.length === 0) return [];
    // Prepared: runs only in a timing batch's transaction, begun with INDEXED_GENERIC_PLANS (see `prepared`).
    const accounts = accountIds.map((id) => id.toLowerCase());
    if (untimedParents.length === 0) return (await q.query<EntityRow & { timing_key: string }>(prepared('timing_key_lookup', TIMING_KEY_LOOKUP, [keys, accounts]))).rows;
    const { rows } = await q.query<EntityRow & { timing_key: string | null }>(prepared('timing_key_lookup_untimed', TIMING_KEY_LOOKUP_WITH_UNTIMED, [keys, accounts, untimedParents]));
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
};
