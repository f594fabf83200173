import { z } from 'zod';
import { CallerContext } from './messages';
import { Guid, guidSchema, WireDateTime } from './wire';
import { atMostItems, REQUEST_LIMITS } from './request-limits';

/**
 * The timing integration (wire.md §6 in the project's words: docs/timing.md): a timing system at the track updates
 * runs, laps, sectors and speed traps by index, not by id. Bodies are camelCase and bound case-insensitively.
 */

/**
 * Which level an update addresses, as the entity type it answers with: PUT /TimingIntegration/Runs a RunSheet, /Laps
 * a Lap, /Sectors a LapSector, /SpeedTraps a LapSpeedTrap.
 */
export const TimingLevel = z.enum(['RunSheets', 'Laps', 'LapSectors', 'LapSpeedTraps']);
export type TimingLevel = z.infer<typeof TimingLevel>;

/** `{name, value}` as a timing system sends it: the value travels as a string, converted to the parameter's type. */
export const TimingProperty = z
  .strictObject({ name: z.string().min(1, 'is required'), value: z.string().nullable() })
  .meta({ id: 'TimingProperty', description: 'Sets a named parameter of the addressed entity; the value is converted to the parameter type.' });
export type TimingProperty = z.infer<typeof TimingProperty>;

/** The latest session time a timing update may give: a week in seconds (a 24-hour race and its build-up fit many times). */
export const SESSION_TIME_MAX_S = 7 * 24 * 3600;
const SessionTime = z
  .number()
  .finite()
  .min(0, 'must be 0 or more: it is seconds since the session start')
  .max(SESSION_TIME_MAX_S, `must be at most ${SESSION_TIME_MAX_S} (a week): it is seconds since the session start`);
/** The largest runIndex and stintLapNumber (so a pit-in at runIndex TIMING_INDEX_MAX has no next run to create). */
export const TIMING_INDEX_MAX = 100_000;
/** A required field sent as null is missing, not mistyped: a null field is the same as an absent one. */
const nullIsMissing = { error: (issue: { input?: unknown }) => (issue.input === null ? 'is required' : undefined) };
const RequiredGuid = guidSchema(nullIsMissing).meta({ format: 'uuid' });
const Index = z.number(nullIsMissing).int('must be a whole number').min(0, 'must be 0 or more').max(TIMING_INDEX_MAX, `must be at most ${TIMING_INDEX_MAX}`);

const identity = {
  accountId: RequiredGuid,
  championshipId: RequiredGuid,
  eventId: RequiredGuid,
  sessionId: RequiredGuid,
  carId: RequiredGuid,
  runIndex: Index.meta({ description: '0-based index of the run of this car in the session' }),
  driverId: Guid.nullable().optional().meta({ description: "When given, sets the run's driver" }),
  properties: z.array(TimingProperty).max(REQUEST_LIMITS.MAX_TIMING_PROPERTIES, atMostItems('MAX_TIMING_PROPERTIES')).nullable().optional(),
};
const runFields = {
  pitInTime: WireDateTime.nullable().optional(),
  pitOutTime: WireDateTime.nullable().optional(),
  pitInSessionTime: SessionTime.nullable().optional(),
  pitOutSessionTime: SessionTime.nullable().optional(),
  shouldCreateNextRun: z.boolean().nullable().optional().meta({ description: 'With a pit in: creates run runIndex + 1 at once (exactly once)' }),
};
const stintLapNumber = Index.meta({ description: 'Stint lap number: 0 is the out lap, then 1, 2, …' });
const sectorId = RequiredGuid.meta({ description: "A TrackSectorDefinition of the session's TrackConfiguration" });
const speedTrapId = RequiredGuid.meta({ description: "A TrackSpeedTrapDefinition of the session's TrackConfiguration" });
/** Every field of some endpoint's body beyond the five ids, runIndex, driverId and properties. */
const LEVEL_FIELDS = { ...runFields, stintLapNumber, sectorId, speedTrapId };
type LevelField = keyof typeof LEVEL_FIELDS;
const notHereIn = (path: string) => z.null({ error: `is not a field of ${path}: only null (the same as absent) is accepted` }).optional();

/**
 * The body of the endpoint at `path`: the shared fields, its own, and the other endpoints' fields accepted as null
 * only. A null field is the same as an absent one, so a client with one model for all four bodies (whose serialiser
 * writes its unset fields as null) is not refused; anything but null there is a 400 naming the field.
 */
function timingBody<Own extends Partial<typeof LEVEL_FIELDS>>(path: string, own: Own) {
  const notHere = notHereIn(path);
  const others = Object.fromEntries(Object.keys(LEVEL_FIELDS).filter((name) => !Object.hasOwn(own, name)).map((name) => [name, notHere])) as { [K in Exclude<LevelField, keyof Own>]: typeof notHere };
  return z.strictObject({ ...identity, ...own, ...others });
}

export const TimingRunUpdate = timingBody('/TimingIntegration/Runs', runFields).meta({ id: 'TimingRunUpdate' });
export const TimingLapUpdate = timingBody('/TimingIntegration/Laps', { stintLapNumber }).meta({ id: 'TimingLapUpdate' });
export const TimingSectorUpdate = timingBody('/TimingIntegration/Sectors', { stintLapNumber, sectorId }).meta({ id: 'TimingSectorUpdate' });
export const TimingSpeedTrapUpdate = timingBody('/TimingIntegration/SpeedTraps', { stintLapNumber, speedTrapId }).meta({ id: 'TimingSpeedTrapUpdate' });
export type TimingRunUpdate = z.infer<typeof TimingRunUpdate>;
export type TimingLapUpdate = z.infer<typeof TimingLapUpdate>;
export type TimingSectorUpdate = z.infer<typeof TimingSectorUpdate>;
export type TimingSpeedTrapUpdate = z.infer<typeof TimingSpeedTrapUpdate>;

/** An endpoint's body as the services take it: its null fields dropped (a null field is the same as an absent one). */
export function timingUpdateOf(body: TimingRunUpdate | TimingLapUpdate | TimingSectorUpdate | TimingSpeedTrapUpdate): TimingUpdate {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null)) as TimingUpdate;
}

/** Any of the four bodies, as the services receive it (the gateway proved it against its endpoint's schema). */
export const TimingUpdate = z.strictObject({
  ...identity,
  ...runFields,
  stintLapNumber: stintLapNumber.optional(),
  sectorId: sectorId.optional(),
  speedTrapId: speedTrapId.optional(),
});
export type TimingUpdate = z.infer<typeof TimingUpdate>;

/** Command names of the timing integration. */
export const TIMING_COMMANDS = {
  /** Gateway → timing-service: one update, applied in arrival order per (session, car). */
  update: 'timing.update',
} as const;

/** timing-service → entity-service: resolve and write every level of one update in one transaction. */
export const ENTITY_TIMING_COMMAND = 'entity.applyTimingUpdate' as const;

export const TimingCommand = z.strictObject({ caller: CallerContext, type: TimingLevel, body: TimingUpdate });
export type TimingCommand = z.infer<typeof TimingCommand>;

/**
 * timing-service → entity-service: consecutive updates of one partition applied in one transaction, in order, each
 * with the bus headers of its own request (command id and hash: each is recorded in the inbox on its own) and its
 * deadline. The reply is one outcome per update, in order: `{"ok": true, "headers": {…}, "body": <the entity>}` or
 * `{"ok": false, "error": <the problem>}`.
 */
export const ENTITY_TIMING_BATCH_COMMAND = 'entity.applyTimingUpdates' as const;
/** Most updates in one batch command: TIMING_BATCH_MAX may not be set higher. */
export const TIMING_BATCH_ITEMS_MAX = 1000;
/** TIMING_BATCH_MAX_BYTES' default: the most bytes of updates' JSON in one batch command (one bus message). */
export const DEFAULT_TIMING_BATCH_MAX_BYTES = 8 * 1024 * 1024;
/** TIMING_BATCH_MAX_BYTES' largest value: with one update of BODY_LIMIT's largest (64 MiB) beside it, under RabbitMQ's 128 MiB. */
export const TIMING_BATCH_MAX_BYTES_MAX = 60 * 1024 * 1024;
export const TimingBatchCommand = z.strictObject({
  items: z
    .array(TimingCommand.extend({ headers: z.record(z.string(), z.string()), deadline: z.number().optional() }))
    .min(1)
    .max(TIMING_BATCH_ITEMS_MAX),
});
export type TimingBatchCommand = z.infer<typeof TimingBatchCommand>;
/**
 * The problem type of a batch refused whole, nothing of it written, because its reply (one entity per update) would be
 * larger than one bus message may be (BUS_MAX_MESSAGE_BYTES): the timing-service sends it again in halves.
 */
export const TIMING_BATCH_REPLY_TOO_LARGE = 'urn:pitwall:problem:timing-batch-reply-too-large';
/** One update's outcome in the batch reply. */
export type TimingBatchReplyItem = { ok: true; headers: Record<string, string>; body: unknown } | { ok: false; error: unknown };

/** The ordering key of an update: updates of one car in one session are applied in arrival order. */
export function timingPartitionKey(body: Pick<TimingUpdate, 'sessionId' | 'carId'>): string {
  return `${body.sessionId.toLowerCase()}:${body.carId.toLowerCase()}`;
}

/**
 * Partition queues of the timing-service (`TIMING_PARTITIONS`, the same on the gateway and every timing-service
 * instance): an update goes to partition `partitionOf(timingPartitionKey(body), count)`, which one instance at a time
 * consumes, so the updates of one car reach one instance in the order they were sent.
 */
export const DEFAULT_TIMING_PARTITIONS = 8;
/** The most partitions `TIMING_PARTITIONS` may name (read by the gateway and the timing-service alike, 1 to this). */
export const MAX_TIMING_PARTITIONS = 1024;

/** A stable hash of an ordering key onto `0 … partitions - 1` (32-bit FNV-1a: the same in every process and version). */
export function partitionOf(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % Math.max(1, partitions);
}

/** The bus service name of one partition of `service`: its own request queue (`<prefix>svc.timing.p3`). */
export function partitionService(service: string, partition: number): string {
  return `${service}.p${partition}`;
}

/** Where a timing event happened: the five ids and the run. */
const TimingEventBase = z.object({
  accountId: Guid,
  championshipId: Guid,
  eventId: Guid,
  sessionId: Guid,
  carId: Guid,
  runId: Guid,
  runIndex: z.number().int(),
  occurredAt: z.string(),
});

/** `timing.run.created`: a run sheet created by index, or by the pit-in rule (`createdByPitIn`). */
export const TimingRunCreated = TimingEventBase.extend({ createdByPitIn: z.boolean() });
/** `timing.run.updated`: a run's parameters changed (driver, pit times, properties). */
export const TimingRunUpdated = TimingEventBase.extend({ changedParameters: z.array(z.string()) });
/** `timing.lap.updated`: a lap, or one of its sectors or speed traps, was created or changed. */
export const TimingLapUpdated = TimingEventBase.extend({
  lapId: Guid,
  stintLapNumber: z.number().int(),
  /** What changed: the lap itself, a sector or a speed trap. */
  part: z.enum(['lap', 'sector', 'speedTrap']),
  /** The sector or speed trap entity and its definition, when `part` is one of them. */
  partId: Guid.optional(),
  definitionId: Guid.optional(),
  created: z.boolean(),
  changedParameters: z.array(z.string()),
});
export type TimingRunCreated = z.infer<typeof TimingRunCreated>;
export type TimingRunUpdated = z.infer<typeof TimingRunUpdated>;
export type TimingLapUpdated = z.infer<typeof TimingLapUpdated>;
export type TimingEvent = TimingRunCreated | TimingRunUpdated | TimingLapUpdated;

/** Routing keys on the timing events exchange. */
export const TIMING_EVENTS = { runCreated: 'timing.run.created', runUpdated: 'timing.run.updated', lapUpdated: 'timing.lap.updated' } as const;
