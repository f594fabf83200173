import type { EntityJson } from '@pitwall/contracts';
import type { DatasetRef } from './api';
import { catalogueChangesText, datasetsOf, enteredCars, entityName, uploadingCount, uploadingText } from './catalogue';
import type { DatasetPanel } from './dataset-panel';
import { el, focusOn, onCommittedChange } from './dom';
import type { Page } from './page';

/** The pickers, top down: each one's choices are loaded for the choice above it. */
const PICKERS = ['pick-championship', 'pick-event', 'pick-session', 'pick-car', 'pick-run', 'pick-dataset'];

/** The pickers: a championship, an event, a session, a car and a run sheet picked in turn, then one of its datasets. */
export class Pickers {
  /** The value each picker's choices below were last loaded for: choosing it again loads nothing again. */
  readonly loaded = new Map<string, string>();

  constructor(
    private readonly page: Page,
    private readonly datasetPanel: DatasetPanel,
    /** Refresh: what else is read again (the account's math channels listed under their form, its saved layouts). */
    private readonly refreshed: () => Promise<void>,
  ) {}

  start(): void {
    this.onChange('pick-championship', (id) => this.loadEvents(id));
    this.onChange('pick-event', (id) => this.loadSessions(id));
    this.onChange('pick-session', () => this.loadCars());
    this.onChange('pick-car', (carId) => this.loadRuns(carId));
    this.onChange('pick-run', () => this.loadDatasets());
    this.onChange('pick-dataset', (i) => this.openDataset(i));
    el('refresh-datasets').addEventListener('click', () => void this.page.run(() => this.loadDatasets(true)));
  }

  private onChange(id: string, load: (value: string) => Promise<void> | void): void {
    // A choice stepped to with the arrow keys counts once committed (Enter, or leaving the picker): an arrow on the
    // Dataset picker opened each dataset it passed, and one on the Run sheet picker closed the dataset open.
    onCommittedChange(el<HTMLSelectElement>(id), (value) => {
      // The same choice again (the only one, picked by the page, then by the user): nothing to do, unless it is a
      // dataset that is not open (one that failed to open may be tried again).
      if (this.loaded.get(id) === value && (id !== 'pick-dataset' || this.page.dataset)) return;
      this.loaded.set(id, value);
      // Another championship, event, session, car or run sheet: the dataset open is not among its datasets, so it is
      // put away at once (its metadata, laps and plots stayed under the new run's pickers), and an answer still on
      // its way for it is dropped.
      if (id !== 'pick-dataset') {
        this.page.opening++;
        if (this.page.dataset) this.datasetPanel.close();
      }
      // "choose…" (or "none"): nothing is chosen here, so nothing below it either (the run sheet's old datasets stayed
      // in their picker, to be opened under a run sheet no longer chosen).
      if (!value) {
        this.clearBelow(id);
        return;
      }
      const loading = this.page.run(async () => load(value));
      this.pickLoads.add(loading);
      void loading.finally(() => this.pickLoads.delete(loading));
    });
  }

  /**
   * Fills a picker with entities (a blank first choice), clearing the pickers below it. A single championship, event,
   * session, car or run sheet is picked at once, as if the user had (`auto` false: not).
   */
  fill(id: string, items: readonly { Id: string; Parameters: Record<string, unknown> }[] | readonly { value: string; label: string }[], label?: (e: EntityJson) => string, auto = true): void {
    const focused = PICKERS.indexOf(document.activeElement?.id ?? '');
    this.clearBelow(id);
    this.loaded.delete(id);
    const select = el<HTMLSelectElement>(id);
    const options = [new Option(items.length ? 'choose…' : 'none', '')];
    for (const item of items) {
      if ('value' in item) options.push(new Option(item.label, item.value));
      else options.push(new Option(label ? label(item as EntityJson) : entityName(item), item.Id));
    }
    select.replaceChildren(...options);
    select.disabled = items.length === 0;
    // A picker disabled with the focus on it (a slower fill from above) gives it to the nearest one above it that
    // can take it: it fell to the page's body.
    if (focused >= 0 && el<HTMLSelectElement>(PICKERS[focused] as string).disabled) {
      const above = PICKERS.slice(0, focused)
        .reverse()
        .find((p) => !el<HTMLSelectElement>(p).disabled);
      focusOn(above ? el(above) : null);
    }
    // Not a dataset: opening one reads it, which stays the user's choice.
    if (auto && items.length === 1 && id !== 'pick-dataset') {
      select.selectedIndex = 1;
      select.dispatchEvent(new Event('change'));
    }
  }

  /**
   * Whether `value` is still the choice of picker `id` once its answer came: a load answered after the picker above was
   * changed (to another choice, or to *choose…*) fills nothing, nor picks a single choice under a choice no longer made.
   */
  private stillChosen(id: string, value: string): boolean {
    return el<HTMLSelectElement>(id).value === value;
  }

  async loadEvents(championshipId: string): Promise<void> {
    const events = await this.page.requireApi().events(championshipId);
    if (this.stillChosen('pick-championship', championshipId)) this.fill('pick-event', events, entityName);
  }
  async loadSessions(eventId: string): Promise<void> {
    const sessions = await this.page.requireApi().sessions(eventId);
    if (this.stillChosen('pick-event', eventId)) this.fill('pick-session', sessions, entityName);
  }
  async loadCars(): Promise<void> {
    const api = this.page.requireApi();
    const [eventId, sessionId] = [el<HTMLSelectElement>('pick-event').value, el<HTMLSelectElement>('pick-session').value];
    const [entries, cars] = await Promise.all([api.eventCars(eventId), api.cars()]);
    if (this.stillChosen('pick-event', eventId) && this.stillChosen('pick-session', sessionId)) this.fill('pick-car', enteredCars(entries, cars));
  }
  private runs: EntityJson[] = [];
  private carData: EntityJson[] = [];
  async loadRuns(carId: string): Promise<void> {
    const api = this.page.requireApi();
    const sessionId = el<HTMLSelectElement>('pick-session').value;
    const [runs, carData] = await Promise.all([api.runSheets(sessionId, carId), api.sessionCarData(sessionId, carId)]);
    if (!this.stillChosen('pick-session', sessionId) || !this.stillChosen('pick-car', carId)) return;
    [this.runs, this.carData] = [runs, carData];
    this.fill('pick-run', this.runs, entityName);
  }
  /** Empties and disables the pickers below `id` (a picker with nothing to choose is disabled: an empty one was a Tab stop 22 px wide with no option), forgetting what they loaded. */
  private clearBelow(id: string): void {
    for (const below of PICKERS.slice(PICKERS.indexOf(id) + 1)) {
      el<HTMLSelectElement>(below).replaceChildren();
      el<HTMLSelectElement>(below).disabled = true;
      this.loaded.delete(below);
    }
    if (id !== 'pick-dataset') {
      el('uploading').textContent = '';
      el<HTMLButtonElement>('refresh-datasets').disabled = true;
    }
  }

  datasets: DatasetRef[] = [];
  /**
   * Lists the run sheet's (and the car's) datasets, and says how many files are still uploading. `refresh`: the list
   * read again (the Refresh button), the dataset open kept open and picked when it is still listed, its catalogue read
   * again and what changed in it said.
   */
  async loadDatasets(refresh = false): Promise<void> {
    const api = this.page.requireApi();
    const run = this.runs.find((r) => r.Id === el<HTMLSelectElement>('pick-run').value);
    if (!run) return;
    const [runFiles, ...carFiles] = await Promise.all([api.attachments('RunSheets', run.Id), ...this.carData.map((d) => api.attachments('SessionCarDatas', d.Id))]);
    if (el<HTMLSelectElement>('pick-run').value !== run.Id) return;
    this.datasets = [...datasetsOf('RunSheets', run, runFiles), ...this.carData.flatMap((d, i) => datasetsOf('SessionCarDatas', d, carFiles[i] ?? []))];
    const open = this.page.dataset;
    this.fill('pick-dataset', this.datasets.map((d, i) => ({ value: String(i), label: d.label })));
    // Refresh: the dataset open kept open with its catalogue read again (math channels created or deleted elsewhere
    // since it was opened, a car's constant changed), and the account's math channels and saved layouts listed again.
    const readOpen = async (): Promise<string> => {
      if (!refresh || !open) return '';
      const kept = this.datasets.findIndex((d) => d.entityType === open.entityType && d.entityId === open.entityId && d.group === open.group);
      if (kept < 0) {
        this.page.opening++;
        this.datasetPanel.close();
        return '';
      }
      el<HTMLSelectElement>('pick-dataset').value = String(kept);
      this.loaded.set('pick-dataset', String(kept));
      const read = await this.datasetPanel.readCatalogue(true);
      return read ? `; ${catalogueChangesText(read.changes, read.unticked)}` : '';
    };
    const uploading = uploadingCount([runFiles, ...carFiles].flat());
    el('uploading').textContent = uploadingText(uploading);
    el<HTMLButtonElement>('refresh-datasets').disabled = false;
    const [catalogue] = await Promise.all([readOpen(), refresh ? this.refreshed() : undefined]);
    // Another run sheet picked meanwhile: its own load says what it lists.
    if (el<HTMLSelectElement>('pick-run').value !== run.Id) return;
    if (this.datasets.length === 0) this.page.status(`This run sheet has no dataset available on the server (attached files in state 2)${uploading ? `; ${uploadingText(uploading)}` : '.'}`);
    else if (refresh) this.page.status(`${this.datasets.length} dataset(s) listed${catalogue}.`);
  }

  /** Waits until the loads the pickers started (one picked for the user, and the ones that picks in turn) are done. */
  async pickersSettled(): Promise<void> {
    while (this.pickLoads.size) await Promise.all([...this.pickLoads]);
  }
  private readonly pickLoads = new Set<Promise<void>>();

  /** Opens the dataset listed at `index` in the dataset picker. */
  openDataset(index: string): Promise<void> {
    return this.datasetPanel.open(this.datasets[Number(index)]);
  }
}
