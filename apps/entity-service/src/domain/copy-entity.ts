import { randomUUID } from 'node:crypto';
import { AppError } from '@pitwall/service-kit';
import { entityType, type CreateModel, type EntityChangedEvent, type EntityTypeDef } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { attachedFileRepository } from '../data-access/attached-file-repository';
import { entityRepository as repo } from '../data-access/entity-repository';
import type { EntityRow } from '../data-access/entity-row';
import { entityChanged } from './entity-events';
import type { Parents } from './parents';

/** The entity a create copies its parameters from: `CopyFromId`, or the last sibling for `CopyFromLast`; none otherwise. */
export async function copySource(q: Queryable, accountId: string, type: EntityTypeDef, parents: Parents, body: CreateModel): Promise<EntityRow | undefined> {
  if (body.CopyFromId) {
    const source = await repo.findById(q, accountId, type.plural, body.CopyFromId.toLowerCase());
    if (!source) throw AppError.badRequest('The request body is not valid', { CopyFromId: [`${type.name} ${body.CopyFromId} was not found`] });
    return source;
  }
  if (body.CopyFromLast) return repo.lastListed(q, accountId, type.plural, parents.parent_id, parents.parent2_id, type.orderByParameter);
  return undefined;
}

/** Entities one `CopyAll` may copy (ENTITY_COPY_MAX_ENTITIES) when the service is not told otherwise. */
export const DEFAULT_MAX_COPY_ENTITIES = 50_000;

/**
 * `CopyAll`: every descendant of `fromId` is copied under `toId` (parents before children) with its attached files;
 * returns one created event per copy, in that order. More than `max` descendants is a 413, counted before any is read.
 */
export async function copyDescendants(q: Queryable, accountId: string, fromId: string, toId: string, now: Date, max = DEFAULT_MAX_COPY_ENTITIES): Promise<EntityChangedEvent[]> {
  const count = await repo.countDescendants(q, accountId, fromId, max);
  if (count > max)
    throw new AppError(413, `CopyAll would copy more than ${max} entities below ${fromId}, more than one create may copy (ENTITY_COPY_MAX_ENTITIES is ${max}): copy the parts separately, or create the entity without CopyAll`);
  const rows = await repo.descendants(q, accountId, fromId);
  const idMap = new Map([[fromId, toId], ...rows.map((d) => [d.id, randomUUID()] as [string, string])]);
  const remap = (id: string | null) => (id !== null && idMap.has(id) ? (idMap.get(id) as string) : id);
  const events: EntityChangedEvent[] = [];
  const copies: EntityRow[] = [];
  for (const d of rows) {
    // References into the copied subtree (a run sheet's SetupId when the event is copied) follow the copy.
    const parameters = Object.fromEntries(Object.entries(d.parameters).map(([k, v]) => [k, typeof v === 'string' ? remap(v) : v]));
    const row: EntityRow = { ...d, id: idMap.get(d.id) as string, parent_id: remap(d.parent_id), parent2_id: remap(d.parent2_id), parameters, created_at: now, modified_at: now };
    copies.push(row);
    const type = entityType(row.type);
    if (type) events.push(entityChanged('created', row, type, Object.keys(row.parameters)));
  }
  // Parents come before children in `rows`, and one statement inserts them all, so every parent link holds.
  await repo.insertMany(q, copies);
  // A copy under another event (a session copied into the next round) keeps its run sheets' and car data's cars: each
  // must be entered there, as for any create of them (read after the insert: a copied session's event is its copy's).
  const needingEntry = new Map<string, { parentId: string; carId: string; parentIs: 'event' | 'session' }>();
  for (const row of copies) {
    const parentIs = entityType(row.type)?.requiresEventCar;
    if (parentIs && row.parent_id && row.parent2_id) needingEntry.set(`${row.parent_id}:${row.parent2_id}`, { parentId: row.parent_id, carId: row.parent2_id, parentIs });
  }
  const notEntered = await repo.carsNotEntered(q, accountId, [...needingEntry.values()]);
  if (notEntered.length > 0) {
    const cars = notEntered.length > 10 ? `${notEntered.slice(0, 10).join(', ')} and ${notEntered.length - 10} more` : notEntered.join(', ');
    throw AppError.badRequest(`CopyAll would copy entities of cars not entered in the event of the copy (${cars}): add their EventCars first`, { CopyAll: [`copies entities of cars not entered in the event: ${cars}`] });
  }
  // The attached files of the source and of every copied descendant go with the copy.
  await attachedFileRepository.copyAttachedFiles(q, accountId, [...idMap], now);
  return events;
}
