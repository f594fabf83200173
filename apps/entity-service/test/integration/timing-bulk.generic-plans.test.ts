import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { INDEXED_GENERIC_PLANS } from '@pitwall/db';
import { createInbox } from '@pitwall/messaging';
import { ENTITY_SCHEMA } from '../../src/data-access/migrations';
import { entityRepository } from '../../src/data-access/entity-repository';
import { timingLookupKey, timingRowRepository, untimedChildKey } from '../../src/data-access/timing-row-repository';
import { entityTestDatabase } from '../support/count-statements';

// A timing batch's lookups and updates are prepared and planned once per connection, in a transaction begun with
// INDEXED_GENERIC_PLANS. The plan is made at the first batch, often on a young database whose tables are nearly
// empty, and kept as they grow: it must look each key up through an index, never read a table (or every EventCar,
// every lap) whole, or each batch would get slower as the season's data grows.
const database = entityTestDatabase();
const silent = pino({ level: 'silent' });

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; 'Rows Removed by Filter'?: number; Plans?: PlanNode[] };
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
const uuids = (ids: string[]) => `'{${ids.join(',')}}'::uuid[]`;
const texts = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]::text[]`;

test('when the bulk statements are first planned on an empty table, then once it holds 40,000 rows they still read only the rows their keys name, through indexes', async () => {
  const inbox = createInbox({ pool: database.pool, schema: ENTITY_SCHEMA, logger: silent });
  const client = await database.pool.connect();
  const inTransaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    await client.query(`BEGIN; ${INDEXED_GENERIC_PLANS}`);
    try {
      return await fn();
    } finally {
      await client.query('ROLLBACK');
    }
  };
  const accountId = randomUUID();
  const [eventId, carId, sessionId, runId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  try {
    // The first batch, on the empty table: each statement's plan is made now.
    await inTransaction(async () => {
      await timingRowRepository.findTimingRowsMany(client, accountId, [sessionId], [{ eventId, carId }]);
      await timingRowRepository.findByTimingKeysForUpdate(client, [accountId], [timingLookupKey(sessionId, 'RunSheets', `${carId}:0`)]);
      await timingRowRepository.findByTimingKeysForUpdate(client, [accountId], [timingLookupKey(runId, 'Laps', '1')], [untimedChildKey(runId, 'Laps')]);
      await entityRepository.updateParametersMany(client, [{ id: runId, parameters: {}, modifiedAt: new Date() }], true);
      await inbox.settleMany(client, [{ command: { scope: accountId, id: 'c1', requestHash: 'h' }, reply: { body: null, headers: {} } }], [], true);
    });

    // The season goes on: 20,000 laps under one run, 20,000 EventCars of 400 events.
    const insert = `INSERT INTO entity.entities (id, account_id, type, parent_id, parent2_id, position, parameters, association_parameters, created_at, modified_at, timing_key)`;
    const row = (id: string, type: string) => database.pool.query(`${insert} VALUES ($1, $2, $3, NULL, NULL, 0, '{}', '{}', now(), now(), NULL)`, [id, accountId, type]);
    for (const [id, type] of [[runId, 'RunSheets'], [eventId, 'Events'], [carId, 'Cars']] as const) await row(id, type);
    const numbered = (prefix: string, n: string) => `('00000000-0000-4000-${prefix}-' || lpad((${n})::text, 12, '0'))::uuid`;
    await database.pool.query(`${insert} SELECT ${numbered('8000', 'n')}, $1, 'Events', NULL, NULL, n, '{}', '{}', now(), now(), NULL FROM generate_series(0, 399) AS n`, [accountId]);
    await database.pool.query(`${insert} SELECT ${numbered('9000', 'n')}, $1, 'Cars', NULL, NULL, n, '{}', '{}', now(), now(), NULL FROM generate_series(0, 49) AS n`, [accountId]);
    await database.pool.query(`${insert} SELECT gen_random_uuid(), $1, 'Laps', $2, NULL, n, '{}'::jsonb, '{}'::jsonb, now(), now(), n::text FROM generate_series(1, 20000) AS n`, [accountId, runId]);
    await database.pool.query(`${insert} SELECT gen_random_uuid(), $1, 'EventCars', ${numbered('8000', 'n % 400')}, ${numbered('9000', 'n / 400')}, n, '{}'::jsonb, '{}'::jsonb, now(), now(), NULL FROM generate_series(0, 19999) AS n`, [accountId]);
    await database.pool.query(`${insert} VALUES ($1, $2, 'EventCars', $3, $4, 0, '{}', '{}', now(), now(), NULL)`, [randomUUID(), accountId, eventId, carId]);
    await database.pool.query(`INSERT INTO entity.inbox (scope, command_id, request_hash) SELECT $1, 'c' || n, 'h' FROM generate_series(1, 20000) AS n`, [accountId]);

    const plans: Record<string, string> = {
      pw_timing_rows_many: `${uuids([sessionId])}, ${uuids([eventId])}, ${uuids([carId])}`,
      pw_timing_key_lookup: `${texts([timingLookupKey(runId, 'Laps', '17')])}, ${texts([accountId])}`,
      pw_timing_key_lookup_untimed: `${texts([timingLookupKey(runId, 'Laps', '18')])}, ${texts([accountId])}, ${texts([untimedChildKey(runId, 'Laps')])}`,
      pw_update_parameters_many: `${uuids([runId])}, ARRAY['{}']::jsonb[], ARRAY[now()]::timestamptz[]`,
      'pw_inbox_settle_many_entity.inbox': `${texts([accountId])}, ${texts(['c5'])}, ARRAY[NULL]::bytea[], ARRAY['{}']::jsonb[]`,
    };
    const read: Record<string, string[]> = {};
    await inTransaction(async () => {
      for (const [name, args] of Object.entries(plans)) {
        const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE "${name}"(${args})`);
        const all = nodes((rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan);
        // What each scan read: the rows it gave (over all its loops) and those it threw away.
        read[name] = all
          .filter((n) => /Scan/.test(n['Node Type']) && n['Node Type'] !== 'Function Scan' && n['Node Type'] !== 'CTE Scan')
          .map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''} ${(n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1) + (n['Rows Removed by Filter'] ?? 0) > 2 ? 'many' : 'few'}`.replace(/Bitmap Heap Scan {2}/, 'Bitmap Heap Scan '));
      }
    });

    expect(read).toEqual({
      pw_timing_rows_many: ['Bitmap Heap Scan few', 'Bitmap Index Scan entities_pkey few', expect.stringMatching(/^Index Scan entities_(children|parent2) few$/)],
      pw_timing_key_lookup: ['Bitmap Heap Scan few', 'Bitmap Index Scan entities_timing_lookup few'],
      pw_timing_key_lookup_untimed: ['Bitmap Heap Scan few', 'Bitmap Index Scan entities_timing_lookup few', 'Index Scan entities_untimed_children few'],
      pw_update_parameters_many: ['Index Scan entities_pkey few'],
      'pw_inbox_settle_many_entity.inbox': ['Index Scan inbox_pkey few'],
    });
  } finally {
    client.release();
  }
});
