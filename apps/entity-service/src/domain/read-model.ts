import { collectionNamesOf, type EntityJson } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';
import type { Queryable } from '@pitwall/db';
import { attachedFileRepository, type AttachedFileRow } from '../data-access/attached-file-repository';
import { entityRepository } from '../data-access/entity-repository';
import type { RenderRow } from '../data-access/entity-row';
import type { ParameterSets, Projection } from './projection';
import type { RenderedReply } from './read-cache';

/**
 * Renders rows as wire.md §2 entity JSON under a projection. Nested data is loaded level by level:
 * one query per node of the projection tree, whatever the number of rows (never one query per row).
 */
export async function renderRows(q: Queryable, accountId: string, rows: RenderRow[], projection: Projection, sets: ParameterSets): Promise<EntityJson[]> {
  const ids = rows.map((r) => r.id);

  const collections = new Map<string, Map<string, EntityJson[]>>();
  for (const [name, sub] of projection.collections) {
    const childRows = await entityRepository.childrenOf(q, accountId, sub.type.plural, ids, sub.type.orderByParameter);
    const rendered = await renderRows(q, accountId, childRows, sub, sets);
    const byParent = new Map<string, EntityJson[]>();
    childRows.forEach((row, i) => {
      const list = byParent.get(row.parent_id as string) ?? [];
      list.push(rendered[i] as EntityJson);
      byParent.set(row.parent_id as string, list);
    });
    collections.set(name, byParent);
  }

  const references = new Map<string, Map<string, EntityJson>>();
  for (const [objectName, { parameter, projection: sub }] of projection.references) {
    const refIds = [...new Set(rows.map((r) => r.parameters[parameter]).filter((v): v is string => typeof v === 'string'))];
    const refRows = await entityRepository.findByIds(q, accountId, sub.type.plural, refIds);
    const rendered = await renderRows(q, accountId, refRows, sub, sets);
    references.set(objectName, new Map(refRows.map((r, i) => [r.id, rendered[i] as EntityJson])));
  }

  let files: Map<string, AttachedFileRow[]> | undefined;
  if (projection.attachedFiles) {
    files = new Map();
    for (const f of await attachedFileRepository.attachedFilesOf(q, accountId, ids)) {
      const list = files.get(f.entity_id) ?? [];
      list.push(f);
      files.set(f.entity_id, list);
    }
  }

  return rows.map((row) => renderOne(row, projection, sets, collections, references, files));
}

/** Entities one read may write out (ENTITY_READ_MAX_ENTITIES) when the service is not told otherwise. */
export const DEFAULT_MAX_READ_ENTITIES = 1_000_000;

/**
 * How many entities each rendered entity writes out: itself and everything nested in it, a referenced entity once for
 * every place it is written (the rendering shares one object; its JSON repeats it, so an include path that loops back
 * through a reference, `Events.Series.Events.Series...`, grows exponentially in the answer, not in the database).
 */
const written = new WeakMap<EntityJson, number>();

/** Entities the JSON of these rendered entities writes, nested ones and every copy of a reference included. */
function entitiesWritten(entities: readonly EntityJson[]): number {
  let n = 0;
  for (const e of entities) n += written.get(e) ?? 1;
  return n;
}

/** Refuses, before any of it is written, an answer of more entities than `max` (ENTITY_READ_MAX_ENTITIES). */
function withinReadBound(entities: readonly EntityJson[], max: number): void {
  const n = entitiesWritten(entities);
  if (n > max) {
    const shown = Number.isFinite(n) && n < 1e15 ? String(n) : 'more than 10^15';
    throw new AppError(413, `This read would write ${shown} entities (references are written again wherever they are included), more than one answer may hold (ENTITY_READ_MAX_ENTITIES is ${max}): include fewer levels, or read the parts separately`);
  }
}

function renderOne(
  row: RenderRow,
  projection: Projection,
  sets: ParameterSets,
  collections: Map<string, Map<string, EntityJson[]>>,
  references: Map<string, Map<string, EntityJson>>,
  files: Map<string, AttachedFileRow[]> | undefined,
): EntityJson {
  const set = sets(projection.type);
  const parameters: Record<string, unknown> = {};
  // A parameter the read includes is always present, null when unset: scripts index lap['Parameters']['LapTime'] directly.
  const included = projection.all ? [...set.all().map((p) => p.name), ...Object.keys(row.parameters)] : [...projection.parameters];
  for (const name of included) {
    // Own keys only: a custom parameter may be called `constructor` or `toString`, which every object inherits.
    if (Object.hasOwn(parameters, name)) continue;
    const value = Object.hasOwn(row.parameters, name) ? (row.parameters[name] ?? null) : null;
    parameters[name] = value;
    // A reference is read beside its id (`Setup` for `SetupId`): the entity when set, null when not (wire.md §2, §4).
    // A parameter of the object's own name (a custom `Setup`) keeps its value.
    if (set.get(name)?.type === 'Reference' && !set.get(name.slice(0, -2))) parameters[name.slice(0, -2)] = typeof value === 'string' ? { Id: value, Parameters: {} } : null;
  }
  for (const [objectName, { parameter }] of projection.references) {
    const id = Object.hasOwn(row.parameters, parameter) ? row.parameters[parameter] : undefined;
    if (typeof id !== 'string') {
      parameters[parameter] = null;
      parameters[objectName] = null;
      continue;
    }
    parameters[parameter] = id;
    parameters[objectName] = references.get(objectName)?.get(id) ?? { Id: id, Parameters: {} };
  }
  const out: EntityJson = { Id: row.id, Parameters: parameters };
  let count = 1;
  for (const [objectName] of projection.references) {
    const ref = parameters[objectName];
    if (ref && typeof ref === 'object') count += written.get(ref as EntityJson) ?? 1;
  }
  // An association's parameters are read with the association: `ChampionshipAssociations: [{ ChampionshipId, Parameters }]`
  // beside Parameters, when the read includes the reference and its association was given parameters.
  for (const [name, association] of Object.entries(row.association_parameters ?? {})) {
    if (parameters[name] === association.Id) out[`${name.slice(0, -2)}Associations`] = [{ [name]: association.Id, Parameters: association.Parameters }];
  }
  const names = projection.all && !projection.nested ? collectionNamesOf(projection.type) : [...projection.collections.keys(), ...(projection.attachedFiles ? ['AttachedFiles'] : [])];
  for (const name of names) {
    if (name === 'AttachedFiles') out[name] = files ? (files.get(row.id) ?? []).map((f) => renderAttachedFile(f, projection.attachedFiles)) : [];
    else {
      const children = collections.get(name)?.get(row.id) ?? [];
      out[name] = children;
      count += entitiesWritten(children);
    }
  }
  written.set(out, count);
  return out;
}

export function renderAttachedFile(f: AttachedFileRow, projection: { all: boolean; parameters: Set<string> } | null): EntityJson {
  const all: Record<string, unknown> = {
    FileName: f.file_name,
    FileSize: f.file_size === null ? null : Number(f.file_size),
    UseCompression: f.use_compression,
    ServerAttachedFileState: f.state,
    AttachedFileGroupName: f.group_name,
    CreatedTime: f.created_time.toISOString(),
  };
  if (!projection || projection.all) return { Id: f.id, Parameters: all };
  return { Id: f.id, Parameters: Object.fromEntries(Object.entries(all).filter(([k]) => projection.parameters.has(k))) };
}

/**
 * Bytes of JSON one answer may hold (ENTITY_READ_MAX_BYTES) when the service is not told otherwise: 64 MiB. The answer
 * travels as one bus message, which RabbitMQ refuses past its max_message_size (128 MiB in 3.13, 16 MiB by default in 4.x):
 * refused there, the caller waited out its timeout for a 504; past V8's longest string (about 512 MB), it was a 500.
 */
export const DEFAULT_MAX_READ_BYTES = 64 * 1024 * 1024;

/** The JSON of an answer, or a 413 when it is longer than `maxBytes` (ENTITY_READ_MAX_BYTES) or than V8 can make. */
function answerJson(value: unknown, maxBytes: number): Buffer {
  const tooLarge = (what: string) =>
    new AppError(413, `This read's answer would be ${what}, more than one answer may hold (ENTITY_READ_MAX_BYTES is ${maxBytes} bytes): include fewer parameters or levels, or read the parts separately`);
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    if (err instanceof RangeError) throw tooLarge('longer than one JSON text can be here (about 512 MB)');
    throw err;
  }
  // A character is at least one byte: a text this long is too large whatever it holds.
  if (text.length > maxBytes) throw tooLarge(`at least ${text.length} bytes`);
  const json = Buffer.from(text);
  if (json.length > maxBytes) throw tooLarge(`${json.length} bytes`);
  return json;
}

/** One rendered entity as a reply: its JSON bytes, modification time and id (the gateway's headers); at most `max` entities written, `maxBytes` long. */
export function entityReply(entity: EntityJson, modifiedAt: Date, max = DEFAULT_MAX_READ_ENTITIES, maxBytes = DEFAULT_MAX_READ_BYTES): RenderedReply {
  withinReadBound([entity], max);
  return { json: answerJson(entity, maxBytes), lastModifiedTime: modifiedAt.toISOString(), entityId: entity.Id as string };
}

/** Rendered entities as a list reply; at most `max` entities written, `maxBytes` long. */
export function listReply(entities: EntityJson[], max = DEFAULT_MAX_READ_ENTITIES, maxBytes = DEFAULT_MAX_READ_BYTES): RenderedReply {
  withinReadBound(entities, max);
  return { json: answerJson(entities, maxBytes) };
}
