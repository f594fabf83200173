/**
 * A statement that each connection parses and plans once, then only binds and runs (node-postgres's named statements):
 * for the statements of the hot write paths, where parsing and planning were a fifth of a statement's cost. The name
 * must be unique to the text (`pw_<name>`); the text must not vary. The embedded server keeps each connection's
 * names apart in its one session.
 */
export interface PreparedStatement {
  name: string;
  text: string;
  values: unknown[];
}

export function prepared(name: string, text: string, values: unknown[]): PreparedStatement {
  return { name: `pw_${name}`, text, values };
}
