import { z } from 'zod';
import { EVERY_REFUSAL_AT_ONCE } from './field-errors';
import { CallerContext } from './messages';
import { Guid, StoredName } from './wire';
import { atMostItems, REQUEST_LIMITS } from './request-limits';

/** Media types of the binary channel body (docs/binary-channels.md); a request accepting either gets it. */
export const BINARY_CHANNEL_TYPES = ['application/x-service-channels', 'application/octet-stream'] as const;
/** The Arrow IPC streaming format (docs/api.md "Arrow"): one record batch per time base, a `time` column and one per channel. */
export const ARROW_STREAM_MEDIA_TYPE = 'application/vnd.apache.arrow.stream';
/**
 * The Arrow IPC file format (Feather v2) of the same answer: the stream's messages between `ARROW1` and a footer that
 * indexes its record batches, for readers that take no stream (pandas `read_feather`, polars `read_ipc`).
 */
export const ARROW_FILE_MEDIA_TYPE = 'application/vnd.apache.arrow.file';
/** The Arrow stream's time column (float64 seconds on the file's time axis); a channel of that name cannot be a column beside it (406). */
export const ARROW_TIME_COLUMN = 'time';
/** The media types other than JSON a channel read answers: the binary channel body, the Arrow stream or the Arrow file. */
export const CHANNEL_READ_BINARY_TYPES = [...BINARY_CHANNEL_TYPES, ARROW_STREAM_MEDIA_TYPE, ARROW_FILE_MEDIA_TYPE] as const;

/** Names of the bus commands behind the data file access endpoints (answered by the datafile-service). */
export const DATAFILE_COMMANDS = {
  metadata: 'datafile.metadata',
  channel: 'datafile.channel',
  channels: 'datafile.channels',
  distance: 'datafile.distance',
  delta: 'datafile.delta',
  lapStats: 'datafile.lapstats',
  scatter: 'datafile.scatter',
  histogram: 'datafile.histogram',
  trackMap: 'datafile.trackmap',
} as const;

/** The entity-service query that resolves a dataset: the files of an entity's attachment group, in state 2. */

const GroupName = StoredName(256);

/** `entity.attachments.dataset`: a 404 when the entity is not visible to the caller. */
export const AttachmentsDataset = z.strictObject({ caller: CallerContext, type: z.string(), id: Guid, group: GroupName });
export type AttachmentsDataset = z.infer<typeof AttachmentsDataset>;

/**
 * `entity.attachments.dataset-sectors`: the sector definitions of the track its entity ran on, for lap statistics that
 * give no sectorStartDistances (a 404 when the entity is not visible to the caller).
 */
export const DatasetSectors = z.strictObject({ caller: CallerContext, type: z.string(), id: Guid });
export type DatasetSectors = z.infer<typeof DatasetSectors>;

/**
 * The answer: the TrackConfiguration of the entity's Session (its `TrackConfigurationId`; null for an entity under no
 * session, a session naming none, or one the account no longer has) and its TrackSectorDefinitions in their order.
 */
export const DatasetSectorsJson = z.object({
  trackConfigurationId: Guid.nullable(),
  sectors: z.array(z.object({ id: Guid, name: z.string().nullable(), startDistance: z.number().nullable() })),
});
export type DatasetSectorsJson = z.infer<typeof DatasetSectorsJson>;

/**
 * `entity.attachments.dataset-constants`: where a math channel's `param("Name")` is looked up for a dataset (a 404 when
 * the entity is not visible to the caller); `names`, the parameters the read needs (matched whatever their case): only
 * those are answered, however many an entity holds.
 */
export const DatasetConstants = z.strictObject({ caller: CallerContext, type: z.string(), id: Guid, names: z.array(z.string().max(100)) });
export type DatasetConstants = z.infer<typeof DatasetConstants>;

/**
 * The answer: the entities a `param` is looked up on, in the order looked at (the dataset's entity, the Setup its
 * `SetupId` names when it is of the entity's car, its Car; docs/math-channels.md), each with those of the `names` asked
 * for it holds as a number: Double and Integer as they are, Boolean as 1 or 0 (a Text, Enum, DateTime or Reference
 * value is no number and is left out).
 */
export const DatasetConstantsJson = z.object({
  /** `name`: the entity's Name when it has one (a refusal names it beside its id). */
  entities: z.array(z.object({ type: z.string(), id: Guid, name: z.string().optional(), parameters: z.record(z.string(), z.number()) })),
  /**
   * An entity the dataset's entity names (a Setup by its `SetupId`) that the caller's account does not have (deleted,
   * never made, or another account's: all alike), so that a refusal can say it was not found; absent when none.
   */
  missing: z.array(z.object({ type: z.string(), id: Guid, namedBy: z.string() })).optional(),
  /**
   * A Setup the dataset's entity names that is of another car than the entity's (`carId`, its car): found in the
   * caller's account but not looked at, so that a refusal can say why its values were not used; absent when none.
   */
  ofAnotherCar: z.array(z.object({ type: z.string(), id: Guid, name: z.string().optional(), namedBy: z.string(), carId: Guid.nullable() })).optional(),
});
export type DatasetConstantsJson = z.infer<typeof DatasetConstantsJson>;

/** One file of a dataset as the entity-service answers it (oldest first). */
export const DatasetFile = z.object({
  attachedFileId: Guid,
  fileName: z.string(),
  /** `sha256/<hex>` in the blob store. */
  blobKey: z.string(),
  size: z.number().nullable(),
  useCompression: z.boolean(),
  createdTime: z.string(),
});
export type DatasetFile = z.infer<typeof DatasetFile>;

/** What a read covers: the whole file, a lap, or the half-open window [start, start + duration) in seconds. */
export const DataFileScope = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('file') }),
  z.strictObject({ mode: z.literal('lap'), lapIndex: z.number().int() }),
  z.strictObject({ mode: z.literal('window'), start: z.number(), duration: z.number() }),
]);
export type DataFileScope = z.infer<typeof DataFileScope>;

const DatasetRef = { caller: CallerContext, type: z.string(), id: Guid, group: GroupName };
/** The rates (Hz) a channel read may resample its channels onto (`rate`). */
export const RESAMPLE_MIN_RATE = 0.001;
export const RESAMPLE_MAX_RATE = 1_000_000;
/** `binaryType`: the binary media type the client accepts, the Arrow stream's and file's included (absent: JSON). `rate`: one time base for every channel. */
const Shape = { maxPoints: z.number().int().min(4).optional(), rate: z.number().min(RESAMPLE_MIN_RATE).max(RESAMPLE_MAX_RATE).optional(), binaryType: z.enum(CHANNEL_READ_BINARY_TYPES).optional() };

export const DataFileMetadataRequest = z.strictObject(DatasetRef);
export const DataFileChannelRequest = z.strictObject({ ...DatasetRef, channel: z.string(), scope: DataFileScope, ...Shape });
export const DataFileChannelsRequest = z.strictObject({ ...DatasetRef, channels: z.array(z.string()), scope: DataFileScope, mode: z.union([z.literal(0), z.literal(1), z.literal(2)]), ...Shape });
/**
 * Lap traces (distance, delta): `maxPoints` caps the points, evenly resampled (not M4); `distanceChannel` names the
 * distance source (a logged or math channel in a distance or speed unit; absent: picked by name).
 */
export const DataFileDistanceRequest = z.strictObject({ ...DatasetRef, lapIndex: z.number().int(), maxPoints: z.number().int().min(4).optional(), distanceChannel: z.string().optional() });
/** The delta of a lap against a reference lap; `reference` names another dataset of the same type (absent: the same dataset). */
export const DataFileDeltaRequest = z.strictObject({
  ...DatasetRef,
  lapIndex: z.number().int(),
  referenceLapIndex: z.number().int(),
  reference: z.strictObject({ id: Guid, group: GroupName }).optional(),
  maxPoints: z.number().int().min(4).optional(),
  distanceChannel: z.string().optional(),
});
export type DataFileDistanceRequest = z.infer<typeof DataFileDistanceRequest>;
export type DataFileDeltaRequest = z.infer<typeof DataFileDeltaRequest>;
export type DataFileMetadataRequest = z.infer<typeof DataFileMetadataRequest>;
export type DataFileChannelRequest = z.infer<typeof DataFileChannelRequest>;
export type DataFileChannelsRequest = z.infer<typeof DataFileChannelsRequest>;

/**
 * The sentences of a refused lap index or time, the same in the single-channel query and the batch body, so one value
 * is told off in the same words whichever way it came.
 */
export const SCOPE_MESSAGES = {
  lapIndex: 'is not a non-negative integer',
  lapIndexTooLarge: 'must be at most 999999999',
  seconds: 'is not a number of seconds',
  secondsTooLarge: 'is too large a number of seconds',
  negativeDuration: 'must be 0 or more',
} as const;
/** The largest lap index a request may name: past any file's laps, so a larger one is refused before a file is opened. */
export const MAX_LAP_INDEX = 999_999_999;
/**
 * The longest channel name a read may ask for: any 16,383 characters are at most 65,532 bytes of UTF-8, within what
 * the binary body's u16 name length carries, so every name a read can ask for can be answered in both bodies.
 */
export const MAX_CHANNEL_NAME_LENGTH = 16_383;
/** The most channels one batch read may ask for. */
export const MAX_BATCH_CHANNELS = REQUEST_LIMITS.MAX_BATCH_CHANNELS;

/** A number of seconds in a JSON body; JSON's `1e400` parses as Infinity, which is too large, not "not a number". */
const BodySeconds = z.number({ error: (issue) => (typeof issue.input === 'number' ? SCOPE_MESSAGES.secondsTooLarge : SCOPE_MESSAGES.seconds) });

/**
 * The batch body of `POST .../channels`; mode 0 whole file, 1 a lap (lapIndex), 2 a window (startTime, duration). The
 * mode decides the scope: a scope field it does not read must be a number or null but is neither range-checked nor
 * applied, and `null` is the same as absent, so a wrapper whose request model sends every field (its unset ones as
 * null, 0 or -1) is not refused. The answer's `mode` echoes the scope applied.
 */
export const ChannelsBody = z
  .strictObject({
    channels: z.array(z.string().min(1).max(MAX_CHANNEL_NAME_LENGTH)).min(1).max(MAX_BATCH_CHANNELS, atMostItems('MAX_BATCH_CHANNELS')),
    mode: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: (issue) => (issue.input == null ? 'is required' : `must be the number 0 (the whole file), 1 (a lap) or 2 (a window)${typeof issue.input === 'number' ? '' : `, not a ${Array.isArray(issue.input) ? 'list' : typeof issue.input}`}`) }),
    lapIndex: z.number({ error: SCOPE_MESSAGES.lapIndex }).nullable().optional(),
    startTime: BodySeconds.nullable().optional(),
    duration: BodySeconds.nullable().optional(),
  })
  // Also when other fields were refused (EVERY_REFUSAL_AT_ONCE), so that one answer names every bad field: the body is then as sent,
  // so a field of the wrong type (already named) is left alone here.
  .superRefine(
    (body, ctx) => {
      const refuse = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
      const { mode, lapIndex, startTime, duration } = body as Record<string, unknown>;
      if (mode === 1) {
        if (lapIndex == null) refuse('lapIndex', 'is required when mode is 1');
        // Of the wrong type, or not finite (JSON's 1e309 is Infinity): z.number has named it already.
        else if (typeof lapIndex !== 'number' || !Number.isFinite(lapIndex)) return;
        else if (!Number.isInteger(lapIndex) || lapIndex < 0) refuse('lapIndex', SCOPE_MESSAGES.lapIndex);
        else if (lapIndex > MAX_LAP_INDEX) refuse('lapIndex', SCOPE_MESSAGES.lapIndexTooLarge);
      }
      if (mode === 2) {
        if (startTime == null) refuse('startTime', 'is required when mode is 2');
        if (duration == null) refuse('duration', 'is required when mode is 2');
        else if (typeof duration === 'number' && duration < 0) refuse('duration', SCOPE_MESSAGES.negativeDuration);
      }
    },
    EVERY_REFUSAL_AT_ONCE,
  )
  .meta({ id: 'ChannelsBody' });
export type ChannelsBody = z.infer<typeof ChannelsBody>;

/** The scope of a batch body. */
export function batchScope(body: ChannelsBody): DataFileScope {
  if (body.mode === 1) return { mode: 'lap', lapIndex: body.lapIndex as number };
  if (body.mode === 2) return { mode: 'window', start: body.startTime as number, duration: body.duration as number };
  return { mode: 'file' };
}

/** The scope of a single-channel query: lapIndex wins, then start/duration (a missing one is 0 / to the end), else the file. */
export function queryScope(query: Record<string, string>): DataFileScope {
  if (query['lapIndex'] !== undefined) return { mode: 'lap', lapIndex: Number(query['lapIndex']) };
  if (query['start'] !== undefined || query['duration'] !== undefined) return { mode: 'window', start: Number(query['start'] ?? 0), duration: query['duration'] !== undefined ? Number(query['duration']) : Number.MAX_VALUE };
  return { mode: 'file' };
}

/*
 * The answers of the data file reads, as the client receives them: one schema each, for the OpenAPI document and the
 * client's types alike.
 */
const Seconds = (description: string) => z.number().meta({ description });
/** Which dataset an answer is of: the request's entity and group, echoed (formats' `DataFileEcho`). */
const DatasetEcho = { entityId: Guid, entityType: z.string(), attachedFileGroupName: z.string() };

/**
 * Math channels reading param() only (docs/math-channels.md "Which values a read used"): each parameter the channel
 * reads (through the definitions it reads), the value the read took and the entity it was taken from.
 */
const ParametersUsed = z
  .array(
    z.object({
      name: z.string().meta({ description: 'The parameter, as the definition writes it in param("Name")' }),
      value: z.number(),
      from: z.string().meta({ description: 'The entity holding it: `RunSheets <id>`, `Setups <id>` or `Cars <id>`' }),
    }),
  )
  .optional();

/** The metadata record (service-api.md), as the client receives it. */
export const DataFileMetadataJson = z
  .object({
    ...DatasetEcho,
    fileProperties: z
      .object({
        eventName: z.string().nullable(),
        sessionName: z.string().nullable(),
        runNumber: z.number().nullable(),
        driverName: z.string().nullable(),
        venueName: z.string().nullable(),
        carId: z.string().nullable(),
        outingTime: z.string().nullable(),
      })
      .meta({ description: "The file header's fields (null where the format or the file has none)" }),
    startTime: Seconds('Time of the first sample, s'),
    fileTimeLength: Seconds('Length of the recording, s'),
    lapCount: z.number().int(),
    lapElapsedTimes: z.array(z.number()).meta({ description: "Each lap's length (its end minus its start), s" }),
    channels: z.array(
      z.object({
        name: z.string(),
        unit: z.string(),
        frequency: z.number().meta({ description: 'Samples per second (the mean rate of an irregular channel)' }),
        sampleCount: z.number().int(),
        dimension: z.number().int().meta({ description: 'Values per sample: 1, or the element count of an array channel' }),
        dataType: z.string(),
        kind: z.enum(['text', 'bytes']).optional().meta({ description: 'Text and byte channels only (absent: numbers): their reads answer (time, value) events' }),
        shape: z.array(z.number().int()).optional().meta({ description: "Array channels only: each dimension's size (their product is `dimension`)" }),
        group: z.literal('Math').optional().meta({ description: "The account's math channels only (listed after the file's own): read by name like a logged channel" }),
        expression: z.string().optional().meta({ description: 'Math channels only: the expression the channel is computed by' }),
        decimalPlaces: z.number().int().optional().meta({ description: "Math channels with DecimalPlaces only: their values are rounded to this many decimals (and sent as integer codes with a decimal conversion when they fit int32)" }),
        parameters: ParametersUsed.meta({ description: 'Math channels reading param() only: the values a read of it takes now, and the entity each is held by' }),
      }),
    ),
  })
  .meta({ id: 'DataFileMetadata' });
export type DataFileMetadataJson = z.infer<typeof DataFileMetadataJson>;

const MaxPointsApplied = z
  .literal(false)
  .optional()
  .meta({ description: 'false on a read with maxPoints that returns every sample all the same: events and array channels are never downsampled' });

/** One channel record of a JSON read: physical samples (null for gaps; n × dimension values); `times` on maxPoints reads. */
export const ChannelRecordJson = z
  .object({
    name: z.string(),
    unit: z.string(),
    frequency: z.number(),
    dimension: z.number().int(),
    samples: z.array(z.number().nullable()).meta({ description: 'Physical values in time order; null where the channel has no sample' }),
    times: z.array(z.number()).optional().meta({ description: "Each sample's time, s on the file's time axis (the metadata's startTime is its first sample's): on maxPoints reads and irregular channels" }),
    maxPointsApplied: MaxPointsApplied,
    parameters: ParametersUsed.meta({ description: 'Math channels reading param() only: the values this read used, and the entity each was taken from (not in the binary body)' }),
  })
  .meta({ id: 'ChannelRecord' });
export type ChannelRecordJson = z.infer<typeof ChannelRecordJson>;

/** One text or byte channel of a JSON read: its events, every one (maxPoints does not apply to events). */
export const EventRecordJson = z
  .object({
    name: z.string(),
    unit: z.string(),
    kind: z.enum(['text', 'bytes']),
    frequency: z.number(),
    times: z.array(z.number()).meta({ description: "Each event's time, s on the file's time axis" }),
    values: z.array(z.string().nullable()).meta({ description: 'Each event\'s value: the text, or the bytes in base64; null where the channel has no value' }),
    maxPointsApplied: MaxPointsApplied,
  })
  .meta({ id: 'EventRecord' });
export type EventRecordJson = z.infer<typeof EventRecordJson>;

/** A channel record of a JSON read: numbers, or the events of a text or byte channel. */
export const ReadRecordJson = z.union([ChannelRecordJson, EventRecordJson]).meta({ id: 'ReadRecord' });
export type ReadRecordJson = z.infer<typeof ReadRecordJson>;

/** The batch read's JSON answer. */
export const ChannelsReadJson = z
  .object({
    ...DatasetEcho,
    mode: z.union([z.literal(0), z.literal(1), z.literal(2)]).meta({ description: 'The scope applied: 0 the whole file, 1 a lap, 2 a window' }),
    channels: z.array(ReadRecordJson),
  })
  .meta({ id: 'ChannelsRead' });
export type ChannelsReadJson = z.infer<typeof ChannelsReadJson>;

/** Where a lap's distance came from: a distance channel as it is, or a speed channel integrated. */
export const LapDistanceSourceJson = z.object({ kind: z.enum(['channel', 'integrated']), channel: z.string() });
export type LapDistanceSourceJson = z.infer<typeof LapDistanceSourceJson>;

/** One lap of a dataset, as the lap trace answers name it. */
export const LapRefJson = z.object({
  ...DatasetEcho,
  lapIndex: z.number().int(),
  lapTime: Seconds("From the lap's start to its end, s"),
});
export type LapRefJson = z.infer<typeof LapRefJson>;

/** `GET .../distance`: lap-relative time (s) and distance (m) from the lap's start. */
export const LapDistanceJson = LapRefJson.extend({
  source: LapDistanceSourceJson,
  times: z.array(z.number().nullable()).meta({ description: "s from the lap's start (null where the source holds no finite value)" }),
  distances: z.array(z.number().nullable()).meta({ description: "m from the lap's start (null where the source holds no finite value)" }),
}).meta({ id: 'LapDistance' });
export type LapDistanceJson = z.infer<typeof LapDistanceJson>;

/** `GET .../delta`: the lap's time minus the reference's at each distance (m) of a common grid. */
export const LapDeltaJson = z
  .object({
    lap: LapRefJson,
    reference: LapRefJson,
    source: LapDistanceSourceJson,
    distance: z.array(z.number().nullable()).meta({ description: 'm from the start of both laps' }),
    delta: z.array(z.number().nullable()).meta({ description: "s, the lap's time minus the reference's at that distance (null where either lap's source holds no finite value)" }),
  })
  .meta({ id: 'LapDelta' });
export type LapDeltaJson = z.infer<typeof LapDeltaJson>;

/*
 * The analysis reads (docs/api.md "Extension: lap statistics, scatter and histogram"): bodies, bus messages and answers.
 */

/** The most channels one lap statistics read may report on. */
export const MAX_LAP_STATS_CHANNELS = REQUEST_LIMITS.MAX_LAP_STATS_CHANNELS;
/** The most sector start distances one lap statistics read may give. */
export const MAX_SECTORS = 100;

/** A finite number in a JSON body (JSON's `1e400` parses as Infinity). */
const FiniteNumber = z.number({ error: (issue) => (typeof issue.input === 'number' ? 'is not a finite number (JSON reads a number this large as infinity)' : 'is not a number') }).refine(Number.isFinite, { error: 'is not a finite number', abort: true });
const ChannelName = z.string().min(1).max(MAX_CHANNEL_NAME_LENGTH);
// One refusal a value: past the bound first (1e20 is too large, not "not an integer"), then the integer check.
const LapIndex = z.number({ error: SCOPE_MESSAGES.lapIndex }).max(MAX_LAP_INDEX, { error: SCOPE_MESSAGES.lapIndexTooLarge, abort: true }).int({ error: SCOPE_MESSAGES.lapIndex, abort: true }).min(0, { error: SCOPE_MESSAGES.lapIndex });

/**
 * `POST .../lapstats`: each lap's time, sectors at `sectorStartDistances` (metres from the lap's start; absent: the
 * StartDistance of the TrackSectorDefinitions of the session's TrackConfiguration), and per channel per lap min, max, mean, and
 * the time above the channel's threshold. A threshold must name one of `channels`.
 */
export const LapStatsBody = z
  .strictObject({
    channels: z.array(ChannelName).max(MAX_LAP_STATS_CHANNELS, atMostItems('MAX_LAP_STATS_CHANNELS')),
    thresholds: z.record(z.string(), FiniteNumber).optional(),
    sectorStartDistances: z.array(FiniteNumber.refine((d) => d >= 0, { error: 'must be 0 or more' })).max(MAX_SECTORS).optional(),
    perSector: z.boolean().nullable().optional().meta({ description: "Also each channel's statistics in each sector of each lap (default false)" }),
  })
  .superRefine(
    (body, ctx) => {
      // Run beside the fields' own refusals too (EVERY_REFUSAL_AT_ONCE), so every error of the body is named at once: the raw input
      // may then be of any shape, and only what is well formed is compared.
      const raw = body as unknown as { channels?: unknown; thresholds?: unknown; sectorStartDistances?: unknown };
      if (Array.isArray(raw.channels) && raw.channels.every((c) => typeof c === 'string') && typeof raw.thresholds === 'object' && raw.thresholds !== null) {
        const named = new Set<unknown>(raw.channels);
        for (const name of Object.keys(raw.thresholds)) if (!named.has(name)) ctx.addIssue({ code: 'custom', path: ['thresholds', name], message: 'names no channel of channels' });
      }
      const distances = Array.isArray(raw.sectorStartDistances) ? (raw.sectorStartDistances as unknown[]) : [];
      for (let k = 1; k < distances.length; k++) {
        const [before, here] = [distances[k - 1], distances[k]];
        if (typeof before === 'number' && typeof here === 'number' && !(here > before)) ctx.addIssue({ code: 'custom', path: ['sectorStartDistances', k], message: 'must be greater than the one before' });
      }
    },
    EVERY_REFUSAL_AT_ONCE,
  )
  .meta({ id: 'LapStatsBody' });
export type LapStatsBody = z.infer<typeof LapStatsBody>;

/** `POST .../scatter`: y against x, coloured by `colour`, over the whole file or one lap. */
export const ScatterBody = z
  .strictObject({
    x: ChannelName,
    y: ChannelName,
    colour: ChannelName.nullable().optional(),
    lapIndex: LapIndex.nullable().optional(),
    maxPoints: z.number().int().min(0).nullable().optional().meta({ description: 'Up to this many pairs come back as points (default 2,000; at most SCATTER_MAX_POINTS); more become the density grid' }),
    gridSize: z.number().int().min(1).nullable().optional().meta({ description: 'Cells of the density grid along each axis (default 64; at most SCATTER_MAX_GRID)' }),
  })
  .meta({ id: 'ScatterBody' });
export type ScatterBody = z.infer<typeof ScatterBody>;

/** `POST .../histogram`: a channel's values in `bins` equal bins over its range, or between explicit `edges`. */
export const HistogramBody = z
  .strictObject({
    channel: ChannelName,
    lapIndex: LapIndex.nullable().optional(),
    bins: z.number().int().min(1).nullable().optional().meta({ description: 'Equal bins over the values in the scope (default 20; at most HISTOGRAM_MAX_BINS)' }),
    edges: z.array(FiniteNumber).min(2).nullable().optional().meta({ description: 'Ascending bin edges (at most HISTOGRAM_MAX_BINS + 1)' }),
  })
  .superRefine(
    (body, ctx) => {
      // Beside the fields' own refusals too (EVERY_REFUSAL_AT_ONCE), as LapStatsBody: only what is well formed is compared.
      const { bins, edges } = body as unknown as { bins?: unknown; edges?: unknown };
      if (bins != null && edges != null) ctx.addIssue({ code: 'custom', path: ['edges'], message: 'give bins or edges, not both' });
      const list = Array.isArray(edges) ? (edges as unknown[]) : [];
      for (let k = 1; k < list.length; k++) {
        const [before, here] = [list[k - 1], list[k]];
        if (typeof before === 'number' && typeof here === 'number' && !(here > before)) ctx.addIssue({ code: 'custom', path: ['edges', k], message: 'must be greater than the one before' });
      }
    },
    EVERY_REFUSAL_AT_ONCE,
  )
  .meta({ id: 'HistogramBody' });
export type HistogramBody = z.infer<typeof HistogramBody>;

export const DataFileLapStatsRequest = z.strictObject({ ...DatasetRef, channels: z.array(z.string()), thresholds: z.record(z.string(), z.number()), sectorStartDistances: z.array(z.number()).optional(), perSector: z.boolean().optional() });
export const DataFileScatterRequest = z.strictObject({ ...DatasetRef, x: z.string(), y: z.string(), colour: z.string().optional(), lapIndex: z.number().int().optional(), maxPoints: z.number().int().optional(), gridSize: z.number().int().optional() });
export const DataFileHistogramRequest = z.strictObject({ ...DatasetRef, channel: z.string(), lapIndex: z.number().int().optional(), bins: z.number().int().optional(), edges: z.array(z.number()).optional() });
export type DataFileLapStatsRequest = z.infer<typeof DataFileLapStatsRequest>;
export type DataFileScatterRequest = z.infer<typeof DataFileScatterRequest>;
export type DataFileHistogramRequest = z.infer<typeof DataFileHistogramRequest>;

const NullableNumber = (description: string) => z.number().nullable().meta({ description });
const ChannelRef = z.object({ name: z.string(), unit: z.string() });

/** A channel's figures over a span: one sector of one lap (perSector), or the whole file. */
const SectorStatsJson = z.object({
  min: NullableNumber('Smallest value in the sector (null: no sample)'),
  max: NullableNumber('Largest value in the sector'),
  mean: NullableNumber('Time-weighted mean over the sector'),
  stdDev: NullableNumber('Time-weighted standard deviation over the sector'),
  timeAbove: NullableNumber('Seconds strictly above the threshold (null without a threshold)'),
  timeBelow: NullableNumber('Seconds strictly below the threshold (null without a threshold)'),
});

/** The lap statistics answer. */
export const LapStatsJson = z
  .object({
    ...DatasetEcho,
    channels: z.array(ChannelRef.extend({ threshold: z.number().nullable() })).meta({ description: 'The channels reported on, in the order asked, with their thresholds' }),
    sectors: z
      .object({
        count: z.number().int().meta({ description: 'How many sectors a lap has' }),
        startDistances: z.array(z.number()).meta({ description: 'Their start distances, m, the first at 0 (empty for sectors timed by the logger\'s splits)' }),
        source: z.object({ kind: z.enum(['channel', 'integrated', 'splits']), channel: z.string() }).meta({ description: "What timed them: a distance channel, a speed channel integrated, or (kind splits) the logger's split time channel" }),
      })
      .nullable()
      .meta({
        description:
          "The sectors: the request's sectorStartDistances, else the StartDistance of the TrackSectorDefinitions of the session's TrackConfiguration, timed on a distance source; else the logger's split beacons (MoTeC's Split Time channel); null without any",
      }),
    laps: z.array(
      z.object({
        lapIndex: z.number().int(),
        kind: z.enum(['out', 'flying', 'in']),
        startTime: Seconds("The lap's start, s on the file's time axis"),
        lapTime: Seconds("From the lap's start to its end, s"),
        sectorTimes: z.array(z.number().nullable()).nullable().meta({ description: 'Each sector\'s time, s (null where the lap did not reach its start or end); null without sectors' }),
        channels: z.array(
          z.object({
            name: z.string(),
            min: NullableNumber('Smallest value in the lap (null: no sample)'),
            max: NullableNumber('Largest value in the lap'),
            mean: NullableNumber('Time-weighted mean over the lap'),
            stdDev: NullableNumber('Time-weighted standard deviation over the lap (of the population; 0 for a constant channel)'),
            timeAbove: NullableNumber('Seconds strictly above the threshold (null without a threshold)'),
            timeBelow: NullableNumber('Seconds strictly below the threshold (null without a threshold)'),
            sectors: z
              .array(SectorStatsJson.nullable())
              .nullable()
              .optional()
              .meta({ description: 'With perSector: the same figures in each sector of the lap, in order (null for a sector the lap did not time); null without sectors. Absent without perSector' }),
          }),
        ),
      }),
    ),
    file: z
      .object({
        startTime: Seconds("The file's first time, s on its time axis"),
        duration: Seconds("The file's length, s (as the metadata's fileTimeLength)"),
        channels: z.array(z.object({ name: z.string(), ...SectorStatsJson.shape })),
      })
      .meta({ description: "Each channel's figures over the whole file, as a lap's over the lap (a file without laps has them too)" }),
    bestLap: z.object({ lapIndex: z.number().int(), lapTime: z.number() }).nullable().meta({ description: 'The fastest flying lap (every lap when the dataset has no flying lap); null without laps' }),
    theoreticalBest: z
      .object({ lapTime: z.number(), sectors: z.array(z.object({ time: z.number(), lapIndex: z.number().int() })) })
      .nullable()
      .meta({ description: 'The sum of the best time of each sector over the flying laps, with the lap each came from; null when it cannot be computed (see theoreticalBestNote)' }),
    theoreticalBestNote: z.string().nullable().meta({ description: 'Why theoreticalBest is null' }),
    sectorStatisticsNote: z.string().nullable().optional().meta({ description: "With perSector: why the laps' channels have no per-sector figures (null when they have them). Absent without perSector" }),
  })
  .meta({ id: 'LapStats' });
export type LapStatsJson = z.infer<typeof LapStatsJson>;

const GridAxisJson = z.object({ min: z.number(), max: z.number(), cells: z.number().int() });

/** The scatter answer: points when few, else the density grid. */
export const ScatterJson = z
  .object({
    ...DatasetEcho,
    lapIndex: z.number().int().nullable().meta({ description: 'The lap read; null for the whole file' }),
    x: ChannelRef,
    y: ChannelRef,
    colour: ChannelRef.nullable(),
    timeBase: z.string().meta({ description: 'The channel whose sample times the others were resampled onto (the one with the most samples in the scope)' }),
    kind: z.enum(['points', 'density']),
    count: z.number().int().meta({ description: 'Pairs with both x and y' }),
    points: z.object({ x: z.array(z.number()), y: z.array(z.number()), colour: z.array(z.number().nullable()).optional() }).optional(),
    grid: z.object({ xAxis: GridAxisJson, yAxis: GridAxisJson, cells: z.array(z.object({ x: z.number().int(), y: z.number().int(), count: z.number().int(), colour: z.number().nullable() })) }).optional(),
  })
  .meta({ id: 'Scatter' });
export type ScatterJson = z.infer<typeof ScatterJson>;

/** The histogram answer. */
export const HistogramJson = z
  .object({
    ...DatasetEcho,
    lapIndex: z.number().int().nullable(),
    channel: ChannelRef,
    edges: z.array(z.number()).meta({ description: 'Bin edges; bin k is [edges[k], edges[k+1]), the last one closed' }),
    counts: z.array(z.number().int()),
    below: z.number().int().meta({ description: 'Samples below the first edge' }),
    above: z.number().int().meta({ description: 'Samples above the last edge' }),
    total: z.number().int().meta({ description: 'Samples in the scope (gaps not counted)' }),
    signs: z
      .object({ negative: z.number().int(), zero: z.number().int(), positive: z.number().int() })
      .meta({ description: "Samples below 0, at 0 and above 0, whatever the edges (a damper velocity's rebound and bump by the logger's sign; they add up to total)" }),
    frequency: z.number().meta({ description: "The channel's rate, Hz: counts / frequency is time" }),
  })
  .meta({ id: 'Histogram' });
export type HistogramJson = z.infer<typeof HistogramJson>;

/*
 * The track map read (docs/api.md "Extension: track map"): body, bus message and answer.
 */

/** The most points one track map may answer (its maxPoints); its default is TRACK_MAP_DEFAULT_POINTS. */
export const TRACK_MAP_MAX_POINTS = 20_000;
export const TRACK_MAP_DEFAULT_POINTS = 2_000;
const TrackMapSource = z.enum(['gps', 'yaw-rate', 'lateral-acceleration']);

/**
 * `POST .../trackmap`: one lap's path on a local plane, coloured by `colour`. `channels` names the channel of a role
 * instead of the default names; `source` picks how the path is made instead of the first that the file allows (GPS,
 * then yaw rate, then lateral acceleration).
 */
export const TrackMapBody = z
  .strictObject({
    lapIndex: LapIndex,
    colour: ChannelName.nullable().optional(),
    maxPoints: z.number().int().min(2).max(TRACK_MAP_MAX_POINTS).nullable().optional().meta({ description: `At most this many points, sampled evenly over distance (default ${TRACK_MAP_DEFAULT_POINTS}; at most ${TRACK_MAP_MAX_POINTS})` }),
    source: TrackMapSource.nullable().optional().meta({ description: 'gps, yaw-rate or lateral-acceleration (default: the first of them the dataset has the channels for)' }),
    channels: z
      .strictObject({
        latitude: ChannelName.optional(),
        longitude: ChannelName.optional(),
        speed: ChannelName.optional(),
        yawRate: ChannelName.optional(),
        lateralAcceleration: ChannelName.optional(),
      })
      .nullable()
      .optional()
      .meta({ description: 'The channel of a role by name, instead of the default names (docs/api.md)' }),
  })
  .meta({ id: 'TrackMapBody' });
export type TrackMapBody = z.infer<typeof TrackMapBody>;

export const DataFileTrackMapRequest = z.strictObject({
  ...DatasetRef,
  lapIndex: z.number().int(),
  colour: z.string().optional(),
  maxPoints: z.number().int().optional(),
  source: TrackMapSource.optional(),
  channels: z.record(z.string(), z.string()).optional(),
});
export type DataFileTrackMapRequest = z.infer<typeof DataFileTrackMapRequest>;

/** The track map answer: the lap's path in columns. */
export const TrackMapJson = z
  .object({
    lap: LapRefJson,
    startTime: Seconds("The lap's start, s on the file's time axis (points' times are from here)"),
    source: TrackMapSource,
    channels: z.array(z.object({ role: z.enum(['latitude', 'longitude', 'speed', 'yawRate', 'lateralAcceleration']), name: z.string(), unit: z.string() })).meta({ description: 'The channels the path was made from' }),
    colour: ChannelRef.nullable(),
    closed: z.boolean().meta({ description: 'Whether the lap runs line to line (a flying lap), so its path should end where it starts' }),
    closureErrorMetres: z.number().nullable().meta({ description: "How far the path's end was from its start before any correction, m (dead reckoning: then spread along it linearly with distance); null when the lap is not closed" }),
    count: z.number().int().meta({ description: 'Points of the whole path, before decimation' }),
    points: z.object({
      x: z.array(z.number()).meta({ description: 'm east (GPS) or along the first heading (dead reckoning)' }),
      y: z.array(z.number()).meta({ description: 'm north (GPS) or to the left of the first heading' }),
      distance: z.array(z.number()).meta({ description: "m travelled from the lap's first point" }),
      time: z.array(z.number()).meta({ description: "s from the lap's start" }),
      value: z.array(z.number().nullable()).optional().meta({ description: 'The colour channel at each point (null where it has no value); only with a colour' }),
    }),
  })
  .meta({ id: 'TrackMap' });
export type TrackMapJson = z.infer<typeof TrackMapJson>;
