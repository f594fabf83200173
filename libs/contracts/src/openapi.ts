import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { OPERATIONS, type Operation } from './operations';
import { ProblemDetails } from './wire';

const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ProblemDetails } } });

const COMMON_ERRORS = {
  400: problem('Bad request: malformed AccountId, invalid body or query (the `errors` member names each field)'),
  401: problem('Missing or unknown API key'),
  403: problem('The key may not do this in this account'),
  404: problem('Not found, or not in an account the key may read'),
  503: problem('A service behind the gateway is unavailable'),
  504: problem('A service behind the gateway did not answer in time'),
};

/** The common error responses an operation can give: what its permission and its inputs make possible. */
function errorResponses(op: Operation): Record<number, ReturnType<typeof problem>> {
  const errors: Record<number, ReturnType<typeof problem>> = op.permission === 'none' ? { 401: COMMON_ERRORS[401] } : { ...COMMON_ERRORS };
  for (const [status, description] of Object.entries(op.errors ?? {})) errors[Number(status)] = problem(description);
  return errors;
}

function successResponse(op: Operation) {
  const { description, contentTypes, schema } = op.response;
  if (!contentTypes.length || !schema) return { description };
  return { description, content: Object.fromEntries(contentTypes.map((type) => [type, { schema: type.includes('json') ? schema : z.string().meta({ format: 'binary' }) }])) };
}

/** One path item per operation of the table: its operationId, parameters, request body and responses. */
function registerOperation(registry: OpenAPIRegistry, op: Operation): void {
  const body =
    op.bodyKind === 'json' && op.body
      ? { content: { 'application/json': { schema: op.body } } }
      : op.bodyKind === 'stream'
        ? { content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } } }
        : undefined;
  registry.registerPath({
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    tags: [...op.tags],
    summary: op.summary,
    request: {
      ...(op.headers ? { headers: op.headers } : {}),
      ...(op.params ? { params: op.params } : {}),
      ...(op.query && Object.keys(op.query.shape).length ? { query: op.query } : {}),
      ...(body ? { body } : {}),
    },
    responses: { [op.response.status]: successResponse(op), ...errorResponses(op) },
  });
}

/** The OpenAPI 3.1 document, generated from the operation table and the same zod schemas that validate requests. */
export function buildOpenApiDocument(operations: readonly Operation[] = OPERATIONS): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'ApiKey' });
  for (const op of operations) registerOperation(registry, op);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Pitwall', version: 'v1', description: 'Motorsport data management service. Every endpoint needs the ApiKey and AccountId headers.' },
    servers: [{ url: '/' }],
    security: [{ ApiKey: [] }],
  });
}
