/** A speed unit the distance integration does not know; the caller names the channel it came from. */
export class UnknownSpeedUnitError extends Error {
  override readonly name = 'UnknownSpeedUnitError';
  constructor(readonly unit: string) {
    super(`speed unit '${unit}' is not one of km/h, kph, m/s, mph, knots`);
  }
}

/** Metres per second in one unit of each recognised speed unit (keys lower case, spaces removed). */
const METRES_PER_SECOND: Readonly<Record<string, number>> = {
  'km/h': 1000 / 3600,
  kph: 1000 / 3600,
  kmh: 1000 / 3600,
  'm/s': 1,
  mps: 1,
  mph: 1609.344 / 3600,
  knots: 1852 / 3600,
  knot: 1852 / 3600,
  kn: 1852 / 3600,
  kt: 1852 / 3600,
  kts: 1852 / 3600,
};

/** The factor that turns a speed in `unit` into m/s, or undefined when the unit is not a speed unit this library knows. */
export function metresPerSecond(unit: string): number | undefined {
  return METRES_PER_SECOND[unit.trim().toLowerCase().replace(/\s+/g, '')];
}

/** Metres in one unit of each recognised length unit, for distance channels. */
const METRES: Readonly<Record<string, number>> = { m: 1, km: 1000 };

/** The factor that turns a length in `unit` into metres (m, km), or undefined. */
export function metresPerLengthUnit(unit: string): number | undefined {
  return METRES[unit.trim().toLowerCase()];
}

/**
 * Cumulative distance in metres at each sample of a speed channel: the trapezoidal rule between consecutive samples,
 * starting at 0 on the first one. An interval with a gap at either end (null or NaN speed) adds no distance, so a
 * gap does not invent travel. Times are seconds, increasing.
 */
export function integrateDistance(times: ArrayLike<number>, speeds: ArrayLike<number | null>, speedUnit: string): Float64Array {
  const factor = metresPerSecond(speedUnit);
  if (factor === undefined) throw new UnknownSpeedUnitError(speedUnit);
  if (times.length !== speeds.length) throw new RangeError(`times (${times.length}) and speeds (${speeds.length}) differ in length`);
  const n = times.length;
  const out = new Float64Array(n);
  let total = 0;
  for (let i = 1; i < n; i++) {
    const a = speeds[i - 1];
    const b = speeds[i];
    if (a !== null && b !== null && !Number.isNaN(a) && !Number.isNaN(b)) total += ((a + b) / 2) * factor * (times[i] - times[i - 1]);
    out[i] = total;
  }
  return out;
}

/** A unit that is not a length unit; the caller names the channel it came from. */
export class UnknownLengthUnitError extends Error {
  override readonly name = 'UnknownLengthUnitError';
  constructor(readonly unit: string) {
    super(`length unit '${unit}' is not one of m, km`);
  }
}

/**
 * Distance in metres from the first present sample of a distance channel's slice (a lap of a "Lap Distance" or a
 * file-long "Distance"), plus `start` (metres already travelled at that sample): scaled to metres. A drop to under
 * half the previous value is the channel's own reset (its lap beacon) rather than the car going back, so the
 * distance carries on from where it was. Gaps (null or NaN) stay NaN.
 */
export function distanceFromChannel(values: ArrayLike<number | null>, unit: string, start = 0): Float64Array {
  return channelDistances(values, unit, start, false).distances;
}

/**
 * distanceFromChannel, and with `lapStart` (the slice starts at a lap's line) the rule for a channel that restarts
 * inside the lap: at its first reset, a channel that reads at least half what was counted so far restarted at this
 * lap's line (the logger moved its lap distance seconds after the crossing), so from there its own values are the
 * distance; `ownFrom` is that reset's index (-1: none).
 */
function channelDistances(values: ArrayLike<number | null>, unit: string, start: number, lapStart: boolean): { distances: Float64Array; ownFrom: number } {
  const factor = metresPerLengthUnit(unit);
  if (factor === undefined) throw new UnknownLengthUnitError(unit);
  const out = new Float64Array(values.length).fill(NaN);
  let origin: number | undefined;
  let offset = start;
  let previous: number | undefined;
  let counted = start;
  let ownFrom = -1;
  let reset = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || Number.isNaN(v)) continue;
    const metres = v * factor;
    if (origin === undefined) origin = metres;
    else if (previous !== undefined && previous > 0 && metres < previous / 2) {
      if (lapStart && !reset && metres >= counted / 2) ownFrom = i;
      offset = ownFrom === i ? origin : offset + previous;
      reset = true;
    }
    previous = metres;
    counted = metres + offset - origin;
    out[i] = counted;
  }
  return { distances: out, ownFrom };
}

/**
 * Metres from the lap's start at each sample of a lap's distance source (`times` in seconds from the lap start,
 * increasing): a distance channel as distanceFromChannel reads it, or a speed channel integrated. A lap seldom starts on
 * a sample (its start is a beacon's time or a crossing between samples), so its first present sample is already some
 * way into the lap: at the speed there (the speed channel's, or the distance channel's over its first step), for as
 * long as it came after the start (at most that first step). A distance channel that restarts inside the lap from this
 * lap's line places the samples before its restart too. Gaps stay NaN.
 */
export function lapDistances(times: ArrayLike<number>, values: ArrayLike<number | null>, source: { kind: 'channel' | 'integrated'; unit: string }): Float64Array {
  if (times.length !== values.length) throw new RangeError(`times (${times.length}) and values (${values.length}) differ in length`);
  const present = (i: number) => values[i] !== null && !Number.isNaN(values[i]);
  let first = 0;
  while (first < values.length && !present(first)) first++;
  let second = first + 1;
  while (second < values.length && !present(second)) second++;
  // Extrapolated over at most one step: past that the first sample is after a gap, and its speed says nothing.
  const lead = first < values.length ? times[first] : 0;
  const extrapolated = lead > 0 && second < values.length && lead <= times[second] - times[first];
  if (source.kind === 'integrated') {
    const integrated = integrateDistance(times, values, source.unit);
    const start = extrapolated ? Math.max(0, (values[first] as number) * (metresPerSecond(source.unit) as number) * lead) : 0;
    for (let i = 0; i < integrated.length; i++) integrated[i] += start;
    return integrated;
  }
  const factor = metresPerLengthUnit(source.unit);
  if (factor === undefined) throw new UnknownLengthUnitError(source.unit);
  const step = extrapolated ? ((values[second] as number) - (values[first] as number)) * factor : 0;
  const { distances, ownFrom } = channelDistances(values, source.unit, step > 0 ? (step / (times[second] - times[first])) * lead : 0, true);
  // From the reset the channel reads metres from this lap's line: the samples before it lie between the line (0 s,
  // 0 m) and that point, at its mean speed (what they counted ran from the previous lap's line).
  if (ownFrom > 0 && times[ownFrom] > 0) {
    const speed = distances[ownFrom] / times[ownFrom];
    for (let i = 0; i < ownFrom; i++) if (!Number.isNaN(distances[i])) distances[i] = speed * times[i];
  }
  return distances;
}
