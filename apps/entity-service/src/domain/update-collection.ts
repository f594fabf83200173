import { randomUUID } from 'node:crypto';
import { AppError } from '@pitwall/service-kit';
import { childTypesOf, collectionNameOf, pascal, requireEntityType, type CollectionItemUpdate, type EntityChangedEvent, type EntityTypeDef } from '@pitwall/contracts';
import { entityRepository as repo, type EntityRow, type Queryable } from '../data-access/entity-repository';
import { changedNames, entityChanged } from './entity-events';
import { notFound } from './entity-type';
import { applyUpdates, checkReferences } from './parameter-updates';
import { convertUpdates, type ParameterValue } from './parameters';
import { checkEventCarEntry } from './parents';
import { insertPosition } from './positions';
import type { ParameterSets } from './projection';
import { nextModifiedTime } from './store-context';
import { beforeDelete, beforeWrite } from './type-rules';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * One `CollectionUpdateModels` entry of an update: each item without an Id is added to the owner's collection, each
 * with an Id is updated, or removed with `Delete`. Returns the events of the items, in item order.
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
): Promise<EntityChangedEvent[]> {
  const childType = childTypesOf(type).find((t) => collectionNameOf(t).toLowerCase() === name.toLowerCase());
  const path = `CollectionUpdateModels.${name}`;
  if (!childType) throw AppError.badRequest('The request body is not valid', { [path]: [`${type.plural} have no collection ${name}`] });
  const set = sets(childType);
  const events: EntityChangedEvent[] = [];
  for (const [i, item] of items.entries()) {
    const itemPath = `${path}[${i}]`;
    // A new item of a two-parent type names its second parent (a run sheet's CarId) among its ParameterUpdates;
    // where that is not a parameter of the type, it is taken out before the parameters are converted.
    const second = item.Id ? undefined : childType.parents[1];
    const secondName = second ? pascal(second.key) : '';
    const secondUpdate = second ? item.ParameterUpdates?.find((u) => u.Name.toLowerCase() === secondName.toLowerCase()) : undefined;
    const parameterUpdates = secondUpdate && !set.get(secondName) ? item.ParameterUpdates?.filter((u) => u !== secondUpdate) : item.ParameterUpdates;
    const updates = convertUpdates(set, parameterUpdates, `${itemPath}.ParameterUpdates`);
    await checkReferences(q, accountId, updates, `${itemPath}.ParameterUpdates`);
    if (!item.Id) {
      if (item.Delete) throw AppError.badRequest('The request body is not valid', { [`${itemPath}.Delete`]: ['needs an Id'] });
      let parent2: string | null = null;
      if (second) {
        const id = secondUpdate?.Value?.trim().toLowerCase();
        if (!id || !GUID.test(id))
          throw AppError.badRequest('The request body is not valid', { [`${itemPath}.ParameterUpdates`]: [`${secondName} (a GUID) is required to add to ${name}`] });
        const secondType = requireEntityType(second.type);
        if (!(await repo.findById(q, accountId, secondType.plural, id))) throw notFound(secondType, id);
        parent2 = id;
      }
      const parents = { parent_id: owner.id, parent2_id: parent2 };
      const parameters: Record<string, ParameterValue> = {};
      applyUpdates(parameters, updates);
      await checkEventCarEntry(q, accountId, childType, parents);
      await beforeWrite(q, accountId, { type: childType, parameters, parents, updates, existing: null });
      const position = await insertPosition(q, accountId, childType, parents, null);
      const row: EntityRow = { id: randomUUID(), account_id: accountId, type: childType.plural, ...parents, position, parameters, created_at: now, modified_at: now };
      await repo.insert(q, row);
      events.push(entityChanged('created', row, childType, Object.keys(parameters)));
      continue;
    }
    const child = await repo.findById(q, accountId, childType.plural, item.Id.toLowerCase(), true);
    if (!child || child.parent_id !== owner.id) throw AppError.badRequest('The request body is not valid', { [`${itemPath}.Id`]: [`is not an item of this ${type.name}'s ${name}`] });
    if (item.Delete) {
      await beforeDelete(q, accountId, childType, child);
      await repo.delete(q, child.id);
      events.push(entityChanged('deleted', child, childType, []));
      continue;
    }
    const parameters = { ...child.parameters };
    applyUpdates(parameters, updates);
    await beforeWrite(q, accountId, { type: childType, parameters, parents: { parent_id: child.parent_id, parent2_id: child.parent2_id }, updates, existing: child });
    await repo.updateParameters(q, child.id, parameters, nextModifiedTime(child.modified_at));
    events.push(entityChanged('updated', { ...child, parameters }, childType, changedNames(child.parameters, parameters)));
  }
  return events;
}
