import type { CallerContext } from '@pitwall/contracts';
import { entityRepository as repo } from '../data-access/entity-repository';
import { knownType } from './entity-type';
import { listFilters } from './list-filters';
import { loadParameterSets } from './parameter-sets';
import { resolveParents } from './parents';
import { parseProjection } from './projection';
import type { RenderedReply } from './read-cache';
import { listReply, renderRows } from './read-model';
import { cachedRead, type StoreContext } from './store-context';

/** The entities of a type in the caller's account, under one or both of its parents when it has parents, in sibling order. */
export async function listEntities(
  ctx: StoreContext,
  caller: CallerContext,
  typeName: string,
  parentIds: Record<string, string>,
  include?: string[],
  filterIds?: Record<string, string>,
): Promise<RenderedReply> {
  const type = knownType(typeName);
  const filters = listFilters(type, filterIds);
  return cachedRead(ctx, caller.accountId, ['list', type.plural, parentIds, include, filters], async (q) => {
    const sets = await loadParameterSets(q, caller.accountId);
    const projection = parseProjection(type, include, sets);
    const parents = await resolveParents(q, caller.accountId, type, parentIds, false);
    const rows = await repo.list(q, caller.accountId, type.plural, { parent_id: parents.parent_id ?? undefined, parent2_id: parents.parent2_id ?? undefined }, type.orderByParameter, filters);
    return listReply(await renderRows(q, caller.accountId, rows, projection, sets), ctx.maxReadEntities, ctx.maxReadBytes);
  });
}
