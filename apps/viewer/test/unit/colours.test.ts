import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { colourRamp, colourScale, RAMP_ENDS, RAMP_STOPS, scatterCaption } from '../../src/analysis';
import { borderStyleOf, CIRCLE_COLOUR, COLOURS, DASHES, dashOf } from '../../src/colours';
import { contrastRatio, deltaE2000, DEFICIENCY, difference, lab } from '../support/colour-vision';

/** The palette the viewer had before (D3's category10): red and green one olive to a deuteranope. */
const CATEGORY10 = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];

/**
 * How far apart (CIEDE2000) every two line colours must look, to normal vision and to a dichromat: about 7 times the
 * 2.3 just noticeable on large patches side by side, as a 2 px line against a line across the pane, to be told apart at
 * a glance and named from the legend, needs far more than patches (Szafir 2018: thin marks several times the patches'
 * difference). category10 has pairs at 1.3 (protanopia: green and orange) and 4.1 (deuteranopia).
 */
const DISTINCT = 17;

/**
 * How far the friction circles' grey must look from every line colour: a dashed reference drawn under the points, not
 * a line named from a legend, so less than two lines need (measured least 16.97, deuteranopia).
 */
const CIRCLE_APART = 15;

/** The least difference between two colours of a list, as simulated for `deficiency` (normal vision without one), and the pair. */
function closest(colours: readonly string[], deficiency?: (typeof DEFICIENCY)['deuteranopia']): { dE: number; pair: [string, string] } {
  let best = { dE: Infinity, pair: ['', ''] as [string, string] };
  colours.forEach((a, i) => colours.slice(i + 1).forEach((b) => {
    const dE = difference(a, b, deficiency);
    if (dE < best.dE) best = { dE, pair: [a, b] };
  }));
  return best;
}

describe('the colour measures the tests use', () => {
  test('when known pairs are measured, then the contrast ratios are WCAG\'s and CIEDE2000 is Sharma\'s reference values', () => {
    expect(contrastRatio('#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777')).toBeCloseTo(4.48, 2);
    // Sharma, Wu and Dalal (2005), test pairs 1 and 7.
    expect(deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(deltaE2000([50, 0, 0], [50, -1, 2])).toBeCloseTo(2.3669, 4);
    expect(lab('#ffffff')[0]).toBeCloseTo(100, 1);
  });
});

describe('the line palette', () => {
  test('when a colour of it is drawn on the white plots, then it has at least 3:1 contrast (WCAG 1.4.11, graphics)', () => {
    expect(COLOURS.filter((c) => contrastRatio(c) < 3)).toEqual([]);
    expect(Math.min(...COLOURS.map((c) => contrastRatio(c)))).toBeCloseTo(3.38, 2);
  });

  test('when any two of its colours are compared, then they look apart to normal vision and as simulated for deuteranopia and protanopia', () => {
    for (const deficiency of [undefined, DEFICIENCY.deuteranopia, DEFICIENCY.protanopia]) expect(closest(COLOURS, deficiency).dE).toBeGreaterThanOrEqual(DISTINCT);
    // A blue-yellow deficiency (rare) keeps them apart too, less far.
    expect(closest(COLOURS, DEFICIENCY.tritanopia).dE).toBeGreaterThanOrEqual(10);
  });

  test('when the old palette (category10) is measured so, then it fails both: three colours under 3:1 and red against green one colour to a deuteranope', () => {
    expect(CATEGORY10.filter((c) => contrastRatio(c) < 3)).toEqual(['#ff7f0e', '#17becf', '#e377c2']);
    expect(difference('#d62728', '#2ca02c', DEFICIENCY.deuteranopia)).toBeLessThan(5);
    expect(closest(CATEGORY10, DEFICIENCY.deuteranopia).dE).toBeLessThan(DISTINCT);
    expect(closest(CATEGORY10, DEFICIENCY.protanopia).dE).toBeLessThan(DISTINCT);
  });

  test('when the friction circles are drawn among points of the palette, then their grey is apart from every colour of it, for every vision', () => {
    for (const deficiency of [undefined, DEFICIENCY.deuteranopia, DEFICIENCY.protanopia]) for (const colour of COLOURS) expect(difference(colour, CIRCLE_COLOUR, deficiency)).toBeGreaterThanOrEqual(CIRCLE_APART);
  });

  test('when lines share a pane, then each colour has its own dash, the first solid, and a legend marker shows it as a dashed or dotted border', () => {
    expect(DASHES).toHaveLength(COLOURS.length);
    expect(new Set(DASHES.map((d) => d.join(','))).size).toBe(COLOURS.length);
    expect(dashOf(COLOURS[0] as string)).toEqual([]);
    expect(dashOf((COLOURS[2] as string).toUpperCase())).toEqual([2, 3]);
    expect(dashOf('#123456')).toEqual([]);
    expect(DASHES.map((d) => borderStyleOf(d))).toEqual(['solid', 'dashed', 'dotted', 'dashed', 'dashed', 'dashed', 'dotted', 'dashed']);
  });
});

describe('the colour ramp (track map, scatter, density grid)', () => {
  const samples = Array.from({ length: 101 }, (_, k) => colourRamp(k, 0, 100));

  test('when a value is coloured anywhere on it, then the colour has at least 3:1 contrast on the white canvas: a 3 px point or line of it shows', () => {
    const least = Math.min(...samples.map((c) => contrastRatio(c)));
    expect(least).toBeGreaterThanOrEqual(3);
  });

  test('when values rise, then the colour\'s lightness rises steadily, for normal vision and as simulated for deuteranopia and protanopia', () => {
    for (const deficiency of [undefined, DEFICIENCY.deuteranopia, DEFICIENCY.protanopia]) {
      const lightness = samples.map((c) => lab(c, deficiency)[0]);
      lightness.slice(1).forEach((l, k) => expect(l).toBeGreaterThan(lightness[k] as number));
      // Its ends far apart: the lowest and the highest are never mistaken.
      expect(difference(samples[0] as string, samples[100] as string, deficiency)).toBeGreaterThan(40);
    }
  });

  test('when the old rainbow (blue, green, red) is measured so, then its lightness does not rise steadily', () => {
    const rainbow = (t: number) => `#${[2 * t - 0.5, 1 - Math.abs(2 * t - 1), 1.5 - 2 * t].map((x) => Math.round(Math.max(0, Math.min(1, x)) * 255).toString(16).padStart(2, '0')).join('')}`;
    const lightness = Array.from({ length: 101 }, (_, k) => lab(rainbow(k / 100), DEFICIENCY.deuteranopia)[0]);
    expect(lightness.slice(1).some((l, k) => l < (lightness[k] as number))).toBe(true);
  });

  test('when its ends are named in a caption, then the names are the ends\' colours: dark purple low, orange high', () => {
    expect(RAMP_ENDS).toEqual(['dark purple', 'orange']);
    expect(colourRamp(0, 0, 1)).toBe(RAMP_STOPS[0]);
    expect(colourRamp(1, 0, 1)).toBe(RAMP_STOPS[RAMP_STOPS.length - 1]);
    // Dark purple: dark (L* under 15), its hue purple (b* blue, a* red); orange: a* and b* both well positive, b* more.
    const [low, high] = [lab(RAMP_STOPS[0]), lab(RAMP_STOPS[RAMP_STOPS.length - 1] as string)];
    expect(low[0]).toBeLessThan(15);
    expect(low[1]).toBeGreaterThan(0);
    expect(low[2]).toBeLessThan(0);
    expect(high[1]).toBeGreaterThan(20);
    expect(high[2]).toBeGreaterThan(high[1]);
    expect(colourScale({ name: 'Ground Speed', unit: 'km/h' }, [45.2, 210])).toBe('coloured by Ground Speed from 45.2 (dark purple) to 210 km/h (orange)');
    expect(scatterCaption({ x: { name: 'x', unit: '' }, y: { name: 'y', unit: '' }, kind: 'density', count: 3, timeBase: 'x', grid: { xAxis: { min: 0, max: 1, cells: 1 }, yAxis: { min: 0, max: 1, cells: 1 }, cells: [{ x: 0, y: 0, count: 3, colour: null }] } } as never)).toContain('(dark purple 1, orange 3)');
  });
});

describe('the page\'s text colours (viewer.css)', () => {
  const css = readFileSync(join(__dirname, '../../src/viewer.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  /** '#abc' as '#aabbcc'. */
  const full = (hex: string) => (hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex);
  /** Each rule's selector with its text colour and its own background (else the page's white). */
  const rules = [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)].map(([, selector, body]) => ({
    selector: (selector as string).trim(),
    colour: /(?:^|;)\s*color:\s*(#[0-9a-f]{3,6})\b/i.exec(body as string)?.[1],
    background: /background(?:-color)?:\s*(#[0-9a-f]{3,6})\b/i.exec(body as string)?.[1],
  }));

  test('when a rule sets a text colour, then it has at least 4.5:1 contrast on its background (WCAG AA, text): hints, notes, captions', () => {
    const coloured = rules.filter((r) => r.colour);
    expect(coloured.map((r) => r.selector)).toEqual(expect.arrayContaining(['.hint', '.pane-note', '.badge', '.status']));
    const low = coloured.filter((r) => contrastRatio(full(r.colour as string), full(r.background ?? '#fff')) < 4.5);
    expect(low.map((r) => `${r.selector}: ${r.colour} on ${r.background ?? '#fff'}`)).toEqual([]);
  });

  test('when a badge is drawn (best lap, out or in lap), then its white text has at least 4.5:1 on the badge', () => {
    const badges = rules.filter((r) => r.selector.startsWith('.badge'));
    expect(badges.map((r) => r.selector)).toEqual(['.badge', '.badge.kind']);
    for (const badge of badges) expect(contrastRatio('#ffffff', full(badge.background as string))).toBeGreaterThanOrEqual(4.5);
  });
});
