import { entityType, type CallerContext, type EntityChangedEvent } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { attachedFileRepository } from '../data-access/attached-file-repository';
import { entityRepository as repo } from '../data-access/entity-repository';
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
    const scope = await repo.deletionScope(q, caller.accountId, found.id);
    const cleared = await clearReferencesTo(q, caller.accountId, scope);
    // The attached files go with their entities (cascade); their blobs go once nothing else refers to them.
    const blobKeys = await attachedFileRepository.blobKeysOf(q, scope);
    await repo.delete(q, found.id);
    return { result: blobKeys, events: [entityChanged('deleted', found, type, []), ...cleared] };
  });
  await ctx.releaseBlobs(released);
}

/** Sets every Reference parameter of the account that points at one of `ids` to null; returns the update events. */
export async function clearReferencesTo(q: Queryable, accountId: string, ids: string[]): Promise<EntityChangedEvent[]> {
  const gone = new Set(ids);
  const referrers = await repo.referringTo(q, accountId, ids);
  if (referrers.length === 0) return [];
  const sets = await loadParameterSets(q, accountId);
  const events: EntityChangedEvent[] = [];
  for (const row of referrers) {
    const type = entityType(row.type);
    if (!type) continue;
    const set = sets(type);
    const names = Object.entries(row.parameters)
      .filter(([name, value]) => typeof value === 'string' && gone.has(value) && set.get(name)?.type === 'Reference')
      .map(([name]) => name);
    if (names.length === 0) continue;
    const parameters = { ...row.parameters, ...Object.fromEntries(names.map((n) => [n, null])) };
    const modifiedAt = nextModifiedTime(row.modified_at);
    await repo.updateParameters(q, row.id, parameters, modifiedAt);
    events.push(entityChanged('updated', { ...row, parameters, modified_at: modifiedAt }, type, names));
  }
  return events;
}
