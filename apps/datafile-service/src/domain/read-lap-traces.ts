import { ChannelSuggester } from '@pitwall/channels';
import type { TaskPool } from './fair-pool';
import { channelFor, InvalidSliceError, resolveScope, toNanosecond, type ChannelInfo, type StoredChannelCache } from '@pitwall/formats';
import type { LapDistanceSourceJson } from '@pitwall/contracts';
import { distanceSourceKind, metresPerLengthUnit, metresPerSecond, pickDistanceSource, type DistanceSource } from '@pitwall/laps';
import { AppError } from '@pitwall/service-kit';
import type { DatasetRef, OpenDataset } from './datasets';
import type { DatasetParams } from './dataset-constants';
import type { MathDefinition } from './math-definitions';
import { mathCatalogue, mathReads, paramsReadBy, resolveMathChannels, type MathChannelInfo, type MathReads } from './read-math-channels';
import { buffersOf, ownedSlice, storedOfScope } from './read-channels';
import { samplesToDecode, withinSampleBudget } from './read-budget';
import type { LapSlice, LapTraceTask, Stationary } from '../workers/lap-traces';
import type { StoredSlice } from '../workers/shape-channels';

/**
 * Where a lap's distance comes from, resolved against its file: a logged channel, or a math channel (evaluated over the
 * lap on the pool, then traced like a logged one). Undefined: the file has neither (the read is a 422).
 */
export type LapDistanceSource = LapDistanceSourceJson & { unit: string; logged?: ChannelInfo; math?: { info: MathChannelInfo; reads: MathReads } };

/** One lap of an opened dataset, as a lap trace read names it; `field` is the query parameter a bad index is reported on. */
export interface LapOf {
  ref: DatasetRef;
  dataset: OpenDataset;
  lapIndex: number;
  field: 'lapIndex' | 'referenceLapIndex';
  source: LapDistanceSource | undefined;
}

type Parts = { cache: StoredChannelCache; pool: TaskPool; sampleBudget: number };

/** The distance source each opened file's own channels give, picked once (opened files are kept by the dataset cache). */
const sources = new WeakMap<object, DistanceSource | null>();

function loggedDistanceSource(file: OpenDataset['file']): DistanceSource | undefined {
  if (!sources.has(file)) sources.set(file, pickDistanceSource(file.channels) ?? null);
  return sources.get(file) ?? undefined;
}

/** A dataset as a refusal names it. */
const datasetLabel = (ref: DatasetRef) => `${ref.type} ${ref.id} dataset '${ref.group}'`;

/**
 * The distance source of a lap trace read over one dataset. `named` (the `distanceChannel` parameter) is a logged
 * channel of the file or, when the file has none of that name, one of the account's math channels; it must be in a
 * distance unit (m, km; taken as it is) or a speed unit (integrated). Absent, the file's own distance or speed channel
 * is picked by name, and only when it has none are the account's math channels picked from the same way (so a read of
 * a file with a logged source never asks for the definitions), among those the metadata lists: one reading a param()
 * the dataset's owner chain lacks is passed over, as the metadata leaves it out (the chain asked for only when a
 * candidate reads one). An unknown name or unit is a 400 on `distanceChannel`;
 * a math channel the file cannot evaluate a 422 naming the channel and the dataset (so is one reading a param() the
 * dataset's owner chain does not hold: `params`).
 */
export async function lapDistanceSource(
  ref: DatasetRef,
  dataset: OpenDataset,
  named: string | undefined,
  definitions: (() => Promise<ReadonlyMap<string, MathDefinition>>) | undefined,
  parts: { cache: StoredChannelCache; pool: TaskPool },
  params: DatasetParams,
): Promise<LapDistanceSource | undefined> {
  const { file } = dataset;
  if (named === undefined) {
    const picked = loggedDistanceSource(file);
    if (picked) return { kind: picked.kind, channel: picked.channel, unit: picked.unit, logged: channelFor(file, picked.channel) };
    const defs = definitions ? await definitions() : undefined;
    const math = defs?.size ? pickDistanceSource(await params.held(mathCatalogue(file, defs, params.max).filter((entry) => distanceSourceKind(entry) !== undefined))) : undefined;
    return math && defs ? mathSource(ref, dataset, math.channel, defs, parts, params) : undefined;
  }
  const logged = file.channels.find((c) => c.name === named);
  if (logged) {
    if (logged.kind || logged.dimension > 1 || logged.unsupported) throw refusal(`${named} in ${datasetLabel(ref)} is not a channel of one number a sample`);
    return { kind: kindOf(named, logged.unit), channel: named, unit: logged.unit, logged };
  }
  const defs = definitions ? await definitions() : undefined;
  if (!defs?.has(named)) throw refusal(`channel not found in ${datasetLabel(ref)}: ${named}${new ChannelSuggester([...file.channels.map((c) => c.name), ...(defs?.keys() ?? [])]).hint(named)}`);
  return mathSource(ref, dataset, named, defs, parts, params);
}

async function mathSource(ref: DatasetRef, dataset: OpenDataset, name: string, definitions: ReadonlyMap<string, MathDefinition>, parts: { cache: StoredChannelCache; pool: TaskPool }, params: DatasetParams): Promise<LapDistanceSource> {
  const lead = `The data file could not be read: ${datasetLabel(ref)}: `;
  const infos = resolveMathChannels(dataset.file, [name], definitions, () => 'distanceChannel', lead, params.max);
  const info = infos.get(name) as MathChannelInfo;
  const constants = await params.valuesOf(paramsReadBy([name], infos), () => 'distanceChannel', lead);
  return { kind: kindOf(name, info.unit), channel: name, unit: info.unit, math: { info, reads: mathReads(dataset, infos, parts, constants) } };
}

/** A distance unit is taken as it is, a speed unit integrated; any other unit is no distance source. */
function kindOf(name: string, unit: string): LapDistanceSourceJson['kind'] {
  if (metresPerLengthUnit(unit) !== undefined) return 'channel';
  if (metresPerSecond(unit) !== undefined) return 'integrated';
  throw refusal(`${name} is in '${unit}', neither a distance (m, km) nor a speed (km/h, kph, m/s, mph, knots)`);
}

const refusal = (reason: string) => AppError.badRequest(`distanceChannel: ${reason}`, { distanceChannel: [reason] });

/** A lap's lap-relative distance trace (`GET .../distance`), as the JSON body. */
export async function readLapDistance(lap: LapOf, maxPoints: number | undefined, parts: Parts, signal: AbortSignal): Promise<Uint8Array> {
  withinSampleBudget(lapSamples(lap), parts.sampleBudget, lap.field);
  const slice = await lapSlice(lap, parts.cache, signal);
  // A distance read always answers its trace (Stationary is a delta's only).
  return (await run({ op: 'distance', lap: slice, ...(maxPoints !== undefined ? { maxPoints } : {}) }, [slice], parts.pool, signal)) as Uint8Array;
}

/** The delta trace of a lap against a reference lap (`GET .../delta`), as the JSON body; both laps are checked before either is read. */
export async function readLapDelta(lap: LapOf, reference: LapOf, maxPoints: number | undefined, parts: Parts, signal: AbortSignal): Promise<Uint8Array> {
  lapWindow(lap);
  lapWindow(reference);
  withinSampleBudget(lapSamples(lap) + lapSamples(reference), parts.sampleBudget, lap.field);
  const a = await lapSlice(lap, parts.cache, signal);
  const b = await lapSlice(reference, parts.cache, signal);
  const answer = await run({ op: 'delta', lap: a, reference: b, ...(maxPoints !== undefined ? { maxPoints } : {}) }, [a, b], parts.pool, signal);
  if (answer instanceof Uint8Array) return answer;
  const still = answer.stationary === 'lap' ? lap : reference;
  const source = still === lap ? a.source : b.source;
  const how = source.kind === 'integrated' ? `its speed channel ${source.channel} integrates to 0 m (the channel is 0 or empty throughout the lap)` : `its distance channel ${source.channel} stays at 0 m`;
  const why = `lap ${still.lapIndex} of ${datasetLabel(still.ref)} never moves on its distance source: ${how}, so it has no delta over distance; give another distanceChannel`;
  throw new AppError(422, why, { errors: { [still.field]: [why] } });
}

/** Samples reading the lap's distance source decodes, a math channel's inputs included (0 when it has none: that read is refused on its own). */
function lapSamples(lap: LapOf): number {
  const { source } = lap;
  if (source?.math) return source.math.reads.decodes(source.math.info, lapWindow(lap));
  return source?.logged ? samplesToDecode(lap.dataset.file, source.logged, lapWindow(lap)) : 0;
}

/**
 * The values of the lap's distance source inside the lap: a logged channel's stored values (from the channel cache or
 * the file), or a math channel evaluated over the lap on the pool; a 422 naming what is missing when there is none.
 */
async function lapSlice(lap: LapOf, cache: StoredChannelCache, signal: AbortSignal): Promise<LapSlice> {
  const window = lapWindow(lap);
  const { file } = lap.dataset;
  const picked = lap.source;
  if (!picked) {
    throw new AppError(
      422,
      `${lap.ref.type} ${lap.ref.id} dataset '${lap.ref.group}' has no distance channel (a name like 'Distance' or 'Lap Distance' in m or km) and no speed channel to integrate (a name like 'Ground Speed' or 'Speed' in km/h, kph, m/s, mph or knots)`,
    );
  }
  signal.throwIfAborted();
  const slice: StoredSlice = picked.math ? await picked.math.reads.slice(picked.math.info, window, signal) : ownedSlice(await storedOfScope(lap.dataset, picked.logged as ChannelInfo, window, cache));
  const lapInfo = file.laps[lap.lapIndex];
  const source: LapDistanceSourceJson = { kind: picked.kind, channel: picked.channel };
  return {
    ref: { entityId: lap.ref.id, entityType: lap.ref.type, attachedFileGroupName: lap.ref.group, lapIndex: lap.lapIndex, lapTime: toNanosecond(lapInfo.endTime - lapInfo.startTime) },
    lapStart: lapInfo.startTime,
    source,
    slice,
  };
}

/** The lap's window; an index outside the dataset's laps is a 400 on the parameter that named it. */
function lapWindow(lap: LapOf): ReturnType<typeof resolveScope> {
  try {
    return resolveScope({ mode: 'lap', lapIndex: lap.lapIndex }, lap.dataset.file);
  } catch (err) {
    if (err instanceof InvalidSliceError) throw AppError.badRequest(`${lap.field}: ${err.message}`, { [lap.field]: [err.message] });
    throw err;
  }
}

async function run(task: LapTraceTask, slices: LapSlice[], pool: TaskPool, signal: AbortSignal): Promise<Uint8Array | Stationary> {
  const transferList = slices.flatMap((s) => buffersOf(s.slice));
  return (await pool.run(task, { name: 'laps', transferList, signal })) as Uint8Array | Stationary;
}
