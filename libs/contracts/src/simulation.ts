import { z } from 'zod';
import { EVERY_REFUSAL_AT_ONCE } from './field-errors';
import { CallerContext } from './messages';
import { Guid, isStorableText, UNSTORABLE_TEXT } from './wire';
import { atMostItems, REQUEST_LIMITS } from './request-limits';

/**
 * External simulations (service-api.md "External simulation"): the bodies, the bus messages, the result entries,
 * the status values a setup moves through and the status event published on the `simulation.status` exchange.
 */

export const CREDENTIAL_FIELDS = ['clientId', 'clientSecret', 'username', 'password'] as const;

/**
 * The account's login to the external simulation system: all four fields, never returned or logged. `baseUrl` names
 * the system they are for: the credentials are bound to its origin and sent to no other (a profile whose BaseUrl has
 * another origin cannot use them); without it (or `null`, as a .NET wrapper sends an unset string) they are sent nowhere.
 */
export const SimulationConnection = z
  .strictObject({
    clientId: z.string().min(1, 'is required').max(500),
    clientSecret: z.string().min(1, 'is required').max(2000),
    username: z.string().min(1, 'is required').max(500),
    password: z.string().min(1, 'is required').max(2000),
    baseUrl: z
      .string()
      .max(2000)
      .refine((value) => isVerbatim(value) && isHttpUrl(value) && !hasUserinfo(value), 'must be an absolute http:// or https:// URL, without a user name or password, spaces around it, CR or LF')
      .nullable()
      .optional(),
  })
  .meta({ id: 'SimulationConnection' });
export type SimulationConnection = z.infer<typeof SimulationConnection>;

/**
 * Credentials given with a request: all four or none; a partial set is refused as a whole, naming what is missing.
 * `null` is the same as absent (a .NET wrapper sends an unset optional object as null): the account's connection is used.
 */
const Credentials = z
  .strictObject({
    clientId: z.string().max(500).optional(),
    clientSecret: z.string().max(2000).optional(),
    username: z.string().max(500).optional(),
    password: z.string().max(2000).optional(),
  })
  // Beside the fields' own refusals too (EVERY_REFUSAL_AT_ONCE): a field of the wrong type (null too) is named there
  // alone, a missing or empty one here.
  .superRefine(
    (value, ctx) => {
      for (const field of CREDENTIAL_FIELDS)
        if (value[field] === undefined || value[field] === '') ctx.addIssue({ code: 'custom', path: [field], message: 'is required: credentials need clientId, clientSecret, username and password together' });
    },
    EVERY_REFUSAL_AT_ONCE,
  )
  .meta({ id: 'SimulationCredentials' });

/** Setups per Trigger or Reprocess request. */
export const MAX_SIMULATION_SETUPS = REQUEST_LIMITS.MAX_SIMULATION_SETUPS;

export const TriggerSimulationBody = z
  .strictObject({
    externalProfileId: Guid,
    setupIds: z.array(Guid).min(1, 'needs at least one setup').max(MAX_SIMULATION_SETUPS, atMostItems('MAX_SIMULATION_SETUPS')),
    credentials: Credentials.nullable().optional(),
  })
  .meta({ id: 'TriggerSimulationBody' });
export type TriggerSimulationBody = z.infer<typeof TriggerSimulationBody>;

export const ReprocessSimulationBody = TriggerSimulationBody.extend({ parameterNameForStudyId: z.string().min(1, 'is required').max(200) }).meta({ id: 'ReprocessSimulationBody' });
export type ReprocessSimulationBody = z.infer<typeof ReprocessSimulationBody>;

export const SimulationResult = z
  .object({ setupId: Guid, accepted: z.boolean(), studyId: z.string().nullable(), message: z.string().nullable() })
  .meta({ id: 'SimulationResult' });
export const SimulationResults = z.object({ results: z.array(SimulationResult) }).meta({ id: 'SimulationResults' });
export type SimulationResult = z.infer<typeof SimulationResult>;
export type SimulationResults = z.infer<typeof SimulationResults>;

export const SimulationStatusResult = z
  .object({
    setupId: Guid,
    setupFound: z.boolean(),
    status: z.string().nullable(),
    message: z.string().nullable(),
    studyId: z.string().nullable(),
    lastUpdateTime: z.string().nullable(),
  })
  .meta({ id: 'SimulationStatusResult' });
export const SimulationStatusResults = z.object({ results: z.array(SimulationStatusResult) }).meta({ id: 'SimulationStatusResults' });
export type SimulationStatusResult = z.infer<typeof SimulationStatusResult>;
export type SimulationStatusResults = z.infer<typeof SimulationStatusResults>;

export const SimulationTrigger = z.strictObject({ caller: CallerContext, body: TriggerSimulationBody });
export const SimulationReprocess = z.strictObject({ caller: CallerContext, body: ReprocessSimulationBody });
export const SimulationStatusQuery = z.strictObject({ caller: CallerContext, externalProfileId: Guid, setupIds: z.array(Guid).min(1).max(MAX_SIMULATION_SETUPS, atMostItems('MAX_SIMULATION_SETUPS')) });
export const SimulationConnectionPut = z.strictObject({ caller: CallerContext, body: SimulationConnection });

export const SIMULATION_COMMANDS = {
  trigger: 'simulation.trigger',
  reprocess: 'simulation.reprocess',
  status: 'simulation.status',
  putConnection: 'simulation.connection.put',
  registerCallback: 'simulation.callbacks.register',
  listCallbacks: 'simulation.callbacks.list',
  deleteCallback: 'simulation.callbacks.delete',
} as const;

/** The statuses a setup moves through, as written to its status parameter. */
export const SIMULATION_STATUS = {
  requested: 'Requested',
  started: 'Simulation started',
  running: 'Running',
  completed: 'Processing completed',
  startFailed: 'Simulation start failed',
  failed: 'Simulation failed',
} as const;
export type SimulationStatus = (typeof SIMULATION_STATUS)[keyof typeof SIMULATION_STATUS];
/** The statuses a simulation run ends with. */
export const SIMULATION_FINAL_STATUSES: readonly SimulationStatus[] = [SIMULATION_STATUS.completed, SIMULATION_STATUS.failed, SIMULATION_STATUS.startFailed];

/**
 * Who the simulation-service writes setup statuses as: a fixed service user with the editor role in the setup's
 * account (the entity store checks the role like any caller's; the user id marks the write as the service's).
 */
export const SIMULATION_SERVICE_USER_ID = '00000000-0000-4000-8000-00000000517a';
export const simulationServiceCaller = (accountId: string): z.infer<typeof CallerContext> => ({ accountId, userId: SIMULATION_SERVICE_USER_ID, role: 'editor' });

/** Published on `simulation.status` with routing key `<accountId>.<profileId>.<setupId>` at every status change. */
export const SimulationStatusChanged = z.object({
  eventId: z.string(),
  accountId: Guid,
  profileId: Guid,
  setupId: Guid,
  jobId: Guid,
  status: z.string(),
  message: z.string().nullable(),
  studyId: z.string().nullable(),
  /** 1, 2, 3... per job: a subscriber orders (and deduplicates) one job's events by it. */
  sequence: z.number().int(),
  occurredAt: z.string(),
  /**
   * The `X-Request-Id` of the Trigger or Reprocess that started the job (the caller's own, when it sent one), on every
   * step: a callback subscriber ties a job to its request by it. Null for a job whose request had none recorded.
   */
  requestId: z.string().nullable(),
});
export type SimulationStatusChanged = z.infer<typeof SimulationStatusChanged>;

/** An absolute http:// or https:// URL (plain http is allowed, e.g. for a receiver inside the team's network). */
function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A URL with a user name or password (`https://user:pass@host/`): a secret that the callback list would show. */
function hasUserinfo(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/** The URL parser drops leading and trailing spaces and CR, LF and tabs inside: the URL stored would not be the one given. */
function isVerbatim(value: string): boolean {
  return value === value.trim() && !/[\r\n\t]/.test(value);
}

/**
 * POST /ExternalSimulations/Callbacks: where the account's status changes are delivered. The URL is listed as given,
 * so it may not carry credentials: a receiver authenticates the deliveries by their signature.
 */
export const SimulationCallbackRegistration = z
  .strictObject({
    url: z
      .string()
      .max(2000)
      .refine(isVerbatim, 'must not contain CR, LF or tabs, nor begin or end with spaces')
      .refine(isStorableText, UNSTORABLE_TEXT)
      .refine(isHttpUrl, 'must be an absolute http:// or https:// URL')
      .refine((value) => !hasUserinfo(value), 'must not carry a user name or password (user:pass@): the URL is listed as given; a receiver authenticates deliveries by their signature'),
    /** `null` is the same as absent: no description. */
    description: z.string().max(500).refine(isStorableText, UNSTORABLE_TEXT).nullable().optional(),
  })
  .meta({ id: 'SimulationCallbackRegistration' });
export type SimulationCallbackRegistration = z.infer<typeof SimulationCallbackRegistration>;

/** The registered callback; `secret` (Standard Webhooks `whsec_<base64>`) is in the answer to the registration only. */
export const SimulationCallbackCreated = z
  .object({ id: Guid, url: z.string(), description: z.string().nullable(), createdAt: z.string(), secret: z.string() })
  .meta({ id: 'SimulationCallbackCreated' });
export type SimulationCallbackCreated = z.infer<typeof SimulationCallbackCreated>;

/** A delivery that failed at least once: still retried (`retrying`, with its next attempt), or given up (`failed`). */
export const SimulationCallbackFailure = z
  .object({
    webhookId: z.string(),
    setupId: Guid,
    status: z.string(),
    state: z.enum(['retrying', 'failed']),
    attempts: z.number().int(),
    lastAttemptAt: z.string(),
    nextAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string(),
  })
  .meta({ id: 'SimulationCallbackFailure' });

export const SimulationCallback = z
  .object({
    id: Guid,
    url: z.string(),
    description: z.string().nullable(),
    createdAt: z.string(),
    /** Deliveries by state: delivered, waiting (first attempt or a retry), given up. */
    deliveries: z.object({ delivered: z.number().int(), pending: z.number().int(), failed: z.number().int() }),
    /** The latest deliveries that failed (at most 20, newest first). */
    recentFailures: z.array(SimulationCallbackFailure),
  })
  .meta({ id: 'SimulationCallback' });
export const SimulationCallbacks = z.object({ callbacks: z.array(SimulationCallback) }).meta({ id: 'SimulationCallbacks' });
export type SimulationCallback = z.infer<typeof SimulationCallback>;
export type SimulationCallbacks = z.infer<typeof SimulationCallbacks>;

export const SimulationCallbackRegister = z.strictObject({ caller: CallerContext, body: SimulationCallbackRegistration });
export const SimulationCallbackList = z.strictObject({ caller: CallerContext });
export const SimulationCallbackDelete = z.strictObject({ caller: CallerContext, id: Guid });

/**
 * The body POSTed to a callback at every status change (Standard Webhooks envelope): `data` is the event published
 * on `simulation.status`.
 */
export interface SimulationStatusWebhook {
  type: 'simulation.status';
  timestamp: string;
  data: SimulationStatusChanged;
}
