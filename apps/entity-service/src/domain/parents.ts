import { AppError, type FieldErrors } from '@pitwall/service-kit';
import { requireEntityType, type EntityTypeDef } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { entityRepository as repo } from '../data-access/entity-repository';
import { notFound } from './entity-type';

/** An entity's parent links: its first parent (the collection it is in) and, for two-parent types, its second. */
export interface Parents {
  parent_id: string | null;
  parent2_id: string | null;
}

/** Binds parent ids (case-insensitive keys) to the type's parents and checks each is the caller's. */
export async function resolveParents(q: Queryable, accountId: string, type: EntityTypeDef, given: Record<string, string>, requireAll: boolean): Promise<Parents> {
  const byLower = new Map(Object.entries(given).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]));
  const errors: FieldErrors = {};
  const ids: (string | null)[] = [];
  for (const parent of type.parents) {
    const id = byLower.get(parent.key.toLowerCase());
    byLower.delete(parent.key.toLowerCase());
    if (!id && requireAll) errors[parent.key] = ['is required'];
    ids.push(id ?? null);
  }
  for (const key of byLower.keys()) errors[key] = [type.parents.length ? `is not a parent of ${type.plural}; expected ${type.parents.map((p) => p.key).join(', ')}` : `${type.plural} have no parent`];
  if (!requireAll && type.parents.length > 0 && ids.every((id) => id === null)) errors[type.parents[0]?.key as string] = [type.parents.length === 1 ? 'is required' : `at least one of ${type.parents.map((p) => p.key).join(', ')} is required`];
  if (Object.keys(errors).length) throw AppError.badRequest('The parent ids are not valid', errors);
  for (const [i, parent] of type.parents.entries()) {
    const id = ids[i];
    if (!id) continue;
    const parentType = requireEntityType(parent.type);
    if (!(await repo.findById(q, accountId, parentType.plural, id))) throw notFound(parentType, id);
  }
  return { parent_id: ids[0] ?? null, parent2_id: ids[1] ?? null };
}

/** Setups and car data need the car entered in the event (directly, or through the session's event): registry `requiresEventCar`. */
export async function checkEventCarEntry(q: Queryable, accountId: string, type: EntityTypeDef, parents: Parents): Promise<void> {
  if (!type.requiresEventCar || !parents.parent_id || !parents.parent2_id) return;
  let eventId = parents.parent_id;
  if (type.requiresEventCar === 'session') {
    const session = await repo.findById(q, accountId, 'Sessions', parents.parent_id);
    eventId = session?.parent_id ?? '';
  }
  if (!(await repo.eventCarExists(q, accountId, eventId, parents.parent2_id)))
    throw AppError.badRequest(`Car ${parents.parent2_id} is not entered in the event: add an EventCar first`, { carId: ['the car is not entered in the event'] });
}
