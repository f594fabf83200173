import { ChannelSuggester } from '@pitwall/channels';
import type { TaskPool } from './fair-pool';
import { pickTrackMapSources, type TrackMapRole, type TrackMapSourceKind } from '@pitwall/analysis';
import { TRACK_MAP_DEFAULT_POINTS } from '@pitwall/contracts';
import { InvalidSliceError, resolveScope, toNanosecond, type ChannelInfo, type StoredChannelCache } from '@pitwall/formats';
import { isDiscreteChannel } from '@pitwall/laps';
import { AppError, FieldRefusals } from '@pitwall/service-kit';
import type { DatasetRef, OpenDataset } from './datasets';
import { buffersOf, ownedSlice, storedOfScope } from './read-channels';
import { withinSampleBudget } from './read-budget';
import { catalogueWith, decodesOf, isMathChannel } from './math-lookup';
import { refuseNonNumeric } from './read-analysis';
import { slicesOf, type MathReads } from './read-math-channels';
import type { TrackMapTask } from '../workers/track-map';
import type { StoredSlice } from '../workers/shape-channels';

type Parts = { cache: StoredChannelCache; pool: TaskPool; sampleBudget: number };

export interface TrackMapRead {
  lapIndex: number;
  colour?: string;
  maxPoints?: number;
  source?: TrackMapSourceKind;
  channels?: Partial<Record<TrackMapRole, string>>;
}

/**
 * `POST .../trackmap`: one lap's path from GPS or by dead reckoning, coloured by a channel. Everything the request
 * names is checked before any sample is read (a bad lap, colour or named channel a 400 naming each, an undecodable
 * channel a 415, a dataset without the channels of any source a 422 saying what was looked for), the samples decoded
 * are held to READ_SAMPLE_BUDGET, and the path is computed on the pool.
 */
export async function readTrackMap(ref: DatasetRef, dataset: OpenDataset, read: TrackMapRead, parts: Parts, signal: AbortSignal, math?: MathReads): Promise<Uint8Array> {
  const { file } = dataset;
  const refusals = new FieldRefusals();
  let window: ReturnType<typeof resolveScope> = { whole: true };
  try {
    window = resolveScope({ mode: 'lap', lapIndex: read.lapIndex }, file);
  } catch (err) {
    if (!(err instanceof InvalidSliceError)) throw err;
    refusals.refuse('lapIndex', err.message, `lapIndex: ${err.message}`);
  }
  // The path's own channels are the file's (logged); the colour may be a math channel too.
  const byName = new Map(catalogueWith(file, math).map((c) => [c.name, c]));
  if (read.colour !== undefined && !byName.has(read.colour)) refusals.refuse('colour', new ChannelSuggester(byName.keys()).notFound(read.colour));
  const pick = pickTrackMapSources(file.channels, { ...(read.channels ? { channels: read.channels } : {}), ...(read.source ? { source: read.source } : {}) });
  if ('refused' in pick) for (const r of pick.refused) refusals.refuse(r.field, r.message, `${r.field}: ${r.message}`);
  refusals.throwIfAny();
  if (read.colour !== undefined) refuseNonNumeric([['colour', byName.get(read.colour) as ChannelInfo]]);
  if (!('picked' in pick)) throw new AppError(422, `${ref.type} ${ref.id} dataset '${ref.group}' has ${'missing' in pick ? pick.missing : 'no source of a track map'}`);

  const roles = pick.picked.channels.map((c) => ({ ...c, info: byName.get(c.name) as ChannelInfo }));
  const colour = read.colour !== undefined ? (byName.get(read.colour) as ChannelInfo) : undefined;
  const unreadable = new FieldRefusals();
  for (const [field, info] of [...roles.map((r) => [`channels.${r.role}`, r.info] as const), ...(colour ? [['colour', colour] as const] : [])]) {
    if (info.unsupported) unreadable.refuse(field, `cannot be read: ${info.name} uses ${info.unsupported}, which this service does not decode`, `${field} ${info.name} cannot be read: it uses ${info.unsupported}`);
  }
  unreadable.throwIfAny(415);

  const distinct = [...new Map([...roles.map((r) => r.info), ...(colour ? [colour] : [])].map((info) => [info.name, info])).values()];
  withinSampleBudget(distinct.reduce((sum, info) => sum + decodesOf(file, info, window, math), 0), parts.sampleBudget, 'lapIndex');
  // Each channel read once; a channel in two roles (a colour that is also the speed) gets its own copy per role.
  const readOnce = new Map<string, StoredSlice>();
  const sliceOf = async (info: ChannelInfo): Promise<StoredSlice> => {
    signal.throwIfAborted();
    // A math colour (never one of the path's channels: those are the file's) is evaluated on the pool.
    if (isMathChannel(info)) return (await slicesOf(dataset, [info], window, parts.cache, math, signal))[0] as StoredSlice;
    const known = readOnce.get(info.name);
    if (known) return copyOf(known);
    const slice = ownedSlice(await storedOfScope(dataset, info, window, parts.cache));
    readOnce.set(info.name, slice);
    return slice;
  };
  const channels: TrackMapTask['channels'] = [];
  for (const r of roles) channels.push({ role: r.role, slice: await sliceOf(r.info), factor: r.factor });
  const colourSlice = colour ? { slice: await sliceOf(colour), discrete: isDiscreteChannel(colour) } : undefined;
  const lap = file.laps[read.lapIndex] as (typeof file.laps)[number];
  const task: TrackMapTask = {
    lap: { entityId: ref.id, entityType: ref.type, attachedFileGroupName: ref.group, lapIndex: read.lapIndex, lapTime: toNanosecond(lap.endTime - lap.startTime) },
    startTime: lap.startTime,
    closed: lap.kind === 'flying',
    source: pick.picked.kind,
    channels,
    ...(colourSlice ? { colour: colourSlice } : {}),
    maxPoints: read.maxPoints ?? TRACK_MAP_DEFAULT_POINTS,
  };
  const transferList = [...channels.map((c) => c.slice), ...(colourSlice ? [colourSlice.slice] : [])].flatMap(buffersOf);
  return (await parts.pool.run(task, { name: 'trackMap', transferList, signal })) as Uint8Array;
}

function copyOf(slice: StoredSlice): StoredSlice {
  return { ...slice, samples: slice.samples.slice(), ...(slice.times ? { times: slice.times.slice() } : {}), ...(slice.gaps ? { gaps: slice.gaps.slice() } : {}) } as StoredSlice;
}
