import { ChannelSuggester } from '@pitwall/channels';
import type { TaskPool } from './fair-pool';
import { InvalidSliceError, resolveScope, type ChannelInfo, type StoredChannelCache } from '@pitwall/formats';
import { isDiscreteChannel, pickDistanceSource } from '@pitwall/laps';
import { AppError, FieldRefusals } from '@pitwall/service-kit';
import type { DatasetRef, OpenDataset } from './datasets';
import { buffersOf } from './read-channels';
import { withinSampleBudget } from './read-budget';
import { catalogueWith, decodesOf } from './math-lookup';
import { slicesOf, type MathReads } from './read-math-channels';
import { sectorStarts } from '@pitwall/analysis';
import { tooManyLapStatistics, type AnalysisTask, type DatasetEcho } from '../workers/analysis';
import type { StoredSlice } from '../workers/shape-channels';

/** The bounds of the analysis reads (environment variables of the datafile-service, docs/security.md). */
export interface AnalysisLimits {
  /** HISTOGRAM_MAX_BINS: the most bins one histogram may have. */
  maxBins: number;
  /** SCATTER_MAX_GRID: the most cells of a density grid along each axis. */
  maxGrid: number;
  /** SCATTER_MAX_POINTS: the most pairs a scatter answers as points. */
  maxPoints: number;
  /** LAPSTATS_MAX_CELLS: the most lap × channel statistics one lap statistics answer holds. */
  maxLapStatsCells: number;
}

/** What a scatter and a histogram use when the request does not say. */
export const ANALYSIS_DEFAULTS = { bins: 20, gridSize: 64, maxPoints: 2_000 } as const;

type Parts = { cache: StoredChannelCache; pool: TaskPool; sampleBudget: number; limits: AnalysisLimits };
type Window = ReturnType<typeof resolveScope>;

export interface LapStatsRead {
  channels: readonly string[];
  thresholds: Record<string, number>;
  sectorStartDistances?: readonly number[];
  /** Also each channel's statistics in each sector of each lap. */
  perSector?: boolean;
}

export interface ScatterRead {
  x: string;
  y: string;
  colour?: string;
  lapIndex?: number;
  maxPoints?: number;
  gridSize?: number;
}

export interface HistogramRead {
  channel: string;
  lapIndex?: number;
  bins?: number;
  edges?: readonly number[];
}

/**
 * `POST .../lapstats`: every lap of the dataset, each channel read whole once (a math channel evaluated once over the
 * whole file; and the distance source when sectors are asked), then the statistics on the pool, lap by lap. Unknown channels
 * are refused before any sample is read, and the samples decoded are held to READ_SAMPLE_BUDGET.
 */
export async function readLapStats(ref: DatasetRef, dataset: OpenDataset, read: LapStatsRead, parts: Parts, signal: AbortSignal, math?: MathReads): Promise<Uint8Array> {
  const { file } = dataset;
  const names = [...new Set(read.channels)];
  const infos = analysedChannels(catalogueWith(file, math), lapStatsChannels(read));
  const byName = new Map(infos.map((info) => [info.name, info]));
  const window: Window = { whole: true };
  const source = read.sectorStartDistances ? pickDistanceSource(file.channels) : undefined;
  if (read.sectorStartDistances && !source) {
    throw new AppError(
      422,
      `${ref.type} ${ref.id} dataset '${ref.group}' has no distance channel (a name like 'Distance' or 'Lap Distance' in m or km) and no speed channel to integrate (a name like 'Ground Speed' or 'Speed' in km/h, kph, m/s, mph or knots), so its sectors cannot be timed`,
    );
  }
  const distinct = names.map((name) => byName.get(name) as ChannelInfo);
  // The answer holds a statistic per lap per channel (and per sector of it, with perSector and sectors by distance, whose
  // count is known here): refused before any work when that is more than one answer may hold. Split sectors are counted
  // once their channel is read (the pool task leaves their figures out past the bound, and says so).
  const sectorCount = read.perSector && read.sectorStartDistances ? sectorStarts(read.sectorStartDistances).length : 0;
  const tooMany = tooManyLapStatistics(file.laps.length, distinct.length, sectorCount, parts.limits.maxLapStatsCells);
  if (tooMany !== undefined) {
    const why = `${tooMany}: ask fewer channels at once${sectorCount > 0 ? ', or without perSector' : ''}`;
    throw AppError.badRequest(`The lap statistics of ${ref.type} ${ref.id} dataset '${ref.group}' would be too many: ${why}`, { channels: [why] });
  }
  const sourceInfo = source ? (file.channels.find((c) => c.name === source.channel) as ChannelInfo) : undefined;
  // Without sectors by distance, the logger's split beacons time them when the file logs their split times.
  const splitInfo = read.sectorStartDistances ? undefined : splitTimeChannel(file.channels);
  const reading = [...distinct, ...[sourceInfo, splitInfo].filter((info): info is ChannelInfo => info !== undefined && !byName.has(info.name))];
  // A math channel is evaluated once over the whole file, as a logged channel is read: its value at a time is the same
  // whatever read asks for it (integral from the file's start), so each lap's figures are its lap read's.
  withinSampleBudget(reading.reduce((sum, info) => sum + decodesOf(file, info, window, math), 0), parts.sampleBudget, 'channels');
  const evaluated = await slicesOf(dataset, reading, window, parts.cache, math, signal);
  const slices = new Map(reading.map((info, i) => [info.name, evaluated[i] as StoredSlice]));
  // The distance source may also be a channel reported on: the pool gets its own copy (each buffer is moved once).
  const sectors = source && sourceInfo && read.sectorStartDistances ? { slice: byName.has(sourceInfo.name) ? copyOf(slices.get(sourceInfo.name) as StoredSlice) : (slices.get(sourceInfo.name) as StoredSlice), source: { kind: source.kind, channel: source.channel }, startDistances: [...read.sectorStartDistances] } : undefined;
  const splits = splitInfo ? { slice: byName.has(splitInfo.name) ? copyOf(slices.get(splitInfo.name) as StoredSlice) : (slices.get(splitInfo.name) as StoredSlice) } : undefined;
  const task: AnalysisTask = {
    op: 'lapStats',
    echo: echoOf(ref),
    laps: file.laps.map((lap) => ({ lapIndex: lap.index, kind: lap.kind, startTime: lap.startTime, endTime: lap.endTime })),
    file: { startTime: file.startTime, endTime: file.startTime + file.duration },
    channels: distinct.map((info) => {
      // Own properties only: a channel named toString or constructor has no threshold unless the body gives it one.
      const threshold = Object.hasOwn(read.thresholds, info.name) ? (read.thresholds[info.name] as number) : null;
      return { name: info.name, unit: info.unit, threshold, slice: slices.get(info.name) as StoredSlice };
    }),
    ...(sectors ? { sectors } : {}),
    ...(splits ? { splits } : {}),
    ...(read.perSector ? { perSector: { maxCells: parts.limits.maxLapStatsCells } } : {}),
  };
  const all = [...task.channels.map((c) => c.slice), ...(sectors ? [sectors.slice] : []), ...(splits ? [splits.slice] : [])];
  return run(task, all, parts.pool, signal);
}

/** The file's split time channel (MoTeC's `Split Time`, in s, one number a sample), if it logs one. */
function splitTimeChannel(channels: readonly ChannelInfo[]): ChannelInfo | undefined {
  return channels.find((c) => /^split time$/i.test(c.name) && c.unit.trim().toLowerCase() === 's' && c.dimension === 1 && !c.kind && !c.unsupported);
}

/** The channels a lap statistics read names, each with the field that names it. */
export function lapStatsChannels(read: LapStatsRead): [string, string][] {
  return read.channels.map((name, i) => [`channels[${i}]`, name]);
}

/** The channels a scatter names (x, y and its colour), each with the field that names it. */
export function scatterChannels(read: ScatterRead): [string, string][] {
  return [['x', read.x], ['y', read.y], ...(read.colour !== undefined ? ([['colour', read.colour]] as [string, string][]) : [])];
}

/** `POST .../scatter`: x, y and colour in the scope, on the fastest one's time base, as points or a density grid, on the pool. */
export async function readScatter(ref: DatasetRef, dataset: OpenDataset, read: ScatterRead, parts: Parts, signal: AbortSignal, math?: MathReads): Promise<Uint8Array> {
  const { file } = dataset;
  const refusals = new FieldRefusals();
  const maxPoints = read.maxPoints ?? Math.min(ANALYSIS_DEFAULTS.maxPoints, parts.limits.maxPoints);
  const gridSize = read.gridSize ?? Math.min(ANALYSIS_DEFAULTS.gridSize, parts.limits.maxGrid);
  if (maxPoints > parts.limits.maxPoints) refusals.refuse('maxPoints', `must be at most ${parts.limits.maxPoints} (SCATTER_MAX_POINTS)`, `maxPoints must be at most ${parts.limits.maxPoints} (SCATTER_MAX_POINTS)`);
  if (gridSize > parts.limits.maxGrid) refusals.refuse('gridSize', `must be at most ${parts.limits.maxGrid} (SCATTER_MAX_GRID)`, `gridSize must be at most ${parts.limits.maxGrid} (SCATTER_MAX_GRID)`);
  const scope = scopeOf(file, read.lapIndex, refusals);
  const infos = analysedChannels(catalogueWith(file, math), scatterChannels(read), refusals);
  const distinct = [...new Map(infos.map((info) => [info.name, info])).values()];
  // A lap's channels are read a period of the slowest past each end (within the file), so that a pair at the lap's
  // last sample of the time base has the slower channels' sample after it to interpolate from, as in the whole file;
  // the pairs are those of the lap's own times (`keep`).
  const window = widened(file, scope, distinct);
  withinSampleBudget(distinct.reduce((sum, info) => sum + decodesOf(file, info, window, math), 0), parts.sampleBudget, 'x');
  const slices = await slicesOf(dataset, distinct, window, parts.cache, math, signal);
  const indexOf = (name: string) => distinct.findIndex((info) => info.name === name);
  const task: AnalysisTask = {
    op: 'scatter',
    echo: echoOf(ref),
    lapIndex: read.lapIndex ?? null,
    slices,
    discrete: distinct.map((info) => isDiscreteChannel(info)),
    roles: { x: indexOf(read.x), y: indexOf(read.y), ...(read.colour !== undefined ? { colour: indexOf(read.colour) } : {}) },
    maxPoints,
    gridSize,
    ...(scope.whole ? {} : { keep: { start: scope.start, end: scope.end } }),
  };
  return run(task, slices, parts.pool, signal);
}

/** A lap's window widened by the longest sample period of `channels` each side, within the file; the whole file as it is. */
function widened(file: OpenDataset['file'], scope: Window, channels: readonly ChannelInfo[]): Window {
  if (scope.whole) return scope;
  const period = channels.reduce((most, c) => (c.frequency > 0 ? Math.max(most, 1 / c.frequency) : most), 0);
  return { whole: false, start: Math.max(file.startTime, scope.start - period), end: Math.min(file.startTime + file.duration, scope.end + period) };
}

/** `POST .../histogram`: one channel in the scope, binned on the pool. */
export async function readHistogram(ref: DatasetRef, dataset: OpenDataset, read: HistogramRead, parts: Parts, signal: AbortSignal, math?: MathReads): Promise<Uint8Array> {
  const { file } = dataset;
  const refusals = new FieldRefusals();
  const { maxBins } = parts.limits;
  if (read.bins !== undefined && read.bins > maxBins) refusals.refuse('bins', `must be at most ${maxBins} (HISTOGRAM_MAX_BINS)`, `bins must be at most ${maxBins} (HISTOGRAM_MAX_BINS)`);
  if (read.edges !== undefined && read.edges.length - 1 > maxBins) refusals.refuse('edges', `must be at most ${maxBins + 1} edges (HISTOGRAM_MAX_BINS is ${maxBins})`, `edges must be at most ${maxBins + 1} (HISTOGRAM_MAX_BINS is ${maxBins})`);
  const window = scopeOf(file, read.lapIndex, refusals);
  const [info] = analysedChannels(catalogueWith(file, math), [['channel', read.channel]], refusals) as [ChannelInfo];
  withinSampleBudget(decodesOf(file, info, window, math), parts.sampleBudget, 'channel');
  signal.throwIfAborted();
  const [slice] = (await slicesOf(dataset, [info], window, parts.cache, math, signal)) as [StoredSlice];
  const task: AnalysisTask = {
    op: 'histogram',
    echo: echoOf(ref),
    lapIndex: read.lapIndex ?? null,
    slice,
    ...(read.edges !== undefined ? { edges: [...read.edges] } : { bins: read.bins ?? Math.min(ANALYSIS_DEFAULTS.bins, maxBins) }),
  };
  return run(task, [slice], parts.pool, signal);
}

/** The window of a lap, or the whole file; a lap index outside the dataset's laps is refused on `lapIndex`. */
function scopeOf(file: OpenDataset['file'], lapIndex: number | undefined, refusals: FieldRefusals): Window {
  if (lapIndex === undefined) return { whole: true };
  try {
    return resolveScope({ mode: 'lap', lapIndex }, file);
  } catch (err) {
    if (!(err instanceof InvalidSliceError)) throw err;
    refusals.refuse('lapIndex', err.message, `lapIndex: ${err.message}`);
    return { whole: true };
  }
}

/**
 * The catalogue entries of the channels a read names (`[field, name]`), refused before any sample is read, as the
 * channel reads refuse them: with the other refusals gathered so far, every unknown channel a 400 naming its field,
 * then every one the readers cannot decode a 415.
 */
function analysedChannels(catalogue: readonly ChannelInfo[], named: readonly [string, string][], refusals = new FieldRefusals()): ChannelInfo[] {
  const byName = new Map(catalogue.map((c) => [c.name, c]));
  const suggest = new ChannelSuggester(byName.keys());
  for (const [field, name] of named) if (!byName.has(name)) refusals.refuse(field, suggest.notFound(name));
  refusals.throwIfAny();
  const infos = named.map(([, name]) => byName.get(name) as ChannelInfo);
  const unreadable = new FieldRefusals();
  named.forEach(([field], i) => {
    const info = infos[i] as ChannelInfo;
    if (info.unsupported) unreadable.refuse(field, `cannot be read: ${info.name} uses ${info.unsupported}, which this service does not decode`, `${field} ${info.name} cannot be read: it uses ${info.unsupported}`);
  });
  unreadable.throwIfAny(415);
  refuseNonNumeric(named.map(([field], i) => [field, infos[i] as ChannelInfo]));
  return infos;
}

/**
 * The analysis reads (and a track map's colour) take channels of one number a sample: a text or byte channel (read
 * its events with the channel read) or an array channel is a 422 naming its field, before any sample is read.
 */
export function refuseNonNumeric(channels: readonly (readonly [string, ChannelInfo])[]): void {
  const refusals = new FieldRefusals();
  for (const [field, info] of channels) {
    const what = info.kind ? `a ${info.kind} channel (its samples are events: read them with the channel read)` : info.dimension > 1 ? `an array channel of ${info.dimension} values a sample` : undefined;
    if (what) refusals.refuse(field, `must be a channel of one number a sample: ${info.name} is ${what}`, `${field} ${info.name} is ${what}`);
  }
  refusals.throwIfAny(422, 'This read takes channels of one number a sample: ');
}

function echoOf(ref: DatasetRef): DatasetEcho {
  return { entityId: ref.id, entityType: ref.type, attachedFileGroupName: ref.group };
}

function copyOf(slice: StoredSlice): StoredSlice {
  return { ...slice, samples: slice.samples.slice(), ...(slice.times ? { times: slice.times.slice() } : {}), ...(slice.gaps ? { gaps: slice.gaps.slice() } : {}) } as StoredSlice;
}

async function run(task: AnalysisTask, slices: StoredSlice[], pool: TaskPool, signal: AbortSignal): Promise<Uint8Array> {
  // Each buffer once: slices may share one (an evaluation's results of one base).
  const transferList = [...new Set(slices.flatMap(buffersOf))];
  return (await pool.run(task, { name: 'analysis', transferList, signal })) as Uint8Array;
}
