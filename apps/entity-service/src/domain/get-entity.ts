import { Guid, type CallerContext, type EntityJson } from '@pitwall/contracts';
import { entityRepository as repo } from '../data-access/entity-repository';
import { knownType, notFound } from './entity-type';
import { loadParameterSets } from './parameter-sets';
import { parseProjection, reachesTypes } from './projection';
import type { RenderedReply } from './read-cache';
import { entityReply, renderRows } from './read-model';
import { RUN_SCOPED_TYPES, RUN_SHEET_SCOPE_TYPE, cachedRead, type StoreContext } from './store-context';

/** One entity of the caller's account under a projection; another account's is a 404 like a missing one. */
export async function getEntity(ctx: StoreContext, caller: CallerContext, typeName: string, id: string, include?: string[]): Promise<RenderedReply> {
  const type = knownType(typeName);
  // A run sheet is read under its own cache scope: a timing feed of another car does not end its cached reads.
  const scope = type.plural === RUN_SHEET_SCOPE_TYPE && Guid.safeParse(id).success ? id.toLowerCase() : undefined;
  return cachedRead(ctx, caller.accountId, ['get', type.plural, id, include], async (q, escapesScope) => {
    const sets = await loadParameterSets(q, caller.accountId);
    const projection = parseProjection(type, include, sets);
    // A reference into a run (another run sheet, a lap of another run) is written under that run's scope, not this one.
    if (scope && reachesTypes(projection, RUN_SCOPED_TYPES)) escapesScope();
    const row = await repo.findById(q, caller.accountId, type.plural, id);
    if (!row) throw notFound(type, id);
    const [entity] = await renderRows(q, caller.accountId, [row], projection, sets);
    return entityReply(entity as EntityJson, row.modified_at, ctx.maxReadEntities, ctx.maxReadBytes);
  }, scope);
}
