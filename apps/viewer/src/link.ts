import { yRangeSteps } from './plot-data';

/**
 * The page's address of what is on screen: the pickers' choices, the open dataset, the ticked channels and the plotted
 * scope (and its zoom and the y scales set by hand), in the URL's fragment (`/viewer#run=…&dataset=…&ch=Ground%20Speed&lap=3`). A colleague who
 * opens the link and signs in with their own key sees the same plot; the key is never in it (the fragment is not sent
 * to the server, and the page keeps no secret there). A link is input like any other: what it names is checked
 * against what the account has, and a part the page cannot use is said, never fatal. A saved layout's text is the view
 * part of a link with its version (`v=1&ch=…`: encodeLayout, decodeLayout), read with the same checks.
 */

/** The ticked channels a link may name. */
export const LINK_MAX_CHANNELS = 64;
/** The longest channel name or dataset group a link may carry (a read may name 16,383 characters; a link need not). */
export const LINK_MAX_TEXT = 1_000;
/** The longest fragment read; past it the link is refused whole. */
export const LINK_MAX_LENGTH = 32 * 1024;

export type LinkScope = { kind: 'file' } | { kind: 'lap'; lapIndex: number } | { kind: 'window'; start: number; duration: number };

export interface ViewerLink {
  championship?: string;
  event?: string;
  session?: string;
  car?: string;
  run?: string;
  dataset?: { entityType: 'RunSheets' | 'SessionCarDatas'; entityId: string; group: string };
  channels?: string[];
  scope?: LinkScope;
  /** The zoomed range inside the scope (file seconds). */
  view?: { start: number; duration: number };
  /** The time plots drawn one pane a unit (`panes=unit`). */
  panesByUnit?: boolean;
  /** A lap's time plots counted from the lap's start (`axis=lap`). */
  lapTimeAxis?: boolean;
  /**
   * The y scales set by hand (`y=<min>,<max>,<pane>`, one a pane): the pane is a channel's name, or `unit:<unit>` with
   * *One pane per unit*, as the page's pane ids say them. Panes not listed are auto-scaled.
   */
  yScales?: YScale[];
}

/** A pane's y scale set by hand. */
export interface YScale {
  pane: string;
  min: number;
  max: number;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PICKS = ['championship', 'event', 'session', 'car', 'run'] as const;
const DATASET_TYPES: Record<string, 'RunSheets' | 'SessionCarDatas'> = { run: 'RunSheets', car: 'SessionCarDatas' };

/** Seconds as a link writes them: the shortest text that reads back as the same number. */
const seconds = (x: number): string => String(x);

/**
 * The fragment (without `#`) of a link. Laps are written as the page numbers them (`lap=1` is the first lap: lapIndex
 * 0), a dataset as `<run|car>:<entity id>:<group>`.
 */
export function encodeLink(link: ViewerLink, maxLength = LINK_MAX_LENGTH): string {
  const q = new URLSearchParams();
  for (const pick of PICKS) {
    const id = link[pick];
    if (id) q.set(pick, id);
  }
  if (link.dataset) q.set('dataset', `${link.dataset.entityType === 'RunSheets' ? 'run' : 'car'}:${link.dataset.entityId}:${link.dataset.group}`);
  for (const name of link.channels ?? []) q.append('ch', name);
  const scope = link.scope;
  if (scope?.kind === 'lap') q.set('lap', String(scope.lapIndex + 1));
  if (scope?.kind === 'window') {
    q.set('from', seconds(scope.start));
    q.set('length', seconds(scope.duration));
  }
  if (link.view) q.set('view', `${seconds(link.view.start)},${seconds(link.view.duration)}`);
  if (link.panesByUnit) q.set('panes', 'unit');
  if (link.lapTimeAxis) q.set('axis', 'lap');
  for (const y of link.yScales ?? []) q.append('y', `${seconds(y.min)},${seconds(y.max)},${y.pane}`);
  // URLSearchParams writes a space as '+': %20 reads the same and keeps names legible where '+' is part of them.
  const text = q.toString().replace(/\+/g, '%20');
  // Never longer than a link is read back (`maxLength`, LINK_MAX_CHANNELS): the last y scales are left out, then
  // the last channels.
  const scales = link.yScales ?? [];
  if ((text.length > maxLength || scales.length > LINK_MAX_CHANNELS) && scales.length > 0) {
    return encodeLink({ ...link, yScales: scales.slice(0, Math.min(LINK_MAX_CHANNELS, scales.length - 1)) }, maxLength);
  }
  const channels = link.channels ?? [];
  if ((text.length > maxLength || channels.length > LINK_MAX_CHANNELS) && channels.length > 0) {
    return encodeLink({ ...link, channels: channels.slice(0, Math.min(LINK_MAX_CHANNELS, channels.length - 1)) }, maxLength);
  }
  return text;
}

/** The most problems of a link or a layout the status line says one by one; the others are counted. */
export const SAID_PROBLEMS = 5;

/**
 * What of a link or a layout was left out, in words for the status line (said by a screen reader): the first few,
 * then how many more. A 32 KiB layout of unknown parts was one problem each: a status of 97,937 characters.
 */
export function sayProblems(problems: readonly string[]): string {
  if (problems.length <= SAID_PROBLEMS) return problems.join('; ');
  return `${problems.slice(0, SAID_PROBLEMS).join('; ')}; and ${problems.length - SAID_PROBLEMS} more`;
}

/** Names in a problem (channels a dataset lacks): the first few, each cut to 80 characters, then how many more. */
export function sayNames(names: readonly string[]): string {
  const said = names.slice(0, SAID_PROBLEMS).map((n) => `"${n.slice(0, 80)}"`);
  return names.length > SAID_PROBLEMS ? `${said.join(', ')} and ${names.length - SAID_PROBLEMS} more` : said.join(', ');
}

/** The names a link's pairs may have. */
const LINK_PARTS = new Set<string>([...PICKS, 'dataset', 'ch', 'lap', 'from', 'length', 'view', 'panes', 'axis', 'y']);

/** The text of a link or a layout as pairs, or why it is not (said of `what`: the link, the layout). */
function pairsOf(text: string, what: string): URLSearchParams | string {
  if (text.length > LINK_MAX_LENGTH) return `the ${what} is longer than ${LINK_MAX_LENGTH} characters`;
  try {
    // URLSearchParams reads '+' as a space: a '+' in a name must come as %2B (encodeLink writes it so).
    return new URLSearchParams(text);
  } catch {
    return `the ${what} is not a list of name=value pairs`;
  }
}

/** A link read back, with what of it was not understood (each said once, in words for the page's status line). */
export function decodeLink(fragment: string): { link: ViewerLink; problems: string[] } {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (text.length === 0) return { link: {}, problems: [] };
  const q = pairsOf(text, 'link');
  if (typeof q === 'string') return { link: {}, problems: [q] };
  const problems: string[] = [];
  for (const name of new Set(q.keys())) if (!LINK_PARTS.has(name)) problems.push(`"${name.slice(0, 40)}" is not part of a viewer link`);
  return { link: linkOf(q, problems, 'link'), problems };
}

/** What the pairs of a link (or of a layout) say, each part not understood said in `problems`. */
function linkOf(q: URLSearchParams, problems: string[], what: string): ViewerLink {
  const link: ViewerLink = {};
  for (const pick of PICKS) {
    const id = q.get(pick);
    if (id === null) continue;
    if (GUID.test(id)) link[pick] = id.toLowerCase();
    else problems.push(`${pick} is not an id`);
  }
  const dataset = q.get('dataset');
  if (dataset !== null) {
    const [kind, entityId, ...rest] = dataset.split(':');
    const group = rest.join(':');
    const entityType = DATASET_TYPES[kind ?? ''];
    if (!entityType || !entityId || !GUID.test(entityId) || group.length === 0 || group.length > LINK_MAX_TEXT) problems.push('dataset is not <run|car>:<id>:<group>');
    else link.dataset = { entityType, entityId: entityId.toLowerCase(), group };
  }
  const channels = q.getAll('ch').filter((name) => name.length > 0 && name.length <= LINK_MAX_TEXT);
  if (channels.length < q.getAll('ch').length) problems.push(`a channel name of the ${what} is empty or longer than ${LINK_MAX_TEXT} characters`);
  if (channels.length > LINK_MAX_CHANNELS) problems.push(`the ${what} names ${channels.length} channels: the first ${LINK_MAX_CHANNELS} are ticked`);
  if (channels.length) link.channels = [...new Set(channels.slice(0, LINK_MAX_CHANNELS))];
  const lap = q.get('lap');
  const from = q.get('from');
  const length = q.get('length');
  if (lap !== null) {
    const n = Number(lap);
    if (Number.isInteger(n) && n >= 1 && n <= 1_000_000_000) link.scope = { kind: 'lap', lapIndex: n - 1 };
    else problems.push('lap is not a lap number (1 is the first lap)');
  } else if (from !== null || length !== null) {
    const start = Number(from);
    const duration = Number(length);
    if (from !== null && length !== null && Number.isFinite(start) && Number.isFinite(duration) && duration > 0) link.scope = { kind: 'window', start, duration };
    else problems.push('from and length are not a window (seconds, a length over 0)');
  }
  const view = q.get('view');
  if (view !== null) {
    const [start, duration] = view.split(',').map(Number);
    if (start !== undefined && duration !== undefined && Number.isFinite(start) && Number.isFinite(duration) && duration > 0) link.view = { start, duration };
    else problems.push('view is not <start>,<length> in seconds');
  }
  const panes = q.get('panes');
  if (panes === 'unit') link.panesByUnit = true;
  else if (panes !== null) problems.push('panes is not "unit"');
  const axis = q.get('axis');
  if (axis === 'lap') link.lapTimeAxis = true;
  else if (axis !== null) problems.push('axis is not "lap"');
  const scales = new Map<string, YScale>();
  let badScale = false;
  const narrow: string[] = [];
  for (const text of q.getAll('y')) {
    // The pane last: a channel's name may hold commas.
    const [minText = '', maxText = '', ...name] = text.split(',');
    const [min, max, pane] = [minText.trim() === '' ? Number.NaN : Number(minText), maxText.trim() === '' ? Number.NaN : Number(maxText), name.join(',')];
    if (!(Number.isFinite(min) && Number.isFinite(max) && max > min && pane.length > 0 && pane.length <= LINK_MAX_TEXT)) badScale = true;
    // A range the axis cannot step through froze the page: left out, the pane auto-scaled.
    else if (!yRangeSteps(min, max)) narrow.push(pane);
    else scales.set(pane, { pane, min, max });
  }
  if (badScale) problems.push('a y scale is not <min>,<max>,<pane> with the min below the max');
  if (narrow.length) {
    problems.push(`the y scale of "${(narrow[0] as string).slice(0, 80)}"${narrow.length > 1 ? ` and ${narrow.length - 1} more` : ''} is too narrow for its size to be plotted (the max must exceed the min by more than 1e-12 of their size): auto-scaled`);
  }
  if (scales.size > LINK_MAX_CHANNELS) problems.push(`the ${what} sets ${scales.size} y scales: the first ${LINK_MAX_CHANNELS} are used`);
  if (scales.size) link.yScales = [...scales.values()].slice(0, LINK_MAX_CHANNELS);
  return link;
}

/**
 * The version of a layout's text (`v=1`): the registry's VIEWER_LAYOUT_VERSION, which the entity-service checks on
 * write (a unit test holds the two together; the page does not bundle the contracts).
 */
export const LAYOUT_VERSION = 1;

/**
 * A saved layout (a ViewerLayout's `Layout`, docs/viewer.md): the view part of a link, applied to any dataset: the
 * ticked channels in order, one pane per unit, the time axis and the y scales set by hand. Not the pickers' choices,
 * the dataset, the scope or the zoom.
 */
export type ViewerLayout = Pick<ViewerLink, 'channels' | 'panesByUnit' | 'lapTimeAxis' | 'yScales'>;

/** The pairs of a link that are a layout's. */
const LAYOUT_PARTS = new Set(['ch', 'panes', 'axis', 'y']);

/** A layout's text: its version, then the pairs a link writes for the view (never longer than a link is read back). */
export function encodeLayout(layout: ViewerLayout): string {
  const version = `v=${LAYOUT_VERSION}`;
  const view: ViewerLink = {};
  if (layout.channels?.length) view.channels = layout.channels;
  if (layout.panesByUnit) view.panesByUnit = true;
  if (layout.lapTimeAxis) view.lapTimeAxis = true;
  if (layout.yScales?.length) view.yScales = layout.yScales;
  const text = encodeLink(view, LINK_MAX_LENGTH - version.length - 1);
  return text ? `${version}&${text}` : version;
}

/**
 * A layout read back as a link is (the same checks: a pasted link's), with what of it was not understood. A part of a
 * link that is no layout's (a dataset, a scope) or no link's is said and left out. A layout the page cannot read at all
 * (of another version, or with none; too long) is null, with the reason.
 */
export function decodeLayout(text: string): { layout: ViewerLayout | null; problems: string[] } {
  const q = pairsOf(text, 'layout');
  if (typeof q === 'string') return { layout: null, problems: [q] };
  const versions = q.getAll('v');
  if (versions.length !== 1 || versions[0] !== String(LAYOUT_VERSION)) {
    const which = versions.length === 0 ? 'it gives no version' : `it is of version ${versions.join(', ').slice(0, 40)}`;
    return { layout: null, problems: [`${which}, and this page reads layouts of version ${LAYOUT_VERSION}`] };
  }
  q.delete('v');
  const problems: string[] = [];
  for (const name of new Set(q.keys())) {
    if (LAYOUT_PARTS.has(name)) continue;
    problems.push(LINK_PARTS.has(name) ? `"${name}" is part of a link, not of a layout` : `"${name.slice(0, 40)}" is not part of a layout`);
    q.delete(name);
  }
  const link = linkOf(q, problems, 'layout');
  const layout: ViewerLayout = {};
  if (link.channels) layout.channels = link.channels;
  if (link.panesByUnit) layout.panesByUnit = true;
  if (link.lapTimeAxis) layout.lapTimeAxis = true;
  if (link.yScales) layout.yScales = link.yScales;
  return { layout, problems };
}
