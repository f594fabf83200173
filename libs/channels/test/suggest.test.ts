import { ChannelSuggester, SUGGEST_CELL_BUDGET, SUGGEST_MAX_ASKED, SUGGEST_MAX_LENGTH } from '../src';

/** The full Levenshtein distance, row by row: the reference the bounded one must agree with. */
function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min((previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1), (previous[j] as number) + 1, (row[j - 1] as number) + 1));
    previous = row;
  }
  return previous[b.length] as number;
}

const catalogue = ['Ground Speed', 'Gyro Yaw Velocity', 'G Force Lat', 'G Force Long', 'Throttle Pos', 'Brake Pres Front', 'Brake Pres Rear', 'Engine RPM', 'Gear'];

describe('channel name suggestions', () => {
  it('when a name differs from a catalogue name only in case, spaces or punctuation, then that name is suggested first', () => {
    const suggest = new ChannelSuggester(catalogue);
    expect(suggest.closest('ground_speed')).toEqual(['Ground Speed']);
    expect(suggest.closest('GFORCE-LAT')[0]).toBe('G Force Lat');
    expect(suggest.notFound('engine rpm')).toBe('channel not found: engine rpm (did you mean "Engine RPM"?)');
  });

  it('when a name has a typo, then the catalogue names within a few edits are suggested, closest first', () => {
    const suggest = new ChannelSuggester(catalogue);
    expect(suggest.closest('Gound Sped')).toEqual(['Ground Speed']);
    // "brakepresfrnt" is one edit from the front pressure's key and four from the rear's (the bound is three).
    expect(suggest.closest('Brake Pres Frnt')).toEqual(['Brake Pres Front']);
    expect(suggest.hint('G Force Lng')).toBe(' (did you mean "G Force Long" or "G Force Lat"?)');
  });

  it('when a name is given short (some of a name\'s words, in order), then the names holding them are offered, fewest words more first, after the close ones', () => {
    const suggest = new ChannelSuggester([...catalogue, 'Throttle', 'Ground Speed Max']);
    expect(new ChannelSuggester(catalogue).closest('Throttle')).toEqual(['Throttle Pos']);
    expect(suggest.closest('G Lat')).toEqual(['G Force Lat']);
    expect(suggest.closest('Speed')).toEqual(['Ground Speed', 'Ground Speed Max']);
    expect(suggest.closest('Pres')).toEqual(['Brake Pres Front', 'Brake Pres Rear']);
    // Words out of order are not a match, nor is a word inside another.
    expect(new ChannelSuggester(['Force G Lat']).closest('Lat G')).toEqual([]);
    expect(new ChannelSuggester(['GPS Latitude']).closest('Lat')).toEqual([]);
  });

  it('when nothing is close, then there is no hint and the message is the plain refusal', () => {
    const suggest = new ChannelSuggester(catalogue);
    expect(suggest.closest('Warp Drive')).toEqual([]);
    expect(suggest.notFound('Warp Drive')).toBe('channel not found: Warp Drive');
    expect(suggest.closest('!!!')).toEqual([]);
  });

  it('when many names are close, then at most three are offered', () => {
    const suggest = new ChannelSuggester(Array.from({ length: 10 }, (_, i) => `Damper ${i}`));
    expect(suggest.closest('Damper X')).toEqual(['Damper 0', 'Damper 1', 'Damper 2']);
  });

  it('when random names are compared, then a suggestion is offered exactly when the full edit distance of the keys is within the bound', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const word = (n: number) => Array.from({ length: n }, () => 'abcde'[Math.floor(random() * 5)]).join('');
    for (let trial = 0; trial < 2000; trial++) {
      const a = word(1 + Math.floor(random() * 14));
      const b = word(1 + Math.floor(random() * 14));
      const bound = a.length <= 4 ? 1 : a.length <= 10 ? 2 : 3;
      const expected = levenshtein(a, b) <= bound ? [b] : [];
      expect([trial, new ChannelSuggester([b]).closest(a)]).toEqual([trial, expected]);
    }
  });

  it('when names are longer than the compared length, or NFKC lengthens them past it, then they are neither compared nor suggested', () => {
    const long = 'x'.repeat(SUGGEST_MAX_LENGTH + 1);
    expect(new ChannelSuggester([long]).closest(`${long}y`)).toEqual([]);
    expect(new ChannelSuggester([long.slice(1)]).closest(long)).toEqual([]);
    // U+FDFA is one character that NFKC makes 18 (15 letters and 3 spaces): five of them pass the bound as a key.
    const lengthened = '\uFDFA'.repeat(5);
    expect(new ChannelSuggester([lengthened]).closest(lengthened)).toEqual([]);
    expect(new ChannelSuggester([lengthened]).closest(`${lengthened}a`)).toEqual([]);
    expect(new ChannelSuggester(['\uFDFA'.repeat(4)]).closest('\uFDFA'.repeat(4))).toEqual(['\uFDFA'.repeat(4)]);
  });

  it('when a hostile catalogue and read ask for more comparisons than the budget, then it stops comparing and answers at once', () => {
    // 20,000 names of 60 characters each a few edits apart: every one is compared in full until the budget runs out.
    const names = Array.from({ length: 20_000 }, (_, i) => `${'a'.repeat(56)}${String(i).padStart(4, '0')}`);
    const suggest = new ChannelSuggester(names);
    const asked = Array.from({ length: 2 }, (_, i) => `${'a'.repeat(56)}zz${i}`);
    const offered = asked.map((name) => suggest.closest(name));
    // The first name spends the budget (about 400 cells a name, 20,000 names) and still gets suggestions from the
    // names it compared; the second, within SUGGEST_MAX_ASKED, gets none (it would be three edits from most names).
    expect(offered[0]?.length).toBeGreaterThan(0);
    expect(offered[1]).toEqual([]);
    expect(SUGGEST_CELL_BUDGET).toBeLessThanOrEqual(2_000_000);
  });

  it('when a read names more unknown channels than are compared, then the later ones are only looked up by their key', () => {
    const suggest = new ChannelSuggester(catalogue);
    for (let i = 0; i < SUGGEST_MAX_ASKED; i++) expect(suggest.closest('Gound Sped')).toEqual(['Ground Speed']);
    expect(suggest.closest('Gound Sped')).toEqual([]);
    expect(suggest.closest('GROUND speed')).toEqual(['Ground Speed']);
  });
});
