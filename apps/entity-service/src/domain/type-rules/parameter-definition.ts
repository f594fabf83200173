import { AppError, type FieldErrors } from '@pitwall/service-kit';
import { ENTITY_TYPES, collectionNamesOf, entityType, type EntityTypeDef } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { entityRepository as repo } from '../../data-access/entity-repository';
import type { EntityRow } from '../../data-access/entity-row';
import { ParameterSet, type ParameterValue } from '../parameters';
import type { TypeRule } from './type-rule';

/**
 * A custom parameter must make sense, be the only one of its name on its type, fit in the account's
 * MAX_PARAMETER_DEFINITIONS (a 409 on create), and may be neither deleted nor changed in what it is while any entity
 * holds a value of it.
 */
export const parameterDefinition: TypeRule = {
  async beforeWrite(q, accountId, { parameters, existing }, limits) {
    validateParameterDefinition(parameters);
    await checkDefinitionIsUnique(q, accountId, parameters, existing, limits.maxParameterDefinitions);
    if (existing && DEFINING.some((k) => !sameDefinitionField(k, existing.parameters[k], parameters[k]))) await checkNoStoredValues(q, accountId, existing, 'redefined');
  },
  async beforeDelete(q, accountId, entity) {
    await repo.lockParameterDefinitions(q, accountId);
    await checkNoStoredValues(q, accountId, entity, 'deleted');
  },
};

/** The fields that say what a custom parameter is: changing one would strand values stored under the old meaning. */
const DEFINING = ['EntityType', 'Name', 'ParameterType', 'EnumValues', 'ReferencedEntityType'] as const;

function sameDefinitionField(field: (typeof DEFINING)[number], before: ParameterValue | undefined, after: ParameterValue | undefined): boolean {
  const norm = (v: ParameterValue | undefined) => (field === 'EnumValues' ? String(v ?? '').split(',').map((e) => e.trim()).filter(Boolean).join(',') : String(v ?? ''));
  return norm(before) === norm(after);
}

/** A definition whose parameter still holds values may not be deleted or redefined (409): the values would be stranded. */
async function checkNoStoredValues(q: Queryable, accountId: string, definition: EntityRow, action: 'deleted' | 'redefined'): Promise<void> {
  const entityTypeName = String(definition.parameters['EntityType'] ?? '');
  const name = String(definition.parameters['Name'] ?? '');
  const holders = await repo.countHoldingParameter(q, accountId, entityTypeName, name);
  if (holders > 0)
    throw AppError.conflict(`${holders} ${entityTypeName} hold a value of ${name}: set it to null on them before the definition can be ${action}`);
}

/**
 * Two definitions of one name on one type would make the parameter's type ambiguous; so would a name that is another
 * definition's Reference object (`Bar` beside a Reference `BarId`, in either order): both would be `Parameters.Bar`.
 */
async function checkDefinitionIsUnique(q: Queryable, accountId: string, p: Record<string, ParameterValue>, existing: EntityRow | null, max: number): Promise<void> {
  const typeOf = (d: Record<string, unknown>) => String(d['EntityType'] ?? '').toLowerCase();
  const keysOf = (d: Record<string, unknown>) => parameterKeys(String(d['Name'] ?? ''), d['ParameterType'] === 'Reference');
  await repo.lockParameterDefinitions(q, accountId);
  const mine = keysOf(p);
  const definitions = await repo.parameterDefinitions(q, accountId);
  // Counted under the account's lock, so two creates at once cannot both take the last place.
  if (!existing && definitions.length >= max) {
    throw AppError.conflict(`The account already has ${definitions.length} parameter definitions, the most it may hold (MAX_PARAMETER_DEFINITIONS is ${max}): delete one first`);
  }
  const clash = definitions.find((d) => d.id !== existing?.id && typeOf(d.parameters) === typeOf(p) && keysOf(d.parameters).some((k) => mine.includes(k)));
  if (!clash) return;
  const other = String(clash.parameters['Name']);
  const described = clash.parameters['ParameterType'] === 'Reference' && other.toLowerCase() !== String(p['Name']).toLowerCase() ? `${other} (whose object is ${other.slice(0, -2)})` : other;
  throw AppError.badRequest('The parameter definition is not valid', { Name: [`${String(p['EntityType'])} already has a parameter ${described}`] });
}

/** The keys a parameter takes in `Parameters` (lower-cased): its name, and for a Reference its object's name too. */
function parameterKeys(name: string, isReference: boolean): string[] {
  const lower = name.toLowerCase();
  return isReference && lower.endsWith('id') ? [lower, lower.slice(0, -2)] : [lower];
}

function validateParameterDefinition(p: Record<string, ParameterValue>): void {
  const errors: FieldErrors = {};
  const target = entityType(String(p['EntityType'] ?? ''));
  if (!target) errors['EntityType'] = [`must name an entity type (${ENTITY_TYPES.map((t) => t.plural).join(', ')})`];
  else p['EntityType'] = target.plural;
  const name = String(p['Name'] ?? '');
  if (!/^[A-Za-z][A-Za-z0-9_]{0,99}$/.test(name)) errors['Name'] = ['must start with a letter and hold only letters, digits and _'];
  // `Id` is the entity's own id in every answer and projection (`?parametersToInclude=Id` selects nothing more).
  else if (parameterKeys(name, p['ParameterType'] === 'Reference').includes('id')) errors['Name'] = ['Id is reserved: it is the entity\'s own id'];
  else if (target && builtInClash(target, name, p['ParameterType'] === 'Reference')) errors['Name'] = [`${target.plural} already has ${builtInClash(target, name, p['ParameterType'] === 'Reference')}`];
  if (!p['ParameterType']) errors['ParameterType'] = ['is required'];
  if (p['ParameterType'] === 'Enum' && !String(p['EnumValues'] ?? '').split(',').some((v) => v.trim())) errors['EnumValues'] = ['is required for an Enum: comma-separated values'];
  if (p['ParameterType'] === 'Reference' && !entityType(String(p['ReferencedEntityType'] ?? ''))) errors['ReferencedEntityType'] = ['must name an entity type for a Reference'];
  if (p['ParameterType'] === 'Reference' && name && !name.endsWith('Id')) errors['Name'] = ['of a Reference must end with Id'];
  if (Object.keys(errors).length) throw AppError.badRequest('The parameter definition is not valid', errors);
}

/** The built-in name a custom one would collide with in `Parameters`, including a reference's nested object (`Driver` beside `DriverId`). */
function builtInClash(type: EntityTypeDef, name: string, isReference: boolean): string | undefined {
  // A parameter named like a collection could never be projected: `Laps` always means the collection.
  const collection = collectionNamesOf(type).find((c) => c.toLowerCase() === name.toLowerCase() || (isReference && `${c}Id`.toLowerCase() === name.toLowerCase()));
  if (collection) return `the collection ${collection}`;
  const builtIn = new ParameterSet(type, []);
  const clash = builtIn.get(name) ?? builtIn.referenceByObjectName(name) ?? (isReference && name.endsWith('Id') ? builtIn.get(name.slice(0, -2)) : undefined);
  if (!clash) return undefined;
  return `a built-in parameter ${clash.name.toLowerCase() === name.toLowerCase() || clash.type !== 'Reference' ? clash.name : `${clash.name} (whose object is ${clash.name.slice(0, -2)})`}`;
}
