import { MessageChannel } from 'node:worker_threads';
import type { TaskPool } from './fair-pool';
import { JSON_MEDIA_TYPE, receiveChunks, type BulkAnswer, type StreamWatch } from '@pitwall/bus';
import { resolveScope, scopeSampleRange, sliceStored, type ChannelInfo, type ChannelLabel, type StoredChannel, type StoredChannelCache, type TimeBase } from '@pitwall/formats';
import { ARROW_FILE_MEDIA_TYPE, ARROW_STREAM_MEDIA_TYPE, ARROW_TIME_COLUMN, type DataFileScope } from '@pitwall/contracts';
import { ChannelSuggester, CHANNELS_MEDIA_TYPE, MAX_CHANNEL_TEXT_BYTES, type EventSeries, type ParameterUse } from '@pitwall/channels';
import { isDiscreteChannel } from '@pitwall/laps';
import { AppError, FieldRefusals, shortened } from '@pitwall/service-kit';
import { toReadError } from './read-errors';
import { valueBytesAsSamples, withinSampleBudget } from './read-budget';
import type { OpenDataset } from './datasets';
import { catalogueWith, decodesOf, isMathChannel } from './math-lookup';
import { parametersUsedBy, type MathReads } from './read-math-channels';
import type { EvaluatedChannel, ShapeWithMathTask } from '../workers/math-channels';
import type { StoredSlice } from '../workers/shape-channels';
import type { ArrowLimits } from '../workers/arrow-limits';

export interface ChannelRead {
  channels: readonly string[];
  /** How the request names its channels, for a 400's `errors`: `channel` (one) or `channels` (a batch, by index). */
  field: 'channel' | 'channels';
  scope: DataFileScope;
  maxPoints?: number;
  /** Every channel interpolated onto one time base of this many Hz from the scope's start (`rate`; not with maxPoints). */
  rate?: number;
  binary: boolean;
  /**
   * The Arrow stream instead of JSON or the binary body (`binary` false), its schema's metadata naming the dataset and
   * the read; the file's format and properties are added to it. With `file`, the IPC file format of the same messages.
   */
  arrow?: { schema: Record<string, string>; file?: boolean };
}

/**
 * The samples of a read, encoded: the scope resolved to each channel's sample range (refusing an unknown channel or
 * a lap out of range before any sample is read), the stored values of that range only (from the channel cache or the
 * file), then conversion, M4 and encoding on the pool, streamed from it as they are taken. Returns once the pool
 * began the answer (the binary body with its length, or the JSON array of channel records, a single read's record
 * alone); `signal` aborts the work until then, and the answer's own signal (or leaving its chunks early) after. While
 * it streams, `parts.streams` watches for a client that takes nothing (stalled-streams.ts).
 */
export async function readChannels(
  dataset: OpenDataset,
  read: ChannelRead,
  parts: { cache: StoredChannelCache; pool: TaskPool; sampleBudget: number; streams?: StreamWatch; arrowLimits?: ArrowLimits },
  signal: AbortSignal,
  /** The math channels the read names (docs/math-channels.md): evaluated on the pool, then shaped like logged ones. */
  math?: MathReads,
  /** The account's math channels' names, when the read names a channel the file lacks: suggested as the file's are. */
  mathNames?: Iterable<string>,
): Promise<BulkAnswer> {
  const { file } = dataset;
  // A lap out of range and unknown channels are named in one 400.
  const refusals = new FieldRefusals();
  let window: ReturnType<typeof resolveScope> | undefined;
  try {
    window = resolveScope(read.scope, file);
  } catch (err) {
    refusals.take(toReadError(err), 'detail');
  }
  const infos = readableChannels(catalogueWith(file, math), read, refusals, mathNames);
  if (read.arrow) arrowColumnsOnly(infos, read);
  if (!window) throw new Error('unreachable: a scope that did not resolve was refused');
  // Each channel is read and shaped once, however often the request names it; the answer repeats its record.
  const indexOf = new Map<string, number>();
  const distinct: ChannelInfo[] = [];
  for (const info of infos) {
    if (indexOf.has(info.name)) continue;
    indexOf.set(info.name, distinct.length);
    distinct.push(info);
  }
  const order = infos.map((info) => indexOf.get(info.name) as number);
  const resample = read.rate !== undefined ? resampleGrid(read, infos, window, file) : undefined;
  // Resampled, each channel is read a sample period past the scope each side, so the grid's first and last points are
  // interpolated between the samples around them, as anywhere inside (not left gaps at the scope's edges).
  const widened = (frequency: number): ReturnType<typeof resolveScope> => (resample && !window.whole && frequency > 0 ? { whole: false, start: window.start - 1 / frequency, end: window.end + 1 / frequency } : window);
  const windowOf = (info: ChannelInfo) => widened(info.frequency);
  const maths = distinct.filter(isMathChannel);
  // The math channels are evaluated together over one window: widened by the slowest one's period.
  const mathWindow = maths.length ? widened(Math.min(...maths.map((c) => c.frequency))) : window;
  // A resampled read makes each channel's grid beside what it decodes (and once more for a channel named again).
  const resampled = resample ? resample.count * infos.length : 0;
  const needed = samplesNeeded(distinct.map((info) => decodesOf(file, info, isMathChannel(info) ? mathWindow : windowOf(info), math)), order, read.maxPoints) + resampled;
  const resampledPoints = resample && { rate: resample.rate, points: resampled };
  withinSampleBudget(needed, parts.sampleBudget, read.field, resampledPoints);
  // The math channels are evaluated in the read's own shaping task, before it shapes them (ShapeWithMathTask): one
  // evaluation per time base, each definition and input once (docs/math-channels.md); the other channels are read in turn.
  const evaluation = maths.length && math ? await math.tasks(maths, mathWindow, signal) : undefined;
  const slices: ShapeWithMathTask['channels'] = [];
  const transferList: ArrayBuffer[] = [...(evaluation?.transferList ?? [])];
  // How often the request names each distinct channel: each repeat of a text or byte channel carries its values again.
  const named = new Array<number>(distinct.length).fill(0);
  for (const k of order) named[k] = (named[k] as number) + 1;
  let valueBytes = 0;
  let k = 0;
  for (const [d, info] of distinct.entries()) {
    signal.throwIfAborted();
    if (isMathChannel(info)) {
      slices.push({ evaluated: evaluation?.at[k++] as EvaluatedChannel['evaluated'] });
      continue;
    }
    let slice: StoredSlice | EventSeries;
    if (info.kind) {
      const { events, decodedBytes } = await eventsOfScope(dataset, info, window);
      // Text and byte values are known once decoded: the budget counts their bytes (whole channels decoded, as samples
      // are counted, and what each repeat carries), before any answer is encoded, in every body alike.
      valueBytes += decodedBytes + ((named[d] as number) - 1) * events.bytes.byteLength;
      withinSampleBudget(needed + valueBytesAsSamples(valueBytes), parts.sampleBudget, read.field, resampledPoints, valueBytes);
      slice = events;
    } else slice = ownedSlice(await storedOfScope(dataset, info, windowOf(info), parts.cache));
    slices.push(slice);
    transferList.push(...buffersOf(slice));
  }
  const { port1, port2 } = new MessageChannel();
  const bare = !read.binary && read.field === 'channel';
  // What each math channel reading param() used, and where each value came from (docs/math-channels.md "Which values a
  // read used"): an Arrow field's metadata, a JSON record's `parameters`; the binary block has no room for it.
  const used = distinct.map((info) => (isMathChannel(info) && math ? parametersUsedBy(info, math.constants) : []));
  const parameters = !read.binary && used.some((u) => u.length) ? { parameters: used } : {};
  const arrow = read.arrow ? { arrow: { timeColumn: ARROW_TIME_COLUMN, schema: { ...read.arrow.schema, ...fileMetadata(file) }, fields: distinct.map((info, k) => catalogueMetadata(info, used[k] as ParameterUse[])), ...(read.arrow.file ? { file: true } : {}), ...(parts.arrowLimits ? { limits: parts.arrowLimits } : {}) } } : {};
  const task: ShapeWithMathTask = { channels: slices, ...(evaluation ? { math: evaluation.tasks } : {}), ...(read.arrow ? {} : parameters), ...(distinct.length < infos.length ? { order } : {}), binary: read.binary, ...arrow, ...(bare ? { bare } : {}), ...(read.maxPoints !== undefined ? { maxPoints: read.maxPoints } : {}), ...(resample ? { resample: { ...resample, held: distinct.filter(isDiscreteChannel).map((c) => c.name) } } : {}), ...(window.whole ? {} : { window: { start: window.start, end: bucketEnd(window, file) } }), port: port2 };
  const stop = new AbortController();
  const run = parts.pool.run(task, { transferList: [...transferList, port2 as unknown as ArrayBuffer], signal: AbortSignal.any([signal, stop.signal]) });
  const { head, chunks, cancel } = receiveChunks(port1, run, (reason) => stop.abort(reason), parts.streams ? { watch: parts.streams } : {});
  const { length, refusal } = await head;
  if (refusal) {
    // Refused once planned (an Arrow answer past its limits): no chunk follows; the stream's end is taken, its thread kept.
    for await (const chunk of chunks) void chunk;
    throw new AppError(refusal.status, refusal.detail, { errors: { [read.field]: [refusal.reason] }, ...(refusal.extensions ? { extensions: refusal.extensions } : {}) });
  }
  return {
    contentType: mediaTypeOf(read),
    ...(length !== undefined ? { length } : {}),
    chunks(answerSignal) {
      // Its claim expired or its redeemer went: the producer stops (its thread kept when it was waiting for credit).
      answerSignal.addEventListener('abort', () => cancel(answerSignal.reason), { once: true });
      return untilAborted(chunks, answerSignal);
    },
  };
}

/**
 * The chunks while `signal` has not aborted: an answer whose signal aborted (its claim expired, its redeemer went)
 * fails at its next chunk, also when the pool had already made all of it, and is never taken for a whole one.
 */
async function* untilAborted(chunks: AsyncIterable<Uint8Array>, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    signal.throwIfAborted();
    yield chunk;
  }
  signal.throwIfAborted();
}

/** The media type of a read's answer (the binary body's own; the entry point may answer it as octet-stream). */
export function mediaTypeOf(read: Pick<ChannelRead, 'binary' | 'arrow'>): string {
  if (read.arrow) return read.arrow.file ? ARROW_FILE_MEDIA_TYPE : ARROW_STREAM_MEDIA_TYPE;
  return read.binary ? CHANNELS_MEDIA_TYPE : JSON_MEDIA_TYPE;
}

/**
 * An Arrow read names its columns by channel, beside the time column: a channel named like it cannot be one (406; the
 * JSON and binary bodies can carry it). A channel named more than once is one column.
 */
function arrowColumnsOnly(infos: readonly ChannelInfo[], read: ChannelRead): void {
  const refusals = new FieldRefusals();
  const form = read.arrow?.file ? 'file' : 'stream';
  infos.forEach((info, i) => {
    const field = read.field === 'channel' ? 'channel' : `channels[${i}]`;
    if (info.name === ARROW_TIME_COLUMN) refusals.refuse(field, `cannot be an Arrow column: ${info.name} is the name of the time column; read it as JSON or the binary body`, `${field} ${info.name} is named like the Arrow ${form}'s time column`);
  });
  refusals.throwIfAny(406, `The read cannot be answered as an Arrow ${form}: `);
}

/** The file the Arrow stream was read from: its format and the properties it records. */
function fileMetadata(file: OpenDataset['file']): Record<string, string> {
  const properties = Object.entries(file.properties).filter(([, v]) => v !== null && v !== '');
  return { format: file.format, ...(properties.length ? { fileProperties: JSON.stringify(Object.fromEntries(properties)) } : {}) };
}

/**
 * A text conversion's labels as JSON, made once per catalogue's table (the catalogue is kept with its dataset): their
 * characters are bounded with the catalogue's (DATAFILE_MAX_CATALOGUE_CHARS), and each Arrow read of the channel used
 * to stringify them again on the event loop.
 */
const labelsJsonOf = new WeakMap<readonly ChannelLabel[], string>();
function labelsJson(labels: readonly ChannelLabel[]): string {
  let json = labelsJsonOf.get(labels);
  if (json === undefined) labelsJsonOf.set(labels, (json = JSON.stringify(labels)));
  return json;
}

/**
 * What the catalogue says of a channel beyond its unit and conversion: its storage type, a text or byte channel's
 * kind, an array's shape, the labels of a text conversion and, for a math channel reading param(), the parameters it
 * used (JSON, as the JSON record has them).
 */
function catalogueMetadata(info: ChannelInfo, parameters: readonly ParameterUse[]): Record<string, string> {
  return {
    dataType: info.dataType,
    ...(info.kind ? { kind: info.kind } : {}),
    ...(info.shape ? { shape: JSON.stringify(info.shape) } : {}),
    ...(info.labels ? { labels: labelsJson(info.labels) } : {}),
    ...(info.defaultLabel !== undefined ? { defaultLabel: info.defaultLabel } : {}),
    ...(parameters.length ? { parameters: JSON.stringify(parameters) } : {}),
  };
}

/**
 * The one time base of a resampled read (`rate`): points 1 / rate apart from the scope's start (the file's for a
 * whole-file read, a window's clipped to the file) up to its end (half-open), as many as fit. Refused: with maxPoints
 * (M4 thins what a grid already sets), and for a channel of events (text, bytes) or arrays, each named.
 */
function resampleGrid(read: ChannelRead, infos: readonly ChannelInfo[], window: ReturnType<typeof resolveScope>, file: { startTime: number; duration: number }): { start: number; rate: number; count: number } {
  const rate = read.rate as number;
  const refusals = new FieldRefusals();
  if (read.maxPoints !== undefined) refusals.refuse('rate', 'rate and maxPoints do not go together: a rate sets how many points a channel has', 'rate and maxPoints do not go together: a rate sets how many points a channel has');
  const fieldOf = (i: number) => (read.field === 'channel' ? 'channel' : `channels[${i}]`);
  infos.forEach((info, i) => {
    if (info.kind || info.dimension > 1) refusals.refuse(fieldOf(i), `cannot be resampled: ${info.name} is ${info.kind ? `a ${info.kind} channel (events)` : 'an array channel'}`, `${fieldOf(i)} ${info.name} cannot be resampled`);
  });
  refusals.throwIfAny();
  const fileEnd = file.startTime + file.duration;
  const start = window.whole ? file.startTime : Math.max(window.start, file.startTime);
  const end = window.whole ? fileEnd : Math.min(window.end, fileEnd);
  const count = end > start ? Math.max(0, Math.ceil((end - start) * rate - 1e-9)) : 0;
  return { start, rate, count };
}

/**
 * Decoded samples a read needs: what each distinct channel decodes, and for each further time the request names one,
 * the samples that copy carries in the answer (at most maxPoints with M4).
 */
function samplesNeeded(decoded: readonly number[], order: readonly number[], maxPoints: number | undefined): number {
  const carried = (n: number) => (maxPoints === undefined ? n : Math.min(n, maxPoints));
  let needed = decoded.reduce((sum, n) => sum + n, 0);
  const seen = new Set<number>();
  for (const k of order) {
    if (seen.has(k)) needed += carried(decoded[k] as number);
    seen.add(k);
  }
  return needed;
}

/**
 * Where M4's buckets end: the window's end, or the file's when the window runs past it (a window without duration
 * ends at Number.MAX_VALUE: its buckets would all fall on the first one). Samples past it go to the last bucket.
 */
function bucketEnd(window: { start: number; end: number }, file: { startTime: number; duration: number }): number {
  return Math.max(window.start, Math.min(window.end, file.startTime + file.duration));
}

/**
 * The catalogue entries of the read's channels, refused before any sample is read: every channel the catalogue does
 * not have is a 400, then every one it lists but the readers cannot decode a 415, then every one whose unit no channel
 * record carries a 422, each named by where the request names it (`channel`, or `channels[i]` of a batch) and by its name.
 */
/** Unknown names a detail lists (errors names each); a batch of thousands would otherwise make a detail (and a log line) of megabytes. */
const LISTED_NAMES = 8;
/** Characters of each listed name (a name may have 16,383). */
const LISTED_NAME_CHARS = 200;

/** The first LISTED_NAMES names, each cut at LISTED_NAME_CHARS, then how many more. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, LISTED_NAMES).map((name) => shortened(name, LISTED_NAME_CHARS));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more (each named in errors)` : shown.join(', ');
}

function readableChannels(catalogue: readonly ChannelInfo[], read: ChannelRead, refusals: FieldRefusals, mathNames: Iterable<string> = []): ChannelInfo[] {
  const byName = new Map(catalogue.map((c) => [c.name, c]));
  const fieldOf = (i: number) => (read.field === 'channel' ? 'channel' : `channels[${i}]`);
  const unknown: string[] = [];
  const unknownErrors: Record<string, string[]> = {};
  // Each unknown name's refusal says which catalogue names are close, if any ("did you mean"); made for refusals only.
  let suggest: ChannelSuggester | undefined;
  let only = '';
  read.channels.forEach((name, i) => {
    if (byName.has(name)) return;
    unknown.push(name);
    suggest ??= new ChannelSuggester([...byName.keys(), ...mathNames]);
    only = suggest.notFound(name);
    unknownErrors[fieldOf(i)] = [only];
  });
  if (unknown.length) refusals.take(AppError.badRequest(unknown.length === 1 ? only : `channels not found: ${listed(unknown)}`, unknownErrors), 'detail');
  refusals.throwIfAny();
  const infos = read.channels.map((name) => byName.get(name) as ChannelInfo);
  const unreadable = new FieldRefusals();
  infos.forEach((info, i) => {
    if (info.unsupported) unreadable.refuse(fieldOf(i), `cannot be read: ${info.name} uses ${info.unsupported}, which this service does not decode`, `${fieldOf(i)} ${info.name} cannot be read: it uses ${info.unsupported}`);
  });
  unreadable.throwIfAny(415);
  // A unit past what the binary body's u16 length holds is refused in JSON too: both bodies of a read answer alike.
  const overlong = new FieldRefusals();
  infos.forEach((info, i) => {
    const bytes = Buffer.byteLength(info.unit, 'utf8');
    if (bytes <= MAX_CHANNEL_TEXT_BYTES) return;
    const limit = `${bytes} bytes (UTF-8), more than the ${MAX_CHANNEL_TEXT_BYTES} a channel record carries`;
    overlong.refuse(fieldOf(i), `cannot be read: the unit of ${info.name} is ${limit}`, `${fieldOf(i)} ${info.name} has a unit of ${limit}`);
  });
  overlong.throwIfAny(422, 'The data file could not be read: ');
  return infos;
}

/**
 * Stored values of a channel inside the scope's window. A regular `.ld` channel reads just its range (cached under
 * the range); other channels are read whole once (cached whole) and sliced.
 */
export async function storedOfScope(dataset: OpenDataset, info: { name: string; regular: boolean; frequency: number; sampleCount: number }, window: ReturnType<typeof resolveScope>, cache: StoredChannelCache): Promise<StoredChannel> {
  const whole = cache.get(dataset.contentKey, info.name);
  if (whole) return sliceStored(whole, ...rangeIn(whole, window));
  if (lazyRanges(dataset, info)) {
    const { from, to } = scopeSampleRange(window, ldTimeBase(info), info.sampleCount);
    return storedRange(dataset, info, from, to, cache);
  }
  const all = await storedWhole(dataset, info, cache);
  return sliceStored(all, ...rangeIn(all, window));
}

/**
 * Stored values of samples [from, to) of a channel (indices of the whole channel): a regular `.ld` channel reads just
 * that range (cached under it, or whole when it is the whole channel); other channels are read whole once and sliced.
 */
export async function storedRange(dataset: OpenDataset, info: { name: string; regular: boolean; frequency: number; sampleCount: number }, from: number, to: number, cache: StoredChannelCache): Promise<StoredChannel> {
  const { file, contentKey } = dataset;
  const whole = cache.get(contentKey, info.name);
  if (whole) return sliceStored(whole, from, to);
  if (!lazyRanges(dataset, info)) return sliceStored(await storedWhole(dataset, info, cache), from, to);
  if (from === 0 && to === info.sampleCount) {
    const all = await file.readStored(info.name);
    cache.set(contentKey, info.name, all);
    return all;
  }
  const rangeKey = `${info.name}\u0000${from}:${to}`;
  const hit = cache.get(contentKey, rangeKey);
  if (hit) return hit;
  const part = await file.readStored(info.name, { from, to });
  cache.set(contentKey, rangeKey, part);
  return part;
}

function rangeIn(stored: StoredChannel, window: ReturnType<typeof resolveScope>): [number, number] {
  const { from, to } = scopeSampleRange(window, stored.time, stored.samples.length / Math.max(1, stored.dimension));
  return [from, to];
}

/** The whole stored channel, from the channel cache or read once and kept there. */
async function storedWhole(dataset: OpenDataset, info: { name: string }, cache: StoredChannelCache): Promise<StoredChannel> {
  const whole = cache.get(dataset.contentKey, info.name);
  if (whole) return whole;
  const all = await dataset.file.readStored(info.name);
  cache.set(dataset.contentKey, info.name, all);
  return all;
}

/** A regular `.ld` channel: its samples are at i / frequency, and a range of them is read without reading the rest. */
function lazyRanges(dataset: OpenDataset, info: { regular: boolean }): boolean {
  return dataset.file.format === 'motec-ld' && info.regular;
}

function ldTimeBase(info: { frequency: number }): TimeBase {
  return { kind: 'implicit', start: 0, frequency: info.frequency };
}

/**
 * Where a channel's samples are, to find the ranges a read takes of it before reading them where that is possible:
 * `count` samples, the time of each, the index range [from, to) of a window ([start, end) seconds on the file's axis)
 * as a read of that window takes it. A regular `.ld` channel's from its catalogue entry alone; others' from the stored
 * channel (read whole once and cached, as their reads read them).
 */
export interface ChannelAxis {
  readonly count: number;
  time(i: number): number;
  range(start: number, end: number): { from: number; to: number };
  /** Samples at the same times as another channel's of the same key (regular, one start and rate); undefined for times of their own. */
  readonly key?: string;
}

export async function channelAxis(dataset: OpenDataset, info: { name: string; regular: boolean; frequency: number; sampleCount: number }, cache: StoredChannelCache): Promise<ChannelAxis> {
  if (!cache.get(dataset.contentKey, info.name) && lazyRanges(dataset, info)) return ldAxis(info);
  const stored = await storedWhole(dataset, info, cache);
  return timeAxis(stored.time, stored.samples.length / Math.max(1, stored.dimension));
}

/** A regular `.ld` channel's axis, from its catalogue entry (no sample read); undefined for a channel read whole. */
export function catalogueAxis(dataset: Pick<OpenDataset, 'file'>, info: { regular: boolean; frequency: number; sampleCount: number }): ChannelAxis | undefined {
  return dataset.file.format === 'motec-ld' && info.regular ? ldAxis(info) : undefined;
}

function ldAxis(info: { frequency: number; sampleCount: number }): ChannelAxis {
  return timeAxis(ldTimeBase(info), info.sampleCount);
}

/** The axis of `count` samples on a time base. */
export function timeAxis(time: TimeBase, count: number): ChannelAxis {
  const window = (start: number, end: number) => scopeSampleRange({ whole: false, start, end }, time, count);
  if (time.kind === 'implicit') {
    const { start, frequency } = time;
    return { count, time: (i) => start + i / frequency, range: window, key: `${start} ${frequency}` };
  }
  const ts = time.timestamps;
  return { count, time: (i) => ts[i] as number, range: window };
}

/**
 * The events of a text or byte channel inside the scope's window, with the time of each (events always carry their
 * times). Decoded whole on the pool (not cached: the pool keeps the opened file) and sliced; the arrays are its own.
 * With the bytes of the values decoded (the whole channel's), which READ_SAMPLE_BUDGET counts.
 */
async function eventsOfScope(dataset: OpenDataset, info: Pick<ChannelInfo, 'name'>, window: ReturnType<typeof resolveScope>): Promise<{ events: EventSeries; decodedBytes: number }> {
  // Sliced to the window and timed where they are decoded (the pool): 16 million events timed here held the event loop 0.6 s.
  const { events, decodedBytes } = await dataset.file.readEvents(info.name, window);
  const times = events.time.timestamps;
  const startTime = times.length > 0 ? (times[0] as number) : window.whole ? dataset.file.startTime : window.start;
  return { events: { kind: events.kind, name: events.name, unit: events.unit, frequency: events.frequency, startTime, times, offsets: events.offsets, bytes: events.bytes, ...(events.gaps ? { gaps: events.gaps } : {}) }, decodedBytes };
}

/** A copy of the slice whose arrays own their buffers: it is transferred to the pool while the cache keeps its own. */
export function ownedSlice(stored: StoredChannel): StoredSlice {
  const view = sliceView(stored);
  return { ...view, samples: view.samples.slice(), ...(view.times ? { times: view.times.slice() } : {}), ...(view.gaps ? { gaps: view.gaps.slice() } : {}) };
}

/** The slice over the stored arrays themselves (the cache's): to look at, never to transfer. */
export function sliceView(stored: StoredChannel): StoredSlice {
  const startTime = stored.time.kind === 'implicit' ? stored.time.start : (stored.time.timestamps[0] ?? 0);
  return {
    name: stored.name,
    unit: stored.unit,
    frequency: stored.frequency,
    dimension: stored.dimension,
    startTime,
    samples: stored.samples,
    conversion: stored.conversion,
    ...(stored.time.kind === 'explicit' ? { times: stored.time.timestamps } : {}),
    ...(stored.gaps ? { gaps: stored.gaps } : {}),
  };
}

export function buffersOf(slice: StoredSlice | EventSeries): ArrayBuffer[] {
  const arrays = 'kind' in slice ? [slice.offsets, slice.bytes] : [slice.samples];
  return [...arrays.map((a) => a.buffer as ArrayBuffer), ...(slice.times ? [slice.times.buffer as ArrayBuffer] : []), ...(slice.gaps ? [slice.gaps.buffer as ArrayBuffer] : [])];
}
