import uPlot from 'uplot';
import { borderStyleOf, dashOf } from './colours';
import { displayNumber, SHOWN_TEXT_CHARS, shortText } from './display-number';
import { formatValue, nearestX, shiftedSplits, stepX, tickDecimals, yRangeOf, ySplits } from './plot-data';

export interface PaneSpec {
  /** Stable id for the tests: data-testid="pane-<id>". */
  id: string;
  title: string;
  unit: string;
  xLabel: string;
  /** step: the value is held between points (a discrete channel such as gear), drawn as steps, not ramps. */
  series: { label: string; colour: string; step?: boolean }[];
  data: uPlot.AlignedData;
  /** Fixed x range (the read window), else fitted to the data. */
  xRange?: [number, number];
  /** A y range set by hand (min, max), else fitted to the data in the window. */
  yRange?: [number, number];
  /**
   * Where the x axis counts from: its ticks are placed at round values of `x − xOrigin` and labelled so (a lap's plot
   * in lap time: file seconds drawn, seconds from the lap's start shown). Absent: 0.
   */
  xOrigin?: number;
  /**
   * What the pane's legend shows at the cursor: its time and each series' value at the cursor's own x (not at the
   * nearest point uPlot would snap to), so the legend says what the page's values line says. Absent: uPlot's own.
   */
  readout?: { time: (x: number) => string; value: (x: number, series: number) => string };
}

export interface PaneStackOptions {
  /** Panes sharing a key share the cursor (setSyncKey changes it for the panes drawn next). */
  syncKey: string;
  /**
   * What the panes are, said by a screen reader when the plot area's slider (a Tab stop while panes are drawn) has the
   * focus: "Time plots", "Lap overlay". The slider (ARIA's pattern: a screen reader switches to focus mode, so ← and →
   * reach the page) is over the x range shown, its value the x of the cursor the user put (the keys, a click) and its
   * text what the panes say there (describeAt).
   */
  label: string;
  height?: number;
  /**
   * Compact panes (the time plots): no title (the channel's name is in its legend, above the trace, with its value),
   * the x axis's label on the last pane only, the legend's time left to the values line at the top of the window.
   */
  compact?: boolean;
  /** A drag selection over x: the range the user zoomed to. */
  onZoom?: (min: number, max: number) => void;
  /** The cursor's x value (null when it leaves the plots). */
  onCursor?: (x: number | null) => void;
  /** Every pane of the last render has drawn. */
  onDrawn?: () => void;
  /** A double-click on a pane: back to the unzoomed range (uPlot's own double-click would fit the axis to the data). */
  onReset?: () => void;
  /**
   * A y range set by hand on pane `id` (null: back to auto). Given, each pane has a y scale control (a button under its
   * y axis, or a double-click on the axis) whose small form takes a min and a max.
   */
  onYRange?: (id: string, range: [number, number] | null) => void;
}

const stepped = uPlot.paths.stepped?.({ align: 1 });

/** A pane's title is cut here (it may hold a name and a lap's label: `Delta to Run 1 / DataFile lap 2 (1:03.680)`). */
const TITLE_CHARS = 2 * SHOWN_TEXT_CHARS;

/** The x value under the cursor of a pane. */
function cursorX(u: uPlot): number {
  return u.posToVal(u.cursor.left ?? 0, 'x');
}

/**
 * A pane's y scale control: a button under its y axis saying whether the scale is auto or set by hand, which (as a
 * double-click on the axis does, MoTeC's gesture) opens a small form: Min and Max (the range drawn, to start from),
 * Set, Auto (back to the data's range) and Cancel (or Escape). A range the form refuses is said in it, not sent.
 */
function yScaleControl(pane: HTMLElement, plot: uPlot, spec: PaneSpec, onYRange: (id: string, range: [number, number] | null) => void): void {
  const manual = spec.yRange;
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'y-scale';
  toggle.dataset['testid'] = 'y-scale';
  toggle.textContent = manual ? 'y: fixed' : 'y: auto';
  // Its name says whose scale it is (one "y: auto" a pane read alike).
  toggle.setAttribute('aria-label', `${toggle.textContent}, y scale of ${shortText(spec.title, TITLE_CHARS)}`);
  toggle.title = manual
    ? `y scale set by hand: ${displayNumber(manual[0])} to ${displayNumber(manual[1])}. Click (or double-click the y axis) to change it or go back to auto.`
    : 'y scale: auto (the data in the window). Click (or double-click the y axis) to set its min and max.';
  pane.appendChild(toggle);
  let form: HTMLFormElement | null = null;
  const close = () => {
    form?.remove();
    form = null;
  };
  // Cancel and Escape give the focus back to the y scale control (it fell to the page's body with the form).
  const cancel = () => {
    close();
    toggle.focus();
  };
  const open = () => {
    if (form) return;
    const [min, max] = manual ?? [plot.scales.y.min ?? 0, plot.scales.y.max ?? 1];
    form = document.createElement('form');
    form.className = 'y-scale-form';
    form.dataset['testid'] = 'y-scale-form';
    form.noValidate = true;
    const field = (label: string, testid: string, value: number) => {
      const input = document.createElement('input');
      input.type = 'text';
      input.inputMode = 'decimal';
      input.dataset['testid'] = testid;
      input.value = displayNumber(value, 4);
      const wrap = document.createElement('label');
      wrap.append(label, ' ', input);
      return { wrap, input };
    };
    const minField = field('Min', 'y-min', min);
    const maxField = field('Max', 'y-max', max);
    const action = (text: string, testid: string, type: 'submit' | 'button', onClick?: () => void) => {
      const b = document.createElement('button');
      b.type = type;
      b.textContent = text;
      b.dataset['testid'] = testid;
      if (onClick) b.addEventListener('click', onClick);
      return b;
    };
    const problem = document.createElement('span');
    problem.className = 'y-scale-problem';
    problem.dataset['testid'] = 'y-scale-problem';
    problem.setAttribute('role', 'alert');
    form.append(
      minField.wrap,
      maxField.wrap,
      action('Set', 'y-set', 'submit'),
      action('Auto', 'y-auto', 'button', () => onYRange(spec.id, null)),
      action('Cancel', 'y-cancel', 'button', cancel),
      problem,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const typed = yRangeOf(minField.input.value, maxField.input.value);
      if ('problem' in typed) problem.textContent = typed.problem;
      else onYRange(spec.id, typed.range);
    });
    form.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      cancel();
    });
    pane.appendChild(form);
    minField.input.focus();
    minField.input.select();
  };
  toggle.addEventListener('click', () => (form ? close() : open()));
  // A double-click on the y axis (left of the plot, level with it); one on the plot itself resets the zoom.
  pane.addEventListener('dblclick', (e) => {
    const box = plot.over.getBoundingClientRect();
    if (e.clientX < box.left && e.clientY >= box.top && e.clientY <= box.bottom) open();
  });
}

/** Whether a pane's series hold no value to draw (every one a gap), however many x values they have. */
function hasNoValue(data: uPlot.AlignedData): boolean {
  return data.slice(1).every((ys) => !Array.from(ys as ArrayLike<number | null | undefined>).some((v) => v !== null && v !== undefined && Number.isFinite(v)));
}

/** The x range uPlot sets for a pane: its spec's fixed range, else the ends of its data (no padding); null without data. */
function rangeOf(spec: PaneSpec): [number, number] | null {
  if (spec.xRange) return spec.xRange;
  const xs = spec.data[0] as ArrayLike<number>;
  return xs.length > 0 ? [xs[0] as number, xs[xs.length - 1] as number] : null;
}

/** Stacked uPlot panes with one x axis: cursor synchronised, drag-to-zoom reported instead of applied. */
export class PaneStack {
  private plots: uPlot[] = [];
  /** The specs of the panes drawn, in their order. */
  private specs: readonly PaneSpec[] = [];
  /** The cursor's x value on the panes, wherever it comes from (the mouse over them too); null: off them. */
  private cursor: number | null = null;
  /**
   * The slider's value: the x of the cursor the user put, by the keys or a click on a pane (null: none yet). The mouse
   * moved over the panes moves their cursor, not this: a screen reader's text does not change under its user.
   */
  private value: number | null = null;
  /**
   * The plot area's slider: an empty element laid over the panes (the mouse goes through it to them), the Tab stop the
   * plot keys act on. The panes and their y scale controls are its siblings, not its content: ARIA makes a slider's
   * content presentational, and a screen reader that does so would not reach the controls.
   */
  readonly slider: HTMLElement = document.createElement('div');

  constructor(
    private readonly container: HTMLElement,
    private readonly options: PaneStackOptions,
  ) {
    this.slider.className = 'plot-slider';
    this.slider.id = `${container.id}-slider`;
    this.slider.dataset['testid'] = `${container.dataset['testid'] ?? container.id}-slider`;
    this.slider.hidden = true;
    container.prepend(this.slider);
    // A click on a plot (not the end of a drag across it) puts the cursor there: the slider's value.
    let pressedAt: number | null = null;
    container.addEventListener('mousedown', (e) => (pressedAt = e.clientX));
    container.addEventListener('click', (e) => {
      const press = pressedAt;
      pressedAt = null;
      if (press === null || Math.abs(e.clientX - press) >= 3 || !(e.target as Element).closest('.u-over') || this.cursor === null) return;
      this.value = this.cursor;
      this.updateSlider();
    });
    // The panes follow their container's width (the window resized, a scrollbar come or gone): they were drawn at the
    // width of the moment and kept it (1280 → 1920 px left a third empty, 800 px cut them with a scrollbar).
    new ResizeObserver(() => this.fit()).observe(container);
  }

  /** The cursor sync key of the panes drawn from now on (the overlay's follows its axis). */
  setSyncKey(key: string): void {
    this.options.syncKey = key;
  }

  /** The width the panes were last drawn or sized to. */
  private width = 0;

  /** Sizes every pane to the container's width, when it changed. */
  private fit(): void {
    const width = this.paneWidth();
    if (width === this.width || this.plots.length === 0) return;
    this.width = width;
    for (const p of this.plots) p.setSize({ width, height: p.height });
  }

  private paneWidth(): number {
    return Math.max(200, Math.floor(this.container.clientWidth));
  }

  /** Container width less plotting width: the y axis with its label and the paddings, learnt from the last pane drawn. */
  private axisWidth = 125;

  /** Width in CSS pixels of a pane's plotting area (what maxPoints is sized to). */
  plotWidth(): number {
    const drawn = this.plots[0];
    if (drawn && drawn.over.clientWidth > 0) this.axisWidth = this.container.clientWidth - drawn.over.clientWidth;
    return Math.max(50, this.container.clientWidth - this.axisWidth);
  }

  render(specs: readonly PaneSpec[]): void {
    // The focus on a pane's control (its y scale control, or its form's Set or Auto) comes back to the pane drawn
    // again: it fell to the page's body with the old panes.
    const active = document.activeElement;
    const focusedPane = active && active !== this.slider && this.container.contains(active) ? active.closest<HTMLElement>('.pane')?.dataset['testid'] : undefined;
    // The cursor the user put stays at its x across a redraw (a zoom by the keys, a drag or the wheel, wherever the
    // focus is), when the new range holds it: the values at it were said, and the next arrow goes on from there.
    const keptCursor = this.value;
    this.removePanes();
    this.specs = specs;
    const newRange = specs[0] ? rangeOf(specs[0]) : null;
    this.value = keptCursor !== null && newRange && keptCursor >= newRange[0] && keptCursor <= newRange[1] ? keptCursor : null;
    this.markSlider(specs.length > 0);
    let pending = specs.length;
    const width = this.paneWidth();
    this.width = width;
    for (const [k, spec] of specs.entries()) {
      const last = k === specs.length - 1;
      const pane = document.createElement('div');
      pane.className = this.options.compact ? 'pane compact' : 'pane';
      pane.dataset['testid'] = `pane-${spec.id}`;
      this.container.appendChild(pane);
      let drawn = false;
      const onDraw = (): void => {
        if (drawn) return;
        drawn = true;
        pending -= 1;
        if (pending > 0) return;
        if (this.value !== null) this.setCursorAt(this.value);
        this.options.onDrawn?.();
      };
      const empty = hasNoValue(spec.data);
      const plot = new uPlot(this.paneOptions(spec, width, onDraw, pane, last, empty), spec.data, pane);
      this.plots.push(plot);
      const onYRange = this.options.onYRange;
      if (onYRange) yScaleControl(pane, plot, spec, onYRange);
      if (empty) {
        const note = document.createElement('div');
        note.className = 'pane-note';
        note.dataset['testid'] = 'pane-note';
        note.textContent = 'No data in this window';
        plot.over.appendChild(note);
      }
    }
    if (specs.length === 0) this.options.onDrawn?.();
    if (focusedPane !== undefined) {
      const pane = [...this.container.children].find((p) => (p as HTMLElement).dataset['testid'] === focusedPane);
      (pane?.querySelector<HTMLElement>('.y-scale') ?? this.slider).focus({ preventScroll: true });
    }
  }

  private paneOptions(spec: PaneSpec, width: number, onDraw: () => void, pane: HTMLElement, last: boolean, empty: boolean): uPlot.Options {
    const readout = spec.readout;
    const origin = spec.xOrigin ?? 0;
    const compact = this.options.compact === true;
    const compared = spec.series.length > 1;
    // The x axis's label once, under the last pane, when compact; its ticks on every pane, in less room.
    const xLabel = !compact ? { label: spec.xLabel } : last ? { label: spec.xLabel, size: 26, labelSize: 16, labelGap: 0 } : { size: 26 };
    // The x axis's label, drawn on the canvas, said for the tests (as data-x-ticks says its ticks).
    pane.dataset['xLabel'] = xLabel.label ?? '';
    return {
      // A file's names and units are shown shortened where uPlot gives them a fixed place (title, legend, axis).
      ...(compact ? {} : { title: shortText(spec.title, TITLE_CHARS) }),
      width,
      height: this.options.height ?? (compact ? (last ? 142 : 126) : 180),
      // A pane with no value to draw (a channel all gaps in the window) keeps a y axis: uPlot drops the axis of a scale
      // without a range, and the plot then started 75 px left of the other panes' (the same time at another x).
      // A y range set by hand is fixed (uPlot then never fits it to the data).
      scales: { x: { time: false, ...(spec.xRange ? { range: spec.xRange } : {}) }, y: { range: spec.yRange ?? ((_u, min, max) => (Number.isFinite(min) && Number.isFinite(max) ? uPlot.rangeNum(min, max, 0.1, true) : [0, 1])) } },
      // The legend's markers drawn in their line's style: dashed or dotted as the line is.
      legend: { markers: { dash: (u: uPlot, i: number) => borderStyleOf(u.series[i]?.dash ?? []) } },
      series: [
        { label: spec.xLabel, ...(readout ? { value: (u: uPlot, _v: unknown, _s: number, idx: number | null) => (idx === null ? '--' : readout.time(cursorX(u))) } : {}) },
        ...spec.series.map((s, i) => ({
          label: shortText(s.label),
          stroke: s.colour,
          width: compact ? 1.5 : 2,
          // Lines compared on one pane differ in dash as well as colour (a colour-blind reader's cue); a lone line is solid.
          ...(compared ? { dash: dashOf(s.colour) } : {}),
          spanGaps: false,
          // A held value steps at the next point (align 1: the value holds until then), as the readout reads it.
          ...(s.step ? { paths: stepped } : {}),
          points: { show: false },
          ...(readout ? { value: (u: uPlot, _v: unknown, _s: number, idx: number | null) => (idx === null ? '--' : readout.value(cursorX(u), i)) } : {}),
        })),
      ],
      // The x ticks carry the decimals of their step: a window of 0.1 ms read 21 ticks of one label.
      // The pane says its x tick labels (data-x-ticks) for the tests, as the analysis canvases do.
      axes: [
        {
          ...xLabel,
          ...(origin ? { splits: (_u: uPlot, _axis: number, min: number, max: number, incr: number) => shiftedSplits(min, max, incr, origin) } : {}),
          values: (_u, splits, _a, _s, incr) => {
            const labels = splits.map((v) => (v - origin).toFixed(tickDecimals(incr)));
            pane.dataset['xTicks'] = labels.join(' ');
            return labels;
          },
        },
        {
          label: shortText(spec.unit, 24),
          size: 70,
          space: 20,
          // Bounded ticks (ySplits): uPlot's own never ended on a range narrower than its values' precision.
          splits: (_u: uPlot, _axis: number, min: number, max: number, incr: number) => ySplits(min, max, incr),
          // uPlot's own labels, none on a pane without a value (its 0 to 1 is no range of the channel's); said in
          // data-y-ticks for the tests.
          values: (_u, splits) => {
            const labels = splits.map((v) => (empty || v === null ? '' : uPlot.fmtNum(v)));
            pane.dataset['yTicks'] = labels.join(' ');
            return labels;
          },
        },
      ],
      cursor: {
        sync: { key: this.options.syncKey },
        bind: {
          dblclick: () => () => {
            this.options.onReset?.();
            return null;
          },
        },
        drag: { x: true, y: false, setScale: false },
      },
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 3) return;
            const min = u.posToVal(u.select.left, 'x');
            const max = u.posToVal(u.select.left + u.select.width, 'x');
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            // The cursor sync repeats a drag's mouseup in every pane of the key, each firing this hook: only the pane
            // dragged across (the one with a mouse event; a synced pane has none) reports the zoom, so one zoom is
            // one read, not one a pane.
            if (u.cursor.event == null) return;
            this.options.onZoom?.(min, max);
          },
        ],
        setCursor: [
          (u) => {
            const left = u.cursor.left;
            this.cursor = left === undefined || left < 0 ? null : u.posToVal(left, 'x');
            this.options.onCursor?.(this.cursor);
          },
        ],
        // The slider's range once uPlot has set the x scale (and after any later draw).
        draw: [onDraw, () => this.updateSlider()],
      },
    };
  }

  /**
   * Puts the cursor of every pane at `x` (null: off the plots), as if the mouse were there: the panes' own cursor
   * hooks run (onCursor too), so another view can drive the plots' cursor. The slider's value stays (the mouse over
   * the track map is a hover, as over the panes).
   */
  setCursorAt(x: number | null): void {
    const first = this.plots[0];
    if (!first) return;
    const left = x === null ? -10 : first.valToPos(x, 'x');
    // uPlot's setCursor takes a third argument its types do not declare: publish to the panes of the same sync key.
    const setCursor = first.setCursor as (opts: { left: number; top: number }, fireHook?: boolean, publish?: boolean) => void;
    setCursor({ left, top: x === null ? -10 : first.over.clientHeight / 2 }, true, true);
  }

  /** Whether panes are on screen. */
  shown(): boolean {
    return this.plots.length > 0;
  }

  clear(): void {
    this.removePanes();
    this.specs = [];
    this.cursor = null;
    this.value = null;
    this.markSlider(false);
  }

  /**
   * The plot area's slider while panes are drawn (a Tab stop, named, horizontal), hidden while none is (no Tab stop, no
   * role: an empty slider would be read).
   */
  private markSlider(shown: boolean): void {
    const c = this.slider;
    c.hidden = !shown;
    const attributes: Record<string, string> = { role: 'slider', tabindex: '0', 'aria-label': this.options.label, 'aria-orientation': 'horizontal' };
    for (const [name, value] of Object.entries(attributes)) {
      if (shown) c.setAttribute(name, value);
      else c.removeAttribute(name);
    }
    this.updateSlider();
  }

  /** Whether the slider's values wait to be written (once a task, however many panes' cursor hooks ran). */
  private sliderPending = false;

  /**
   * The slider's values, written once the panes' hooks of a change have all run: its min and max the x range shown,
   * its value the x of the cursor the user put (none yet: the middle, where ← or → puts it) and its text what the
   * panes say there, which a screen reader reads when it changes with the focus on the plot area (no live region
   * needed).
   */
  private updateSlider(): void {
    if (this.sliderPending) return;
    this.sliderPending = true;
    queueMicrotask(() => {
      this.sliderPending = false;
      const c = this.slider;
      const range = this.plots.length > 0 ? this.xRange() : null;
      // On the axis shown (a lap's plot in lap time counts from its start), to the microsecond: 85.8, not
      // 85.80000000000001 (the sums of a zoom), in the clock the slider's text says.
      const origin = this.specs[0]?.xOrigin ?? 0;
      const shown = (x: number) => String(Number((x - origin).toFixed(6)));
      const values: Record<string, string | null> = {
        'aria-valuemin': range ? shown(range[0]) : null,
        'aria-valuemax': range ? shown(range[1]) : null,
        // Without a cursor, the middle: where ← or → puts it (a slider always has a value).
        'aria-valuenow': range ? shown(this.value ?? (range[0] + range[1]) / 2) : null,
        'aria-valuetext': range ? (this.value === null ? 'no cursor: ← or → puts it in the middle' : this.describeAt(this.value)) : null,
      };
      for (const [name, value] of Object.entries(values)) {
        if (value === null) c.removeAttribute(name);
        else if (c.getAttribute(name) !== value) c.setAttribute(name, value);
      }
    });
  }

  private removePanes(): void {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    // The slider stays (with the focus, when it has it): the panes go.
    for (const child of [...this.container.children]) if (child !== this.slider) child.remove();
  }

  /**
   * The x range the panes show (their x scale), null when none is drawn. Straight after render() uPlot has not set
   * its scale yet (it does on a later microtask): the range is then the one it will set, the spec's fixed range or the
   * ends of the data drawn (uPlot fits an x scale to its data's first and last x, without padding).
   */
  xRange(): [number, number] | null {
    const x = this.plots[0]?.scales['x'];
    if (x && x.min !== undefined && x.max !== undefined && x.min !== null && x.max !== null) return [x.min, x.max];
    const spec = this.specs[0];
    return spec && this.plots.length > 0 ? rangeOf(spec) : null;
  }

  /** The cursor's x value (null: off the panes), the mouse's when it is over them. */
  cursorX(): number | null {
    return this.cursor;
  }

  /** Where the keys act from: the cursor on the panes (the mouse's, or the keys'), else the slider's value. */
  keyCursorX(): number | null {
    return this.cursor ?? this.value;
  }

  /**
   * The keyboard's cursor: `steps` drawn points on from where it is among `xs` (the first pane's x values unless
   * given): from the cursor on the panes, else the slider's value, else the middle of the x range. It is then the
   * slider's value. Whether it moved (not past either end).
   */
  stepCursor(steps: number, xs: ArrayLike<number> = (this.plots[0]?.data[0] as ArrayLike<number> | undefined) ?? []): boolean {
    const range = this.xRange();
    if (!range) return false;
    const from = this.keyCursorX();
    const x = from === null ? (range[0] + range[1]) / 2 : stepX(xs, from, steps);
    if (x === null || x < range[0] || x > range[1]) return false;
    this.value = x;
    this.setCursorAt(x);
    this.updateSlider();
    return true;
  }

  /**
   * The keyboard's cursor moved within the x range shown: to its start (`to` -Infinity), its end (Infinity), or `to`
   * of the range on from where it is (Page Up 0.1, Page Down -0.1; from the middle without one), at the drawn point of
   * `xs` nearest that x within the range. It is then the slider's value. False without a range.
   */
  jumpCursor(to: number, xs: ArrayLike<number> = (this.plots[0]?.data[0] as ArrayLike<number> | undefined) ?? []): boolean {
    const range = this.xRange();
    if (!range) return false;
    const from = this.keyCursorX() ?? (range[0] + range[1]) / 2;
    const wanted = to === Infinity ? range[1] : to === -Infinity ? range[0] : Math.min(range[1], Math.max(range[0], from + to * (range[1] - range[0])));
    const x = nearestX(xs, wanted, range);
    if (x === null) return true;
    this.value = x;
    this.setCursorAt(x);
    this.updateSlider();
    return true;
  }

  /**
   * What the panes say at `x`, for a screen reader (the slider's text): the x value, then each pane's title (compact
   * panes have none: their series are the channels) and its series' values, the readout's when the pane has one (the
   * legend's and the values line's), else the drawn point's nearest `x`.
   */
  private describeAt(x: number): string {
    const panes = this.plots.map((u, k) => {
      const spec = this.specs[k] as PaneSpec;
      const i = (u.data[0] as ArrayLike<number>).length > 0 ? u.valToIdx(x) : -1;
      const valueOf = (j: number) => (spec.readout ? spec.readout.value(x, j) : formatValue(i < 0 ? null : (u.data[j + 1]?.[i] as number | null | undefined), spec.unit));
      const values = spec.series.map((s, j) => `${s.label} ${valueOf(j)}`).join(', ');
      return this.options.compact ? values : `${spec.title}: ${values}`;
    });
    const first = this.specs[0];
    return `${first?.xLabel ?? 'x'} ${first?.readout ? first.readout.time(x) : displayNumber(x, 6)}. ${panes.join('. ')}.`;
  }
}
