import type pg from 'pg';

/** Runs `fn` inside BEGIN/COMMIT on one client; any throw rolls back and is rethrown. The client is always released. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return run(pool, 'BEGIN', fn);
}

/**
 * Runs `fn`'s reads in one read-only snapshot (REPEATABLE READ): every query sees the database as of its first one,
 * so a read made of several queries never mixes states before and after a concurrent write.
 */
export async function withReadSnapshot<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return run(pool, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn);
}

async function run<T>(pool: pg.Pool, begin: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackErr) {
      // A connection that cannot even roll back must not go back into the pool.
      broken = rollbackErr as Error;
    }
    throw err;
  } finally {
    client.release(broken);
  }
}
