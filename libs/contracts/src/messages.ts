import { z } from 'zod';
import { CreateModel, Guid, ParameterUpdate, SearchBody, UpdateModel } from './wire';
import { atMostItems, REQUEST_LIMITS } from './request-limits';

/** Bus service names: each service consumes the request queue of its name. */
export const SERVICES = { entity: 'entity', timing: 'timing', simulation: 'simulation', datafile: 'datafile' } as const;

/** Topic exchanges. */
export const EXCHANGES = {
  entityEvents: 'entity.events',
  timingEvents: 'timing.events',
  simulationStatus: 'simulation.status',
  simulationJobs: 'simulation.jobs',
  /** Membership changes of the gateway's auth schema (`account.members`), mirrored as each account's Users entities. */
  authEvents: 'auth.events',
} as const;

/**
 * The durable queues that services share for their event subscriptions (a subscription per instance has its own,
 * which goes with its connection). Named here so a tool can remove a test run's topology whole.
 */
export const SUBSCRIPTION_QUEUES = {
  /** The entity-service's copy of the gateway's membership snapshots (mirrored as Users). */
  members: 'entity-service.members',
  /** The simulation-service's job queue (competing workers). */
  simulationJobs: 'simulation.jobs',
} as const;

export const Role = z.enum(['reader', 'editor', 'admin']);
export type Role = z.infer<typeof Role>;

/** Who is asking, resolved by the gateway from the API key and the AccountId header. */
export const CallerContext = z.strictObject({ accountId: Guid, userId: Guid, role: Role });
export type CallerContext = z.infer<typeof CallerContext>;

const Include = z.array(z.string().max(REQUEST_LIMITS.MAX_INCLUDE_PATH_LENGTH, { error: `must be at most ${REQUEST_LIMITS.MAX_INCLUDE_PATH_LENGTH} characters long (MAX_INCLUDE_PATH_LENGTH)` })).max(REQUEST_LIMITS.MAX_INCLUDE_PATHS, atMostItems('MAX_INCLUDE_PATHS')).optional();
const ParentIds = z.record(z.string(), Guid);

export const EntityGet = z.strictObject({ caller: CallerContext, type: z.string(), id: Guid, include: Include });
/** `filters`: the type's declared list filters by camelCase query name (`tyreSpecificationId`), beside its parent ids. */
export const EntityList = z.strictObject({ caller: CallerContext, type: z.string(), parentIds: ParentIds, filters: ParentIds.optional(), include: Include });
/** Unknown body properties the gateway found: the entity-service reports them together with its own checks of the rest. */
const BindingErrors = z.record(z.string(), z.array(z.string())).optional();
/** `filters`: a declared list filter given in the query (`POST /Tyres?tyreSpecificationId=`) sets that reference; `include` projects the answer. */
export const EntityCreate = z.strictObject({ caller: CallerContext, type: z.string(), parentIds: ParentIds, filters: ParentIds.optional(), body: CreateModel, bindingErrors: BindingErrors, include: Include });
export const EntityUpdate = z.strictObject({ caller: CallerContext, type: z.string(), id: Guid, body: UpdateModel, bindingErrors: BindingErrors });
export const EntityDelete = z.strictObject({ caller: CallerContext, type: z.string(), id: Guid });
export const EntitySearch = z.strictObject({ caller: CallerContext, type: z.string(), body: SearchBody, include: Include });
/**
 * Internal commands (no HTTP operation routes to them) for a service that reads or writes many entities of one type
 * at once, such as the simulation-service validating and marking the setups of one Trigger.
 * getMany: the entities among `ids` the caller can read, rendered as `entity.get` renders one; the others are left out.
 */
export const EntityGetMany = z.strictObject({ caller: CallerContext, type: z.string(), ids: z.array(Guid).max(Math.max(10_000, REQUEST_LIMITS.MAX_SIMULATION_SETUPS)) });
/** updateMany: parameter updates of many entities in one transaction; each item is applied or refused on its own. */
export const EntityUpdateMany = z.strictObject({
  caller: CallerContext,
  type: z.string(),
  items: z.array(z.strictObject({ id: Guid, parameterUpdates: z.array(ParameterUpdate).max(1_000) })).max(10_000),
});
/** One item's outcome of `entity.updateMany`, in the order of its items. */
export const EntityUpdateManyOutcome = z.union([
  z.strictObject({ id: Guid, ok: z.literal(true), lastModifiedTime: z.string() }),
  z.strictObject({ id: Guid, ok: z.literal(false), status: z.number().int(), detail: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() }),
]);
export type EntityGetMany = z.infer<typeof EntityGetMany>;
export type EntityUpdateMany = z.infer<typeof EntityUpdateMany>;
export type EntityUpdateManyOutcome = z.infer<typeof EntityUpdateManyOutcome>;
export type EntityGet = z.infer<typeof EntityGet>;
export type EntityList = z.infer<typeof EntityList>;
export type EntityCreate = z.infer<typeof EntityCreate>;
export type EntityUpdate = z.infer<typeof EntityUpdate>;
export type EntityDelete = z.infer<typeof EntityDelete>;
export type EntitySearch = z.infer<typeof EntitySearch>;

/** Command names the entity-service answers. */
export const ENTITY_COMMANDS = {
  get: 'entity.get',
  list: 'entity.list',
  create: 'entity.create',
  update: 'entity.update',
  delete: 'entity.delete',
  search: 'entity.search',
  getMany: 'entity.getMany',
  updateMany: 'entity.updateMany',
} as const;

/**
 * Replies to the entity commands are the response body's JSON as it is sent to the client (the gateway passes the
 * bytes on unparsed); get, create and update add these reply headers beside it.
 */
export const ENTITY_REPLY_HEADERS = {
  /** The entity's modification time (ISO 8601), sent to the client as `X-Last-Modified-Time`. */
  lastModifiedTime: 'lastModifiedTime',
  /** The entity's id: the `Location` of a created entity. */
  entityId: 'entityId',
} as const;

/** `entity.<Type>.<created|updated|deleted>` on the entity events exchange, published after the commit. */
export const EntityChangedEvent = z.object({
  action: z.enum(['created', 'updated', 'deleted']),
  accountId: Guid,
  entityType: z.string(),
  entityId: Guid,
  parentIds: ParentIds,
  changedParameters: z.array(z.string()),
  occurredAt: z.string(),
});
export type EntityChangedEvent = z.infer<typeof EntityChangedEvent>;

/** Routing key of `AccountMembersEvent` on the auth events exchange. */
export const ACCOUNT_MEMBERS_ROUTING_KEY = 'account.members';

/**
 * The whole member list of one account after a membership change (added, removed, role changed), from the gateway's
 * auth outbox. `version` grows with every change of the account (a decimal string of a sequence value): a consumer
 * applies a snapshot only when it is newer than the last it applied, so a late or repeated one changes nothing.
 */
export const AccountMembersEvent = z.object({
  accountId: Guid,
  version: z.string().regex(/^\d{1,19}$/),
  members: z.array(z.object({ userId: Guid, name: z.string(), email: z.string().nullable(), role: Role })),
});
export type AccountMembersEvent = z.infer<typeof AccountMembersEvent>;
