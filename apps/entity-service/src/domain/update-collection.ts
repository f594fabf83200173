import { randomUUID } from 'node:crypto';
import { AppError, appendAll } from '@pitwall/service-kit';
import { childTypesOf, collectionNameOf, pascal, requireEntityType, type CollectionItemUpdate, type EntityChangedEvent, type EntityTypeDef } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { entityRepository as repo, type ScopeEntry } from '../data-access/entity-repository';
import type { EntityRow } from '../data-access/entity-row';
import { changedNames, entityChanged } from './entity-events';
import { notFound } from './entity-type';
import { applyUpdates, checkKnownReferences, ExistingEntities, referencedEntities } from './parameter-updates';
import { convertUpdates, type ConvertedUpdate, type ParameterSet, type ParameterValue } from './parameters';
import { checkEventCarEntry, type Parents } from './parents';
import type { ParameterSets } from './projection';
import { nextModifiedTime } from './store-context';
import { boundedScope, DEFAULT_MAX_DELETE_ENTITIES } from './delete-entity';
import { beforeDelete, beforeWrite, DEFAULT_RULE_LIMITS, rulesOf, type RuleLimits } from './type-rules';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One item, its parameter updates converted (or the error converting them), before anything is looked up. */
interface PreparedItem {
  item: CollectionItemUpdate;
  path: string;
  updates: ConvertedUpdate[];
  conversionError?: unknown;
  /** A new item of a two-parent type: the second parent it names (a GUID), if it names one. */
  secondParentId?: string;
}

/**
 * One `CollectionUpdateModels` entry of an update: each item without an Id is added to the owner's collection, each
 * with an Id is updated, or removed with `Delete`. Returns the events of the items, in item order.
 *
 * Set-based: the items are checked one by one in order (the first bad item is the answer, as before), against
 * entities looked up for all items at once; the rows are then written in a few statements, not one per item.
 */
export async function updateCollection(
  q: Queryable,
  accountId: string,
  type: EntityTypeDef,
  owner: EntityRow,
  name: string,
  items: CollectionItemUpdate[],
  sets: ParameterSets,
  now: Date,
  /** The bounds the child type's rules keep (the store's). */
  ruleLimits?: RuleLimits,
  /** Where the ids of what the deletes take with them (items and their descendants) are added, for the caller to clear references to them. */
  deleted: ScopeEntry[] = [],
  /** ENTITY_DELETE_MAX_ENTITIES: what the deletes of one request take with them, at most (`deleted` counted in). */
  maxDeleteEntities = DEFAULT_MAX_DELETE_ENTITIES,
): Promise<EntityChangedEvent[]> {
  const childType = childTypesOf(type).find((t) => collectionNameOf(t).toLowerCase() === name.toLowerCase());
  const path = `CollectionUpdateModels.${name}`;
  if (!childType) throw AppError.badRequest('The request body is not valid', { [path]: [`${type.plural} have no collection ${name}`] });
  const set = sets(childType);
  const second = childType.parents[1];
  const secondType = second ? requireEntityType(second.type) : undefined;
  const prepared = items.map((item, i) => prepareItem(set, childType, item, `${path}[${i}]`));

  // Everything the checks need, looked up once for all items.
  const existing = await ExistingEntities.load(q, accountId, [
    ...prepared.flatMap((p) => referencedEntities(p.updates)),
    ...(secondType ? prepared.flatMap((p) => (p.secondParentId ? [{ type: secondType.plural, id: p.secondParentId }] : [])) : []),
  ]);
  const itemIds = [...new Set(items.flatMap((item) => (item.Id && GUID.test(item.Id.toLowerCase()) ? [item.Id.toLowerCase()] : [])))];
  const children = new Map((await repo.findManyForUpdate(q, accountId, childType.plural, itemIds)).map((c) => [c.id, c]));

  // What the deletes take with them (the items and their descendants), looked up before any is written: the caller
  // clears references to them once the rows are gone, as a delete of the entity does.
  const deleting = prepared.flatMap((p) => (p.item.Delete && p.item.Id && children.get(p.item.Id.toLowerCase())?.parent_id === owner.id ? [p.item.Id.toLowerCase()] : []));
  // Within what the request's earlier collections' deletes left of the bound.
  if (deleting.length) appendAll(deleted, await boundedScope({ maxDeleteEntities: maxDeleteEntities - deleted.length }, q, accountId, deleting, `${deleting.length} ${name} items`, maxDeleteEntities));

  const writes = new CollectionWrites(q, accountId, childType, ruleLimits?.maxCollectionPairs ?? DEFAULT_RULE_LIMITS.maxCollectionPairs);
  const events: EntityChangedEvent[] = [];
  for (const { item, path: itemPath, updates, conversionError, secondParentId } of prepared) {
    if (conversionError) throw conversionError;
    checkKnownReferences(updates, `${itemPath}.ParameterUpdates`, existing);
    if (!item.Id) {
      if (item.Delete) throw AppError.badRequest('The request body is not valid', { [`${itemPath}.Delete`]: ['needs an Id'] });
      let parent2: string | null = null;
      if (second && secondType) {
        if (!secondParentId)
          throw AppError.badRequest('The request body is not valid', { [`${itemPath}.ParameterUpdates`]: [`${pascal(second.key)} (a GUID) is required to add to ${name}`] });
        if (!existing.has(secondType.plural, secondParentId)) throw notFound(secondType, secondParentId);
        parent2 = secondParentId;
      }
      const parents = { parent_id: owner.id, parent2_id: parent2 };
      const parameters: Record<string, ParameterValue> = {};
      applyUpdates(parameters, updates);
      // Per item, only what can refuse it or must see the table awaits: 10,000 items are 10,000 trips round the loop.
      if (writes.hasRules) {
        await writes.beforeRules();
        await beforeWrite(q, accountId, { type: childType, parameters, parents, updates, existing: null, updatesPath: `${itemPath}.ParameterUpdates` }, ruleLimits);
      }
      const pair = `${parents.parent_id}:${parents.parent2_id}`;
      if (!writes.eventCarChecked(pair)) await writes.checkEventCarEntry(pair, parents);
      const position = writes.takePosition(pair) ?? (await writes.firstPosition(pair, parents));
      const row: EntityRow = { id: randomUUID(), account_id: accountId, type: childType.plural, ...parents, position, parameters, created_at: now, modified_at: now };
      writes.insert(row);
      events.push(entityChanged('created', row, childType, Object.keys(parameters)));
      continue;
    }
    const child = children.get(item.Id.toLowerCase());
    if (!child || child.parent_id !== owner.id) throw AppError.badRequest('The request body is not valid', { [`${itemPath}.Id`]: [`is not an item of this ${type.name}'s ${name}`] });
    if (item.Delete) {
      if (writes.hasRules) {
        await writes.beforeRules();
        await beforeDelete(q, accountId, childType, child);
      }
      writes.delete(child.id);
      children.delete(child.id);
      existing.forget(childType.plural, child.id);
      events.push(entityChanged('deleted', child, childType, []));
      continue;
    }
    const parameters = { ...child.parameters };
    applyUpdates(parameters, updates);
    if (writes.hasRules) {
      await writes.beforeRules();
      await beforeWrite(q, accountId, { type: childType, parameters, parents: { parent_id: child.parent_id, parent2_id: child.parent2_id }, updates, existing: child, updatesPath: `${itemPath}.ParameterUpdates` }, ruleLimits);
    }
    const modifiedAt = nextModifiedTime(child.modified_at);
    writes.update(child.id, parameters, modifiedAt);
    // A later item naming the same Id sees this one's result, as if the items were written one after another.
    children.set(child.id, { ...child, parameters, modified_at: modifiedAt });
    events.push(entityChanged('updated', { ...child, parameters }, childType, changedNames(child.parameters, parameters)));
  }
  await writes.flush();
  return events;
}

function prepareItem(set: ParameterSet, childType: EntityTypeDef, item: CollectionItemUpdate, path: string): PreparedItem {
  // A new item of a two-parent type names its second parent (a run sheet's CarId) among its ParameterUpdates;
  // where that is not a parameter of the type, it is taken out before the parameters are converted.
  const second = item.Id ? undefined : childType.parents[1];
  const secondName = second ? pascal(second.key) : '';
  const secondUpdate = second ? item.ParameterUpdates?.find((u) => u.Name.toLowerCase() === secondName.toLowerCase()) : undefined;
  const parameterUpdates = secondUpdate && !set.get(secondName) ? item.ParameterUpdates?.filter((u) => u !== secondUpdate) : item.ParameterUpdates;
  const secondId = secondUpdate?.Value?.trim().toLowerCase();
  const prepared: PreparedItem = { item, path, updates: [], secondParentId: secondId && GUID.test(secondId) ? secondId : undefined };
  try {
    prepared.updates = convertUpdates(set, parameterUpdates, `${path}.ParameterUpdates`);
  } catch (err) {
    prepared.conversionError = err;
  }
  return prepared;
}

/**
 * The rows a collection update writes, held until `flush` writes them in one statement per kind. Types with rules
 * (registry `rules`) get the pending rows written before each rule runs, since a rule reads the table (an event's
 * second entry of the same car is refused because the first is there).
 */
class CollectionWrites {
  private inserts: EntityRow[] = [];
  private readonly updates = new Map<string, { id: string; parameters: Record<string, ParameterValue>; modifiedAt: Date }>();
  private deletes: string[] = [];
  private readonly nextPositions = new Map<string, number>();
  private readonly eventCarPairs = new Set<string>();
  /** The type has rules (registry `rules`): they run per item and see the rows written before them. */
  readonly hasRules: boolean;

  constructor(
    private readonly q: Queryable,
    private readonly accountId: string,
    private readonly type: EntityTypeDef,
    /** MAX_COLLECTION_PAIRS: parent pairs whose siblings one update locks (one lock each). */
    private readonly maxPairs: number,
  ) {
    this.hasRules = rulesOf(type).length > 0;
  }

  /**
   * New items are appended after their siblings, in item order: the siblings are locked and read once per parent pair
   * (`firstPosition`), the next ones counted on from there (`takePosition`, undefined until the pair was read).
   */
  takePosition(pair: string): number | undefined {
    const next = this.nextPositions.get(pair);
    if (next !== undefined) this.nextPositions.set(pair, next + 1);
    return next;
  }

  async firstPosition(pair: string, parents: Parents): Promise<number> {
    if (this.nextPositions.size >= this.maxPairs) {
      const detail = `adds ${this.type.plural} under more than ${this.maxPairs} parent pairs (MAX_COLLECTION_PAIRS: each is a lock of its transaction); split it into several updates`;
      throw AppError.badRequest(`The collection update ${detail}`, { CollectionUpdateModels: [detail] });
    }
    await repo.lockSiblings(this.q, this.accountId, this.type.plural, parents.parent_id, parents.parent2_id);
    const last = await repo.lastSibling(this.q, this.accountId, this.type.plural, parents.parent_id, parents.parent2_id);
    const next = last ? last.position + 1 : 0;
    this.nextPositions.set(pair, next + 1);
    return next;
  }

  /** The car's entry in the event is read once per (owner, car) pair. */
  eventCarChecked(pair: string): boolean {
    return this.eventCarPairs.has(pair);
  }

  async checkEventCarEntry(pair: string, parents: Parents): Promise<void> {
    await checkEventCarEntry(this.q, this.accountId, this.type, parents);
    this.eventCarPairs.add(pair);
  }

  async beforeRules(): Promise<void> {
    if (this.hasRules) await this.flush();
  }

  insert(row: EntityRow): void {
    this.inserts.push(row);
  }

  update(id: string, parameters: Record<string, ParameterValue>, modifiedAt: Date): void {
    this.updates.set(id, { id, parameters, modifiedAt });
  }

  delete(id: string): void {
    this.updates.delete(id);
    this.deletes.push(id);
  }

  async flush(): Promise<void> {
    await repo.deleteMany(this.q, this.deletes);
    await repo.updateParametersMany(this.q, [...this.updates.values()]);
    await repo.insertMany(this.q, this.inserts);
    this.deletes = [];
    this.updates.clear();
    this.inserts = [];
  }
}
