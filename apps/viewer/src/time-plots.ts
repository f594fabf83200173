import type { ChannelsBody, DataFileMetadataJson } from '@pitwall/contracts';
import { isDiscreteChannel } from '@pitwall/laps';
import { PaneStack, type PaneSpec } from './charts';
import { colourAt } from './colours';
import { displayNumber } from './display-number';
import { el, focusAfter } from './dom';
import { LatestDraw } from './latest';
import { sayProblems } from './link';
import type { Page } from './page';
import { plotKeyAction, type PlotKeys } from './plot-keys';
import { readWithoutRefused } from './refused-channels';
import { alignLines, clampWindow, formatCursorTime, formatValue, paneGroups, panWindow, pointsForWidth, seriesLine, valueAt, windowInFile, zoomAround, type Line } from './plot-data';

/** A channel on the time plots: its name, unit, the line drawn and whether it holds its value (steps). */
interface PlottedChannel {
  name: string;
  unit: string;
  line: Line;
  step: boolean;
}

/** What the time plots show: the whole file, one lap, or a window of file time. */
export type Scope = { kind: 'file' } | { kind: 'lap'; lapIndex: number } | { kind: 'window'; start: number; duration: number };

/** What follows the time plots: the link when their panes or y scales change, and the track map's marker and caption. */
export interface TimePlotHooks {
  linkChanged(): void;
  cursorMoved(x: number | null): void;
  plotted(): void;
}

/** The time plots of the ticked channels over the scope: its zoom and pan, the cursor and its values line, the y scales. */
export class TimePlots {
  scope: Scope = { kind: 'file' };
  /** The window on screen after zooms and pans (file time), null when it is the scope's own range. */
  view: { start: number; duration: number } | null = null;
  /** The time plots' channels, each with whether its value is held between points (a discrete channel such as gear). */
  plotted: PlottedChannel[] = [];
  /** The file-time range the time plots show (their x axis), null when none is plotted. */
  plottedRange: { start: number; duration: number } | null = null;
  /** The time panes' y scales set by hand, by pane id (a channel's name, or `unit:<unit>` one pane a unit); others auto. */
  readonly yScales = new Map<string, [number, number]>();
  /** The reads of the time plots under way: only the latest draws. */
  private readonly draws = new LatestDraw();
  readonly panes = new PaneStack(el('panes'), {
    syncKey: 'time',
    label: 'Time plots',
    compact: true,
    onZoom: (min, max) => void this.zoomTo(min, max),
    onCursor: (x) => this.showCursor(x),
    onDrawn: () => this.page.drawn(el('panes')),
    onReset: () => this.resetZoom(),
    onYRange: (id, range) => this.setYScale(id, range),
  });

  constructor(
    private readonly page: Page,
    private readonly hooks: TimePlotHooks,
    private readonly keys: PlotKeys,
  ) {}

  start(): void {
    el('plot').addEventListener('click', () => this.plotAndFocus(this.scopeFromControls()));
    el('pan-left').addEventListener('click', () => void this.pan(-0.5));
    el('pan-right').addEventListener('click', () => void this.pan(0.5));
    el('zoom-out').addEventListener('click', () => void this.zoomOut());
    el('zoom-reset').addEventListener('click', () => this.resetZoom());
    // The same samples drawn again on other panes, or on another axis: nothing is read.
    for (const id of ['panes-by-unit', 'time-axis']) {
      el(id).addEventListener('change', () => {
        this.renderTimePanes();
        this.fillCursorLine(null);
        this.hooks.linkChanged();
      });
    }
    // The keyboard and the wheel over the time plots: arrows step the cursor, + and - zoom around it, Escape resets;
    // Ctrl and the wheel zoom around the mouse's time.
    this.keys.add({
      area: el('panes'),
      slider: this.panes.slider,
      onKey: (e) => this.onKey(e),
      drawn: () => this.panes.shown(),
      mouseX: () => this.panes.cursorX(),
      zoom: (factor, centre) => this.zoomBy(factor, centre),
    });
  }

  /** The dataset closed: its scope and zoom forgotten, its panes, y scales and values line cleared. */
  clear(): void {
    this.draws.drop();
    this.view = null;
    this.scope = { kind: 'file' };
    this.panes.clear();
    this.plotted = [];
    this.plottedRange = null;
    this.yScales.clear();
    el('cursor-values').replaceChildren();
  }

  private scopeFromControls(): Scope {
    const kind = el<HTMLSelectElement>('scope').value;
    if (kind === 'lap') return { kind: 'lap', lapIndex: Number(el<HTMLSelectElement>('scope-lap').value) };
    if (kind === 'window') return { kind: 'window', start: Number(el<HTMLInputElement>('window-start').value), duration: Number(el<HTMLInputElement>('window-duration').value) };
    return { kind: 'file' };
  }

  /** A lap's Plot: the lap plotted (the lap's button is scrolled out of sight), as the main Plot plots its scope. */
  plotLap(lapIndex: number): void {
    this.plotAndFocus({ kind: 'lap', lapIndex });
  }

  /**
   * Plot (the main one, or a lap's): the scope plotted, and the focus moved to the plots, where the plot keys act,
   * unless the user has moved it elsewhere while they were read.
   */
  private plotAndFocus(scope: Scope): void {
    const origin = document.activeElement;
    this.page.actionAt = performance.now();
    void this.page.run(async () => {
      await this.plotScope(scope);
      if (this.plotted.length > 0) focusAfter(origin, this.panes.slider);
    });
  }

  /**
   * Plots a new scope. When its read fails, the plots on screen stay, and so the scope and its controls go back to
   * what they show (the Lap picker said the new lap over the old lap's plot).
   */
  async plotScope(scope: Scope): Promise<void> {
    const before = { scope: this.scope, view: this.view };
    this.scope = scope;
    this.view = null;
    this.scopeToControls();
    try {
      await this.plot();
      this.revealPanes();
    } catch (err) {
      if (this.plotted.length > 0) {
        this.scope = before.scope;
        this.view = before.view;
        this.scopeToControls();
      }
      throw err;
    }
  }

  /**
   * A new scope plotted below the window's bottom (a laptop's 768 px, the file's tables above): the page scrolls the
   * plots up to just under the messages, so the plot asked for is seen. Plots already in view stay where they are.
   */
  private revealPanes(): void {
    const panes = el('panes');
    const top = panes.getBoundingClientRect().top;
    if (this.plotted.length === 0 || top <= window.innerHeight - 160) return;
    // Measured now: the values line under the messages has just been laid out for the new plot (the scroll padding
    // follows its height a frame later).
    window.scrollBy({ top: top - el('cursor-values').getBoundingClientRect().bottom - 8, behavior: 'instant' });
  }

  /** The Scope, Lap and window controls set to the scope. */
  scopeToControls(): void {
    el<HTMLSelectElement>('scope').value = this.scope.kind;
    if (this.scope.kind === 'lap') el<HTMLSelectElement>('scope-lap').value = String(this.scope.lapIndex);
    if (this.scope.kind === 'window') {
      el<HTMLInputElement>('window-start').value = String(this.scope.start);
      el<HTMLInputElement>('window-duration').value = String(this.scope.duration);
    }
  }

  /** The file-time range the scope covers. */
  private scopeRange(): { start: number; duration: number } {
    const m = this.page.metadata as DataFileMetadataJson;
    if (this.scope.kind === 'lap') {
      const lap = this.page.laps[this.scope.lapIndex];
      if (!lap) throw new Error(this.page.laps.length ? `This file has no lap ${this.scope.lapIndex + 1}: it has ${this.page.laps.length}.` : 'This file has no laps: plot the whole file or a window.');
      return { start: lap.start, duration: lap.lapTime };
    }
    if (this.scope.kind === 'window') return { start: this.scope.start, duration: this.scope.duration };
    return { start: m.startTime, duration: m.fileTimeLength };
  }

  /** The plots on screen read and drawn again (their scope or zoom kept): a constant their math channels read was set. */
  plotAgain(): Promise<void> {
    return this.plot();
  }

  /** The scope or the view on screen read and drawn (the latest asked for only: an earlier answer coming later is dropped). */
  private plot(): Promise<void> {
    return this.draws.draw((current) => this.readAndDraw(current));
  }

  private async readAndDraw(current: () => boolean): Promise<void> {
    const dataset = this.page.dataset;
    const m = this.page.metadata;
    if (!dataset || !m) return;
    const names = this.page.ticked().map((c) => c.name);
    if (names.length === 0) {
      this.page.status('Tick one or more channels to plot.');
      return;
    }
    let range = this.view ?? this.scopeRange();
    // A window of no length (or not a number) holds no sample to draw: said, not read (an empty chart's axis threw).
    if (!(Number.isFinite(range.start) && range.duration > 0)) {
      const what = this.view || this.scope.kind === 'window' ? `The window must start at a number of seconds and last more than 0 s (From ${range.start}, Length ${range.duration}).` : `Nothing to plot: the ${this.scope.kind === 'lap' ? 'lap' : 'file'} lasts 0 s.`;
      this.page.status(what);
      return;
    }
    // A typed window is the part of it the file holds: cut to the file, said when none of it is in the file.
    let cut = '';
    if (!this.view && this.scope.kind === 'window') {
      const fileEnd = m.startTime + m.fileTimeLength;
      const inFile = windowInFile(range.start, range.duration, m.startTime, fileEnd);
      const file = `the file runs from ${displayNumber(m.startTime, 12)} s to ${displayNumber(fileEnd, 12)} s`;
      if (!inFile) {
        this.page.status(`Nothing to plot: From ${range.start}, Length ${range.duration} is outside the file (${file}).`);
        return;
      }
      if (inFile.cut) cut = ` (the window cut to the file: ${file})`;
      range = { start: inFile.start, duration: inFile.duration };
    }
    let body: ChannelsBody;
    if (this.view || this.scope.kind !== 'file') {
      // A sample period of the slowest channel past each end (within the file), for a lap as for a window: the traces
      // run to the edges (drawn clipped there) rather than from a slow channel's first sample after the line, and the
      // values line has a sample each side of a time near an edge, as in i2.
      const margin = names.reduce((most, name) => {
        const f = m.channels.find((c) => c.name === name)?.frequency ?? 0;
        return f > 0 ? Math.max(most, 1 / f) : most;
      }, 0);
      const from = Math.max(m.startTime, range.start - margin);
      const to = Math.min(m.startTime + m.fileTimeLength, range.start + range.duration + margin);
      body = { channels: names, mode: 2, startTime: from, duration: Math.max(0, to - from) };
    } else body = { channels: names, mode: 0 };
    this.page.progress(`Reading ${names.length} channel(s)…`);
    // A channel the service refuses on its own (a math channel whose constant or input this file lacks: a 422 naming
    // `channels[i]`) does not stop the others: read again without it, and said. It stays ticked, so Plot reads it
    // again once its definition or the car's parameter is fixed.
    const { answer: series, asked, unread } = await readWithoutRefused(names, (channels) => this.page.requireApi().channels(dataset, { ...body, channels }, pointsForWidth(this.panes.plotWidth())));
    if (!current()) return;
    // How long the read took (request, answer, decoding) within the select-to-drawn time (the benchmark reports both).
    if (this.page.actionAt) el('panes').dataset['readMs'] = (performance.now() - this.page.actionAt).toFixed(1);
    // In the order the channels were ticked, whatever the answer's order.
    const order = (name: string) => {
      const i = names.indexOf(name);
      return i < 0 ? names.length : i;
    };
    this.plotted = [...series]
      .sort((a, b) => order(a.name) - order(b.name))
      .map((s) => {
        const channel = m.channels.find((c) => c.name === s.name);
        return { name: s.name, unit: s.unit, line: seriesLine(s), step: channel ? isDiscreteChannel(channel) : false };
      });
    this.plottedRange = range;
    this.renderTimePanes();
    this.layOutCursorLine();
    this.hooks.plotted();
    // To the millisecond, more for a window too short to tell its ends apart at that (0.1 ms: 7 decimals).
    const decimals = Math.min(9, Math.max(3, Math.ceil(-Math.log10(range.duration)) + 3));
    const notRead = unread.length ? `; could not read ${sayProblems(unread.map((u) => `"${u.name.slice(0, 80)}" (${u.why})`))}: kept ticked, Plot reads them again` : '';
    this.page.status(`${asked.length} channel(s), ${range.start.toFixed(decimals)} s to ${(range.start + range.duration).toFixed(decimals)} s${cut}${notRead}`);
  }

  /**
   * The plotted channels drawn on the time panes: one a channel, or one a unit (*One pane per unit*). Each channel keeps
   * its colour (the first the plot colour, blue) whichever pane it is on, as the values line and the legends name them.
   */
  private renderTimePanes(): void {
    const range = this.plottedRange;
    if (!range) return;
    const byUnit = el<HTMLInputElement>('panes-by-unit').checked;
    const colourOf = new Map(this.plotted.map((p, i) => [p.name, colourAt(i)]));
    const origin = this.timeOrigin();
    const specs: PaneSpec[] = paneGroups(this.plotted, byUnit).map((group) => {
      const [first] = group as [PlottedChannel, ...PlottedChannel[]];
      const id = paneIdOf(group, byUnit);
      const yRange = this.yScales.get(id);
      return {
        id,
        title: group.map((p) => p.name).join(', '),
        unit: first.unit,
        xLabel: origin ? 'lap time (s)' : 'time (s)',
        ...(origin ? { xOrigin: origin } : {}),
        series: group.map((p) => ({ label: p.name, colour: colourOf.get(p.name) as string, step: p.step })),
        data: alignLines(group.map((p) => p.line)) as PaneSpec['data'],
        xRange: [range.start, range.start + range.duration],
        ...(yRange ? { yRange } : {}),
        readout: { time: (x) => formatCursorTime(x - origin), value: (x, i) => formatValue(valueAt((group[i] as PlottedChannel).line, x, (group[i] as PlottedChannel).step), first.unit) },
      };
    });
    this.panes.render(specs);
  }

  /** The ids of the time panes drawn from the plotted channels (a channel's name, or `unit:<unit>` one pane a unit). */
  paneIds(): string[] {
    const byUnit = el<HTMLInputElement>('panes-by-unit').checked;
    return paneGroups(this.plotted, byUnit).map((group) => paneIdOf(group, byUnit));
  }

  /**
   * A pane's y scale set by hand (null: auto again): the panes drawn again from the samples on screen (nothing is
   * read), and kept through zooms, pans and new scopes while the dataset is open, and in the link.
   */
  private setYScale(id: string, range: [number, number] | null): void {
    if (range) this.yScales.set(id, range);
    else this.yScales.delete(id);
    this.renderTimePanes();
    this.fillCursorLine(null);
    this.hooks.linkChanged();
    // Named as its control is (its channels), not by the pane's id (`unit:rpm` for a pane a unit).
    const byUnit = el<HTMLInputElement>('panes-by-unit').checked;
    const group = paneGroups(this.plotted, byUnit).find((g) => paneIdOf(g, byUnit) === id);
    const name = (group ? group.map((p) => p.name).join(', ') : id).slice(0, 80);
    this.page.status(range ? `The y scale of ${name} is set to ${displayNumber(range[0])} to ${displayNumber(range[1])}.` : `The y scale of ${name} is auto.`);
  }

  /**
   * Where the time plots' axis counts from: the plotted lap's start with *Time axis* on lap time and a lap as the scope
   * (zoomed inside it or not); else 0 (file time). The samples, the zoom and the link stay in file time.
   */
  private timeOrigin(): number {
    if (el<HTMLSelectElement>('time-axis').value !== 'lap' || this.scope.kind !== 'lap') return 0;
    return this.page.laps[this.scope.lapIndex]?.start ?? 0;
  }

  async zoomTo(min: number, max: number): Promise<void> {
    const m = this.page.metadata;
    if (!m) return;
    this.view = clampWindow(min, max, m.startTime, m.startTime + m.fileTimeLength);
    this.page.actionAt = performance.now();
    await this.page.run(() => this.plot());
  }

  private async pan(fraction: number): Promise<void> {
    const m = this.page.metadata;
    if (!m || this.plotted.length === 0) return;
    const current = this.view ?? this.scopeRange();
    this.view = panWindow(current.start, current.duration, fraction, m.startTime, m.startTime + m.fileTimeLength);
    await this.page.run(() => this.plot());
  }

  private async zoomOut(): Promise<void> {
    const m = this.page.metadata;
    if (!m || this.plotted.length === 0) return;
    const c = this.view ?? this.scopeRange();
    this.view = clampWindow(c.start - c.duration / 2, c.start + c.duration * 1.5, m.startTime, m.startTime + m.fileTimeLength);
    await this.page.run(() => this.plot());
  }

  /**
   * The values line's places, one for the time and one a plotted channel, laid out once a plot is drawn: the cursor
   * only changes their text, never the line's height. (The line used to grow from nothing to several wrapped lines
   * on the first hover: the panes moved under the mouse, the top ones got a mouseleave and showed "--", and a drag
   * over them zoomed to a range measured against where the pane had been.) One row whatever the window's width: a
   * place is a channel's name, cut with an ellipsis when the row is short of room, and its value, kept whole, edged
   * in its pane's colour; the whole text its tooltip, and the row scrolls sideways past the places it cannot hold.
   */
  private layOutCursorLine(): void {
    const count = this.plotted.length === 0 ? 0 : this.plotted.length + 1;
    el('cursor-values').replaceChildren(
      ...Array.from({ length: count }, (_, i) => {
        const place = document.createElement('span');
        const name = document.createElement('bdi');
        const value = document.createElement('data');
        value.dataset['testid'] = 'cursor-value';
        place.append(name, value);
        if (i === 0) place.className = 'time';
        else place.style.borderLeftColor = colourAt(i - 1);
        return place;
      }),
    );
    this.fillCursorLine(null);
  }

  /** Back to the scope's own range (Reset, Escape, a double-click on a pane). */
  private resetZoom(): void {
    if (this.plotted.length === 0) return;
    this.view = null;
    this.page.actionAt = performance.now();
    void this.page.run(() => this.plot());
  }

  /** The window on screen zoomed by `factor` around `centre` (file time): one read (+ and -, Ctrl and the wheel). */
  private zoomBy(factor: number, centre: number | null): void {
    const r = this.plottedRange;
    if (!r || this.plotted.length === 0) return;
    const [min, max] = zoomAround(r.start, r.duration, centre ?? Number.NaN, factor);
    void this.zoomTo(min, max);
  }

  /**
   * The plot keys on the time plots (plot-keys.ts): ← and → step the cursor one plotted point (with Shift, ten: the
   * plot area's slider text says the values), + and - zoom in and out around it (the window's middle without one), Escape resets the zoom.
   */
  private onKey(e: KeyboardEvent): boolean {
    const action = plotKeyAction(e);
    if (!action || this.plotted.length === 0) return false;
    if ('step' in action) {
      this.panes.stepCursor(action.step, this.plotted[0]?.line.x ?? []);
    } else if ('jump' in action) this.panes.jumpCursor(action.jump, this.plotted[0]?.line.x ?? []);
    else if ('zoom' in action) this.zoomBy(action.zoom, this.panes.keyCursorX());
    else if (this.view) this.resetZoom();
    else return false;
    return true;
  }

  private showCursor(x: number | null): void {
    this.hooks.cursorMoved(x);
    this.fillCursorLine(x);
  }

  private fillCursorLine(x: number | null): void {
    const places = el('cursor-values').children;
    // Off the plots: "--" in every place.
    const origin = this.timeOrigin();
    const parts: [string, string][] = [['', `${origin ? 'lap t' : 't'} = ${x === null ? '--' : formatCursorTime(x - origin)} s`], ...this.plotted.map((p): [string, string] => [p.name, `: ${x === null ? '--' : formatValue(valueAt(p.line, x, p.step), p.unit)}`])];
    for (let i = 0; i < places.length; i++) {
      const place = places[i] as HTMLElement;
      const [name, value] = parts[i] ?? ['', ''];
      (place.firstElementChild as HTMLElement).textContent = name;
      (place.lastElementChild as HTMLElement).textContent = value;
      place.title = name + value;
    }
  }
}

/** A time pane's id: its channel's name, or `unit:<unit>` with one pane a unit (the y scales and links name it so). */
function paneIdOf(group: readonly { name: string; unit: string }[], byUnit: boolean): string {
  const first = group[0];
  return first ? (byUnit ? `unit:${first.unit}` : first.name) : '';
}
