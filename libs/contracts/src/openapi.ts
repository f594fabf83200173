import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ATTACHED_FILE_PARAMETERS, ENTITY_TYPES, childTypesOf, collectionNameOf, type EntityTypeDef, type ParameterDef } from './registry';
import { AccountSummary, CreateModel, Guid, ProblemDetails, SearchBody, UpdateModel } from './wire';

const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ProblemDetails } } });
const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });

const COMMON_ERRORS = {
  400: problem('Bad request: malformed AccountId, invalid body or query (the `errors` member names each field)'),
  401: problem('Missing or unknown API key'),
  403: problem('The key may not do this in this account'),
  404: problem('Not found, or not in an account the key may read'),
  503: problem('A service behind the gateway is unavailable'),
  504: problem('A service behind the gateway did not answer in time'),
};

const headers = z.object({ AccountId: Guid.meta({ description: 'The account the request acts in' }) });
const include = z.object({
  parametersToInclude: z.string().optional().meta({ description: 'Comma-separated property paths, `*` wildcard, dot for nesting, e.g. `Name,Events.Cars.Car.*`' }),
});

/** A parameter's JSON type on the wire (wire.md §2), nullable: a parameter may be unset. */
function parameterSchema(p: ParameterDef): z.ZodType {
  const description = [p.type === 'Reference' ? `Id of one of the ${p.references ?? 'referenced entities'}` : p.type, p.unit ? `unit ${p.unit}` : ''].filter(Boolean).join(', ');
  const base: Record<ParameterDef['type'], () => z.ZodType> = {
    Double: () => z.number(),
    Integer: () => z.number().int(),
    Boolean: () => z.boolean(),
    DateTime: () => z.string().meta({ format: 'date-time' }),
    Text: () => z.string(),
    Enum: () => z.enum((p.enumValues ?? []) as [string, ...string[]]),
    Reference: () => z.string().meta({ format: 'uuid' }),
  };
  return base[p.type]().nullable().optional().meta({ description });
}

const EntityReference = z
  .object({ Id: Guid, Parameters: z.record(z.string(), z.unknown()) })
  .meta({ id: 'EntityReference', description: 'A referenced entity: its Id, and its parameters only when a projection asks (`Car.*`, `Car.Number`).' });

const AttachedFileRecord = z
  .object({ Id: Guid, Parameters: z.object(Object.fromEntries(ATTACHED_FILE_PARAMETERS.map((p) => [p.name, parameterSchema(p)]))) })
  .meta({ id: 'AttachedFile' });

/**
 * One schema per registry type (components named by the singular name): typed Parameters (built-ins; an account's
 * custom parameters come as additional properties), the nested object beside each reference, and the child
 * collections as arrays of the child's schema. Everything is optional: `parametersToInclude` decides what appears.
 */
function entitySchemas(): Map<string, z.ZodType> {
  const out = new Map<string, z.ZodType>();
  const build = (type: EntityTypeDef): z.ZodType => {
    const known = out.get(type.plural);
    if (known) return known;
    const parameters: Record<string, z.ZodType> = {};
    for (const p of type.parameters) {
      parameters[p.name] = parameterSchema(p);
      if (p.type === 'Reference') parameters[p.name.slice(0, -2)] = EntityReference.optional();
    }
    const collections: Record<string, z.ZodType> = {};
    for (const child of childTypesOf(type)) collections[collectionNameOf(child)] = z.array(build(child)).optional();
    if (type.features.attachments) collections['AttachedFiles'] = z.array(AttachedFileRecord).optional();
    const schema = z
      .object({ Id: Guid, Parameters: z.looseObject(parameters).optional(), ...collections })
      .meta({ id: type.name, description: `A ${type.name}: parameters typed as declared, collections present when projected (or empty with no projection).` });
    out.set(type.plural, schema);
    return schema;
  };
  for (const type of ENTITY_TYPES) build(type);
  return out;
}

function registerEntityPaths(registry: OpenAPIRegistry, type: EntityTypeDef, EntityJson: z.ZodType): void {
  const tag = type.plural;
  const id = z.object({ id: Guid });
  const parentQuery = z.object(Object.fromEntries(type.parents.map((p) => [p.key, Guid.optional()])));
  if (type.features.search) {
    for (const method of ['get', 'post'] as const) {
      registry.registerPath({
        method,
        path: `/${type.plural}/Search`,
        tags: [tag],
        summary: `Search ${type.plural} by association (${method === 'get' ? 'GET with a JSON body' : 'POST for clients that cannot send a GET body'})`,
        request: { headers, query: include, body: { content: { 'application/json': { schema: SearchBody } } } },
        responses: { 200: json(`Matching ${type.plural}`, z.array(EntityJson)), ...COMMON_ERRORS },
      });
    }
  }
  registry.registerPath({
    method: 'get',
    path: `/${type.plural}/{id}`,
    tags: [tag],
    summary: `Get one ${type.name}`,
    request: { headers, params: id, query: include },
    responses: { 200: json(type.name, EntityJson), ...COMMON_ERRORS },
  });
  registry.registerPath({
    method: 'get',
    path: `/${type.plural}`,
    tags: [tag],
    summary: type.parents.length ? `List ${type.plural} by ${type.parents.map((p) => p.key).join(' and/or ')}` : `List the account's ${type.plural}`,
    request: { headers, query: type.parents.length ? include.extend(parentQuery.shape) : include },
    responses: { 200: json(`The ${type.plural}`, z.array(EntityJson)), ...COMMON_ERRORS },
  });
  registry.registerPath({
    method: 'post',
    path: `/${type.plural}`,
    tags: [tag],
    summary: `Create a ${type.name}${type.parents.length ? ` (parent ids in the query or the body)` : ''}`,
    request: { headers, query: parentQuery, body: { content: { 'application/json': { schema: CreateModel } } } },
    responses: { 201: json(`The created ${type.name}, all properties populated`, EntityJson), ...COMMON_ERRORS },
  });
  registry.registerPath({
    method: 'put',
    path: `/${type.plural}/{id}`,
    tags: [tag],
    summary: `Update a ${type.name}`,
    request: { headers, params: id, body: { content: { 'application/json': { schema: UpdateModel } } } },
    responses: { 200: json(`The updated ${type.name}`, EntityJson), 409: problem('Modified after LastModifiedTimeMaxAllowedValue'), ...COMMON_ERRORS },
  });
  registry.registerPath({
    method: 'delete',
    path: `/${type.plural}/{id}`,
    tags: [tag],
    summary: `Delete a ${type.name} with its children and attached files`,
    request: { headers, params: id },
    responses: { 204: { description: 'Deleted' }, ...COMMON_ERRORS },
  });
}

/** The OpenAPI 3.1 document, generated from the same zod schemas and registry that validate requests. */
export function buildOpenApiDocument(extra: (registry: OpenAPIRegistry) => void = () => undefined): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'ApiKey' });
  registry.registerPath({
    method: 'get',
    path: '/Accounts/GetAll',
    tags: ['Accounts'],
    summary: "The caller's accounts (AccountId header may be empty here)",
    responses: { 200: json('Accounts', z.array(AccountSummary)), 401: COMMON_ERRORS[401] },
  });
  const schemas = entitySchemas();
  for (const type of ENTITY_TYPES) registerEntityPaths(registry, type, schemas.get(type.plural) as z.ZodType);
  extra(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Pitwall', version: 'v1', description: 'Motorsport data management service. Every endpoint needs the ApiKey and AccountId headers.' },
    security: [{ ApiKey: [] }],
  });
}
