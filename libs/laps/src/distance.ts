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
 * file-long "Distance"): scaled to metres, and a drop to under half the previous value is taken as the channel's own
 * reset (its lap beacon) rather than the car going back, so the distance carries on from where it was. Gaps
 * (null or NaN) stay NaN.
 */
export function distanceFromChannel(values: ArrayLike<number | null>, unit: string): Float64Array {
  const factor = metresPerLengthUnit(unit);
  if (factor === undefined) throw new UnknownLengthUnitError(unit);
  const out = new Float64Array(values.length).fill(NaN);
  let origin: number | undefined;
  let offset = 0;
  let previous: number | undefined;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || Number.isNaN(v)) continue;
    const metres = v * factor;
    if (origin === undefined) origin = metres;
    else if (previous !== undefined && previous > 0 && metres < previous / 2) offset += previous;
    previous = metres;
    out[i] = metres + offset - origin;
  }
  return out;
}
