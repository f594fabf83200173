import type { Piscina } from 'piscina';
import { compile, evaluationOrder } from '@pitwall/expressions';
import type { ChannelInfo, ScopeWindow, StoredChannelCache } from '@pitwall/formats';
import { pickDistanceSource } from '@pitwall/laps';
import { FieldRefusals } from '@pitwall/service-kit';
import type { OpenDataset } from './datasets';
import type { MathDefinition } from './math-definitions';
import { samplesToDecode } from './read-budget';
import { buffersOf, ownedSlice, storedOfScope } from './read-channels';
import type { MathTask } from '../workers/math-channels';
import type { StoredSlice } from '../workers/shape-channels';

/** The catalogue group math channels are listed in. */
export const MATH_GROUP = 'Math';

/** What a math channel of one file needs: its definitions in evaluation order (itself last), the logged channels they read. */
interface MathPlan {
  definition: MathDefinition;
  definitions: MathDefinition[];
  leaves: ChannelInfo[];
  lapTime: boolean;
  lapDistance: boolean;
}

/** A math channel as a read resolves it: a catalogue entry (as the catalogue lists it) and its plan. */
export type MathChannelInfo = ChannelInfo & { math: MathPlan };

/** The math channels a read names, resolved against one file; what the read of channels asks of them. */
export interface MathReads {
  /** The read's math channels by name (names the file's own catalogue does not have). */
  readonly infos: ReadonlyMap<string, MathChannelInfo>;
  /** Decoded samples one evaluation needs: every sample of its inputs the read decodes (the READ_SAMPLE_BUDGET counts them). */
  decodes(info: MathChannelInfo, window: ScopeWindow): number;
  /** Evaluates it over the window on the pool: a slice of physical values, shaped like a logged channel's. */
  slice(info: MathChannelInfo, window: ScopeWindow, signal: AbortSignal): Promise<StoredSlice>;
}

/**
 * Resolves the math channels among `names` (a logged channel of the file wins over a math channel of its name): each
 * one's definitions in order, and the logged channels they read. A math channel reading a channel the file does not
 * have (or one it cannot evaluate: text, bytes, arrays, undecodable) is a 422 naming the math channel and the channel;
 * so is a cycle (never stored: the entity-service refuses it on write). `fieldOf(i)` names where the read names it;
 * `lead` begins the 422's detail (a read over several datasets names the one that lacks the channel in it).
 */
export function resolveMathChannels(
  file: OpenDataset['file'],
  names: readonly string[],
  definitions: ReadonlyMap<string, MathDefinition>,
  fieldOf: (i: number) => string,
  lead = 'The data file could not be read: ',
): Map<string, MathChannelInfo> {
  const logged = new Map(file.channels.map((c) => [c.name, c]));
  const graph = graphOf(definitions, logged);
  const out = new Map<string, MathChannelInfo>();
  const refusals = new FieldRefusals();
  names.forEach((name, i) => {
    if (logged.has(name) || !graph.has(name) || out.has(name)) return;
    const planned = planOf(file, name, definitions, graph, logged);
    if (typeof planned === 'string') refusals.refuse(fieldOf(i), planned);
    else out.set(name, planned);
  });
  refusals.throwIfAny(422, lead);
  return out;
}

/** The catalogue entries of the account's math channels this file can evaluate (those reading a channel it lacks are left out). */
export function mathCatalogue(file: OpenDataset['file'], definitions: ReadonlyMap<string, MathDefinition>): (ChannelInfo & { group: string; expression: string })[] {
  const logged = new Map(file.channels.map((c) => [c.name, c]));
  const graph = graphOf(definitions, logged);
  const out: (ChannelInfo & { group: string; expression: string })[] = [];
  for (const name of graph.keys()) {
    const planned = planOf(file, name, definitions, graph, logged);
    if (typeof planned !== 'string') out.push({ ...withoutPlan(planned), group: MATH_GROUP, expression: planned.math.definition.expression });
  }
  return out;
}

/** The math channel reads of one read, over the dataset's file, its channel cache and the pool. */
export function mathReads(dataset: OpenDataset, infos: ReadonlyMap<string, MathChannelInfo>, parts: { cache: StoredChannelCache; pool: Piscina }): MathReads {
  const { file } = dataset;
  return {
    infos,
    decodes(info, window) {
      const source = info.math.lapDistance ? pickDistanceSource(file.channels) : undefined;
      const distance = source ? samplesToDecode(file, channelOf(file, source.channel), lapsWindow(file, window)) : 0;
      return info.math.leaves.reduce((n, leaf) => n + samplesToDecode(file, leaf, window), distance);
    },
    async slice(info, window, signal) {
      const plan = info.math;
      const inputs: StoredSlice[] = [];
      for (const leaf of plan.leaves) {
        signal.throwIfAborted();
        inputs.push(ownedSlice(await storedOfScope(dataset, leaf, window, parts.cache)));
      }
      const fileEnd = file.startTime + file.duration;
      const span = window.whole ? { start: file.startTime, end: fileEnd } : { start: window.start, end: Math.min(window.end, fileEnd) };
      const laps = plan.lapTime || plan.lapDistance ? (file.laps.length ? file.laps.map((l) => ({ start: l.startTime, end: l.endTime })) : [{ start: file.startTime, end: fileEnd }]) : undefined;
      let distance: MathTask['distance'];
      if (plan.lapDistance) {
        // planOf refused a file without a distance source, so the catalogue never lists one it cannot evaluate
        const source = pickDistanceSource(file.channels) as NonNullable<ReturnType<typeof pickDistanceSource>>;
        distance = { source: { kind: source.kind, channel: source.channel }, slice: ownedSlice(await storedOfScope(dataset, channelOf(file, source.channel), lapsWindow(file, window), parts.cache)) };
      }
      const task: MathTask = {
        name: info.name,
        unit: info.unit,
        definitions: plan.definitions.map((d) => ({ name: d.name, expression: d.expression })),
        inputs,
        ...(plan.definition.rate !== undefined ? { rate: plan.definition.rate } : {}),
        span,
        ...(laps ? { laps } : {}),
        ...(distance ? { distance } : {}),
      };
      const transferList = [...inputs, ...(distance ? [distance.slice] : [])].flatMap((s) => buffersOf(s));
      return (await parts.pool.run(task, { name: 'math', transferList, signal })) as StoredSlice;
    },
  };
}

/** What each definition reads, for the definitions a logged channel of the file does not shadow. */
function graphOf(definitions: ReadonlyMap<string, MathDefinition>, logged: ReadonlyMap<string, ChannelInfo>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const d of definitions.values()) {
    if (logged.has(d.name)) continue;
    try {
      graph.set(d.name, [...compile(d.expression, { inputs: 'any', math: true }).inputs]);
    } catch {
      graph.set(d.name, []); // checked on write; a stored one that no longer parses fails when it is evaluated
    }
  }
  return graph;
}

/** The plan of one math channel, or why this file cannot evaluate it. */
function planOf(file: OpenDataset['file'], name: string, definitions: ReadonlyMap<string, MathDefinition>, graph: Map<string, string[]>, logged: ReadonlyMap<string, ChannelInfo>): MathChannelInfo | string {
  let order: { definitions: string[]; leaves: string[] };
  try {
    order = evaluationOrder(graph, [name]);
  } catch (error) {
    return `math channel ${name}: ${(error as Error).message}`;
  }
  const leaves: ChannelInfo[] = [];
  for (const leaf of order.leaves) {
    const info = logged.get(leaf);
    if (!info) return `math channel ${name} reads ${leaf}, which this file does not have`;
    if (info.kind || info.dimension > 1 || info.unsupported) return `math channel ${name} reads ${leaf}, which is not a channel of one number a sample`;
    leaves.push(info);
  }
  const ordered = order.definitions.map((d) => definitions.get(d) as MathDefinition);
  const needs = { lapTime: false, lapDistance: false };
  for (const d of ordered) {
    try {
      const compiled = compile(d.expression, { inputs: 'any', math: true });
      needs.lapTime ||= compiled.needs.lapTime;
      needs.lapDistance ||= compiled.needs.lapDistance;
    } catch (error) {
      return `math channel ${d.name} does not parse: ${(error as Error).message}`;
    }
  }
  const definition = definitions.get(name) as MathDefinition;
  if (needs.lapDistance && !pickDistanceSource(file.channels)) {
    return `math channel ${name} reads lapDistance(), and the file has no distance channel (a name like 'Distance' in m or km) and no speed channel to integrate (a name like 'Speed' in km/h, m/s, mph or knots)`;
  }
  if (leaves.length === 0 && definition.rate === undefined && !needs.lapDistance) {
    return `math channel ${name} reads no channel: give it a Rate to be evaluated at`;
  }
  const fastest = leaves.reduce<ChannelInfo | undefined>((best, c) => (!best || c.frequency > best.frequency ? c : best), undefined);
  const frequency = definition.rate ?? fastest?.frequency ?? 0;
  const sampleCount = definition.rate !== undefined ? Math.floor(file.duration * definition.rate) + 1 : (fastest?.sampleCount ?? 0);
  return { name, unit: definition.unit, frequency, regular: definition.rate !== undefined || fastest?.regular !== false, sampleCount, dimension: 1, dataType: 'float64', math: { definition, definitions: ordered, leaves, ...needs } };
}

function withoutPlan(info: MathChannelInfo): ChannelInfo {
  const { math: _plan, ...entry } = info;
  return entry;
}

function channelOf(file: OpenDataset['file'], name: string): ChannelInfo {
  return file.channels.find((c) => c.name === name) as ChannelInfo;
}

/** The window widened back to the start of the lap it starts in, so lapDistance() counts from the lap's start. */
function lapsWindow(file: OpenDataset['file'], window: ScopeWindow): ScopeWindow {
  if (window.whole) return window;
  const lap = file.laps.find((l) => window.start >= l.startTime && window.start < l.endTime);
  return { whole: false, start: lap ? lap.startTime : file.startTime, end: window.end };
}
