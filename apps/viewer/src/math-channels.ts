import type { DataFileMetadataJson, EntityJson } from '@pitwall/contracts';
import type { DatasetRef } from './api';
import type { DatasetPanel } from './dataset-panel';
import { button, el, focusAfter, focusOn, named } from './dom';
import { ApiError } from './errors';
import type { Page } from './page';

/** The account's math channels: defined, edited and deleted from the form, and listed under it. */
export class MathChannels {
  constructor(
    private readonly page: Page,
    private readonly datasetPanel: DatasetPanel,
  ) {}

  start(): void {
    el('math-cancel').addEventListener('click', () => {
      // Cancel hides itself: the focus goes back to the Edit button that opened the form (else to its first field).
      const opener = this.editingMath ? this.editButtonOf(this.editingMath.name) : null;
      this.stopEditingMath();
      focusOn(opener ?? el('math-name'));
    });
    el<HTMLFormElement>('math-form').addEventListener('submit', (e) => {
      e.preventDefault();
      void this.page.run(() => this.defineMathChannel());
    });
  }

  /**
   * What the key's role lets the page offer: a reader may read, not write, so the math channel form is disabled and
   * says why (the service would refuse the save with a 403 all the same).
   */
  applyRole(role: string): void {
    const reader = role.toLowerCase() === 'reader';
    for (const control of el('math-form').querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button')) control.disabled = reader;
    el('math-role').hidden = !reader;
  }

  /** Saves the form's math channel for the account, lists the catalogue again and ticks it, ready to plot. */
  private async defineMathChannel(): Promise<void> {
    const value = (id: string) => el<HTMLInputElement>(id).value.trim();
    const definition = { name: value('math-name'), expression: value('math-expression'), unit: value('math-unit'), rate: value('math-rate'), decimalPlaces: value('math-decimals') };
    // The status of the save before is no longer the news.
    this.page.status('');
    const decimals = definition.decimalPlaces;
    if (decimals !== '' && !/^[0-6]$/.test(decimals)) throw new Error(`The math channel was not saved: decimal places "${decimals}" must be a whole number from 0 to 6 (empty: full precision).`);
    const editing = this.editingMath;
    if (editing) {
      await this.page.requireApi().updateMathChannel(editing.id, definition);
      // A renamed channel stays ticked under its new name.
      if (editing.name !== definition.name && this.page.selected.delete(editing.name)) this.page.selected.add(definition.name);
      this.stopEditingMath();
    } else await this.page.requireApi().createMathChannel(definition);
    await this.listMathChannels();
    const dataset = this.page.dataset;
    let unlisted = '';
    if (dataset && (await this.datasetPanel.readCatalogue())) {
      const listed = this.page.metadata?.channels.find((c) => c.name === definition.name);
      if (listed?.expression !== undefined) {
        this.page.selected.add(definition.name);
        this.datasetPanel.renderCatalogue();
      } else unlisted = await this.whyNotEvaluated(dataset, definition.name, listed !== undefined);
    }
    this.page.status(unlisted ? `Math channel ${definition.name} saved, but this file cannot evaluate it${unlisted}.` : `Math channel ${definition.name} saved.`);
  }

  /** The math channel the form edits (Edit in the list), or null: the form creates one. */
  private editingMath: { id: string; name: string } | null = null;

  /** The names of the account's math channels, as last listed under the form. */
  names: readonly string[] = [];

  /**
   * The credentials changed (a sign-in, whether it succeeds or not; a key refused): nothing of the account signed in
   * before is kept, neither the names Apply tells math channels by nor the list under the form, so another key or
   * account never sees them, even when its own list fails to be read.
   */
  forget(): void {
    this.names = [];
    this.stopEditingMath();
    el('math-list').replaceChildren();
    el('math-count').textContent = '0';
  }

  /** Lists the account's math channels under the form, each with Edit and Delete (disabled for a reader). */
  async listMathChannels(): Promise<void> {
    const api = this.page.requireApi();
    const definitions = await api.mathChannels();
    // Signed out or in again meanwhile (a key refused, another account): the answer is the old key's, dropped.
    if (this.page.api !== api) return;
    this.names = definitions.map((e) => parameterText(e, 'Name'));
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
        // Named for their channel (every Edit and Delete read alike).
        const editButton = named(button('Edit', `math-edit-${name}`, () => this.editMathChannel(e)), `Edit ${name}`);
        const deleteButton = named(button('Delete', `math-delete-${name}`, () => void this.page.run(() => this.deleteMathChannel(e))), `Delete ${name}`);
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

  /** The Edit button of the math channel `name` in the list. */
  private editButtonOf(name: string): HTMLElement | null {
    return [...el('math-list').querySelectorAll<HTMLElement>('button')].find((b) => b.dataset['testid'] === `math-edit-${name}`) ?? null;
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
    const origin = document.activeElement;
    await this.page.requireApi().deleteMathChannel(e.Id);
    if (this.editingMath?.id === e.Id) this.stopEditingMath();
    this.page.selected.delete(name);
    const at = [...el('math-list').children].findIndex((item) => (item as HTMLElement).dataset['testid'] === `math-item-${name}`);
    await this.listMathChannels();
    // The focus (on the Delete button, gone with its item) goes to the Delete button now at its place (the next
    // channel's, else the last's), or to the list's summary once it is empty; left where the user has put it meanwhile.
    const buttons = el('math-list').querySelectorAll<HTMLElement>('button[data-testid^=math-delete-]');
    focusAfter(origin, buttons[Math.min(Math.max(at, 0), buttons.length - 1)] ?? el('math-defined').querySelector('summary'));
    await this.datasetPanel.readCatalogue();
    this.page.status(`Math channel ${name} deleted.`);
  }

  /**
   * Why the open file's catalogue does not list a math channel just saved (docs/math-channels.md): a logged channel
   * of its name wins; otherwise one read of it (a millisecond of the file) is the service's 422 naming the reason.
   * ': <reason>', or '' when none is told.
   */
  private async whyNotEvaluated(dataset: DatasetRef, name: string, logged: boolean): Promise<string> {
    if (logged) return `: a channel of the file is named ${name}, and a logged channel wins over a math channel of the same name`;
    const m = this.page.metadata as DataFileMetadataJson;
    try {
      await this.page.requireApi().channels(dataset, { channels: [name], mode: 2, startTime: m.startTime, duration: 0.001 }, 4);
      return '';
    } catch (err) {
      const detail = err instanceof ApiError && err.status === 422 ? (err.info.problem?.detail ?? '') : '';
      // The detail starts with the dataset's ids ("The data file could not be read: RunSheets <id> ..."): the reason is its math channel part.
      const reason = /math channel .*$/.exec(detail)?.[0] ?? '';
      return reason ? `: ${reason.replace(/\.$/, '')}` : '';
    }
  }
}

/** An entity's parameter as the math form shows it: its text, '' when it has none. */
function parameterText(e: EntityJson, name: string): string {
  const v = e.Parameters[name];
  return v === null || v === undefined ? '' : String(v);
}
