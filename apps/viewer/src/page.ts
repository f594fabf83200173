import type { DataFileMetadataJson } from '@pitwall/contracts';
import type { ViewerApi, DatasetRef } from './api';
import type { LapRow } from './catalogue';
import { clearCredentials } from './credentials';
import { el } from './dom';
import { ApiError } from './errors';

/** The longest status line shown (and said). */
export const STATUS_MAX_CHARS = 1_000;

/** What the page does after an action: the link written when it succeeded, the account forgotten when the key was refused. */
export interface PageHooks {
  succeeded(): void;
  keyRefused(): void;
}

/**
 * What every panel of the page shares: the signed-in API, the open dataset and the channels ticked in its catalogue;
 * and how a user's action runs, its failure shown as a plain message and the status line.
 */
export class Page {
  api: ViewerApi | null = null;
  dataset: DatasetRef | null = null;
  metadata: DataFileMetadataJson | null = null;
  laps: LapRow[] = [];
  readonly selected = new Set<string>();
  /** Counts the datasets asked to open: an answer that comes after another dataset was asked for is dropped. */
  opening = 0;
  /** performance.now() of the action whose plot is being drawn (the lap click), for the drawn-in time. */
  actionAt = 0;

  constructor(private readonly hooks: PageHooks) {}

  /** The open dataset's ticked channels, in the order they were ticked (the panes' order, top to bottom). */
  ticked(): DataFileMetadataJson['channels'] {
    const channels = this.metadata?.channels ?? [];
    return [...this.selected].flatMap((name) => channels.filter((c) => c.name === name));
  }

  requireApi(): ViewerApi {
    if (!this.api) throw new Error('Connect with an API key first.');
    return this.api;
  }

  /** Runs an action, showing its failure as a plain message (API errors per status, docs/api.md). */
  async run(action: () => Promise<void>): Promise<void> {
    const error = el('error');
    try {
      await action();
      error.hidden = true;
      error.textContent = '';
      this.hooks.succeeded();
    } catch (err) {
      const message = err instanceof ApiError || err instanceof Error ? err.message : String(err);
      // An alert a screen reader says whole: cut as the status line is (64 refused channels' reasons ran to thousands
      // of characters); the whole message on hover.
      error.textContent = message.length > STATUS_MAX_CHARS ? `${message.slice(0, STATUS_MAX_CHARS - 1)}…` : message;
      error.dataset['status'] = err instanceof ApiError ? String(err.status) : '';
      // The service's own words in full (a sentence of the page may summarise them), on hover.
      error.title = err instanceof ApiError ? (err.info.problem?.detail ?? err.info.reason ?? '') : message.length > STATUS_MAX_CHARS ? message : '';
      error.hidden = false;
      this.status('');
      // A key refused (revoked, or stored and refused at a reload): forgotten, so no reload sends it again.
      if (err instanceof ApiError && err.status === 401) {
        clearCredentials(sessionStorage);
        if (this.api) {
          this.hooks.keyRefused();
          error.textContent += ' Sign in again.';
        }
      }
    }
  }

  /**
   * The status line: said by a screen reader (a polite live region), so a few lines at most: past STATUS_MAX_CHARS it
   * is cut (its sentences name their parts briefly: sayProblems).
   */
  status(text: string): void {
    el('status').textContent = text.length > STATUS_MAX_CHARS ? `${text.slice(0, STATUS_MAX_CHARS - 1)}…` : text;
  }

  /**
   * An interim status (a read under way: "Reading 2 channel(s)…"): shown in the status line but not said, so a zoom
   * or a pan is said once, by the status that follows it.
   */
  progress(text: string): void {
    const shown = document.createElement('span');
    shown.setAttribute('aria-hidden', 'true');
    shown.textContent = text;
    el('status').replaceChildren(shown);
  }

  /** A plot drawn in `container`: counted, and the time from the action that asked for it (the benchmark reads both). */
  drawn(container: HTMLElement): void {
    container.dataset['drawn'] = String(Number(container.dataset['drawn'] ?? 0) + 1);
    if (this.actionAt) container.dataset['drawMs'] = (performance.now() - this.actionAt).toFixed(1);
    this.actionAt = 0;
  }
}

/** What stays at the top of the window (the messages and the values line): the track map beside the plots sticks under it. */
export function stickUnderMessages(): void {
  const messages = document.querySelector<HTMLElement>('.messages');
  if (messages) new ResizeObserver(() => document.documentElement.style.setProperty('--sticky-top', `${messages.offsetHeight + 8}px`)).observe(messages);
}
