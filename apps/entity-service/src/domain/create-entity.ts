import { randomUUID } from 'node:crypto';
import { appendAll, type FieldErrors } from '@pitwall/service-kit';
import type { CallerContext, CreateModel, EntityChangedEvent, EntityJson } from '@pitwall/contracts';
import { entityRepository as repo } from '../data-access/entity-repository';
import type { EntityRow } from '../data-access/entity-row';
import { copyDescendants, copySource } from './copy-entity';
import { entityChanged } from './entity-events';
import { assertWriter, writableType } from './entity-type';
import { applyUpdates, associationParametersAfter, associationUpdates, checkReferences, rejectWithParameterErrors } from './parameter-updates';
import { convertUpdates, type ConvertedUpdate, type ParameterSet, type ParameterValue } from './parameters';
import { loadParameterSets } from './parameter-sets';
import { checkEventCarEntry, resolveParents } from './parents';
import { insertPosition } from './positions';
import { parseProjection } from './projection';
import type { RenderedReply } from './read-cache';
import { entityReply, renderRows } from './read-model';
import { write, type StoreContext } from './store-context';
import { beforeWrite } from './type-rules';

export interface CreateOptions {
  /** Declared list filters given in the query by parameter name (`TyreSpecificationId`): each sets that reference. */
  filters?: Record<string, string> | undefined;
  /** `parametersToInclude` of the answer (a `CopyAll` answers its copied children when asked for them). */
  include?: string[] | undefined;
}

/**
 * Creates an entity under its parents, from its ParameterUpdates and associations, optionally copying another's
 * parameters (`CopyFromId`, `CopyFromLast`) and descendants (`CopyAll`), at `Index` among ordered siblings.
 */
export async function createEntity(ctx: StoreContext, caller: CallerContext, typeName: string, parentIds: Record<string, string>, body: CreateModel, bindingErrors?: FieldErrors, options: CreateOptions = {}): Promise<RenderedReply> {
  const type = writableType(typeName);
  assertWriter(caller);
  if (bindingErrors) await rejectWithParameterErrors(ctx.pool, caller.accountId, type, body, bindingErrors);
  return write(ctx, caller.accountId, async (q) => {
    const events: EntityChangedEvent[] = [];
    const sets = await loadParameterSets(q, caller.accountId);
    const projection = parseProjection(type, options.include, sets);
    const parents = await resolveParents(q, caller.accountId, type, parentIds, true);
    await checkEventCarEntry(q, caller.accountId, type, parents);
    const source = await copySource(q, caller.accountId, type, parents, body);

    const set = sets(type);
    const parameters: Record<string, ParameterValue> = { ...(source?.parameters ?? {}) };
    const updates = [...filterUpdates(set, options.filters), ...convertUpdates(set, body.ParameterUpdates), ...associationUpdates(set, body, parameters)];
    applyUpdates(parameters, updates);
    const associationParameters = associationParametersAfter(set, body, source?.association_parameters ?? {}, parameters);
    await beforeWrite(q, caller.accountId, { type, parameters, parents, updates, existing: null }, ctx.ruleLimits);
    await checkReferences(q, caller.accountId, updates, 'ParameterUpdates');

    const position = await insertPosition(q, caller.accountId, type, parents, body.Index ?? null);
    const now = new Date();
    const row: EntityRow = { id: randomUUID(), account_id: caller.accountId, type: type.plural, ...parents, position, parameters, association_parameters: associationParameters, created_at: now, modified_at: now };
    await repo.insert(q, row);
    events.push(entityChanged('created', row, type, Object.keys(parameters)));

    if (body.CopyAll && source) appendAll(events, await copyDescendants(q, caller.accountId, source.id, row.id, now, ctx.maxCopyEntities));
    const [entity] = await renderRows(q, caller.accountId, [row], projection, sets);
    return { result: entityReply(entity as EntityJson, now, ctx.maxReadEntities, ctx.maxReadBytes), events };
  });
}

/** The query's filter ids (`?tyreSpecificationId=`) as reference updates, applied before the body's ParameterUpdates. */
function filterUpdates(set: ParameterSet, filters: Record<string, string> | undefined): ConvertedUpdate[] {
  return Object.entries(filters ?? {}).flatMap(([name, id]) => {
    const def = set.get(name);
    return def ? [{ def, value: id, index: -1, path: name.charAt(0).toLowerCase() + name.slice(1) }] : [];
  });
}
