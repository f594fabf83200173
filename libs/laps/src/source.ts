import { metresPerLengthUnit, metresPerSecond } from './distance';

/** What the picker reads of a catalogue entry. */
export interface CatalogueChannel {
  name: string;
  unit: string;
  frequency?: number;
  /** Set when the channel cannot be decoded. */
  unsupported?: string;
}

/** Where a lap's distance comes from: a distance channel as it is, or a speed channel integrated. */
export interface DistanceSource {
  kind: 'channel' | 'integrated';
  channel: string;
  unit: string;
}

/** Distance channels, best first; then any other name with "distance" or "dist" in it. */
const DISTANCE_NAMES = ['lap distance', 'distance', 'lap dist', 'dist', 'corr distance', 'corr dist', 'odometer'];
const DISTANCE_LIKE = /\b(dist(ance)?|odometer)\b/i;
/** Distances that are not how far the car went (to a car ahead, remaining, a sensor's). */
const NOT_TRAVELLED = /\b(to|gap|ahead|behind|remaining|left|sensor|laser|ride|height|damper|susp)\b/i;

/** Speed channels of the car over the ground, best first; then any other vehicle speed. */
const SPEED_NAMES = ['ground speed', 'speed', 'corr speed', 'vehicle speed', 'car speed', 'gps speed', 'speed over ground', 'drive speed'];
const SPEED_LIKE = /\bspeed\b/i;
/** Speeds that are not the car's: a wheel's, the engine's, the wind's, a statistic of the lap. */
const NOT_CAR_SPEED = /\b(wheel|engine|shaft|fan|pump|wind|air|max|min|maximum|minimum|straight|corner|dig|target|limit|limiter|set|yaw|rate)\b/i;

const normalised = (name: string) => name.trim().toLowerCase().replace(/[_.]+/g, ' ').replace(/\s+/g, ' ');

function rank(names: readonly string[], channel: CatalogueChannel): number {
  const at = names.indexOf(normalised(channel.name));
  return at < 0 ? names.length : at;
}

function best(candidates: CatalogueChannel[], names: readonly string[]): CatalogueChannel | undefined {
  return [...candidates].sort((a, b) => rank(names, a) - rank(names, b) || (b.frequency ?? 0) - (a.frequency ?? 0) || a.name.localeCompare(b.name))[0];
}

/**
 * A distance channel logged this seldom, with a speed channel logged COARSE_DISTANCE_SPEED_RATIO times as often, is
 * passed over for that speed integrated: MoTeC's 1 Hz `Lap Distance` beside a 10 Hz `Ground Speed` (Sample1.ld) puts a
 * lap delta's points a second apart, and a lap's end between two of them (the delta at the line off by tenths).
 */
const COARSE_DISTANCE_HZ = 10;
const COARSE_DISTANCE_SPEED_RATIO = 4;

/**
 * The channel a lap's distance is read from: a distance channel (a name like "Distance" or "Lap Distance", unit m or
 * km) when the catalogue has one, else a speed channel of the car ("Ground Speed", "Speed", "Corr Speed"... in a speed
 * unit `integrateDistance` knows) to integrate; undefined when it has neither. A distance channel logged under
 * COARSE_DISTANCE_HZ loses to a speed channel logged at least COARSE_DISTANCE_SPEED_RATIO times as often.
 */
export function pickDistanceSource(channels: readonly CatalogueChannel[]): DistanceSource | undefined {
  const distance = best(
    channels.filter((c) => distanceSourceKind(c) === 'channel'),
    DISTANCE_NAMES,
  );
  const speed = best(
    channels.filter((c) => distanceSourceKind(c) === 'integrated'),
    SPEED_NAMES,
  );
  if (distance && !(speed && coarserThan(distance, speed))) return { kind: 'channel', channel: distance.name, unit: distance.unit };
  if (speed) return { kind: 'integrated', channel: speed.name, unit: speed.unit };
  return undefined;
}

/**
 * Whether a channel is one `pickDistanceSource` picks from, and how: `channel`, how far the car went (a distance unit
 * and a name like "Lap Distance", not a gap, a ride height or a sensor's), taken as it is; `integrated`, the car's
 * speed over the ground (a speed unit and a name like "Ground Speed", not a wheel's, the engine's or a lap's statistic
 * such as "Max Straight Speed"); undefined for any other channel.
 */
export function distanceSourceKind(channel: CatalogueChannel): DistanceSource['kind'] | undefined {
  if (channel.unsupported) return undefined;
  const name = normalised(channel.name);
  if (metresPerLengthUnit(channel.unit) !== undefined && (DISTANCE_NAMES.includes(name) || (DISTANCE_LIKE.test(name) && !NOT_TRAVELLED.test(name)))) return 'channel';
  if (metresPerSecond(channel.unit) !== undefined && (SPEED_NAMES.includes(name) || (SPEED_LIKE.test(name) && !NOT_CAR_SPEED.test(name)))) return 'integrated';
  return undefined;
}

/** Whether a distance channel is logged too seldom beside a speed channel (rates unknown: it is not). */
function coarserThan(distance: CatalogueChannel, speed: CatalogueChannel): boolean {
  const [d, s] = [distance.frequency, speed.frequency];
  return d !== undefined && s !== undefined && d > 0 && d < COARSE_DISTANCE_HZ && s >= COARSE_DISTANCE_SPEED_RATIO * d;
}
