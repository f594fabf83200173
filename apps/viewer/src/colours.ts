/**
 * Line colours, in order: the first is the plot colour of a single-lap pane and of the first overlaid lap.
 *
 * Okabe and Ito's colour-blind-safe hues (blue, vermillion, bluish green, reddish purple, orange, sky blue, black) and
 * Paul Tol's wine, each darkened or dulled until it has at least 3:1 contrast on the white plots (WCAG's minimum for
 * graphics; 3.38:1 to 20:1) and every pair stays apart (CIEDE2000 ≥ 17) for normal vision and as simulated for
 * deuteranopia and protanopia: a red-green colour-blind reader tells the reference lap from the third, and FL from RL.
 * test/unit/colours.test.ts measures both.
 */
export const COLOURS = ['#005599', '#994400', '#559977', '#997799', '#cc7700', '#0088ff', '#110022', '#661122'];

/**
 * The dash of each palette colour's line, in CSS pixels (uPlot's `dash`), where several lines share a pane: a second
 * cue beyond colour. The first solid, the others each their own pattern of dashes and dots.
 */
export const DASHES: readonly (readonly number[])[] = [[], [10, 4], [2, 3], [12, 3, 3, 3], [5, 4], [12, 3, 3, 3, 3, 3], [1, 4], [18, 5]];

/** A g-g diagram's friction circles' grey: apart from the axes' text (#333) and frame (#888), and from every plot colour. */
export const CIRCLE_COLOUR = '#606060';

/** The colour of the k-th of a list (plotted channels, overlaid laps): the palette in turn. */
export function colourAt(k: number): string {
  return COLOURS[k % COLOURS.length] as string;
}

/** The dash of a line in a palette colour (its place in COLOURS); solid for any other colour. */
export function dashOf(colour: string): number[] {
  const k = COLOURS.indexOf(colour.toLowerCase());
  return k < 0 ? [] : [...(DASHES[k] as readonly number[])];
}

/** A dash as a CSS border style, for a legend's marker or a list's swatch: dotted, dashed or solid. */
export function borderStyleOf(dash: readonly number[]): 'solid' | 'dashed' | 'dotted' {
  if (dash.length === 0) return 'solid';
  return Math.max(...dash) <= 3 || dash[0] === 1 ? 'dotted' : 'dashed';
}
