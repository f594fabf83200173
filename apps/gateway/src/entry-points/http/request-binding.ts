import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { AppError, FieldRefusals, shortened } from '@pitwall/service-kit';
import { fieldErrors, formatPath, Guid, INCLUDE_PARAMETER, REQUEST_LIMITS, isUnsetId, pathParameterNames, ruleMessage, safeParseReporting, type BoundRequest, type Operation } from '@pitwall/contracts';
import { preferredMediaType } from './accept';

/**
 * Request binding: how an HTTP request becomes an operation's `BoundRequest`, all of it here. The JSON body is read
 * (limit, UTF-8, Content-Type), then path parameters, query (case-insensitive names, repeated values, values a body
 * may carry instead), declared headers, the body (case-insensitive property names, unknown properties refused or
 * forwarded) and the binary type Accept prefers are bound and validated against the operation's schemas, once; every
 * refusal is a 400 naming each value. The routes (`operation-routes.ts`) only mount these and send what they bound.
 */

/** The JSON body reader of the table's JSON operations: parsed within `limit`, UTF-8, and refused unless it is JSON. */
export function jsonBodyReader(limit = '1mb'): RequestHandler[] {
  return [express.json({ limit, type: isJsonBody, verify: refuseInvalidUtf8 }), rejectNonJsonBodies];
}

/** The JSON body's size in bytes, noted while it is read (`refuseInvalidUtf8` sees the raw bytes). */
const BODY_BYTES = Symbol('json body bytes');
type WithBodyBytes = IncomingMessage & { [BODY_BYTES]?: number };

/** The size in bytes of the JSON body the request carried; undefined without one. */
export function jsonBodyBytes(req: IncomingMessage): number | undefined {
  return (req as WithBodyBytes)[BODY_BYTES];
}

/**
 * JSON is UTF-8 (RFC 8259 §8.1): a body in UTF-8 (the default) whose bytes are not is a 400, checked before it is
 * decoded (the decoder would store each bad byte as U+FFFD). Another `utf-*` charset the parser reads is left to it.
 */
function refuseInvalidUtf8(req: IncomingMessage, _res: unknown, body: Buffer, encoding: string): void {
  (req as WithBodyBytes)[BODY_BYTES] = body.length;
  const utf8 = encoding.toLowerCase() === 'utf-8';
  // body-parser names an error of `verify` by a `type` of its own unless it has one: the problem's type stays plain.
  if (utf8 && !isUtf8(body)) throw Object.assign(AppError.badRequest('The request body is not valid UTF-8'), { type: 'about:blank' });
  const twice = utf8 ? nameGivenTwice(body) : undefined;
  if (twice !== undefined)
    throw Object.assign(AppError.badRequest(`The request body gives the name ${JSON.stringify(twice.slice(0, 200))} twice in one object: the parser would keep the last value and silently drop the other; give it once`), { type: 'about:blank' });
}

/**
 * The first member name given twice in one object of a JSON text (UTF-8 bytes), or undefined: `JSON.parse` keeps the
 * last and drops the others without a word. One pass over the bytes (linear, like the parse itself); an invalid text
 * is left to the parser. Names are compared as the parser would read them (escapes decoded).
 */
export function nameGivenTwice(body: Uint8Array): string | undefined {
  // Per open container: an array is null; an object is undefined until its first name, that name until its second,
  // then the set of its names (most objects have one or two names: no set is made for them).
  const open: (string | Set<string> | null | undefined)[] = [];
  let expectName = false;
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as number;
    if (c === 0x22) {
      let j = i + 1;
      let plain = true;
      for (; j < text.length; j++) {
        const d = text[j] as number;
        if (d === 0x22) break;
        if (d === 0x5c) {
          plain = false;
          j++;
        } else if (d >= 0x80) plain = false;
      }
      if (expectName && open.length > 0) {
        let name: string;
        try {
          // latin1 reads ASCII as it is, and quickly; anything else is decoded as the parser decodes it.
          name = plain ? text.toString('latin1', i + 1, j) : (JSON.parse(text.toString('utf8', i, j + 1)) as string);
        } catch {
          return undefined;
        }
        const names = open[open.length - 1];
        if (names === undefined) open[open.length - 1] = name;
        else if (typeof names === 'string') {
          if (names === name) return name;
          open[open.length - 1] = new Set([names, name]);
        } else if (names !== null) {
          if (names.has(name)) return name;
          names.add(name);
        }
      }
      expectName = false;
      i = j;
    } else if (c === 0x7b) {
      open.push(undefined);
      expectName = true;
    } else if (c === 0x5b) open.push(null);
    else if (c === 0x7d || c === 0x5d) open.pop();
    else if (c === 0x2c) expectName = open.length > 0 && open[open.length - 1] !== null;
  }
  return undefined;
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

/**
 * The binder of one operation: the request bound and validated (`bindRequest`); a `binary-or-json` read also gets the
 * binary type its Accept prefers, and its answer varies by Accept.
 */
export function requestBinding(op: Operation): (req: Request, res: Response) => BoundRequest {
  const pathNames = pathParameterNames(op.path);
  return (req, res) => {
    const bound = bindRequest(op, pathNames, req);
    if (op.responseKind === 'binary-or-json') {
      res.vary('Accept');
      const binaryType = preferredBinaryType(op, req);
      if (binaryType) bound.binaryType = binaryType as BoundRequest['binaryType'];
    }
    return bound;
  };
}

/** Path parameters, query and body bound case-insensitively and validated against the operation's schemas, once. */
function bindRequest(op: Operation, pathNames: readonly string[], req: Request): BoundRequest {
  // Every path and query value is checked before any is refused, so one 400 names each value that is not valid.
  const invalid = new InvalidValues();
  const params: Record<string, string> = {};
  for (const name of pathNames) params[name] = invalid.check(op.params?.shape[name] as z.ZodType | undefined, name, req.params[name] as string);
  const shape = (op.query?.shape ?? {}) as Record<string, z.ZodType>;
  // An operation that declares no query ignores it (the account list always has).
  const rawLists: Record<string, string[]> = {};
  const raw = op.query ? invalid.collect<Record<string, string> | undefined>(() => bindQuery(req, Object.keys(shape), op.repeatedQuery, rawLists), undefined) : {};
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (name === INCLUDE_PARAMETER || value === '') continue;
    query[name] = invalid.check(shape[name], name, value);
  }
  // A required query value that is absent, named with the invalid ones (one the body may give is checked below); a
  // query string that could not be bound (a parameter repeated) says nothing of what is absent.
  for (const [name, schema] of raw ? Object.entries(shape) : []) {
    if (query[name] === undefined && !op.queryInBody?.includes(name) && !op.repeatedQuery?.includes(name) && !schema.safeParse(undefined).success) invalid.missing(name);
  }
  // The repeated ones too (`setupIds is required` beside `externalProfileId is required`), when the query could be bound.
  const queryLists = op.repeatedQuery?.length && raw ? invalid.collect<Record<string, string[]> | undefined>(() => bindQueryLists(op, shape, rawLists), undefined) : undefined;
  invalid.throwIfAny();
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
  // A value the body gives beside the query (wire.md §3) is checked like the query's and must be the same value: a
  // body naming another parent is a 400, never silently overridden. Null or empty is not given (a wrapper's unset field).
  for (const [name, value] of Object.entries(fromBody)) {
    if (isUnsetId(value)) continue;
    if (typeof value !== 'string') throw AppError.badRequest(`${name} must be a ${isGuid(shape[name]) ? 'GUID ' : ''}string`, { [name]: [`must be a ${isGuid(shape[name]) ? 'GUID ' : ''}string`] });
    const checked = checkValue(shape[name], name, value);
    const inQuery = query[name];
    if (inQuery === undefined) query[name] = checked;
    else if (inQuery.toLowerCase() !== checked.toLowerCase()) throw AppError.badRequest(`${name} is given in the query and in the body with two values`, { [name]: [`the body's ${checked} is not the query's ${inQuery}`] });
  }
  const headers: Record<string, string> = {};
  for (const name of Object.keys(op.headers?.shape ?? {})) {
    // The account header was checked by authentication.
    if (name === 'AccountId') continue;
    const value = req.header(name);
    if (value !== undefined) headers[name] = checkValue(op.headers?.shape[name] as z.ZodType | undefined, name, value);
  }
  for (const name of op.queryInBody ?? []) {
    // A required value the body may give instead of the query (`externalProfileId`), given by neither: a 400 naming it.
    const schema = shape[name];
    if (query[name] === undefined && !op.repeatedQuery?.includes(name) && schema && !schema.safeParse(undefined).success) throw AppError.badRequest(`${name} is required`, { [name]: ['is required'] });
  }
  return { params, query, include: includeList(raw?.[INCLUDE_PARAMETER]), body, headers, ...(bindingErrors ? { bindingErrors } : {}), ...(queryLists ? { queryLists } : {}) };
}

/** The repeated query parameters, each value checked against its array's element schema; a missing one is a 400 when the array is required. */
function bindQueryLists(op: Operation, shape: Record<string, z.ZodType>, raw: Record<string, string[]>): Record<string, string[]> {
  const lists: Record<string, string[]> = {};
  for (const name of op.repeatedQuery ?? []) {
    const schema = shape[name];
    const values = raw[name] ?? [];
    const parsed = schema?.safeParse(values, { error: ruleMessage });
    if (parsed && !parsed.success) {
      const issue = parsed.error.issues[0];
      const index = typeof issue?.path[0] === 'number' ? issue.path[0] : undefined;
      const message = values.length === 0 ? 'is required (once per value)' : (issue?.message ?? 'is not valid');
      const value = index === undefined ? undefined : (values[index] ?? '');
      // A list given as one comma-separated value: the parameter is repeated instead, once per value.
      const hint = value?.includes(',') ? `; give each value as its own ${name} parameter (${name}=a&${name}=b), not separated by commas` : '';
      const shown = value === undefined ? undefined : shortened(value, 80);
      throw AppError.badRequest(value === undefined ? `${name} ${message}` : `${name} '${shown}' ${message}${hint}`, { [name]: [`${message}${hint}`] });
    }
    lists[name] = values.map((v) => v.toLowerCase());
  }
  return lists;
}

/** One path or query value against its schema; the 400 names it and says why (`id 'x' is not a GUID`). */
function checkValue(schema: z.ZodType | undefined, name: string, value: string): string {
  const invalid = new InvalidValues();
  const checked = invalid.check(schema, name, value);
  invalid.throwIfAny();
  return checked;
}

/**
 * The path and query values of one request checked against their schemas, the refusals collected: one 400 names every
 * value that is not valid, its detail each one's sentence (`id 'x' is not a GUID; maxPoints '2' must be from 4 to …`).
 */
class InvalidValues extends FieldRefusals {
  check(schema: z.ZodType | undefined, name: string, value: string): string {
    const parsed = schema?.safeParse(value, { error: ruleMessage });
    // GUIDs compare case-insensitively: they travel lower-cased.
    if (!parsed || parsed.success) return isGuid(schema) ? value.toLowerCase() : value;
    const message = parsed.error.issues[0]?.message ?? 'is not valid';
    this.refuse(name, message, `${name} '${value.slice(0, 64)}' ${message}`);
    return value;
  }

  missing(name: string): void {
    this.refuse(name, 'is required', `${name} is required`);
  }

  /** `bind`'s result, or `otherwise` with its 400 kept to be thrown with the others. */
  collect<T>(bind: () => T, otherwise: T): T {
    try {
      return bind();
    } catch (err) {
      this.take(err, 'detail');
      return otherwise;
    }
  }
}

const isGuid = (schema: z.ZodType | undefined): boolean => schema === Guid || (schema as { unwrap?: () => unknown } | undefined)?.unwrap?.() === Guid;

/** Takes `keys` (matched case-insensitively) out of a body, before its strict check. */
function liftKeys(body: Record<string, unknown>, keys: readonly string[]): { lifted: Record<string, unknown>; rest: Record<string, unknown> } {
  const canonical = new Map(keys.map((k) => [k.toLowerCase(), k]));
  const lifted: Record<string, unknown> = Object.create(null);
  const rest: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(body)) {
    const key = canonical.get(k.toLowerCase());
    // Two spellings of one (`eventId` and `EventId`), as of any other property: which was meant is not guessed.
    if (key && Object.hasOwn(lifted, key)) throw AppError.badRequest('The request body is not valid', { [key]: ['must be given once'] });
    if (key) lifted[key] = v;
    else rest[k] = v;
  }
  return { lifted, rest };
}

/** Validates a JSON body against a contract (case-insensitive names, unknown properties rejected). */
function bindBody<S extends z.ZodType>(schema: S, req: Request, body: unknown = req.body): z.infer<S> {
  const parsed = parseBody(schema, body ?? {});
  if (!parsed.ok) throw AppError.badRequest('The request body is not valid', parsed.errors);
  return parsed.value;
}

/** The body as a plain object (`{}` when absent); anything else is a 400. */
function objectBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw AppError.badRequest(`The request body must be a JSON object, not ${Array.isArray(body) ? 'an array' : `a ${typeof body}`}`, { '(body)': ['must be a JSON object'] });
  return body as Record<string, unknown>;
}

/** The longest unknown query parameter name a refusal repeats whole. */
const MAX_ECHOED_NAME = 200;

/**
 * Query parameters bound case-insensitively to `allowed`; anything else is a 400 naming it. A `repeated` name may come
 * once per value (`setupIds=a&setupIds=b`): its values are in `lists`, never in the result.
 */
function bindQuery(req: Request, allowed: readonly string[], repeated: readonly string[] = [], lists: Record<string, string[]> = {}): Record<string, string> {
  const canonical = new Map(allowed.map((k) => [k.toLowerCase(), k]));
  const out: Record<string, string> = {};
  // Names come from the client (`__proto__` too): a null-prototype object keeps each one an ordinary key.
  const errors: Record<string, string[]> = Object.create(null);
  for (const [key, value] of Object.entries(req.query)) {
    const name = canonical.get(key.toLowerCase());
    if (!name) {
      // A name past any the API has is named by its start: the answer does not echo a 190 KB name back (twice over).
      errors[shortened(key, MAX_ECHOED_NAME)] = ['unknown query parameter'];
      continue;
    }
    if (repeated.includes(name)) {
      const values = Array.isArray(value) ? value : [value];
      // A value given empty (`setupIds=`) is not given, like any other parameter's: none left is `is required`.
      if (values.every((v) => typeof v === 'string')) lists[name] = [...(lists[name] ?? []), ...(values as string[]).filter((v) => v !== '')];
      else errors[name] = ['must be plain values'];
      continue;
    }
    const values = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
    // A value given empty is not given (`lapIndex=1&lapIndex=` is `lapIndex=1`), as a repeated parameter's is. Two
    // values, in one spelling (`maxPoints=1&maxPoints=2`) or two (`maxPoints=1&MAXPOINTS=2`): neither wins.
    const given = values?.filter((v) => v !== '');
    const earlier = out[name];
    if (!given || given.length > 1 || (given.length === 1 && earlier !== undefined && earlier !== '')) {
      errors[name] = ['must be given once'];
      continue;
    }
    out[name] = given[0] ?? earlier ?? '';
  }
  // `query parameter maxPoints must be given once`, `unknown query parameter 'foo'`.
  const refused = Object.entries(errors).map(([name, messages]) => (messages[0] === 'unknown query parameter' ? `unknown query parameter '${name}'` : `query parameter ${name} ${messages.join(', ')}`));
  if (refused.length) throw AppError.badRequest(refused.length === 1 ? (refused[0] as string) : `The query string is not valid: ${refused.join('; ')}`, errors);
  return out;
}

function includeList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const paths = value.split(',').map((p) => p.trim()).filter(Boolean);
  const { MAX_INCLUDE_PATHS: most, MAX_INCLUDE_PATH_LENGTH: longest } = REQUEST_LIMITS;
  if (paths.length > most) throw AppError.badRequest(`parametersToInclude names more than ${most} paths (MAX_INCLUDE_PATHS)`, { parametersToInclude: [`names more than ${most} paths (MAX_INCLUDE_PATHS)`] });
  const long = paths.find((p) => p.length > longest);
  if (long) throw AppError.badRequest(`parametersToInclude has a path longer than ${longest} characters (MAX_INCLUDE_PATH_LENGTH)`, { parametersToInclude: [`path '${shortened(long, 40)}' is longer than ${longest} characters (MAX_INCLUDE_PATH_LENGTH)`] });
  return paths.length ? paths : undefined;
}


/**
 * Like bindBody, but unknown top-level properties alone do not stop the request here: the rest is bound and the
 * unknown ones are returned, so the entity-service can report them together with the parameter errors only it can
 * find (examples.md, Validation: `ParameterUpdate` unknown and `ParameterUpdates[0].Value` in one 400).
 */
function bindBodyKeepingUnknown<S extends z.ZodType>(schema: S, req: Request, body: Record<string, unknown>): { value: z.infer<S>; unknown?: Record<string, string[]> } {
  const parsed = parseBody(schema, body);
  if (parsed.ok) return { value: parsed.value };
  // `__proto__` cannot cross the bus as an error key (it would become a prototype again): it is refused here.
  const unknownKeys = Object.entries(parsed.errors).filter(([key, messages]) => key !== '__proto__' && Object.hasOwn(body, key) && messages.every((m) => m === 'unknown property'));
  if (unknownKeys.length !== Object.keys(parsed.errors).length) throw AppError.badRequest('The request body is not valid', parsed.errors);
  const rest = Object.fromEntries(Object.entries(body).filter(([key]) => !Object.hasOwn(parsed.errors, key)));
  return { value: bindBody(schema, req, rest), unknown: parsed.errors };
}

/** A bound body, or the messages of each field that is not valid. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string[]> };

/** Binds then validates a request body. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): ParseResult<z.infer<S>> {
  const givenTwice: string[] = [];
  const bound = bindCaseInsensitive(schema, body, givenTwice);
  const result = safeParseReporting(schema, bound);
  // A `__proto__` key would vanish into an object's prototype inside zod instead of being reported: report it here.
  const proto = protoKeyPaths(bound);
  if (result.success && proto.length === 0 && givenTwice.length === 0) return { ok: true, value: result.data };
  const errors = result.success ? Object.create(null) : fieldErrors(result.error);
  for (const path of proto) errors[path] = ['unknown property'];
  for (const path of givenTwice) errors[path] = ['must be given once'];
  return { ok: false, errors };
}

/**
 * Paths of the own `__proto__` keys (JSON.parse makes them) in a bound body, down to the depth the contracts reach;
 * iterative, so a hostile nesting depth costs no stack. Almost every body has none, so a node keeps only its parent
 * and its key, and a path is spelled only for a key found.
 */
function protoKeyPaths(value: unknown): string[] {
  const found: string[] = [];
  const pending: WalkStep[] = [{ node: value, depth: 0 }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    const { node, depth } = step;
    if (depth > MAX_CONTRACT_DEPTH) continue;
    if (Array.isArray(node)) node.forEach((v, i) => pending.push({ node: v, depth: depth + 1, parent: step, key: i }));
    else if (isPlainObject(node)) {
      for (const k of Object.keys(node)) {
        if (k === '__proto__') {
          const at = pathOf(step);
          found.push(at ? `${at}.${k}` : k);
        }
        else pending.push({ node: node[k], depth: depth + 1, parent: step, key: k });
      }
    }
  }
  return found;
}

/** A node of that walk: its value, and where it sits (an array index or a property of its parent). */
interface WalkStep {
  node: unknown;
  depth: number;
  parent?: WalkStep;
  key?: string | number;
}

/** `a.b[2].c`: the keys from the root down to `step`. */
function pathOf(step: WalkStep): string {
  let path = '';
  for (let at: WalkStep | undefined = step; at?.parent; at = at.parent) {
    const key = at.key as string | number;
    path = typeof key === 'number' ? `[${key}]${path}` : `${at.parent.parent ? '.' : ''}${key}${path}`;
  }
  return path;
}

/** Deeper than any contract's objects: a `__proto__` key below this is inside a value no schema copies. */
const MAX_CONTRACT_DEPTH = 16;

/**
 * Case-insensitive binding (wire.md §1): renames each property of `value` to the spelling the schema
 * declares, whatever its case, recursively through objects, arrays, records, optionals and nullables.
 * Properties the schema does not declare keep their spelling so the strict schema can name them.
 * A declared property given in two spellings (`stintLapNumber` and `StintLapNumber`) keeps the first; the path of each
 * such property goes into `givenTwice`, for the caller to refuse (one value must not silently hide another).
 */
function bindCaseInsensitive(schema: z.ZodType, value: unknown, givenTwice: string[] = [], path: (string | number)[] = []): unknown {
  const def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'nonoptional':
      return bindCaseInsensitive(def.innerType as z.ZodType, value, givenTwice, path);
    case 'pipe':
      return bindCaseInsensitive(def.in as z.ZodType, value, givenTwice, path);
    case 'array':
      return Array.isArray(value) ? value.map((v, i) => within(path, i, () => bindCaseInsensitive(def.element as z.ZodType, v, givenTwice, path))) : value;
    case 'record':
      if (!isPlainObject(value)) return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, within(path, k, () => bindCaseInsensitive(def.valueType as z.ZodType, v, givenTwice, path))]));
    case 'object': {
      if (!isPlainObject(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      const canonical = canonicalNames(shape);
      // Keys come from the client: `constructor` or `__proto__` must be plain unknown properties, never Object's own.
      const out: Record<string, unknown> = Object.create(null);
      for (const [key, v] of Object.entries(value)) {
        const name = canonical.get(key.toLowerCase()) ?? key;
        if (!Object.hasOwn(shape, name)) out[name] = v;
        else if (Object.hasOwn(out, name)) givenTwice.push(formatPath([...path, name]));
        else out[name] = within(path, name, () => bindCaseInsensitive(shape[name] as z.ZodType, v, givenTwice, path));
      }
      return out;
    }
    default:
      return value;
  }
}

/** `run()` with `key` on the end of `path` (one array, pushed and popped, instead of a path spelled for every value). */
function within<T>(path: (string | number)[], key: string | number, run: () => T): T {
  path.push(key);
  try {
    return run();
  } finally {
    path.pop();
  }
}

/** Each object schema's property names by their lower case, worked out once per shape (shapes do not change). */
const canonicalByShape = new WeakMap<object, Map<string, string>>();

function canonicalNames(shape: Record<string, z.ZodType>): Map<string, string> {
  let names = canonicalByShape.get(shape);
  if (!names) canonicalByShape.set(shape, (names = new Map(Object.keys(shape).map((k) => [k.toLowerCase(), k]))));
  return names;
}

interface ZodDef {
  type: string;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
  valueType?: unknown;
  shape?: unknown;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A `binary-or-json` read answers the binary body when Accept prefers one of its binary types to JSON; JSON otherwise,
 * also when Accept names none of its types (JSON is the default, wire.md §8: no 406).
 */
function preferredBinaryType(op: Operation, req: Request): string | undefined {
  const binaryTypes = op.response.contentTypes.filter((t) => !t.includes('json'));
  const best = preferredMediaType(req.header('accept'), ['application/json', ...binaryTypes]);
  return best !== undefined && binaryTypes.includes(best) ? best : undefined;
}
