import type { CallerContext, EntityJson } from '@pitwall/contracts';
import { entityRepository as repo } from '../data-access/entity-repository';
import { knownType, notFound } from './entity-type';
import { loadParameterSets } from './parameter-sets';
import { parseProjection } from './projection';
import type { RenderedReply } from './read-cache';
import { entityReply, renderRows } from './read-model';
import { cachedRead, type StoreContext } from './store-context';

/** One entity of the caller's account under a projection; another account's is a 404 like a missing one. */
export async function getEntity(ctx: StoreContext, caller: CallerContext, typeName: string, id: string, include?: string[]): Promise<RenderedReply> {
  const type = knownType(typeName);
  return cachedRead(ctx, caller.accountId, ['get', type.plural, id, include], async (q) => {
    const sets = await loadParameterSets(q, caller.accountId);
    const projection = parseProjection(type, include, sets);
    const row = await repo.findById(q, caller.accountId, type.plural, id);
    if (!row) throw notFound(type, id);
    const [entity] = await renderRows(q, caller.accountId, [row], projection, sets);
    return entityReply(entity as EntityJson, row.modified_at);
  });
}
