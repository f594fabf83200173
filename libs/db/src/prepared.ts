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
 */
export interface PreparedStatement {
  name: string;
  text: string;
  values: unknown[];
}

export function prepared(name: string, text: string, values: unknown[]): PreparedStatement {
  return { name: `pw_${name}`, text, values };
}
