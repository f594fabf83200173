import type { EntityTypeDef, EntityTypeRule } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import type { EntityRow } from '../../data-access/entity-row';
import { eventCarEntry } from './event-car';
import { mathChannel } from './math-channel';
import { parameterDefinition } from './parameter-definition';
import { viewerLayout } from './viewer-layout';
import { DEFAULT_RULE_LIMITS, VIEWER_LAYOUT_MAX_LENGTH, type EntityWrite, type RuleLimits, type TypeRule } from './type-rule';

export { DEFAULT_RULE_LIMITS, VIEWER_LAYOUT_MAX_LENGTH, type EntityWrite, type RuleLimits, type TypeRule };

/** Every rule a registry entry may name, by that name: a name without an implementation does not compile. */
export const TYPE_RULES: Readonly<Record<EntityTypeRule, TypeRule>> = { eventCarEntry, parameterDefinition, mathChannel, viewerLayout };

/** The rules the type declares (registry `rules`), in declared order. */
export function rulesOf(type: EntityTypeDef, rules: Readonly<Record<string, TypeRule>> = TYPE_RULES): TypeRule[] {
  return (type.rules ?? []).map((name) => {
    const rule = rules[name];
    if (!rule) throw new Error(`${type.plural} declares the rule ${name}, which the entity-service does not implement`);
    return rule;
  });
}

/** Runs the type's rules before a create or update is written; the first to refuse stops the write. */
export async function beforeWrite(q: Queryable, accountId: string, write: EntityWrite, limits: RuleLimits = DEFAULT_RULE_LIMITS): Promise<void> {
  for (const rule of rulesOf(write.type)) await rule.beforeWrite?.(q, accountId, write, limits);
}

/** Runs the type's rules before an entity of it is deleted. */
export async function beforeDelete(q: Queryable, accountId: string, type: EntityTypeDef, entity: EntityRow): Promise<void> {
  for (const rule of rulesOf(type)) await rule.beforeDelete?.(q, accountId, entity);
}
