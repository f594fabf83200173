import { metresPerLengthUnit, metresPerSecond } from '@pitwall/laps';
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
 * in a distance unit (m, km) or a speed unit (km/h, m/s, mph...), judged by the same `@pitwall/laps` unit tables the
 * service uses, so the page offers no channel it would refuse for its unit. The file's own channels first, then the
 * account's math channels, each by name.
 */
export function distanceSourceChoices(channels: readonly CatalogueChannel[]): DistanceSourceChoice[] {
  const choices: DistanceSourceChoice[] = [];
  for (const c of channels) {
    if (c.kind || c.dimension > 1) continue;
    const kind = metresPerLengthUnit(c.unit) !== undefined ? 'distance' : metresPerSecond(c.unit) !== undefined ? 'speed' : undefined;
    if (kind) choices.push({ name: c.name, unit: c.unit, kind, math: c.group === 'Math' });
  }
  return choices.sort((a, b) => Number(a.math) - Number(b.math) || a.name.localeCompare(b.name));
}

/** The choice that stays after the catalogue changed: the same channel while it is still offered, else '' (Automatic). */
export function keptDistanceSource(chosen: string, choices: readonly DistanceSourceChoice[]): string {
  return chosen !== '' && choices.some((c) => c.name === chosen) ? chosen : '';
}
