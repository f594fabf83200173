import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { withReadSnapshot, withTransaction } from '@pitwall/db';
import { AppError, type FieldErrors } from '@pitwall/service-kit';
import {
  ENTITY_TYPES,
  associationsOf,
  childTypesOf,
  collectionNameOf,
  collectionNamesOf,
  entityType,
  pascal,
  requireEntityType,
  type CallerContext,
  type CollectionItemUpdate,
  type CreateModel,
  type EntityChangedEvent,
  type EntityJson,
  type EntityTypeDef,
  type SearchBody,
  type UpdateModel,
} from '@pitwall/contracts';
import { entityRepository as repo, type EntityRow, type Queryable } from '../data-access/entity-repository';
import { ParameterSet, convertUpdates, customParametersByType, type ConvertedUpdate, type ParameterValue } from './parameters';
import { listFilters, searchFilters } from './list-filters';
import { parseProjection, type ParameterSets } from './projection';
import { ReadCache, type RenderedReply } from './read-cache';
import { renderRows } from './read-model';

export type { RenderedReply };

/** Where a write's events go: added in its transaction, sent once it committed (the entity-service's outbox). */
export interface EntityEvents {
  /**
   * Adds the events inside the write's transaction; returns what publishes them after the commit, which never
   * rejects (what it cannot publish now is retried later).
   */
  add(q: Queryable, events: EntityChangedEvent[], headers: Record<string, string>): Promise<() => Promise<void>>;
}

/**
 * The entity store's use cases. Every operation is scoped to the caller's account: an entity of another
 * account is reported exactly like a missing one (404). Events are written with the write and published after its commit.
 */
export class EntityStore {
  constructor(
    private readonly pool: Pool,
    private readonly events: EntityEvents,
    private readonly cache: ReadCache = new ReadCache(0),
    /** Headers for the events of the command being handled (its request id). */
    private readonly eventHeaders: () => Record<string, string> = () => ({}),
  ) {}

  async get(caller: CallerContext, typeName: string, id: string, include?: string[]): Promise<RenderedReply> {
    const type = knownType(typeName);
    return this.read(caller.accountId, ['get', type.plural, id, include], async (q) => {
      const sets = await loadParameterSets(q, caller.accountId);
      const projection = parseProjection(type, include, sets);
      const row = await repo.findById(q, caller.accountId, type.plural, id);
      if (!row) throw notFound(type, id);
      const [entity] = await renderRows(q, caller.accountId, [row], projection, sets);
      return entityReply(entity as EntityJson, row.modified_at);
    });
  }

  async list(caller: CallerContext, typeName: string, parentIds: Record<string, string>, include?: string[], filterIds?: Record<string, string>): Promise<RenderedReply> {
    const type = knownType(typeName);
    const filters = listFilters(type, filterIds);
    return this.read(caller.accountId, ['list', type.plural, parentIds, include, filters], async (q) => {
      const sets = await loadParameterSets(q, caller.accountId);
      const projection = parseProjection(type, include, sets);
      const parents = await resolveParents(q, caller.accountId, type, parentIds, false);
      const rows = await repo.list(q, caller.accountId, type.plural, { parent_id: parents.parent_id ?? undefined, parent2_id: parents.parent2_id ?? undefined }, type.orderByParameter, filters);
      return { json: encode(await renderRows(q, caller.accountId, rows, projection, sets)) };
    });
  }

  async search(caller: CallerContext, typeName: string, body: SearchBody, include?: string[]): Promise<RenderedReply> {
    const type = knownType(typeName);
    if (!type.features.search) throw AppError.notFound(`${type.plural} cannot be searched`);
    if (body.AssociatedModelSearchMode === 0 && body.AccountId?.toLowerCase() !== caller.accountId)
      throw AppError.badRequest('The request body is not valid', { AccountId: ['must be the account named in the AccountId header'] });
    const filters = searchFilters(type, body);
    const mode = body.AssociatedModelSearchMode;
    if (mode === 1) filters['ChampionshipId'] = lower(body.ChampionshipId);
    if (mode === 2 || mode === 4) filters['EventId'] = lower(body.EventId);
    if (mode === 3 || mode === 4) filters['CarId'] = lower(body.CarId);
    return this.read(caller.accountId, ['search', type.plural, filters, include], async (q) => {
      const sets = await loadParameterSets(q, caller.accountId);
      const projection = parseProjection(type, include, sets);
      const rows = await repo.searchByAssociations(q, caller.accountId, type.plural, filters);
      return { json: encode(await renderRows(q, caller.accountId, rows, projection, sets)) };
    });
  }

  /**
   * A read answered from the cache when the account has not been written since it was rendered (one query: the
   * account's version), else rendered in one snapshot, so its queries never straddle a concurrent write.
   */
  private async read(accountId: string, what: unknown[], render: (q: Queryable) => Promise<RenderedReply>): Promise<RenderedReply> {
    const key = JSON.stringify(what);
    if (this.cache.enabled) {
      const hit = this.cache.get(accountId, await repo.accountVersion(this.pool, accountId), key);
      if (hit) return hit;
    }
    return withReadSnapshot(this.pool, async (c) => {
      const version = await repo.accountVersion(c, accountId);
      const reply = await render(c);
      this.cache.set(accountId, version, key, reply);
      return reply;
    });
  }

  /**
   * A write: its events go into the outbox and the account's version is bumped, both in its transaction (the bump
   * last, so cached reads end with the commit); once committed, the events are published before the answer.
   */
  private async write<T>(accountId: string, fn: (c: PoolClient) => Promise<{ result: T; events: EntityChangedEvent[] }>): Promise<T> {
    const { result, publish } = await withTransaction(this.pool, async (c) => {
      const { result, events } = await fn(c);
      const publish = await this.events.add(c, events, this.eventHeaders());
      await repo.bumpAccountVersion(c, accountId);
      return { result, publish };
    });
    await publish();
    return result;
  }

  async create(caller: CallerContext, typeName: string, parentIds: Record<string, string>, body: CreateModel, bindingErrors?: FieldErrors): Promise<RenderedReply> {
    const type = knownType(typeName);
    assertWriter(caller);
    if (bindingErrors) await this.rejectWithParameterErrors(caller, type, body, bindingErrors);
    return this.write(caller.accountId, async (c) => {
      const events: EntityChangedEvent[] = [];
      const sets = await loadParameterSets(c, caller.accountId);
      const parents = await resolveParents(c, caller.accountId, type, parentIds, true);
      await checkEventCarEntry(c, caller.accountId, type, parents);

      let source: EntityRow | undefined;
      if (body.CopyFromId) {
        source = await repo.findById(c, caller.accountId, type.plural, body.CopyFromId.toLowerCase());
        if (!source) throw AppError.badRequest('The request body is not valid', { CopyFromId: [`${type.name} ${body.CopyFromId} was not found`] });
      } else if (body.CopyFromLast) {
        source = await repo.lastSibling(c, caller.accountId, type.plural, parents.parent_id, parents.parent2_id);
      }

      const set = sets(type);
      const parameters: Record<string, ParameterValue> = { ...(source?.parameters ?? {}) };
      const updates = [...convertUpdates(set, body.ParameterUpdates), ...associationUpdates(set, body, parameters)];
      applyUpdates(parameters, updates);
      await applyTypeRules(c, caller.accountId, type, parameters, parents, updates, null);
      await checkReferences(c, caller.accountId, set, updates, 'ParameterUpdates');

      const position = await insertPosition(c, caller.accountId, type, parents, body.Index ?? null);
      const now = new Date();
      const row: EntityRow = { id: randomUUID(), account_id: caller.accountId, type: type.plural, ...parents, position, parameters, created_at: now, modified_at: now };
      await repo.insert(c, row);
      events.push(changed('created', row, type, Object.keys(parameters)));

      if (body.CopyAll && source) events.push(...(await copyDescendants(c, caller.accountId, source.id, row.id, now)));
      const [entity] = await renderRows(c, caller.accountId, [row], parseProjection(type, undefined, sets), sets);
      return { result: entityReply(entity as EntityJson, now), events };
    });
  }

  async update(caller: CallerContext, typeName: string, id: string, body: UpdateModel, bindingErrors?: FieldErrors): Promise<RenderedReply> {
    const type = knownType(typeName);
    assertWriter(caller);
    if (bindingErrors) await this.rejectWithParameterErrors(caller, type, body, bindingErrors);
    return this.write(caller.accountId, async (c) => {
      const events: EntityChangedEvent[] = [];
      const row = await repo.findById(c, caller.accountId, type.plural, id, true);
      if (!row) throw notFound(type, id);
      if (body.LastModifiedTimeMaxAllowedValue) {
        const limit = Date.parse(body.LastModifiedTimeMaxAllowedValue);
        if (row.modified_at.getTime() > limit)
          throw AppError.conflict(`${type.name} ${id} was modified at ${row.modified_at.toISOString()}, after LastModifiedTimeMaxAllowedValue`);
      }
      const sets = await loadParameterSets(c, caller.accountId);
      const set = sets(type);
      const parameters = { ...row.parameters };
      const updates = [...convertUpdates(set, body.ParameterUpdates), ...associationUpdates(set, body, parameters)];
      applyUpdates(parameters, updates);
      const parents = { parent_id: row.parent_id, parent2_id: row.parent2_id };
      await applyTypeRules(c, caller.accountId, type, parameters, parents, updates, row);
      await checkReferences(c, caller.accountId, set, updates, 'ParameterUpdates');

      const modifiedAt = nextModifiedTime(row.modified_at);
      for (const [name, items] of Object.entries(body.CollectionUpdateModels ?? {})) {
        events.push(...(await updateCollection(c, caller.accountId, type, row, name, items, sets, modifiedAt)));
      }
      await repo.updateParameters(c, row.id, parameters, modifiedAt);
      const updated = { ...row, parameters, modified_at: modifiedAt };
      events.unshift(changed('updated', updated, type, changedNames(row.parameters, parameters)));
      const [entity] = await renderRows(c, caller.accountId, [updated], parseProjection(type, undefined, sets), sets);
      return { result: entityReply(entity as EntityJson, modifiedAt), events };
    });
  }

  /** The body had unknown properties: nothing is written, and the answer also names every unconvertible parameter. */
  private async rejectWithParameterErrors(caller: CallerContext, type: EntityTypeDef, body: CreateModel | UpdateModel, bindingErrors: FieldErrors): Promise<never> {
    const sets = await loadParameterSets(this.pool, caller.accountId);
    let errors = bindingErrors;
    try {
      convertUpdates(sets(type), body.ParameterUpdates);
    } catch (err) {
      if (!(err instanceof AppError) || !err.errors) throw err;
      errors = { ...bindingErrors, ...err.errors };
    }
    throw AppError.badRequest('The request body is not valid', errors);
  }

  async delete(caller: CallerContext, typeName: string, id: string): Promise<void> {
    const type = knownType(typeName);
    assertWriter(caller);
    await this.write(caller.accountId, async (c) => {
      const found = await repo.findById(c, caller.accountId, type.plural, id, true);
      if (!found) throw notFound(type, id);
      if (type.plural === 'ParameterDefinitions') {
        await repo.lockParameterDefinitions(c, caller.accountId);
        await checkNoStoredValues(c, caller.accountId, found, 'deleted');
      }
      // References to what goes (a run sheet's DriverId when the driver is deleted) are cleared, not left dangling.
      const cleared = await clearReferencesTo(c, caller.accountId, await repo.deletionScope(c, caller.accountId, found.id));
      await repo.delete(c, found.id);
      return { result: undefined, events: [changed('deleted', found, type, []), ...cleared] };
    });
  }
}

function encode(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

function entityReply(entity: EntityJson, modifiedAt: Date): RenderedReply {
  return { json: encode(entity), lastModifiedTime: modifiedAt.toISOString(), entityId: entity.Id as string };
}

function knownType(plural: string): EntityTypeDef {
  const type = entityType(plural);
  if (!type) throw AppError.notFound(`There is no entity type ${plural}`);
  return type;
}

function assertWriter(caller: CallerContext): void {
  if (caller.role === 'reader') throw AppError.forbidden('Your role in this account is reader: it may read, not write');
}

function notFound(type: EntityTypeDef, id: string): AppError {
  return AppError.notFound(`${type.name} ${id} was not found`);
}

const lower = (v: string | null | undefined): string => (v ?? '').toLowerCase();

/** Later than the previous write by at least 1 ms, so an optimistic check can never tie. */
function nextModifiedTime(previous: Date): Date {
  return new Date(Math.max(Date.now(), previous.getTime() + 1));
}

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

interface Parents {
  parent_id: string | null;
  parent2_id: string | null;
}

/** Binds parent ids (case-insensitive keys) to the type's parents and checks each is the caller's. */
async function resolveParents(q: Queryable, accountId: string, type: EntityTypeDef, given: Record<string, string>, requireAll: boolean): Promise<Parents> {
  const byLower = new Map(Object.entries(given).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]));
  const errors: FieldErrors = {};
  const ids: (string | null)[] = [];
  for (const parent of type.parents) {
    const id = byLower.get(parent.key.toLowerCase());
    byLower.delete(parent.key.toLowerCase());
    if (!id && requireAll) errors[parent.key] = ['is required'];
    ids.push(id ?? null);
  }
  for (const key of byLower.keys()) errors[key] = [type.parents.length ? `is not a parent of ${type.plural}; expected ${type.parents.map((p) => p.key).join(', ')}` : `${type.plural} have no parent`];
  if (!requireAll && type.parents.length > 0 && ids.every((id) => id === null)) errors[type.parents[0]?.key as string] = [`at least one of ${type.parents.map((p) => p.key).join(', ')} is required`];
  if (Object.keys(errors).length) throw AppError.badRequest('The parent ids are not valid', errors);
  for (const [i, parent] of type.parents.entries()) {
    const id = ids[i];
    if (!id) continue;
    const parentType = requireEntityType(parent.type);
    if (!(await repo.findById(q, accountId, parentType.plural, id))) throw notFound(parentType, id);
  }
  return { parent_id: ids[0] ?? null, parent2_id: ids[1] ?? null };
}

/** Setups and car data need the car entered in the event (directly, or through the session's event). */
async function checkEventCarEntry(q: Queryable, accountId: string, type: EntityTypeDef, parents: Parents): Promise<void> {
  if (!type.requiresEventCar || !parents.parent_id || !parents.parent2_id) return;
  let eventId = parents.parent_id;
  if (type.requiresEventCar === 'session') {
    const session = await repo.findById(q, accountId, 'Sessions', parents.parent_id);
    eventId = session?.parent_id ?? '';
  }
  if (!(await repo.eventCarExists(q, accountId, eventId, parents.parent2_id)))
    throw AppError.badRequest(`Car ${parents.parent2_id} is not entered in the event: add an EventCar first`, { carId: ['the car is not entered in the event'] });
}

/**
 * `<X>AssociationsToAdd: [{ <X>Id }]` sets the `<X>Id` reference (Tyres, IssueListIssues and AssemblyIterations
 * carry ChampionshipId, EventId and CarId this way); `...ToRemove` clears it when it names the current one.
 */
function associationUpdates(set: ParameterSet, body: Record<string, unknown>, current: Record<string, ParameterValue>): ConvertedUpdate[] {
  const errors: FieldErrors = {};
  const out: ConvertedUpdate[] = [];
  for (const { model, action, key, items } of associationsOf(body)) {
    const def = set.referenceByObjectName(model);
    if (!def) {
      errors[key] = [`${set.type.plural} have no ${model} association`];
      continue;
    }
    if (action === 'add' && items.length > 1) errors[key] = [`holds one item: a ${set.type.name} has one ${model}`];
    for (const [i, item] of items.entries()) {
      if (item.ParameterUpdates?.length) errors[`${key}[${i}].ParameterUpdates`] = ['association parameters are not stored; set them on the entity'];
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

function applyUpdates(parameters: Record<string, ParameterValue>, updates: ConvertedUpdate[]): void {
  for (const u of updates) {
    if (u.value === null) delete parameters[u.def.name];
    else parameters[u.def.name] = u.value;
  }
}

/** A reference must name an entity of the referenced type in the caller's account. */
async function checkReferences(q: Queryable, accountId: string, set: ParameterSet, updates: ConvertedUpdate[], path: string): Promise<void> {
  const errors: FieldErrors = {};
  for (const u of updates) {
    if (u.def.type !== 'Reference' || typeof u.value !== 'string' || !u.def.references) continue;
    const target = entityType(u.def.references);
    if (!target || !(await repo.findById(q, accountId, target.plural, u.value)))
      errors[u.path ?? `${path}[${u.index}].Value`] = [`${u.def.name} references ${target?.name ?? u.def.references} ${u.value}, which was not found`];
  }
  if (Object.keys(errors).length) throw AppError.badRequest('The request body is not valid', errors);
  void set;
}

/** Rules that belong to one type: an event car's CarId is its car; a parameter definition must make sense. */
async function applyTypeRules(q: Queryable, accountId: string, type: EntityTypeDef, parameters: Record<string, ParameterValue>, parents: Parents, updates: ConvertedUpdate[], existing: EntityRow | null): Promise<void> {
  if (type.plural === 'EventCars') {
    if (updates.some((u) => u.def.name === 'CarId' && u.value !== parents.parent2_id))
      throw AppError.badRequest('The request body is not valid', { CarId: ['is the entered car (carId) and cannot be changed'] });
    parameters['CarId'] = parents.parent2_id;
    if (!existing && parents.parent_id && parents.parent2_id) {
      // Locking the event serialises concurrent entries, so two requests cannot both see the car as not entered.
      await repo.findById(q, accountId, 'Events', parents.parent_id, true);
      if (await repo.eventCarExists(q, accountId, parents.parent_id, parents.parent2_id)) throw AppError.conflict(`Car ${parents.parent2_id} is already entered in event ${parents.parent_id}`);
    }
  }
  if (type.plural === 'ParameterDefinitions') {
    validateParameterDefinition(parameters);
    await checkDefinitionIsUnique(q, accountId, parameters, existing);
    if (existing && DEFINING.some((k) => !sameDefinitionField(k, existing.parameters[k], parameters[k]))) await checkNoStoredValues(q, accountId, existing, 'redefined');
  }
}

/** The fields that say what a custom parameter is: changing one would strand values stored under the old meaning. */
const DEFINING = ['EntityType', 'Name', 'ParameterType', 'EnumValues', 'ReferencedEntityType'] as const;

function sameDefinitionField(field: (typeof DEFINING)[number], before: ParameterValue | undefined, after: ParameterValue | undefined): boolean {
  const norm = (v: ParameterValue | undefined) => (field === 'EnumValues' ? String(v ?? '').split(',').map((e) => e.trim()).filter(Boolean).join(',') : String(v ?? ''));
  return norm(before) === norm(after);
}

/** Sets every Reference parameter of the account that points at one of `ids` to null; returns the update events. */
async function clearReferencesTo(c: PoolClient, accountId: string, ids: string[]): Promise<EntityChangedEvent[]> {
  const gone = new Set(ids);
  const referrers = await repo.referringTo(c, accountId, ids);
  if (referrers.length === 0) return [];
  const sets = await loadParameterSets(c, accountId);
  const events: EntityChangedEvent[] = [];
  for (const row of referrers) {
    const type = entityType(row.type);
    if (!type) continue;
    const set = sets(type);
    const names = Object.entries(row.parameters)
      .filter(([name, value]) => typeof value === 'string' && gone.has(value) && set.get(name)?.type === 'Reference')
      .map(([name]) => name);
    if (names.length === 0) continue;
    const parameters = { ...row.parameters, ...Object.fromEntries(names.map((n) => [n, null])) };
    const modifiedAt = nextModifiedTime(row.modified_at);
    await repo.updateParameters(c, row.id, parameters, modifiedAt);
    events.push(changed('updated', { ...row, parameters, modified_at: modifiedAt }, type, names));
  }
  return events;
}

/** A definition whose parameter still holds values may not be deleted or redefined (409): the values would be stranded. */
async function checkNoStoredValues(q: Queryable, accountId: string, definition: EntityRow, action: 'deleted' | 'redefined'): Promise<void> {
  const entityTypeName = String(definition.parameters['EntityType'] ?? '');
  const name = String(definition.parameters['Name'] ?? '');
  const holders = await repo.countHoldingParameter(q, accountId, entityTypeName, name);
  if (holders > 0)
    throw AppError.conflict(`${holders} ${entityTypeName} hold a value of ${name}: set it to null on them before the definition can be ${action}`);
}

/** Two definitions of one name on one type would make the parameter's type ambiguous. */
async function checkDefinitionIsUnique(q: Queryable, accountId: string, p: Record<string, ParameterValue>, existing: EntityRow | null): Promise<void> {
  const key = (d: Record<string, unknown>) => `${String(d['EntityType'] ?? '').toLowerCase()}/${String(d['Name'] ?? '').toLowerCase()}`;
  await repo.lockParameterDefinitions(q, accountId);
  const clash = (await repo.parameterDefinitions(q, accountId)).find((d) => d.id !== existing?.id && key(d.parameters) === key(p));
  if (clash) throw AppError.badRequest('The parameter definition is not valid', { Name: [`${String(p['EntityType'])} already has a parameter ${String(clash.parameters['Name'])}`] });
}

function validateParameterDefinition(p: Record<string, ParameterValue>): void {
  const errors: FieldErrors = {};
  const target = entityType(String(p['EntityType'] ?? ''));
  if (!target) errors['EntityType'] = [`must name an entity type (${ENTITY_TYPES.map((t) => t.plural).join(', ')})`];
  else p['EntityType'] = target.plural;
  const name = String(p['Name'] ?? '');
  if (!/^[A-Za-z][A-Za-z0-9_]{0,99}$/.test(name)) errors['Name'] = ['must start with a letter and hold only letters, digits and _'];
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

/** Position for a new sibling: appended, or inserted at `index` with the later siblings moved up. */
async function insertPosition(c: PoolClient, accountId: string, type: EntityTypeDef, parents: Parents, index: number | null): Promise<number> {
  await repo.lockSiblings(c, accountId, type.plural, parents.parent_id, parents.parent2_id);
  const last = await repo.lastSibling(c, accountId, type.plural, parents.parent_id, parents.parent2_id);
  const end = last ? last.position + 1 : 0;
  if (index === null || index < 0) return end;
  const count = await repo.siblingCount(c, accountId, type.plural, parents.parent_id, parents.parent2_id);
  if (index >= count) return end;
  // Renumber densely first so "index" means the sibling's place in order even after deletions left gaps.
  await c.query(
    `UPDATE entity.entities e SET position = o.rn - 1 FROM (
       SELECT id, row_number() OVER (ORDER BY position, created_at) AS rn FROM entity.entities
       WHERE account_id = $1 AND type = $2 AND parent_id IS NOT DISTINCT FROM $3 AND parent2_id IS NOT DISTINCT FROM $4) o
     WHERE e.id = o.id`,
    [accountId, type.plural, parents.parent_id, parents.parent2_id],
  );
  await repo.shiftPositions(c, accountId, type.plural, parents.parent_id, parents.parent2_id, index);
  return index;
}

async function copyDescendants(c: PoolClient, accountId: string, fromId: string, toId: string, now: Date): Promise<EntityChangedEvent[]> {
  const rows = await repo.descendants(c, accountId, fromId);
  const idMap = new Map([[fromId, toId], ...rows.map((d) => [d.id, randomUUID()] as [string, string])]);
  const remap = (id: string | null) => (id !== null && idMap.has(id) ? (idMap.get(id) as string) : id);
  const events: EntityChangedEvent[] = [];
  for (const d of rows) {
    // References into the copied subtree (a run sheet's SetupId when the event is copied) follow the copy.
    const parameters = Object.fromEntries(Object.entries(d.parameters).map(([k, v]) => [k, typeof v === 'string' ? remap(v) : v]));
    const row: EntityRow = { ...d, id: idMap.get(d.id) as string, parent_id: remap(d.parent_id), parent2_id: remap(d.parent2_id), parameters, created_at: now, modified_at: now };
    await repo.insert(c, row);
    const type = entityType(row.type);
    if (type) events.push(changed('created', row, type, Object.keys(row.parameters)));
  }
  // The attached files of the source and of every copied descendant go with the copy.
  await repo.copyAttachedFiles(c, accountId, [...idMap], now);
  return events;
}

async function updateCollection(
  c: PoolClient,
  accountId: string,
  type: EntityTypeDef,
  owner: EntityRow,
  name: string,
  items: CollectionItemUpdate[],
  sets: ParameterSets,
  now: Date,
): Promise<EntityChangedEvent[]> {
  const childType = childTypesOf(type).find((t) => collectionNameOf(t).toLowerCase() === name.toLowerCase());
  const path = `CollectionUpdateModels.${name}`;
  if (!childType) throw AppError.badRequest('The request body is not valid', { [path]: [`${type.plural} have no collection ${name}`] });
  const set = sets(childType);
  const events: EntityChangedEvent[] = [];
  for (const [i, item] of items.entries()) {
    const itemPath = `${path}[${i}]`;
    // A new item of a two-parent type names its second parent (a run sheet's CarId) among its ParameterUpdates;
    // where that is not a parameter of the type, it is taken out before the parameters are converted.
    const second = item.Id ? undefined : childType.parents[1];
    const secondName = second ? pascal(second.key) : '';
    const secondUpdate = second ? item.ParameterUpdates?.find((u) => u.Name.toLowerCase() === secondName.toLowerCase()) : undefined;
    const parameterUpdates = secondUpdate && !set.get(secondName) ? item.ParameterUpdates?.filter((u) => u !== secondUpdate) : item.ParameterUpdates;
    const updates = convertUpdates(set, parameterUpdates, `${itemPath}.ParameterUpdates`);
    await checkReferences(c, accountId, set, updates, `${itemPath}.ParameterUpdates`);
    if (!item.Id) {
      if (item.Delete) throw AppError.badRequest('The request body is not valid', { [`${itemPath}.Delete`]: ['needs an Id'] });
      let parent2: string | null = null;
      if (second) {
        const id = secondUpdate?.Value?.trim().toLowerCase();
        if (!id || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id))
          throw AppError.badRequest('The request body is not valid', { [`${itemPath}.ParameterUpdates`]: [`${secondName} (a GUID) is required to add to ${name}`] });
        const secondType = requireEntityType(second.type);
        if (!(await repo.findById(c, accountId, secondType.plural, id))) throw notFound(secondType, id);
        parent2 = id;
      }
      const parents = { parent_id: owner.id, parent2_id: parent2 };
      const parameters: Record<string, ParameterValue> = {};
      applyUpdates(parameters, updates);
      await checkEventCarEntry(c, accountId, childType, parents);
      await applyTypeRules(c, accountId, childType, parameters, parents, updates, null);
      const position = await insertPosition(c, accountId, childType, parents, null);
      const row: EntityRow = { id: randomUUID(), account_id: accountId, type: childType.plural, ...parents, position, parameters, created_at: now, modified_at: now };
      await repo.insert(c, row);
      events.push(changed('created', row, childType, Object.keys(parameters)));
      continue;
    }
    const child = await repo.findById(c, accountId, childType.plural, item.Id.toLowerCase(), true);
    if (!child || child.parent_id !== owner.id) throw AppError.badRequest('The request body is not valid', { [`${itemPath}.Id`]: [`is not an item of this ${type.name}'s ${name}`] });
    if (item.Delete) {
      await repo.delete(c, child.id);
      events.push(changed('deleted', child, childType, []));
      continue;
    }
    const parameters = { ...child.parameters };
    applyUpdates(parameters, updates);
    await applyTypeRules(c, accountId, childType, parameters, { parent_id: child.parent_id, parent2_id: child.parent2_id }, updates, child);
    await repo.updateParameters(c, child.id, parameters, nextModifiedTime(child.modified_at));
    events.push(changed('updated', { ...child, parameters }, childType, changedNames(child.parameters, parameters)));
  }
  return events;
}

/** Parameters whose value differs between two versions of an entity. */
function changedNames(before: Record<string, ParameterValue>, after: Record<string, ParameterValue>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]);
}

function changed(action: EntityChangedEvent['action'], row: EntityRow, type: EntityTypeDef, changedParameters: string[]): EntityChangedEvent {
  const parentIds: Record<string, string> = {};
  if (row.parent_id && type.parents[0]) parentIds[type.parents[0].key] = row.parent_id;
  if (row.parent2_id && type.parents[1]) parentIds[type.parents[1].key] = row.parent2_id;
  return { action, accountId: row.account_id, entityType: type.name, entityId: row.id, parentIds, changedParameters, occurredAt: new Date().toISOString() };
}
