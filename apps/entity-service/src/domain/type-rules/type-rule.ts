import type { EntityTypeDef } from '@pitwall/contracts';
import { DEFAULT_MAX_MATH_PARAMS } from '@pitwall/expressions';
import type { Queryable } from '@pitwall/db';
import type { EntityRow } from '../../data-access/entity-row';
import type { ConvertedUpdate, ParameterValue } from '../parameters';
import type { Parents } from '../parents';

/** A create or update of one entity: its ParameterUpdates are applied, nothing is written yet. */
export interface EntityWrite {
  type: EntityTypeDef;
  /** What will be stored: a rule may set values (an event car's CarId) or refuse them. */
  parameters: Record<string, ParameterValue>;
  parents: Parents;
  /** The converted ParameterUpdates (and association changes) of the request. */
  updates: ConvertedUpdate[];
  /** The stored entity on update; null on create. */
  existing: EntityRow | null;
  /** Where the entity's ParameterUpdates are in the request body, for error paths (default `ParameterUpdates`). */
  updatesPath?: string;
}

/** The bounds the rules keep (the entity-service's settings). */
export interface RuleLimits {
  /** Math channels one account may hold (`MAX_MATH_CHANNELS`): each write and read looks at what they all read (each expression compiled once and kept: `mathReadsOf`). */
  maxMathChannels: number;
  /**
   * Distinct parameters (`param("Name")`) one math channel may read through the definitions it reads
   * (`MAX_MATH_PARAMS`): a write that would leave it, or bring one reading it, past this is a 400.
   */
  maxMathParams: number;
  /**
   * The longest Layout of a viewer layout, in characters (`MAX_VIEWER_LAYOUT_LENGTH`): 32 KiB by default, the longest
   * link the viewer reads (a view it writes is never longer).
   */
  maxViewerLayoutLength: number;
  /** Viewer layouts one account may hold (`MAX_VIEWER_LAYOUTS`): the viewer lists them all at sign-in. */
  maxViewerLayouts: number;
  /**
   * Custom parameter definitions one account may hold, all types together (`MAX_PARAMETER_DEFINITIONS`): every request
   * of the account reads them all, and an entity read in full writes each of its type's.
   */
  maxParameterDefinitions: number;
  /**
   * Distinct (parent, second parent) pairs one collection update may add items under (`MAX_COLLECTION_PAIRS`): each
   * is one lock of the transaction, and PostgreSQL's lock table holds about 12,800 for the whole cluster by default.
   */
  maxCollectionPairs: number;
}

/** The longest Layout MAX_VIEWER_LAYOUT_LENGTH may allow: the longest link the viewer reads (its LINK_MAX_LENGTH), so a layout saved is one it can apply. */
export const VIEWER_LAYOUT_MAX_LENGTH = 32 * 1024;

export const DEFAULT_RULE_LIMITS: RuleLimits = { maxMathChannels: 1000, maxMathParams: DEFAULT_MAX_MATH_PARAMS, maxViewerLayoutLength: VIEWER_LAYOUT_MAX_LENGTH, maxViewerLayouts: 1000, maxParameterDefinitions: 2000, maxCollectionPairs: 1000 };

/**
 * What one type requires beyond the generic rules, declared by name on its registry entry (`rules`) and run by the
 * generic use cases at fixed points. Each hook runs inside the write's transaction and refuses with an AppError.
 */
export interface TypeRule {
  /** Before a create or update of an entity of the type is written (also an item of a CollectionUpdateModels). */
  beforeWrite?(q: Queryable, accountId: string, write: EntityWrite, limits: RuleLimits): Promise<void>;
  /** Before an entity of the type is deleted. */
  beforeDelete?(q: Queryable, accountId: string, entity: EntityRow): Promise<void>;
}
