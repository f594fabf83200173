const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** The table a messaging part keeps in its owning schema (`entity.outbox`); the schema is checked, as `migrate` does. */
function tableOf(schema: string, table: string): string {
  if (!IDENTIFIER.test(schema)) throw new Error(`messaging: invalid schema name "${schema}"`);
  return `${schema}.${table}`;
}

export const outboxTable = (schema: string): string => tableOf(schema, 'outbox');
export const inboxTable = (schema: string): string => tableOf(schema, 'inbox');
