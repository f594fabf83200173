import { axisTicks, PLOT_MARGIN, type ColourBar, type Mark } from './analysis';
import { CIRCLE_COLOUR } from './colours';
import { el } from './dom';

/** Shows the colour scale under a coloured plot (`id`: scatter or trackmap), or hides it when the plot has none. */
export function showColourBar(id: 'scatter' | 'trackmap', bar: ColourBar | null): void {
  const box = el(`${id}-colour-bar`);
  box.hidden = !bar;
  // Set through the CSSOM (the page's Content-Security-Policy refuses inline style attributes, not this).
  el(`${id}-colour-bar-ramp`).style.backgroundImage = bar?.gradient ?? '';
  el(`${id}-colour-bar-low`).textContent = bar?.low ?? '';
  el(`${id}-colour-bar-high`).textContent = bar?.high ?? '';
}

/**
 * Fills the marks on a cleared canvas, with the plotting area's frame and each axis's ticks (round values, whole
 * numbers on a count axis: `yCounts`) and label; the canvas says its tick labels for the tests. `circles`: the radii
 * of a g-g diagram's friction circles about 0 g (frictionCircles), drawn dashed over the marks, labelled in whole g.
 */
export function drawMarks(canvas: HTMLCanvasElement, marks: readonly Mark[], xRange: [number, number], yRange: [number, number], xLabel: string, yLabel: string, yCounts = false, xWhole = false, circles: readonly number[] = []): void {
  canvas.hidden = false;
  const g = canvas.getContext('2d') as CanvasRenderingContext2D;
  g.clearRect(0, 0, canvas.width, canvas.height);
  for (const m of marks) {
    g.fillStyle = m.colour;
    g.fillRect(m.x, m.y, m.w, m.h);
  }
  const left = PLOT_MARGIN.left;
  const right = canvas.width - PLOT_MARGIN.right;
  const top = PLOT_MARGIN.top;
  const bottom = canvas.height - PLOT_MARGIN.bottom;
  if (circles.length) drawCircles(g, circles, xRange, yRange, { left, right, top, bottom });
  canvas.dataset['circles'] = circles.join(' ');
  g.strokeStyle = '#888';
  g.strokeRect(left, top, right - left, bottom - top);
  g.fillStyle = '#333';
  g.font = '11px system-ui, sans-serif';
  // Where a value falls along an axis: the same scale as the marks'.
  const at = (v: number, [a, b]: [number, number], from: number, to: number) => from + ((v - a) / (b > a ? b - a : 1)) * (to - from);
  // Bars of whole values (a gear's): a tick under every one while they are few (gears 1 to 6, not 0, 2, 4).
  const xTicks = axisTicks(xRange[0], xRange[1], xWhole ? Math.min(12, Math.max(5, Math.round(xRange[1] - xRange[0]))) : 5, xWhole);
  const yTicks = axisTicks(yRange[0], yRange[1], 5, yCounts);
  g.textAlign = 'center';
  for (const t of xTicks) {
    const x = at(t.value, xRange, left, right);
    g.fillRect(x, bottom, 1, 4);
    g.fillText(t.label, x, bottom + 14);
  }
  g.fillText(xLabel, (left + right) / 2, bottom + 27);
  g.textAlign = 'right';
  for (const t of yTicks) {
    const y = at(t.value, yRange, bottom, top);
    g.fillRect(left - 4, y, 4, 1);
    g.fillText(t.label, left - 6, y + 4);
  }
  g.textAlign = 'center';
  g.save();
  g.translate(11, (top + bottom) / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(yLabel, 0, 0);
  g.restore();
  g.textAlign = 'start';
  canvas.dataset['xTicks'] = xTicks.map((t) => t.label).join(' ');
  canvas.dataset['yTicks'] = yTicks.map((t) => t.label).join(' ');
  canvas.dataset['drawn'] = String(Number(canvas.dataset['drawn'] ?? 0) + 1);
}

/** Friction circles about 0 g, clipped to the plotting area: dashed, each whole one labelled where it crosses 45°. */
function drawCircles(g: CanvasRenderingContext2D, radii: readonly number[], xRange: [number, number], yRange: [number, number], area: { left: number; right: number; top: number; bottom: number }): void {
  const { left, right, top, bottom } = area;
  const perX = (right - left) / (xRange[1] - xRange[0] || 1);
  const perY = (bottom - top) / (yRange[1] - yRange[0] || 1);
  const cx = left + (0 - xRange[0]) * perX;
  const cy = bottom - (0 - yRange[0]) * perY;
  g.save();
  g.beginPath();
  g.rect(left, top, right - left, bottom - top);
  g.clip();
  g.strokeStyle = CIRCLE_COLOUR;
  g.lineWidth = 1.5;
  g.setLineDash([4, 3]);
  g.fillStyle = CIRCLE_COLOUR;
  g.font = '10px system-ui, sans-serif';
  for (const r of radii) {
    g.beginPath();
    g.ellipse(cx, cy, r * perX, r * perY, 0, 0, 2 * Math.PI);
    g.stroke();
    if (Number.isInteger(r)) g.fillText(`${r} g`, cx + r * perX * Math.SQRT1_2 + 2, cy - r * perY * Math.SQRT1_2 - 2);
  }
  g.restore();
}
