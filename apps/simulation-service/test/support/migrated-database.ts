import type { Pool } from 'pg';
import { migrate } from '@pitwall/db';
import { createTestDatabase, type TestDatabase, testPool } from '@pitwall/db/testing';
import { createLogger } from '@pitwall/service-kit';
import { SIMULATION_SCHEMA, simulationMigrations } from '../../src/data-access/migrations';

/** A suite's own PostgreSQL database with the simulation-service's schema migrated (its pool set before the tests). */
export interface MigratedDatabase {
  readonly pool: Pool;
}

/**
 * Before the suite's tests: a fresh database on the real PostgreSQL, a pool of `connections` to it and the service's
 * migrations run; after them: the pool ended and the database dropped. Nothing of the service runs on it.
 */
export function useMigratedDatabase(connections: number): MigratedDatabase {
  let database: TestDatabase | undefined;
  let pool: Pool | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = testPool(database.url, connections);
    await migrate(pool, { schema: SIMULATION_SCHEMA, migrations: simulationMigrations, logger: createLogger('test') });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });
  return {
    get pool(): Pool {
      if (!pool) throw new Error('the migrated database is set up before the tests');
      return pool;
    },
  };
}
