import type { TrackMapJson } from '@pitwall/contracts';
import { colourBar, colourScale } from './analysis';
import { showColourBar } from './canvas-drawing';
import { COLOURS } from './colours';
import { displayNumber } from './display-number';
import { el } from './dom';
import { LatestDraw } from './latest';
import type { Page } from './page';
import { notColouredBy, refusedFields, type RefusedChannel } from './refused-channels';
import type { TimePlots } from './time-plots';
import { fileTimeOf, mapSegments, mapView, pointAtFileTime, pointNearPixel, type MapSegment, type MapView } from './track-map';

/** The track map: the lap's path, its cursor linked to the time plots'. */
export class TrackMapPanel {
  /** The track map on screen: the answer, where it is drawn, and the marker's point (null: none). */
  private trackMap: { answer: TrackMapJson; view: MapView; segments: MapSegment[]; marker: number | null; lapIndex: number; caption: string } | null = null;
  /** Set while the map moves the time plots' cursor, so their cursor hook does not move the marker back. */
  private cursorFromMap = false;
  /** The map's reads under way: only the latest asked for draws (nor one of a dataset since closed). */
  private readonly draws = new LatestDraw();

  constructor(
    private readonly page: Page,
    private readonly plots: TimePlots,
  ) {}

  start(): void {
    el('trackmap-plot').addEventListener('click', () => void this.page.run(() => this.draws.draw((current) => this.plotTrackMap(current))));
    const mapCanvas = el<HTMLCanvasElement>('trackmap-canvas');
    mapCanvas.addEventListener('mousemove', (e) => this.hoverMap(mapCanvas, e));
    mapCanvas.addEventListener('mouseleave', () => {
      if (!this.trackMap) return;
      this.cursorFromMap = true;
      this.plots.panes.setCursorAt(null);
      this.cursorFromMap = false;
      this.drawTrackMap(null);
    });
  }

  /** The dataset closed: no map, its canvas, caption and colour scale cleared. */
  clear(): void {
    this.draws.drop();
    this.trackMap = null;
    el<HTMLCanvasElement>('trackmap-canvas').getContext('2d')?.clearRect(0, 0, 560, 420);
    el('trackmap-canvas').hidden = true;
    el('trackmap-caption').textContent = '';
    showColourBar('trackmap', null);
  }

  /** The time plots' cursor moved (file time, null off the plots): the marker at the last point at or before it. */
  followCursor(x: number | null): void {
    if (!this.cursorFromMap && this.trackMap) this.drawTrackMap(x === null ? null : pointAtFileTime(this.trackMap.answer, x));
  }

  /** The time plots drawn again: the track map follows the lap plotted (else it stays on the best lap), and says when it shows another one. */
  followPlots(): void {
    if (this.plots.scope.kind === 'lap' && !this.plots.view) el<HTMLSelectElement>('trackmap-lap').value = String(this.plots.scope.lapIndex);
    this.renderMapCaption();
  }

  private async plotTrackMap(current: () => boolean): Promise<void> {
    if (!this.page.dataset) return;
    if (this.page.laps.length === 0) throw new Error('This file has no laps: a track map is drawn for a lap.');
    const colour = el<HTMLSelectElement>('trackmap-colour').value;
    const lapIndex = Number(el<HTMLSelectElement>('trackmap-lap').value);
    const canvas = el<HTMLCanvasElement>('trackmap-canvas');
    // About one point per two pixels of the path's length on the canvas is as fine as the eye resolves.
    const dataset = this.page.dataset;
    const api = this.page.requireApi();
    const body = { lapIndex, maxPoints: 2 * (canvas.width + canvas.height) };
    let answer: TrackMapJson;
    // Its colour channel refused on its own (a math channel whose constant or input this file lacks): the lap drawn
    // without colour, and said.
    let uncoloured: RefusedChannel | undefined;
    try {
      answer = await api.trackMap(dataset, { ...body, ...(colour ? { colour } : {}) });
    } catch (err) {
      const refused = colour ? refusedFields(err, [['colour', colour]]) : null;
      if (!refused?.[0]) throw err;
      uncoloured = refused[0];
      if (!current()) return;
      answer = await api.trackMap(dataset, body);
    }
    if (!current()) return;
    const view = mapView(answer, canvas.width, canvas.height);
    this.trackMap = { answer, view, segments: mapSegments(answer, view, COLOURS[0] as string), marker: null, lapIndex, caption: '' };
    this.drawTrackMap(null);
    const points = answer.points.x.length;
    const length = answer.points.distance[points - 1] ?? 0;
    const from = answer.source === 'gps' ? 'GPS' : `dead reckoning (${answer.source === 'yaw-rate' ? 'speed and yaw rate' : 'speed and lateral acceleration'})`;
    const closure = answer.closureErrorMetres === null ? 'not a closed lap' : answer.source === 'gps' ? `ends ${answer.closureErrorMetres.toFixed(1)} m from its start` : `closure error ${answer.closureErrorMetres.toFixed(1)} m, spread along the lap`;
    showColourBar('trackmap', answer.colour ? colourBar(answer.colour.unit, answer.points.value ?? []) : null);
    const notColoured = uncoloured ? notColouredBy(uncoloured) : '';
    this.trackMap.caption = `Lap ${lapIndex + 1} from ${from}: ${answer.channels.map((c) => c.name).join(', ')}; ${length.toFixed(0)} m, ${points} of ${answer.count} points (even over distance); ${closure}${answer.colour ? `; ${colourScale(answer.colour, answer.points.value ?? [])}` : ''}${notColoured ? `; ${notColoured}` : ''}.`;
    this.renderMapCaption();
    this.page.status(`Track map of lap ${lapIndex + 1}${notColoured ? `; ${notColoured}` : ''}.`);
  }

  /** Whether file time `t` is on the time plots' axis (hovering the map moves their cursor only then). */
  private plotsShow(t: number): boolean {
    const r = this.plots.plottedRange;
    return !!r && t >= r.start - 1e-6 && t <= r.start + r.duration + 1e-6;
  }

  /** The map's caption, and when the time plots show another lap or range than the map's lap, that they do. */
  private renderMapCaption(): void {
    const map = this.trackMap;
    if (!map) return;
    const r = this.plots.plottedRange;
    const lap = this.page.laps[map.lapIndex];
    let note = '';
    if (r && lap && !(this.plotsShow(lap.start) && this.plotsShow(lap.start + lap.lapTime))) {
      const shown = this.plots.scope.kind === 'lap' && !this.plots.view ? `lap ${this.plots.scope.lapIndex + 1}` : `${displayNumber(r.start, 8)} s to ${displayNumber(r.start + r.duration, 8)} s`;
      const some = lap.start < r.start + r.duration && lap.start + lap.lapTime > r.start;
      note = some
        ? ` The time plots show ${shown}, not all of lap ${map.lapIndex + 1}: hovering the map moves their cursor only over the part they show.`
        : ` The time plots show ${shown}, not lap ${map.lapIndex + 1}: hovering the map does not move their cursor.`;
    }
    el('trackmap-caption').textContent = map.caption + note;
  }

  /** Draws the path and, at point `marker`, the cursor's marker; the canvas says where it is for the tests. */
  private drawTrackMap(marker: number | null): void {
    const map = this.trackMap;
    if (!map) return;
    map.marker = marker;
    const canvas = el<HTMLCanvasElement>('trackmap-canvas');
    canvas.hidden = false;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.lineWidth = 3;
    g.lineCap = 'round';
    for (const s of map.segments) {
      g.strokeStyle = s.colour;
      g.beginPath();
      g.moveTo(...s.from);
      g.lineTo(...s.to);
      g.stroke();
    }
    // The start line: where the lap's first point is.
    const [sx, sy] = map.view.toPixel(map.answer.points.x[0] ?? 0, map.answer.points.y[0] ?? 0);
    g.fillStyle = '#1b1f24';
    g.fillRect(sx - 2, sy - 6, 4, 12);
    if (marker === null) {
      delete canvas.dataset['marker'];
      delete canvas.dataset['markerX'];
      delete canvas.dataset['markerY'];
    } else {
      const [mx, my] = map.view.toPixel(map.answer.points.x[marker] as number, map.answer.points.y[marker] as number);
      g.beginPath();
      g.arc(mx, my, 7, 0, 2 * Math.PI);
      g.fillStyle = '#ffffff';
      g.fill();
      g.lineWidth = 3;
      g.strokeStyle = '#000000';
      g.stroke();
      canvas.dataset['marker'] = String(marker);
      canvas.dataset['markerX'] = mx.toFixed(1);
      canvas.dataset['markerY'] = my.toFixed(1);
    }
    canvas.dataset['drawn'] = String(Number(canvas.dataset['drawn'] ?? 0) + 1);
  }

  /** The mouse over the map: the marker at the nearest point, and the time plots' cursor at its time. */
  private hoverMap(canvas: HTMLCanvasElement, e: MouseEvent): void {
    const map = this.trackMap;
    if (!map) return;
    const box = canvas.getBoundingClientRect();
    const px = ((e.clientX - box.left) * canvas.width) / box.width;
    const py = ((e.clientY - box.top) * canvas.height) / box.height;
    const index = pointNearPixel(map.answer, map.view, px, py);
    if (index === null || index === map.marker) return;
    this.drawTrackMap(index);
    // A time off the plots' axis (another lap's) is not put on it (it read "no data"): their cursor leaves instead.
    const t = fileTimeOf(map.answer, index);
    this.cursorFromMap = true;
    try {
      this.plots.panes.setCursorAt(this.plotsShow(t) ? t : null);
    } finally {
      this.cursorFromMap = false;
    }
  }
}
