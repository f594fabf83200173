import { collectionNamesOf, type EntityJson } from '@pitwall/contracts';
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
  // An association's parameters are read with the association: `ChampionshipAssociations: [{ ChampionshipId, Parameters }]`
  // beside Parameters, when the read includes the reference and its association was given parameters.
  for (const [name, association] of Object.entries(row.association_parameters ?? {})) {
    if (parameters[name] === association.Id) out[`${name.slice(0, -2)}Associations`] = [{ [name]: association.Id, Parameters: association.Parameters }];
  }
  const names = projection.all && !projection.nested ? collectionNamesOf(projection.type) : [...projection.collections.keys(), ...(projection.attachedFiles ? ['AttachedFiles'] : [])];
  for (const name of names) {
    if (name === 'AttachedFiles') out[name] = files ? (files.get(row.id) ?? []).map((f) => renderAttachedFile(f, projection.attachedFiles)) : [];
    else out[name] = collections.get(name)?.get(row.id) ?? [];
  }
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

/** One rendered entity as a reply: its JSON bytes, modification time and id (the gateway's headers). */
export function entityReply(entity: EntityJson, modifiedAt: Date): RenderedReply {
  return { json: Buffer.from(JSON.stringify(entity)), lastModifiedTime: modifiedAt.toISOString(), entityId: entity.Id as string };
}

/** Rendered entities as a list reply. */
export function listReply(entities: EntityJson[]): RenderedReply {
  return { json: Buffer.from(JSON.stringify(entities)) };
}
