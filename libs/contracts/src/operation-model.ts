import { z } from 'zod';
import { COMMANDS, type CommandInput, type CommandName } from './commands';
import type { CHANNEL_READ_BINARY_TYPES } from './data-files';
import { Guid } from './wire';

/**
 * The operation model: what one HTTP operation of the API declares (its route, inputs, answer, permission, the bus
 * command or gateway handler that answers it and the client methods generated for it), and the helpers each area
 * declares its operations with. The areas' operations live beside their contracts (`entity-operations.ts`,
 * `timing-operations.ts`, ...); `operations.ts` assembles them into the one table (`OPERATIONS`).
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
/**
 * What the caller needs: `read`/`write`/`admin` a role in the AccountId account; `none` only a valid API key (the
 * account lists); `signature` a signed URL instead of a key.
 */
export type Permission = 'read' | 'write' | 'admin' | 'signature' | 'none';
/** `json`: parsed and validated at the edge; `stream`: passed on unread (uploads), never parsed as JSON; `none`: no body. */
export type BodyKind = 'json' | 'stream' | 'none';
/** `json`: a JSON document (forwarded as the service's bytes); `binary-or-json`: the client picks by Accept; `empty`: no body. */
export type ResponseKind = 'json' | 'binary-or-json' | 'empty';

export interface OperationResponse {
  status: number;
  description: string;
  /** Content types of the success body; empty for `empty`. */
  contentTypes: readonly string[];
  schema?: z.ZodType;
  /** A created resource: `Location` is the operation's path, a slash and the id the service replied with. */
  location?: boolean;
}

/** One method of the generated client. Its arguments: path parameters, `query` (in order), the body, then parametersToInclude. */
export interface ClientMethod {
  name: string;
  /** Query parameters the method takes as required arguments, in order (parent ids). */
  query?: readonly string[];
  /** The body argument: its name, its TypeScript type (exported by @pitwall/contracts) and whether it defaults to `{}`. */
  body?: { name: string; type: string; defaultEmpty?: boolean };
  /** A last optional `parametersToInclude` argument. */
  include?: boolean;
  /** Optional query parameters, taken as a last optional `options` argument (`{ maxPoints?: string }`). */
  optionalQuery?: readonly string[];
  /** A channel read: a last optional `options` argument (scope query values for `query`, maxPoints, binary). */
  channelRead?: 'query' | 'body';
  /**
   * On an attachment prepare: the client's one-call upload (`add`: accountId, entityId, options, file; prepare, PUT
   * of the bytes, finalise) or its retry from the failed step (`retry`: the result), instead of a plain call.
   */
  attachmentUpload?: 'add' | 'retry';
  /** TypeScript type of the result. */
  returns: string;
}

/** The request as the gateway bound and validated it, handed to an operation's `toMessage`. */
export interface BoundRequest {
  params: Record<string, string>;
  /** Query parameters (and `queryInBody` keys found in the body), validated; `parametersToInclude` is in `include`. */
  query: Record<string, string>;
  include?: string[];
  body: unknown;
  /** `binary-or-json` operations: the binary media type the client's Accept prefers, when it prefers one. */
  binaryType?: (typeof CHANNEL_READ_BINARY_TYPES)[number];
  /** The header values the operation declares in `headers` (beside AccountId), by their declared names. */
  headers?: Record<string, string>;
  /** Unknown top-level body properties, when the operation forwards them (`unknownBodyProperties: 'forward'`). */
  bindingErrors?: Record<string, string[]>;
  /** Query parameters given once per value (`setupIds=a&setupIds=b`), validated; one entry per `repeatedQuery` name. */
  queryLists?: Record<string, string[]>;
}

/** An operation answered by a bus command: the command and how its message is built from the bound request. */
export interface BusTarget<N extends CommandName = CommandName> {
  service: string;
  name: N;
  toMessage: (request: BoundRequest) => CommandInput<N>;
  /**
   * The message's ordering key, for a service consumed through partition queues: the gateway sends it to
   * `partitionService(service, partitionOf(key, count))` (count from its configuration), so the messages of one key
   * reach one consumer in order.
   */
  orderingKey?(message: CommandInput<N>): string;
}

/** An operation the gateway answers itself (account lists come from its own auth store). */
export interface GatewayTarget {
  gateway: string;
}

export interface Operation {
  /** Unique, named like the official wrappers' methods: GetChampionshipById, AddSetup, SearchForTyres. */
  operationId: string;
  method: HttpMethod;
  /** Path template, `{name}` for path parameters. */
  path: string;
  tags: readonly string[];
  summary: string;
  permission: Permission;
  /** A caller that is no member of the account: the entity is not there for it (404), or the account-wide answer is refused (403). */
  nonMember: 'not-found' | 'forbidden';
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Query parameters (declared as `z.array(...)` in `query`) that repeat once per value; bound into `queryLists`. */
  repeatedQuery?: readonly string[];
  /** Query parameters that may also travel in a JSON body (a create's parent ids, wire.md §3); the query wins. */
  queryInBody?: readonly string[];
  headers?: z.ZodObject;
  bodyKind: BodyKind;
  body?: z.ZodType;
  /** Unknown top-level body properties: a 400 at the edge, or forwarded so the service reports them with its own findings. */
  unknownBodyProperties?: 'reject' | 'forward';
  responseKind: ResponseKind;
  response: OperationResponse;
  /** Counted against the caller's concurrent expensive reads (a few run, a short queue waits, beyond that 429). */
  limitedRead?: boolean;
  /** How long the gateway waits for the service (default: the bus's timeout); the service answers its own 504 first. */
  busTimeoutMs?: number;
  /** Error responses beyond the common ones. */
  errors?: Readonly<Record<number, string>>;
  /**
   * Always refused, after the key and the permission are checked and before any body is read: a write of a type the
   * registry declares read-only (`readOnly`, the Users). The gateway answers this problem; the service never sees it.
   */
  refusal?: { status: 403; detail: string };
  target: BusTarget | GatewayTarget;
  client: readonly ClientMethod[];
}

export const INCLUDE_PARAMETER = 'parametersToInclude';

/** The `AccountId` header of every operation that acts in an account. */
export const accountHeader = z.object({ AccountId: Guid.meta({ description: 'The account the request acts in' }) });
export const idParam = z.object({ id: Guid });
export const includeShape = {
  [INCLUDE_PARAMETER]: z.string().optional().meta({ description: 'Comma-separated property paths, `*` wildcard, dot for nesting, e.g. `Name,Events.Cars.Car.*`' }),
};
export const JSON_TYPES = ['application/json'] as const;

/** A JSON answer of `schema`. */
export const jsonResponse = (status: number, schema: z.ZodType, description: string): OperationResponse => ({ status, contentTypes: JSON_TYPES, schema, description });
/** An answer without a body. */
export const emptyResponse = (status: number, description: string): OperationResponse => ({ status, contentTypes: [], description });

/** The bus target of a command: its service from `COMMANDS`, its message built from the bound request. */
export const toBus = <N extends CommandName>(name: N, toMessage: (request: BoundRequest) => CommandInput<N>): BusTarget<N> => ({ service: COMMANDS[name].service, name, toMessage });

/**
 * An operation as an area declares it: `bodyKind` may be left out (`json` with a `body`, `none` without; an upload
 * says `stream`), and so may `responseKind` (`empty` without content types, `json` with JSON only, else
 * `binary-or-json`).
 */
export type OperationSpec = Omit<Operation, 'bodyKind' | 'responseKind'> & Partial<Pick<Operation, 'bodyKind' | 'responseKind'>>;

/** An area's declaration with its defaults given: the fields the defaults hold may be left out, or overridden. */
export type OperationSpecWith<D> = Omit<OperationSpec, keyof D> & Partial<OperationSpec>;

function responseKindOf(response: OperationResponse): ResponseKind {
  if (response.contentTypes.length === 0) return 'empty';
  return response.contentTypes.every((type) => type.includes('json')) ? 'json' : 'binary-or-json';
}

export function defineOperation(spec: OperationSpec): Operation {
  return { bodyKind: spec.body ? 'json' : 'none', responseKind: responseKindOf(spec.response), ...spec };
}

/**
 * The declarer of one area's operations: the fields most of them share (tags, the AccountId header, who a non-member
 * is) given once as `defaults`, each operation stating only what is its own.
 */
export function withDefaults<D extends Partial<OperationSpec>>(defaults: D): (spec: OperationSpecWith<D>) => Operation {
  return (spec) => defineOperation({ ...defaults, ...spec } as OperationSpec);
}

export function isBusTarget(target: Operation['target']): target is BusTarget {
  return 'service' in target;
}

/** The path parameters of a template, in order: `/Setups/{id}` → `["id"]`. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}
