import { randomUUID } from 'node:crypto';
import { TIMING_KEY_LOOKUP, TIMING_KEY_LOOKUP_WITH_UNTIMED, timingLookupKey, timingRowRepository, untimedChildKey } from '../../src/data-access/timing-row-repository';
import { entityTestDatabase } from '../support/count-statements';

// A timing batch looks up its runs, laps, sectors and speed traps by (parent, type, timing key). The lookup must find
// each row through its own index entry, not by reading every run of the session (or every lap of the run) the way a
// scan of (parent, type) does: late in a long session that is hundreds of rows per key, under locks.
const database = entityTestDatabase();

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Rows Removed by Filter'?: number; 'Rows Removed by Index Recheck'?: number; Plans?: PlanNode[] };

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

async function otherRun(accountId: string): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO entity.entities (id, account_id, type, parent_id, parent2_id, position, parameters, association_parameters, created_at, modified_at) VALUES ($1, $2, 'RunSheets', NULL, NULL, 0, '{}', '{}', now(), now())`,
    [id, accountId],
  );
  return id;
}

/** A session with `runs` run sheets of 3 cars keyed as the timing integration keys them, 5 without a key, and other rows. */
async function session(runs: number): Promise<{ accountId: string; sessionId: string; cars: string[] }> {
  const accountId = randomUUID();
  const sessionId = randomUUID();
  const cars = [randomUUID(), randomUUID(), randomUUID()];
  const insert = `INSERT INTO entity.entities (id, account_id, type, parent_id, parent2_id, position, parameters, association_parameters, created_at, modified_at, timing_key)
                  VALUES ($1, $2, $3, $4, NULL, $5, '{}'::jsonb, '{}'::jsonb, now(), now(), $6)`;
  await database.pool.query(insert, [sessionId, accountId, 'Sessions', null, 0, null]);
  for (let i = 0; i < runs; i++) await database.pool.query(insert, [randomUUID(), accountId, 'RunSheets', sessionId, i, `${cars[i % 3]}:${Math.floor(i / 3)}`]);
  for (let i = 0; i < 5; i++) await database.pool.query(insert, [randomUUID(), accountId, 'RunSheets', sessionId, runs + i, null]);
  // The rest of a live database: 20,000 laps under other runs (on a table of a few pages, any lookup reads it whole).
  await database.pool.query(
    `INSERT INTO entity.entities (id, account_id, type, parent_id, parent2_id, position, parameters, association_parameters, created_at, modified_at, timing_key)
     SELECT gen_random_uuid(), $1, 'Laps', $2, NULL, n, '{"LapTime": 91.5}'::jsonb, '{}'::jsonb, now(), now(), n::text FROM generate_series(1, 20000) AS n`,
    [accountId, await otherRun(accountId)],
  );
  return { accountId, sessionId, cars };
}

describe('timing key lookups', () => {
  test('when a batch looks up 3 runs of a session holding 300, then it finds exactly those, through the timing lookup index, reading no other run', async () => {
    const { accountId, sessionId, cars } = await session(300);
    const wanted = [
      { parentId: sessionId, type: 'RunSheets', timingKey: `${cars[0]}:0` },
      { parentId: sessionId.toUpperCase(), type: 'RunSheets', timingKey: `${cars[1]}:57` },
      { parentId: sessionId, type: 'RunSheets', timingKey: `${cars[2]}:99` },
    ];
    const absent = [
      { parentId: sessionId, type: 'RunSheets', timingKey: `${cars[2]}:100` },
      { parentId: sessionId, type: 'Laps', timingKey: `${cars[0]}:0` },
      { parentId: randomUUID(), type: 'RunSheets', timingKey: `${cars[0]}:0` },
    ];
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      const keys = [...wanted, ...absent].map((k) => timingLookupKey(k.parentId, k.type, k.timingKey));
      const found = await timingRowRepository.findByTimingKeysForUpdate(client, [accountId], keys);
      expect(found.map((r) => `${r.parent_id}|${r.type}|${r.timing_key}`).sort()).toEqual(wanted.map((k) => `${k.parentId.toLowerCase()}|${k.type}|${k.timingKey}`).sort());

      const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${TIMING_KEY_LOOKUP}`, [keys, [accountId]]);
      const plan = nodes((rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan);
      expect(plan.filter((n) => n['Index Name']).map((n) => n['Index Name'])).toEqual(['entities_timing_lookup']);
      expect(plan.every((n) => !n['Rows Removed by Filter'] && !n['Rows Removed by Index Recheck'])).toBe(true);
      expect(plan.some((n) => n['Node Type'] === 'Seq Scan')).toBe(false);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  test("when a batch of other accounts looks up this account's runs, then it finds none and locks none: another transaction locks them at once", async () => {
    const { accountId, sessionId, cars } = await session(3);
    const keys = cars.map((car) => timingLookupKey(sessionId, 'RunSheets', `${car}:0`));
    const parents = [untimedChildKey(sessionId, 'RunSheets')];
    const client = await database.pool.connect();
    const other = await database.pool.connect();
    try {
      await client.query('BEGIN');
      expect(await timingRowRepository.findByTimingKeysForUpdate(client, [randomUUID(), randomUUID()], keys)).toEqual([]);
      expect(await timingRowRepository.findByTimingKeysForUpdate(client, [randomUUID()], keys, parents)).toEqual([]);
      // Its own account's lookup (the account id in any case) finds them.
      expect(await timingRowRepository.findByTimingKeysForUpdate(other, [accountId.toUpperCase()], keys)).toHaveLength(3);
      await other.query('BEGIN');
      const { rows } = await other.query(`SELECT id FROM entity.entities WHERE parent_id = $1 AND type = 'RunSheets' AND timing_key IS NOT NULL FOR UPDATE NOWAIT`, [sessionId]);
      expect(rows).toHaveLength(3);
      await other.query('ROLLBACK');
    } finally {
      await client.query('ROLLBACK');
      client.release();
      other.release();
    }
  });

  test('when a batch also asks for the rows without a timing key under a session of 300 keyed runs, then it finds its 5 untimed run sheets through their own index, reading no keyed run', async () => {
    const { accountId, sessionId, cars } = await session(300);
    const keys = [timingLookupKey(sessionId, 'RunSheets', `${cars[0]}:0`), timingLookupKey(sessionId, 'RunSheets', `${cars[1]}:500`)];
    const parents = [untimedChildKey(sessionId.toUpperCase(), 'RunSheets'), untimedChildKey(randomUUID(), 'Laps')];
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      const found = await timingRowRepository.findByTimingKeysForUpdate(client, [accountId], keys, parents);
      expect(found.filter((r) => r.timing_key !== null).map((r) => r.timing_key)).toEqual([`${cars[0]}:0`]);
      expect(found.filter((r) => r.timing_key === null).map((r) => r.position).sort((a, b) => a - b)).toEqual([300, 301, 302, 303, 304]);

      const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${TIMING_KEY_LOOKUP_WITH_UNTIMED}`, [keys, [accountId], parents]);
      const plan = nodes((rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan);
      expect(plan.filter((n) => n['Index Name']).map((n) => n['Index Name'])).toEqual(['entities_timing_lookup', 'entities_untimed_children']);
      expect(plan.every((n) => !n['Rows Removed by Filter'] && !n['Rows Removed by Index Recheck'])).toBe(true);
      expect(plan.some((n) => n['Node Type'] === 'Seq Scan')).toBe(false);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
