import { z } from 'zod';
import { COMMANDS, type CommandInput, type CommandName } from './commands';
import { entitySchemaOf } from './entity-schemas';
import { ENTITY_COMMANDS } from './messages';
import { ENTITY_TYPES, type EntityTypeDef } from './registry';
import { ReprocessSimulationBody, SIMULATION_COMMANDS, SimulationConnection, SimulationResults, SimulationStatusResults, TriggerSimulationBody } from './simulation';
import { AccountSummary, CreateModel, Guid, SearchBody, UpdateModel } from './wire';

/**
 * The operation table: every HTTP operation of the API, declared once. The gateway mounts its routes from it, the
 * OpenAPI document describes it, the client library's methods are generated from it, and each service's command
 * dispatch is checked against it. A new endpoint is one entry here plus one handler (docs/contributing.md).
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
  /** Error responses beyond the common ones. */
  errors?: Readonly<Record<number, string>>;
  target: BusTarget | GatewayTarget;
  client: readonly ClientMethod[];
}

export const INCLUDE_PARAMETER = 'parametersToInclude';

const accountHeader = z.object({ AccountId: Guid.meta({ description: 'The account the request acts in' }) });
const idParam = z.object({ id: Guid });
const includeShape = {
  [INCLUDE_PARAMETER]: z.string().optional().meta({ description: 'Comma-separated property paths, `*` wildcard, dot for nesting, e.g. `Name,Events.Cars.Car.*`' }),
};
const JSON_TYPES = ['application/json'] as const;

const toBus = <N extends CommandName>(name: N, toMessage: (request: BoundRequest) => CommandInput<N>): BusTarget<N> => ({ service: COMMANDS[name].service, name, toMessage });

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

/** The standard operations of one registry type (wire.md §3), with the names the wrappers give them. */
function entityOperations(type: EntityTypeDef): Operation[] {
  const { plural: P, name: S } = type;
  const tags = [P];
  const schema = entitySchemaOf(P);
  const parentKeys = type.parents.map((p) => p.key);
  const parentQuery = Object.fromEntries(type.parents.map((p) => [p.key, Guid.optional()]));
  const filterQuery = Object.fromEntries((type.filters ?? []).map((name) => [filterKey(name), Guid.optional().meta({ description: `Only the ${type.plural} whose ${name} is this id` })]));
  const forParents = type.parents.length ? `For${type.parents.map((p) => parentName(p.key)).join('')}` : '';
  const type_ = { type: P };
  const entity = (description: string) => ({ contentTypes: JSON_TYPES, schema, description });
  const list = (description: string) => ({ contentTypes: JSON_TYPES, schema: z.array(schema), description });
  const ops: Operation[] = [];
  if (type.features.search) {
    const search = (method: 'get' | 'post'): Operation => ({
      operationId: method === 'get' ? `SearchFor${P}` : `SearchFor${P}ByPost`,
      method,
      path: `/${P}/Search`,
      tags,
      summary: `Search ${P} by association (${method === 'get' ? 'GET with a JSON body' : 'POST for clients that cannot send a GET body'})`,
      permission: 'read',
      nonMember: 'forbidden',
      headers: accountHeader,
      query: z.object(includeShape),
      bodyKind: 'json',
      body: SearchBody,
      responseKind: 'json',
      response: { status: 200, ...list(`Matching ${P}`) },
      target: toBus(ENTITY_COMMANDS.search, (r) => ({ ...type_, body: r.body as SearchBody, include: r.include })),
      // The client searches with POST: fetch cannot send a GET body.
      client: method === 'post' ? [{ name: `searchFor${P}`, body: { name: 'body', type: 'SearchBody' }, include: true, returns: 'EntityJson[]' }] : [],
    });
    ops.push(search('get'), search('post'));
  }
  ops.push(
    {
      operationId: `Get${S}ById`,
      method: 'get',
      path: `/${P}/{id}`,
      tags,
      summary: `Get one ${S}`,
      permission: 'read',
      nonMember: 'not-found',
      headers: accountHeader,
      params: idParam,
      query: z.object(includeShape),
      bodyKind: 'none',
      responseKind: 'json',
      response: { status: 200, ...entity(S) },
      target: toBus(ENTITY_COMMANDS.get, (r) => ({ ...type_, id: r.params['id'] as string, include: r.include })),
      client: [{ name: `get${S}ById`, include: true, returns: 'EntityJson' }],
    },
    {
      operationId: `GetAll${P}${forParents}`,
      method: 'get',
      path: `/${P}`,
      tags,
      summary: type.parents.length ? `List ${P} by ${parentKeys.join(' and/or ')}` : `List the account's ${P}`,
      permission: 'read',
      nonMember: type.parents.length ? 'not-found' : 'forbidden',
      headers: accountHeader,
      query: z.object({ ...includeShape, ...parentQuery, ...filterQuery }),
      bodyKind: 'none',
      responseKind: 'json',
      response: { status: 200, ...list(`The ${P}`) },
      target: toBus(ENTITY_COMMANDS.list, (r) => ({ ...type_, parentIds: parentIdsOf(type, r.query), include: r.include, filters: filtersOf(type, r.query) })),
      client: [
        { name: `getAll${P}${forParents}`, query: parentKeys, include: true, returns: 'EntityJson[]' },
        // Types with two parents list by either one as well (GET /Setups?eventId=...): one method per parent.
        ...(type.parents.length > 1 ? type.parents.map((p) => ({ name: `getAll${P}For${parentName(p.key)}`, query: [p.key], include: true, returns: 'EntityJson[]' })) : []),
      ],
    },
    {
      operationId: `Add${S}`,
      method: 'post',
      path: `/${P}`,
      tags,
      summary: `Create a ${S}${type.parents.length ? ` (parent ids in the query or the body)` : ''}`,
      permission: 'write',
      nonMember: type.parents.length ? 'not-found' : 'forbidden',
      headers: accountHeader,
      query: z.object(parentQuery),
      queryInBody: parentKeys,
      bodyKind: 'json',
      body: CreateModel,
      unknownBodyProperties: 'forward',
      responseKind: 'json',
      response: { status: 201, ...entity(`The created ${S}, all properties populated`), location: true },
      target: toBus(ENTITY_COMMANDS.create, (r) => ({ ...type_, parentIds: parentIdsOf(type, r.query), body: r.body as CreateModel, bindingErrors: r.bindingErrors })),
      client: [{ name: `add${S}`, query: parentKeys, body: { name: 'model', type: 'CreateModel', defaultEmpty: true }, returns: 'EntityJson' }],
    },
    {
      operationId: `Update${S}`,
      method: 'put',
      path: `/${P}/{id}`,
      tags,
      summary: `Update a ${S}`,
      permission: 'write',
      nonMember: 'not-found',
      headers: accountHeader,
      params: idParam,
      query: z.object({}),
      bodyKind: 'json',
      body: UpdateModel,
      unknownBodyProperties: 'forward',
      responseKind: 'json',
      response: { status: 200, ...entity(`The updated ${S}`) },
      errors: { 409: 'Modified after LastModifiedTimeMaxAllowedValue' },
      target: toBus(ENTITY_COMMANDS.update, (r) => ({ ...type_, id: r.params['id'] as string, body: r.body as UpdateModel, bindingErrors: r.bindingErrors })),
      client: [{ name: `update${S}`, body: { name: 'model', type: 'UpdateModel' }, returns: 'EntityJson' }],
    },
    {
      operationId: `Delete${S}`,
      method: 'delete',
      path: `/${P}/{id}`,
      tags,
      summary: `Delete a ${S} with its children and attached files`,
      permission: 'write',
      nonMember: 'not-found',
      headers: accountHeader,
      params: idParam,
      query: z.object({}),
      bodyKind: 'none',
      responseKind: 'empty',
      response: { status: 204, contentTypes: [], description: 'Deleted' },
      target: toBus(ENTITY_COMMANDS.delete, (r) => ({ ...type_, id: r.params['id'] as string })),
      client: [{ name: `delete${S}`, returns: 'null' }],
    },
  );
  return ops;
}

/** Operations on the caller's accounts: answered by the gateway from its auth store. */
const ACCOUNT_OPERATIONS: Operation[] = [
  {
    operationId: 'GetAllAccounts',
    method: 'get',
    path: '/Accounts/GetAll',
    tags: ['Accounts'],
    summary: "The caller's accounts (AccountId header may be empty here)",
    permission: 'none',
    nonMember: 'forbidden',
    bodyKind: 'none',
    responseKind: 'json',
    response: { status: 200, contentTypes: JSON_TYPES, schema: z.array(AccountSummary), description: 'Accounts' },
    target: { gateway: 'listAccounts' },
    client: [{ name: 'getAllAccounts', returns: '{ Id: string; Name: string }[]' }],
  },
];

/** External simulations (service-api.md): answered by the simulation-service. */
const SIMULATION_TAGS = ['ExternalSimulations'];
const SIMULATION_OPERATIONS: Operation[] = [
  {
    operationId: 'TriggerExternalSimulations',
    method: 'post',
    path: '/ExternalSimulations/Trigger',
    tags: SIMULATION_TAGS,
    summary: 'Validate each setup and queue a new external simulation for the accepted ones',
    permission: 'write',
    nonMember: 'forbidden',
    headers: accountHeader,
    bodyKind: 'json',
    body: TriggerSimulationBody,
    responseKind: 'json',
    response: { status: 200, contentTypes: JSON_TYPES, schema: SimulationResults, description: 'One result per setup: accepted, or why not' },
    errors: { 404: 'The simulation profile does not exist in the account' },
    target: toBus(SIMULATION_COMMANDS.trigger, (r) => ({ body: r.body as TriggerSimulationBody })),
    client: [{ name: 'triggerExternalSimulations', body: { name: 'request', type: 'TriggerSimulationBody' }, returns: 'SimulationResults' }],
  },
  {
    operationId: 'ReprocessExternalSimulations',
    method: 'post',
    path: '/ExternalSimulations/Reprocess',
    tags: SIMULATION_TAGS,
    summary: "Reprocess the results of already-run simulations (the study ID read from each setup's parameter) without re-running them",
    permission: 'write',
    nonMember: 'forbidden',
    headers: accountHeader,
    bodyKind: 'json',
    body: ReprocessSimulationBody,
    responseKind: 'json',
    response: { status: 200, contentTypes: JSON_TYPES, schema: SimulationResults, description: 'One result per setup with the resolved studyId' },
    errors: { 404: 'The simulation profile does not exist in the account' },
    target: toBus(SIMULATION_COMMANDS.reprocess, (r) => ({ body: r.body as ReprocessSimulationBody })),
    client: [{ name: 'reprocessExternalSimulations', body: { name: 'request', type: 'ReprocessSimulationBody' }, returns: 'SimulationResults' }],
  },
  {
    operationId: 'GetExternalSimulationStatus',
    method: 'get',
    path: '/ExternalSimulations/Status',
    tags: SIMULATION_TAGS,
    summary: "The simulation status of setups, read from the parameters the profile names (setupIds once per setup)",
    permission: 'read',
    nonMember: 'forbidden',
    headers: accountHeader,
    query: z.object({ externalProfileId: Guid, setupIds: z.array(Guid).min(1).meta({ description: 'Repeat once per setup' }) }),
    repeatedQuery: ['setupIds'],
    bodyKind: 'none',
    responseKind: 'json',
    response: { status: 200, contentTypes: JSON_TYPES, schema: SimulationStatusResults, description: 'One status entry per setup' },
    errors: { 404: 'The simulation profile does not exist in the account' },
    target: toBus(SIMULATION_COMMANDS.status, (r) => ({ externalProfileId: r.query['externalProfileId'] as string, setupIds: r.queryLists?.['setupIds'] ?? [] })),
    client: [{ name: 'getExternalSimulationStatus', query: ['externalProfileId', 'setupIds'], returns: 'SimulationStatusResults' }],
  },
  {
    operationId: 'PutExternalSimulationConnection',
    method: 'put',
    path: '/ExternalSimulations/Connection',
    tags: SIMULATION_TAGS,
    summary: "Create or replace the account's connection to the external simulation system (stored encrypted, never returned)",
    permission: 'admin',
    nonMember: 'forbidden',
    headers: accountHeader,
    bodyKind: 'json',
    body: SimulationConnection,
    responseKind: 'empty',
    response: { status: 204, contentTypes: [], description: 'Stored' },
    target: toBus(SIMULATION_COMMANDS.putConnection, (r) => ({ body: r.body as SimulationConnection })),
    client: [{ name: 'putExternalSimulationConnection', body: { name: 'connection', type: 'SimulationConnection' }, returns: 'null' }],
  },
];

export const OPERATIONS: readonly Operation[] = [...ACCOUNT_OPERATIONS, ...ENTITY_TYPES.flatMap(entityOperations), ...SIMULATION_OPERATIONS];

export function isBusTarget(target: Operation['target']): target is BusTarget {
  return 'service' in target;
}

/** The path parameters of a template, in order: `/Setups/{id}` → `["id"]`. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}
