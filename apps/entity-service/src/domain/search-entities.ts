import { AppError } from '@pitwall/service-kit';
import { isUnsetId, type CallerContext, type SearchBody } from '@pitwall/contracts';
import { entityRepository as repo } from '../data-access/entity-repository';
import { knownType } from './entity-type';
import { searchFilters } from './list-filters';
import { loadParameterSets } from './parameter-sets';
import { parseProjection } from './projection';
import type { RenderedReply } from './read-cache';
import { listReply, renderRows } from './read-model';
import { cachedRead, type StoreContext } from './store-context';

const lower = (v: string | null | undefined): string => (v ?? '').toLowerCase();

/** Association search (wire.md §5) of a searchable type: by account, championship, event, car, or event and car. */
export async function searchEntities(ctx: StoreContext, caller: CallerContext, typeName: string, body: SearchBody, include?: string[]): Promise<RenderedReply> {
  const type = knownType(typeName);
  if (!type.features.search) throw AppError.notFound(`${type.plural} cannot be searched`);
  // Mode 0 searches by it; every other mode only checks one that is given (a wrapper may send it in every search).
  if ((body.AssociatedModelSearchMode === 0 || !isUnsetId(body.AccountId)) && body.AccountId?.toLowerCase() !== caller.accountId)
    throw AppError.badRequest('The request body is not valid', { AccountId: ['must be the account named in the AccountId header'] });
  const filters = searchFilters(type, body);
  const mode = body.AssociatedModelSearchMode;
  if (mode === 1) filters['ChampionshipId'] = lower(body.ChampionshipId);
  if (mode === 2 || mode === 4) filters['EventId'] = lower(body.EventId);
  if (mode === 3 || mode === 4) filters['CarId'] = lower(body.CarId);
  return cachedRead(ctx, caller.accountId, ['search', type.plural, filters, include], async (q) => {
    const sets = await loadParameterSets(q, caller.accountId);
    const projection = parseProjection(type, include, sets);
    const rows = await repo.searchByAssociations(q, caller.accountId, type.plural, filters);
    return listReply(await renderRows(q, caller.accountId, rows, projection, sets), ctx.maxReadEntities, ctx.maxReadBytes);
  });
}
