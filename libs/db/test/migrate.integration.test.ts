import type pg from 'pg';
import { createLogger } from '@pitwall/service-kit';
import { createPool, migrate, type Migration } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

const logger = createLogger('db-test');
const migrations: Migration[] = [
  { version: 1, name: 'create cars', sql: 'CREATE TABLE garage.cars (id serial PRIMARY KEY, name text NOT NULL)' },
  // Inserting a row makes a double application visible, not just an error.
  { version: 2, name: 'seed', sql: "INSERT INTO garage.cars (name) VALUES ('first')" },
];

describe('migrate', () => {
  let db: TestDatabase;
  const pools: pg.Pool[] = [];
  const pool = () => {
    const p = createPool({ url: db.url, applicationName: 'db-test', logger, max: 2 });
    pools.push(p);
    return p;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await db.drop();
  });

  test('when run on an empty database and again after a restart, then each migration is applied once', async () => {
    const first = pool();
    expect(await migrate(first, { schema: 'garage', migrations, logger })).toEqual({ applied: [1, 2] });
    await first.end();
    pools.pop();

    const restarted = pool();
    expect(await migrate(restarted, { schema: 'garage', migrations, logger })).toEqual({ applied: [] });
    const { rows } = await restarted.query('SELECT count(*)::int AS n FROM garage.cars');
    expect(rows[0].n).toBe(1);
  });

  test('when a new migration is added, then only it is applied', async () => {
    const next = [...migrations, { version: 3, name: 'add colour', sql: 'ALTER TABLE garage.cars ADD COLUMN colour text' }];
    expect(await migrate(pool(), { schema: 'garage', migrations: next, logger })).toEqual({ applied: [3] });
  });

  test('when two instances migrate the same schema at once, then each migration runs exactly once', async () => {
    const list: Migration[] = [
      { version: 1, name: 'create laps', sql: 'CREATE TABLE pits.laps (n int)' },
      { version: 2, name: 'seed', sql: 'INSERT INTO pits.laps VALUES (1)' },
      { version: 3, name: 'seed again', sql: 'INSERT INTO pits.laps VALUES (2)' },
    ];
    const results = await Promise.all([migrate(pool(), { schema: 'pits', migrations: list, logger }), migrate(pool(), { schema: 'pits', migrations: list, logger })]);
    expect([...results[0].applied, ...results[1].applied].sort()).toEqual([1, 2, 3]);
    const { rows } = await pool().query('SELECT count(*)::int AS n FROM pits.laps');
    expect(rows[0].n).toBe(2);
  });

  test('when run with until, then it stops below that version, and a schema another instance already moved past it is no error', async () => {
    const list: Migration[] = [
      { version: 1, name: 'create stints', sql: 'CREATE TABLE stint.laps (n int)' },
      { version: 2, name: 'drop stints', sql: 'DROP TABLE stint.laps' },
    ];
    expect(await migrate(pool(), { schema: 'stint', migrations: list, logger, until: 1 })).toEqual({ applied: [1] });
    expect((await pool().query(`SELECT to_regclass('stint.laps') IS NOT NULL AS present`)).rows[0].present).toBe(true);
    // Another instance runs the whole list; a later step bounded by until then finds nothing to do and no fault.
    expect(await migrate(pool(), { schema: 'stint', migrations: list, logger })).toEqual({ applied: [2] });
    expect(await migrate(pool(), { schema: 'stint', migrations: list, logger, until: 1 })).toEqual({ applied: [] });
  });

  test('when an applied migration was changed, then migrate refuses', async () => {
    const changed = [migrations[0], { ...migrations[1], sql: "INSERT INTO garage.cars (name) VALUES ('other')" }];
    await expect(migrate(pool(), { schema: 'garage', migrations: changed, logger })).rejects.toThrow(/migration 2 \(seed\) was changed/);
  });

  test('when an applied migration is missing from the list, then migrate refuses', async () => {
    await expect(migrate(pool(), { schema: 'garage', migrations: migrations.slice(0, 1), logger })).rejects.toThrow(/does not know/);
  });

  test('when a migration fails, then it is rolled back and not recorded', async () => {
    const list: Migration[] = [{ version: 1, name: 'broken', sql: 'CREATE TABLE broken.a (id int); SELECT * FROM broken.nope' }];
    await expect(migrate(pool(), { schema: 'broken', migrations: list, logger })).rejects.toThrow(/migration 1 \(broken\) failed/);
    const { rows } = await pool().query("SELECT to_regclass('broken.a') AS t, (SELECT count(*)::int FROM broken.schema_migrations) AS n");
    expect(rows[0]).toEqual({ t: null, n: 0 });
  });
});
