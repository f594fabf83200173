/** Line colours, in order: the first is the plot colour of a single-lap pane and of the first overlaid lap. */
export const COLOURS = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];

/** A g-g diagram's friction circles' grey: apart from the axes' text (#333) and frame (#888), and from every plot colour. */
export const CIRCLE_COLOUR = '#606060';

/** The colour of the k-th of a list (plotted channels, overlaid laps): the palette in turn. */
export function colourAt(k: number): string {
  return COLOURS[k % COLOURS.length] as string;
}
