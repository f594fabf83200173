/**
 * A statement that each connection parses and plans once, then only binds and runs (node-postgres's named statements):
 * for the statements of the hot write paths, where parsing and planning were a fifth of a statement's cost. The name
 * must be unique to the text (`pw_<name>`); the text must not vary. The embedded server keeps each connection's
 * names apart in its one session.
 *
 * Not for a statement that joins an array parameter against a table that grows (`... IN (SELECT * FROM unnest($1))`,
 * `UPDATE ... FROM unnest(...)`, `id = ANY($1)` beside another indexed condition): after five executions PostgreSQL
 * may keep a generic plan, made without the array's length and with the table's size at that time. One made while the
 * table was small scans it whole and hashes it, and keeps doing so on that connection as it grows (a timing batch's
 * lookups went from 0.1 to 3-12 ms that way within a minute of a fresh database). Sent unnamed, such a statement is
 * planned on each call with its arrays and the table as they are, and finds its rows through the index.
 *
 * The exception: a statement that only ever runs in a transaction begun with `INDEXED_GENERIC_PLANS` (a timing
 * batch's lookups and updates). There its generic plan is used from the first call, and is made with sequential
 * scans, hash joins and merge joins off, so it looks its rows up through the indexes whatever the table's size when
 * it was made. Planning was a third of PostgreSQL's time for those statements (docs/benchmarks.md, session 21).
 */
export interface PreparedStatement {
  name: string;
  text: string;
  values: unknown[];
}

export function prepared(name: string, text: string, values: unknown[]): PreparedStatement {
  return { name: `pw_${name}`, text, values };
}

/**
 * Settings for a transaction whose statements are all keyed lookups and writes (one row per key, through an index):
 * put them after its `BEGIN` (`BEGIN; ${INDEXED_GENERIC_PLANS}; ...`). Its prepared statements are planned once per
 * connection (a generic plan, used from the first call) and that plan reads by index: a young database's small table
 * would otherwise get a plan that scans it whole, kept as it grows (see `prepared`). They hold until the transaction ends.
 */
export const INDEXED_GENERIC_PLANS = 'SET LOCAL plan_cache_mode = force_generic_plan; SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off';
