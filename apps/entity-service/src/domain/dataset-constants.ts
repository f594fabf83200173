import { GUID_PATTERN, type CallerContext, type DatasetConstantsJson } from '@pitwall/contracts';
import { entityRepository } from '../data-access/entity-repository';
import type { EntityRow } from '../data-access/entity-row';
import { knownType, notFound } from './entity-type';
import type { ParameterValue } from './parameters';
import type { StoreContext } from './store-context';

const SETUPS = 'Setups';
const CARS = 'Cars';
/** The reference a run sheet names its setup by (the registry's RunSheets; any type holding a SetupId alike). */
const SETUP_REFERENCE = 'SetupId';

/**
 * Where a math channel's `param("Name")` is looked up for a dataset of an entity (docs/math-channels.md), most
 * specific first: the entity itself, the Setup its `SetupId` names (what was on the car for that run) when that setup
 * is of the entity's car, then its Car (the car's own constants), each with its Name and those of `names` (whatever
 * their case) it holds as a number: an entity of thousands of parameters answers only what the read needs. The entity
 * is the caller's or a 404; a setup the account does not have (deleted, or another account's: alike) is named in
 * `missing`, and one of another car (a run sheet may name any setup of the account) in `ofAnotherCar`, its values not
 * looked at: a run of the Demo car never takes GT3 #88's steering ratio. Three indexed reads at most, not kept: a
 * changed value is what the next read finds.
 */
export async function datasetConstants(ctx: StoreContext, caller: CallerContext, typeName: string, id: string, names: readonly string[]): Promise<DatasetConstantsJson> {
  const type = knownType(typeName);
  const row = await entityRepository.findById(ctx.pool, caller.accountId, type.plural, id);
  if (!row) throw notFound(type, id);
  const chain: EntityRow[] = [row];
  const missing: NonNullable<DatasetConstantsJson['missing']> = [];
  const ofAnotherCar: NonNullable<DatasetConstantsJson['ofAnotherCar']> = [];
  const carId = carIdOf(type.plural, row);
  const setupId = row.parameters[SETUP_REFERENCE];
  if (type.plural !== SETUPS && typeof setupId === 'string' && GUID_PATTERN.test(setupId)) {
    // Looked up in the caller's account only: another account's setup is not found, exactly as a missing one.
    const setup = await entityRepository.findById(ctx.pool, caller.accountId, SETUPS, setupId.toLowerCase());
    const setupCarId = setup ? carIdOf(SETUPS, setup) : null;
    if (!setup) missing.push({ type: SETUPS, id: setupId.toLowerCase(), namedBy: SETUP_REFERENCE });
    // A car's own dataset is its own car's (no type under no car takes a setup: none to compare it with).
    else if (setupCarId === null || setupCarId !== (type.plural === CARS ? row.id : carId)) ofAnotherCar.push({ type: SETUPS, id: setup.id, ...nameOf(setup), namedBy: SETUP_REFERENCE, carId: setupCarId });
    else chain.push(setup);
  }
  if (type.plural !== CARS && carId) {
    const car = await entityRepository.findById(ctx.pool, caller.accountId, CARS, carId);
    if (car) chain.push(car);
  }
  const wanted = new Set(names.map((name) => name.toLowerCase()));
  return {
    entities: chain.map((e) => ({ type: e.type, id: e.id, ...nameOf(e), parameters: numericParameters(e.parameters, wanted) })),
    ...(missing.length ? { missing } : {}),
    ...(ofAnotherCar.length ? { ofAnotherCar } : {}),
  };
}

/** The Car an entity of `typeName` belongs to (its Cars parent, as a run sheet's or a setup's `carId`); null for a type under no car. */
function carIdOf(typeName: string, row: EntityRow): string | null {
  const at = knownType(typeName).parents.findIndex((p) => p.type === CARS);
  return at === 0 ? row.parent_id : at === 1 ? row.parent2_id : null;
}

/** The entity's Name when it has one, for a refusal to name it by (already read with the row: no lookup of its own). */
function nameOf(row: EntityRow): { name?: string } {
  const name = row.parameters['Name'];
  return typeof name === 'string' && name !== '' ? { name } : {};
}

/** Those of `wanted` (lower-cased) the parameters hold as a number: a Double's or an Integer's value as it is, a Boolean's as 1 or 0; the other types hold no number. */
function numericParameters(parameters: Record<string, ParameterValue>, wanted: ReadonlySet<string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (!wanted.has(name.toLowerCase())) continue;
    if (typeof value === 'number' && Number.isFinite(value)) out[name] = value;
    else if (typeof value === 'boolean') out[name] = value ? 1 : 0;
  }
  return out;
}
