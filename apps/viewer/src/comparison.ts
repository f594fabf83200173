import type { ChannelsBody } from '@pitwall/contracts';
import { isDiscreteChannel } from '@pitwall/laps';
import type { DatasetRef, LapDistanceJson } from './api';
import { comparisonLabel, type LapRow } from './catalogue';
import { PaneStack, type PaneSpec } from './charts';
import { borderStyleOf, colourAt, dashOf } from './colours';
import { distanceSourceChoices, keptDistanceSource } from './distance-source';
import { el, button, focusOn, named, onCommittedChange } from './dom';
import { lapWindowFor, overlayOnGrid, toDistance } from './overlay';
import { LatestDraw } from './latest';
import { sayProblems } from './link';
import type { Page } from './page';
import { alignLines, panWindow, pointsForWidth, seriesLine, zoomAround, type Line } from './plot-data';
import { plotKeyAction, type PlotKeys } from './plot-keys';
import { readWithoutRefused, unreadByChannel, type NoneRead } from './refused-channels';

/** A lap picked for the comparison: which dataset, which lap, where it starts on that file's time axis. */
interface OverlayLap {
  dataset: DatasetRef;
  lapIndex: number;
  lapStart: number;
  lapTime: number;
  label: string;
}

/** The cursor sync key of the panes over a lap's distance: the delta's, and the overlay's when its axis is distance. */
const LAP_DISTANCE_SYNC = 'lap-distance';

/** The lap comparison: the laps picked with "Compare", overlaid on lap time or distance, and their delta to the first. */
export class LapComparison {
  private overlay: OverlayLap[] = [];
  /** The overlay's visible x range after a zoom (lap seconds or metres), null for whole laps. */
  private overlayView: [number, number] | null = null;
  /** The delta pane's visible distance range after a zoom, null for whole laps. */
  private deltaView: [number, number] | null = null;
  /** The overlay's and the delta's distance source ("Distance from", sent as distanceChannel); '': Automatic. */
  private distanceSource = '';
  // Over distance the overlay and the delta share one axis: a zoom of either zooms both, and they share the cursor
  // (the overlay's sync key follows its axis: LAP_DISTANCE_SYNC over distance).
  private readonly overlayPanes = this.lapPanes('overlay-panes', 'Lap overlay', 'overlay', (view) => this.zoomComparison('overlay', view));
  // One pane of the delta, taller: its seconds-scale axis gets enough ticks to read a gap off it.
  private readonly deltaPanes = this.lapPanes('delta-panes', 'Delta to the first lap', LAP_DISTANCE_SYNC, (view) => this.zoomComparison('delta', view), 280);
  /** The x range of the whole laps, as the overlay and the delta were last drawn unzoomed: where + and - zoom within. */
  private readonly wholeLaps = new Map<'overlay' | 'delta', [number, number]>();
  /**
   * The overlay's and the delta's reads under way (only the latest of each draws: removing a lap while the laps before
   * it are read must not bring them back), and the comparison list's changes (a change's draws stop at a newer one).
   */
  private readonly overlayDraws = new LatestDraw();
  private readonly deltaDraws = new LatestDraw();
  private changes = 0;

  constructor(
    private readonly page: Page,
    private readonly keys: PlotKeys,
  ) {}

  /** A zoom (or reset) of the overlay or the delta: the other follows when both are shown over distance. */
  private async zoomComparison(from: 'overlay' | 'delta', view: [number, number] | null): Promise<void> {
    const linked = el<HTMLSelectElement>('overlay-axis').value === 'distance' && this.overlayPanes.shown() && this.deltaPanes.shown();
    if (from === 'overlay' || linked) this.overlayView = view;
    if (from === 'delta' || linked) this.deltaView = view;
    await Promise.all([from === 'overlay' || linked ? this.plotOverlay() : undefined, from === 'delta' || linked ? this.plotDelta() : undefined]);
  }

  /** Panes of the lap comparison: a drag keeps the dragged range as the view and plots again. */
  private lapPanes(id: string, label: string, syncKey: string, replot: (view: [number, number] | null) => Promise<void>, height?: number): PaneStack {
    return new PaneStack(el(id), {
      syncKey,
      label,
      ...(height ? { height } : {}),
      onZoom: (min, max) => {
        this.page.actionAt = performance.now();
        void this.page.run(() => replot([min, max]));
      },
      onDrawn: () => this.page.drawn(el(id)),
      onReset: () => {
        this.page.actionAt = performance.now();
        void this.page.run(() => replot(null));
      },
    });
  }

  start(): void {
    // The plot keys on the overlay and on the delta, as on the time plots: each the group of its own plot area.
    // Ctrl and the wheel zoom each around the mouse's x, as + and - do around the cursor.
    for (const [from, panes] of [
      ['overlay', this.overlayPanes],
      ['delta', this.deltaPanes],
    ] as const) {
      this.keys.add({
        area: el(`${from}-panes`),
        slider: panes.slider,
        onKey: (e) => this.onKey(e, from, panes),
        drawn: () => panes.shown(),
        mouseX: () => panes.cursorX(),
        zoom: (factor, centre) => this.zoomBy(from, panes, factor, centre),
      });
    }
    el('overlay-plot').addEventListener('click', () => {
      this.overlayView = null;
      void this.page.run(() => this.plotOverlay());
    });
    el('delta-plot').addEventListener('click', () => {
      this.deltaView = null;
      void this.page.run(() => this.plotDelta());
    });
    onCommittedChange(el<HTMLSelectElement>('distance-source'), (value) => this.chooseDistanceSource(value));
    el('overlay-zoom-reset').addEventListener('click', () => {
      this.overlayView = null;
      this.deltaView = null;
      if (this.overlayPanes.shown()) void this.page.run(() => this.plotOverlay());
      if (this.deltaPanes.shown()) void this.page.run(() => this.plotDelta());
    });
    el('overlay-clear').addEventListener('click', () => {
      this.overlay = [];
      this.overlayView = null;
      this.deltaView = null;
      this.comparisonChanged();
    });
  }

  /**
   * A plot key on the overlay or the delta (plot-keys.ts): ← and → step their cursor one drawn point (Shift: ten; the
   * plot area's slider text says the values at it), + and - zoom in and out around it (zoomBy), Escape goes back to the
   * whole laps.
   */
  private onKey(e: KeyboardEvent, from: 'overlay' | 'delta', panes: PaneStack): boolean {
    const action = plotKeyAction(e);
    if (!action || !panes.xRange()) return false;
    if ('step' in action) panes.stepCursor(action.step);
    else if ('jump' in action) panes.jumpCursor(action.jump);
    else if ('zoom' in action) this.zoomBy(from, panes, action.zoom, panes.keyCursorX());
    else if (from === 'overlay' ? this.overlayView : this.deltaView) this.rezoom(from, null);
    else return false;
    return true;
  }

  /**
   * The overlay or the delta zoomed by `factor` around `centre` (the middle when null or off the range shown): one read,
   * as a drag's (+ and -, Ctrl and the wheel), within the whole laps (moved in, not cut); out to their length, the whole
   * laps' own plot, none when they are shown already.
   */
  private zoomBy(from: 'overlay' | 'delta', panes: PaneStack, factor: number, centre: number | null): void {
    const shown = panes.xRange();
    if (!shown) return;
    const whole = this.wholeLaps.get(from) ?? shown;
    const [min, max] = zoomAround(shown[0], shown[1] - shown[0], centre ?? Number.NaN, factor);
    const zoomed = panWindow(min, max - min, 0, whole[0], whole[1]);
    if (zoomed.duration < whole[1] - whole[0]) this.rezoom(from, [zoomed.start, zoomed.start + zoomed.duration]);
    else if (from === 'overlay' ? this.overlayView : this.deltaView) this.rezoom(from, null);
  }

  /** A zoom of the overlay or the delta to `view` (null: whole laps), timed as the user's action. */
  private rezoom(from: 'overlay' | 'delta', view: [number, number] | null): void {
    this.page.actionAt = performance.now();
    void this.page.run(() => this.zoomComparison(from, view));
  }

  /**
   * "Distance from": Automatic, then the dataset's channels in a distance or speed unit, then the account's math
   * channels in one. The choice stays while the dataset has it (laps added or removed keep it), else it is Automatic.
   */
  renderDistanceSources(): void {
    const choices = distanceSourceChoices(this.page.metadata?.channels ?? []);
    const kept = keptDistanceSource(this.distanceSource, choices);
    if (kept !== this.distanceSource) this.page.status(`Distance from: this dataset has no channel ${this.distanceSource}, back to Automatic.`);
    this.distanceSource = kept;
    const group = (label: string, math: boolean) => {
      const g = document.createElement('optgroup');
      g.label = label;
      g.append(...choices.filter((c) => c.math === math).map((c) => new Option(`${c.name} (${c.unit}${c.kind === 'speed' ? ', integrated' : ''})`, c.name)));
      return g;
    };
    const select = el<HTMLSelectElement>('distance-source');
    select.replaceChildren(new Option('Automatic', ''), ...[group('Channels', false), group('Math', true)].filter((g) => g.childElementCount > 0));
    select.value = kept;
  }

  /** A new distance source: the overlay over distance and the delta on screen are read again, over whole laps. */
  private chooseDistanceSource(name: string): void {
    this.distanceSource = name;
    this.overlayView = null;
    this.deltaView = null;
    if (this.overlayPanes.shown() && el<HTMLSelectElement>('overlay-axis').value === 'distance') void this.page.run(() => this.plotOverlay());
    if (this.deltaPanes.shown()) void this.page.run(() => this.plotDelta());
  }

  /** The lap trace reads' options: the chosen distance source, none for Automatic. */
  private traceOptions(maxPoints?: number): { maxPoints?: number; distanceChannel?: string } {
    return { ...(maxPoints !== undefined ? { maxPoints } : {}), ...(this.distanceSource ? { distanceChannel: this.distanceSource } : {}) };
  }

  addToOverlay(lap: LapRow): void {
    const dataset = this.page.dataset;
    if (!dataset) return;
    if (this.overlay.some((o) => o.dataset.entityId === dataset.entityId && o.dataset.group === dataset.group && o.lapIndex === lap.lapIndex)) return;
    this.overlay.push({ dataset, lapIndex: lap.lapIndex, lapStart: lap.start, lapTime: lap.lapTime, label: comparisonLabel(dataset, lap) });
    this.comparisonChanged();
  }

  /**
   * The comparison list changed: listed again, and the overlay and the delta on screen drawn again from it, so each
   * trace keeps its list swatch's colour (the list's position in COLOURS); a delta left with fewer than two laps
   * is cleared and said.
   */
  private comparisonChanged(removedAt?: number): void {
    this.renderOverlayList(removedAt);
    // What is being read for the list as it was is not drawn (not even for a moment before this change's draws).
    const change = ++this.changes;
    this.overlayDraws.drop();
    this.deltaDraws.drop();
    if (this.overlay.length === 0) {
      this.overlayPanes.clear();
      this.deltaPanes.clear();
      return;
    }
    const overlay = this.overlayPanes.shown();
    const delta = this.deltaPanes.shown();
    // One after the other, so the status line ends with the delta's.
    void this.page.run(async () => {
      if (overlay) await this.plotOverlay();
      if (!delta || change !== this.changes) return;
      if (this.overlay.length >= 2) await this.plotDelta();
      else {
        this.deltaPanes.clear();
        this.page.status('Delta cleared: it needs two or more laps in the comparison, the first the reference.');
      }
    });
  }

  /**
   * Lists the comparison's laps, each with its colour's swatch (decoration: not read) and its remove button, named for
   * its lap. After a remove the focus goes to the remove button now at that place (the next lap's, else the last's),
   * or to the list once it is empty: it fell to the page's body with the button.
   */
  private renderOverlayList(focusAt?: number): void {
    const list = el('overlay-list');
    list.replaceChildren(
      ...this.overlay.map((o, i) => {
        const li = document.createElement('li');
        li.dataset['testid'] = `overlay-item-${i}`;
        const swatch = document.createElement('span');
        // A short line in the lap's colour and dash, as its trace is drawn (a colour-blind reader's second cue).
        swatch.className = 'line-swatch';
        swatch.style.color = colourAt(i);
        swatch.style.borderTopStyle = borderStyleOf(dashOf(colourAt(i)));
        swatch.setAttribute('aria-hidden', 'true');
        li.append(swatch, o.label + (i === 0 ? ' (reference)' : ''));
        const remove = button('remove', `overlay-remove-${i}`, () => {
          this.overlay.splice(i, 1);
          this.comparisonChanged(i);
        });
        li.appendChild(named(remove, `remove ${o.label} from the comparison`));
        return li;
      }),
    );
    if (focusAt === undefined) return;
    const next = list.querySelectorAll<HTMLElement>('button')[Math.min(focusAt, this.overlay.length - 1)];
    if (next) focusOn(next);
    else {
      list.tabIndex = -1;
      focusOn(list);
    }
  }

  /** The comparison's laps read and drawn on the overlay (the latest asked for only). */
  private plotOverlay(): Promise<void> {
    return this.overlayDraws.draw((current) => this.readOverlay(current));
  }

  private async readOverlay(current: () => boolean): Promise<void> {
    const m = this.page.metadata;
    // The list as it is now: a change while the laps are read draws again with its own list.
    const overlay = [...this.overlay];
    if (!m || overlay.length === 0) {
      this.page.status('Add laps with "Compare" first.');
      return;
    }
    const channels = this.page.ticked();
    if (channels.length === 0) {
      this.page.status('Tick one or more channels to overlay.');
      return;
    }
    const api = this.page.requireApi();
    const axis = el<HTMLSelectElement>('overlay-axis').value === 'distance' ? 'distance' : 'time';
    const width = pointsForWidth(this.overlayPanes.plotWidth());
    this.page.progress(`Reading ${overlay.length} lap(s)…`);
    const names = channels.map((c) => c.name);
    const view = this.overlayView;
    let source: LapDistanceJson['source'] | undefined;
    const perLap = await Promise.all(
      overlay.map(async (o) => {
        // Zoomed: each lap's window under the visible range, re-read at the plot's resolution. A zoom over distance
        // needs the lap's distance trace first (to find its times); otherwise both reads go at once.
        const distanceRead = axis === 'distance' ? api.distance(o.dataset, o.lapIndex, this.traceOptions()) : Promise.resolve(null);
        const zoomed = view ? lapWindowFor(view, o, await distanceRead) : null;
        const body: ChannelsBody = zoomed ? { channels: names, mode: 2, startTime: zoomed.start, duration: zoomed.duration } : { channels: names, mode: 1, lapIndex: o.lapIndex };
        // A channel the service refuses on its own for this lap's file (a math channel reading a param() its car
        // lacks, a lap of another car in the comparison) does not stop the others, nor the other laps: read again
        // without it, as the time plots do, and said.
        const [read, distance] = await Promise.all([readWithoutRefused(names, (channels) => api.channels(o.dataset, { ...body, channels }, width), true), distanceRead]);
        source ??= distance?.source;
        const lines = names.map((name) => {
          const s = read.answer?.find((x) => x.name === name);
          const line = s ? seriesLine(s, o.lapStart) : { x: new Float64Array(0), y: [] };
          return distance ? toDistance(line, distance) : line;
        });
        return { lines, read };
      }),
    );
    if (!current()) return;
    // Every channel refused for every lap: the refusal, as the time plots say one of every channel ticked.
    const none = perLap.every((l) => l.read.answer === null);
    if (none) throw (perLap[0]?.read as NoneRead).error;
    const unread = unreadByChannel(overlay, perLap.map((l) => l.read.unread));
    // A channel no lap could read has no pane (its traces would all be empty); the others are drawn.
    const drawn = channels.map((c, k) => ({ c, k })).filter(({ c }) => perLap.some((l) => l.read.asked.some((n) => n === c.name)));
    const specs: PaneSpec[] = drawn.map(({ c, k }) => ({
      id: `overlay-${c.name}`,
      title: `${c.name} over ${axis === 'distance' ? 'distance' : 'lap time'}`,
      unit: c.unit,
      xLabel: axis === 'distance' ? 'distance (m)' : 'lap time (s)',
      series: overlay.map((o, i) => ({ label: o.label, colour: colourAt(i), step: isDiscreteChannel(c) })),
      data: overlayOnGrid(
        perLap.map((l) => l.lines[k] as Line),
        c,
        width,
        view ?? undefined,
      ) as PaneSpec['data'],
      ...(view ? { xRange: view } : {}),
    }));
    this.overlayPanes.setSyncKey(axis === 'distance' ? LAP_DISTANCE_SYNC : 'overlay');
    this.overlayPanes.render(specs);
    this.keepWholeLaps('overlay', this.overlayPanes, view);
    const notRead = unread.length ? `; could not read ${sayProblems(unread)}: kept ticked, Overlay reads them again` : '';
    this.page.status(`${overlay.length} lap(s) overlaid on ${axis === 'distance' ? `distance (source: ${source?.kind ?? '-'} ${source?.channel ?? ''})` : 'lap time'}${notRead}.`);
  }

  /** The whole laps' x range of a plot drawn unzoomed (the ends of its data: uPlot sets its scale later). */
  private keepWholeLaps(from: 'overlay' | 'delta', panes: PaneStack, view: [number, number] | null): void {
    const range = panes.xRange();
    if (!view && range) this.wholeLaps.set(from, range);
  }

  /** Each lap's delta to the reference read and drawn (the latest asked for only). */
  private plotDelta(): Promise<void> {
    return this.deltaDraws.draw((current) => this.readDelta(current));
  }

  private async readDelta(current: () => boolean): Promise<void> {
    if (this.overlay.length < 2) {
      this.page.status('Add two or more laps with "Compare": the first is the reference.');
      return;
    }
    const api = this.page.requireApi();
    const [reference, ...laps] = this.overlay;
    const width = pointsForWidth(this.deltaPanes.plotWidth());
    const view = this.deltaView;
    // Zoomed: the full-resolution trace (one point per sample), shown over the visible distance range.
    const answers = await Promise.all(laps.map((o) => api.delta(o.dataset, o.lapIndex, reference.dataset, reference.lapIndex, this.traceOptions(view ? undefined : width))));
    if (!current()) return;
    const lines: Line[] = answers.map((a) => ({ x: Float64Array.from(a.distance), y: a.delta.map((v) => (Number.isFinite(v) ? v : null)) }));
    this.deltaPanes.render([
      {
        id: 'delta',
        title: `Delta to ${reference.label}`,
        unit: 's (−: ahead)',
        xLabel: 'distance (m)',
        series: laps.map((o, i) => ({ label: o.label, colour: colourAt(i + 1) })),
        data: alignLines(lines) as PaneSpec['data'],
        ...(view ? { xRange: view } : {}),
      },
    ]);
    this.keepWholeLaps('delta', this.deltaPanes, view);
    this.page.status(`Delta of ${laps.length} lap(s) to the reference (source: ${answers[0]?.source.kind ?? '-'} ${answers[0]?.source.channel ?? ''}).`);
  }
}
