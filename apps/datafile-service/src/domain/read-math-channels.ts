import { ChannelSuggester } from '@pitwall/channels';
import type { TaskPool } from './fair-pool';
import { DEFAULT_MAX_MATH_PARAMS, definitionReaches, evaluationOrder, mathReadsOf, ownParamNames, ParamNamesBuilder, reachesNothing, type DependencyGraph, type MathReads as CompiledReads, type ParamNames, type Reach } from '@pitwall/expressions';
import type { ChannelInfo, ScopeWindow, StoredChannel, StoredChannelCache } from '@pitwall/formats';
import { pickDistanceSource } from '@pitwall/laps';
import { FieldRefusals } from '@pitwall/service-kit';
import type { OpenDataset } from './datasets';
import { NO_CONSTANTS, parameterUses, type Constants, type ParameterUse, type ParamValue } from './dataset-constants';
import type { MathDefinition } from './math-definitions';
import { OPERATIONS_PER_ARRAY, samplesToDecode } from './read-budget';
import { isMathChannel } from './math-lookup';
import { buffersOf, catalogueAxis, channelAxis, ownedSlice, storedOfScope, storedRange, type ChannelAxis } from './read-channels';
import { baseContext, distanceRange, inputRange, type BaseContext, type BaseOf } from './math-context';
import { fastestOf, rateGridLength, rateGridLengthBefore, type MathTask } from '../workers/math-channels';
import type { StoredSlice } from '../workers/shape-channels';

/**
 * A definition's reads (what it reads, needs and costs), compiled once per definition object: the objects live as long
 * as their account's cached definitions (MathDefinitions), so each account's are compiled once per listing whatever
 * the other accounts' reads do. Through mathReadsOf alone (one LRU of 4,096 expressions per process), five accounts of
 * a thousand definitions each, read in turn, compiled a thousand on every read: about a second of the event loop each.
 */
const compiledReads = new WeakMap<MathDefinition, CompiledReads>();

function readsOf(d: MathDefinition): CompiledReads {
  let reads = compiledReads.get(d);
  if (!reads) compiledReads.set(d, (reads = mathReadsOf(d.expression)));
  return reads;
}

/** The catalogue group math channels are listed in. */
export const MATH_GROUP = 'Math';

/**
 * What a math channel of one file needs: its definition, the logged channels it reads through the others, what it needs
 * of the laps. Each plan holds only its own (a chain's plans share their leaves); the definitions a set of them needs,
 * in order, are asked of `order` once for the set (a list per plan was quadratic in a chain: 1.1 s for 3,000).
 */
interface MathPlan {
  definition: MathDefinition;
  leaves: readonly ChannelInfo[];
  lapTime: boolean;
  lapDistance: boolean;
  lapNumber: boolean;
  /** The parameters it reads with param("Name"), through the definitions it reads (each once; at most MAX_MATH_PARAMS). */
  params: ReadonlySet<string>;
  /** Shared by the plans of one resolution. */
  order: MathOrder;
}

/** The definitions some math channels of one resolution need, each once, each after those it reads (the channels included). */
export interface MathOrder {
  definitionsOf(names: readonly string[]): MathDefinition[];
}

/** A math channel as a read resolves it: a catalogue entry (as the catalogue lists it) and its plan. */
export type MathChannelInfo = ChannelInfo & { math: MathPlan };

/** The math channels a read names, resolved against one file; what the read of channels asks of them. */
export interface MathReads {
  /** The read's math channels by name (names the file's own catalogue does not have). */
  readonly infos: ReadonlyMap<string, MathChannelInfo>;
  /** The values of the parameters they read (param("Name")), looked up on the dataset's owner chain. */
  readonly constants: Constants;
  /** Decoded samples one evaluation needs: every sample of its inputs the read decodes (the READ_SAMPLE_BUDGET counts them). */
  decodes(info: MathChannelInfo, window: ScopeWindow): number;
  /** Evaluates it over the window on the pool: a slice of physical values, shaped like a logged channel's. */
  slice(info: MathChannelInfo, window: ScopeWindow, signal: AbortSignal): Promise<StoredSlice>;
  /**
   * Evaluates several (distinct names) over the window: one pool task per time base, each definition and input of a
   * base once (timeBaseGroups); a slice each, in their order.
   */
  slices(infos: readonly MathChannelInfo[], window: ScopeWindow, signal: AbortSignal): Promise<StoredSlice[]>;
  /**
   * The pool tasks that evaluate several (distinct names) over the window, one per time base, to be run in a read's
   * shaping task (ShapeWithMathTask): the tasks (their inputs copied out of the channel cache, `transferList` their
   * buffers) and where each channel's slice is among their results, in the channels' order.
   */
  tasks(infos: readonly MathChannelInfo[], window: ScopeWindow, signal: AbortSignal): Promise<{ tasks: MathTask[]; transferList: ArrayBuffer[]; at: { task: number; index: number }[] }>;
}

/**
 * Every definition a read's math channels evaluate (through one another), each once, in evaluation order: what their
 * answer depends on beyond the file (the read's result cache key).
 */
export function mathDefinitionsOf(math: MathReads): MathDefinition[] {
  const infos = [...math.infos.values()];
  // The channels of one read share one resolution's order.
  return infos[0] ? infos[0].math.order.definitionsOf(infos.map((info) => info.name)) : [];
}

/**
 * What a read's math channels' answer depends on beyond the file and the read (its result cache key, and so the tag the
 * gateway holds it by): every definition they evaluate and, when they read param(), each parameter's value as found and
 * the entity it was found on (the answer says both): a changed value, or the same value now taken from another entity,
 * is another key, so nothing kept from the former one is answered again.
 */
export function mathDependenciesOf(math: MathReads): unknown[] {
  const definitions: unknown[] = mathDefinitionsOf(math);
  return math.constants.size ? [...definitions, { params: [...math.constants].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) }] : definitions;
}

/**
 * What a read's answer says a math channel used of the parameters (docs/math-channels.md "Which values a read used"):
 * each it reads, through the definitions it reads, with the value taken and its entity; none for a channel reading none.
 */
export function parametersUsedBy(info: MathChannelInfo, constants: Constants): ParameterUse[] {
  return info.math.params.size ? parameterUses(info.math.params, (name) => constants.get(name)) : [];
}

/** What each of `names` reads of the parameters (param("Name")), for the math channels among them (undefined for the others). */
export function paramsReadBy(names: readonly string[], infos: ReadonlyMap<string, MathChannelInfo>): ({ name: string; params: ReadonlySet<string> } | undefined)[] {
  return names.map((name) => {
    const info = infos.get(name);
    return info ? { name, params: info.math.params } : undefined;
  });
}

/**
 * Resolves the math channels among `names` (a logged channel of the file wins over a math channel of its name): each
 * one's plan, in one walk over the definitions they reach (each looked at once, as `mathCatalogue`). A math channel reading a channel the file does not
 * have (or one it cannot evaluate: text, bytes, arrays, undecodable) is a 422 naming the math channel and the channel;
 * so is a cycle (never stored: the entity-service refuses it on write). `fieldOf(i)` names where the read names it;
 * `lead` begins the 422's detail (a read over several datasets names the one that lacks the channel in it). One reading
 * more than `maxParams` distinct parameters through the definitions it reads is a 422 naming MAX_MATH_PARAMS.
 */
export function resolveMathChannels(
  file: OpenDataset['file'],
  names: readonly string[],
  definitions: ReadonlyMap<string, MathDefinition>,
  fieldOf: (i: number) => string,
  lead = 'The data file could not be read: ',
  maxParams = DEFAULT_MAX_MATH_PARAMS,
): Map<string, MathChannelInfo> {
  const plans = plansOf(file, definitions, names, maxParams);
  const out = new Map<string, MathChannelInfo>();
  const refusals = new FieldRefusals();
  // One suggester for the read's refusals (its work bounded across them all).
  let suggest: ChannelSuggester | undefined;
  names.forEach((name, i) => {
    const planned = plans.get(name);
    if (planned === undefined || out.has(name)) return;
    if (!('refused' in planned)) {
      out.set(name, planned);
      return;
    }
    if (planned.missing === undefined) refusals.refuse(fieldOf(i), planned.refused);
    else {
      suggest ??= new ChannelSuggester(file.channels.map((c) => c.name));
      refusals.refuse(fieldOf(i), planned.refused + suggest.hint(planned.missing));
    }
  });
  refusals.throwIfAny(422, lead);
  return out;
}

/**
 * Why a file cannot evaluate a math channel; `missing`: the channel it reads that the file lacks (a read's refusal adds
 * its "did you mean"; the catalogue, which plans every definition of the account and throws the reasons away, does not).
 */
interface PlanRefusal {
  refused: string;
  missing?: string;
}

/**
 * The plan of each of `names` that is a math channel of this file (a logged channel of the file wins over a math
 * channel of its name), or why the file cannot evaluate it: one walk over the definitions they reach, each looked at
 * once. The reads and the catalogue both take their plans from here, so the catalogue lists exactly what a read
 * resolves.
 */
function plansOf(file: OpenDataset['file'], definitions: ReadonlyMap<string, MathDefinition>, names: readonly string[], maxParams: number): Map<string, MathChannelInfo | PlanRefusal> {
  const logged = new Map(file.channels.map((c) => [c.name, c]));
  const { graph, compiled } = graphOf(definitions, logged, maxParams);
  const requested = names.filter((name) => !logged.has(name) && graph.has(name));
  const walked = walkOf(graph, compiled, logged, requested, maxParams);
  const order: MathOrder = { definitionsOf: (roots) => evaluationOrder(graph, roots).definitions.map((d) => definitions.get(d) as MathDefinition) };
  let distanceSource: boolean | undefined;
  const hasDistanceSource = () => (distanceSource ??= pickDistanceSource(file.channels) !== undefined);
  const plans = new Map<string, MathChannelInfo | PlanRefusal>();
  for (const name of requested) {
    if (!plans.has(name)) plans.set(name, planOf(file, name, definitions.get(name) as MathDefinition, walked.get(name) as Walked, { graph, compiled, order, hasDistanceSource, maxParams }));
  }
  return plans;
}

/**
 * A math channel's catalogue entry: a logged channel's fields, its group and expression, and its DecimalPlaces if any;
 * `params`, the parameters it reads (through others) when it reads some (the metadata lists it only when the dataset's
 * owner chain holds each).
 */
export type MathCatalogueEntry = ChannelInfo & { group: string; expression: string; decimalPlaces?: number; params?: ReadonlySet<string> };

/**
 * The catalogue entries of the account's math channels this file can evaluate: those a read of them resolves (one
 * reading more than `maxParams` distinct parameters is left out).
 */
export function mathCatalogue(file: OpenDataset['file'], definitions: ReadonlyMap<string, MathDefinition>, maxParams = DEFAULT_MAX_MATH_PARAMS): MathCatalogueEntry[] {
  const out: MathCatalogueEntry[] = [];
  for (const planned of plansOf(file, definitions, [...definitions.keys()], maxParams).values()) {
    if ('refused' in planned) continue;
    const { math, ...entry } = planned;
    const { expression, decimalPlaces } = math.definition;
    out.push({ ...entry, group: MATH_GROUP, expression, ...(decimalPlaces !== undefined ? { decimalPlaces } : {}), ...(math.params.size ? { params: math.params } : {}) });
  }
  return out;
}

/** A logged channel a math channel can read: one number a sample, decodable. */
function evaluableLeaf(info: ChannelInfo): boolean {
  return !info.kind && info.dimension <= 1 && !info.unsupported;
}

/**
 * The math channel reads of one read, over the dataset's file, its channel cache and the pool; `constants`, the values
 * of the parameters they read (resolveConstants), folded where each definition reads them.
 */
export function mathReads(dataset: OpenDataset, infos: ReadonlyMap<string, MathChannelInfo>, parts: { cache: StoredChannelCache; pool: TaskPool }, constants: Constants = NO_CONSTANTS): MathReads {
  const { file } = dataset;
  const fileEnd = file.startTime + file.duration;
  // Each lap with its index as the lap reads number them (lapNumber()), whatever laps of the file a task is sent.
  const allLaps = file.laps.length ? file.laps.map((l, index) => ({ start: l.startTime, end: l.endTime, index })) : [{ start: file.startTime, end: fileEnd, index: 0 }];
  /**
   * The laps a task over `span` needs (lapTime(), lapDistance(), lapNumber()): those reaching into it, found by binary
   * search, so that a read evaluating lap by lap sends each task its own lap, not every lap of the file.
   */
  const lapsOver = (span: { start: number; end: number }) =>
    allLaps.slice(
      firstWhere(allLaps.length, (i) => (allLaps[i] as { end: number }).end > span.start),
      firstWhere(allLaps.length, (i) => (allLaps[i] as { start: number }).start > span.end),
    );
  /** The stored inputs of `channels` read (each range once), their time bases and contexts grouped, and how a base's task is made. */
  const prepare = async (channels: readonly MathChannelInfo[], window: ScopeWindow, signal: AbortSignal): Promise<{ groups: TimeBaseGroup[]; taskOf: (group: TimeBaseGroup) => MathTask }> => {
    // Where each input's samples are: a regular .ld channel's from its catalogue entry, others' from the channel read
    // whole (as a read of them reads them).
    const axes = new Map<string, ChannelAxis>();
    for (const info of channels) {
      for (const leaf of info.math.leaves) {
        if (axes.has(leaf.name)) continue;
        signal.throwIfAborted();
        axes.set(leaf.name, await channelAxis(dataset, leaf, parts.cache));
      }
    }
    const axisOf = (leaf: ChannelInfo) => axes.get(leaf.name) as ChannelAxis;
    // Each channel's context: its time base widened by what its time functions read beyond the window.
    const reaches = reachesOf(channels);
    const contexts = new Map(channels.map((info) => [info.name, baseContext(file, baseOf(info.math), reaches.get(info.name) as Reach, window, axisOf)]));
    const groups = timeBaseGroups(channels, (info) => contexts.get(info.name) as BaseContext);
    // The read's half-open window clipped to the file's span, as a logged channel's samples: a Rate's grid runs over it
    // when its channel reads no channel.
    const span = scopeSpan(file, window);
    // Each range of an input (and of the distance source) is read once, whatever number of channels and bases read it.
    const stored = new Map<string, StoredChannel>();
    const read = async (leaf: ChannelInfo, range: { from: number; to: number }): Promise<string> => {
      const key = `${leaf.name}\u0000${range.from}:${range.to}`;
      if (!stored.has(key)) {
        signal.throwIfAborted();
        stored.set(key, await storedRange(dataset, leaf, range.from, range.to, parts.cache));
      }
      return key;
    };
    const source = channels.some((info) => info.math.lapDistance) ? pickDistanceSource(file.channels) : undefined;
    const sourceInfo = source ? channelOf(file, source.channel) : undefined;
    const sourceAxis = sourceInfo ? await channelAxis(dataset, sourceInfo, parts.cache) : undefined;
    const prepared = new Map<TimeBaseGroup, { inputs: string[]; laps: { start: number; end: number; index: number }[]; distance?: { key: string; laps: { from: number; to: number }[] } }>();
    for (const group of groups) {
      const { context } = group;
      const baseAxis = context.baseInput !== undefined ? axes.get(context.baseInput) : undefined;
      const inputs: string[] = [];
      for (const leaf of group.leaves) inputs.push(await read(leaf, inputRange(leaf, axisOf(leaf), context, window, baseAxis)));
      const laps = context.first !== undefined && context.last !== undefined ? lapsOver({ start: context.first, end: context.last }) : lapsOver(span);
      let distance: { key: string; laps: { from: number; to: number }[] } | undefined;
      if (source && sourceInfo && sourceAxis && group.channels.some((info) => info.math.lapDistance)) {
        // planOf refused a file without a distance source, so the catalogue never lists one it cannot evaluate
        const range = context.last !== undefined ? distanceRange(sourceAxis, laps, source.kind, context.last) : { from: 0, to: 0, laps: laps.map(() => ({ from: 0, to: 0 })) };
        distance = { key: await read(sourceInfo, range), laps: range.laps };
      }
      prepared.set(group, { inputs, laps, ...(distance ? { distance } : {}) });
    }
    // A base's task (and its copies of the inputs) is made when it is sent, not before.
    const taskOf = (group: TimeBaseGroup): MathTask => {
      const plans = group.channels.map((info) => info.math);
      const lapDistance = plans.some((p) => p.lapDistance);
      const { inputs, laps, distance } = prepared.get(group) as NonNullable<ReturnType<typeof prepared.get>>;
      const { context } = group;
      // The names the group's definitions read, each once: no more than the read's (at most MAX_MATH_PARAMS).
      const names = new Set<string>();
      for (const d of group.definitions) for (const name of readsOf(d).params) names.add(name);
      const params = [...names].map((name): [string, number] => [name, (constants.get(name) as ParamValue).value]);
      return {
        channels: group.channels.map((info) => ({ name: info.name, unit: info.unit })),
        definitions: group.definitions.map((d) => ({ name: d.name, expression: d.expression, ...(d.decimalPlaces !== undefined ? { decimalPlaces: d.decimalPlaces } : {}) })),
        ...(params.length ? { params } : {}),
        inputs: inputs.map((key) => ownedSlice(stored.get(key) as StoredChannel)),
        ...(group.rate !== undefined ? { rate: group.rate } : {}),
        ...(group.baseInput !== undefined ? { baseInput: group.baseInput } : {}),
        ...(context.grid ? { grid: context.grid } : {}),
        ...(context.keep ? { keep: context.keep } : {}),
        ...(context.origin ? { origin: context.origin } : {}),
        span,
        ...(lapDistance || plans.some((p) => p.lapTime || p.lapNumber) ? { laps } : {}),
        ...(lapDistance && source && distance ? { distance: { source: { kind: source.kind, channel: source.channel }, slice: ownedSlice(stored.get(distance.key) as StoredChannel), laps: distance.laps } } : {}),
      };
    };
    return { groups, taskOf };
  };
  const reads: MathReads = {
    infos,
    constants,
    decodes(info, window) {
      return samplesCounted(dataset, info, window, lapsOver);
    },
    async slice(info, window, signal) {
      return (await reads.slices([info], window, signal))[0] as StoredSlice;
    },
    async slices(channels, window, signal) {
      const { groups, taskOf } = await prepare(channels, window, signal);
      // The bases are independent: MATH_TASKS_PER_READ of their tasks at a time run side by side on the pool (one read
      // of many bases does not take every thread while other reads wait); the first to fail stops the others.
      const stop = new AbortController();
      const either = AbortSignal.any([signal, stop.signal]);
      const results: StoredSlice[][] = [];
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < groups.length) {
          const g = next++;
          either.throwIfAborted();
          const task = taskOf(groups[g] as TimeBaseGroup);
          try {
            results[g] = (await parts.pool.run(task, { name: 'math', transferList: transfersOf(task), signal: either })) as StoredSlice[];
          } catch (error) {
            stop.abort(error);
            throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(MATH_TASKS_PER_READ, groups.length) }, lane));
      const byName = new Map<string, StoredSlice>();
      results.forEach((slices, g) => (groups[g] as TimeBaseGroup).channels.forEach((info, i) => byName.set(info.name, slices[i] as StoredSlice)));
      return channels.map((info) => byName.get(info.name) as StoredSlice);
    },
    async tasks(channels, window, signal) {
      const { groups, taskOf } = await prepare(channels, window, signal);
      const tasks = groups.map(taskOf);
      const where = new Map<string, { task: number; index: number }>();
      groups.forEach((group, task) => group.channels.forEach((info, index) => where.set(info.name, { task, index })));
      return { tasks, transferList: tasks.flatMap(transfersOf), at: channels.map((info) => where.get(info.name) as { task: number; index: number }) };
    },
  };
  return reads;
}

/** A channel's time base: its Rate's grid, or the samples of the first of the fastest inputs it reads. */
export function baseOf(plan: MathPlan): BaseOf {
  const rate = plan.definition.rate;
  const baseLeaf = rate === undefined ? fastestOf(plan.leaves) : undefined;
  return { ...(rate !== undefined ? { rate } : {}), leaves: plan.leaves, ...(baseLeaf ? { baseLeaf } : {}) };
}

/**
 * The reach of each of `channels` (what its time functions read beyond each time, through every definition it reads),
 * from one walk over the definitions they need (the channels of a read share one resolution's order).
 */
function reachesOf(channels: readonly MathChannelInfo[]): Map<string, Reach> {
  const first = channels[0];
  if (!first) return new Map();
  const definitions = first.math.order.definitionsOf(channels.map((info) => info.name));
  // Compiled once per definition (readsOf): no definition is compiled here.
  return definitionReaches(definitions.map((d) => ({ name: d.name, reach: readsOf(d).reach })));
}

/** The buffers a math task's inputs move to the pool with. */
function transfersOf(task: MathTask): ArrayBuffer[] {
  return [...task.inputs, ...(task.distance ? [task.distance.slice] : [])].flatMap((s) => buffersOf(s));
}

/** The most pool tasks one read's math channels run at a time (one per time base). */
export const MATH_TASKS_PER_READ = 2;

/** Math channels of one read evaluated together: those on one time base and context, with every definition and input they need, each once. */
export interface TimeBaseGroup {
  channels: MathChannelInfo[];
  /** The definitions of all of them, each once, each after those it reads. */
  definitions: MathDefinition[];
  /** The logged channels all of them read, each once. */
  leaves: ChannelInfo[];
  rate?: number;
  /** Without a Rate: the logged channel whose sample times are the base. */
  baseInput?: string;
  /** The base and the context they are evaluated over (the same for each of them). */
  context: BaseContext;
}

/**
 * The read's math channels grouped by time base and context, in the order each is first met: two channels are
 * evaluated together when `contextOf` gives both the same key (the same Rate's points, or the same input's samples, over
 * the same context: docs/math-channels.md). A definition's values depend only on the base and what it reads, so within
 * a group each is evaluated once, and each channel's numbers are those of reading it alone.
 */
export function timeBaseGroups(channels: readonly MathChannelInfo[], contextOf: (info: MathChannelInfo) => BaseContext): TimeBaseGroup[] {
  const groups = new Map<string, Omit<TimeBaseGroup, 'definitions'> & { read: Set<string> }>();
  for (const info of channels) {
    const plan = info.math;
    const context = contextOf(info);
    let group = groups.get(context.key);
    if (!group) {
      group = { channels: [], leaves: [], ...(context.rate !== undefined ? { rate: context.rate } : {}), ...(context.baseInput !== undefined ? { baseInput: context.baseInput } : {}), context, read: new Set() };
      groups.set(context.key, group);
    }
    group.channels.push(info);
    for (const leaf of plan.leaves) {
      if (group.read.has(leaf.name)) continue;
      group.read.add(leaf.name);
      group.leaves.push(leaf);
    }
  }
  // The definitions of a group in one walk over them all (the channels of a read share one resolution's order).
  return [...groups.values()].map(({ read: _read, ...group }) => ({ ...group, definitions: (group.channels[0] as MathChannelInfo).math.order.definitionsOf(group.channels.map((info) => info.name)) }));
}

/** A definition compiled once per resolution: what it reads, what it needs of the laps, or why it does not parse. */
interface Compiled {
  lapTime: boolean;
  lapDistance: boolean;
  lapNumber: boolean;
  /** The parameters it reads itself (null: more than MAX_MATH_PARAMS). */
  params: ParamNames;
  error?: string;
}

/** What each definition reads, for the definitions a logged channel of the file does not shadow; each compiled once. */
function graphOf(definitions: ReadonlyMap<string, MathDefinition>, logged: ReadonlyMap<string, ChannelInfo>, maxParams: number): { graph: Map<string, string[]>; compiled: Map<string, Compiled> } {
  const graph = new Map<string, string[]>();
  const compiled = new Map<string, Compiled>();
  for (const d of definitions.values()) {
    if (logged.has(d.name)) continue;
    // Compiled once per definition (readsOf) and per expression text (mathReadsOf): a stored one that no longer parses
    // (checked on write) reads nothing and fails when it is evaluated.
    const reads = readsOf(d);
    graph.set(d.name, [...reads.inputs]);
    compiled.set(d.name, { lapTime: reads.needs.lapTime, lapDistance: reads.needs.lapDistance, lapNumber: reads.needs.lapNumber, params: ownParamNames(reads.params, maxParams), ...(reads.error !== undefined ? { error: reads.error } : {}) });
  }
  return { graph, compiled };
}

/**
 * The plan of one math channel from what the walk found of it, or why this file cannot evaluate it: as an ordered walk
 * from it alone would find it, a cycle first, then the first channel it reads (in reading order) the file lacks or
 * cannot evaluate, then the first definition (in evaluation order) that does not parse.
 */
function planOf(
  file: OpenDataset['file'],
  name: string,
  definition: MathDefinition,
  walked: Walked,
  resolution: { graph: DependencyGraph; compiled: ReadonlyMap<string, Compiled>; order: MathOrder; hasDistanceSource: () => boolean; maxParams: number },
): MathChannelInfo | PlanRefusal {
  if (walked.cycle) {
    // Never stored (the entity-service refuses a cycle on write, serialised): named as the walk from this channel meets it.
    try {
      evaluationOrder(resolution.graph, [name]);
    } catch (error) {
      return { refused: `math channel ${name}: ${(error as Error).message}` };
    }
  }
  if (walked.badLeaf) {
    const { leaf, missing } = walked.badLeaf;
    return missing ? { refused: `math channel ${name} reads ${leaf}, which this file does not have`, missing: leaf } : { refused: `math channel ${name} reads ${leaf}, which is not a channel of one number a sample` };
  }
  if (walked.unparsed !== undefined) return { refused: `math channel ${walked.unparsed} does not parse: ${(resolution.compiled.get(walked.unparsed) as Compiled).error}` };
  if (walked.lapDistance && !resolution.hasDistanceSource()) {
    return { refused: `math channel ${name} reads lapDistance(), and the file has no distance channel (a name like 'Distance' in m or km) and no speed channel to integrate (a name like 'Speed' in km/h, m/s, mph or knots)` };
  }
  const { leafList, stats, lapTime, lapDistance, lapNumber, params } = walked;
  if (params === null) {
    return { refused: `math channel ${name} reads more than ${resolution.maxParams} distinct parameters with param(), through the definitions it reads (MAX_MATH_PARAMS is ${resolution.maxParams})` };
  }
  // lapDistance() is no time base: the distance source is resampled onto the base, which a logged input or the Rate sets.
  if (!stats.any && definition.rate === undefined) {
    return { refused: `math channel ${name} reads no channel: give it a Rate to be evaluated at` };
  }
  // The leaves in order are listed when a read asks for them, not for every plan of the catalogue (a chain of a
  // thousand definitions, each adding one of thousands of inputs, copied the list at each: seconds on the event loop).
  let leaves: readonly ChannelInfo[] | undefined;
  const math = {
    definition,
    get leaves(): readonly ChannelInfo[] {
      return (leaves ??= leafList.listed());
    },
    lapTime,
    lapDistance,
    lapNumber,
    params,
    order: resolution.order,
  };
  return { ...entryOf(file, name, definition, stats), math };
}

/**
 * What a definition reaches through the others, gathered once per definition: whether it reaches a cycle, the first
 * channel it reads (in the order a walk from it meets them) the file lacks or cannot evaluate, the first definition
 * (in evaluation order) that does not parse, what it needs of the laps, and the logged channels it reads in that order
 * (shared with the definition it reads while that adds none).
 */
interface Walked {
  cycle: boolean;
  badLeaf?: { leaf: string; missing: boolean };
  unparsed?: string;
  lapTime: boolean;
  lapDistance: boolean;
  lapNumber: boolean;
  /** The parameters it reads with param(), its own and those of the definitions it reads, each once; null: more than MAX_MATH_PARAMS. */
  params: ParamNames;
  /** The logged channels it reads, in the order a walk from it meets them, listed on demand. */
  leafList: LeafList;
  /** What its catalogue entry needs of them, gathered as they are merged. */
  stats: LeafStats;
}

/**
 * The logged channels a definition reads, as its walk met them: a channel it reads itself, or the list of a definition
 * it reads, in reading order. Merging one costs one entry, however many channels it holds: a copy per definition was
 * O(definitions × channels) along a chain, 3 to 5 s for the metadata of a thousand definitions over 19,700 columns.
 * `listed` gives each channel once, where the walk from the definition meets it first, each list expanded once.
 */
class LeafList {
  private readonly items: (ChannelInfo | LeafList)[] = [];

  add(item: ChannelInfo | LeafList): void {
    this.items.push(item);
  }

  listed(): ChannelInfo[] {
    const out: ChannelInfo[] = [];
    const seen = new Set<string>();
    // A list met again was expanded whole already (definitions form no cycle): all its channels are seen.
    const expanded = new Set<LeafList>([this]);
    const stack: { list: LeafList; next: number }[] = [{ list: this, next: 0 }];
    while (stack.length) {
      const top = stack[stack.length - 1] as { list: LeafList; next: number };
      if (top.next === top.list.items.length) {
        stack.pop();
        continue;
      }
      const item = top.list.items[top.next++] as ChannelInfo | LeafList;
      if (item instanceof LeafList) {
        if (!expanded.has(item)) {
          expanded.add(item);
          stack.push({ list: item, next: 0 });
        }
      } else if (!seen.has(item.name)) {
        seen.add(item.name);
        out.push(item);
      }
    }
    return out;
  }
}

/** What a catalogue entry needs of the leaves, merged without listing them (a channel met twice changes none of it). */
interface LeafStats {
  any: boolean;
  /** The first (in walk order) of the fastest: the time base without a Rate. */
  fastest?: ChannelInfo;
  /** Of those with samples: any, whether each is regular at a positive rate, and the latest last sample's time. */
  sampled: boolean;
  sampledRegular: boolean;
  lastSampleTime: number;
}

const NO_STATS: LeafStats = { any: false, sampled: false, sampledRegular: true, lastSampleTime: -Infinity };

function mergeStats(into: LeafStats, from: LeafStats): LeafStats {
  if (!from.any) return into;
  return {
    any: true,
    // Another's fastest replaces this one only when faster, as fastestOf over the listed leaves picks the first.
    ...(from.fastest && (!into.fastest || from.fastest.frequency > into.fastest.frequency) ? { fastest: from.fastest } : into.fastest ? { fastest: into.fastest } : {}),
    sampled: into.sampled || from.sampled,
    sampledRegular: into.sampledRegular && from.sampledRegular,
    lastSampleTime: Math.max(into.lastSampleTime, from.lastSampleTime),
  };
}

function statsOf(leaf: ChannelInfo): LeafStats {
  const sampled = leaf.sampleCount > 0;
  const regular = leaf.regular && leaf.frequency > 0;
  return { any: true, fastest: leaf, sampled, sampledRegular: !sampled || regular, lastSampleTime: sampled && regular ? (leaf.sampleCount - 1) / leaf.frequency : -Infinity };
}

/**
 * A definition's Walked under construction: its parameters are gathered bounded (ParamNamesBuilder: merging one costs
 * at most MAX_MATH_PARAMS names, a list per definition was quadratic along a chain: 153 s for a thousand definitions of
 * 273 names each), and so are its leaves (LeafList, LeafStats).
 */
type Walking = Omit<Walked, 'params'> & { params: ParamNamesBuilder };

function walkingOf(compiled: Compiled, maxParams: number): Walking {
  return { cycle: false, lapTime: compiled.lapTime, lapDistance: compiled.lapDistance, lapNumber: compiled.lapNumber, params: new ParamNamesBuilder(compiled.params, maxParams), leafList: new LeafList(), stats: NO_STATS };
}

function mergeWalked(into: Walking, from: Walked): void {
  if (from.cycle) {
    into.cycle = true;
    return;
  }
  into.badLeaf ??= from.badLeaf;
  into.unparsed ??= from.unparsed;
  into.lapTime ||= from.lapTime;
  into.lapDistance ||= from.lapDistance;
  into.lapNumber ||= from.lapNumber;
  into.params.add(from.params);
  if (!into.badLeaf && from.stats.any) {
    into.leafList.add(from.leafList);
    into.stats = mergeStats(into.stats, from.stats);
  }
}

/**
 * The Walked of `roots` and of every definition they reach, in one depth-first walk with a stack of its own (definitions
 * may chain thousands deep), each definition looked at once and its result kept for the others that read it. The first
 * problem of each kind a definition reaches is the first of the first of those it reads (in reading order) that has one:
 * what an ordered walk from it alone meets first.
 */
function walkOf(graph: DependencyGraph, compiled: ReadonlyMap<string, Compiled>, logged: ReadonlyMap<string, ChannelInfo>, roots: readonly string[], maxParams: number): Map<string, Walked> {
  const done = new Map<string, Walked>();
  const onPath = new Set<string>();
  const finish = (name: string, here: Walking): Walked => {
    const error = (compiled.get(name) as Compiled).error;
    if (error !== undefined) here.unparsed ??= name; // one that does not parse reads nothing: it comes after nothing
    const { params, ...walked } = here;
    return { ...walked, params: params.result };
  };
  for (const root of roots) {
    if (done.has(root)) continue;
    const path: string[] = [root];
    const next: number[] = [0];
    const walking: Walking[] = [walkingOf(compiled.get(root) as Compiled, maxParams)];
    onPath.add(root);
    while (path.length) {
      const top = path.length - 1;
      const name = path[top] as string;
      const reads = graph.get(name) as readonly string[];
      const here = walking[top] as Walking;
      const i = next[top] as number;
      if (i === reads.length || here.cycle) {
        path.pop();
        next.pop();
        walking.pop();
        onPath.delete(name);
        const walked = finish(name, here);
        done.set(name, walked);
        if (top > 0) mergeWalked(walking[top - 1] as Walking, walked);
        continue;
      }
      next[top] = i + 1;
      const child = reads[i] as string;
      if (!graph.has(child)) {
        const info = logged.get(child);
        if (!info || !evaluableLeaf(info)) here.badLeaf ??= { leaf: child, missing: !info };
        else if (!here.badLeaf) {
          here.leafList.add(info);
          here.stats = mergeStats(here.stats, statsOf(info));
        }
        continue;
      }
      if (onPath.has(child)) {
        here.cycle = true;
        continue;
      }
      const known = done.get(child);
      if (known) {
        mergeWalked(here, known);
        continue;
      }
      path.push(child);
      next.push(0);
      walking.push(walkingOf(compiled.get(child) as Compiled, maxParams));
      onPath.add(child);
    }
  }
  return done;
}

/** A read's window clipped to the file's span (the span itself for a whole-file read): where its samples can be. */
function scopeSpan(file: OpenDataset['file'], window: ScopeWindow): { start: number; end: number } {
  const fileEnd = file.startTime + file.duration;
  return window.whole ? { start: file.startTime, end: fileEnd } : { start: Math.max(window.start, file.startTime), end: Math.min(window.end, fileEnd) };
}

/**
 * Samples a math channel's read in a window counts against READ_SAMPLE_BUDGET: every sample of its inputs it decodes
 * (the distance source for lapDistance() too) over its context (the window widened by what its time functions read
 * beyond it, from the file's first sample for integral and lowpass, and a sample each side of a slower input), and the
 * samples its evaluation makes: its time base's length over the context for every array of that length it may make
 * (evaluateMathChannels): once for the base's times, once for each lap input it reads (lapTime(), lapDistance(),
 * lapNumber()), and for each definition it evaluates (through the others) its `arrays`: its result, each time
 * function's argument and series, each value its steps keep whole between a time function and the next
 * (`min(integral(a), integral(a), ...)` of 340 terms is 342 arrays, not 1) and one more for each OPERATIONS_PER_ARRAY
 * operators and calls of its expression (its work); and the window's own samples once more when the context holds more (the result
 * is copied out of it). With a Rate the base is bounded by the rate over the context (whatever the inputs: a Rate of
 * 1 MHz over an hour is 3.6 billion samples, refused before any is made). Counted without reading a sample: a regular
 * `.ld` channel's ranges from its catalogue entry; a channel of another format decodes whole (and bounds its base so).
 */
function samplesCounted(dataset: OpenDataset, info: MathChannelInfo, window: ScopeWindow, lapsOver: (span: { start: number; end: number }) => { start: number; end: number }[]): number {
  const { file } = dataset;
  const plan = info.math;
  const definitions = plan.order.definitionsOf([info.name]);
  // Compiled once per definition (readsOf): no definition is compiled here.
  const reach = definitionReaches(definitions.map((d) => ({ name: d.name, reach: readsOf(d).reach }))).get(info.name) as Reach;
  const arrays = definitions.reduce((sum, d) => sum + arraysCounted(readsOf(d)), 1 + (plan.lapTime ? 1 : 0) + (plan.lapDistance ? 1 : 0) + (plan.lapNumber ? 1 : 0));
  const source = plan.lapDistance ? pickDistanceSource(file.channels) : undefined;
  const sourceInfo = source ? channelOf(file, source.channel) : undefined;
  const axes = new Map(plan.leaves.map((leaf) => [leaf.name, catalogueAxis(dataset, leaf)]));
  const sourceAxis = sourceInfo ? catalogueAxis(dataset, sourceInfo) : undefined;
  if ([...axes.values()].every((axis) => axis !== undefined) && (!sourceInfo || sourceAxis)) {
    const axisOf = (leaf: ChannelInfo) => axes.get(leaf.name) as ChannelAxis;
    const context = baseContext(file, baseOf(plan), reach, window, axisOf);
    const baseAxis = context.baseInput !== undefined ? axes.get(context.baseInput) : undefined;
    const inputs = plan.leaves.reduce((n, leaf) => {
      const { from, to } = inputRange(leaf, axisOf(leaf), context, window, baseAxis);
      return n + (to - from);
    }, 0);
    let distance = 0;
    if (source && sourceAxis && context.first !== undefined && context.last !== undefined) {
      const { from, to } = distanceRange(sourceAxis, lapsOver({ start: context.first, end: context.last }), source.kind, context.last);
      distance = to - from;
    }
    const base = context.grid ? context.grid.length : context.to - context.from;
    return inputs + distance + (base === 0 ? 0 : base * arrays + (context.keep ? context.keep.to - context.keep.from : 0));
  }
  // Read whole: every input's samples, its whole base at most.
  const decoded = plan.leaves.reduce((n, leaf) => n + samplesToDecode(file, leaf, window), sourceInfo ? samplesToDecode(file, sourceInfo, { whole: true }) : 0);
  const widened = !window.whole && !reachesNothing(reach);
  const rate = plan.definition.rate;
  const fastest = fastestOf(plan.leaves);
  let base: number;
  let kept = 0;
  if (rate !== undefined) {
    const span = scopeSpan(file, window);
    base = rateGridLength(Math.max(0, span.end - span.start), rate);
    if (widened) {
      // The context's span and a point more each side for its rounding.
      const start = reach.start ? file.startTime : Math.max(file.startTime, span.start - reach.before.seconds - (reach.before.samples + 1) / rate);
      const end = Math.min(file.startTime + file.duration, span.end + reach.after.seconds + (reach.after.samples + 1) / rate);
      kept = base;
      base = rateGridLength(Math.max(0, end - start), rate) + 2;
    }
  } else {
    base = fastest ? samplesToDecode(file, fastest, window) : 0;
    if (widened) kept = base;
  }
  return decoded + (base === 0 ? 0 : base * arrays + kept);
}

/** The arrays of its base's length a definition counts against READ_SAMPLE_BUDGET: those it makes, and its work. */
function arraysCounted(reads: { arrays: number; operations: number }): number {
  return reads.arrays + Math.floor(reads.operations / OPERATIONS_PER_ARRAY);
}

/** A math channel's catalogue entry: its time base is its Rate's, or that of the fastest logged channel it reads. */
function entryOf(file: OpenDataset['file'], name: string, definition: MathDefinition, stats: LeafStats): ChannelInfo {
  const { fastest } = stats;
  const frequency = definition.rate ?? fastest?.frequency ?? 0;
  const sampleCount = definition.rate !== undefined ? rateSampleCount(file, definition.rate, stats) : (fastest?.sampleCount ?? 0);
  return { name, unit: definition.unit, frequency, regular: definition.rate !== undefined || fastest?.regular !== false, sampleCount, dimension: 1, dataType: 'float64' };
}

/**
 * The samples of a Rate's grid over the whole file (rateBounds: from the first to the last input sample, or the file's
 * half-open span when it reads none), counted without reading a sample where the catalogue gives the inputs' times: a `.ld`'s
 * channels are regular from 0, so the last sample of each is at (count - 1) / frequency. Elsewhere a regular channel may
 * start after the file does, and the count is over the file's duration: at most one more than a whole-file read gives.
 */
function rateSampleCount(file: OpenDataset['file'], rate: number, stats: LeafStats): number {
  // Reading no channel: the grid over the file's half-open span, as a whole-file read gives it.
  if (!stats.any) return rateGridLengthBefore(file.startTime, file.startTime + file.duration, rate);
  if (file.format === 'motec-ld' && stats.sampled && stats.sampledRegular) return rateGridLength(stats.lastSampleTime, rate);
  if (file.format === 'motec-ld' && !stats.sampled) return 0;
  return rateGridLength(file.duration, rate);
}

function channelOf(file: OpenDataset['file'], name: string): ChannelInfo {
  return file.channels.find((c) => c.name === name) as ChannelInfo;
}

/**
 * The slices of distinct channels in `window`, in their order, each its own arrays (to be moved to a pool task): the
 * logged ones from the channel cache, the math ones evaluated together on the pool (one task per time base).
 */
export async function slicesOf(dataset: OpenDataset, infos: readonly ChannelInfo[], window: ScopeWindow, cache: StoredChannelCache, math: MathReads | undefined, signal: AbortSignal): Promise<StoredSlice[]> {
  const maths = infos.filter(isMathChannel);
  const evaluated = maths.length && math ? await math.slices(maths, window, signal) : [];
  const byName = new Map(maths.map((info, i) => [info.name, evaluated[i] as StoredSlice]));
  const slices: StoredSlice[] = [];
  for (const info of infos) {
    signal.throwIfAborted();
    slices.push(byName.get(info.name) ?? ownedSlice(await storedOfScope(dataset, info, window, cache)));
  }
  return slices;
}

/** The first index below `count` where `holds` (false up to some index, true from there on); `count` when none. */
function firstWhere(count: number, holds: (i: number) => boolean): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
