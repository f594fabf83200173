import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase, testPool } from '@pitwall/db/testing';
import { createLogger } from '@pitwall/service-kit';
import { SIMULATION_SCHEMA, simulationMigrations } from '../../src/data-access/migrations';

/** Migration 6 on the real PostgreSQL: callbacks stored before registrations refused user:pass@ lose it. */
describe('simulation migration 6: callback URLs without credentials', () => {
  let database: TestDatabase;
  let pool: Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = testPool(database.url);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  test('when callbacks were stored with a user name or password in their URL, then the migration strips it and leaves every other URL as it was', async () => {
    const options = { schema: SIMULATION_SCHEMA, migrations: simulationMigrations, logger: createLogger('test') };
    await migrate(pool, { ...options, until: 5 });
    const stored = [
      ['https://ops:s3cret@hooks.example/pitwall', 'https://hooks.example/pitwall'],
      ['http://token@10.0.0.4:8080/hook?x=1', 'http://10.0.0.4:8080/hook?x=1'],
      ['https://user:p%40ss@word@hooks.example/a@b', 'https://hooks.example/a@b'],
      ['https://hooks.example/path?mail=a@b.example', 'https://hooks.example/path?mail=a@b.example'],
      ['https://hooks.example/#frag@x', 'https://hooks.example/#frag@x'],
    ] as const;
    const ids = stored.map(() => randomUUID());
    for (const [index, [url]] of stored.entries())
      await pool.query(`INSERT INTO simulation.callbacks (id, account_id, url, sealed_secret) VALUES ($1, $2, $3, '\\x00')`, [ids[index], randomUUID(), url]);

    expect((await migrate(pool, { ...options, until: 6 })).applied).toEqual([6]);
    const { rows } = await pool.query<{ id: string; url: string }>('SELECT id, url FROM simulation.callbacks');
    const byId = new Map(rows.map((r) => [r.id, r.url]));
    expect(ids.map((id) => byId.get(id))).toEqual(stored.map(([, cleaned]) => cleaned));
    // The connections gained the origin their credentials are bound to: none for those stored before.
    await pool.query(`INSERT INTO simulation.connections (account_id, sealed) VALUES ($1, '\\x00')`, [randomUUID()]);
    expect((await pool.query('SELECT origin FROM simulation.connections')).rows).toEqual([{ origin: null }]);
  });
});
