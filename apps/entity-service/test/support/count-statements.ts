import type pg from 'pg';

/**
 * Counts every statement sent through the pool, by pool.query or by a client from pool.connect() (pool.query runs
 * on a client it lends itself, so counting at the clients counts each statement once). `count()` reads the total.
 */
export function countStatements(p: pg.Pool): { count: () => number } {
  let statements = 0;
  const wrap = <T extends { query: (...args: never[]) => unknown }>(target: T): void => {
    const original = target.query.bind(target) as (...args: unknown[]) => unknown;
    (target as { query: unknown }).query = (...args: unknown[]) => {
      statements++;
      return original(...args);
    };
  };
  const connect = p.connect.bind(p) as (callback?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => Promise<pg.PoolClient> | undefined;
  const counted = new WeakSet<pg.PoolClient>();
  const track = (client: pg.PoolClient | undefined): void => {
    if (client && !counted.has(client)) {
      wrap(client);
      counted.add(client);
    }
  };
  (p as { connect: unknown }).connect = (callback?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => {
    if (callback) return connect((err, client, done) => (track(client), callback(err, client, done)));
    return (connect() as Promise<pg.PoolClient>).then((client) => (track(client), client));
  };
  return { count: () => statements };
}
