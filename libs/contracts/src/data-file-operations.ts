import { z } from 'zod';
import { CHANNEL_READ_BINARY_TYPES, RESAMPLE_MAX_RATE, RESAMPLE_MIN_RATE, ChannelsBody, ChannelsReadJson, DATAFILE_COMMANDS, DataFileMetadataJson, HistogramBody, HistogramJson, LapDeltaJson, LapStatsBody, LapStatsJson, ScatterBody, ScatterJson, LapDistanceJson, MAX_CHANNEL_NAME_LENGTH, MAX_LAP_INDEX, ReadRecordJson, SCOPE_MESSAGES, TrackMapBody, TrackMapJson, batchScope, queryScope } from './data-files';
import { accountHeader, jsonResponse, toBus, withDefaults, type BoundRequest, type Operation } from './operation-model';
import type { EntityTypeDef } from './registry';
import { Guid, StoredName } from './wire';

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
const PointCount = z.string().regex(/^\d+$/, { error: 'must be a whole number from 4 to 999999999, in digits', abort: true }).refine((v) => Number(v) >= 4 && Number(v) <= 999_999_999, 'must be from 4 to 999999999');
const MaxPoints = PointCount.optional().meta({ description: 'Extension: at most this many points per channel (M4: first, min, max, last of each time bucket)' });
const dataFileParams = z.object({ id: Guid, attachedFileGroupName: StoredName(256) });
const LapPoints = PointCount.optional().meta({ description: 'At most this many points (evenly resampled, not M4)' });
const DistanceChannel = z
  .string()
  .min(1)
  .max(MAX_CHANNEL_NAME_LENGTH)
  .optional()
  .meta({ description: 'The channel distance is taken from: a distance (m, km) or speed (km/h, kph, m/s, mph, knots) channel of the file, logged or math (default: picked by name)' });
const distanceChannelOf = (query: Record<string, string>): { distanceChannel?: string } => (query['distanceChannel'] !== undefined ? { distanceChannel: query['distanceChannel'] } : {});
const DATA_FILE_ERRORS = { 413: 'Batch body larger than the cap (1 MiB), or a read needing more decoded samples than READ_SAMPLE_BUDGET (the values of text and byte channels count a sample for each 8 bytes)', 415: 'The file type does not support channel reads', 422: 'The file could not be read or parsed', 429: 'Too many concurrent reads beyond the queue (see Retry-After)', 504: 'The read timed out' } as const;
const ANALYSIS_ERRORS = { 413: 'Body larger than the cap (1 MiB), or the read needs more decoded samples than READ_SAMPLE_BUDGET', 415: DATA_FILE_ERRORS[415], 422: 'The file could not be read; for sectors, the dataset has neither a distance channel nor a speed channel', 429: DATA_FILE_ERRORS[429], 504: DATA_FILE_ERRORS[504] } as const;
const TRACK_MAP_ERRORS = { 413: 'Body larger than the cap (1 MiB), or the lap needs more decoded samples than READ_SAMPLE_BUDGET', 415: DATA_FILE_ERRORS[415], 422: 'The file could not be read, or the dataset has neither GPS latitude and longitude nor a speed with a yaw rate or a lateral acceleration (the detail says what was looked for)', 429: DATA_FILE_ERRORS[429], 504: DATA_FILE_ERRORS[504] } as const;
/** A channel read may also be refused in Arrow alone (a channel named like its time column). */
const CHANNEL_READ_ERRORS = { ...DATA_FILE_ERRORS, 406: 'Accept asked for Arrow (the stream or the file) but a channel of the read cannot be a column of it: one named `time`, the name of the time column; read it as JSON or the binary body' } as const;
const LAP_TRACE_ERRORS = { 413: 'The lap (or the two laps of a delta) needs more decoded samples than READ_SAMPLE_BUDGET', 415: DATA_FILE_ERRORS[415], 422: 'The file could not be read, the dataset has neither a distance channel nor a speed channel, or the distanceChannel math channel reads a channel that dataset lacks', 429: DATA_FILE_ERRORS[429], 504: DATA_FILE_ERRORS[504] } as const;
/** Above the datafile-service's own read timeout (30 s by default), so the caller gets its 504 rather than the bus's. */
const DATA_FILE_BUS_TIMEOUT_MS = 120_000;
const CHANNEL_TYPES = ['application/json', ...CHANNEL_READ_BINARY_TYPES] as const;
const maxPointsOf = (query: Record<string, string>): { maxPoints?: number } => (query['maxPoints'] !== undefined ? { maxPoints: Number(query['maxPoints']) } : {});
/** `rate` of the channel reads: every channel interpolated onto one time base (RESAMPLE_MAX_RATE bounds it). */
const ResampleRate = z
  .string()
  .regex(/^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/, { error: `must be a number of Hz from ${RESAMPLE_MIN_RATE} to ${RESAMPLE_MAX_RATE}, in digits`, abort: true })
  .refine((v) => Number(v) >= RESAMPLE_MIN_RATE && Number(v) <= RESAMPLE_MAX_RATE, `must be a number of Hz from ${RESAMPLE_MIN_RATE} to ${RESAMPLE_MAX_RATE}`)
  .optional()
  .meta({ description: 'Extension: every channel interpolated onto one time base of this many Hz from the scope\'s start (linear, held for discrete channels such as gear; a gap outside a channel\'s samples): one Arrow record batch for data frames' });
const rateOf = (query: Record<string, string>): { rate?: number } => (query['rate'] !== undefined ? { rate: Number(query['rate']) } : {});

/** The data file access operations of a type whose registry entry enables `dataFileAccess` (service-api.md "Data file access"). */
export function dataFileOperations(type: EntityTypeDef): Operation[] {
  if (!type.features.dataFileAccess) return [];
  const { plural: P, name: S } = type;
  const base = `/${P}/{id}/DataFileAccess/{attachedFileGroupName}`;
  const operation = withDefaults({ tags: [P], permission: 'read', nonMember: 'not-found', headers: accountHeader, params: dataFileParams, errors: DATA_FILE_ERRORS, busTimeoutMs: DATA_FILE_BUS_TIMEOUT_MS, limitedRead: true });
  const dataset = (r: BoundRequest) => ({ type: P, id: r.params['id'] as string, group: r.params['attachedFileGroupName'] as string });
  return [
    operation({
      operationId: `Get${S}DataFileMetadata`,
      method: 'get',
      path: `${base}/metadata`,
      summary: `Metadata of a ${S}'s data file dataset (no samples)`,
      query: z.object({}),
      response: jsonResponse(200, DataFileMetadataJson, 'The metadata record'),
      target: toBus(DATAFILE_COMMANDS.metadata, dataset),
      client: [{ name: `get${S}DataFileMetadata`, returns: 'DataFileMetadataJson' }],
    }),
    operation({
      operationId: `Get${S}DataFileChannel`,
      method: 'get',
      path: `${base}/channel`,
      summary: `Samples of one channel of a ${S}'s dataset: a lap (lapIndex), a window [start, start+duration), or the whole file`,
      query: z.object({ channel: z.string().min(1).max(MAX_CHANNEL_NAME_LENGTH), lapIndex: NonNegativeInteger.optional(), start: Seconds.optional(), duration: Duration.optional(), maxPoints: MaxPoints, rate: ResampleRate }),
      response: { status: 200, contentTypes: CHANNEL_TYPES, description: 'One channel record (JSON), the binary channel body (docs/binary-channels.md), or the Arrow IPC stream or file (docs/api.md)', schema: ReadRecordJson },
      errors: CHANNEL_READ_ERRORS,
      target: toBus(DATAFILE_COMMANDS.channel, (r) => ({ ...dataset(r), channel: r.query['channel'] as string, scope: queryScope(r.query), ...maxPointsOf(r.query), ...rateOf(r.query), ...(r.binaryType ? { binaryType: r.binaryType } : {}) })),
      client: [{ name: `get${S}DataFileChannel`, channelRead: 'query', returns: 'ReadRecordJson' }],
    }),
    operation({
      operationId: `Get${S}DataFileChannels`,
      method: 'post',
      path: `${base}/channels`,
      summary: `Samples of many channels of a ${S}'s dataset in one request (mode 0 whole file, 1 lap, 2 window)`,
      query: z.object({ maxPoints: MaxPoints, rate: ResampleRate }),
      body: ChannelsBody,
      response: { status: 200, contentTypes: CHANNEL_TYPES, description: 'entityId, entityType, attachedFileGroupName, mode and the channel records (JSON), the binary channel body (docs/binary-channels.md), or the Arrow IPC stream or file (docs/api.md)', schema: ChannelsReadJson },
      errors: CHANNEL_READ_ERRORS,
      target: toBus(DATAFILE_COMMANDS.channels, (r) => {
        const body = r.body as ChannelsBody;
        return { ...dataset(r), channels: body.channels, mode: body.mode, scope: batchScope(body), ...maxPointsOf(r.query), ...rateOf(r.query), ...(r.binaryType ? { binaryType: r.binaryType } : {}) };
      }),
      client: [{ name: `get${S}DataFileChannels`, body: { name: 'body', type: 'ChannelsBody' }, channelRead: 'body', returns: 'ChannelsReadJson' }],
    }),
    operation({
      errors: LAP_TRACE_ERRORS,
      operationId: `Get${S}DataFileLapDistance`,
      method: 'get',
      path: `${base}/distance`,
      summary: `Extension: lap-relative time and distance of one lap of a ${S}'s dataset, from its distance channel or its speed integrated`,
      query: z.object({ lapIndex: NonNegativeInteger, maxPoints: LapPoints, distanceChannel: DistanceChannel }),
      response: jsonResponse(200, LapDistanceJson, 'entityId, entityType, attachedFileGroupName, lapIndex, lapTime, source {kind, channel}, times (s from the lap start), distances (m)'),
      target: toBus(DATAFILE_COMMANDS.distance, (r) => ({ ...dataset(r), lapIndex: Number(r.query['lapIndex']), ...maxPointsOf(r.query), ...distanceChannelOf(r.query) })),
      client: [{ name: `get${S}DataFileLapDistance`, query: ['lapIndex'], optionalQuery: ['maxPoints', 'distanceChannel'], returns: 'LapDistanceJson' }],
    }),
    operation({
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
        distanceChannel: DistanceChannel,
      }),
      response: jsonResponse(200, LapDeltaJson, 'lap and reference {entityId, entityType, attachedFileGroupName, lapIndex, lapTime}, source {kind, channel}, distance (m), delta (s, lap minus reference)'),
      target: toBus(DATAFILE_COMMANDS.delta, (r) => {
        const referenceId = r.query['referenceEntityId']?.toLowerCase();
        const referenceGroup = r.query['referenceAttachedFileGroupName'];
        const reference = referenceId !== undefined || referenceGroup !== undefined ? { reference: { id: referenceId ?? (r.params['id'] as string), group: referenceGroup ?? (r.params['attachedFileGroupName'] as string) } } : {};
        return { ...dataset(r), lapIndex: Number(r.query['lapIndex']), referenceLapIndex: Number(r.query['referenceLapIndex']), ...reference, ...maxPointsOf(r.query), ...distanceChannelOf(r.query) };
      }),
      client: [{ name: `get${S}DataFileLapDelta`, query: ['lapIndex', 'referenceLapIndex'], optionalQuery: ['referenceEntityId', 'referenceAttachedFileGroupName', 'maxPoints', 'distanceChannel'], returns: 'LapDeltaJson' }],
    }),
    operation({
      errors: ANALYSIS_ERRORS,
      operationId: `Get${S}DataFileLapStats`,
      method: 'post',
      path: `${base}/lapstats`,
      summary: `Extension: each lap's time and sectors, the best and theoretical best lap, and per channel per lap min, max, mean and time above a threshold, of a ${S}'s dataset`,
      query: z.object({}),
      body: LapStatsBody,
      response: jsonResponse(200, LapStatsJson, 'entityId, entityType, attachedFileGroupName, channels, sectors, laps, bestLap, theoreticalBest, theoreticalBestNote (and sectorStatisticsNote with perSector)'),
      target: toBus(DATAFILE_COMMANDS.lapStats, (r) => {
        const body = r.body as LapStatsBody;
        return { ...dataset(r), channels: body.channels, thresholds: body.thresholds ?? {}, ...(body.sectorStartDistances ? { sectorStartDistances: body.sectorStartDistances } : {}), ...(body.perSector ? { perSector: true } : {}) };
      }),
      client: [{ name: `get${S}DataFileLapStats`, body: { name: 'body', type: 'LapStatsBody' }, returns: 'LapStatsJson' }],
    }),
    operation({
      errors: ANALYSIS_ERRORS,
      operationId: `Get${S}DataFileScatter`,
      method: 'post',
      path: `${base}/scatter`,
      summary: `Extension: one channel against another, coloured by a third, of a ${S}'s dataset (whole file or a lap): points, or a density grid when there are more than maxPoints`,
      query: z.object({}),
      body: ScatterBody,
      response: jsonResponse(200, ScatterJson, 'entityId, entityType, attachedFileGroupName, lapIndex, x, y, colour, timeBase, kind, count, and points or grid'),
      target: toBus(DATAFILE_COMMANDS.scatter, (r) => {
        const body = r.body as ScatterBody;
        return { ...dataset(r), x: body.x, y: body.y, ...(body.colour != null ? { colour: body.colour } : {}), ...(body.lapIndex != null ? { lapIndex: body.lapIndex } : {}), ...(body.maxPoints != null ? { maxPoints: body.maxPoints } : {}), ...(body.gridSize != null ? { gridSize: body.gridSize } : {}) };
      }),
      client: [{ name: `get${S}DataFileScatter`, body: { name: 'body', type: 'ScatterBody' }, returns: 'ScatterJson' }],
    }),
    operation({
      errors: ANALYSIS_ERRORS,
      operationId: `Get${S}DataFileHistogram`,
      method: 'post',
      path: `${base}/histogram`,
      summary: `Extension: the histogram of one channel of a ${S}'s dataset (whole file or a lap), in equal bins or between given edges`,
      query: z.object({}),
      body: HistogramBody,
      response: jsonResponse(200, HistogramJson, 'entityId, entityType, attachedFileGroupName, lapIndex, channel, edges, counts, below, above, total, frequency'),
      target: toBus(DATAFILE_COMMANDS.histogram, (r) => {
        const body = r.body as HistogramBody;
        return { ...dataset(r), channel: body.channel, ...(body.lapIndex != null ? { lapIndex: body.lapIndex } : {}), ...(body.bins != null ? { bins: body.bins } : {}), ...(body.edges != null ? { edges: body.edges } : {}) };
      }),
      client: [{ name: `get${S}DataFileHistogram`, body: { name: 'body', type: 'HistogramBody' }, returns: 'HistogramJson' }],
    }),
    operation({
      errors: TRACK_MAP_ERRORS,
      operationId: `Get${S}DataFileTrackMap`,
      method: 'post',
      path: `${base}/trackmap`,
      summary: `Extension: the track map of one lap of a ${S}'s dataset (x/y in metres with distance and time, coloured by a channel), from GPS or by dead reckoning from speed and yaw rate or lateral acceleration`,
      query: z.object({}),
      body: TrackMapBody,
      response: jsonResponse(200, TrackMapJson, 'lap, startTime, source, channels, colour, closed, closureErrorMetres, count, points {x, y, distance, time, value?}'),
      target: toBus(DATAFILE_COMMANDS.trackMap, (r) => {
        const body = r.body as TrackMapBody;
        const channels = Object.fromEntries(Object.entries(body.channels ?? {}).filter(([, name]) => name != null)) as Record<string, string>;
        return { ...dataset(r), lapIndex: body.lapIndex, ...(body.colour != null ? { colour: body.colour } : {}), ...(body.maxPoints != null ? { maxPoints: body.maxPoints } : {}), ...(body.source != null ? { source: body.source } : {}), ...(Object.keys(channels).length ? { channels } : {}) };
      }),
      client: [{ name: `get${S}DataFileTrackMap`, body: { name: 'body', type: 'TrackMapBody' }, returns: 'TrackMapJson' }],
    }),
  ];
}
