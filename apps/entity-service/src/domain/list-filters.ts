import { AppError } from '@pitwall/service-kit';
import type { EntityTypeDef, SearchBody } from '@pitwall/contracts';

/**
 * A type's declared filters (registry `filters`, e.g. Tyres' `TyreSpecificationId`) as parameter name → id, from a
 * list's camelCase query names (`tyreSpecificationId`). A name the type does not declare is a 400 naming it.
 */
export function listFilters(type: EntityTypeDef, given: Record<string, string> | undefined): Record<string, string> {
  const declared = new Map((type.filters ?? []).map((name) => [name.toLowerCase(), name]));
  const out: Record<string, string> = {};
  for (const [key, id] of Object.entries(given ?? {})) {
    const name = declared.get(key.toLowerCase());
    if (!name) throw AppError.badRequest(`${type.plural} cannot be filtered by ${key}`, { [key]: [`is not a filter of ${type.plural}`] });
    out[name] = id.toLowerCase();
  }
  return out;
}

/** The declared filters a search body carries beside its association mode (`TyreSpecificationId`). */
export function searchFilters(type: EntityTypeDef, body: SearchBody): Record<string, string> {
  const given: Record<string, string> = {};
  if (body.TyreSpecificationId) given['TyreSpecificationId'] = body.TyreSpecificationId;
  return listFilters(type, given);
}
