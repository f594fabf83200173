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

/**
 * What any request can get before it is read: a request line and headers together past 192 KiB (MAX_HEADER_BYTES in
 * @pitwall/service-kit, a constant no variable changes; the gateway's `listen` answers it).
 */
const HEADERS_TOO_LARGE = {
  431: problem('The request line and headers together are longer than 192 KiB (196,608 bytes; MAX_HEADER_BYTES, fixed: no variable changes it): shorten the URL or the headers'),
};

/** What the gateway answers of any JSON body, and of a write's `Idempotency-Key`, before an operation's own errors. */
const BODY_ERRORS = {
  413: problem('The JSON body is larger than the limit (BODY_LIMIT, 1 MiB by default)'),
  415: problem('The body is not JSON (Content-Type other than application/json)'),
};
const KEY_REUSED = { 422: problem('The Idempotency-Key was already used with another request (type urn:pitwall:problem:idempotency-key-reused)') };

const IDEMPOTENCY_HEADER = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: 'Makes the write safe to retry: a repeat of the same request with this key within 24 hours answers the first reply and writes nothing; the key with another request is a 422' }),
});

/** Writes record their command with their effect (an `Idempotency-Key` names it, a reused key is a 422). */
function recordsCommand(op: Operation): boolean {
  return op.method !== 'get' && op.bodyKind !== 'stream' && (op.permission === 'write' || op.permission === 'admin');
}

/** The common error responses an operation can give: what its permission and its inputs make possible. */
function errorResponses(op: Operation): Record<number, ReturnType<typeof problem>> {
  const errors: Record<number, ReturnType<typeof problem>> = op.permission === 'none' ? { 401: COMMON_ERRORS[401], ...HEADERS_TOO_LARGE } : { ...COMMON_ERRORS, ...HEADERS_TOO_LARGE };
  if (op.bodyKind === 'json') Object.assign(errors, BODY_ERRORS);
  // A write carries a command the service records with its effect: a key used again with another request is a 422.
  if (recordsCommand(op)) Object.assign(errors, KEY_REUSED);
  for (const [status, description] of Object.entries(op.errors ?? {})) {
    const shared = status in BODY_ERRORS || status in KEY_REUSED ? errors[Number(status)] : undefined;
    // The operation's own meaning of a status the gateway also gives (a data file read's 415): both, its own first.
    errors[Number(status)] = problem(shared ? `${description}; or: ${shared.description}` : description);
  }
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
      ...(op.headers || recordsCommand(op) ? { headers: recordsCommand(op) ? (op.headers ?? z.object({})).extend(IDEMPOTENCY_HEADER.shape) : op.headers } : {}),
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
    info: { title: 'Pitwall', version: 'v1', description: 'Motorsport data management service. Every API endpoint needs the ApiKey and AccountId headers (/health, /swagger and /viewer need neither). A method a path does not have is a 405 whose Allow header lists the ones it has.' },
    servers: [{ url: '/' }],
    security: [{ ApiKey: [] }],
  });
}
