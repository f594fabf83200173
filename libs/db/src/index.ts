export { createPool, databaseAnswers, type PoolOptions } from './pool';
export { INDEXED_GENERIC_PLANS, prepared, type PreparedStatement } from './prepared';
export type { Queryable } from './queryable';
export { migrate, type Migration, type MigrateOptions, type MigrateResult } from './migrate';
export { BrokenConnection, DEFAULT_CONNECTION_WAIT_MS, inTransaction, withConnection, withReadSnapshot, withTransaction, type ConnectionWait } from './transaction';
export { startEmbeddedPostgres, type EmbeddedPostgres, type EmbeddedPostgresOptions } from './embedded/embedded-postgres';
