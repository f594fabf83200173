/**
 * "Did you mean": the catalogue's names closest to a channel name a read gave and the file does not have, for the
 * refusal to name. Names are compared by a key that ignores case, spaces and punctuation (`ground_speed` finds
 * `Ground Speed` at distance 0), then by edit distance on those keys within a small bound. The work is bounded
 * whatever the catalogue and the read (both may come from hostile hands, and this runs on a service's event loop):
 * only names (and keys) of at most SUGGEST_MAX_LENGTH characters are compared, and one suggester (one refusal's)
 * compares at most SUGGEST_MAX_ASKED names with the catalogue and stops after SUGGEST_CELL_BUDGET cells of
 * edit-distance work among them; past either, a name is only looked up by its key.
 */

/** Names (the one asked about, and catalogue names) longer than this are not compared. */
export const SUGGEST_MAX_LENGTH = 64;
/** Edit-distance cells one suggester computes at most (a few milliseconds), however many names it is asked about. */
export const SUGGEST_CELL_BUDGET = 1_000_000;
/** Names a suggestion offers at most. */
export const SUGGEST_MAX_NAMES = 3;

/** Names asked about by one suggester that are compared with the catalogue (past them, only a key equal to a name's is found). */
export const SUGGEST_MAX_ASKED = 8;

/** The words of a name, in lower case (letters and digits; everything else separates them). */
const wordsOf = (name: string): string[] => {
  // Most names are ASCII: NFKC and the Unicode classes only for the others.
  if (/^[\x20-\x7e]*$/.test(name)) return name.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return name.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
};
const keyOf = (name: string): string => wordsOf(name).join('');

/** Whether `words` appear among `among` in their order (`Throttle` in `Throttle Pos`, `G Lat` in `G Force Lat`): how many words more `among` has, else -1. */
function wordsWithin(words: readonly string[], among: readonly string[]): number {
  let k = 0;
  for (const word of among) if (k < words.length && word === words[k]) k++;
  return k === words.length ? among.length - words.length : -1;
}

/** Edits allowed between keys: one for short names, up to three for long ones. */
const allowedEdits = (length: number): number => (length <= 4 ? 1 : length <= 10 ? 2 : 3);

/**
 * Levenshtein distance of `a` and `b` if it is at most `bound`, else undefined; computes only the diagonal band the
 * bound allows, stopping as soon as a row's least distance passes it. `spend` is told the cells computed.
 */
function boundedDistance(a: string, b: string, bound: number, row: Int32Array, spend: (cells: number) => void): number | undefined {
  if (Math.abs(a.length - b.length) > bound) return undefined;
  const n = b.length;
  const far = bound + 1;
  for (let j = 0; j <= n; j++) row[j] = j <= bound ? j : far;
  let cells = 0;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - bound);
    const to = Math.min(n, i + bound);
    let diagonal = row[from - 1] as number;
    row[from - 1] = from - 1 === 0 && i <= bound ? i : far;
    let least = row[from - 1] as number;
    for (let j = from; j <= to; j++) {
      const above = row[j] as number;
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(diagonal + cost, above + 1, (row[j - 1] as number) + 1, far);
      diagonal = above;
      row[j] = value;
      if (value < least) least = value;
    }
    if (to < n) row[to + 1] = far;
    cells += to - from + 1;
    if (least > bound) {
      spend(cells);
      return undefined;
    }
  }
  spend(cells);
  const d = row[n] as number;
  return d <= bound ? d : undefined;
}

/** Suggests catalogue names for names a read gave that the catalogue does not have; see the module comment. */
export class ChannelSuggester {
  private keys: { name: string; key: string; words: string[] }[] | undefined;
  /** The first catalogue name of each key. */
  private byKey: Map<string, string> | undefined;
  private budget = SUGGEST_CELL_BUDGET;
  private asked = 0;
  private readonly row = new Int32Array(SUGGEST_MAX_LENGTH + 2);

  constructor(private readonly names: Iterable<string>) {}

  /** Up to SUGGEST_MAX_NAMES catalogue names closest to `name`, closest first (then in catalogue order); [] when none is close. */
  closest(name: string): string[] {
    if (name.length > SUGGEST_MAX_LENGTH) return [];
    const key = keyOf(name);
    if (key.length === 0 || key.length > SUGGEST_MAX_LENGTH) return [];
    const keys = this.catalogueKeys();
    this.asked++;
    if (this.asked > SUGGEST_MAX_ASKED || this.budget <= 0) {
      const same = this.byKey?.get(key);
      return same === undefined ? [] : [same];
    }
    const bound = allowedEdits(key.length);
    const found: { name: string; distance: number; at: number }[] = [];
    let at = 0;
    for (const candidate of keys) {
      at++;
      let distance: number | undefined;
      if (candidate.key === key) distance = 0;
      else if (this.budget > 0) distance = boundedDistance(key, candidate.key, bound, this.row, (cells) => (this.budget -= cells));
      if (distance !== undefined) found.push({ name: candidate.name, distance, at });
    }
    found.sort((x, y) => x.distance - y.distance || x.at - y.at);
    // A name given short (`Throttle`, `G Lat`): the names holding its words in order, fewest words more first, after
    // the names a few edits away.
    if (found.length < SUGGEST_MAX_NAMES) {
      const words = wordsOf(name);
      const within: { name: string; more: number; at: number }[] = [];
      keys.forEach((candidate, at) => {
        const more = wordsWithin(words, candidate.words);
        if (more > 0 && !found.some((f) => f.name === candidate.name)) within.push({ name: candidate.name, more, at });
      });
      within.sort((x, y) => x.more - y.more || x.at - y.at);
      for (const w of within) found.push({ name: w.name, distance: Infinity, at: w.at });
    }
    return found.slice(0, SUGGEST_MAX_NAMES).map((f) => f.name);
  }

  /** ` (did you mean "A" or "B"?)` for `name`, or '' when no catalogue name is close. */
  hint(name: string): string {
    const closest = this.closest(name).map((n) => JSON.stringify(n));
    if (closest.length === 0) return '';
    const last = closest.pop() as string;
    return ` (did you mean ${closest.length ? `${closest.join(', ')} or ${last}` : last}?)`;
  }

  /** `channel not found: <name>`, with the hint when a catalogue name is close. */
  notFound(name: string): string {
    return `channel not found: ${name}${this.hint(name)}`;
  }

  private catalogueKeys(): { name: string; key: string; words: string[] }[] {
    // NFKC may lengthen a name (one ligature can become 18 characters): the keys are bounded too.
    if (this.keys) return this.keys;
    // Each name once (a read's catalogue and the account's math channels may both hold one).
    this.keys = [...new Set(this.names)]
      .filter((n) => n.length <= SUGGEST_MAX_LENGTH)
      .map((n) => {
        const words = wordsOf(n);
        return { name: n, key: words.join(''), words };
      })
      .filter((k) => k.key.length > 0 && k.key.length <= SUGGEST_MAX_LENGTH);
    this.byKey = new Map();
    for (const { name, key } of this.keys) if (!this.byKey.has(key)) this.byKey.set(key, name);
    return this.keys;
  }
}
