/**
 * The plot keys (← and → step the cursor, Shift ten points, + and - zoom around it, Escape resets) go to one group of
 * plots: the time plots, the lap overlay or the delta. They act on the group whose plot area holds the focus (its
 * slider, or a control of its panes that is not a field); with the focus on nothing (the page's body), on the group
 * last used (focused, clicked or zoomed with Ctrl or Alt and the wheel, which zoom each group as + and - do, around
 * the mouse) or, when it has none drawn (the overlay cleared), the first that has (the time plots, the overlay, the
 * delta), the time plots until one is used. Anywhere else they are left to the focused element (a picker, a table that
 * scrolls, a field), and never zoom plots out of sight.
 */
export interface PlotGroup {
  /** The plot area: the container of the group's panes, their controls and its slider. */
  readonly area: HTMLElement;
  /** The plot area's slider: the Tab stop the keys act on, focused by a click on a pane. */
  readonly slider: HTMLElement;
  /** Acts on a plot key; false when it did nothing with it (it is then left to the page). */
  onKey(e: KeyboardEvent): boolean;
  /** Whether it has plots drawn. */
  drawn(): boolean;
  /** The x under the mouse on its plots (null: the mouse is off them): where Ctrl (or Alt) and the wheel zoom around. */
  mouseX(): number | null;
  /** Zooms its plots by `factor` (of the range: under 1 closer) around `centre` (its middle when null), as + and - do. */
  zoom(factor: number, centre: number | null): void;
}

/** The turns of the wheel within this long make one zoom (one read), however many notches. */
const WHEEL_BURST_MS = 250;

/** Whether the key is one of a text field or picker (typing in a pane's y scale form). */
function isField(element: Element): boolean {
  return /^(INPUT|SELECT|TEXTAREA)$/.test(element.tagName) || (element as HTMLElement).isContentEditable;
}

export class PlotKeys {
  private readonly groups: PlotGroup[] = [];
  private last: PlotGroup | null = null;

  /** A group of plots that takes the keys (the first added is the one used before any other is). */
  add(group: PlotGroup): void {
    this.groups.push(group);
    const used = () => (this.last = group);
    group.area.addEventListener('focusin', used);
    // Ctrl (or Alt) and the wheel over the plots zoom them around the mouse's x: a notch away from the user twice as
    // close, towards them twice as far, the notches of a burst one zoom. The zoom wheel only makes them the ones used
    // (a page scrolled with the mouse over the plots does not).
    let burst: { factor: number; centre: number | null } | null = null;
    group.area.addEventListener(
      'wheel',
      (e) => {
        if (!(e.ctrlKey || e.altKey)) return;
        used();
        if (!group.drawn() || e.deltaY === 0) return;
        e.preventDefault();
        const factor = e.deltaY > 0 ? 2 : 0.5;
        if (burst) {
          burst.factor *= factor;
          return;
        }
        burst = { factor, centre: group.mouseX() };
        window.setTimeout(() => {
          const zoom = burst;
          burst = null;
          if (zoom && zoom.factor !== 1 && group.drawn()) group.zoom(zoom.factor, zoom.centre);
        }, WHEEL_BURST_MS);
      },
      { passive: false },
    );
    group.area.addEventListener('pointerdown', used);
    // A press on a pane (not on one of its controls or their form) puts the focus on its plot area's slider, as on any
    // other widget clicked. The slider lies over the panes but lets the mouse through: the press's own default would
    // move the focus to the page's body (the panes are not focusable), so it is prevented.
    group.area.addEventListener('mousedown', (e) => {
      if ((e.target as Element).closest('button, input, select, textarea, a, label, form')) return;
      e.preventDefault();
      group.slider.focus({ preventScroll: true });
    });
  }

  start(): void {
    document.addEventListener('keydown', (e) => this.onKey(e));
  }

  /**
   * The group the keys go to now: the focused plot area's; with the focus on nothing, the last used, or the first
   * with plots drawn when it has none (the overlay last used and cleared leaves the keys to the time plots); null
   * when the focus is on another widget, whose keys they are.
   */
  private target(): PlotGroup | null {
    const active = document.activeElement;
    if (!active || active === document.body || active === document.documentElement) {
      const last = this.last ?? this.groups[0];
      return [last, ...this.groups].find((g) => g?.drawn()) ?? null;
    }
    if (isField(active)) return null;
    return this.groups.find((g) => g.area.contains(active)) ?? null;
  }

  private onKey(e: KeyboardEvent): void {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (this.target()?.onKey(e)) e.preventDefault();
  }
}

/**
 * The plot key's action: a cursor step (points, negative back), a jump of the cursor (to the range's start at
 * -Infinity, its end at Infinity, else that fraction of the range on), a zoom (factor of the range: under 1 closer)
 * or the reset.
 */
export type PlotKeyAction = { step: number } | { jump: number } | { zoom: number } | { reset: true } | null;

/**
 * What a key does on a group of plots (null: nothing). On the plot area's slider itself, the keys of ARIA's slider
 * pattern too: ↑ and ↓ as → and ←, Home and End to the start and the end of the range shown, Page Up and Page Down a
 * tenth of it on and back (elsewhere, the focus on the page's body, they stay the page's: they scroll it).
 */
export function plotKeyAction(e: KeyboardEvent): PlotKeyAction {
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') return { step: (e.key === 'ArrowRight' ? 1 : -1) * (e.shiftKey ? 10 : 1) };
  if (e.target instanceof Element && e.target.getAttribute('role') === 'slider') {
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') return { step: (e.key === 'ArrowUp' ? 1 : -1) * (e.shiftKey ? 10 : 1) };
    if (e.key === 'Home' || e.key === 'End') return { jump: e.key === 'End' ? Infinity : -Infinity };
    if (e.key === 'PageUp' || e.key === 'PageDown') return { jump: e.key === 'PageUp' ? 0.1 : -0.1 };
  }
  if (e.key === '+' || e.key === '=') return { zoom: 0.5 };
  if (e.key === '-' || e.key === '_') return { zoom: 2 };
  if (e.key === 'Escape') return { reset: true };
  return null;
}
