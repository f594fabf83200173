import { AppError } from '@pitwall/service-kit';
import { ATTACHED_FILE_PARAMETERS, childTypesOf, collectionNameOf, REQUEST_LIMITS, requireEntityType, type EntityTypeDef } from '@pitwall/contracts';
import type { ParameterSet } from './parameters';

/**
 * What a read returns for one entity type, parsed from `parametersToInclude` (wire.md §4).
 * `all` (absent or `*`) returns every parameter, every collection as an empty array unless asked for,
 * and references as `{Id, Parameters: {}}`; otherwise only what is named appears.
 */
export interface Projection {
  type: EntityTypeDef;
  all: boolean;
  /** A referenced entity nested in a parameter: `{Id, Parameters}` only, so `*` brings no empty collections. */
  nested: boolean;
  /** Parameter names (canonical spelling) to include when not `all`. */
  parameters: Set<string>;
  /** Populated child collections by collection name. */
  collections: Map<string, Projection>;
  /** Populated references by object name (`Car` for `CarId`). */
  references: Map<string, { parameter: string; projection: Projection }>;
  /** AttachedFiles populated (parameters projected by name, or all). */
  attachedFiles: { all: boolean; parameters: Set<string> } | null;
}

export type ParameterSets = (type: EntityTypeDef) => ParameterSet;

function empty(type: EntityTypeDef, all: boolean, nested = false): Projection {
  return { type, all, nested, parameters: new Set(), collections: new Map(), references: new Map(), attachedFiles: null };
}

export const ATTACHED_FILES = 'AttachedFiles';

/** Parses the paths; unknown paths are one 400 naming each. */
export function parseProjection(type: EntityTypeDef, paths: readonly string[] | undefined, sets: ParameterSets): Projection {
  const cleaned = (paths ?? []).map((p) => p.trim()).filter(Boolean);
  if (cleaned.length === 0) return empty(type, true);
  const root = empty(type, false);
  const unknown: string[] = [];
  const levels = { count: 0 };
  for (const path of cleaned) {
    try {
      addPath(root, path.split('.'), path, sets, levels);
    } catch (err) {
      if (!(err instanceof UnknownPath)) throw err;
      unknown.push(path);
    }
  }
  if (unknown.length) {
    const named = unknown.map((path) => `unknown property path '${path}'`);
    throw AppError.badRequest(unknown.length === 1 ? `parametersToInclude names an unknown property path '${unknown[0] as string}'` : `parametersToInclude names unknown property paths: ${unknown.map((p) => `'${p}'`).join(', ')}`, { parametersToInclude: named });
  }
  return root;
}

/**
 * Whether the projection renders an entity of one of `types` that is not in the read entity's own subtree: one reached
 * through a reference, or a collection of one (`MySession.RunSheets.Laps`), at any depth.
 */
export function reachesTypes(projection: Projection, types: ReadonlySet<string>, throughReference = false): boolean {
  if (throughReference && types.has(projection.type.plural)) return true;
  for (const { projection: target } of projection.references.values()) if (reachesTypes(target, types, true)) return true;
  for (const child of projection.collections.values()) if (reachesTypes(child, types, throughReference)) return true;
  return false;
}

/** Counts a new level of the projection (a collection or a reference read by one query): past MAX_INCLUDE_NODES, a 400. */
function newLevel(levels: { count: number }): void {
  if (++levels.count > REQUEST_LIMITS.MAX_INCLUDE_NODES) {
    const detail = `must name at most ${REQUEST_LIMITS.MAX_INCLUDE_NODES} collections and references together (MAX_INCLUDE_NODES: each is read by a query of its own)`;
    throw AppError.badRequest(`parametersToInclude ${detail}`, { parametersToInclude: [detail] });
  }
}

function addPath(node: Projection, segments: string[], fullPath: string, sets: ParameterSets, levels: { count: number }): void {
  const [head, ...rest] = segments;
  if (!head) throw unknownPath(fullPath);
  if (head === '*') {
    if (rest.length) throw unknownPath(fullPath);
    node.all = true;
    return;
  }
  // `Id` is always returned: `Id` and `Cars.Car.Id` select the entity itself and nothing more (wire.md §4).
  if (head.toLowerCase() === 'id' && rest.length === 0) return;
  const set = sets(node.type);
  if (head.toLowerCase() === ATTACHED_FILES.toLowerCase()) {
    if (!node.type.features.attachments) throw unknownPath(fullPath);
    node.attachedFiles ??= { all: false, parameters: new Set() };
    if (rest.length === 0 || (rest.length === 1 && rest[0] === '*')) node.attachedFiles.all = true;
    else {
      const parameter = rest.length === 1 ? ATTACHED_FILE_PARAMETERS.find((p) => p.name.toLowerCase() === rest[0]?.toLowerCase()) : undefined;
      if (!parameter) throw unknownPath(fullPath);
      node.attachedFiles.parameters.add(parameter.name);
    }
    return;
  }
  const child = childTypesOf(node.type).find((t) => collectionNameOf(t).toLowerCase() === head.toLowerCase());
  if (child) {
    const name = collectionNameOf(child);
    let sub = node.collections.get(name);
    if (!sub) {
      newLevel(levels);
      sub = empty(child, false);
      node.collections.set(name, sub);
    }
    if (rest.length === 0) sub.all = true;
    else addPath(sub, rest, fullPath, sets, levels);
    return;
  }
  const reference = set.referenceByObjectName(head);
  if (reference && (rest.length > 0 || !set.get(head))) {
    const refType = requireEntityType(reference.references ?? '');
    const objectName = reference.name.slice(0, -2);
    let entry = node.references.get(objectName);
    if (!entry) {
      newLevel(levels);
      entry = { parameter: reference.name, projection: empty(refType, false, true) };
      node.references.set(objectName, entry);
    }
    if (rest.length === 0) entry.projection.all = true;
    else addPath(entry.projection, rest, fullPath, sets, levels);
    return;
  }
  const parameter = set.get(head);
  if (parameter && rest.length === 0) {
    node.parameters.add(parameter.name);
    return;
  }
  throw unknownPath(fullPath);
}

/** A path of the projection that names nothing; parseProjection reports every such path together. */
class UnknownPath extends Error {}

function unknownPath(path: string): UnknownPath {
  return new UnknownPath(path);
}
