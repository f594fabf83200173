import { distanceSourceKind } from '@pitwall/laps';
import type { CatalogueChannel } from './catalogue';

/** A channel the lap distance and delta reads may take as their `distanceChannel`. */
export interface DistanceSourceChoice {
  name: string;
  unit: string;
  /** `distance`: taken as it is (m, km); `speed`: integrated by the service. */
  kind: 'distance' | 'speed';
  /** One of the account's math channels (catalogue group "Math"). */
  math: boolean;
}

/**
 * The channels of a catalogue that can be the distance source of `.../distance` and `.../delta`: one number a sample,
 * and one the service's own Automatic pick chooses from (`@pitwall/laps` `distanceSourceKind`): how far the car went
 * in a distance unit (m, km), or its speed over the ground in a speed unit (km/h, m/s, mph...). A lap's statistic
 * logged once a second in km/h (MoTeC's `Max Straight Speed`) integrates to no distance, and a wheel's speed is not
 * the car's. The file's own channels first, then the account's math channels, each by name.
 */
export function distanceSourceChoices(channels: readonly CatalogueChannel[]): DistanceSourceChoice[] {
  const choices: DistanceSourceChoice[] = [];
  for (const c of channels) {
    if (c.kind || c.dimension > 1) continue;
    const source = distanceSourceKind(c);
    if (source) choices.push({ name: c.name, unit: c.unit, kind: source === 'channel' ? 'distance' : 'speed', math: c.group === 'Math' });
  }
  return choices.sort((a, b) => Number(a.math) - Number(b.math) || a.name.localeCompare(b.name));
}

/** The choice that stays after the catalogue changed: the same channel while it is still offered, else '' (Automatic). */
export function keptDistanceSource(chosen: string, choices: readonly DistanceSourceChoice[]): string {
  return chosen !== '' && choices.some((c) => c.name === chosen) ? chosen : '';
}
