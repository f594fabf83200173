import type { IncomingMessage } from 'node:http';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { EncodedJson, type Bus } from '@pitwall/bus';
import { AppError } from '@pitwall/service-kit';
import { ENTITY_REPLY_HEADERS, Guid, INCLUDE_PARAMETER, isBusTarget, pathParameterNames, type BoundRequest, type HttpMethod, type Operation } from '@pitwall/contracts';
import { callerContext, type AuthenticatedCaller, type Authenticator } from '../../domain/caller';
import { authenticate, requireMember } from './authentication';
import { bindBody, bindBodyKeepingUnknown, bindQuery, includeList, objectBody } from './binding';

/** An operation the gateway answers itself (`target: { gateway: name }`). */
export type GatewayHandler = (caller: AuthenticatedCaller, request: BoundRequest) => Promise<unknown>;

export interface OperationRoutesDeps {
  bus: Bus;
  auth: Authenticator;
  /** The handlers of the table's gateway-local operations, by name. */
  handlers: Record<string, GatewayHandler>;
  /** JSON body limit, e.g. '1mb'. */
  bodyLimit?: string;
}

const METHOD_ORDER: readonly HttpMethod[] = ['get', 'post', 'put', 'delete'];
/** A path segment an entity type answers only when it declares the operation; otherwise it is not an id. */
const SEARCH_SEGMENT = 'Search';

/**
 * Every operation of the table as a route: the API key is checked first (before any body is read), then the
 * permission, then the body is read as its kind says, bound and validated once, and the operation's command is
 * sent on the bus; its reply's JSON bytes go to the client unparsed. Other methods on a known path are a 405.
 */
export function operationRoutes(operations: readonly Operation[], deps: OperationRoutesDeps): express.Router {
  const router = express.Router();
  const jsonBody = [express.json({ limit: deps.bodyLimit ?? '1mb', type: isJsonBody }), rejectNonJsonBodies];
  // One sub-router per first path segment (one per entity type): a request is matched against its own few routes only.
  const groups = new Map<string, Operation[]>();
  for (const op of operations) {
    const base = `/${op.path.split('/')[1]}`;
    groups.set(base, [...(groups.get(base) ?? []), op]);
  }
  for (const [base, ops] of groups) {
    const r = express.Router();
    router.use(base, r);
    const paths = [...new Set(ops.map((op) => relativePath(base, op.path)))];
    // Literal paths before parameterised ones: /Tyres/Search is not the Tyre with id 'Search'.
    paths.sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
    const hasIdPath = paths.some((p) => p.includes(':'));
    if (hasIdPath && !paths.includes(`/${SEARCH_SEGMENT}`)) {
      const name = base.slice(1);
      r.all(`/${SEARCH_SEGMENT}`, authenticate(deps.auth), () => {
        throw AppError.notFound(`${name} cannot be searched`);
      });
    }
    for (const path of paths) {
      const onPath = ops.filter((op) => relativePath(base, op.path) === path).sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
      for (const op of onPath) r[op.method](path, authenticateFor(op, deps.auth), permit(op), ...(op.bodyKind === 'stream' ? [] : jsonBody), handle(op, deps));
      r.all(path, authenticateFor(onPath[0] as Operation, deps.auth), methodNotAllowed(onPath.map((op) => op.method.toUpperCase()).join(', ')));
    }
  }
  return router;
}

const relativePath = (base: string, path: string): string => path.slice(base.length).replace(/\{(\w+)\}/g, ':$1') || '/';

function authenticateFor(op: Operation, auth: Authenticator): RequestHandler {
  if (op.permission === 'signature') throw new Error(`${op.operationId}: signed-URL operations need a signature verifier, which the gateway does not have yet`);
  return authenticate(auth, { accountOptional: op.permission === 'none' });
}

function permit(op: Operation): RequestHandler {
  const scope = op.nonMember === 'not-found' ? 'entity' : 'account';
  switch (op.permission) {
    case 'none':
    case 'signature':
      return (_req, _res, next) => next();
    case 'read':
      return requireMember(scope);
    case 'write':
      return requireMember(scope, true);
    case 'admin': {
      const member = requireMember(scope, true);
      return (req, res, next) =>
        member(req, res, () => {
          if (req.caller.role !== 'admin') throw AppError.forbidden(`Your role in this account is ${req.caller.role}: this needs admin`);
          next();
        });
    }
  }
}

function handle(op: Operation, deps: OperationRoutesDeps): RequestHandler {
  const target = op.target;
  const local = isBusTarget(target) ? undefined : deps.handlers[target.gateway];
  if (!isBusTarget(target) && !local) throw new Error(`${op.operationId}: the gateway has no handler ${target.gateway}`);
  return async (req, res) => {
    const bound = bindRequest(op, req);
    if (local) return sendLocal(op, res, await local(req.caller, bound));
    if (!isBusTarget(target)) return;
    const reply = await deps.bus.requestEncoded(target.service, target.name, { caller: callerContext(req.caller), ...target.toMessage(bound) }, { headers: { requestId: req.requestId } });
    if (op.responseKind === 'empty') {
      res.status(op.response.status).end();
      return;
    }
    const modified = reply.headers[ENTITY_REPLY_HEADERS.lastModifiedTime];
    if (modified) res.setHeader('X-Last-Modified-Time', modified);
    const id = reply.headers[ENTITY_REPLY_HEADERS.entityId];
    if (op.response.location && id) res.setHeader('Location', `${op.path}/${id}`);
    // The service rendered the body: its bytes are passed on as they are, never parsed and re-serialised.
    res.status(op.response.status).type('application/json').send(reply.json);
  };
}

function sendLocal(op: Operation, res: Response, result: unknown): void {
  if (op.responseKind === 'empty') res.status(op.response.status).end();
  else if (result instanceof EncodedJson) res.status(op.response.status).type('application/json').send(result.json);
  else if (Buffer.isBuffer(result)) res.status(op.response.status).type(op.response.contentTypes.find((t) => !t.includes('json')) ?? 'application/octet-stream').send(result);
  else res.status(op.response.status).json(result);
}

/** Path parameters, query and body bound case-insensitively and validated against the operation's schemas, once. */
function bindRequest(op: Operation, req: Request): BoundRequest {
  const params: Record<string, string> = {};
  for (const name of pathParameterNames(op.path)) params[name] = checkValue(op.params?.shape[name] as z.ZodType | undefined, name, req.params[name] as string);
  const shape = (op.query?.shape ?? {}) as Record<string, z.ZodType>;
  // An operation that declares no query ignores it (the account list always has).
  const rawLists: Record<string, string[]> = {};
  const raw = op.query ? bindQuery(req, Object.keys(shape), op.repeatedQuery, rawLists) : {};
  let body: unknown;
  let bindingErrors: Record<string, string[]> | undefined;
  let fromBody: Record<string, unknown> = {};
  if (op.bodyKind === 'stream') body = req;
  else if (op.bodyKind === 'json' && op.body) {
    let object = objectBody(req);
    if (op.queryInBody?.length) ({ lifted: fromBody, rest: object } = liftKeys(object, op.queryInBody));
    if (op.unknownBodyProperties === 'forward') ({ value: body, unknown: bindingErrors } = bindBodyKeepingUnknown(op.body, req, object));
    else body = bindBody(op.body, req, object);
  }
  const query: Record<string, string> = {};
  // Query values win over the same keys in the body (wire.md §3).
  for (const [name, value] of Object.entries(fromBody)) {
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw AppError.badRequest(`${name} must be a ${isGuid(shape[name]) ? 'GUID ' : ''}string`, { [name]: [`must be a ${isGuid(shape[name]) ? 'GUID ' : ''}string`] });
    query[name] = checkValue(shape[name], name, value);
  }
  for (const [name, value] of Object.entries(raw)) {
    if (name === INCLUDE_PARAMETER || value === '') continue;
    query[name] = checkValue(shape[name], name, value);
  }
  for (const [name, schema] of Object.entries(shape)) {
    // A required query parameter that is absent (`externalProfileId`): a 400 naming it.
    if (query[name] === undefined && !op.repeatedQuery?.includes(name) && !schema.safeParse(undefined).success) throw AppError.badRequest(`${name} is required`, { [name]: ['is required'] });
  }
  const queryLists = op.repeatedQuery?.length ? bindQueryLists(op, shape, rawLists) : undefined;
  return { params, query, include: includeList(raw[INCLUDE_PARAMETER]), body, ...(bindingErrors ? { bindingErrors } : {}), ...(queryLists ? { queryLists } : {}) };
}

/** The repeated query parameters, each value checked against its array's element schema; a missing one is a 400 when the array is required. */
function bindQueryLists(op: Operation, shape: Record<string, z.ZodType>, raw: Record<string, string[]>): Record<string, string[]> {
  const lists: Record<string, string[]> = {};
  for (const name of op.repeatedQuery ?? []) {
    const schema = shape[name];
    const values = raw[name] ?? [];
    const parsed = schema?.safeParse(values);
    if (parsed && !parsed.success) {
      const issue = parsed.error.issues[0];
      const index = typeof issue?.path[0] === 'number' ? issue.path[0] : undefined;
      const message = values.length === 0 ? 'is required (once per value)' : (issue?.message ?? 'is not valid');
      throw AppError.badRequest(index === undefined ? `${name} ${message}` : `${name} '${(values[index] ?? '').slice(0, 64)}' ${message}`, { [name]: [message] });
    }
    lists[name] = values.map((v) => v.toLowerCase());
  }
  return lists;
}

/** One path or query value against its schema; the 400 names it and says why (`id 'x' is not a GUID`). */
function checkValue(schema: z.ZodType | undefined, name: string, value: string): string {
  const parsed = schema?.safeParse(value);
  // GUIDs compare case-insensitively: they travel lower-cased.
  if (!parsed || parsed.success) return isGuid(schema) ? value.toLowerCase() : value;
  const message = parsed.error.issues[0]?.message ?? 'is not valid';
  throw AppError.badRequest(`${name} '${value.slice(0, 64)}' ${message}`, { [name]: [message] });
}

const isGuid = (schema: z.ZodType | undefined): boolean => schema === Guid || (schema as { unwrap?: () => unknown } | undefined)?.unwrap?.() === Guid;

/** Takes `keys` (matched case-insensitively) out of a body, before its strict check. */
function liftKeys(body: Record<string, unknown>, keys: readonly string[]): { lifted: Record<string, unknown>; rest: Record<string, unknown> } {
  const canonical = new Map(keys.map((k) => [k.toLowerCase(), k]));
  const lifted: Record<string, unknown> = Object.create(null);
  const rest: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(body)) {
    const key = canonical.get(k.toLowerCase());
    if (key) lifted[key] = v;
    else rest[k] = v;
  }
  return { lifted, rest };
}

/** Another method on a path that exists: 405 with the methods it has (`Allow`), not a 404 saying it does not exist. */
function methodNotAllowed(allow: string): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    res.setHeader('Allow', allow);
    throw new AppError(405, `${req.method} is not supported on ${req.baseUrl}${req.path === '/' ? '' : req.path}; it answers ${allow}`);
  };
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** JSON bodies: declared JSON, or a GET body sent with no Content-Type at all (wire.md §1: search, the wrappers' `{}`). */
function isJsonBody(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type === undefined ? req.method === 'GET' : JSON_TYPE.test(type);
}

/** A write with a body that is not JSON is refused (415) rather than silently read as empty. */
const rejectNonJsonBodies: RequestHandler = (req, res, next) => {
  const hasBody = Number(req.header('content-length') ?? 0) > 0 || req.header('transfer-encoding') !== undefined;
  const type = req.header('content-type');
  // Writes need JSON; a GET body (search, the wrappers' `{}`) may come without a type, but not with another one.
  const refused = req.method === 'POST' || req.method === 'PUT' ? !req.is(['application/json', 'application/*+json']) : type !== undefined && !req.is(['application/json', 'application/*+json']);
  if (hasBody && refused) {
    res.status(415);
    next(Object.assign(new Error(`Content-Type ${req.header('content-type') ?? '(none)'} is not supported; send application/json`), { status: 415, expose: true }));
    return;
  }
  next();
};
