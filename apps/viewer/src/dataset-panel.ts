import type { DataFileMetadataJson } from '@pitwall/contracts';
import type { AnalysisPanels } from './analysis-panels';
import type { DatasetRef } from './api';
import { catalogueChanges, catalogueChangesText, catalogueSearchDelay, channelCount, constantsOf, entityName, formatLapTime, groupChannelsByUnit, holderName, lapRows, parametersText, parametersTitle, type CatalogueChanges, type ConstantUsed } from './catalogue';
import type { LapComparison } from './comparison';
import { displayNumber } from './display-number';
import { button, cell, el, hiddenText, named, RovingFocus, row, titled } from './dom';
import { ApiError } from './errors';
import type { Page } from './page';
import type { TimePlots } from './time-plots';
import type { TrackMapPanel } from './track-map-panel';

/** The sections that act on the open dataset: shown while one is open, hidden otherwise. */
const DATASET_PANELS = ['skip-links', 'metadata', 'plot-controls', 'overlay-controls', 'overlay-panes', 'delta-panes', 'analysis', 'trackmap'];

/** The most holders of constants named a catalogue (a dataset's chain is three: its entity, its setup, its car). */
const MAX_HOLDERS_NAMED = 8;

/** The panels that show what an open dataset holds, or clear it when it closes. */
export interface DatasetPanels {
  plots: TimePlots;
  comparison: LapComparison;
  map: TrackMapPanel;
  analysis: AnalysisPanels;
}

/** The open dataset: opened and closed, its properties, its laps and its channel catalogue shown. */
export class DatasetPanel {
  /**
   * The channel list is one Tab stop (78 checkboxes for Sample1.ld were 78): ↑ ↓ move between its channels, across
   * its unit groups, Space ticks one; the Tab stop stays on the channel last focused while the list is drawn again.
   */
  private readonly channelFocus = new RovingFocus(
    el('channels'),
    () => [...el('channels').querySelectorAll<HTMLInputElement>('input[type=checkbox]')],
    (box) => box.dataset['testid'] ?? '',
  );

  constructor(
    private readonly page: Page,
    private readonly panels: DatasetPanels,
  ) {}

  start(): void {
    // A catalogue of thousands of channels (20,000 a file, and the account's math channels) is rebuilt once typing
    // pauses: rebuilding it at every keystroke made each one wait for tens of thousands of elements.
    let pending: ReturnType<typeof setTimeout> | undefined;
    el('channel-search').addEventListener('input', () => {
      clearTimeout(pending);
      const delay = catalogueSearchDelay(this.page.metadata?.channels.length ?? 0);
      if (delay === 0) this.renderCatalogue();
      else pending = setTimeout(() => this.renderCatalogue(), delay);
    });
  }

  /** Opens a dataset the picker listed (none: the one open closed all the same). */
  async open(dataset: DatasetRef | undefined): Promise<void> {
    const opening = ++this.page.opening;
    // Nothing of the dataset open before stays on screen or in reach of a button while this one opens, nor if it fails to.
    this.close();
    if (!dataset) return;
    const metadata = await this.page.requireApi().metadata(dataset);
    await this.nameHolders(metadata);
    if (opening !== this.page.opening) return;
    this.page.metadata = metadata;
    this.page.dataset = dataset;
    this.page.laps = lapRows(metadata);
    for (const name of [...this.page.selected]) if (!metadata.channels.some((c) => c.name === name)) this.page.selected.delete(name);
    this.renderMetadata();
    for (const id of DATASET_PANELS) el(id).hidden = false;
  }

  /**
   * The open dataset's catalogue read again (the account's math channels created, changed or deleted since, by this
   * page or elsewhere; a car's constant changed) and shown: the channel list, the analysis pickers, "Distance from"
   * and the File panel's count. Ticked channels it still lists stay ticked, the others are unticked. Null when another
   * dataset was opened (or this one closed) meanwhile: nothing shown. `forgetNames`: the constants' holders named
   * afresh (a car renamed since).
   */
  async readCatalogue(forgetNames = false): Promise<{ changes: CatalogueChanges; unticked: string[] } | null> {
    const dataset = this.page.dataset;
    const before = this.page.metadata;
    if (!dataset || !before) return null;
    const opening = this.page.opening;
    const metadata = await this.page.requireApi().metadata(dataset);
    if (forgetNames) this.holderNames.clear();
    await this.nameHolders(metadata);
    if (opening !== this.page.opening || this.page.dataset !== dataset) return null;
    this.page.metadata = metadata;
    const unticked = [...this.page.selected].filter((name) => !metadata.channels.some((c) => c.name === name));
    for (const name of unticked) this.page.selected.delete(name);
    this.renderFileProperties();
    this.renderChannelPickers();
    this.panels.comparison.renderDistanceSources();
    this.renderCatalogue();
    this.renderConstants();
    return { changes: catalogueChanges(before.channels, metadata.channels), unticked };
  }

  /** The entities holding the constants of math channels (`Cars <id>`), by `from`: `Cars Car 7`, or `from` when unnamed. */
  private readonly holderNames = new Map<string, string>();

  /**
   * Names the entities the catalogue's math channels take constants from (the run sheet, its setup, its car: three at
   * most a dataset), each read once (`GET /{Plural}/{id}`) and kept while the page is open; one the key cannot read
   * is said by its id, as the service gives it.
   */
  private async nameHolders(metadata: DataFileMetadataJson): Promise<void> {
    const froms = new Set(metadata.channels.flatMap((c) => (c.parameters ?? []).map((p) => p.from)));
    const unnamed = [...froms].filter((from) => !this.holderNames.has(from)).slice(0, MAX_HOLDERS_NAMED);
    await Promise.all(
      unnamed.map(async (from) => {
        const [, plural, id] = /^(\w+) (\S+)$/.exec(from) ?? [];
        let name: string | undefined;
        try {
          name = plural && id ? entityName(await this.page.requireApi().entityNamed(plural, id)) : undefined;
        } catch {
          name = undefined;
        }
        this.holderNames.set(from, holderName(from, name));
      }),
    );
  }

  /** Forgets the open dataset: its panels hidden, its plots, track map and lap statistics cleared. */
  close(): void {
    this.page.dataset = null;
    this.page.metadata = null;
    this.page.laps = [];
    for (const id of DATASET_PANELS) el(id).hidden = true;
    // Nothing of it left in the page either: its properties, laps and channels.
    for (const id of ['file-properties', 'laps', 'channels', 'constants-list']) el(id).replaceChildren();
    el('constants').hidden = true;
    this.panels.plots.clear();
    this.panels.map.clear();
    this.panels.analysis.clear();
    this.page.status('');
  }

  /** The file's properties, its length, laps and channels (counted apart from the account's math channels). */
  renderFileProperties(): void {
    const m = this.page.metadata as DataFileMetadataJson;
    const props: [string, unknown][] = [
      // Which dataset the panels below belong to, whatever the pickers say meanwhile.
      ['dataset', this.page.dataset?.label],
      ...Object.entries(m.fileProperties),
      ['start time (s)', m.startTime],
      ['length (s)', m.fileTimeLength.toFixed(3)],
      ['laps', m.lapCount],
      ['channels', channelCount(m.channels)],
    ];
    el('file-properties').replaceChildren(...props.map(([k, v]) => row([k, v === null || v === undefined || v === '' ? '-' : typeof v === 'number' ? displayNumber(v, 12) : String(v)])));
  }

  private renderMetadata(): void {
    const m = this.page.metadata as DataFileMetadataJson;
    this.renderFileProperties();

    // Headers a screen reader reads with each cell: the columns' (those of the buttons said, not shown) and the lap's
    // number as its row's header.
    const header = row(['lap', 'time', '', ''], 'th');
    for (const [k, th] of [...header.cells].entries()) {
      th.scope = 'col';
      if (k >= 2) th.append(hiddenText(k === 2 ? 'Plot' : 'Compare'));
    }
    const rows = this.page.laps.map((lap) => {
      const tr = row([String(lap.lapIndex + 1), formatLapTime(lap.lapTime)]);
      const number = cell(String(lap.lapIndex + 1), 'th');
      number.scope = 'row';
      tr.replaceChild(number, tr.cells[0] as HTMLTableCellElement);
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
      // Each button named for its lap (seven "Plot" and six "Compare" read alike).
      tr.appendChild(cell(named(button('Plot', `plot-lap-${lap.lapIndex}`, () => this.panels.plots.plotLap(lap.lapIndex)), `Plot lap ${lap.lapIndex + 1}`)));
      tr.appendChild(cell(named(button('Compare', `overlay-add-${lap.lapIndex}`, () => this.panels.comparison.addToOverlay(lap)), `Compare lap ${lap.lapIndex + 1}`)));
      return tr;
    });
    el('laps').replaceChildren(header, ...rows);
    // The scope pickers start over with the dataset (scope is the whole file again); a file without laps offers no lap.
    const scope = el<HTMLSelectElement>('scope');
    scope.value = 'file';
    const lapScope = scope.querySelector<HTMLOptionElement>('option[value=lap]') as HTMLOptionElement;
    lapScope.disabled = this.page.laps.length === 0;
    lapScope.textContent = this.page.laps.length ? 'one lap' : 'one lap (this file has no laps)';
    el<HTMLSelectElement>('scope-lap').disabled = this.page.laps.length === 0;
    el<HTMLSelectElement>('scope-lap').replaceChildren(...this.page.laps.map((l) => new Option(`${l.lapIndex + 1}  ${formatLapTime(l.lapTime)}`, String(l.lapIndex))));
    el<HTMLInputElement>('window-start').value = String(m.startTime);
    el<HTMLSelectElement>('analysis-lap').replaceChildren(new Option('whole file', ''), ...this.page.laps.map((l) => new Option(`lap ${l.lapIndex + 1}`, String(l.lapIndex))));
    // A track map is drawn per lap: a file without laps has none to draw.
    el<HTMLButtonElement>('trackmap-plot').disabled = this.page.laps.length === 0;
    el('trackmap-caption').textContent = this.page.laps.length ? '' : 'This file has no laps: a track map is drawn for a lap.';
    el('trackmap-hint').hidden = this.page.laps.length === 0;
    el<HTMLSelectElement>('trackmap-lap').replaceChildren(...this.page.laps.map((l) => new Option(`lap ${l.lapIndex + 1}  ${formatLapTime(l.lapTime)}${l.best ? ' (best)' : ''}`, String(l.lapIndex), l.best, l.best)));
    this.renderChannelPickers();
    this.panels.comparison.renderDistanceSources();
    this.renderCatalogue();
    this.renderConstants();
  }

  /**
   * The constants the catalogue's math channels read on this dataset, each with its value in a field and *Set*, which
   * sets it on the entity holding it (its custom parameter, `PUT /{Plural}/{id}`); hidden when they read none.
   */
  private renderConstants(): void {
    const constants = constantsOf(this.page.metadata?.channels ?? []);
    el('constants').hidden = constants.length === 0;
    el('constants-list').replaceChildren(
      ...constants.map((c) => {
        const holder = this.holderNames.get(c.from) ?? c.from;
        const item = document.createElement('li');
        const form = document.createElement('form');
        form.noValidate = true;
        const input = document.createElement('input');
        input.id = `constant-${++this.paramsIds}`;
        input.inputMode = 'decimal';
        input.value = String(c.value);
        input.dataset['testid'] = `constant-value-${c.name}`;
        const label = document.createElement('label');
        label.htmlFor = input.id;
        label.textContent = `param ${c.name} (${holder})`;
        label.title = `param ${c.name}, held by ${holder}, read by ${c.channels.join(', ')}`;
        const set = named(button('Set', `constant-set-${c.name}`, () => undefined), `Set ${c.name} of ${holder}`);
        set.type = 'submit';
        form.addEventListener('submit', (e) => {
          e.preventDefault();
          void this.page.run(() => this.setConstant(c, holder, input.value));
        });
        form.append(label, input, set);
        item.append(form);
        return item;
      }),
    );
  }

  /**
   * Sets a constant on the entity holding it, then reads the catalogue again (its math channels take the new value)
   * and plots the time plots on screen again with it. Text that is no number is said, not sent; a refusal of the
   * key's role (a reader: 403) is said in the status line.
   */
  private async setConstant(constant: ConstantUsed, holder: string, text: string): Promise<void> {
    const value = text.trim();
    if (value === '' || !Number.isFinite(Number(value))) throw new Error(`The constant ${constant.name} was not set: "${value}" is not a number.`);
    const [, plural, id] = /^(\w+) (\S+)$/.exec(constant.from) ?? [];
    if (!plural || !id) throw new Error(`The constant ${constant.name} was not set: its holder "${constant.from}" is not an entity the page can set.`);
    try {
      await this.page.requireApi().setParameter(plural, id, constant.name, value);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 403)) throw err;
      const why = err.info.problem?.detail ?? '';
      return this.page.status(`The constant ${constant.name} of ${holder} was not set (403): your role in this account may not change ${holder}; constants are set by its editors and admins${why ? ` (${why})` : ''}.`);
    }
    const read = await this.readCatalogue();
    if (!read) return;
    const replotted = this.panels.plots.plotted.length > 0;
    if (replotted) await this.panels.plots.plotAgain();
    this.page.status(`Constant ${constant.name} of ${holder} set to ${displayNumber(Number(value), 12)}; ${catalogueChangesText(read.changes, read.unticked)}${replotted ? '; the time plots drawn again with it' : ''}.`);
  }

  /**
   * The analysis panels' channel pickers (scatter x, y and colour, histogram, track map colour): every channel of the
   * catalogue, the account's math channels included. A choice stays while the catalogue still has it (a math channel
   * defined from the page keeps what was picked and adds itself).
   */
  renderChannelPickers(): void {
    const names = (this.page.metadata as DataFileMetadataJson).channels.map((c) => c.name);
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

  /** Counts the constants' lines drawn, for their ids (a checkbox's description names one). */
  private paramsIds = 0;

  renderCatalogue(): void {
    const m = this.page.metadata;
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
          box.checked = this.page.selected.has(c.name);
          box.dataset['testid'] = `channel-${c.name}`;
          box.addEventListener('change', () => (box.checked ? this.page.selected.add(c.name) : this.page.selected.delete(c.name)));
          label.append(box, ` ${c.name}`);
          label.classList.add('channel');
          label.title = `${c.name}: ${c.expression !== undefined ? `${c.expression} (${c.unit || 'no unit'})` : `${c.unit || 'no unit'}, ${displayNumber(c.frequency)} Hz, ${c.sampleCount} samples, ${c.dataType}`}`;
          fieldset.appendChild(label);
          // A math channel's constants on this dataset (param()), as a read of it takes them now: which steering ratio
          // it is computed with, and from which entity. Text under its name, read with its checkbox as its description.
          if (c.parameters?.length) {
            const nameOf = (from: string) => this.holderNames.get(from) ?? from;
            const params = document.createElement('span');
            params.className = 'channel-params';
            params.id = `channel-params-${++this.paramsIds}`;
            params.dataset['testid'] = `channel-params-${c.name}`;
            params.textContent = parametersText(c.parameters, nameOf);
            params.title = parametersTitle(c.parameters, nameOf);
            box.setAttribute('aria-describedby', params.id);
            fieldset.appendChild(params);
          }
        }
        return fieldset;
      }),
    );
    if (groups.length === 0) el('channels').textContent = 'No channel matches.';
    this.channelFocus.refresh();
  }
}
