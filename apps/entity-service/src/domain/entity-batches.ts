import { withReadSnapshot } from '@pitwall/db';
import { AppError } from '@pitwall/service-kit';
import type { CallerContext, EntityChangedEvent, EntityJson, EntityUpdateMany, EntityUpdateManyOutcome } from '@pitwall/contracts';
import { entityRepository as repo } from '../data-access/entity-repository';
import type { EntityRow } from '../data-access/entity-row';
import { changedNames, entityChanged } from './entity-events';
import { assertWriter, knownType, notFound, writableType } from './entity-type';
import { applyUpdates, checkReferences } from './parameter-updates';
import { convertUpdates } from './parameters';
import { loadParameterSets } from './parameter-sets';
import { parseProjection } from './projection';
import type { RenderedReply } from './read-cache';
import { listReply, renderRows } from './read-model';
import { nextModifiedTime, write, type StoreContext } from './store-context';
import { beforeWrite } from './type-rules';

/**
 * The entities of `typeName` among `ids` in the caller's account, rendered as `entity.get` renders one (default
 * projection), in one snapshot; ids that are missing or of another account are left out (as a get would answer 404).
 */
export async function getEntities(ctx: StoreContext, caller: CallerContext, typeName: string, ids: string[]): Promise<RenderedReply> {
  const type = knownType(typeName);
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  return withReadSnapshot(ctx.pool, async (q) => {
    const sets = await loadParameterSets(q, caller.accountId);
    const rows = await repo.findByIds(q, caller.accountId, type.plural, wanted);
    return listReply(await renderRows(q, caller.accountId, rows, parseProjection(type, undefined, sets), sets), ctx.maxReadEntities, ctx.maxReadBytes);
  });
}

/**
 * Parameter updates of many entities of one type, in one transaction: one lock of the rows, one statement for every
 * change, one outbox insert for the entity events and one bump of the account's version. Each item is applied or
 * refused on its own (a missing entity is its 404, a bad value its 400) and the others go on; an item that changes
 * nothing writes nothing and has no event. The outcomes come back in the order of the items.
 */
export async function updateEntities(ctx: StoreContext, caller: CallerContext, typeName: string, items: EntityUpdateMany['items']): Promise<RenderedReply> {
  const type = writableType(typeName);
  assertWriter(caller);
  return write(ctx, caller.accountId, async (q) => {
    const ids = [...new Set(items.map((item) => item.id.toLowerCase()))];
    const current = new Map((await repo.findManyForUpdate(q, caller.accountId, type.plural, ids)).map((row) => [row.id, row]));
    const sets = await loadParameterSets(q, caller.accountId);
    const set = sets(type);
    const changed = new Map<string, EntityRow>();
    const changedParameters = new Map<string, Set<string>>();
    const outcomes: EntityUpdateManyOutcome[] = [];
    for (const item of items) {
      const id = item.id.toLowerCase();
      try {
        const row = current.get(id);
        if (!row) throw notFound(type, id);
        const updates = convertUpdates(set, item.parameterUpdates);
        await checkReferences(q, caller.accountId, updates, 'parameterUpdates');
        const parameters = { ...row.parameters };
        applyUpdates(parameters, updates);
        await beforeWrite(q, caller.accountId, { type, parameters, parents: { parent_id: row.parent_id, parent2_id: row.parent2_id }, updates, existing: row }, ctx.ruleLimits);
        const names = changedNames(row.parameters, parameters);
        if (names.length) {
          const next = { ...row, parameters, modified_at: nextModifiedTime(row.modified_at) };
          current.set(id, next);
          changed.set(id, next);
          const all = changedParameters.get(id) ?? new Set<string>();
          names.forEach((n) => all.add(n));
          changedParameters.set(id, all);
        }
        outcomes.push({ id, ok: true, lastModifiedTime: (current.get(id) as EntityRow).modified_at.toISOString() });
      } catch (err) {
        // A refusal is the item's own; anything else (a database fault) aborts the transaction, so it ends the batch.
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        outcomes.push({ id, ok: false, status: err.status, detail: err.message, ...(err.errors ? { errors: err.errors } : {}) });
      }
    }
    const rows = [...changed.values()];
    await repo.updateParametersMany(q, rows.map((row) => ({ id: row.id, parameters: row.parameters, modifiedAt: row.modified_at })));
    const events: EntityChangedEvent[] = rows.map((row) => entityChanged('updated', row, type, [...(changedParameters.get(row.id) ?? [])]));
    return { result: listReply(outcomes as unknown as EntityJson[]), events };
  });
}
