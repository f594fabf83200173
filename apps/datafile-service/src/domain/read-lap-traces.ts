import type { Piscina } from 'piscina';
import { channelFor, InvalidSliceError, resolveScope, toNanosecond, type StoredChannelCache } from '@pitwall/formats';
import type { LapDistanceSourceJson } from '@pitwall/contracts';
import { pickDistanceSource, type DistanceSource } from '@pitwall/laps';
import { AppError } from '@pitwall/service-kit';
import type { DatasetRef, OpenDataset } from './datasets';
import { buffersOf, ownedSlice, storedOfScope } from './read-channels';
import { samplesToDecode, withinSampleBudget } from './read-budget';
import type { LapSlice, LapTraceTask } from '../workers/lap-traces';

/** One lap of an opened dataset, as a lap trace read names it; `field` is the query parameter a bad index is reported on. */
export interface LapOf {
  ref: DatasetRef;
  dataset: OpenDataset;
  lapIndex: number;
  field: 'lapIndex' | 'referenceLapIndex';
}

type Parts = { cache: StoredChannelCache; pool: Piscina; sampleBudget: number };

/** The distance source of each opened file, picked once (opened files are kept by the dataset cache). */
const sources = new WeakMap<object, DistanceSource | null>();

function distanceSourceOf(file: OpenDataset['file']): DistanceSource | undefined {
  if (!sources.has(file)) sources.set(file, pickDistanceSource(file.channels) ?? null);
  return sources.get(file) ?? undefined;
}

/** A lap's lap-relative distance trace (`GET .../distance`), as the JSON body. */
export async function readLapDistance(lap: LapOf, maxPoints: number | undefined, parts: Parts, signal: AbortSignal): Promise<Uint8Array> {
  withinSampleBudget(lapSamples(lap), parts.sampleBudget, lap.field);
  const slice = await lapSlice(lap, parts.cache, signal);
  return run({ op: 'distance', lap: slice, ...(maxPoints !== undefined ? { maxPoints } : {}) }, [slice], parts.pool, signal);
}

/** The delta trace of a lap against a reference lap (`GET .../delta`), as the JSON body; both laps are checked before either is read. */
export async function readLapDelta(lap: LapOf, reference: LapOf, maxPoints: number | undefined, parts: Parts, signal: AbortSignal): Promise<Uint8Array> {
  lapWindow(lap);
  lapWindow(reference);
  withinSampleBudget(lapSamples(lap) + lapSamples(reference), parts.sampleBudget, lap.field);
  const a = await lapSlice(lap, parts.cache, signal);
  const b = await lapSlice(reference, parts.cache, signal);
  return run({ op: 'delta', lap: a, reference: b, ...(maxPoints !== undefined ? { maxPoints } : {}) }, [a, b], parts.pool, signal);
}

/** Samples reading the lap's distance source decodes (0 when it has none: that read is refused on its own). */
function lapSamples(lap: LapOf): number {
  const { file } = lap.dataset;
  const picked = distanceSourceOf(file);
  if (!picked) return 0;
  return samplesToDecode(file, channelFor(file, picked.channel), lapWindow(lap));
}

/**
 * The stored values of the lap's distance source inside the lap (from the channel cache or the file): a distance
 * channel when the dataset has one, else a speed channel to integrate; a 422 naming what is missing otherwise.
 */
async function lapSlice(lap: LapOf, cache: StoredChannelCache, signal: AbortSignal): Promise<LapSlice> {
  const window = lapWindow(lap);
  const { file } = lap.dataset;
  const picked = distanceSourceOf(file);
  if (!picked) {
    throw new AppError(
      422,
      `${lap.ref.type} ${lap.ref.id} dataset '${lap.ref.group}' has no distance channel (a name like 'Distance' or 'Lap Distance' in m or km) and no speed channel to integrate (a name like 'Ground Speed' or 'Speed' in km/h, kph, m/s, mph or knots)`,
    );
  }
  signal.throwIfAborted();
  const stored = await storedOfScope(lap.dataset, channelFor(file, picked.channel), window, cache);
  const lapInfo = file.laps[lap.lapIndex];
  const source: LapDistanceSourceJson = { kind: picked.kind, channel: picked.channel };
  return {
    ref: { entityId: lap.ref.id, entityType: lap.ref.type, attachedFileGroupName: lap.ref.group, lapIndex: lap.lapIndex, lapTime: toNanosecond(lapInfo.endTime - lapInfo.startTime) },
    lapStart: lapInfo.startTime,
    source,
    slice: ownedSlice(stored),
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

async function run(task: LapTraceTask, slices: LapSlice[], pool: Piscina, signal: AbortSignal): Promise<Uint8Array> {
  const transferList = slices.flatMap((s) => buffersOf(s.slice));
  return (await pool.run(task, { name: 'laps', transferList, signal })) as Uint8Array;
}
