import { AppError, type FieldErrors } from '@pitwall/service-kit';
import { associationsOf, entityType, type CreateModel, type EntityTypeDef, type UpdateModel } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { entityRepository as repo } from '../data-access/entity-repository';
import type { AssociationParameters } from '../data-access/entity-row';
import { convertUpdates, type ConvertedUpdate, type ParameterSet, type ParameterValue } from './parameters';
import { loadParameterSets } from './parameter-sets';

/**
 * `<X>AssociationsToAdd: [{ <X>Id }]` sets the `<X>Id` reference (Tyres, IssueListIssues and AssemblyIterations
 * carry ChampionshipId, EventId and CarId this way); `...ToRemove` clears it when it names the current one. An
 * item's own ParameterUpdates are the association's (see associationParametersAfter).
 */
export function associationUpdates(set: ParameterSet, body: Record<string, unknown>, current: Record<string, ParameterValue>): ConvertedUpdate[] {
  const errors: FieldErrors = {};
  const out: ConvertedUpdate[] = [];
  for (const { model, action, key, items } of associationsOf(body)) {
    const def = set.referenceByObjectName(model);
    if (!def) {
      errors[key] = [`${set.type.plural} have no ${model} association`];
      continue;
    }
    if (action === 'add' && items.length > 1) errors[key] = [`holds one item: each ${set.type.name} has one ${model}`];
    for (const [i, item] of items.entries()) {
      const idKey = Object.keys(item).find((k) => k.toLowerCase() === def.name.toLowerCase());
      const id = idKey ? String(item[idKey]).toLowerCase() : undefined;
      if (!id) errors[`${key}[${i}].${def.name}`] = ['is required'];
      else if (action === 'add') out.push({ def, value: id, index: i, path: `${key}[${i}].${def.name}` });
      else if (current[def.name] === id) out.push({ def, value: null, index: i, path: `${key}[${i}].${def.name}` });
    }
  }
  if (Object.keys(errors).length) throw AppError.badRequest('The request body is not valid', errors);
  return out;
}

/**
 * The association parameters once the write is applied: an added item's ParameterUpdates are stored with its
 * association as given (strings; null removes one), over those of the same association; an association's
 * parameters go once its reference no longer names that entity (removed, or set to another).
 */
export function associationParametersAfter(set: ParameterSet, body: Record<string, unknown>, before: AssociationParameters, parameters: Record<string, ParameterValue>): AssociationParameters {
  const after: AssociationParameters = { ...before };
  for (const { model, action, items } of associationsOf(body)) {
    const def = set.referenceByObjectName(model);
    if (!def || action !== 'add') continue;
    for (const item of items) {
      const idKey = Object.keys(item).find((k) => k.toLowerCase() === def.name.toLowerCase());
      const id = idKey ? String(item[idKey]).toLowerCase() : undefined;
      if (!id || !item.ParameterUpdates?.length) continue;
      const stored = { ...(after[def.name]?.Id === id ? after[def.name]?.Parameters : {}) };
      for (const u of item.ParameterUpdates) {
        if (u.Value === null) delete stored[u.Name];
        else stored[u.Name] = u.Value;
      }
      after[def.name] = { Id: id, Parameters: stored };
    }
  }
  for (const [name, association] of Object.entries(after)) if (parameters[name] !== association.Id || Object.keys(association.Parameters).length === 0) delete after[name];
  return after;
}

/** Sets the converted values on `parameters`; null removes the parameter. */
export function applyUpdates(parameters: Record<string, ParameterValue>, updates: ConvertedUpdate[]): void {
  for (const u of updates) {
    if (u.value === null) delete parameters[u.def.name];
    else parameters[u.def.name] = u.value;
  }
}

/** A reference must name an entity of the referenced type in the caller's account. */
export async function checkReferences(q: Queryable, accountId: string, updates: ConvertedUpdate[], path: string): Promise<void> {
  checkKnownReferences(updates, path, await ExistingEntities.load(q, accountId, referencedEntities(updates)));
}

/** The entities (type plural, id) that reference updates name. */
export function referencedEntities(updates: ConvertedUpdate[]): { type: string; id: string }[] {
  const out: { type: string; id: string }[] = [];
  for (const u of updates) {
    const target = referenceTarget(u);
    if (target && typeof u.value === 'string') out.push({ type: target.plural, id: u.value });
  }
  return out;
}

/** `checkReferences` against entities looked up beforehand (a collection update looks up all its items' at once). */
export function checkKnownReferences(updates: ConvertedUpdate[], path: string, existing: ExistingEntities): void {
  const errors: FieldErrors = {};
  for (const u of updates) {
    if (u.def.type !== 'Reference' || typeof u.value !== 'string' || !u.def.references) continue;
    const target = referenceTarget(u);
    if (!target || !existing.has(target.plural, u.value))
      errors[u.path ?? `${path}[${u.index}].Value`] = [`${u.def.name} references ${target?.name ?? u.def.references} ${u.value}, which was not found`];
  }
  if (Object.keys(errors).length) throw AppError.badRequest('The request body is not valid', errors);
}

function referenceTarget(u: ConvertedUpdate): EntityTypeDef | undefined {
  return u.def.type === 'Reference' && u.def.references ? entityType(u.def.references) : undefined;
}

/** Which of a set of (type, id) pairs exist in the account: one query per type. */
export class ExistingEntities {
  private constructor(private readonly ids: Map<string, Set<string>>) {}

  static async load(q: Queryable, accountId: string, wanted: { type: string; id: string }[]): Promise<ExistingEntities> {
    const byType = new Map<string, Set<string>>();
    for (const { type, id } of wanted) byType.set(type, (byType.get(type) ?? new Set()).add(id));
    const found = new Map<string, Set<string>>();
    for (const [type, ids] of byType) found.set(type, await repo.existingIds(q, accountId, type, [...ids]));
    return new ExistingEntities(found);
  }

  has(type: string, id: string): boolean {
    return this.ids.get(type)?.has(id) ?? false;
  }

  /** An entity deleted earlier in the same write no longer counts. */
  forget(type: string, id: string): void {
    this.ids.get(type)?.delete(id);
  }
}

/** The body had unknown properties: nothing is written, and the answer also names every unconvertible parameter. */
export async function rejectWithParameterErrors(q: Queryable, accountId: string, type: EntityTypeDef, body: CreateModel | UpdateModel, bindingErrors: FieldErrors): Promise<never> {
  const sets = await loadParameterSets(q, accountId);
  let errors = bindingErrors;
  try {
    convertUpdates(sets(type), body.ParameterUpdates);
  } catch (err) {
    if (!(err instanceof AppError) || !err.errors) throw err;
    errors = { ...bindingErrors, ...err.errors };
  }
  throw AppError.badRequest('The request body is not valid', errors);
}
