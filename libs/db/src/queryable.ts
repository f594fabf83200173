import type { PreparedStatement } from './prepared';

/** Anything that runs a query: a pool, or a client inside a transaction. Repositories take one, so a caller decides the transaction. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(text: string | PreparedStatement, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}
