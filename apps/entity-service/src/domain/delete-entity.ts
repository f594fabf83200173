import { ENTITY_TYPES, entityType, type CallerContext, type EntityChangedEvent } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { AppError } from '@pitwall/service-kit';
import { attachedFileRepository } from '../data-access/attached-file-repository';
import { entityRepository as repo, type ScopeEntry } from '../data-access/entity-repository';
import { entityChanged } from './entity-events';
import { assertWriter, writableType, notFound } from './entity-type';
import { loadParameterSets } from './parameter-sets';
import { nextModifiedTime, write, type StoreContext } from './store-context';
import { beforeDelete } from './type-rules';

/**
 * Deletes an entity with its descendants (both parent links cascade) and their attached files, and sets to null every
 * Reference parameter of the account that pointed at any of them.
 */
export async function deleteEntity(ctx: StoreContext, caller: CallerContext, typeName: string, id: string): Promise<void> {
  const type = writableType(typeName);
  assertWriter(caller);
  const released = await write(ctx, caller.accountId, async (q) => {
    const found = await repo.findById(q, caller.accountId, type.plural, id, true);
    if (!found) throw notFound(type, id);
    await beforeDelete(q, caller.accountId, type, found);
    // References to what goes (a run sheet's DriverId when the driver is deleted) are cleared, not left dangling.
    const scope = await boundedScope(ctx, q, caller.accountId, found.id, `the ${type.name} ${found.id} with everything below it`);
    const cleared = await clearReferencesTo(q, caller.accountId, scope);
    // The attached files go with their entities (cascade); their blobs go once nothing else refers to them.
    const blobKeys = await attachedFileRepository.blobKeysOf(q, scope.map((s) => s.id));
    await repo.delete(q, found.id);
    return { result: blobKeys, events: [entityChanged('deleted', found, type, []), ...cleared] };
  });
  await ctx.releaseBlobs(released);
}

/** Entities one delete may remove, the entity itself and everything below it (ENTITY_DELETE_MAX_ENTITIES) when the service is not told otherwise. */
export const DEFAULT_MAX_DELETE_ENTITIES = 50_000;

/**
 * What deleting `rootIds` removes (they and everything below them, through both parent links), refused with a 413
 * naming ENTITY_DELETE_MAX_ENTITIES when it is more than one request may remove: counted as it is walked, before any
 * row is locked or changed. A delete's cost (its references cleared, the cascade) grows with it, and past the bus's
 * deadline the transaction would only roll back, every retry again.
 */
export async function boundedScope(ctx: Pick<StoreContext, 'maxDeleteEntities'>, q: Queryable, accountId: string, rootIds: string | readonly string[], what: string, setting = ctx.maxDeleteEntities ?? DEFAULT_MAX_DELETE_ENTITIES): Promise<ScopeEntry[]> {
  // What is left of the bound (a collection update's earlier deletes took the rest), and the setting it came from.
  const max = Math.max(0, ctx.maxDeleteEntities ?? DEFAULT_MAX_DELETE_ENTITIES);
  const scope = await repo.deletionScope(q, accountId, rootIds, max);
  if (scope.length > max)
    throw new AppError(
      413,
      `Deleting ${what} would remove more than ${setting} entities in one request (ENTITY_DELETE_MAX_ENTITIES is ${setting}): delete what is below first, in parts, or raise ENTITY_DELETE_MAX_ENTITIES together with BUS_TIMEOUT_MS. Nothing was deleted`,
    );
  return scope;
}

/**
 * Sets every Reference parameter of the account that points at one of `scope` to null; returns the update events. Only
 * the types with a Reference parameter to one of the scope's types are looked at, and of them only those parameters: a
 * reference names an entity of its definition's type (checked at every write; a definition holding values cannot be
 * redefined), so the rest of the account cannot hold one.
 */
export async function clearReferencesTo(q: Queryable, accountId: string, scope: readonly ScopeEntry[]): Promise<EntityChangedEvent[]> {
  if (scope.length === 0) return [];
  const gone = new Set(scope.map((s) => s.id));
  const goneTypes = new Set(scope.map((s) => s.type.toLowerCase()));
  const ids = [...gone];
  const sets = await loadParameterSets(q, accountId);
  const events: EntityChangedEvent[] = [];
  for (const type of ENTITY_TYPES) {
    const names = sets(type).all().filter((p) => p.type === 'Reference' && p.references && goneTypes.has((entityType(p.references)?.plural ?? p.references).toLowerCase())).map((p) => p.name);
    if (names.length === 0) continue;
    for (const row of await repo.referringTo(q, accountId, type.plural, names, ids)) {
      const cleared = names.filter((name) => {
        const value = row.parameters[name];
        return typeof value === 'string' && gone.has(value);
      });
      if (cleared.length === 0) continue;
      const parameters = { ...row.parameters, ...Object.fromEntries(cleared.map((n) => [n, null])) };
      const modifiedAt = nextModifiedTime(row.modified_at);
      await repo.updateParameters(q, row.id, parameters, modifiedAt);
      events.push(entityChanged('updated', { ...row, parameters, modified_at: modifiedAt }, type, cleared));
    }
  }
  return events;
}
