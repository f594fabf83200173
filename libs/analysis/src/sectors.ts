/** A lap's distance trace: seconds from the lap's start and metres from it, sample by sample. */
export interface LapDistanceTrace {
  times: ArrayLike<number>;
  distances: ArrayLike<number>;
}

/**
 * The moment the trace first reaches `distance` (linear between samples), seconds from the lap's start; undefined
 * when it never does. Distances that step back (noise) do not count: the running maximum is what was reached, and
 * the car is taken to leave it at the last sample that held it.
 */
export function timeAtDistance(trace: LapDistanceTrace, distance: number): number | undefined {
  if (distance <= 0) return 0;
  let reached = -Infinity;
  let previousTime = 0;
  for (let i = 0; i < trace.times.length; i++) {
    const d = trace.distances[i];
    const t = trace.times[i];
    if (Number.isNaN(d) || Number.isNaN(t)) continue;
    if (d >= distance) {
      if (reached === -Infinity) return t;
      return previousTime + ((t - previousTime) * (distance - reached)) / (d - reached);
    }
    if (d >= reached) {
      reached = d;
      previousTime = t;
    }
  }
  return undefined;
}

/** The sectors' start distances as timed: 0 first whether or not it is listed, then the listed ones past 0. */
export function sectorStarts(startDistances: readonly number[]): number[] {
  return [0, ...startDistances.filter((d) => d > 0)];
}

/**
 * Sector times of one lap from the sectors' start distances (metres from the lap's start, ascending; the first
 * sector starts at 0 whether or not it is listed): each sector from the moment the car first reached its start to
 * the moment it reached the next one's, the last to the lap's end. A sector whose start or end the trace never
 * reaches (an in-lap into the pits, a trace with gaps) is null.
 */
export function sectorTimes(trace: LapDistanceTrace, lapTime: number, startDistances: readonly number[]): (number | null)[] {
  const starts = sectorStarts(startDistances);
  // Each boundary is taken to the nanosecond first, and a sector is the whole nanoseconds between two: a lap's sectors
  // then add up to its lap time exactly (rounding each difference instead left 61.899999999 for a 61.9 s lap).
  const at = starts.map((d) => nanoseconds(timeAtDistance(trace, d)));
  const end = nanoseconds(lapTime);
  return starts.map((_, k) => {
    const from = at[k];
    const to = k + 1 < starts.length ? at[k + 1] : end;
    return from === undefined || to === undefined ? null : (to - from) / 1e9;
  });
}

const nanoseconds = (seconds: number | undefined): number | undefined => (seconds === undefined ? undefined : Math.round(seconds * 1e9));

/** One lap as the best-lap and theoretical-best arithmetic reads it. */
export interface TimedLap {
  lapIndex: number;
  lapTime: number;
  /** Null entries: the sector was not timed on this lap. */
  sectors?: readonly (number | null)[];
}

/** The fastest of `laps` (the first of equal ones); undefined for none. */
export function bestLap<L extends TimedLap>(laps: readonly L[]): L | undefined {
  let best: L | undefined;
  for (const lap of laps) if (!best || lap.lapTime < best.lapTime) best = lap;
  return best;
}

/** The theoretical best lap: the best time of each sector, from whichever lap set it, and their sum. */
export interface TheoreticalBest {
  lapTime: number;
  sectors: { time: number; lapIndex: number }[];
}

/**
 * The sum of the best time of each sector over `laps` (MoTeC's ideal lap). Undefined when there are no sectors, or
 * when a sector was timed on none of the laps: a theoretical best is never made up from a partial set.
 */
export function theoreticalBest(laps: readonly TimedLap[], sectorCount: number): TheoreticalBest | undefined {
  if (sectorCount === 0) return undefined;
  const sectors: { time: number; lapIndex: number }[] = [];
  for (let k = 0; k < sectorCount; k++) {
    let best: { time: number; lapIndex: number } | undefined;
    for (const lap of laps) {
      const time = lap.sectors?.[k];
      if (time === null || time === undefined) continue;
      if (!best || time < best.time) best = { time, lapIndex: lap.lapIndex };
    }
    if (!best) return undefined;
    sectors.push(best);
  }
  return { lapTime: sectors.reduce((sum, s) => sum + s.time, 0), sectors };
}

/** One change of a logger's split time channel: when it was logged (s, file time) and the split it says (s). */
export interface SplitChange {
  time: number;
  value: number;
}

/**
 * How long after a split beacon's crossing the logger may log that split's time, s, beyond one sample period: it
 * decodes the beacon first (MoTeC's Sample1.ld logs it 1.8 to 2.7 s after the crossing, at 1 Hz).
 */
export const SPLIT_LOG_DELAY = 4;

/** The changes of a split time channel: each sample whose value differs from the one before (gaps and NaN skipped). */
export function splitChanges(times: ArrayLike<number>, values: ArrayLike<number>): SplitChange[] {
  const changes: SplitChange[] = [];
  let previous = NaN;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    if (Number.isNaN(value)) continue;
    if (value !== previous && i > 0 && !Number.isNaN(previous)) changes.push({ time: times[i] as number, value });
    previous = value;
  }
  return changes;
}

/**
 * Each lap's sector times from the logger's split times (MoTeC's `Split Time`: the time of the split just completed,
 * logged a little after each split beacon's crossing, the last one after the lap's line): the changes whose crossings,
 * each the one before plus its split, follow one another from the lap's start and end at its end. Laps are taken in
 * order: a lap after one whose chain was found starts at the change after that chain's last, so the lap before's late
 * splits (logged after this lap's line when its last sectors are shorter than the logger's delay) are never taken as
 * this lap's (the chain would come out rotated: [1.5, 25, 33.5] for [25, 33.5, 1.5]). A lap after one without a chain
 * (the out-lap, a missed beacon) tries the changes logged within the delay of its start from the second on, then the
 * first (a line is followed by the lap before's last split). Undefined for a lap no chain adds up to (an out-lap from
 * the pits, an in-lap into them, a missed beacon). The last sector is what is left of the lap, so the sectors add up
 * to its time exactly (the logger's own lap time differs from the lap's by up to a few hundredths).
 */
export function splitSectorsOfLaps(changes: readonly SplitChange[], laps: readonly { startTime: number; endTime: number }[], period: number): (number[] | undefined)[] {
  let after: number | undefined;
  return laps.map((lap) => {
    const found = (after !== undefined ? splitChain(changes, after, lap, period) : undefined) ?? firstChain(changes, lap, period);
    after = found ? found.end + 1 : undefined;
    return found?.sectors;
  });
}

function firstChain(changes: readonly SplitChange[], lap: { startTime: number; endTime: number }, period: number): { sectors: number[]; end: number } | undefined {
  const late = SPLIT_LOG_DELAY + period;
  const first = lowerBoundTime(changes, lap.startTime);
  // The changes that may be the lap's first split: those logged within the delay of its start, and the next one.
  let last = first;
  while (last < changes.length && (changes[last] as SplitChange).time <= lap.startTime + late) last++;
  const candidates = Array.from({ length: Math.min(changes.length, last + 1) - first }, (_, k) => first + k);
  for (const from of [...candidates.slice(1), ...candidates.slice(0, 1)]) {
    const chain = splitChain(changes, from, lap, period);
    if (chain) return chain;
  }
  return undefined;
}

/** The chain of splits from `changes[from]` that ends at the lap's end (see splitSectorsOfLaps), and its last change's index. */
function splitChain(changes: readonly SplitChange[], from: number, lap: { startTime: number; endTime: number }, period: number): { sectors: number[]; end: number } | undefined {
  const lapTime = lap.endTime - lap.startTime;
  const tolerance = Math.max(0.1, period / 2);
  const late = SPLIT_LOG_DELAY + period;
  const splits: number[] = [];
  let crossing = lap.startTime;
  for (let i = from; i < changes.length; i++) {
    const { time, value } = changes[i] as SplitChange;
    const next = crossing + value;
    // Logged after its crossing (within a sample period of error) and within the logger's delay of it.
    if (!(value > 0 && time >= next - period - 0.05 && time <= next + late)) return undefined;
    splits.push(value);
    crossing = next;
    if (Math.abs(crossing - lap.endTime) <= tolerance) {
      const before = splits.slice(0, -1).reduce((sum, s) => sum + s, 0);
      return { sectors: [...splits.slice(0, -1), lapTime - before], end: i };
    }
    if (crossing > lap.endTime + tolerance) return undefined;
  }
  return undefined;
}

function lowerBoundTime(changes: readonly SplitChange[], time: number): number {
  let lo = 0;
  let hi = changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((changes[mid] as SplitChange).time <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
