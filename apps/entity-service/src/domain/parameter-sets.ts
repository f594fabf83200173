import type { Queryable } from '@pitwall/db';
import { entityRepository as repo } from '../data-access/entity-repository';
import { ParameterSet, customParametersByType } from './parameters';
import type { ParameterSets } from './projection';

/** The parameters each type accepts in the account: built-ins plus its ParameterDefinitions, read once per use case. */
export async function loadParameterSets(q: Queryable, accountId: string): Promise<ParameterSets> {
  const custom = customParametersByType(await repo.parameterDefinitions(q, accountId));
  const cache = new Map<string, ParameterSet>();
  return (type) => {
    let set = cache.get(type.plural);
    if (!set) {
      set = new ParameterSet(type, custom.get(type.plural.toLowerCase()) ?? []);
      cache.set(type.plural, set);
    }
    return set;
  };
}
