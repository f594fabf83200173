import { z } from 'zod';
import { entitySchemaOf } from './entity-schemas';
import { ENTITY_COMMANDS } from './messages';
import { accountHeader, emptyResponse, idParam, includeShape, JSON_TYPES, toBus, withDefaults, type Operation } from './operation-model';
import type { EntityTypeDef } from './registry';
import { CreateModel, Guid, SearchBody, UpdateModel } from './wire';

/** Parent ids present in the bound query, lower-cased (GUIDs compare case-insensitively). */
function parentIdsOf(type: EntityTypeDef, query: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key } of type.parents) if (query[key] !== undefined) out[key] = query[key].toLowerCase();
  return out;
}

/** A type's declared list filters (`TyreSpecificationId`) by their camelCase query names (`tyreSpecificationId`). */
const filterKey = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);

/** The declared filters present in the bound query, by parameter name, lower-cased. */
function filtersOf(type: EntityTypeDef, query: Record<string, string>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of type.filters ?? []) if (query[filterKey(name)] !== undefined) out[name] = query[filterKey(name)].toLowerCase();
  return Object.keys(out).length ? out : undefined;
}

/** `trackConfigurationId` → `TrackConfiguration`. */
const parentName = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1, -2);

/** The standard operations of one registry type (wire.md §3), with the names the wrappers give them; answered by the entity-service. */
export function entityOperations(type: EntityTypeDef): Operation[] {
  const { plural: P, name: S } = type;
  const operation = withDefaults({ tags: [P], headers: accountHeader });
  const schema = entitySchemaOf(P);
  const parentKeys = type.parents.map((p) => p.key);
  const parentQuery = Object.fromEntries(type.parents.map((p) => [p.key, Guid.optional()]));
  const filterQuery = Object.fromEntries((type.filters ?? []).map((name) => [filterKey(name), Guid.optional().meta({ description: `Only the ${type.plural} whose ${name} is this id` })]));
  const forParents = type.parents.length ? `For${type.parents.map((p) => parentName(p.key)).join('')}` : '';
  const type_ = { type: P };
  const entity = (description: string) => ({ contentTypes: JSON_TYPES, schema, description });
  const list = (description: string) => ({ contentTypes: JSON_TYPES, schema: z.array(schema), description });
  // A read-only type (registry `readOnly`) keeps its write operations on the wire, each answering 403 with the reason.
  const readOnly = type.readOnly ? { refusal: { status: 403 as const, detail: type.readOnly.reason } } : {};
  const readOnlyErrors: Record<number, string> = type.readOnly ? { 403: type.readOnly.reason } : {};
  const ops: Operation[] = [];
  if (type.features.search) {
    const search = (method: 'get' | 'post'): Operation =>
      operation({
        operationId: method === 'get' ? `SearchFor${P}` : `SearchFor${P}ByPost`,
        method,
        path: `/${P}/Search`,
        summary: `Search ${P} by association (${method === 'get' ? 'GET with a JSON body' : 'POST for clients that cannot send a GET body'})`,
        permission: 'read',
        nonMember: 'forbidden',
        query: z.object(includeShape),
        body: SearchBody,
        response: { status: 200, ...list(`Matching ${P}`) },
        target: toBus(ENTITY_COMMANDS.search, (r) => ({ ...type_, body: r.body as SearchBody, include: r.include })),
        // The client searches with POST: fetch cannot send a GET body.
        client: method === 'post' ? [{ name: `searchFor${P}`, body: { name: 'body', type: 'SearchBody' }, include: true, returns: 'EntityJson[]' }] : [],
      });
    ops.push(search('get'), search('post'));
  }
  ops.push(
    operation({
      operationId: `Get${S}ById`,
      method: 'get',
      path: `/${P}/{id}`,
      summary: `Get one ${S}`,
      permission: 'read',
      nonMember: 'not-found',
      params: idParam,
      query: z.object(includeShape),
      response: { status: 200, ...entity(S) },
      target: toBus(ENTITY_COMMANDS.get, (r) => ({ ...type_, id: r.params['id'] as string, include: r.include })),
      client: [{ name: `get${S}ById`, include: true, returns: 'EntityJson' }],
    }),
    operation({
      operationId: `GetAll${P}${forParents}`,
      method: 'get',
      path: `/${P}`,
      summary: type.parents.length ? `List ${P} by ${parentKeys.join(' and/or ')}` : `List the account's ${P}`,
      permission: 'read',
      nonMember: type.parents.length ? 'not-found' : 'forbidden',
      query: z.object({ ...includeShape, ...parentQuery, ...filterQuery }),
      response: { status: 200, ...list(`The ${P}`) },
      target: toBus(ENTITY_COMMANDS.list, (r) => ({ ...type_, parentIds: parentIdsOf(type, r.query), include: r.include, filters: filtersOf(type, r.query) })),
      client: [
        { name: `getAll${P}${forParents}`, query: parentKeys, include: true, returns: 'EntityJson[]' },
        // Types with two parents list by either one as well (GET /Setups?eventId=...): one method per parent.
        ...(type.parents.length > 1 ? type.parents.map((p) => ({ name: `getAll${P}For${parentName(p.key)}`, query: [p.key], include: true, returns: 'EntityJson[]' })) : []),
      ],
    }),
    operation({
      operationId: `Add${S}`,
      method: 'post',
      path: `/${P}`,
      summary: `Create a ${S}${type.parents.length ? ` (parent ids in the query or the body)` : ''}`,
      permission: 'write',
      nonMember: type.parents.length ? 'not-found' : 'forbidden',
      // A declared filter (a tyre's `tyreSpecificationId`) names the new entity's reference, as the wrappers send it.
      query: z.object({ ...includeShape, ...parentQuery, ...filterQuery }),
      queryInBody: parentKeys,
      body: CreateModel,
      unknownBodyProperties: 'forward',
      response: { status: 201, ...entity(`The created ${S}, all properties populated`), location: true },
      ...readOnly,
      ...(type.readOnly ? { errors: readOnlyErrors } : {}),
      target: toBus(ENTITY_COMMANDS.create, (r) => ({ ...type_, parentIds: parentIdsOf(type, r.query), filters: filtersOf(type, r.query), body: r.body as CreateModel, bindingErrors: r.bindingErrors, include: r.include })),
      client: [{ name: `add${S}`, query: parentKeys, body: { name: 'model', type: 'CreateModel', defaultEmpty: true }, returns: 'EntityJson' }],
    }),
    operation({
      operationId: `Update${S}`,
      method: 'put',
      path: `/${P}/{id}`,
      summary: `Update a ${S}`,
      permission: 'write',
      nonMember: 'not-found',
      params: idParam,
      query: z.object({}),
      body: UpdateModel,
      unknownBodyProperties: 'forward',
      response: { status: 200, ...entity(`The updated ${S}`) },
      errors: { 409: 'Modified after LastModifiedTimeMaxAllowedValue', ...readOnlyErrors },
      ...readOnly,
      target: toBus(ENTITY_COMMANDS.update, (r) => ({ ...type_, id: r.params['id'] as string, body: r.body as UpdateModel, bindingErrors: r.bindingErrors })),
      client: [{ name: `update${S}`, body: { name: 'model', type: 'UpdateModel' }, returns: 'EntityJson' }],
    }),
    operation({
      operationId: `Delete${S}`,
      method: 'delete',
      path: `/${P}/{id}`,
      summary: `Delete a ${S} with its children and attached files`,
      permission: 'write',
      nonMember: 'not-found',
      params: idParam,
      query: z.object({}),
      response: emptyResponse(204, 'Deleted'),
      ...readOnly,
      errors: { 413: 'It would remove more entities, with everything below it, than ENTITY_DELETE_MAX_ENTITIES allows one request', ...(type.readOnly ? readOnlyErrors : {}) },
      target: toBus(ENTITY_COMMANDS.delete, (r) => ({ ...type_, id: r.params['id'] as string })),
      client: [{ name: `delete${S}`, returns: 'null' }],
    }),
  );
  return ops;
}
