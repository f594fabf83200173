import type { EntityJson } from '@pitwall/contracts';
import { el, focusAfter, focusOn, named, titled } from './dom';
import { ApiError, failureReason } from './errors';
import { decodeLayout, encodeLayout, LINK_MAX_CHANNELS, LINK_MAX_LENGTH, sayNames, sayProblems, type ViewerLayout } from './link';
import type { Page } from './page';
import type { PageLink } from './page-link';
import type { TimePlots } from './time-plots';

/**
 * The account's saved layouts (ViewerLayouts, docs/viewer.md): the view on screen (the ticked channels in order, the
 * panes, the time axis, the y scales) saved once under a name and applied to any dataset, as MoTeC i2's workbooks and
 * ATLAS's displays are. The layout's text is the view part of the page's link (link.ts), read with the same checks.
 */
export class LayoutsPanel {
  /** The account's layouts as last listed. */
  private layouts: EntityJson[] = [];
  /** A reader may apply layouts, not write them (the service would refuse with a 403 all the same). */
  private reader = false;

  constructor(
    private readonly page: Page,
    private readonly link: PageLink,
    private readonly plots: TimePlots,
    /** The names of the account's math channels (the math form's list). */
    private readonly mathNames: () => readonly string[] = () => [],
  ) {}

  start(): void {
    el('layout-pick').addEventListener('change', () => this.renderButtons());
    el('layout-apply').addEventListener('click', () => void this.page.run(() => this.apply()));
    el('layout-save-as').addEventListener('click', () => this.openNameForm());
    el('layout-update').addEventListener('click', () => void this.page.run(() => this.update()));
    el('layout-delete').addEventListener('click', () => void this.page.run(() => this.remove()));
    el<HTMLFormElement>('layout-form').addEventListener('submit', (e) => {
      e.preventDefault();
      void this.page.run(() => this.saveAs());
    });
    el('layout-cancel').addEventListener('click', () => this.closeNameForm());
    el('layout-form').addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      this.closeNameForm();
    });
  }

  /** Signed in: what the key's role lets the page offer, and the account's layouts listed. */
  async signedIn(role: string): Promise<void> {
    this.reader = role.toLowerCase() === 'reader';
    el('layout-role').hidden = !this.reader;
    if (this.reader) this.closeNameForm();
    await this.list();
  }

  /** Refresh: the account's layouts listed again (one saved, updated or deleted elsewhere since), the one picked kept picked while listed. */
  async listAgain(): Promise<void> {
    await this.list();
  }

  /**
   * Signed out by the service (a key refused): nothing of the account's layouts left in the picker, nor its role's
   * note, so the next sign-in (another key, another account) starts from none.
   */
  forget(): void {
    this.layouts = [];
    this.reader = false;
    el('layout-role').hidden = true;
    el('layout-form').hidden = true;
    el<HTMLSelectElement>('layout-pick').replaceChildren(new Option('none saved yet', ''));
    this.renderButtons();
  }

  /** Lists the account's layouts in the picker, `chosen` (an id) picked, else the one picked before if it is still listed. */
  private async list(chosen = this.chosenId()): Promise<void> {
    const api = this.page.requireApi();
    const layouts = await api.viewerLayouts();
    // Signed out or in again meanwhile (a key refused, another account): the answer is the old key's, dropped.
    if (this.page.api !== api) return;
    this.layouts = layouts;
    const byName = [...this.layouts].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
    const picker = el<HTMLSelectElement>('layout-pick');
    picker.replaceChildren(
      new Option(this.layouts.length ? 'choose…' : 'none saved yet', ''),
      ...byName.map((e) => {
        const option = titled(new Option(nameOf(e), e.Id));
        const description = textOf(e, 'Description');
        if (description) option.title = `${nameOf(e)}: ${description}`;
        return option;
      }),
    );
    picker.value = this.layouts.some((e) => e.Id === chosen) ? chosen : '';
    this.renderButtons();
  }

  /** The id of the layout picked, or ''. */
  private chosenId(): string {
    return el<HTMLSelectElement>('layout-pick').value;
  }

  private chosen(): EntityJson | undefined {
    return this.layouts.find((e) => e.Id === this.chosenId());
  }

  /** Apply with a layout picked; Save as, Update and Delete for editors (Update and Delete with a layout picked), each named for it. */
  private renderButtons(): void {
    const chosen = this.chosen();
    const name = chosen ? nameOf(chosen) : '';
    const set = (id: string, verb: string, enabled: boolean) => {
      const b = el<HTMLButtonElement>(id);
      b.disabled = !enabled;
      named(b, name ? `${verb} layout ${name}` : `${verb} layout`);
    };
    set('layout-apply', 'Apply', chosen !== undefined);
    set('layout-update', 'Update', chosen !== undefined && !this.reader);
    set('layout-delete', 'Delete', chosen !== undefined && !this.reader);
    el<HTMLButtonElement>('layout-save-as').disabled = this.reader;
    for (const id of ['layout-name', 'layout-description', 'layout-save']) el<HTMLInputElement>(id).disabled = this.reader;
  }

  /**
   * Applies the layout picked, as it is now (read again: a colleague may have updated it): its channels that the open
   * dataset has ticked, in its panes, time axis and y scales, and plotted over the scope plotted (as Plot does: the
   * whole file when none was). The channels the dataset lacks, and the parts of it the page does not know, are said
   * in the status line.
   */
  private async apply(): Promise<void> {
    const id = this.chosenId();
    if (!id || !this.page.metadata) return;
    // The dataset Apply was pressed on: another opened while the layout is read is not the one to tick it on.
    const opening = this.page.opening;
    let entity: EntityJson;
    try {
      entity = await this.page.requireApi().viewerLayout(id);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      throw await this.gone(err, 'applied');
    }
    const name = nameOf(entity);
    if (this.page.opening !== opening || !this.page.metadata) {
      return this.page.status(`Layout ${name} was not applied: another dataset was opened (or the one open closed) while it was read; apply it again.`);
    }
    const { layout, problems } = decodeLayout(textOf(entity, 'Layout'));
    // One the page cannot read at all (a newer page's version): the view on screen left as it is.
    if (!layout) return this.page.status(`Layout ${name} was not applied: ${sayProblems(problems)}.`);
    const said = [...problems];
    const { missing } = this.link.setView(layout);
    // A math channel of the account that the catalogue does not list is not one the dataset lacks: it cannot be computed here.
    const math = new Set(this.mathNames());
    const lacked = missing.filter((n) => !math.has(n));
    const uncomputed = missing.filter((n) => math.has(n));
    if (lacked.length) said.push(`this dataset lacks ${sayNames(lacked)}`);
    if (uncomputed.length) {
      said.push(`${sayNames(uncomputed)} (${uncomputed.length === 1 ? 'a math channel' : 'math channels'}) cannot be computed on this dataset: ${uncomputed.length === 1 ? 'its' : 'their'} inputs or constants are missing`);
    }
    if (this.page.ticked().length) {
      await this.plots.plotScope(this.plots.scope);
      for (const pane of this.link.unplottedScales(layout)) said.push(`the y scale of "${pane.slice(0, 80)}" is not of a pane plotted`);
      // The picker says lap time, but a whole file or a window is on the file's clock: said, not left to be wondered at.
      if (layout.lapTimeAxis && this.plots.scope.kind !== 'lap') said.push(`its lap time axis applies when a lap is plotted: the ${this.plots.scope.kind === 'window' ? 'window' : 'whole file'} is plotted on file time`);
    } else if (layout.channels?.length) said.push('none of its channels is in it, so nothing is plotted');
    const ticked = this.page.ticked().length;
    this.page.status(`Layout ${name} applied: ${ticked} channel${ticked === 1 ? '' : 's'} ticked${said.length ? `; ${sayProblems(said)}` : ''}.`);
  }

  /** Save as…: the name asked for in the page, its first field focused. */
  private openNameForm(): void {
    if (this.reader) return;
    el('layout-form').hidden = false;
    el<HTMLInputElement>('layout-name').value = '';
    el<HTMLInputElement>('layout-description').value = '';
    focusOn(el('layout-name'));
  }

  /** The name form left (Cancel, Escape): hidden, the focus back on Save as… when it was in the form. */
  private closeNameForm(): void {
    const form = el('layout-form');
    const inForm = form.contains(document.activeElement);
    form.hidden = true;
    if (inForm) focusOn(el('layout-save-as'));
  }

  /** Saves the view on screen as a new layout of the account under the name typed; picked once listed again. */
  private async saveAs(): Promise<void> {
    const name = el<HTMLInputElement>('layout-name').value.trim();
    const description = el<HTMLInputElement>('layout-description').value.trim();
    this.page.status('');
    if (!name) throw new Error('The layout was not saved: give it a name.');
    const view = this.viewToSave('saved');
    const origin = document.activeElement;
    const text = encodeLayout(view);
    let created: EntityJson;
    try {
      created = await this.page.requireApi().createViewerLayout({ name, layout: text, description });
    } catch (err) {
      throw refusal(err, 'saved');
    }
    el('layout-form').hidden = true;
    await this.list(created.Id);
    // The form (and its Save, which had the focus) hidden: the focus on the picker, now showing the new layout.
    focusAfter(origin, el('layout-pick'));
    this.page.status(`Layout ${name} saved for the account: ${describeStored(view, text)}.`);
  }

  /**
   * Overwrites the layout picked with the view on screen (its name and description kept). The layout as stored now is
   * read first: its channels that the open dataset's catalogue does not list (another car's sensors, a math channel
   * not computed here) are kept in their place in its order, and its y scales of panes not on screen, as MoTeC i2
   * keeps a worksheet's channels that the data lacks; a channel this dataset has but is unticked now is removed.
   */
  private async update(): Promise<void> {
    const chosen = this.chosen();
    if (!chosen) return;
    const onScreen = this.viewToSave('updated');
    const api = this.page.requireApi();
    let stored: ViewerLayout = {};
    try {
      stored = decodeLayout(textOf(await api.viewerLayout(chosen.Id), 'Layout')).layout ?? {};
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) throw await this.gone(err, 'updated');
      throw err;
    }
    const catalogue = new Set((this.page.metadata?.channels ?? []).map((c) => c.name));
    const units = new Set((this.page.metadata?.channels ?? []).map((c) => c.unit));
    const { view, keptChannels, keptScales } = mergeKept(stored, onScreen, catalogue, this.plots.plotted.length ? this.plots.paneIds() : [], units);
    const text = encodeLayout(view);
    try {
      await api.updateViewerLayout(chosen.Id, text);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) throw await this.gone(err, 'updated');
      throw refusal(err, 'updated');
    }
    await this.list(chosen.Id);
    const kept = [
      ...(keptChannels.length ? [`kept ${keptChannels.length} channel${keptChannels.length === 1 ? '' : 's'} this dataset lacks: ${sayNames(keptChannels)}`] : []),
      ...(keptScales.length ? [`kept ${keptScales.length} y scale${keptScales.length === 1 ? '' : 's'} of panes not on screen: ${sayNames(keptScales)}`] : []),
    ];
    this.page.status(`Layout ${nameOf(chosen)} updated: ${describeStored(view, text)}${kept.length ? `; ${kept.join('; ')}` : ''}.`);
  }

  /** Deletes the layout picked for the whole account, once the user confirms. */
  private async remove(): Promise<void> {
    const chosen = this.chosen();
    if (!chosen) return;
    const name = nameOf(chosen);
    if (!window.confirm(`Delete the layout ${name} for the whole account? No one will be able to apply it again.`)) return;
    const origin = document.activeElement;
    try {
      await this.page.requireApi().deleteViewerLayout(chosen.Id);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw refusal(err, 'deleted');
      // Deleted by someone else since it was listed: what was asked is done; the list read again without it.
      await this.list('');
      focusAfter(origin, el('layout-pick'));
      return this.page.status(`Layout ${name} was already deleted from the account (since the list was read); the list is read again.`);
    }
    await this.list('');
    // Delete is disabled now that no layout is picked: the focus goes to the picker.
    focusAfter(origin, el('layout-pick'));
    this.page.status(`Layout ${name} deleted.`);
  }

  /**
   * A layout deleted by someone else since the list was read (a 404 of Apply or Update): listed again without it, and
   * said so, not as a generic "not found".
   */
  private async gone(err: ApiError, what: 'applied' | 'updated'): Promise<ApiError> {
    await this.list('');
    return new ApiError(err.info, `The layout was not ${what} (404): it is no longer saved in this account (deleted since the list was read); the list is read again.`);
  }

  /** The view on screen to save; a view with no channel ticked is not one (said, nothing sent). */
  private viewToSave(what: 'saved' | 'updated'): ViewerLayout {
    const view = this.link.currentView();
    if (!view.channels?.length) throw new Error(`The layout was not ${what}: tick the channels it is to hold first.`);
    return view;
  }
}

/**
 * The view on screen to store over a layout, with what of the stored layout the open dataset could not show kept: its
 * channels the dataset's `catalogue` does not list, each after the channel it followed in the stored order (the
 * nearest one still in the view; first when none is), and its y scales of panes not in `panes` (those on screen) that
 * the view does not set and that the user did not remove: a channel's pane is removed when the catalogue has the
 * channel and it is unticked, a unit's pane (`unit:bar`) when panes are by unit and the catalogue has a channel of
 * that unit (`units`) yet the pane is not on screen (its channels all unticked).
 */
export function mergeKept(stored: ViewerLayout, onScreen: ViewerLayout, catalogue: ReadonlySet<string>, panes: readonly string[], units: ReadonlySet<string> = new Set()): { view: ViewerLayout; keptChannels: string[]; keptScales: string[] } {
  const channels = [...(onScreen.channels ?? [])];
  const keptChannels: string[] = [];
  const order = stored.channels ?? [];
  for (const [i, name] of order.entries()) {
    if (catalogue.has(name) || channels.includes(name)) continue;
    const before = order.slice(0, i).reverse().find((c) => channels.includes(c));
    channels.splice(before === undefined ? 0 : channels.indexOf(before) + 1, 0, name);
    keptChannels.push(name);
  }
  const scales = [...(onScreen.yScales ?? [])];
  const keptScales: string[] = [];
  for (const y of stored.yScales ?? []) {
    // On screen (set or auto-scaled now), set by the view, or of a channel this dataset has but is unticked: not kept.
    // A unit's pane could be on screen when panes are by unit now and the dataset has a channel of that unit.
    const removed = y.pane.startsWith('unit:') ? onScreen.panesByUnit === true && units.has(y.pane.slice('unit:'.length)) : catalogue.has(y.pane) && !channels.includes(y.pane);
    if (panes.includes(y.pane) || scales.some((s) => s.pane === y.pane) || removed) continue;
    scales.push(y);
    keptScales.push(y.pane);
  }
  const view: ViewerLayout = { ...onScreen };
  if (channels.length) view.channels = channels;
  if (scales.length) view.yScales = scales;
  return { view, keptChannels, keptScales };
}

/** A layout's parameter as text, '' when it has none. */
function textOf(e: EntityJson, parameter: string): string {
  const v = e.Parameters[parameter];
  return v === null || v === undefined ? '' : String(v);
}

const nameOf = (e: EntityJson): string => textOf(e, 'Name');

/** What a layout holds, in a few words for the status line. */
function describe(view: ViewerLayout): string {
  const channels = view.channels?.length ?? 0;
  const scales = view.yScales?.length ?? 0;
  return [
    `${channels} channel${channels === 1 ? '' : 's'}`,
    ...(view.panesByUnit ? ['one pane per unit'] : []),
    ...(view.lapTimeAxis ? ['lap time axis'] : []),
    ...(scales ? [`${scales} y scale${scales === 1 ? '' : 's'} set by hand`] : []),
  ].join(', ');
}

/**
 * What a layout saved from `view` holds (its `text` read back, as Apply will read it), and what of the view it could
 * not: encodeLayout leaves out the last y scales, then the last channels, past 64 channels or a link's length.
 */
function describeStored(view: ViewerLayout, text: string): string {
  const stored = decodeLayout(text).layout ?? {};
  const channels = (view.channels ?? []).filter((c) => !stored.channels?.includes(c));
  const scales = (view.yScales ?? []).filter((y) => !stored.yScales?.some((s) => s.pane === y.pane));
  const left = [
    ...(channels.length ? [`${channels.length} channel${channels.length === 1 ? '' : 's'} (${sayNames(channels)})`] : []),
    ...(scales.length ? [`${scales.length} y scale${scales.length === 1 ? '' : 's'} (${sayNames(scales.map((y) => y.pane))})`] : []),
  ];
  const said = describe(stored);
  return left.length ? `${said}; left out, past what a layout holds (${LINK_MAX_CHANNELS} channels, ${LINK_MAX_LENGTH.toLocaleString('en')} characters): ${left.join(' and ')}` : said;
}

/**
 * A write of a layout the service refused, said as the layout's: the service's reason whole (a name taken, a Layout
 * refused), and a 403 in words (the page's generic sentences name math channels or say nothing of the role).
 */
function refusal(err: unknown, what: 'saved' | 'updated' | 'deleted'): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.status === 403) return new ApiError(err.info, `The layout was not ${what} (403): your role in this account may not change its layouts; they are saved by its editors and admins.`);
  if (err.status === 400 || err.status === 409) {
    const why = failureReason(err.info);
    return new ApiError(err.info, `The layout was not ${what} (${err.status}${why ? `: ${why}` : ''}).`);
  }
  return err;
}
