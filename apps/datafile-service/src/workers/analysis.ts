import { bestLap, channelStats, evenEdges, histogram, onFastestTimeBase, scatter, sectorStarts, sectorTimes, splitChanges, splitSectorsOfLaps, theoreticalBest, type TimedLap } from '@pitwall/analysis';
import { applyConversion, toNanosecond } from '@pitwall/channels';
import type { HistogramJson, LapDistanceSourceJson, LapStatsJson, ScatterJson } from '@pitwall/contracts';
import { lowerBound } from '@pitwall/laps';
import { traceOf } from './lap-traces';
import type { StoredSlice } from './shape-channels';

/** Which dataset an answer is of, echoed. */
export interface DatasetEcho {
  entityId: string;
  entityType: string;
  attachedFileGroupName: string;
}

export interface LapStatsTask {
  op: 'lapStats';
  echo: DatasetEcho;
  laps: { lapIndex: number; kind: 'out' | 'flying' | 'in'; startTime: number; endTime: number }[];
  /** The file's span, [startTime, endTime): the whole file's figures are over it. */
  file: { startTime: number; endTime: number };
  /** Each channel reported on (each once), with its threshold: its whole-file values (a math channel's evaluated over the whole file). */
  channels: { name: string; unit: string; threshold: number | null; slice: StoredSlice }[];
  /** With sectors: the whole file's distance source and the sectors' start distances. */
  sectors?: { slice: StoredSlice; source: LapDistanceSourceJson; startDistances: number[] };
  /** Without sectors by distance: the whole file's split time channel (the logger's split beacons), when it has one. */
  splits?: { slice: StoredSlice };
  /** Also each channel's figures in each sector of each lap, while laps × channels × (1 + sectors) is at most `maxCells`. */
  perSector?: { maxCells: number };
}

export interface ScatterTask {
  op: 'scatter';
  echo: DatasetEcho;
  lapIndex: number | null;
  /** x, y and the colour channel (when asked) in the scope; a channel named twice comes once, `roles` says which is which. */
  slices: StoredSlice[];
  discrete: boolean[];
  roles: { x: number; y: number; colour?: number };
  maxPoints: number;
  gridSize: number;
  /** A lap's [start, end): the pairs at the time base's samples in it (the slices are read a little wider, to interpolate at its ends). */
  keep?: { start: number; end: number };
}

export interface HistogramTask {
  op: 'histogram';
  echo: DatasetEcho;
  lapIndex: number | null;
  slice: StoredSlice;
  bins?: number;
  edges?: number[];
}

export type AnalysisTask = LapStatsTask | ScatterTask | HistogramTask;

/** The JSON body of an analysis read, computed from every sample of its scope (never from M4-reduced points). */
export function analyse(task: AnalysisTask): Uint8Array {
  const answer = task.op === 'lapStats' ? lapStats(task) : task.op === 'scatter' ? scatterOf(task) : histogramOf(task);
  return new TextEncoder().encode(JSON.stringify(answer));
}

/**
 * A slice's physical values and the time of each sample, s on the file's time axis. Gaps are NaN, and so is an
 * infinite value (a float channel may store one): no bin, axis or mean can hold it, and JSON has no number for it.
 */
function physical(slice: StoredSlice): { times: Float64Array; values: Float64Array; period: number } {
  const converted = applyConversion(slice.samples, slice.conversion);
  const values = Float64Array.from(converted, (v, i) => (slice.gaps?.[i] === 1 || v - v !== 0 ? NaN : v));
  const times = slice.times ? Float64Array.from(slice.times) : Float64Array.from(values, (_, i) => slice.startTime + i / slice.frequency);
  return { times, values, period: slice.frequency > 0 ? 1 / slice.frequency : 0 };
}

/** The part of a slice whose samples fall in [start, end). */
function sliceBetween(slice: StoredSlice, times: Float64Array, start: number, end: number): StoredSlice {
  const from = lowerBound(times, start);
  const to = lowerBound(times, end);
  return {
    ...slice,
    startTime: times[from] ?? start,
    samples: slice.samples.subarray(from, to),
    ...(slice.times ? { times: slice.times.subarray(from, to) } : {}),
    ...(slice.gaps ? { gaps: slice.gaps.subarray(from, to) } : {}),
  } as StoredSlice;
}

function lapStats(task: LapStatsTask): LapStatsJson {
  const series = task.channels.map((c) => physical(c.slice));
  const distance = task.sectors ? { slice: task.sectors.slice, times: physical(task.sectors.slice).times } : undefined;
  const split = task.splits ? splitsOf(task.laps, task.splits.slice) : undefined;
  const sectorCount = task.sectors ? sectorStarts(task.sectors.startDistances).length : (split?.count ?? 0);
  const perSectorNote = task.perSector ? sectorStatisticsNote(task, sectorCount) : undefined;
  const perSector = perSectorNote === null;
  const statsOf = (values: ReturnType<typeof physical>, start: number, end: number, threshold: number | null) => {
    const { min, max, mean, stdDev, timeAbove, timeBelow } = channelStats(values, start, end, threshold ?? undefined);
    return { min, max, mean, stdDev, timeAbove: timeAbove === null ? null : toNanosecond(timeAbove), timeBelow: timeBelow === null ? null : toNanosecond(timeBelow) };
  };
  const laps = task.laps.map((lap, j) => {
    const lapTime = toNanosecond(lap.endTime - lap.startTime);
    let sectors: (number | null)[] | null = null;
    if (task.sectors && distance) {
      const trace = traceOf({ ref: { ...task.echo, lapIndex: lap.lapIndex, lapTime }, lapStart: lap.startTime, source: task.sectors.source, slice: sliceBetween(distance.slice, distance.times, lap.startTime, lap.endTime) });
      sectors = sectorTimes(trace, lap.endTime - lap.startTime, task.sectors.startDistances).map((t) => (t === null ? null : toNanosecond(t)));
    } else if (split) {
      // A lap whose splits do not add up to it, or are fewer or more than most laps', has its sectors untimed.
      const own = split.perLap[j];
      sectors = own && own.length === split.count ? own.map(toNanosecond) : Array.from({ length: split.count }, () => null);
    }
    // Each timed sector's span on the file's time axis: from the lap's start plus the sectors before it (null: untimed).
    const spans = perSector && sectors ? sectorSpans(lap.startTime, lap.endTime, sectors) : undefined;
    const channels = task.channels.map((c, k) => {
      const values = series[k] as ReturnType<typeof physical>;
      const stats = { name: c.name, ...statsOf(values, lap.startTime, lap.endTime, c.threshold) };
      if (!task.perSector) return stats;
      return { ...stats, sectors: spans ? spans.map((span) => (span ? statsOf(values, span.start, span.end, c.threshold) : null)) : null };
    });
    return { lapIndex: lap.lapIndex, kind: lap.kind, startTime: lap.startTime, lapTime, sectorTimes: sectors, channels };
  });
  // The best and the theoretical best are of flying laps: an out-lap starts in the pit lane, an in-lap ends there.
  const flying = laps.filter((l) => l.kind === 'flying');
  const timed: TimedLap[] = (flying.length ? flying : laps).map((l) => ({ lapIndex: l.lapIndex, lapTime: l.lapTime, ...(l.sectorTimes ? { sectors: l.sectorTimes } : {}) }));
  const best = bestLap(timed);
  const ideal = theoreticalBest(flying.map((l) => ({ lapIndex: l.lapIndex, lapTime: l.lapTime, ...(l.sectorTimes ? { sectors: l.sectorTimes } : {}) })), sectorCount);
  return {
    ...task.echo,
    channels: task.channels.map((c) => ({ name: c.name, unit: c.unit, threshold: c.threshold })),
    sectors: task.sectors
      ? { count: sectorCount, startDistances: sectorStarts(task.sectors.startDistances), source: task.sectors.source }
      : split && task.splits
        ? { count: split.count, startDistances: [], source: { kind: 'splits' as const, channel: task.splits.slice.name } }
        : null,
    laps,
    // The whole file's figures (a file without laps has them too): the channel report of the outing.
    file: {
      startTime: task.file.startTime,
      duration: toNanosecond(task.file.endTime - task.file.startTime),
      channels: task.channels.map((c, k) => ({ name: c.name, ...statsOf(series[k] as ReturnType<typeof physical>, task.file.startTime, task.file.endTime, c.threshold) })),
    },
    bestLap: best ? { lapIndex: best.lapIndex, lapTime: best.lapTime } : null,
    theoreticalBest: ideal ? { lapTime: toNanosecond(ideal.lapTime), sectors: ideal.sectors.map((s) => ({ time: s.time, lapIndex: s.lapIndex })) } : null,
    theoreticalBestNote: ideal ? null : noTheoreticalBest(task, flying.length, sectorCount),
    ...(task.perSector ? { sectorStatisticsNote: perSectorNote ?? null } : {}),
  };
}

/**
 * The sectors of each lap from the logger's split times (splitSectorsOfLaps), and how many sectors a lap has: the count
 * most laps with splits have (the fewest of equally common ones). Undefined when no lap's splits add up to it.
 */
function splitsOf(laps: LapStatsTask['laps'], slice: StoredSlice): { perLap: (number[] | undefined)[]; count: number } | undefined {
  const { times, values, period } = physical(slice);
  const changes = splitChanges(times, values);
  const perLap = splitSectorsOfLaps(changes, laps, period || 1);
  const counts = new Map<number, number>();
  for (const s of perLap) if (s) counts.set(s.length, (counts.get(s.length) ?? 0) + 1);
  let count = 0;
  let most = 0;
  for (const [n, laps] of [...counts].sort((a, b) => a[0] - b[0])) if (laps > most) [count, most] = [n, laps];
  return count > 0 ? { perLap, count } : undefined;
}

/**
 * The sectors of a lap as spans of the file's time axis, [start, end): from the lap's start, each after the one before,
 * the last to the lap's end (the sectors add up to the lap). From an untimed sector on, null: its start is unknown (on
 * a distance trace, whose distances only grow, a sector is untimed when the lap never reached it, and so are the rest).
 */
function sectorSpans(lapStart: number, lapEnd: number, times: readonly (number | null)[]): ({ start: number; end: number } | null)[] {
  let at: number | null = lapStart;
  return times.map((time, k) => {
    if (at === null || time === null) return (at = null);
    // To the nanosecond, as the sector times are: 222.99 + 19.02 is 242.01000000000002, past the sample on the line.
    const span = { start: at, end: k === times.length - 1 ? lapEnd : toNanosecond(at + time) };
    at = span.end;
    return span;
  });
}

/**
 * The statistics of `laps` laps × `channels` channels (× (1 + `sectors`) with per-sector figures) when they are more
 * than LAPSTATS_MAX_CELLS (`most`): what a refusal or a note says of them. Undefined when they fit.
 */
export function tooManyLapStatistics(laps: number, channels: number, sectors: number, most: number): string | undefined {
  const cells = laps * channels * (1 + sectors);
  if (cells <= most) return undefined;
  const shape = sectors > 0 ? `${laps} laps × ${channels} channels × (1 + ${sectors} sectors)` : `${laps} laps × ${channels} channels`;
  return `${shape} are ${cells} lap statistics, more than one answer holds (LAPSTATS_MAX_CELLS is ${most})`;
}

/** Why a perSector read has no per-sector figures, or null when it has them. */
function sectorStatisticsNote(task: LapStatsTask, sectorCount: number): string | null {
  if (sectorCount === 0) return 'No sectors (see theoreticalBestNote): there are no per-sector statistics';
  const tooMany = tooManyLapStatistics(task.laps.length, task.channels.length, sectorCount, task.perSector?.maxCells ?? 0);
  return tooMany === undefined ? null : `${tooMany}: the per-sector statistics are left out; ask fewer channels at once`;
}

function noTheoreticalBest(task: LapStatsTask, flyingLaps: number, sectorCount: number): string {
  if ((!task.sectors && !task.splits) || sectorCount === 0)
    return "No sectors: the request gave no sectorStartDistances, the session's track configuration has no TrackSectorDefinitions with a StartDistance (or the dataset no distance or speed channel to time them on), and the dataset has no split time channel (MoTeC's Split Time) whose splits add up to its laps, so there is no theoretical best";
  if (flyingLaps === 0) return 'No flying lap (only an out-lap and an in-lap): there is no theoretical best';
  return 'A sector was not timed on any flying lap (the distance trace never reached its start or its end): there is no theoretical best';
}

function scatterOf(task: ScatterTask): ScatterJson {
  const series = task.slices.map(physical);
  const { base, times, values: all } = onFastestTimeBase(series.map((s, k) => ({ times: s.times, values: s.values, discrete: task.discrete[k] === true })));
  const keep = task.keep;
  const [from, to] = keep ? [lowerBound(times, keep.start), lowerBound(times, keep.end)] : [0, times.length];
  const values = all.map((v) => v.subarray(from, to));
  const at = (k: number | undefined) => (k === undefined ? undefined : values[k]);
  const result = scatter(at(task.roles.x) as Float64Array, at(task.roles.y) as Float64Array, at(task.roles.colour), { maxPoints: task.maxPoints, gridSize: task.gridSize });
  const ref = (k: number) => ({ name: (task.slices[k] as StoredSlice).name, unit: (task.slices[k] as StoredSlice).unit });
  const head = { ...task.echo, lapIndex: task.lapIndex, x: ref(task.roles.x), y: ref(task.roles.y), colour: task.roles.colour === undefined ? null : ref(task.roles.colour), timeBase: (task.slices[base] as StoredSlice).name, kind: result.kind, count: result.count };
  if (result.kind === 'points') return { ...head, points: { x: result.x, y: result.y, ...(result.colour ? { colour: result.colour } : {}) } };
  return { ...head, grid: { xAxis: result.xAxis, yAxis: result.yAxis, cells: result.cells } };
}

function histogramOf(task: HistogramTask): HistogramJson {
  const { values } = physical(task.slice);
  const edges = task.edges ?? evenEdges(values, task.bins as number);
  const h = histogram(values, edges);
  return { ...task.echo, lapIndex: task.lapIndex, channel: { name: task.slice.name, unit: task.slice.unit }, ...h, frequency: task.slice.frequency };
}
