import { isDeepStrictEqual } from 'node:util';
import { AppError, appendAll, type FieldErrors } from '@pitwall/service-kit';
import type { CallerContext, EntityChangedEvent, EntityJson, UpdateModel } from '@pitwall/contracts';
import { entityRepository as repo, type ScopeEntry } from '../data-access/entity-repository';
import { changedNames, entityChanged } from './entity-events';
import { assertWriter, writableType, notFound } from './entity-type';
import { applyUpdates, associationParametersAfter, associationUpdates, checkReferences, rejectWithParameterErrors } from './parameter-updates';
import { convertUpdates } from './parameters';
import { loadParameterSets } from './parameter-sets';
import { parseProjection } from './projection';
import type { RenderedReply } from './read-cache';
import { entityReply, renderRows } from './read-model';
import { nextModifiedTime, write, type StoreContext } from './store-context';
import { beforeWrite } from './type-rules';
import { clearReferencesTo } from './delete-entity';
import { updateCollection } from './update-collection';

/**
 * Updates an entity's parameters and associations, and adds, updates or removes items of its collections
 * (`CollectionUpdateModels`); `LastModifiedTimeMaxAllowedValue` refuses it (409) when someone wrote it since.
 */
export async function updateEntity(ctx: StoreContext, caller: CallerContext, typeName: string, id: string, body: UpdateModel, bindingErrors?: FieldErrors): Promise<RenderedReply> {
  const type = writableType(typeName);
  assertWriter(caller);
  if (bindingErrors) await rejectWithParameterErrors(ctx.pool, caller.accountId, type, body, bindingErrors);
  return write(ctx, caller.accountId, async (q) => {
    const events: EntityChangedEvent[] = [];
    const row = await repo.findById(q, caller.accountId, type.plural, id, true);
    if (!row) throw notFound(type, id);
    if (body.LastModifiedTimeMaxAllowedValue) {
      const limit = Date.parse(body.LastModifiedTimeMaxAllowedValue);
      if (row.modified_at.getTime() > limit)
        throw AppError.conflict(`${type.name} ${id} was modified at ${row.modified_at.toISOString()}, after LastModifiedTimeMaxAllowedValue`);
    }
    const sets = await loadParameterSets(q, caller.accountId);
    const set = sets(type);
    const parameters = { ...row.parameters };
    const updates = [...convertUpdates(set, body.ParameterUpdates), ...associationUpdates(set, body, parameters)];
    applyUpdates(parameters, updates);
    const associationParameters = associationParametersAfter(set, body, row.association_parameters ?? {}, parameters);
    const parents = { parent_id: row.parent_id, parent2_id: row.parent2_id };
    await beforeWrite(q, caller.accountId, { type, parameters, parents, updates, existing: row }, ctx.ruleLimits);
    await checkReferences(q, caller.accountId, updates, 'ParameterUpdates');

    const modifiedAt = nextModifiedTime(row.modified_at);
    const deleted: ScopeEntry[] = [];
    for (const [name, items] of Object.entries(body.CollectionUpdateModels ?? {})) {
      appendAll(events, await updateCollection(q, caller.accountId, type, row, name, items, sets, modifiedAt, ctx.ruleLimits, deleted, ctx.maxDeleteEntities));
    }
    // References to what the collections deleted are cleared, as a delete of the item does: the entity's own here (it
    // is written next), every other one once it is.
    const gone = new Set(deleted.map((d) => d.id));
    for (const [name, value] of Object.entries(parameters)) if (typeof value === 'string' && gone.has(value) && set.get(name)?.type === 'Reference') parameters[name] = null;
    // An update that changes nothing (no parameter, association or collection item) writes nothing: the entity keeps
    // its modification time, so another client's LastModifiedTimeMaxAllowedValue still holds, and no event is sent.
    if (events.length === 0 && deleted.length === 0 && isDeepStrictEqual(parameters, row.parameters) && isDeepStrictEqual(associationParameters, row.association_parameters ?? {})) {
      const [entity] = await renderRows(q, caller.accountId, [row], parseProjection(type, undefined, sets), sets);
      return { result: entityReply(entity as EntityJson, row.modified_at), events };
    }
    await repo.updateParameters(q, row.id, parameters, modifiedAt, associationParameters);
    if (deleted.length) appendAll(events, await clearReferencesTo(q, caller.accountId, deleted));
    const updated = { ...row, parameters, association_parameters: associationParameters, modified_at: modifiedAt };
    events.unshift(entityChanged('updated', updated, type, changedNames(row.parameters, parameters)));
    const [entity] = await renderRows(q, caller.accountId, [updated], parseProjection(type, undefined, sets), sets);
    return { result: entityReply(entity as EntityJson, modifiedAt), events };
  });
}
