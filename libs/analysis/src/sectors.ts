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

/**
 * Sector times of one lap from the sectors' start distances (metres from the lap's start, ascending; the first
 * sector starts at 0 whether or not it is listed): each sector from the moment the car first reached its start to
 * the moment it reached the next one's, the last to the lap's end. A sector whose start or end the trace never
 * reaches (an in-lap into the pits, a trace with gaps) is null.
 */
export function sectorTimes(trace: LapDistanceTrace, lapTime: number, startDistances: readonly number[]): (number | null)[] {
  const starts = [0, ...startDistances.filter((d) => d > 0)];
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
