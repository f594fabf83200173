import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ENTITY_TYPES, type EntityTypeDef } from './registry';
import { AccountSummary, CreateModel, EntityJson, Guid, ProblemDetails, SearchBody, UpdateModel } from './wire';

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

function registerEntityPaths(registry: OpenAPIRegistry, type: EntityTypeDef): void {
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
  for (const type of ENTITY_TYPES) registerEntityPaths(registry, type);
  extra(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Pitwall', version: 'v1', description: 'Motorsport data management service. Every endpoint needs the ApiKey and AccountId headers.' },
    security: [{ ApiKey: [] }],
  });
}
