import type { ParameterValue } from '../domain/parameters';

/** One row of `entity.entities`: every entity of every registry type. */
export interface EntityRow {
  id: string;
  account_id: string;
  type: string;
  parent_id: string | null;
  parent2_id: string | null;
  position: number;
  parameters: Record<string, ParameterValue>;
  /** Parameters given with associations (`ChampionshipAssociationsToAdd` items); none when absent. */
  association_parameters?: AssociationParameters;
  created_at: Date;
  modified_at: Date;
}

/** Reference parameter name (`ChampionshipId`) → the entity the association names and the parameters given with it. */
export type AssociationParameters = Record<string, { Id: string; Parameters: Record<string, string> }>;

/** The columns of an `EntityRow`, in the order the inserts give them. */
export const ENTITY_COLUMNS = 'id, account_id, type, parent_id, parent2_id, position, parameters, association_parameters, created_at, modified_at';

/** What rendering needs: reads that only render skip the timestamps, whose parsing was a tenth of a big read's CPU. */
export const RENDER_COLUMNS = 'id, account_id, type, parent_id, parent2_id, position, parameters, association_parameters';

export type RenderRow = Omit<EntityRow, 'created_at' | 'modified_at'>;

/**
 * The rows of `accountId` among rows found by id. The lookups by a list of ids on the write paths (a timing update's
 * rows, a write's references) leave the account out of their WHERE and check it here, so the primary key is the
 * only index that fits them. Given `account_id = $2` as well, PostgreSQL may combine the key with an index on
 * account_id, which reads every entry of the account; it does so when the table's statistics lag its growth (never
 * analysed, or an account that grew faster than autovacuum analyses: a live session's), since it then takes one
 * account for half a percent of the rows. A timing update's five ids read 19,000 entries that way, 0.5 ms a call and
 * growing with the session. (Lookups by parent keep the account: without it, and without statistics, PostgreSQL
 * was seen to scan the type column of another index across every account instead.)
 */
export function ofAccount<R extends { account_id: string }>(rows: R[], accountId: string): R[] {
  return rows.filter((r) => r.account_id === accountId);
}
