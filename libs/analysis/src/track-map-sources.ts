import { ChannelSuggester } from '@pitwall/channels';
import { metresPerSecond } from '@pitwall/laps';

/** How a lap's path is made: from GPS, or by dead reckoning from speed and yaw rate, or speed and lateral acceleration. */
export type TrackMapSourceKind = 'gps' | 'yaw-rate' | 'lateral-acceleration';

/** The channels a track map reads, by role. */
export type TrackMapRole = 'latitude' | 'longitude' | 'speed' | 'yawRate' | 'lateralAcceleration';

/**
 * The names each role is looked for under when the request does not name its channel, best first, compared without
 * case, with `_` and `.` as spaces and runs of spaces as one (docs/api.md "Extension: track map").
 */
export const TRACK_MAP_CHANNEL_NAMES: Readonly<Record<TrackMapRole, readonly string[]>> = {
  latitude: ['GPS Latitude', 'GPS Lat', 'Latitude', 'GPS Lat Position'],
  longitude: ['GPS Longitude', 'GPS Long', 'GPS Lon', 'Longitude', 'GPS Long Position'],
  speed: ['Ground Speed', 'Speed', 'Corr Speed', 'Vehicle Speed', 'Car Speed', 'GPS Speed', 'Speed over Ground'],
  yawRate: ['Gyro Yaw Velocity', 'Yaw Rate', 'Yaw Velocity', 'Gyro Yaw Rate', 'Yaw Rate Gyro', 'GPS Yaw Rate'],
  lateralAcceleration: ['G Force Lat', 'Lateral G', 'G Lat', 'Accel Lateral', 'Lateral Acceleration', 'Acc Lat', 'Lat Accel'],
};

/** The roles each source needs, in the order the sources are tried when the request names none. */
export const TRACK_MAP_SOURCES: readonly { kind: TrackMapSourceKind; roles: readonly [TrackMapRole, TrackMapRole] }[] = [
  { kind: 'gps', roles: ['latitude', 'longitude'] },
  { kind: 'yaw-rate', roles: ['speed', 'yawRate'] },
  { kind: 'lateral-acceleration', roles: ['speed', 'lateralAcceleration'] },
];

const DEGREES = Math.PI / 180;
const STANDARD_GRAVITY = 9.80665;
const key = (unit: string) => unit.trim().toLowerCase().replace(/\s+/g, '').replace('²', '^2').replace('°', 'deg');

/** Degrees in one unit of a latitude or longitude; an empty unit is taken as degrees (many loggers leave it blank). */
const ANGLE_IN_DEGREES: Readonly<Record<string, number>> = { '': 1, deg: 1, degs: 1, degree: 1, degrees: 1, dd: 1, rad: 1 / DEGREES, radian: 1 / DEGREES, radians: 1 / DEGREES };
/** Radians per second in one unit of a yaw rate. */
const RATE_IN_RAD_S: Readonly<Record<string, number>> = { 'deg/s': DEGREES, 'deg/sec': DEGREES, degs: DEGREES, 'degs/s': DEGREES, dps: DEGREES, 'rad/s': 1, 'rad/sec': 1, rads: 1, 'r/s': 1 };
/** m/s² in one unit of an acceleration. */
const ACCELERATION_IN_M_S2: Readonly<Record<string, number>> = { g: STANDARD_GRAVITY, gs: STANDARD_GRAVITY, 'm/s^2': 1, 'm/s2': 1, 'm/s/s': 1, 'ms^-2': 1, 'ms-2': 1, mps2: 1 };

/**
 * The factor turning a value of `role` in `unit` into the unit the arithmetic uses (degrees for latitude and
 * longitude, m/s for speed, rad/s for the yaw rate, m/s² for the lateral acceleration), or undefined when the unit is
 * not one the track map knows for that role.
 */
export function trackMapUnitFactor(role: TrackMapRole, unit: string): number | undefined {
  if (role === 'speed') return metresPerSecond(unit);
  const table = role === 'yawRate' ? RATE_IN_RAD_S : role === 'lateralAcceleration' ? ACCELERATION_IN_M_S2 : ANGLE_IN_DEGREES;
  return table[key(unit)];
}

/** The units each role accepts, for the messages that refuse another one. */
export const TRACK_MAP_UNITS: Readonly<Record<TrackMapRole, string>> = {
  latitude: "deg (or °, degrees, rad; an empty unit is degrees)",
  longitude: "deg (or °, degrees, rad; an empty unit is degrees)",
  speed: 'km/h, kph, m/s, mph or knots',
  yawRate: 'deg/s (or °/s, dps) or rad/s',
  lateralAcceleration: 'G (g, standard gravity) or m/s² (m/s^2, m/s2)',
};

/** What the picker reads of a catalogue entry. */
export interface TrackMapCatalogueChannel {
  name: string;
  unit: string;
  /** Set when the channel cannot be decoded. */
  unsupported?: string;
}

/** A track map request's choices: the channel of a role by name, and the source to use. */
export interface TrackMapChoice {
  channels?: Partial<Record<TrackMapRole, string>>;
  source?: TrackMapSourceKind;
}

/** The source picked, with the channel filling each of its roles and the factor to its arithmetic's unit. */
export interface TrackMapSources {
  kind: TrackMapSourceKind;
  channels: { role: TrackMapRole; name: string; unit: string; factor: number }[];
}

/** A channel the request named that cannot serve its role: `field` is where the body named it. */
export interface TrackMapRefusal {
  field: string;
  message: string;
}

export type TrackMapPick = { picked: TrackMapSources } | { refused: TrackMapRefusal[] } | { missing: string };

const normalised = (name: string) => name.trim().toLowerCase().replace(/[_.]+/g, ' ').replace(/\s+/g, ' ');

/**
 * The channels of a lap's track map: each role filled by the channel the request names (it must exist and carry a
 * unit of its role: otherwise `refused`, one entry per field) or by the first of its default names present with such
 * a unit; then the source the request names, or the first of GPS, yaw rate, lateral acceleration whose roles are all
 * filled. `missing` says what was looked for when none can be made.
 */
export function pickTrackMapSources(catalogue: readonly TrackMapCatalogueChannel[], choice: TrackMapChoice = {}): TrackMapPick {
  const usable = catalogue.filter((c) => !c.unsupported);
  const byName = new Map(catalogue.map((c) => [c.name, c]));
  const refused: TrackMapRefusal[] = [];
  let suggest: ChannelSuggester | undefined;
  const filled = new Map<TrackMapRole, TrackMapSources['channels'][number]>();
  for (const role of Object.keys(TRACK_MAP_CHANNEL_NAMES) as TrackMapRole[]) {
    const named = choice.channels?.[role];
    if (named !== undefined) {
      const channel = byName.get(named);
      const factor = channel ? trackMapUnitFactor(role, channel.unit) : undefined;
      if (!channel) refused.push({ field: `channels.${role}`, message: (suggest ??= new ChannelSuggester(byName.keys())).notFound(named) });
      else if (factor === undefined) refused.push({ field: `channels.${role}`, message: `${named} has unit '${channel.unit}', not a unit of ${describe(role)} (${TRACK_MAP_UNITS[role]})` });
      else filled.set(role, { role, name: channel.name, unit: channel.unit, factor });
      continue;
    }
    for (const wanted of TRACK_MAP_CHANNEL_NAMES[role]) {
      const channel = usable.find((c) => normalised(c.name) === normalised(wanted) && trackMapUnitFactor(role, c.unit) !== undefined);
      if (channel) {
        filled.set(role, { role, name: channel.name, unit: channel.unit, factor: trackMapUnitFactor(role, channel.unit) as number });
        break;
      }
    }
  }
  if (refused.length) return { refused };
  const candidates = TRACK_MAP_SOURCES.filter((s) => choice.source === undefined || s.kind === choice.source);
  const source = candidates.find((s) => s.roles.every((r) => filled.has(r)));
  if (source) return { picked: { kind: source.kind, channels: source.roles.map((r) => filled.get(r) as TrackMapSources['channels'][number]) } };
  const lacking = candidates.map((s) => `${s.kind === 'gps' ? 'GPS' : s.kind}: ${s.roles.filter((r) => !filled.has(r)).map(lookedFor).join(' and ')}`);
  return { missing: `no ${lacking.length > 1 ? 'source of a track map' : `${candidates[0]?.kind} track map`}; missing ${lacking.join('; ')}` };
}

function describe(role: TrackMapRole): string {
  return { latitude: 'a latitude', longitude: 'a longitude', speed: 'a speed', yawRate: 'a yaw rate', lateralAcceleration: 'a lateral acceleration' }[role];
}

function lookedFor(role: TrackMapRole): string {
  return `${describe(role)} channel (${TRACK_MAP_CHANNEL_NAMES[role].map((n) => `'${n}'`).join(', ')} in ${TRACK_MAP_UNITS[role]})`;
}
