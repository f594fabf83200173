import { seededRandom } from '@pitwall/random';
import { CorruptDataFileError } from '../src/errors';
import { ldxBeaconTimes } from '../src/ld/ldx';

/**
 * The patterns the reader used before its one-pass scan (quadratic on unclosed tags), kept as the reference of what
 * a `.ldx` means: run on small texts only.
 */
function reference(text: string): number[] | undefined {
  if (!/<LDXFile\b/.test(text)) throw new CorruptDataFileError('ldx', 'no <LDXFile> element', 0);
  const times: number[] = [];
  const group = /<MarkerGroup\b([^>]*?)(\/?)>/g;
  for (let open = group.exec(text); open; open = group.exec(text)) {
    if (open[2] === '/') continue;
    const end = text.indexOf('</MarkerGroup>', group.lastIndex);
    if (end < 0) throw new CorruptDataFileError('ldx', 'a <MarkerGroup> element is not closed', open.index);
    const name = /\bName="([^"]*)"/.exec(open[1] ?? '')?.[1];
    if (name?.toLowerCase() === 'beacons') {
      const marker = /<Marker\b[^>]*?\bTime="([^"]*)"/g;
      const body = text.slice(group.lastIndex, end);
      for (let match = marker.exec(body); match; match = marker.exec(body)) {
        // A decimal as XML writes one (digits, a point, an exponent), spaces around it allowed.
        const decimal = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(match[1] ?? '');
        const micros = decimal ? Number(match[1]) : NaN;
        if (!Number.isFinite(micros)) throw new CorruptDataFileError('ldx', `marker time "${match[1]}" is not a number`, 0);
        times.push(micros / 1e6);
      }
    }
    group.lastIndex = end;
  }
  return times.length ? times.sort((a, b) => a - b) : undefined;
}

const outcome = (parse: (text: string) => number[] | undefined, text: string) => {
  try {
    return { times: parse(text) };
  } catch (err) {
    return { error: (err as CorruptDataFileError).reason };
  }
};

describe('ldxBeaconTimes', () => {
  test('when the Beacons group has markers among other groups, then their times in seconds, sorted; other groups and look-alike names are not laps', () => {
    const text = `<?xml version="1.0"?><LDXFile Version="1.6"><Layers><Layer><MarkerBlock>
      <MarkerGroup Name="Sections"><Marker Time="5000000"/></MarkerGroup>
      <MarkerGroup Name="Beacons" Index="3"><Marker Flags="1" Time="200000000"/><Marker Time="100000000" Name="Lap"/><Marker xTime="7" Time="150500000"/></MarkerGroup>
      <MarkerGroup Name="Empty"/><MarkerGroups Name="Beacons"><Marker Time="1"/></MarkerGroups>
    </MarkerBlock></Layer></Layers></LDXFile>`;
    expect(ldxBeaconTimes(text)).toEqual([100, 150.5, 200]);
    expect(ldxBeaconTimes(new TextEncoder().encode(text))).toEqual([100, 150.5, 200]);
  });

  test('when it is not an LDX file, a group is not closed, or a time is not a number, then it is refused as corrupt', () => {
    expect(() => ldxBeaconTimes('<xml/>')).toThrow('no <LDXFile> element');
    expect(() => ldxBeaconTimes('<LDXFile><MarkerGroup Name="Beacons"><Marker Time="1"/></LDXFile>')).toThrow('a <MarkerGroup> element is not closed');
    expect(() => ldxBeaconTimes('<LDXFile><MarkerGroup Name="Beacons"><Marker Time="soon"/></MarkerGroup></LDXFile>')).toThrow('marker time "soon" is not a number');
    expect(ldxBeaconTimes('<LDXFile><MarkerGroup Name="Beacons"></MarkerGroup></LDXFile>')).toBeUndefined();
    expect(ldxBeaconTimes('<LDXFile Version="1.6"/>')).toBeUndefined();
  });

  test.each(['0x10', 'Infinity', '1_000', '1e', '--1', '1.2.3', ' ', '1 2', '\u00a0'])('when a marker time is %j (what Number() takes or half-takes, but no XML decimal), then it is refused as corrupt', (time) => {
    expect(() => ldxBeaconTimes(`<LDXFile><MarkerGroup Name="Beacons"><Marker Time="${time}"/></MarkerGroup></LDXFile>`)).toThrow(`marker time "${time}" is not a number`);
  });

  test('when marker times are decimals as XML writes them (an exponent, a sign, a leading point, spaces around), then they are read', () => {
    const markers = ['1.5e6', '+3E6', '.5e7', ' 2000000 ', '7000000.', '-0'].map((t) => `<Marker Time="${t}"/>`).join('');
    expect(ldxBeaconTimes(`<LDXFile><MarkerGroup Name="Beacons">${markers}</MarkerGroup></LDXFile>`)).toEqual([-0, 1.5, 2, 3, 5, 7]);
  });

  test('when the file is cut short before its </LDXFile>, then it is refused as corrupt, wherever the cut falls', () => {
    const whole = '<?xml version="1.0"?><LDXFile Version="1.6"><Layers><Layer><MarkerBlock><MarkerGroup Name="Beacons"><Marker Time="1000000"/></MarkerGroup></MarkerBlock></Layer></Layers></LDXFile>';
    expect(ldxBeaconTimes(whole)).toEqual([1]);
    for (let cut = whole.indexOf('<LDXFile') + 1; cut < whole.length - 1; cut++) {
      expect(() => ldxBeaconTimes(whole.slice(0, cut))).toThrow(CorruptDataFileError);
    }
  });

  test('when random texts of the elements, broken tags and stray characters are read, then the answer is the reference patterns\' every time', () => {
    const random = seededRandom(2026);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const pieces = ['<MarkerGroup Name="Beacons">', '<MarkerGroup Name="beacons" >', '<MarkerGroup Name="Other">', '<MarkerGroup/>', '<MarkerGroup Name="Beacons"/>', '<MarkerGroup', '</MarkerGroup>', '<Marker Time="1000000"/>', '<Marker Time="2500000">', '<Marker A="1" Time="3000000"/>', '<Marker', '<Marker xTime="9"/>', 'Time="4000000"', '<Markers Time="5"/>', '>', '"', ' ', 'x', '<Marker Time="6000000', '<Marker Time=""/>', '<Marker Time="z"/>'];
    let compared = 0;
    for (let round = 0; round < 3000; round++) {
      const text = `<LDXFile>${Array.from({ length: 1 + Math.floor(random() * 14) }, () => pick(pieces)).join('')}</LDXFile>`;
      expect({ text, ...outcome(ldxBeaconTimes, text) }).toEqual({ text, ...outcome(reference, text) });
      compared++;
    }
    expect(compared).toBe(3000);
  });

  test('when a hostile file is megabytes of unclosed tags, then it is read in one pass (the patterns before took minutes: a hang fails the test)', () => {
    const times = (body: string) => ldxBeaconTimes(`<LDXFile>${body}</LDXFile>`);
    // No '>' after the first tag at all (a 5 MB file).
    expect(() => ldxBeaconTimes(`<LDXFile>${'<MarkerGroup '.repeat(400_000)}`)).toThrow('the file ends before its </LDXFile>');
    expect(() => times('<MarkerGroup '.repeat(400_000))).toThrow('a <MarkerGroup> element is not closed');
    expect(times(`<MarkerGroup Name="Beacons">${'<Marker '.repeat(500_000)}</MarkerGroup>`)).toBeUndefined();
    // No '>' in the group: each marker's Time is the next one (200,000 laps of the same second).
    const same = times(`<MarkerGroup Name="Beacons">${'<Marker Time="1000000" '.repeat(200_000)}</MarkerGroup>`);
    expect([same?.length, new Set(same).size, same?.[0]]).toEqual([200_000, 1, 1]);
    expect(times('<MarkerGroup Name="Beacons"><Marker></MarkerGroup>'.repeat(100_000))).toBeUndefined();
    expect(times(`<MarkerGroup Name="Beacons">${'<Marker>'.repeat(300_000)}<Marker Time="2000000"/></MarkerGroup>`)).toEqual([2]);
  });
});
