/** The page's element of id `id` (index.html holds every id the panels name). */
export const el = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export function cell(content: string | Node, tag: 'td' | 'th' = 'td'): HTMLTableCellElement {
  const c = document.createElement(tag);
  c.append(content);
  return c;
}

export function row(values: string[], tag: 'td' | 'th' = 'td'): HTMLTableRowElement {
  const tr = document.createElement('tr');
  for (const v of values) tr.appendChild(cell(v, tag));
  return tr;
}

export function button(text: string, testid: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.dataset['testid'] = testid;
  b.addEventListener('click', onClick);
  return b;
}

/** `element` with the accessible name `name` (its visible text is the start of it). */
export function named<T extends HTMLElement>(element: T, name: string): T {
  element.setAttribute('aria-label', name);
  return element;
}

/** Text a screen reader reads and the page does not show (a header of a column of buttons). */
export function hiddenText(text: string): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = 'visually-hidden';
  span.textContent = text;
  return span;
}

/** An option whose text a narrow picker may cut (a long channel name): its whole text is its tooltip. */
export function titled(option: HTMLOptionElement): HTMLOptionElement {
  option.title = option.text;
  return option;
}

/** Keys that change a closed picker's choice at once in Chromium (each fires `change`): arrows, Home, End, pages, typed letters. */
function choosesAtOnce(e: KeyboardEvent): boolean {
  return /^(Arrow(Up|Down|Left|Right)|Home|End|Page(Up|Down))$/.test(e.key) || (e.key.length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey);
}

/**
 * Runs `commit` with a picker's new choice once the user has made it: a choice of the mouse (or of the opened list, or
 * set by the page) at once; one stepped to by the keyboard on the closed picker (Chromium fires `change` for each arrow)
 * when it is committed: by Enter, by moving the focus to another element of the page (not by switching to another
 * window or tab, which leaves it waiting), or by a press of the mouse on the picker (picking the choice shown from
 * the list fires no `change`). Escape puts back the choice it had. A choice committed that is the one the picker had
 * before the keys does nothing.
 */
export function onCommittedChange(select: HTMLSelectElement, commit: (value: string) => void): void {
  // The choice before the keys, while a keyboard choice waits for its commit (null: none waits).
  let before: string | null = null;
  let keying = false;
  const commitWaiting = () => {
    const was = before;
    before = null;
    if (was !== null && select.value !== was) commit(select.value);
  };
  select.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === 'Escape') {
      if (before === null) return;
      // Enter commits the choice (and does not open the list); Escape goes back to the one before.
      e.preventDefault();
      e.stopPropagation();
      if (e.key === 'Escape') {
        select.value = before;
        before = null;
      } else commitWaiting();
      return;
    }
    if (!choosesAtOnce(e)) return;
    before ??= select.value;
    keying = true;
    // The `change` of the key comes in its default action, in this task.
    window.setTimeout(() => (keying = false), 0);
  });
  select.addEventListener('change', (e) => {
    if (e.isTrusted && keying && before !== null) return;
    before = null;
    commit(select.value);
  });
  // The mouse on the picker: the keyboard's choice is taken first (the list opened may be closed on it).
  select.addEventListener('mousedown', commitWaiting);
  select.addEventListener('blur', () => {
    if (before === null) return;
    // Once the focus has landed: a blur of a switch to another window or tab leaves the page without the focus (the
    // picker is still the active element), and the choice keeps waiting.
    window.setTimeout(() => {
      if (document.hasFocus()) {
        if (document.activeElement !== select) commitWaiting();
        return;
      }
      // Once the page has the focus again (the user back by a click elsewhere gives the picker no second blur), the
      // choice is committed unless the picker has the focus back. Not tested: headless Chromium switches no windows.
      window.addEventListener('focus', () => window.setTimeout(() => document.activeElement !== select && commitWaiting(), 0), { once: true });
    }, 0);
  });
}

/** Moves the focus to `target` without scrolling (the page has put it where it should be seen). */
export function focusOn(target: HTMLElement | null | undefined): void {
  target?.focus({ preventScroll: true });
}

/**
 * Moves the focus to `target` once an action that waited (a read) is done, unless the user has moved it meanwhile:
 * only when it is still on `origin` (the control that started the action, `document.activeElement` then), on the
 * page's body, or on a control since removed.
 */
export function focusAfter(origin: Element | null, target: HTMLElement | null | undefined): void {
  const active = document.activeElement;
  if (!active || active === document.body || active === document.documentElement || active === origin || !active.isConnected) focusOn(target);
}

/**
 * The skip links (`data-skip-to`: ids, the first that can take the focus wins: a drawn plot area, else its section's
 * heading) move the focus there, scrolled into view under the messages. The address is left as it is: its fragment is
 * the page's link (page-link.ts), which `#plots-heading` is not.
 */
export function startSkipLinks(): void {
  document.addEventListener('click', (e) => {
    const link = (e.target as Element | null)?.closest<HTMLAnchorElement>('a[data-skip-to]');
    if (!link) return;
    e.preventDefault();
    const target = (link.dataset['skipTo'] ?? '')
      .split(' ')
      .map((id) => document.getElementById(id))
      .find((t) => t && t.hasAttribute('tabindex') && t.offsetParent !== null);
    target?.focus();
  });
}

/**
 * One Tab stop for a list of controls (ARIA's roving tabindex): the one last focused is in the Tab order, the others
 * not; ↑ ↓ (and ← →) move the focus to the previous or next, Home and End to the first and last, and the control keeps
 * its own keys (a checkbox's Space). `items` lists the controls as they are now; after the list is drawn again,
 * `refresh()` puts the Tab stop back on the control of the same key (`keyOf`), else on the first.
 */
export class RovingFocus {
  private current: string | null = null;

  constructor(
    container: HTMLElement,
    private readonly items: () => HTMLElement[],
    private readonly keyOf: (item: HTMLElement) => string,
  ) {
    container.addEventListener('focusin', (e) => {
      const item = this.items().find((i) => i === e.target);
      if (item) this.mark(item);
    });
    container.addEventListener('keydown', (e) => this.onKey(e));
  }

  refresh(): void {
    const items = this.items();
    this.mark(items.find((i) => this.keyOf(i) === this.current) ?? items[0]);
  }

  private mark(item: HTMLElement | undefined): void {
    for (const i of this.items()) i.tabIndex = i === item ? 0 : -1;
    this.current = item ? this.keyOf(item) : null;
  }

  private onKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const items = this.items();
    const at = items.indexOf(e.target as HTMLElement);
    if (at < 0) return;
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowLeft: at - 1, Home: 0, End: items.length - 1 };
    const to = moves[e.key];
    if (to === undefined) return;
    // The list's keys, not the page's (its scroll, the plot keys).
    e.preventDefault();
    items[Math.max(0, Math.min(items.length - 1, to))]?.focus();
  }
}
