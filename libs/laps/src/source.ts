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
 * The channel a lap's distance is read from: a distance channel (a name like "Distance" or "Lap Distance", unit m or
 * km) when the catalogue has one, else a speed channel of the car ("Ground Speed", "Speed", "Corr Speed"... in a speed
 * unit `integrateDistance` knows) to integrate; undefined when it has neither.
 */
export function pickDistanceSource(channels: readonly CatalogueChannel[]): DistanceSource | undefined {
  const usable = channels.filter((c) => !c.unsupported);
  const distance = best(
    usable.filter((c) => metresPerLengthUnit(c.unit) !== undefined && (DISTANCE_NAMES.includes(normalised(c.name)) || (DISTANCE_LIKE.test(normalised(c.name)) && !NOT_TRAVELLED.test(normalised(c.name))))),
    DISTANCE_NAMES,
  );
  if (distance) return { kind: 'channel', channel: distance.name, unit: distance.unit };
  const speed = best(
    usable.filter((c) => metresPerSecond(c.unit) !== undefined && (SPEED_NAMES.includes(normalised(c.name)) || (SPEED_LIKE.test(normalised(c.name)) && !NOT_CAR_SPEED.test(normalised(c.name))))),
    SPEED_NAMES,
  );
  if (speed) return { kind: 'integrated', channel: speed.name, unit: speed.unit };
  return undefined;
}
