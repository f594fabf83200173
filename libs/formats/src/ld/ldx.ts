import { CorruptDataFileError } from '../errors';

/** The format named by an `.ldx`'s refusals (damaged markers, too many laps by its beacons). */
export const LDX_FORMAT = 'ldx';

/** A marker's Time as XML Schema writes a decimal or double: digits, one point, an exponent; no hex, no Infinity. */
const DECIMAL = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** The marker group whose markers are laps: other groups (sections, user markers) mark places, not laps. */
const BEACONS = 'beacons';

const GROUP_OPEN = '<MarkerGroup';
const GROUP_CLOSE = '</MarkerGroup>';
const MARKER_OPEN = '<Marker';
const TIME = 'Time="';

/**
 * Beacon marker times, in seconds, from a MoTeC `.ldx` companion file (XML; each `<Marker Time="...">` of the
 * `Beacons` marker group is in microseconds from the start of the log). Undefined when the file has no beacon
 * markers: the `.ld`'s own lap channel then gives the laps.
 *
 * One pass over the text, each search starting where the last one ended (a hostile file of unclosed tags, `<Marker
 * <Marker ...` with no `>`, costs what its length does: patterns that looked for the end of each tag from each tag were
 * quadratic, 24 s for 1 MB).
 */
export function ldxBeaconTimes(ldx: Uint8Array | string): number[] | undefined {
  const text = typeof ldx === 'string' ? ldx : new TextDecoder('utf-8').decode(ldx);
  const root = nextTag(text, '<LDXFile', 0);
  if (root < 0) throw new CorruptDataFileError(LDX_FORMAT, 'no <LDXFile> element', 0);
  // A file cut short (a copy or an upload that stopped) would otherwise give the .ld's laps as if it held no markers.
  const rootEnd = text.indexOf('>', root);
  if (rootEnd < 0 || (text[rootEnd - 1] !== '/' && text.indexOf('</LDXFile>', rootEnd) < 0)) throw new CorruptDataFileError(LDX_FORMAT, 'the file ends before its </LDXFile> (cut short?)', text.length);
  const times: number[] = [];
  let at = 0;
  for (;;) {
    const open = nextTag(text, GROUP_OPEN, at);
    if (open < 0) break;
    const tagEnd = text.indexOf('>', open);
    // A tag never closed: no more groups (as an XML reader would stop at it).
    if (tagEnd < 0) break;
    const attributes = text.slice(open + GROUP_OPEN.length, tagEnd);
    at = tagEnd + 1;
    if (attributes.endsWith('/')) continue;
    const end = text.indexOf(GROUP_CLOSE, at);
    if (end < 0) throw new CorruptDataFileError(LDX_FORMAT, 'a <MarkerGroup> element is not closed', open);
    if (attributeOf(attributes, 'Name')?.toLowerCase() === BEACONS) markerTimes(text.slice(at, end), at, times);
    at = end;
  }
  return times.length ? times.sort((a, b) => a - b) : undefined;
}

/**
 * The `Time` of each `<Marker ...>` of a group's body, in seconds, pushed onto `times`; one pass over the body (`at`
 * where the body starts in the file, for the error's offset).
 */
function markerTimes(body: string, at: number, times: number[]): void {
  // The next '>' and the next `Time="` at or after the current marker: each found once, then reused by the markers
  // before it (a marker's Time counts when it comes before the marker's '>', or when no '>' is left in the body).
  let gt = -1;
  let time = -1;
  for (let marker = nextTag(body, MARKER_OPEN, 0); marker >= 0; marker = nextTag(body, MARKER_OPEN, marker + 1)) {
    if (gt < marker) {
      const found = body.indexOf('>', marker);
      gt = found < 0 ? Infinity : found;
    }
    if (time < marker) time = nextWord(body, TIME, marker);
    if (time < 0) return;
    if (time > gt) continue;
    const valueStart = time + TIME.length;
    const valueEnd = body.indexOf('"', valueStart);
    if (valueEnd < 0) return;
    const value = body.slice(valueStart, valueEnd);
    const micros = DECIMAL.test(value) ? Number(value) : NaN;
    if (!Number.isFinite(micros)) throw new CorruptDataFileError(LDX_FORMAT, `marker time "${value}" is not a number`, at + marker);
    times.push(micros / 1e6);
    // The next marker is looked for after this value (a '<Marker' inside it is not one).
    marker = valueEnd;
  }
}

/** `name="value"` in a tag's attributes (the name a whole word). */
function attributeOf(attributes: string, name: string): string | undefined {
  const at = nextWord(attributes, `${name}="`, 0);
  if (at < 0) return undefined;
  const start = at + name.length + 2;
  const end = attributes.indexOf('"', start);
  return end < 0 ? undefined : attributes.slice(start, end);
}

const isWordChar = (c: string | undefined) => c !== undefined && /\w/.test(c);

/** The next `<Name` at or after `from` that is that element (not `<NameMore`); -1 when none. */
function nextTag(text: string, open: string, from: number): number {
  for (let at = text.indexOf(open, from); at >= 0; at = text.indexOf(open, at + 1)) if (!isWordChar(text[at + open.length])) return at;
  return -1;
}

/** The next `word` at or after `from` that starts a word (not `xTime="`); -1 when none. */
function nextWord(text: string, word: string, from: number): number {
  for (let at = text.indexOf(word, from); at >= 0; at = text.indexOf(word, at + 1)) if (!isWordChar(text[at - 1])) return at;
  return -1;
}
