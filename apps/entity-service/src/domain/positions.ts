import type { EntityTypeDef } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { entityRepository as repo } from '../data-access/entity-repository';
import type { Parents } from './parents';

/** Position for a new sibling: appended, or inserted at `index` with the later siblings moved up. */
export async function insertPosition(q: Queryable, accountId: string, type: EntityTypeDef, parents: Parents, index: number | null): Promise<number> {
  await repo.lockSiblings(q, accountId, type.plural, parents.parent_id, parents.parent2_id);
  const last = await repo.lastSibling(q, accountId, type.plural, parents.parent_id, parents.parent2_id);
  const end = last ? last.position + 1 : 0;
  if (index === null || index < 0) return end;
  const count = await repo.siblingCount(q, accountId, type.plural, parents.parent_id, parents.parent2_id);
  if (index >= count) return end;
  // Renumber densely first so "index" means the sibling's place in order even after deletions left gaps.
  await repo.renumberSiblings(q, accountId, type.plural, parents.parent_id, parents.parent2_id);
  await repo.shiftPositions(q, accountId, type.plural, parents.parent_id, parents.parent2_id, index);
  return index;
}
