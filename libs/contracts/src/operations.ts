import { z } from 'zod';
import { ATTACHMENT_COMMANDS, AttachedFileListing, PrepareAttachmentBody, PreparedAttachment } from './attachments';
import { COMMANDS, type CommandInput, type CommandName } from './commands';
import { BINARY_CHANNEL_TYPES, ChannelRecordJson, ChannelsBody, ChannelsReadJson, DATAFILE_COMMANDS, DataFileMetadataJson, LapDeltaJson, LapDistanceJson, MAX_CHANNEL_NAME_LENGTH, MAX_LAP_INDEX, SCOPE_MESSAGES, batchScope, queryScope } from './data-files';
import { entitySchemaOf } from './entity-schemas';
import { ENTITY_COMMANDS } from './messages';
import { TIMING_COMMANDS, timingPartitionKey, TimingLapUpdate, TimingRunUpdate, TimingSectorUpdate, TimingSpeedTrapUpdate, timingUpdateOf, type TimingLevel } from './timing';
import { ENTITY_TYPES, type EntityTypeDef } from './registry';
import { ReprocessSimulationBody, SIMULATION_COMMANDS, SimulationCallbackCreated, SimulationCallbackRegistration, SimulationCallbacks, SimulationConnection, SimulationResults, SimulationStatusResults, TriggerSimulationBody } from './simulation';
import { AccountSummary, CreateModel, Guid, SearchBody, StoredName, UpdateModel } from './wire';

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
  binaryType?: (typeof BINARY_CHANNEL_TYPES)[number];
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
  // A read-only type (registry `readOnly`) keeps its write operations on the wire, each answering 403 with the reason.
  const readOnly = type.readOnly ? { refusal: { status: 403 as const, detail: type.readOnly.reason } } : {};
  const readOnlyErrors: Record<number, string> = type.readOnly ? { 403: type.readOnly.reason } : {};
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
      // A declared filter (a tyre's `tyreSpecificationId`) names the new entity's reference, as the wrappers send it.
      query: z.object({ ...includeShape, ...parentQuery, ...filterQuery }),
      queryInBody: parentKeys,
      bodyKind: 'json',
      body: CreateModel,
      unknownBodyProperties: 'forward',
      responseKind: 'json',
      response: { status: 201, ...entity(`The created ${S}, all properties populated`), location: true },
      ...readOnly,
      ...(type.readOnly ? { errors: readOnlyErrors } : {}),
      target: toBus(ENTITY_COMMANDS.create, (r) => ({ ...type_, parentIds: parentIdsOf(type, r.query), filters: filtersOf(type, r.query), body: r.body as CreateModel, bindingErrors: r.bindingErrors, include: r.include })),
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
      errors: { 409: 'Modified after LastModifiedTimeMaxAllowedValue', ...readOnlyErrors },
      ...readOnly,
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
      ...readOnly,
      ...(type.readOnly ? { errors: readOnlyErrors } : {}),
      target: toBus(ENTITY_COMMANDS.delete, (r) => ({ ...type_, id: r.params['id'] as string })),
      client: [{ name: `delete${S}`, returns: 'null' }],
    },
  );
  return ops;
}

const NonNegativeInteger = z
  .string()
  .regex(/^\d+$/, { error: SCOPE_MESSAGES.lapIndex, abort: true })
  .refine((v) => Number(v) <= MAX_LAP_INDEX, SCOPE_MESSAGES.lapIndexTooLarge);
const Seconds = z
  .string()
  .regex(/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/, { error: SCOPE_MESSAGES.seconds, abort: true })
  .refine((v) => Number.isFinite(Number(v)), { error: SCOPE_MESSAGES.secondsTooLarge, abort: true });
const Duration = Seconds.refine((v) => Number(v) >= 0, { error: SCOPE_MESSAGES.negativeDuration, abort: true });
/** A display size in points, `maxPoints` of the channel reads and of the lap traces alike. */
const PointCount = z.string().regex(/^\d+$/, { error: 'is not a whole number', abort: true }).refine((v) => Number(v) >= 4 && Number(v) <= 999_999_999, 'must be from 4 to 999999999');
const MaxPoints = PointCount.optional().meta({ description: 'Extension: at most this many points per channel (M4: first, min, max, last of each time bucket)' });
const dataFileParams = z.object({ id: Guid, attachedFileGroupName: StoredName(256) });
const LapPoints = PointCount.optional().meta({ description: 'At most this many points (evenly resampled, not M4)' });
const DATA_FILE_ERRORS = { 413: 'Batch body larger than the cap (1 MiB), or a read needing more decoded samples than READ_SAMPLE_BUDGET', 415: 'The file type does not support channel reads', 422: 'The file could not be read or parsed', 429: 'Too many concurrent reads beyond the queue (see Retry-After)', 504: 'The read timed out' } as const;
const LAP_TRACE_ERRORS = { 413: 'The lap (or the two laps of a delta) needs more decoded samples than READ_SAMPLE_BUDGET', 415: DATA_FILE_ERRORS[415], 422: 'The file could not be read, or the dataset has neither a distance channel nor a speed channel', 429: DATA_FILE_ERRORS[429], 504: DATA_FILE_ERRORS[504] } as const;
/** Above the datafile-service's own read timeout (30 s by default), so the caller gets its 504 rather than the bus's. */
const DATA_FILE_BUS_TIMEOUT_MS = 120_000;
const CHANNEL_TYPES = ['application/json', ...BINARY_CHANNEL_TYPES] as const;
const maxPointsOf = (query: Record<string, string>): { maxPoints?: number } => (query['maxPoints'] !== undefined ? { maxPoints: Number(query['maxPoints']) } : {});

/** The data file access operations of a type whose registry entry enables `dataFileAccess` (service-api.md "Data file access"). */
function dataFileOperations(type: EntityTypeDef): Operation[] {
  if (!type.features.dataFileAccess) return [];
  const { plural: P, name: S } = type;
  const base = `/${P}/{id}/DataFileAccess/{attachedFileGroupName}`;
  const common = { tags: [P], permission: 'read' as const, nonMember: 'not-found' as const, headers: accountHeader, params: dataFileParams, errors: DATA_FILE_ERRORS, busTimeoutMs: DATA_FILE_BUS_TIMEOUT_MS, limitedRead: true };
  const dataset = (r: BoundRequest) => ({ type: P, id: r.params['id'] as string, group: r.params['attachedFileGroupName'] as string });
  return [
    {
      ...common,
      operationId: `Get${S}DataFileMetadata`,
      method: 'get',
      path: `${base}/metadata`,
      summary: `Metadata of a ${S}'s data file dataset (no samples)`,
      query: z.object({}),
      bodyKind: 'none',
      responseKind: 'json',
      response: { status: 200, contentTypes: JSON_TYPES, description: 'The metadata record', schema: DataFileMetadataJson },
      target: toBus(DATAFILE_COMMANDS.metadata, dataset),
      client: [{ name: `get${S}DataFileMetadata`, returns: 'DataFileMetadataJson' }],
    },
    {
      ...common,
      operationId: `Get${S}DataFileChannel`,
      method: 'get',
      path: `${base}/channel`,
      summary: `Samples of one channel of a ${S}'s dataset: a lap (lapIndex), a window [start, start+duration), or the whole file`,
      query: z.object({ channel: z.string().min(1).max(MAX_CHANNEL_NAME_LENGTH), lapIndex: NonNegativeInteger.optional(), start: Seconds.optional(), duration: Duration.optional(), maxPoints: MaxPoints }),
      bodyKind: 'none',
      responseKind: 'binary-or-json',
      response: { status: 200, contentTypes: CHANNEL_TYPES, description: 'One channel record (JSON), or the binary channel body (docs/binary-channels.md)', schema: ChannelRecordJson },
      target: toBus(DATAFILE_COMMANDS.channel, (r) => ({ ...dataset(r), channel: r.query['channel'] as string, scope: queryScope(r.query), ...maxPointsOf(r.query), ...(r.binaryType ? { binaryType: r.binaryType } : {}) })),
      client: [{ name: `get${S}DataFileChannel`, channelRead: 'query', returns: 'ChannelRecordJson' }],
    },
    {
      ...common,
      operationId: `Get${S}DataFileChannels`,
      method: 'post',
      path: `${base}/channels`,
      summary: `Samples of many channels of a ${S}'s dataset in one request (mode 0 whole file, 1 lap, 2 window)`,
      query: z.object({ maxPoints: MaxPoints }),
      bodyKind: 'json',
      body: ChannelsBody,
      responseKind: 'binary-or-json',
      response: { status: 200, contentTypes: CHANNEL_TYPES, description: 'entityId, entityType, attachedFileGroupName, mode and the channel records (JSON), or the binary channel body (docs/binary-channels.md)', schema: ChannelsReadJson },
      target: toBus(DATAFILE_COMMANDS.channels, (r) => {
        const body = r.body as ChannelsBody;
        return { ...dataset(r), channels: body.channels, mode: body.mode, scope: batchScope(body), ...maxPointsOf(r.query), ...(r.binaryType ? { binaryType: r.binaryType } : {}) };
      }),
      client: [{ name: `get${S}DataFileChannels`, body: { name: 'body', type: 'ChannelsBody' }, channelRead: 'body', returns: 'ChannelsReadJson' }],
    },
    {
      ...common,
      errors: LAP_TRACE_ERRORS,
      operationId: `Get${S}DataFileLapDistance`,
      method: 'get',
      path: `${base}/distance`,
      summary: `Extension: lap-relative time and distance of one lap of a ${S}'s dataset, from its distance channel or its speed integrated`,
      query: z.object({ lapIndex: NonNegativeInteger, maxPoints: LapPoints }),
      bodyKind: 'none',
      responseKind: 'json',
      response: { status: 200, contentTypes: JSON_TYPES, description: 'entityId, entityType, attachedFileGroupName, lapIndex, lapTime, source {kind, channel}, times (s from the lap start), distances (m)', schema: LapDistanceJson },
      target: toBus(DATAFILE_COMMANDS.distance, (r) => ({ ...dataset(r), lapIndex: Number(r.query['lapIndex']), ...maxPointsOf(r.query) })),
      client: [{ name: `get${S}DataFileLapDistance`, query: ['lapIndex'], optionalQuery: ['maxPoints'], returns: 'LapDistanceJson' }],
    },
    {
      ...common,
      errors: LAP_TRACE_ERRORS,
      operationId: `Get${S}DataFileLapDelta`,
      method: 'get',
      path: `${base}/delta`,
      summary: `Extension: time delta of one lap against a reference lap (this dataset's, or another ${S}'s) over distance, in one request`,
      query: z.object({
        lapIndex: NonNegativeInteger,
        referenceLapIndex: NonNegativeInteger,
        referenceEntityId: Guid.optional().meta({ description: `The ${S} whose dataset holds the reference lap (default: this one)` }),
        referenceAttachedFileGroupName: StoredName(256).optional().meta({ description: 'The group of the reference dataset (default: this group)' }),
        maxPoints: LapPoints,
      }),
      bodyKind: 'none',
      responseKind: 'json',
      response: { status: 200, contentTypes: JSON_TYPES, description: 'lap and reference {entityId, entityType, attachedFileGroupName, lapIndex, lapTime}, source {kind, channel}, distance (m), delta (s, lap minus reference)', schema: LapDeltaJson },
      target: toBus(DATAFILE_COMMANDS.delta, (r) => {
        const referenceId = r.query['referenceEntityId']?.toLowerCase();
        const referenceGroup = r.query['referenceAttachedFileGroupName'];
        const reference = referenceId !== undefined || referenceGroup !== undefined ? { reference: { id: referenceId ?? (r.params['id'] as string), group: referenceGroup ?? (r.params['attachedFileGroupName'] as string) } } : {};
        return { ...dataset(r), lapIndex: Number(r.query['lapIndex']), referenceLapIndex: Number(r.query['referenceLapIndex']), ...reference, ...maxPointsOf(r.query) };
      }),
      client: [{ name: `get${S}DataFileLapDelta`, query: ['lapIndex', 'referenceLapIndex'], optionalQuery: ['referenceEntityId', 'referenceAttachedFileGroupName', 'maxPoints'], returns: 'LapDeltaJson' }],
    },
  ];
}

const attachedFileParams = z.object({ id: Guid, attachedFileId: Guid });
const attachedFileIdsQuery = z.object({
  attachedFileIds: z
    .string()
    .regex(/^[0-9a-fA-F-]{36}(,[0-9a-fA-F-]{36})*$/, 'is not a comma-separated list of GUIDs')
    .refine((v) => v.split(',').every((id) => Guid.safeParse(id).success), 'is not a comma-separated list of GUIDs')
    .optional()
    .meta({ description: 'Comma-separated attached file ids; absent: every attached file of the entity' }),
});

/** The attached file operations of a type with attachments (wire.md §7), answered by the entity-service. */
function attachmentOperations(type: EntityTypeDef): Operation[] {
  if (!type.features.attachments) return [];
  const { plural: P, name: S } = type;
  const tags = [P];
  const target = (r: BoundRequest) => ({ type: P, id: r.params['id'] as string });
  return [
    {
      operationId: `Add${S}Attachment`,
      method: 'post',
      path: `/${P}/{id}/Attachments`,
      tags,
      summary: `Prepare an attached file of a ${S}: the record (state 0) and a signed URL to PUT its bytes to`,
      permission: 'write',
      nonMember: 'not-found',
      headers: accountHeader,
      params: idParam,
      query: z.object({}),
      bodyKind: 'json',
      body: PrepareAttachmentBody,
      responseKind: 'json',
      response: { status: 200, contentTypes: JSON_TYPES, schema: PreparedAttachment, description: 'The record id and the signed upload URL' },
      target: toBus(ATTACHMENT_COMMANDS.prepare, (r) => ({ ...target(r), body: r.body as PrepareAttachmentBody })),
      client: [
        { name: `prepare${S}Attachment`, body: { name: 'model', type: 'PrepareAttachmentBody' }, returns: '{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }' },
        { name: `addAttachmentTo${S}`, attachmentUpload: 'add', returns: 'AttachmentResult' },
        { name: `retry${S}Attachment`, attachmentUpload: 'retry', returns: 'AttachmentResult' },
      ],
    },
    {
      operationId: `Get${S}Attachments`,
      method: 'get',
      path: `/${P}/{id}/Attachments`,
      tags,
      summary: `List the attached files of a ${S}, each with a signed download URL`,
      permission: 'read',
      nonMember: 'not-found',
      headers: accountHeader,
      params: idParam,
      query: attachedFileIdsQuery,
      bodyKind: 'none',
      responseKind: 'json',
      response: { status: 200, contentTypes: JSON_TYPES, schema: z.array(AttachedFileListing), description: 'The attached file records' },
      target: toBus(ATTACHMENT_COMMANDS.list, (r) => ({ ...target(r), ...(r.query['attachedFileIds'] ? { attachedFileIds: r.query['attachedFileIds'].toLowerCase().split(',') } : {}) })),
      client: [{ name: `get${S}Attachments`, returns: '{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]' }],
    },
    {
      operationId: `Update${S}Attachment`,
      method: 'put',
      path: `/${P}/{id}/Attachments/{attachedFileId}`,
      tags,
      summary: `Update an attached file of a ${S}: ServerAttachedFileState 2 finalises an upload (the bytes are checked)`,
      permission: 'write',
      nonMember: 'not-found',
      headers: accountHeader,
      params: attachedFileParams,
      query: z.object({}),
      bodyKind: 'json',
      body: UpdateModel,
      responseKind: 'json',
      response: { status: 200, contentTypes: JSON_TYPES, schema: AttachedFileListing, description: 'The updated record' },
      errors: { 409: 'No bytes were uploaded, or a compressed upload is not a valid LZ4 frame' },
      target: toBus(ATTACHMENT_COMMANDS.update, (r) => ({ ...target(r), attachedFileId: r.params['attachedFileId'] as string, body: r.body as UpdateModel })),
      client: [{ name: `update${S}Attachment`, body: { name: 'model', type: 'UpdateModel' }, returns: '{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }' }],
    },
    {
      operationId: `Delete${S}Attachment`,
      method: 'delete',
      path: `/${P}/{id}/Attachments/{attachedFileId}`,
      tags,
      summary: `Delete an attached file of a ${S} (its bytes go when nothing else refers to them)`,
      permission: 'write',
      nonMember: 'not-found',
      headers: accountHeader,
      params: attachedFileParams,
      query: z.object({}),
      bodyKind: 'none',
      responseKind: 'empty',
      response: { status: 204, contentTypes: [], description: 'Deleted' },
      target: toBus(ATTACHMENT_COMMANDS.delete, (r) => ({ ...target(r), attachedFileId: r.params['attachedFileId'] as string })),
      client: [{ name: `delete${S}Attachment`, returns: 'null' }],
    },
  ];
}

/** The path of the signed blob URLs the gateway serves: `/blobs/{attachedFileId}`. */
export const BLOB_URL_PATH = '/blobs';
const signedQuery = z.object({
  expires: z.string().regex(/^\d{1,12}$/, 'is not a Unix time').optional(),
  sig: z.string().max(128).optional(),
});

/** Signed upload and download of attached file bytes: the signature is the authority, no API key (wire.md §7). */
const BLOB_OPERATIONS: Operation[] = [
  {
    operationId: 'UploadAttachedFile',
    method: 'put',
    path: `${BLOB_URL_PATH}/{attachedFileId}`,
    tags: ['AttachedFiles'],
    summary: 'The bytes of a prepared attached file, to the signed URL its prepare answered (once)',
    permission: 'signature',
    nonMember: 'forbidden',
    params: z.object({ attachedFileId: Guid }),
    query: signedQuery,
    bodyKind: 'stream',
    responseKind: 'empty',
    response: { status: 200, contentTypes: [], description: 'Stored' },
    errors: { 400: 'An Idempotency-Key (not supported on an upload), refused before the body is read; a query value that is not valid', 403: 'Expired, tampered or already used URL', 413: 'Larger than the upload cap: a declared Content-Length at once, before the body is read; a chunked body once it passes the cap (nothing is kept, the URL stays usable)' },
    target: { gateway: 'uploadAttachedFile' },
    client: [],
  },
  {
    operationId: 'DownloadAttachedFile',
    method: 'get',
    path: `${BLOB_URL_PATH}/{attachedFileId}`,
    tags: ['AttachedFiles'],
    summary: 'The stored bytes of an attached file (as uploaded), through the SignedURL of its listing; Range requests work',
    permission: 'signature',
    nonMember: 'forbidden',
    params: z.object({ attachedFileId: Guid }),
    query: signedQuery,
    // Not length-checked: a Range this server does not understand is ignored (RFC 9110 §14.2), never refused.
    headers: z.object({ Range: z.string().optional() }),
    bodyKind: 'none',
    responseKind: 'binary-or-json',
    response: { status: 200, contentTypes: ['application/octet-stream'], description: 'The bytes (206 for a Range)' },
    errors: { 403: 'Expired or tampered URL', 416: 'A valid byte Range none of whose ranges overlaps the file (Content-Range: bytes */size); an invalid Range is ignored' },
    target: { gateway: 'downloadAttachedFile' },
    client: [],
  },
];

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
    client: [{ name: 'getAllAccounts', returns: "{ Id: string; Name: string; Role: 'reader' | 'editor' | 'admin' }[]" }],
  },
];

/** An update goes to the timing-service partition of its (session, car): one car's updates stay in order. */
function timingTarget(type: TimingLevel): BusTarget<typeof TIMING_COMMANDS.update> {
  return { ...toBus(TIMING_COMMANDS.update, (r) => ({ type, body: timingUpdateOf(r.body as TimingRunUpdate) })), orderingKey: (m) => timingPartitionKey(m.body) };
}

/** The timing integration: one update by index per call, answered by the timing-service (docs/timing.md). */
function timingOperation(plural: string, type: TimingLevel, body: z.ZodType, bodyType: string, creates: string): Operation {
  const entityName = type.slice(0, -1);
  return {
    operationId: `UpdateTiming${plural.slice(0, -1)}`,
    method: 'put',
    path: `/TimingIntegration/${plural}`,
    tags: [type, 'TimingIntegration'],
    summary: `Update a ${entityName} by index (creates ${creates} on demand)`,
    permission: 'write',
    nonMember: 'not-found',
    headers: accountHeader,
    query: z.object({}),
    bodyKind: 'json',
    body,
    unknownBodyProperties: 'reject',
    responseKind: 'json',
    response: { status: 200, contentTypes: JSON_TYPES, schema: entitySchemaOf(type), description: `The updated ${entityName}` },
    target: timingTarget(type),
    client: [{ name: `updateTiming${plural.slice(0, -1)}`, body: { name: 'update', type: bodyType }, returns: 'EntityJson' }],
  };
}

const TIMING_OPERATIONS: Operation[] = [
  timingOperation('Runs', 'RunSheets', TimingRunUpdate, 'TimingRunUpdate', 'the run'),
  timingOperation('Laps', 'Laps', TimingLapUpdate, 'TimingLapUpdate', 'the run and the lap'),
  timingOperation('Sectors', 'LapSectors', TimingSectorUpdate, 'TimingSectorUpdate', 'the run, the lap and the sector'),
  timingOperation('SpeedTraps', 'LapSpeedTraps', TimingSpeedTrapUpdate, 'TimingSpeedTrapUpdate', 'the run, the lap and the speed trap'),
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
  {
    operationId: 'RegisterExternalSimulationCallback',
    method: 'post',
    path: '/ExternalSimulations/Callbacks',
    tags: SIMULATION_TAGS,
    summary: "Register an HTTP callback for the account's simulation status changes (signed per Standard Webhooks; the secret is in this answer only)",
    permission: 'admin',
    nonMember: 'forbidden',
    headers: accountHeader,
    bodyKind: 'json',
    body: SimulationCallbackRegistration,
    responseKind: 'json',
    response: { status: 201, contentTypes: JSON_TYPES, schema: SimulationCallbackCreated, description: 'The callback with its signing secret (shown once)' },
    target: toBus(SIMULATION_COMMANDS.registerCallback, (r) => ({ body: r.body as SimulationCallbackRegistration })),
    client: [{ name: 'registerExternalSimulationCallback', body: { name: 'callback', type: 'SimulationCallbackRegistration' }, returns: 'SimulationCallbackCreated' }],
  },
  {
    operationId: 'GetExternalSimulationCallbacks',
    method: 'get',
    path: '/ExternalSimulations/Callbacks',
    tags: SIMULATION_TAGS,
    summary: "The account's callbacks (no secrets), with their deliveries by state and their recent failures",
    permission: 'admin',
    nonMember: 'forbidden',
    headers: accountHeader,
    bodyKind: 'none',
    responseKind: 'json',
    response: { status: 200, contentTypes: JSON_TYPES, schema: SimulationCallbacks, description: 'The callbacks' },
    target: toBus(SIMULATION_COMMANDS.listCallbacks, () => ({})),
    client: [{ name: 'getExternalSimulationCallbacks', returns: 'SimulationCallbacks' }],
  },
  {
    operationId: 'DeleteExternalSimulationCallback',
    method: 'delete',
    path: '/ExternalSimulations/Callbacks/{id}',
    tags: SIMULATION_TAGS,
    summary: 'Delete a callback; its pending deliveries are dropped',
    permission: 'admin',
    nonMember: 'forbidden',
    headers: accountHeader,
    params: idParam,
    bodyKind: 'none',
    responseKind: 'empty',
    response: { status: 204, contentTypes: [], description: 'Deleted' },
    errors: { 404: 'The callback does not exist in the account' },
    target: toBus(SIMULATION_COMMANDS.deleteCallback, (r) => ({ id: r.params['id'] as string })),
    client: [{ name: 'deleteExternalSimulationCallback', returns: 'null' }],
  },
];

export const OPERATIONS: readonly Operation[] = [
  ...ACCOUNT_OPERATIONS,
  ...BLOB_OPERATIONS,
  ...ENTITY_TYPES.flatMap((type) => [...entityOperations(type), ...attachmentOperations(type), ...dataFileOperations(type)]),
  ...TIMING_OPERATIONS,
  ...SIMULATION_OPERATIONS,
];

export function isBusTarget(target: Operation['target']): target is BusTarget {
  return 'service' in target;
}

/** The path parameters of a template, in order: `/Setups/{id}` → `["id"]`. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}
