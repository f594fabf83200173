import { entityType, type CallerContext, type EntityTypeDef } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';

/** The registry type a command names (its plural, any case); an unknown one is a 404. */
export function knownType(plural: string): EntityTypeDef {
  const type = entityType(plural);
  if (!type) throw AppError.notFound(`There is no entity type ${plural}`);
  return type;
}

/**
 * A type a command may write: a read-only one (registry `readOnly`, the Users mirrored from the account's members) is
 * refused with its reason, as the operation table refuses it at the edge, for producers other than the gateway.
 */
export function writableType(plural: string): EntityTypeDef {
  const type = knownType(plural);
  if (type.readOnly) throw AppError.forbidden(type.readOnly.reason);
  return type;
}

export function notFound(type: EntityTypeDef, id: string): AppError {
  return AppError.notFound(`${type.name} ${id} was not found`);
}

export function assertWriter(caller: CallerContext): void {
  if (caller.role === 'reader') throw AppError.forbidden('Your role in this account is reader: it may read, not write');
}
