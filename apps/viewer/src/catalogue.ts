import type { DataFileMetadataJson, EntityJson } from '@pitwall/contracts';
import type { AttachmentJson, DatasetRef } from './api';
import { displayNumber, shortText } from './display-number';
import { sayNames } from './link';

/** State 2 (AvailableOnServer): only such files make a dataset. */
const AVAILABLE = 2;

/** The datasets of an entity: its available attached files grouped by AttachedFileGroupName, in first-file order. */
export function datasetsOf(entityType: DatasetRef['entityType'], entity: Pick<EntityJson, 'Id' | 'Parameters'>, attachments: readonly AttachmentJson[]): DatasetRef[] {
  const groups = new Map<string, string[]>();
  for (const a of attachments) {
    if (Number(a.Parameters['ServerAttachedFileState']) !== AVAILABLE) continue;
    const group = a.Parameters['AttachedFileGroupName'];
    if (typeof group !== 'string' || group === '') continue;
    const files = groups.get(group) ?? [];
    files.push(String(a.Parameters['FileName'] ?? a.Id));
    groups.set(group, files);
  }
  const owner = entityName(entity);
  return [...groups].map(([group, files]) => ({ entityType, entityId: entity.Id, group, name: `${owner} / ${group}`, label: `${owner} / ${group} (${files.join(', ')})` }));
}

/**
 * How many of an entity's attached files are still on their way (prepared or uploading, below state 2): they make no
 * dataset yet, and the page says so rather than showing nothing of them.
 */
export function uploadingCount(attachments: readonly AttachmentJson[]): number {
  return attachments.filter((a) => Number(a.Parameters['ServerAttachedFileState'] ?? 0) < AVAILABLE).length;
}

/** What the page says of the files still uploading ('' for none). */
export function uploadingText(count: number): string {
  return count === 0 ? '' : `${count} file${count === 1 ? '' : 's'} still uploading: Refresh lists ${count === 1 ? 'it' : 'them'} once available.`;
}

/** A lap as the comparison list and the plots' legends name it: its dataset's name, its number from 1 and its time. */
export function comparisonLabel(dataset: Pick<DatasetRef, 'name'>, lap: Pick<LapRow, 'lapIndex' | 'lapTime'>): string {
  return `${dataset.name} lap ${lap.lapIndex + 1} (${formatLapTime(lap.lapTime)})`;
}

/** What the page calls an entity: its Name, else its id. */
export function entityName(entity: Pick<EntityJson, 'Id' | 'Parameters'>): string {
  const name = entity.Parameters['Name'];
  return typeof name === 'string' && name !== '' ? name : entity.Id;
}

/** The cars entered in an event as picker choices: the car's id and its name (from `cars`), with the entry's own name when it differs. */
export function enteredCars(entries: readonly Pick<EntityJson, 'Id' | 'Parameters'>[], cars: readonly Pick<EntityJson, 'Id' | 'Parameters'>[]): { value: string; label: string }[] {
  const out: { value: string; label: string }[] = [];
  for (const entry of entries) {
    const carId = entry.Parameters['CarId'];
    if (typeof carId !== 'string') continue;
    const car = cars.find((c) => c.Id === carId);
    const carName = car ? entityName(car) : carId;
    const own = entry.Parameters['Name'];
    out.push({ value: carId, label: typeof own === 'string' && own !== '' && own !== carName ? `${carName} (${own})` : carName });
  }
  return out;
}

export interface LapRow {
  lapIndex: number;
  /** Seconds. */
  lapTime: number;
  /** Seconds on the file's time axis where the lap starts. */
  start: number;
  best: boolean;
  /** As the service's lap statistics call it (libs/formats): the first lap is the out lap, the last of two or more the in lap. */
  kind: 'out' | 'flying' | 'in';
}

/**
 * The laps of a dataset: laps are contiguous from the file's start (each ends where the next begins), so a lap starts
 * at startTime plus the times of the laps before it. The best lap is the fastest one that is neither the first (out
 * lap) nor the last (in lap) when there are more than two laps.
 */
export function lapRows(metadata: Pick<DataFileMetadataJson, 'startTime' | 'lapElapsedTimes'>): LapRow[] {
  const times = metadata.lapElapsedTimes;
  const rows: LapRow[] = [];
  let start = metadata.startTime;
  for (let i = 0; i < times.length; i++) {
    rows.push({ lapIndex: i, lapTime: times[i], start, best: false, kind: i === 0 ? 'out' : i === times.length - 1 ? 'in' : 'flying' });
    start += times[i];
  }
  const candidates = rows.length > 2 ? rows.slice(1, -1) : rows;
  let best: LapRow | undefined;
  for (const row of candidates) if (row.lapTime > 0 && (!best || row.lapTime < best.lapTime)) best = row;
  if (best) best.best = true;
  return rows;
}

/** A lap time as m:ss.mmm. */
export function formatLapTime(seconds: number): string {
  if (!Number.isFinite(seconds)) return '-';
  const minutes = Math.floor(seconds / 60);
  const rest = seconds - minutes * 60;
  return `${minutes}:${rest.toFixed(3).padStart(6, '0')}`;
}

export type CatalogueChannel = DataFileMetadataJson['channels'][number];

export interface UnitGroup {
  /** The unit as the file names it ('' shows as "no unit"). */
  unit: string;
  channels: CatalogueChannel[];
  /** The account's math channels (catalogue group "Math"), listed after the units. */
  math?: true;
}

/** Channels past which the catalogue is rebuilt once typing in its search pauses, not at every keystroke. */
export const SEARCH_AT_ONCE_CHANNELS = 2_000;
/** The pause (ms) a search of a larger catalogue waits for. */
export const SEARCH_PAUSE_MS = 150;

/** How long a keystroke in the channel search waits before the catalogue is rebuilt: at once for most files. */
export function catalogueSearchDelay(channels: number): number {
  return channels > SEARCH_AT_ONCE_CHANNELS ? SEARCH_PAUSE_MS : 0;
}

/**
 * The channel catalogue grouped by unit (units sorted, "no unit" last), then the account's math channels in a group
 * "Math", channels by name, keeping only the channels whose name or unit contains every word of `search`
 * (case-insensitive). Plots draw one value a sample: channels of text or bytes (`kind`) and arrays (dimension > 1) are
 * not offered.
 */
export function groupChannelsByUnit(channels: readonly CatalogueChannel[], search = ''): UnitGroup[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, CatalogueChannel[]>();
  const math: CatalogueChannel[] = [];
  for (const c of channels) {
    if (c.kind || c.dimension > 1) continue;
    const text = `${c.name} ${c.unit}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    if (c.group === 'Math') {
      math.push(c);
      continue;
    }
    const list = groups.get(c.unit) ?? [];
    list.push(c);
    groups.set(c.unit, list);
  }
  const byName = (x: CatalogueChannel, y: CatalogueChannel) => x.name.localeCompare(y.name);
  const units: UnitGroup[] = [...groups]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)))
    .map(([unit, list]) => ({ unit, channels: list.sort(byName) }));
  return math.length ? [...units, { unit: '', channels: math.sort(byName), math: true }] : units;
}

/**
 * The File panel's channel count: the file's own channels, how many of them the plots do not offer (text, bytes or
 * arrays: groupChannelsByUnit leaves them out, so the list is shorter than the count), then the account's math
 * channels the metadata lists beside them (group Math), so the count is not taken for the file's ("29 in the file, 2
 * not plottable (text, bytes or arrays), 2 math (the account's)").
 */
export function channelCount(channels: readonly CatalogueChannel[]): string {
  const math = channels.filter((c) => c.group === 'Math').length;
  const hidden = channels.filter((c) => c.group !== 'Math' && (c.kind || c.dimension > 1)).length;
  const parts = [`${channels.length - math} in the file`, ...(hidden ? [`${hidden} not plottable (text, bytes or arrays)`] : []), ...(math ? [`${math} math (the account's)`] : [])];
  return parts.join(', ');
}

/** A constant a math channel reads with param() (the catalogue entry's `parameters`): its name, value and holder. */
export type ParameterUsed = NonNullable<CatalogueChannel['parameters']>[number];

/** A constant the open dataset's math channels read: its name, value and holder (`Cars <id>`), and the channels reading it. */
export interface ConstantUsed extends ParameterUsed {
  channels: string[];
}

/**
 * The constants the catalogue's math channels read on this dataset, each once (a name resolves to one holder for a
 * dataset: the nearest of its entity, its setup and its car), by name, with the channels that read it.
 */
export function constantsOf(channels: readonly CatalogueChannel[]): ConstantUsed[] {
  const byName = new Map<string, ConstantUsed>();
  for (const c of channels) {
    for (const p of c.parameters ?? []) {
      const constant = byName.get(p.name) ?? { ...p, channels: [] };
      constant.channels.push(c.name);
      byName.set(p.name, constant);
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The constants said on a math channel's line in the channel list; the others are counted (all of them in its tooltip). */
const SHOWN_PARAMETERS = 3;
/** The constants its tooltip names, past which they are counted. */
const TITLED_PARAMETERS = 20;

/**
 * What a math channel's constants are on the open dataset, as the catalogue says a read of it takes them now:
 * `param SteeringRatio = 12 (Cars Car 7)`, `from` named by `nameOf` (the entity's name when the page knows it, else
 * its id as the service gives it), the first `max` and then how many more.
 */
export function parametersText(parameters: readonly ParameterUsed[], nameOf: (from: string) => string, max = SHOWN_PARAMETERS): string {
  const said = parameters.slice(0, max).map((p) => `param ${shortText(p.name, 80)} = ${displayNumber(p.value, 12)} (${nameOf(p.from)})`);
  return parameters.length > max ? `${said.join('; ')}; and ${parameters.length - max} more` : said.join('; ');
}

/** The tooltip of a math channel's constants: every one of them up to TITLED_PARAMETERS. */
export function parametersTitle(parameters: readonly ParameterUsed[], nameOf: (from: string) => string): string {
  return parametersText(parameters, nameOf, TITLED_PARAMETERS);
}

/** The longest entity name said beside a constant (a name may be 200 characters). */
const ENTITY_NAME_SAID = 40;

/** An entity a constant is held by as the page says it: `Cars Car 7` (its type and its name, cut), or `from` as it was. */
export function holderName(from: string, name: string | undefined): string {
  const type = /^(\w+) /.exec(from)?.[1];
  if (!type || name === undefined || name === '') return from;
  return `${type} ${shortText(name, ENTITY_NAME_SAID)}`;
}

/** What changed between two reads of a dataset's catalogue: channels listed now and not before, gone, changed (each by name). */
export interface CatalogueChanges {
  added: string[];
  removed: string[];
  /** Listed in both, but described otherwise: a math channel's expression, unit, decimals or constants. */
  changed: string[];
}

export function catalogueChanges(before: readonly CatalogueChannel[], after: readonly CatalogueChannel[]): CatalogueChanges {
  const was = new Map(before.map((c) => [c.name, JSON.stringify(c)]));
  const now = new Set(after.map((c) => c.name));
  // By name, as the channel list orders them.
  const names = (list: readonly CatalogueChannel[]) => list.map((c) => c.name).sort((a, b) => a.localeCompare(b));
  return {
    added: names(after.filter((c) => !was.has(c.name))),
    removed: names(before.filter((c) => !now.has(c.name))),
    changed: names(after.filter((c) => was.has(c.name) && was.get(c.name) !== JSON.stringify(c))),
  };
}

/**
 * What the status line says of a catalogue read again (Refresh): `the channels: added "Speed x2"; gone "Old"
 * (unticked); changed "Steer" (its definition or constants)`, or that nothing changed. `unticked`: the gone channels
 * that were ticked.
 */
export function catalogueChangesText(changes: CatalogueChanges, unticked: readonly string[]): string {
  const parts: string[] = [];
  const names = sayNames;
  if (changes.added.length) parts.push(`added ${names(changes.added)}`);
  if (changes.removed.length) parts.push(`gone ${names(changes.removed)}${unticked.length ? ` (${names(unticked)} unticked)` : ''}`);
  if (changes.changed.length) parts.push(`changed ${names(changes.changed)} (definition or constants)`);
  return parts.length ? `the open dataset's channels read again: ${parts.join('; ')}` : "the open dataset's channels read again: no change";
}
