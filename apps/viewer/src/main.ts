import 'uplot/dist/uPlot.min.css';
import './viewer.css';
import type { ChannelsBody, DataFileMetadataJson, EntityJson, TrackMapJson } from '@pitwall/contracts';
import { isDiscreteChannel } from '@pitwall/laps';
import { axisLabel, colourBar, colourScale, frictionCircles, histogramAxis, histogramBars, histogramCaption, integerEdges, lapStatsChannelsOf, lapStatsSummary, lapStatsTable, parseBins, parseDistances, parseThresholds, scatterCaption, scatterColourBar, scatterMarks } from './analysis';
import { ViewerApi, type DatasetRef, type LapDistanceJson } from './api';
import { channelCount, comparisonLabel, datasetsOf, enteredCars, entityName, formatLapTime, groupChannelsByUnit, lapRows, uploadingCount, uploadingText, type LapRow } from './catalogue';
import { PaneStack, type PaneSpec } from './charts';
import { drawMarks, showColourBar } from './canvas-drawing';
import { colourAt, COLOURS } from './colours';
import { clearCredentials, loadCredentials, saveCredentials, type Credentials } from './credentials';
import { displayNumber } from './display-number';
import { distanceSourceChoices, keptDistanceSource } from './distance-source';
import { button, cell, el, row, titled } from './dom';
import { ApiError } from './errors';
import { decodeLink, encodeLink, type ViewerLink } from './link';
import { lapWindowFor, overlayOnGrid, toDistance } from './overlay';
import { alignLines, clampWindow, formatCursorTime, formatValue, paneGroups, panWindow, pointsForWidth, seriesLine, stepX, valueAt, windowInFile, zoomAround, type Line } from './plot-data';
import { fileTimeOf, mapSegments, mapView, pointAtFileTime, pointNearPixel, type MapSegment, type MapView } from './track-map';

/** A channel on the time plots: its name, unit, the line drawn and whether it holds its value (steps). */
interface PlottedChannel {
  name: string;
  unit: string;
  line: Line;
  step: boolean;
}

/** A lap picked for the comparison: which dataset, which lap, where it starts on that file's time axis. */
interface OverlayLap {
  dataset: DatasetRef;
  lapIndex: number;
  lapStart: number;
  lapTime: number;
  label: string;
}

type Scope = { kind: 'file' } | { kind: 'lap'; lapIndex: number } | { kind: 'window'; start: number; duration: number };

/** The cursor sync key of the panes over a lap's distance: the delta's, and the overlay's when its axis is distance. */
const LAP_DISTANCE_SYNC = 'lap-distance';

/** The sections that act on the open dataset: shown while one is open, hidden otherwise. */
const DATASET_PANELS = ['metadata', 'plot-controls', 'overlay-controls', 'overlay-panes', 'delta-panes', 'analysis', 'trackmap'];

class Viewer {
  private api: ViewerApi | null = null;
  private dataset: DatasetRef | null = null;
  private metadata: DataFileMetadataJson | null = null;
  private laps: LapRow[] = [];
  private readonly selected = new Set<string>();
  private scope: Scope = { kind: 'file' };
  /** The window on screen after zooms and pans (file time), null when it is the scope's own range. */
  private view: { start: number; duration: number } | null = null;
  /** The time plots' channels, each with whether its value is held between points (a discrete channel such as gear). */
  private plotted: PlottedChannel[] = [];
  /** The file-time range the time plots show (their x axis), null when none is plotted. */
  private plottedRange: { start: number; duration: number } | null = null;
  /** The time panes' y scales set by hand, by pane id (a channel's name, or `unit:<unit>` one pane a unit); others auto. */
  private readonly yScales = new Map<string, [number, number]>();
  private overlay: OverlayLap[] = [];
  /** The overlay's visible x range after a zoom (lap seconds or metres), null for whole laps. */
  private overlayView: [number, number] | null = null;
  /** The delta pane's visible distance range after a zoom, null for whole laps. */
  private deltaView: [number, number] | null = null;
  /** The overlay's and the delta's distance source ("Distance from", sent as distanceChannel); '': Automatic. */
  private distanceSource = '';
  /** The track map on screen: the answer, where it is drawn, and the marker's point (null: none). */
  private trackMap: { answer: TrackMapJson; view: MapView; segments: MapSegment[]; marker: number | null; lapIndex: number; caption: string } | null = null;
  /** Set while the map moves the time plots' cursor, so their cursor hook does not move the marker back. */
  private cursorFromMap = false;
  /** performance.now() of the action whose plot is being drawn (the lap click), for the drawn-in time. */
  private actionAt = 0;
  private readonly panes = new PaneStack(el('panes'), {
    syncKey: 'time',
    compact: true,
    onZoom: (min, max) => void this.zoomTo(min, max),
    onCursor: (x) => this.showCursor(x),
    onDrawn: () => this.drawn(el('panes')),
    onReset: () => this.resetZoom(),
    onYRange: (id, range) => this.setYScale(id, range),
  });
  // Over distance the overlay and the delta share one axis: a zoom of either zooms both, and they share the cursor
  // (the overlay's sync key follows its axis: LAP_DISTANCE_SYNC over distance).
  private readonly overlayPanes = this.lapPanes('overlay-panes', 'overlay', (view) => this.zoomComparison('overlay', view));
  // One pane of the delta, taller: its seconds-scale axis gets enough ticks to read a gap off it.
  private readonly deltaPanes = this.lapPanes('delta-panes', LAP_DISTANCE_SYNC, (view) => this.zoomComparison('delta', view), 280);

  /** A zoom (or reset) of the overlay or the delta: the other follows when both are shown over distance. */
  private async zoomComparison(from: 'overlay' | 'delta', view: [number, number] | null): Promise<void> {
    const linked = el<HTMLSelectElement>('overlay-axis').value === 'distance' && this.overlayPanes.shown() && this.deltaPanes.shown();
    if (from === 'overlay' || linked) this.overlayView = view;
    if (from === 'delta' || linked) this.deltaView = view;
    await Promise.all([from === 'overlay' || linked ? this.plotOverlay() : undefined, from === 'delta' || linked ? this.plotDelta() : undefined]);
  }

  /** Panes of the lap comparison: a drag keeps the dragged range as the view and plots again. */
  private lapPanes(id: string, syncKey: string, replot: (view: [number, number] | null) => Promise<void>, height?: number): PaneStack {
    return new PaneStack(el(id), {
      syncKey,
      ...(height ? { height } : {}),
      onZoom: (min, max) => {
        this.actionAt = performance.now();
        void this.run(() => replot([min, max]));
      },
      onDrawn: () => this.drawn(el(id)),
      onReset: () => {
        this.actionAt = performance.now();
        void this.run(() => replot(null));
      },
    });
  }

  start(): void {
    el<HTMLFormElement>('sign-in').addEventListener('submit', (e) => {
      e.preventDefault();
      void this.signIn();
    });
    el('sign-out').addEventListener('click', () => this.signOut());
    this.onChange('pick-championship', (id) => this.loadEvents(id));
    this.onChange('pick-event', (id) => this.loadSessions(id));
    this.onChange('pick-session', () => this.loadCars());
    this.onChange('pick-car', (carId) => this.loadRuns(carId));
    this.onChange('pick-run', () => this.loadDatasets());
    this.onChange('pick-dataset', (i) => this.openDataset(i));
    el('refresh-datasets').addEventListener('click', () => void this.run(() => this.loadDatasets(true)));
    el('channel-search').addEventListener('input', () => this.renderCatalogue());
    el('math-cancel').addEventListener('click', () => this.stopEditingMath());
    el<HTMLFormElement>('math-form').addEventListener('submit', (e) => {
      e.preventDefault();
      void this.run(() => this.defineMathChannel());
    });
    el('plot').addEventListener('click', () => {
      this.actionAt = performance.now();
      void this.run(() => this.plotScope(this.scopeFromControls()));
    });
    el('pan-left').addEventListener('click', () => void this.pan(-0.5));
    el('pan-right').addEventListener('click', () => void this.pan(0.5));
    el('zoom-out').addEventListener('click', () => void this.zoomOut());
    el('zoom-reset').addEventListener('click', () => this.resetZoom());
    // The same samples drawn again on other panes, or on another axis: nothing is read.
    for (const id of ['panes-by-unit', 'time-axis']) {
      el(id).addEventListener('change', () => {
        this.renderTimePanes();
        this.fillCursorLine(null);
        this.writeLink();
      });
    }
    // The keyboard and the wheel over the time plots: arrows step the cursor, + and - zoom around it, Escape resets.
    document.addEventListener('keydown', (e) => this.onKey(e));
    el('panes').addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    el('overlay-plot').addEventListener('click', () => {
      this.overlayView = null;
      void this.run(() => this.plotOverlay());
    });
    el('delta-plot').addEventListener('click', () => {
      this.deltaView = null;
      void this.run(() => this.plotDelta());
    });
    el<HTMLSelectElement>('distance-source').addEventListener('change', (e) => this.chooseDistanceSource((e.target as HTMLSelectElement).value));
    el('overlay-zoom-reset').addEventListener('click', () => {
      this.overlayView = null;
      this.deltaView = null;
      if (this.overlayPanes.shown()) void this.run(() => this.plotOverlay());
      if (this.deltaPanes.shown()) void this.run(() => this.plotDelta());
    });
    el('overlay-clear').addEventListener('click', () => {
      this.overlay = [];
      this.overlayView = null;
      this.deltaView = null;
      this.comparisonChanged();
    });
    el('lapstats-run').addEventListener('click', () => void this.run(() => this.showLapStats()));
    el('scatter-plot').addEventListener('click', () => void this.run(() => this.plotScatter()));
    el('histogram-plot').addEventListener('click', () => void this.run(() => this.plotHistogram()));
    el('trackmap-plot').addEventListener('click', () => void this.run(() => this.plotTrackMap()));
    const mapCanvas = el<HTMLCanvasElement>('trackmap-canvas');
    mapCanvas.addEventListener('mousemove', (e) => this.hoverMap(mapCanvas, e));
    mapCanvas.addEventListener('mouseleave', () => {
      if (!this.trackMap) return;
      this.cursorFromMap = true;
      this.panes.setCursorAt(null);
      this.cursorFromMap = false;
      this.drawTrackMap(null);
    });
    // What stays at the top of the window (the messages and the values line): the track map beside the plots sticks under it.
    const messages = document.querySelector<HTMLElement>('.messages');
    if (messages) new ResizeObserver(() => document.documentElement.style.setProperty('--sticky-top', `${messages.offsetHeight + 8}px`)).observe(messages);
    // A link pasted into the address of a signed-in page (the page's own changes are replaced, firing no event).
    window.addEventListener('hashchange', () => {
      if (this.api && location.hash.length > 1) void this.applyLink(location.hash);
    });
    const stored = loadCredentials(sessionStorage);
    if (stored) void this.connect(stored);
  }

  // ---- session -------------------------------------------------------------------------------------------------

  private async signIn(): Promise<void> {
    const apiKey = el<HTMLInputElement>('api-key').value.trim();
    const accountId = el<HTMLInputElement>('account-id').value.trim();
    el<HTMLInputElement>('api-key').value = '';
    await this.connect({ apiKey, accountId });
  }

  private async connect(credentials: Credentials): Promise<void> {
    // A link in the address is opened once signed in; until then the address keeps it as given.
    const fragment = location.hash;
    this.applyingLink = fragment.length > 1;
    await this.run(async () => {
      const accounts = await new ViewerApi({ apiKey: credentials.apiKey, accountId: '' }).listAccounts();
      const account = credentials.accountId ? accounts.find((a) => a.Id === credentials.accountId) : accounts[0];
      if (!account) throw new Error(credentials.accountId ? 'This API key is not a member of that account.' : 'This API key belongs to no account.');
      const stored = { apiKey: credentials.apiKey, accountId: account.Id };
      saveCredentials(sessionStorage, stored);
      this.api = new ViewerApi(stored);
      el('account-label').textContent = `Account: ${account.Name}`;
      this.applyRole(account.Role);
      el('sign-in').hidden = true;
      el('signed-in').hidden = false;
      el('app').hidden = false;
      this.fill('pick-championship', await this.api.championships(), entityName);
      await this.listMathChannels();
    });
    if (this.api && fragment.length > 1) await this.applyLink(fragment);
    else this.applyingLink = false;
  }

  // ---- the link (the address of what is on screen: link.ts) -----------------------------------------------------

  /** True while a link is being opened: the address keeps the link until it is opened. */
  private applyingLink = false;

  /** What is on screen, as a link: the pickers' choices, the open dataset, the ticked channels, the plotted scope and zoom. */
  private currentLink(): ViewerLink {
    const value = (id: string) => el<HTMLSelectElement>(id).value || undefined;
    const link: ViewerLink = {};
    const picks = [['championship', 'pick-championship'], ['event', 'pick-event'], ['session', 'pick-session'], ['car', 'pick-car'], ['run', 'pick-run']] as const;
    for (const [name, id] of picks) {
      const v = value(id);
      if (v) link[name] = v;
    }
    if (this.dataset) {
      link.dataset = { entityType: this.dataset.entityType, entityId: this.dataset.entityId, group: this.dataset.group };
      const channels = this.ticked().map((c) => c.name);
      if (channels.length) link.channels = channels;
      if (el<HTMLInputElement>('panes-by-unit').checked) link.panesByUnit = true;
      if (el<HTMLSelectElement>('time-axis').value === 'lap') link.lapTimeAxis = true;
      if (this.plotted.length) {
        link.scope = this.scope;
        if (this.view) link.view = { start: this.view.start, duration: this.view.duration };
        const scales = this.paneIds().flatMap((pane) => {
          const range = this.yScales.get(pane);
          return range ? [{ pane, min: range[0], max: range[1] }] : [];
        });
        if (scales.length) link.yScales = scales;
      }
    }
    return link;
  }

  /** The address's fragment set to what is on screen (replaced, not pushed: Back leaves the page, as before). */
  private writeLink(): void {
    if (this.applyingLink || !this.api) return;
    const fragment = encodeLink(this.currentLink());
    if (location.hash.slice(1) === fragment) return;
    try {
      history.replaceState(null, '', fragment ? `#${fragment}` : location.pathname + location.search);
    } catch {
      // A browser that throttles address changes (many zooms in a second) keeps the last one it took.
    }
  }

  /** Waits until the loads the pickers started (one picked for the user, and the ones that picks in turn) are done. */
  private async pickersSettled(): Promise<void> {
    while (this.pickLoads.size) await Promise.all([...this.pickLoads]);
  }
  private readonly pickLoads = new Set<Promise<void>>();

  /**
   * Opens a link: each picker set in turn (its choices loaded), the dataset opened, its channels ticked and the scope
   * plotted at its zoom. What of the link this key cannot see, or the file does not have, is said in the status line,
   * and the page stops there or leaves that part out.
   */
  /** The link being opened, and the one asked for while it is (opened after it, the latest only). */
  private linkApplying: Promise<void> | null = null;
  private linkWaiting: string | null = null;

  private async applyLink(fragment: string): Promise<void> {
    if (this.linkApplying) {
      this.linkWaiting = fragment;
      return this.linkApplying;
    }
    this.linkApplying = this.applyOneLink(fragment);
    try {
      await this.linkApplying;
    } finally {
      this.linkApplying = null;
    }
    const next = this.linkWaiting;
    this.linkWaiting = null;
    if (next !== null) await this.applyLink(next);
  }

  private async applyOneLink(fragment: string): Promise<void> {
    const { link, problems } = decodeLink(fragment);
    const said = [...problems];
    this.applyingLink = true;
    try {
      await this.run(async () => {
        // A link opened over what is on screen (pasted into the address of a signed-in page) replaces it.
        if (this.dataset) {
          this.opening++;
          this.closeDataset();
        }
        const chain: [string, string, string | undefined, (value: string) => Promise<void>][] = [
          ['championship', 'pick-championship', link.championship, (v) => this.loadEvents(v)],
          ['event', 'pick-event', link.event, (v) => this.loadSessions(v)],
          ['session', 'pick-session', link.session, () => this.loadCars()],
          ['car', 'pick-car', link.car, (v) => this.loadRuns(v)],
          ['run sheet', 'pick-run', link.run, () => this.loadDatasets()],
        ];
        let reached = true;
        for (const [index, [name, id, value, load]] of chain.entries()) {
          if (!value) {
            // A hand-written link that names a run sheet or a dataset without the pickers above it.
            if (chain.slice(index + 1).some(([, , later]) => later) || link.dataset) {
              said.push(`it gives no ${name} (a link names every picker down to the run sheet)`);
              reached = false;
            }
            break;
          }
          await this.pickersSettled();
          const select = el<HTMLSelectElement>(id);
          if (select.value === value && this.loaded.get(id) === value) continue;
          if (![...select.options].some((o) => o.value === value)) {
            said.push(`its ${name} is not one this key can see in this account`);
            reached = false;
            break;
          }
          select.value = value;
          this.loaded.set(id, value);
          await load(value);
        }
        await this.pickersSettled();
        if (!reached || !link.dataset) return;
        const wanted = link.dataset;
        const index = this.datasets.findIndex((d) => d.entityType === wanted.entityType && d.entityId === wanted.entityId && d.group === wanted.group);
        if (index < 0) {
          said.push(`its dataset '${wanted.group}' is not among this run sheet's datasets`);
          return;
        }
        el<HTMLSelectElement>('pick-dataset').value = String(index);
        this.loaded.set('pick-dataset', String(index));
        await this.openDataset(String(index));
        const metadata = this.metadata;
        if (!metadata) return;
        this.selected.clear();
        for (const name of link.channels ?? []) {
          if (metadata.channels.some((c) => c.name === name)) this.selected.add(name);
          else said.push(`"${name.slice(0, 80)}" is not a channel of this dataset`);
        }
        this.renderCatalogue();
        for (const y of link.yScales ?? []) this.yScales.set(y.pane, [y.min, y.max]);
        el<HTMLInputElement>('panes-by-unit').checked = link.panesByUnit === true;
        el<HTMLSelectElement>('time-axis').value = link.lapTimeAxis ? 'lap' : 'file';
        let scope = link.scope ?? { kind: 'file' as const };
        if (scope.kind === 'lap' && !this.laps[scope.lapIndex]) {
          said.push(`this file has no lap ${scope.lapIndex + 1} (it has ${this.laps.length})`);
          scope = { kind: 'file' };
        }
        if (this.ticked().length === 0) {
          this.scope = scope;
          this.scopeToControls();
        } else {
          await this.plotScope(scope);
          if (link.view) {
            const fileEnd = metadata.startTime + metadata.fileTimeLength;
            if (link.view.start >= fileEnd || link.view.start + link.view.duration <= metadata.startTime) said.push('its zoom is outside the file');
            else await this.zoomTo(link.view.start, link.view.start + link.view.duration);
          }
        }
        // A y scale of a pane the link does not plot (a channel the file lacks, another pane per unit choice) is said.
        const panes = this.paneIds();
        for (const y of link.yScales ?? []) {
          if (panes.includes(y.pane)) continue;
          said.push(`the y scale of "${y.pane.slice(0, 80)}" is not of a pane plotted`);
          this.yScales.delete(y.pane);
        }
      });
    } finally {
      this.applyingLink = false;
    }
    this.writeLink();
    if (said.length) this.status(`The link was opened in part: ${said.join('; ')}.`);
  }

  /**
   * What the key's role lets the page offer: a reader may read, not write, so the math channel form is disabled and
   * says why (the service would refuse the save with a 403 all the same).
   */
  private applyRole(role: string): void {
    const reader = role.toLowerCase() === 'reader';
    for (const control of el('math-form').querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button')) control.disabled = reader;
    el('math-role').hidden = !reader;
  }

  private signOut(): void {
    clearCredentials(sessionStorage);
    location.reload();
  }

  // ---- picking -------------------------------------------------------------------------------------------------

  /** The value each picker's choices below were last loaded for: choosing it again loads nothing again. */
  private readonly loaded = new Map<string, string>();

  private onChange(id: string, load: (value: string) => Promise<void> | void): void {
    el<HTMLSelectElement>(id).addEventListener('change', (e) => {
      const value = (e.target as HTMLSelectElement).value;
      // The same choice again (the only one, picked by the page, then by the user): nothing to do, unless it is a
      // dataset that is not open (one that failed to open may be tried again).
      if (this.loaded.get(id) === value && (id !== 'pick-dataset' || this.dataset)) return;
      this.loaded.set(id, value);
      // Another championship, event, session, car or run sheet: the dataset open is not among its datasets, so it is
      // put away at once (its metadata, laps and plots stayed under the new run's pickers), and an answer still on
      // its way for it is dropped.
      if (id !== 'pick-dataset') {
        this.opening++;
        if (this.dataset) this.closeDataset();
      }
      if (!value) return;
      const loading = this.run(async () => load(value));
      this.pickLoads.add(loading);
      void loading.finally(() => this.pickLoads.delete(loading));
    });
  }

  /**
   * Fills a picker with entities (a blank first choice), clearing the pickers below it. A single championship, event,
   * session, car or run sheet is picked at once, as if the user had (`auto` false: not).
   */
  private fill(id: string, items: readonly { Id: string; Parameters: Record<string, unknown> }[] | readonly { value: string; label: string }[], label?: (e: EntityJson) => string, auto = true): void {
    const order = ['pick-championship', 'pick-event', 'pick-session', 'pick-car', 'pick-run', 'pick-dataset'];
    for (const below of order.slice(order.indexOf(id) + 1)) el<HTMLSelectElement>(below).replaceChildren();
    for (const picker of order.slice(order.indexOf(id))) this.loaded.delete(picker);
    if (id !== 'pick-dataset') {
      el('uploading').textContent = '';
      el<HTMLButtonElement>('refresh-datasets').disabled = true;
    }
    const select = el<HTMLSelectElement>(id);
    const options = [new Option(items.length ? 'choose…' : 'none', '')];
    for (const item of items) {
      if ('value' in item) options.push(new Option(item.label, item.value));
      else options.push(new Option(label ? label(item as EntityJson) : entityName(item), item.Id));
    }
    select.replaceChildren(...options);
    // Not a dataset: opening one reads it, which stays the user's choice.
    if (auto && items.length === 1 && id !== 'pick-dataset') {
      select.selectedIndex = 1;
      select.dispatchEvent(new Event('change'));
    }
  }

  private async loadEvents(championshipId: string): Promise<void> {
    this.fill('pick-event', await this.requireApi().events(championshipId), entityName);
  }
  private async loadSessions(eventId: string): Promise<void> {
    this.fill('pick-session', await this.requireApi().sessions(eventId), entityName);
  }
  private async loadCars(): Promise<void> {
    const api = this.requireApi();
    const [entries, cars] = await Promise.all([api.eventCars(el<HTMLSelectElement>('pick-event').value), api.cars()]);
    this.fill('pick-car', enteredCars(entries, cars));
  }
  private runs: EntityJson[] = [];
  private carData: EntityJson[] = [];
  private async loadRuns(carId: string): Promise<void> {
    const api = this.requireApi();
    const sessionId = el<HTMLSelectElement>('pick-session').value;
    [this.runs, this.carData] = await Promise.all([api.runSheets(sessionId, carId), api.sessionCarData(sessionId, carId)]);
    this.fill('pick-run', this.runs, entityName);
  }
  private datasets: DatasetRef[] = [];
  /**
   * Lists the run sheet's (and the car's) datasets, and says how many files are still uploading. `refresh`: the list
   * read again (the Refresh button), the dataset open kept open and picked when it is still listed.
   */
  private async loadDatasets(refresh = false): Promise<void> {
    const api = this.requireApi();
    const run = this.runs.find((r) => r.Id === el<HTMLSelectElement>('pick-run').value);
    if (!run) return;
    const [runFiles, ...carFiles] = await Promise.all([api.attachments('RunSheets', run.Id), ...this.carData.map((d) => api.attachments('SessionCarDatas', d.Id))]);
    if (el<HTMLSelectElement>('pick-run').value !== run.Id) return;
    this.datasets = [...datasetsOf('RunSheets', run, runFiles), ...this.carData.flatMap((d, i) => datasetsOf('SessionCarDatas', d, carFiles[i] ?? []))];
    const open = this.dataset;
    this.fill('pick-dataset', this.datasets.map((d, i) => ({ value: String(i), label: d.label })));
    if (refresh && open) {
      const kept = this.datasets.findIndex((d) => d.entityType === open.entityType && d.entityId === open.entityId && d.group === open.group);
      if (kept >= 0) {
        el<HTMLSelectElement>('pick-dataset').value = String(kept);
        this.loaded.set('pick-dataset', String(kept));
      } else {
        this.opening++;
        this.closeDataset();
      }
    }
    const uploading = uploadingCount([runFiles, ...carFiles].flat());
    el('uploading').textContent = uploadingText(uploading);
    el<HTMLButtonElement>('refresh-datasets').disabled = false;
    if (this.datasets.length === 0) this.status(`This run sheet has no dataset available on the server (attached files in state 2)${uploading ? `; ${uploadingText(uploading)}` : '.'}`);
    else if (refresh) this.status(`${this.datasets.length} dataset(s) listed.`);
  }

  /** Counts the datasets asked to open: an answer that comes after another dataset was asked for is dropped. */
  private opening = 0;

  private async openDataset(index: string): Promise<void> {
    const dataset = this.datasets[Number(index)];
    const opening = ++this.opening;
    // Nothing of the dataset open before stays on screen or in reach of a button while this one opens, nor if it fails to.
    this.closeDataset();
    if (!dataset) return;
    const metadata = await this.requireApi().metadata(dataset);
    if (opening !== this.opening) return;
    this.metadata = metadata;
    this.dataset = dataset;
    this.laps = lapRows(metadata);
    for (const name of [...this.selected]) if (!metadata.channels.some((c) => c.name === name)) this.selected.delete(name);
    this.renderMetadata();
    for (const id of DATASET_PANELS) el(id).hidden = false;
  }

  /** Forgets the open dataset: its panels hidden, its plots, track map and lap statistics cleared. */
  private closeDataset(): void {
    this.dataset = null;
    this.metadata = null;
    this.laps = [];
    this.view = null;
    this.scope = { kind: 'file' };
    for (const id of DATASET_PANELS) el(id).hidden = true;
    // Nothing of it left in the page either: its properties, laps and channels.
    for (const id of ['file-properties', 'laps', 'channels']) el(id).replaceChildren();
    this.panes.clear();
    this.plotted = [];
    this.plottedRange = null;
    this.yScales.clear();
    el('cursor-values').replaceChildren();
    this.trackMap = null;
    el<HTMLCanvasElement>('trackmap-canvas').getContext('2d')?.clearRect(0, 0, 560, 420);
    el('trackmap-canvas').hidden = true;
    el('trackmap-caption').textContent = '';
    showColourBar('trackmap', null);
    showColourBar('scatter', null);
    el('lapstats-table').replaceChildren();
    el('lapstats-summary').textContent = '';
    for (const id of ['scatter', 'histogram']) {
      const canvas = el<HTMLCanvasElement>(`${id}-canvas`);
      canvas.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height);
      canvas.hidden = true;
      for (const key of ['kind', 'xTicks', 'yTicks', 'circles']) delete canvas.dataset[key];
      el(`${id}-caption`).textContent = '';
    }
    this.status('');
  }

  // ---- metadata --------------------------------------------------------------------------------------------------

  /** The file's properties, its length, laps and channels (counted apart from the account's math channels). */
  private renderFileProperties(): void {
    const m = this.metadata as DataFileMetadataJson;
    const props: [string, unknown][] = [
      // Which dataset the panels below belong to, whatever the pickers say meanwhile.
      ['dataset', this.dataset?.label],
      ...Object.entries(m.fileProperties),
      ['start time (s)', m.startTime],
      ['length (s)', m.fileTimeLength.toFixed(3)],
      ['laps', m.lapCount],
      ['channels', channelCount(m.channels)],
    ];
    el('file-properties').replaceChildren(...props.map(([k, v]) => row([k, v === null || v === undefined || v === '' ? '-' : typeof v === 'number' ? displayNumber(v, 12) : String(v)])));
  }

  private renderMetadata(): void {
    const m = this.metadata as DataFileMetadataJson;
    this.renderFileProperties();

    const header = row(['lap', 'time', '', ''], 'th');
    const rows = this.laps.map((lap) => {
      const tr = row([String(lap.lapIndex + 1), formatLapTime(lap.lapTime)]);
      tr.dataset['testid'] = `lap-${lap.lapIndex}`;
      if (lap.best) {
        tr.className = 'best';
        const badge = document.createElement('span');
        badge.className = 'badge';
        badge.dataset['testid'] = 'best-lap';
        badge.textContent = 'best';
        tr.cells[1].appendChild(badge);
      }
      // The out and in laps marked, as the lap statistics' kind column says them.
      if (lap.kind !== 'flying') {
        const kind = document.createElement('span');
        kind.className = 'badge kind';
        kind.dataset['testid'] = `kind-of-lap-${lap.lapIndex}`;
        kind.textContent = `${lap.kind} lap`;
        tr.cells[1].appendChild(kind);
      }
      tr.appendChild(cell(button('Plot', `plot-lap-${lap.lapIndex}`, () => this.plotLap(lap.lapIndex))));
      tr.appendChild(cell(button('Compare', `overlay-add-${lap.lapIndex}`, () => this.addToOverlay(lap))));
      return tr;
    });
    el('laps').replaceChildren(header, ...rows);
    // The scope pickers start over with the dataset (scope is the whole file again); a file without laps offers no lap.
    const scope = el<HTMLSelectElement>('scope');
    scope.value = 'file';
    const lapScope = scope.querySelector<HTMLOptionElement>('option[value=lap]') as HTMLOptionElement;
    lapScope.disabled = this.laps.length === 0;
    lapScope.textContent = this.laps.length ? 'one lap' : 'one lap (this file has no laps)';
    el<HTMLSelectElement>('scope-lap').disabled = this.laps.length === 0;
    el<HTMLSelectElement>('scope-lap').replaceChildren(...this.laps.map((l) => new Option(`${l.lapIndex + 1}  ${formatLapTime(l.lapTime)}`, String(l.lapIndex))));
    el<HTMLInputElement>('window-start').value = String(m.startTime);
    el<HTMLSelectElement>('analysis-lap').replaceChildren(new Option('whole file', ''), ...this.laps.map((l) => new Option(`lap ${l.lapIndex + 1}`, String(l.lapIndex))));
    // A track map is drawn per lap: a file without laps has none to draw.
    el<HTMLButtonElement>('trackmap-plot').disabled = this.laps.length === 0;
    el('trackmap-caption').textContent = this.laps.length ? '' : 'This file has no laps: a track map is drawn for a lap.';
    el('trackmap-hint').hidden = this.laps.length === 0;
    el<HTMLSelectElement>('trackmap-lap').replaceChildren(...this.laps.map((l) => new Option(`lap ${l.lapIndex + 1}  ${formatLapTime(l.lapTime)}${l.best ? ' (best)' : ''}`, String(l.lapIndex), l.best, l.best)));
    this.renderChannelPickers();
    this.renderDistanceSources();
    this.renderCatalogue();
  }

  /**
   * The analysis panels' channel pickers (scatter x, y and colour, histogram, track map colour): every channel of the
   * catalogue, the account's math channels included. A choice stays while the catalogue still has it (a math channel
   * defined from the page keeps what was picked and adds itself).
   */
  private renderChannelPickers(): void {
    const names = (this.metadata as DataFileMetadataJson).channels.map((c) => c.name);
    const fill = (id: string, none: boolean) => {
      const select = el<HTMLSelectElement>(id);
      const kept = select.value;
      select.replaceChildren(...(none ? [new Option('none', '')] : []), ...names.map((n) => titled(new Option(n, n))));
      if (names.includes(kept)) select.value = kept;
      return names.includes(kept);
    };
    for (const id of ['scatter-x', 'histogram-channel']) fill(id, false);
    // Y against X of one channel is a diagonal: Y starts on another channel than X.
    const x = el<HTMLSelectElement>('scatter-x').value;
    if (!fill('scatter-y', false)) el<HTMLSelectElement>('scatter-y').value = names.find((n) => n !== x) ?? x;
    for (const id of ['scatter-colour', 'trackmap-colour']) fill(id, true);
  }

  /**
   * "Distance from": Automatic, then the dataset's channels in a distance or speed unit, then the account's math
   * channels in one. The choice stays while the dataset has it (laps added or removed keep it), else it is Automatic.
   */
  private renderDistanceSources(): void {
    const choices = distanceSourceChoices(this.metadata?.channels ?? []);
    const kept = keptDistanceSource(this.distanceSource, choices);
    if (kept !== this.distanceSource) this.status(`Distance from: this dataset has no channel ${this.distanceSource}, back to Automatic.`);
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
    if (this.overlayPanes.shown() && el<HTMLSelectElement>('overlay-axis').value === 'distance') void this.run(() => this.plotOverlay());
    if (this.deltaPanes.shown()) void this.run(() => this.plotDelta());
  }

  /** The lap trace reads' options: the chosen distance source, none for Automatic. */
  private traceOptions(maxPoints?: number): { maxPoints?: number; distanceChannel?: string } {
    return { ...(maxPoints !== undefined ? { maxPoints } : {}), ...(this.distanceSource ? { distanceChannel: this.distanceSource } : {}) };
  }

  private renderCatalogue(): void {
    const m = this.metadata;
    if (!m) return;
    const groups = groupChannelsByUnit(m.channels, el<HTMLInputElement>('channel-search').value);
    el('channels').replaceChildren(
      ...groups.map((g) => {
        const fieldset = document.createElement('fieldset');
        fieldset.dataset['testid'] = 'unit-group';
        const legend = document.createElement('legend');
        legend.textContent = g.math ? 'Math' : g.unit || 'no unit';
        if (g.math) fieldset.dataset['testid'] = 'math-group';
        fieldset.appendChild(legend);
        for (const c of g.channels) {
          const label = document.createElement('label');
          const box = document.createElement('input');
          box.type = 'checkbox';
          box.checked = this.selected.has(c.name);
          box.dataset['testid'] = `channel-${c.name}`;
          box.addEventListener('change', () => (box.checked ? this.selected.add(c.name) : this.selected.delete(c.name)));
          label.append(box, ` ${c.name}`);
          label.classList.add('channel');
          label.title = `${c.name}: ${c.expression !== undefined ? `${c.expression} (${c.unit || 'no unit'})` : `${c.unit || 'no unit'}, ${displayNumber(c.frequency)} Hz, ${c.sampleCount} samples, ${c.dataType}`}`;
          fieldset.appendChild(label);
        }
        return fieldset;
      }),
    );
    if (groups.length === 0) el('channels').textContent = 'No channel matches.';
  }

  /** Saves the form's math channel for the account, lists the catalogue again and ticks it, ready to plot. */
  private async defineMathChannel(): Promise<void> {
    const value = (id: string) => el<HTMLInputElement>(id).value.trim();
    const definition = { name: value('math-name'), expression: value('math-expression'), unit: value('math-unit'), rate: value('math-rate'), decimalPlaces: value('math-decimals') };
    // The status of the save before is no longer the news.
    this.status('');
    const decimals = definition.decimalPlaces;
    if (decimals !== '' && !/^[0-6]$/.test(decimals)) throw new Error(`The math channel was not saved: decimal places "${decimals}" must be a whole number from 0 to 6 (empty: full precision).`);
    const editing = this.editingMath;
    if (editing) {
      await this.requireApi().updateMathChannel(editing.id, definition);
      // A renamed channel stays ticked under its new name.
      if (editing.name !== definition.name && this.selected.delete(editing.name)) this.selected.add(definition.name);
      this.stopEditingMath();
    } else await this.requireApi().createMathChannel(definition);
    await this.listMathChannels();
    const dataset = this.dataset;
    let unlisted = '';
    if (dataset) {
      this.metadata = await this.requireApi().metadata(dataset);
      const listed = this.metadata.channels.find((c) => c.name === definition.name);
      if (listed?.expression !== undefined) this.selected.add(definition.name);
      else unlisted = await this.whyNotEvaluated(dataset, definition.name, listed !== undefined);
      this.renderFileProperties();
      this.renderChannelPickers();
      this.renderDistanceSources();
      this.renderCatalogue();
    }
    this.status(unlisted ? `Math channel ${definition.name} saved, but this file cannot evaluate it${unlisted}.` : `Math channel ${definition.name} saved.`);
  }

  /** The math channel the form edits (Edit in the list), or null: the form creates one. */
  private editingMath: { id: string; name: string } | null = null;

  /** Lists the account's math channels under the form, each with Edit and Delete (disabled for a reader). */
  private async listMathChannels(): Promise<void> {
    const definitions = await this.requireApi().mathChannels();
    const reader = el<HTMLButtonElement>('math-save').disabled;
    const text = parameterText;
    el('math-list').replaceChildren(
      ...definitions.map((e) => {
        const name = text(e, 'Name');
        const item = document.createElement('li');
        item.dataset['testid'] = `math-item-${name}`;
        const label = document.createElement('span');
        label.textContent = `${name} = ${text(e, 'Expression')}`;
        label.title = `${name} = ${text(e, 'Expression')} (${text(e, 'Unit') || 'no unit'}${text(e, 'Rate') ? `, ${text(e, 'Rate')} Hz` : ''})`;
        label.className = 'math-text';
        const editButton = button('Edit', `math-edit-${name}`, () => this.editMathChannel(e));
        const deleteButton = button('Delete', `math-delete-${name}`, () => void this.run(() => this.deleteMathChannel(e)));
        editButton.disabled = reader;
        deleteButton.disabled = reader;
        item.append(label, ' ', editButton, ' ', deleteButton);
        return item;
      }),
    );
    el('math-count').textContent = String(definitions.length);
  }

  /** Fills the form with a math channel to change it: Save updates it, Cancel leaves it as it was. */
  private editMathChannel(e: EntityJson): void {
    const text = (name: string) => parameterText(e, name);
    this.editingMath = { id: e.Id, name: text('Name') };
    el<HTMLInputElement>('math-name').value = text('Name');
    el<HTMLInputElement>('math-expression').value = text('Expression');
    el<HTMLInputElement>('math-unit').value = text('Unit');
    el<HTMLInputElement>('math-rate').value = text('Rate');
    el<HTMLInputElement>('math-decimals').value = text('DecimalPlaces');
    el('math-heading').textContent = `Edit math channel ${text('Name')}`;
    el('math-save').textContent = 'Update';
    el('math-cancel').hidden = false;
    el<HTMLInputElement>('math-expression').focus();
  }

  private stopEditingMath(): void {
    this.editingMath = null;
    el('math-heading').textContent = 'New math channel';
    el('math-save').textContent = 'Save';
    el('math-cancel').hidden = true;
    for (const id of ['math-name', 'math-expression', 'math-unit', 'math-rate', 'math-decimals']) el<HTMLInputElement>(id).value = '';
  }

  /** Deletes a math channel of the account, once the user confirms; the catalogue is listed again without it. */
  private async deleteMathChannel(e: EntityJson): Promise<void> {
    const name = String(e.Parameters['Name'] ?? '');
    if (!window.confirm(`Delete the math channel ${name} for the whole account? Other math channels reading it will no longer evaluate.`)) return;
    await this.requireApi().deleteMathChannel(e.Id);
    if (this.editingMath?.id === e.Id) this.stopEditingMath();
    this.selected.delete(name);
    await this.listMathChannels();
    if (this.dataset) {
      this.metadata = await this.requireApi().metadata(this.dataset);
      this.renderFileProperties();
      this.renderChannelPickers();
      this.renderDistanceSources();
      this.renderCatalogue();
    }
    this.status(`Math channel ${name} deleted.`);
  }

  /**
   * Why the open file's catalogue does not list a math channel just saved (docs/math-channels.md): a logged channel
   * of its name wins; otherwise one read of it (a millisecond of the file) is the service's 422 naming the reason.
   * ': <reason>', or '' when none is told.
   */
  private async whyNotEvaluated(dataset: DatasetRef, name: string, logged: boolean): Promise<string> {
    if (logged) return `: a channel of the file is named ${name}, and a logged channel wins over a math channel of the same name`;
    const m = this.metadata as DataFileMetadataJson;
    try {
      await this.requireApi().channels(dataset, { channels: [name], mode: 2, startTime: m.startTime, duration: 0.001 }, 4);
      return '';
    } catch (err) {
      const detail = err instanceof ApiError && err.status === 422 ? (err.info.problem?.detail ?? '') : '';
      // The detail starts with the dataset's ids ("The data file could not be read: RunSheets <id> ..."): the reason is its math channel part.
      const reason = /math channel .*$/.exec(detail)?.[0] ?? '';
      return reason ? `: ${reason.replace(/\.$/, '')}` : '';
    }
  }

  // ---- time plots ----------------------------------------------------------------------------------------------

  /** The open dataset's ticked channels, in the order they were ticked (the panes' order, top to bottom). */
  private ticked(): DataFileMetadataJson['channels'] {
    const channels = this.metadata?.channels ?? [];
    return [...this.selected].flatMap((name) => channels.filter((c) => c.name === name));
  }

  private scopeFromControls(): Scope {
    const kind = el<HTMLSelectElement>('scope').value;
    if (kind === 'lap') return { kind: 'lap', lapIndex: Number(el<HTMLSelectElement>('scope-lap').value) };
    if (kind === 'window') return { kind: 'window', start: Number(el<HTMLInputElement>('window-start').value), duration: Number(el<HTMLInputElement>('window-duration').value) };
    return { kind: 'file' };
  }

  private plotLap(lapIndex: number): void {
    this.actionAt = performance.now();
    void this.run(() => this.plotScope({ kind: 'lap', lapIndex }));
  }

  /**
   * Plots a new scope. When its read fails, the plots on screen stay, and so the scope and its controls go back to
   * what they show (the Lap picker said the new lap over the old lap's plot).
   */
  private async plotScope(scope: Scope): Promise<void> {
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
  private scopeToControls(): void {
    el<HTMLSelectElement>('scope').value = this.scope.kind;
    if (this.scope.kind === 'lap') el<HTMLSelectElement>('scope-lap').value = String(this.scope.lapIndex);
    if (this.scope.kind === 'window') {
      el<HTMLInputElement>('window-start').value = String(this.scope.start);
      el<HTMLInputElement>('window-duration').value = String(this.scope.duration);
    }
  }

  /** The file-time range the scope covers. */
  private scopeRange(): { start: number; duration: number } {
    const m = this.metadata as DataFileMetadataJson;
    if (this.scope.kind === 'lap') {
      const lap = this.laps[this.scope.lapIndex];
      if (!lap) throw new Error(this.laps.length ? `This file has no lap ${this.scope.lapIndex + 1}: it has ${this.laps.length}.` : 'This file has no laps: plot the whole file or a window.');
      return { start: lap.start, duration: lap.lapTime };
    }
    if (this.scope.kind === 'window') return { start: this.scope.start, duration: this.scope.duration };
    return { start: m.startTime, duration: m.fileTimeLength };
  }

  private async plot(): Promise<void> {
    const dataset = this.dataset;
    const m = this.metadata;
    if (!dataset || !m) return;
    const names = this.ticked().map((c) => c.name);
    if (names.length === 0) {
      this.status('Tick one or more channels to plot.');
      return;
    }
    let range = this.view ?? this.scopeRange();
    // A window of no length (or not a number) holds no sample to draw: said, not read (an empty chart's axis threw).
    if (!(Number.isFinite(range.start) && range.duration > 0)) {
      const what = this.view || this.scope.kind === 'window' ? `The window must start at a number of seconds and last more than 0 s (From ${range.start}, Length ${range.duration}).` : `Nothing to plot: the ${this.scope.kind === 'lap' ? 'lap' : 'file'} lasts 0 s.`;
      this.status(what);
      return;
    }
    // A typed window is the part of it the file holds: cut to the file, said when none of it is in the file.
    let cut = '';
    if (!this.view && this.scope.kind === 'window') {
      const fileEnd = m.startTime + m.fileTimeLength;
      const inFile = windowInFile(range.start, range.duration, m.startTime, fileEnd);
      const file = `the file runs from ${displayNumber(m.startTime, 12)} s to ${displayNumber(fileEnd, 12)} s`;
      if (!inFile) {
        this.status(`Nothing to plot: From ${range.start}, Length ${range.duration} is outside the file (${file}).`);
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
    this.status(`Reading ${names.length} channel(s)…`);
    const series = await this.requireApi().channels(dataset, body, pointsForWidth(this.panes.plotWidth()));
    // How long the read took (request, answer, decoding) within the select-to-drawn time (the benchmark reports both).
    if (this.actionAt) el('panes').dataset['readMs'] = (performance.now() - this.actionAt).toFixed(1);
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
    // The track map follows the lap plotted (else it stays on the best lap), and says when it shows another one.
    if (this.scope.kind === 'lap' && !this.view) el<HTMLSelectElement>('trackmap-lap').value = String(this.scope.lapIndex);
    this.renderMapCaption();
    // To the millisecond, more for a window too short to tell its ends apart at that (0.1 ms: 7 decimals).
    const decimals = Math.min(9, Math.max(3, Math.ceil(-Math.log10(range.duration)) + 3));
    this.status(`${names.length} channel(s), ${range.start.toFixed(decimals)} s to ${(range.start + range.duration).toFixed(decimals)} s${cut}`);
  }

  /**
   * The plotted channels drawn on the time panes: one a channel, or one a unit (*One pane per unit*). Each channel keeps
   * its colour (the first the plot colour, red) whichever pane it is on, as the values line and the legends name them.
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
  private paneIds(): string[] {
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
    this.writeLink();
    this.status(range ? `The y scale of ${id.slice(0, 80)} is set to ${displayNumber(range[0])} to ${displayNumber(range[1])}.` : `The y scale of ${id.slice(0, 80)} is auto.`);
  }

  /**
   * Where the time plots' axis counts from: the plotted lap's start with *Time axis* on lap time and a lap as the scope
   * (zoomed inside it or not); else 0 (file time). The samples, the zoom and the link stay in file time.
   */
  private timeOrigin(): number {
    if (el<HTMLSelectElement>('time-axis').value !== 'lap' || this.scope.kind !== 'lap') return 0;
    return this.laps[this.scope.lapIndex]?.start ?? 0;
  }

  private async zoomTo(min: number, max: number): Promise<void> {
    const m = this.metadata;
    if (!m) return;
    this.view = clampWindow(min, max, m.startTime, m.startTime + m.fileTimeLength);
    this.actionAt = performance.now();
    await this.run(() => this.plot());
  }

  private async pan(fraction: number): Promise<void> {
    const m = this.metadata;
    if (!m || this.plotted.length === 0) return;
    const current = this.view ?? this.scopeRange();
    this.view = panWindow(current.start, current.duration, fraction, m.startTime, m.startTime + m.fileTimeLength);
    await this.run(() => this.plot());
  }

  private async zoomOut(): Promise<void> {
    const m = this.metadata;
    if (!m || this.plotted.length === 0) return;
    const c = this.view ?? this.scopeRange();
    this.view = clampWindow(c.start - c.duration / 2, c.start + c.duration * 1.5, m.startTime, m.startTime + m.fileTimeLength);
    await this.run(() => this.plot());
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
    this.actionAt = performance.now();
    void this.run(() => this.plot());
  }

  /** The window on screen zoomed by `factor` around `centre` (file time): one read. */
  private zoomBy(factor: number, centre: number | null): void {
    const r = this.plottedRange;
    if (!r || this.plotted.length === 0) return;
    const [min, max] = zoomAround(r.start, r.duration, centre ?? Number.NaN, factor);
    void this.zoomTo(min, max);
  }

  /**
   * Keys over the page (not while typing in a field): ← and → step the time plots' cursor one plotted point (with
   * Shift, ten), + and - zoom in and out around it (the window's middle without one), Escape resets the zoom.
   */
  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (e.ctrlKey || e.metaKey || e.altKey || this.plotted.length === 0 || (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const xs = this.plotted[0]?.line.x ?? [];
      const r = this.plottedRange as { start: number; duration: number };
      const from = this.cursorAt ?? r.start + r.duration / 2;
      const steps = (e.key === 'ArrowRight' ? 1 : -1) * (e.shiftKey ? 10 : 1);
      const x = this.cursorAt === null ? from : stepX(xs, from, steps);
      if (x !== null && x >= r.start && x <= r.start + r.duration) this.panes.setCursorAt(x);
    } else if (e.key === '+' || e.key === '=') this.zoomBy(0.5, this.cursorAt);
    else if (e.key === '-' || e.key === '_') this.zoomBy(2, this.cursorAt);
    else if (e.key === 'Escape' && this.view) this.resetZoom();
    else return;
    e.preventDefault();
  }

  /** Ctrl (or Alt) and the wheel over the time plots zoom around the mouse's time: the turns of a quarter second, one read. */
  private wheelZoom: { factor: number; centre: number | null; timer: number } | null = null;

  private onWheel(e: WheelEvent): void {
    if (!(e.ctrlKey || e.altKey) || this.plotted.length === 0 || e.deltaY === 0) return;
    e.preventDefault();
    const factor = e.deltaY > 0 ? 2 : 0.5;
    if (this.wheelZoom) {
      this.wheelZoom.factor *= factor;
      return;
    }
    this.wheelZoom = {
      factor,
      centre: this.cursorAt,
      timer: window.setTimeout(() => {
        const zoom = this.wheelZoom;
        this.wheelZoom = null;
        if (zoom && zoom.factor !== 1) this.zoomBy(zoom.factor, zoom.centre);
      }, 250),
    };
  }

  /** The time plots' cursor (file time), null off the plots. */
  private cursorAt: number | null = null;

  private showCursor(x: number | null): void {
    this.cursorAt = x;
    if (!this.cursorFromMap && this.trackMap) this.drawTrackMap(x === null ? null : pointAtFileTime(this.trackMap.answer, x));
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

  private drawn(container: HTMLElement): void {
    container.dataset['drawn'] = String(Number(container.dataset['drawn'] ?? 0) + 1);
    if (this.actionAt) container.dataset['drawMs'] = (performance.now() - this.actionAt).toFixed(1);
    this.actionAt = 0;
  }

  // ---- lap comparison ------------------------------------------------------------------------------------------

  private addToOverlay(lap: LapRow): void {
    const dataset = this.dataset;
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
  private comparisonChanged(): void {
    this.renderOverlayList();
    if (this.overlay.length === 0) {
      this.overlayPanes.clear();
      this.deltaPanes.clear();
      return;
    }
    const overlay = this.overlayPanes.shown();
    const delta = this.deltaPanes.shown();
    // One after the other, so the status line ends with the delta's.
    void this.run(async () => {
      if (overlay) await this.plotOverlay();
      if (!delta) return;
      if (this.overlay.length >= 2) await this.plotDelta();
      else {
        this.deltaPanes.clear();
        this.status('Delta cleared: it needs two or more laps in the comparison, the first the reference.');
      }
    });
  }

  private renderOverlayList(): void {
    el('overlay-list').replaceChildren(
      ...this.overlay.map((o, i) => {
        const li = document.createElement('li');
        li.dataset['testid'] = `overlay-item-${i}`;
        const swatch = document.createElement('span');
        swatch.textContent = '■ ';
        swatch.style.color = colourAt(i);
        li.append(swatch, o.label + (i === 0 ? ' (reference)' : ''));
        li.appendChild(
          button('remove', `overlay-remove-${i}`, () => {
            this.overlay.splice(i, 1);
            this.comparisonChanged();
          }),
        );
        return li;
      }),
    );
  }

  private async plotOverlay(): Promise<void> {
    const m = this.metadata;
    // The list as it is now: a change while the laps are read draws again with its own list.
    const overlay = [...this.overlay];
    if (!m || overlay.length === 0) {
      this.status('Add laps with "Compare" first.');
      return;
    }
    const channels = this.ticked();
    if (channels.length === 0) {
      this.status('Tick one or more channels to overlay.');
      return;
    }
    const api = this.requireApi();
    const axis = el<HTMLSelectElement>('overlay-axis').value === 'distance' ? 'distance' : 'time';
    const width = pointsForWidth(this.overlayPanes.plotWidth());
    this.status(`Reading ${overlay.length} lap(s)…`);
    const names = channels.map((c) => c.name);
    const view = this.overlayView;
    let source: LapDistanceJson['source'] | undefined;
    const perLap = await Promise.all(
      overlay.map(async (o) => {
        // Zoomed: each lap's window under the visible range, re-read at the plot's resolution. A zoom over distance
        // needs the lap's distance trace first (to find its times); otherwise both reads go at once.
        const lapRead: ChannelsBody = { channels: names, mode: 1, lapIndex: o.lapIndex };
        const distanceRead = axis === 'distance' ? api.distance(o.dataset, o.lapIndex, this.traceOptions()) : Promise.resolve(null);
        const zoomed = view ? lapWindowFor(view, o, await distanceRead) : null;
        const [series, distance] = await Promise.all([
          api.channels(o.dataset, zoomed ? { channels: names, mode: 2, startTime: zoomed.start, duration: zoomed.duration } : lapRead, width),
          distanceRead,
        ]);
        source ??= distance?.source;
        return names.map((name) => {
          const s = series.find((x) => x.name === name);
          const line = s ? seriesLine(s, o.lapStart) : { x: new Float64Array(0), y: [] };
          return distance ? toDistance(line, distance) : line;
        });
      }),
    );
    const specs: PaneSpec[] = channels.map((c, k) => ({
      id: `overlay-${c.name}`,
      title: `${c.name} over ${axis === 'distance' ? 'distance' : 'lap time'}`,
      unit: c.unit,
      xLabel: axis === 'distance' ? 'distance (m)' : 'lap time (s)',
      series: overlay.map((o, i) => ({ label: o.label, colour: colourAt(i), step: isDiscreteChannel(c) })),
      data: overlayOnGrid(
        perLap.map((lines) => lines[k]),
        c,
        width,
        view ?? undefined,
      ) as PaneSpec['data'],
      ...(view ? { xRange: view } : {}),
    }));
    this.overlayPanes.setSyncKey(axis === 'distance' ? LAP_DISTANCE_SYNC : 'overlay');
    this.overlayPanes.render(specs);
    this.status(`${overlay.length} lap(s) overlaid on ${axis === 'distance' ? `distance (source: ${source?.kind ?? '-'} ${source?.channel ?? ''})` : 'lap time'}.`);
  }

  private async plotDelta(): Promise<void> {
    if (this.overlay.length < 2) {
      this.status('Add two or more laps with "Compare": the first is the reference.');
      return;
    }
    const api = this.requireApi();
    const [reference, ...laps] = this.overlay;
    const width = pointsForWidth(this.deltaPanes.plotWidth());
    const view = this.deltaView;
    // Zoomed: the full-resolution trace (one point per sample), shown over the visible distance range.
    const answers = await Promise.all(laps.map((o) => api.delta(o.dataset, o.lapIndex, reference.dataset, reference.lapIndex, this.traceOptions(view ? undefined : width))));
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
    this.status(`Delta of ${laps.length} lap(s) to the reference (source: ${answers[0]?.source.kind ?? '-'} ${answers[0]?.source.channel ?? ''}).`);
  }

  // ---- analysis: lap statistics, scatter, histogram ---------------------------------------------------------------

  private async showLapStats(): Promise<void> {
    const m = this.metadata;
    if (!m || !this.dataset) return;
    const thresholds = parseThresholds(el<HTMLInputElement>('lapstats-thresholds').value);
    const channels = lapStatsChannelsOf(
      this.ticked().map((c) => c.name),
      thresholds,
    );
    const sectorStartDistances = parseDistances(el<HTMLInputElement>('lapstats-sectors').value);
    const perSector = el<HTMLInputElement>('lapstats-per-sector').checked;
    const answer = await this.requireApi().lapStats(this.dataset, { channels, thresholds, ...(sectorStartDistances ? { sectorStartDistances } : {}), ...(perSector ? { perSector } : {}) });
    const { header, rows } = lapStatsTable(answer);
    el('lapstats-table').replaceChildren(
      row(header, 'th'),
      ...rows.map(({ cells, testid, lapIndex, bestSectors }) => {
        const tr = row(cells);
        tr.dataset['testid'] = testid;
        for (const k of bestSectors ?? []) tr.cells[k]?.classList.add('best-sector');
        if (lapIndex !== undefined && answer.bestLap?.lapIndex === lapIndex) tr.className = 'best';
        else if (testid.includes('-s')) tr.className = 'sector';
        return tr;
      }),
    );
    el('lapstats-summary').textContent = lapStatsSummary(answer);
    this.status(`Lap statistics of ${answer.laps.length} lap(s), ${answer.channels.length} channel(s).`);
  }

  private analysisLap(): number | null {
    const v = el<HTMLSelectElement>('analysis-lap').value;
    return v === '' ? null : Number(v);
  }

  private async plotScatter(): Promise<void> {
    if (!this.dataset) return;
    const colour = el<HTMLSelectElement>('scatter-colour').value;
    const answer = await this.requireApi().scatter(this.dataset, { x: el<HTMLSelectElement>('scatter-x').value, y: el<HTMLSelectElement>('scatter-y').value, ...(colour ? { colour } : {}), lapIndex: this.analysisLap() });
    const canvas = el<HTMLCanvasElement>('scatter-canvas');
    const { marks, xRange, yRange } = scatterMarks(answer, canvas.width, canvas.height, COLOURS[0] as string);
    drawMarks(canvas, marks, xRange, yRange, axisLabel(answer.x), axisLabel(answer.y), false, false, frictionCircles(answer.x.unit, answer.y.unit, xRange, yRange));
    const what = answer.kind === 'points' ? `${answer.count} points` : `${answer.count} pairs in a ${answer.grid?.xAxis.cells}×${answer.grid?.yAxis.cells} density grid`;
    el('scatter-caption').textContent = scatterCaption(answer);
    showColourBar('scatter', scatterColourBar(answer));
    el('scatter-canvas').dataset['kind'] = answer.kind;
    this.status(`Scatter: ${what}.`);
  }

  private async plotHistogram(): Promise<void> {
    if (!this.dataset) return;
    const bins = parseBins(el<HTMLInputElement>('histogram-bins').value);
    const name = el<HTMLSelectElement>('histogram-channel').value;
    const api = this.requireApi();
    let answer = await api.histogram(this.dataset, { channel: name, lapIndex: this.analysisLap(), ...(bins ? { bins } : {}) });
    // A discrete channel of whole values (gear): read again with one bin per value, centred on it.
    const channel = this.metadata?.channels.find((c) => c.name === name);
    const whole = channel && isDiscreteChannel(channel) ? integerEdges(answer.edges[0] ?? Number.NaN, answer.edges[answer.edges.length - 1] ?? Number.NaN) : null;
    if (whole) answer = await api.histogram(this.dataset, { channel: name, lapIndex: this.analysisLap(), edges: whole });
    const canvas = el<HTMLCanvasElement>('histogram-canvas');
    const edges = answer.edges;
    // The vertical axis runs from 0 to a round tick above the tallest bar (the bars scaled on it): whole numbers of
    // samples, or their share.
    const axis = histogramAxis(answer, el<HTMLSelectElement>('histogram-y').value === 'percent');
    drawMarks(canvas, histogramBars(answer, canvas.width, canvas.height, COLOURS[1] as string, axis), [edges[0] ?? 0, edges[edges.length - 1] ?? 1], axis.range, axisLabel(answer.channel), axis.label, axis.whole, whole !== null);
    el('histogram-caption').textContent = histogramCaption(answer);
    this.status(`Histogram of ${answer.channel.name}.`);
  }

  // ---- track map: the lap's path, its cursor linked to the time plots' --------------------------------------------

  private async plotTrackMap(): Promise<void> {
    if (!this.dataset) return;
    if (this.laps.length === 0) throw new Error('This file has no laps: a track map is drawn for a lap.');
    const colour = el<HTMLSelectElement>('trackmap-colour').value;
    const lapIndex = Number(el<HTMLSelectElement>('trackmap-lap').value);
    const canvas = el<HTMLCanvasElement>('trackmap-canvas');
    // About one point per two pixels of the path's length on the canvas is as fine as the eye resolves.
    const answer = await this.requireApi().trackMap(this.dataset, { lapIndex, ...(colour ? { colour } : {}), maxPoints: 2 * (canvas.width + canvas.height) });
    const view = mapView(answer, canvas.width, canvas.height);
    this.trackMap = { answer, view, segments: mapSegments(answer, view, COLOURS[0] as string), marker: null, lapIndex, caption: '' };
    this.drawTrackMap(null);
    const points = answer.points.x.length;
    const length = answer.points.distance[points - 1] ?? 0;
    const from = answer.source === 'gps' ? 'GPS' : `dead reckoning (${answer.source === 'yaw-rate' ? 'speed and yaw rate' : 'speed and lateral acceleration'})`;
    const closure = answer.closureErrorMetres === null ? 'not a closed lap' : answer.source === 'gps' ? `ends ${answer.closureErrorMetres.toFixed(1)} m from its start` : `closure error ${answer.closureErrorMetres.toFixed(1)} m, spread along the lap`;
    showColourBar('trackmap', answer.colour ? colourBar(answer.colour.unit, answer.points.value ?? []) : null);
    this.trackMap.caption = `Lap ${lapIndex + 1} from ${from}: ${answer.channels.map((c) => c.name).join(', ')}; ${length.toFixed(0)} m, ${points} of ${answer.count} points (even over distance); ${closure}${answer.colour ? `; ${colourScale(answer.colour, answer.points.value ?? [])}` : ''}.`;
    this.renderMapCaption();
    this.status(`Track map of lap ${lapIndex + 1}.`);
  }

  /** Whether file time `t` is on the time plots' axis (hovering the map moves their cursor only then). */
  private plotsShow(t: number): boolean {
    const r = this.plottedRange;
    return !!r && t >= r.start - 1e-6 && t <= r.start + r.duration + 1e-6;
  }

  /** The map's caption, and when the time plots show another lap or range than the map's lap, that they do. */
  private renderMapCaption(): void {
    const map = this.trackMap;
    if (!map) return;
    const r = this.plottedRange;
    const lap = this.laps[map.lapIndex];
    let note = '';
    if (r && lap && !(this.plotsShow(lap.start) && this.plotsShow(lap.start + lap.lapTime))) {
      const shown = this.scope.kind === 'lap' && !this.view ? `lap ${this.scope.lapIndex + 1}` : `${displayNumber(r.start, 8)} s to ${displayNumber(r.start + r.duration, 8)} s`;
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
      this.panes.setCursorAt(this.plotsShow(t) ? t : null);
    } finally {
      this.cursorFromMap = false;
    }
  }

  // ---- plumbing ------------------------------------------------------------------------------------------------

  private requireApi(): ViewerApi {
    if (!this.api) throw new Error('Connect with an API key first.');
    return this.api;
  }

  /** Runs an action, showing its failure as a plain message (API errors per status, docs/api.md). */
  private async run(action: () => Promise<void>): Promise<void> {
    const error = el('error');
    try {
      await action();
      error.hidden = true;
      error.textContent = '';
      this.writeLink();
    } catch (err) {
      error.textContent = err instanceof ApiError || err instanceof Error ? err.message : String(err);
      error.dataset['status'] = err instanceof ApiError ? String(err.status) : '';
      // The service's own words in full (a sentence of the page may summarise them), on hover.
      error.title = err instanceof ApiError ? (err.info.problem?.detail ?? err.info.reason ?? '') : '';
      error.hidden = false;
      this.status('');
      // A key refused (revoked, or stored and refused at a reload): forgotten, so no reload sends it again.
      if (err instanceof ApiError && err.status === 401) {
        clearCredentials(sessionStorage);
        if (this.api) {
          this.forgetKey();
          error.textContent += ' Sign in again.';
        }
      }
    }
  }

  /** Signed out by the service: the sign-in shown, nothing of the account left on the page. */
  private forgetKey(): void {
    this.api = null;
    this.opening++;
    this.closeDataset();
    el('sign-in').hidden = false;
    el('signed-in').hidden = true;
    el('app').hidden = true;
  }

  private status(text: string): void {
    el('status').textContent = text;
  }
}

/** A time pane's id: its channel's name, or `unit:<unit>` with one pane a unit (the y scales and links name it so). */
function paneIdOf(group: readonly { name: string; unit: string }[], byUnit: boolean): string {
  const first = group[0];
  return first ? (byUnit ? `unit:${first.unit}` : first.name) : '';
}

/** An entity's parameter as the math form shows it: its text, '' when it has none. */
function parameterText(e: EntityJson, name: string): string {
  const v = e.Parameters[name];
  return v === null || v === undefined ? '' : String(v);
}

new Viewer().start();
