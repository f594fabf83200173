import type { DatasetPanel } from './dataset-panel';
import { el } from './dom';
import { decodeLink, encodeLink, sayNames, sayProblems, type ViewerLayout, type ViewerLink } from './link';
import type { Page } from './page';
import type { Pickers } from './pickers';
import type { TimePlots } from './time-plots';

/** The page's link (the address of what is on screen: link.ts): written after each action, opened once signed in. */
export class PageLink {
  /** True while a link is being opened: the address keeps the link until it is opened. */
  applyingLink = false;

  /** The link being opened, and the one asked for while it is (opened after it, the latest only). */
  private linkApplying: Promise<void> | null = null;
  private linkWaiting: string | null = null;

  constructor(
    private readonly page: Page,
    private readonly pickers: Pickers,
    private readonly datasetPanel: DatasetPanel,
    private readonly plots: TimePlots,
  ) {}

  start(): void {
    // A link pasted into the address of a signed-in page (the page's own changes are replaced, firing no event).
    window.addEventListener('hashchange', () => {
      if (this.page.api && location.hash.length > 1) void this.applyLink(location.hash);
    });
  }

  /** What is on screen, as a link: the pickers' choices, the open dataset, the ticked channels, the plotted scope and zoom. */
  private currentLink(): ViewerLink {
    const value = (id: string) => el<HTMLSelectElement>(id).value || undefined;
    const link: ViewerLink = {};
    const picks = [['championship', 'pick-championship'], ['event', 'pick-event'], ['session', 'pick-session'], ['car', 'pick-car'], ['run', 'pick-run']] as const;
    for (const [name, id] of picks) {
      const v = value(id);
      if (v) link[name] = v;
    }
    if (this.page.dataset) {
      link.dataset = { entityType: this.page.dataset.entityType, entityId: this.page.dataset.entityId, group: this.page.dataset.group };
      Object.assign(link, this.currentView());
      if (this.plots.plotted.length) {
        link.scope = this.plots.scope;
        if (this.plots.view) link.view = { start: this.plots.view.start, duration: this.plots.view.duration };
      }
    }
    return link;
  }

  /**
   * The view on screen, a link's part that a saved layout is (link.ts): the ticked channels in order, one pane per
   * unit, the time axis, and the y scales set by hand on the panes drawn.
   */
  currentView(): ViewerLayout {
    const view: ViewerLayout = {};
    const channels = this.page.ticked().map((c) => c.name);
    if (channels.length) view.channels = channels;
    if (el<HTMLInputElement>('panes-by-unit').checked) view.panesByUnit = true;
    if (el<HTMLSelectElement>('time-axis').value === 'lap') view.lapTimeAxis = true;
    if (this.plots.plotted.length) {
      const scales = this.plots.paneIds().flatMap((pane) => {
        const range = this.plots.yScales.get(pane);
        return range ? [{ pane, min: range[0], max: range[1] }] : [];
      });
      if (scales.length) view.yScales = scales;
    }
    return view;
  }

  /**
   * Sets a view (a link's, or a saved layout's) on the open dataset, before it is plotted: its channels that the
   * dataset has ticked, in its order (the others returned), in its panes, time axis and y scales (those it sets only).
   */
  setView(view: ViewerLayout): { missing: string[] } {
    const metadata = this.page.metadata;
    if (!metadata) return { missing: [] };
    const missing: string[] = [];
    this.page.selected.clear();
    for (const name of view.channels ?? []) {
      if (metadata.channels.some((c) => c.name === name)) this.page.selected.add(name);
      else missing.push(name);
    }
    this.datasetPanel.renderCatalogue();
    this.plots.yScales.clear();
    for (const y of view.yScales ?? []) this.plots.yScales.set(y.pane, [y.min, y.max]);
    el<HTMLInputElement>('panes-by-unit').checked = view.panesByUnit === true;
    el<HTMLSelectElement>('time-axis').value = view.lapTimeAxis ? 'lap' : 'file';
    return { missing };
  }

  /** Once a view is plotted: its y scales of no pane drawn (a channel the file lacks, another pane per unit choice), forgotten and returned. */
  unplottedScales(view: ViewerLayout): string[] {
    const panes = this.plots.paneIds();
    return (view.yScales ?? []).flatMap((y) => {
      if (panes.includes(y.pane)) return [];
      this.plots.yScales.delete(y.pane);
      return [y.pane];
    });
  }

  /** The address's fragment set to what is on screen (replaced, not pushed: Back leaves the page, as before). */
  writeLink(): void {
    if (this.applyingLink || !this.page.api) return;
    const fragment = encodeLink(this.currentLink());
    if (location.hash.slice(1) === fragment) return;
    try {
      history.replaceState(null, '', fragment ? `#${fragment}` : location.pathname + location.search);
    } catch {
      // A browser that throttles address changes (many zooms in a second) keeps the last one it took.
    }
  }

  /**
   * Opens a link: each picker set in turn (its choices loaded), the dataset opened, its channels ticked and the scope
   * plotted at its zoom. What of the link this key cannot see, or the file does not have, is said in the status line,
   * and the page stops there or leaves that part out.
   */
  async applyLink(fragment: string): Promise<void> {
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
      await this.page.run(async () => {
        // A link opened over what is on screen (pasted into the address of a signed-in page) replaces it.
        if (this.page.dataset) {
          this.page.opening++;
          this.datasetPanel.close();
        }
        const chain: [string, string, string | undefined, (value: string) => Promise<void>][] = [
          ['championship', 'pick-championship', link.championship, (v) => this.pickers.loadEvents(v)],
          ['event', 'pick-event', link.event, (v) => this.pickers.loadSessions(v)],
          ['session', 'pick-session', link.session, () => this.pickers.loadCars()],
          ['car', 'pick-car', link.car, (v) => this.pickers.loadRuns(v)],
          ['run sheet', 'pick-run', link.run, () => this.pickers.loadDatasets()],
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
          await this.pickers.pickersSettled();
          const select = el<HTMLSelectElement>(id);
          if (select.value === value && this.pickers.loaded.get(id) === value) continue;
          if (![...select.options].some((o) => o.value === value)) {
            said.push(`its ${name} is not one this key can see in this account`);
            reached = false;
            break;
          }
          select.value = value;
          this.pickers.loaded.set(id, value);
          await load(value);
        }
        await this.pickers.pickersSettled();
        if (!reached || !link.dataset) return;
        const wanted = link.dataset;
        const index = this.pickers.datasets.findIndex((d) => d.entityType === wanted.entityType && d.entityId === wanted.entityId && d.group === wanted.group);
        if (index < 0) {
          said.push(`its dataset ${sayNames([wanted.group])} is not among this run sheet's datasets`);
          return;
        }
        el<HTMLSelectElement>('pick-dataset').value = String(index);
        this.pickers.loaded.set('pick-dataset', String(index));
        await this.pickers.openDataset(String(index));
        const metadata = this.page.metadata;
        if (!metadata) return;
        for (const name of this.setView(link).missing) said.push(`"${name.slice(0, 80)}" is not a channel of this dataset`);
        let scope = link.scope ?? { kind: 'file' as const };
        if (scope.kind === 'lap' && !this.page.laps[scope.lapIndex]) {
          said.push(`this file has no lap ${scope.lapIndex + 1} (it has ${this.page.laps.length})`);
          scope = { kind: 'file' };
        }
        if (this.page.ticked().length === 0) {
          this.plots.scope = scope;
          this.plots.scopeToControls();
        } else {
          await this.plots.plotScope(scope);
          if (link.view) {
            const fileEnd = metadata.startTime + metadata.fileTimeLength;
            if (link.view.start >= fileEnd || link.view.start + link.view.duration <= metadata.startTime) said.push('its zoom is outside the file');
            else await this.plots.zoomTo(link.view.start, link.view.start + link.view.duration);
          }
        }
        // A y scale of a pane the link does not plot (a channel the file lacks, another pane per unit choice) is said.
        for (const pane of this.unplottedScales(link)) said.push(`the y scale of "${pane.slice(0, 80)}" is not of a pane plotted`);
      });
    } finally {
      this.applyingLink = false;
    }
    this.writeLink();
    if (said.length) this.page.status(`The link was opened in part: ${sayProblems(said)}.`);
  }
}
