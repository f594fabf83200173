import { convertInto, toNanosecond, type EventSeries } from '@pitwall/channels';
import type { LapDistanceSourceJson } from '@pitwall/contracts';
import { compile, type EvaluationContext, type ExpressionInput, type SampleSource } from '@pitwall/expressions';
import { interpolateLinear, lapDistances, lowerBound } from '@pitwall/laps';
import { decimalValues, infinitiesToGaps, physicalValues, roundToPlaces } from './decimal-places';
import type { ShapeTask, StoredSlice } from './shape-channels';

/**
 * The math channels of one read that share one time base, evaluated in one pool task (docs/math-channels.md): every
 * definition they need, each once, in an evaluation order; the stored values of the logged channels those read inside
 * the read's window, each once; and what the lap inputs need. One slice comes back for each of `channels`.
 */
export interface MathTask {
  /** The channels read, each one of `definitions`: their slices, in this order. */
  channels: { name: string; unit: string }[];
  /**
   * Every definition they need, each once, each after the definitions it reads; `decimalPlaces`: its values rounded to
   * that many decimals, as the definitions reading it see them and as it is sent (integer codes when they fit int32).
   */
  definitions: { name: string; expression: string; decimalPlaces?: number }[];
  /** The value of each parameter the definitions read with param("Name"), looked up on the dataset's owner chain. */
  params?: [string, number][];
  /** The logged channels read, stored values of the window (their conversion applied here). */
  inputs: StoredSlice[];
  /** The channels' Rate (Hz): the time base is then a grid at this rate; absent: an input's own sample times. */
  rate?: number;
  /**
   * Without a Rate: the input whose sample times are the time base, the fastest each channel reads (the first of the
   * fastest in its reading order). Absent: the fastest of `inputs`.
   */
  baseInput?: string;
  /**
   * Where a Rate's grid runs when no input bounds it: the half-open [start, end) of the window clipped to the file's
   * span (the file's span for a whole-file read), as a logged channel's window holds its samples.
   */
  span: { start: number; end: number };
  /**
   * With a Rate: its grid, start + k / rate for k in [0, length), as the read's context plan gives it (the whole file's
   * grid from the inputs' first sample, the points the context needs). Absent: from the inputs (rateGrid).
   */
  grid?: { start: number; length: number };
  /**
   * The samples of the time base the read sends, [from, to), when the inputs hold more (a context the time functions
   * read beyond the read's scope: from the file's start for integral and lowpass, a margin each side for derivative and
   * smooth; docs/math-channels.md), and the time of the first. Absent: every sample of the base.
   */
  keep?: { from: number; to: number; startTime: number };
  /**
   * A regular base's times as the whole file has them, start + (offset + k) / rate: the time of its input's first
   * sample (or the Rate grid's first point) and the index of the context's first sample there, so that the time
   * functions and the laps read the same times (to the bit) whatever read evaluates them. Absent: the base input's
   * (or the grid's) start, offset 0.
   */
  origin?: { start: number; offset: number };
  /**
   * The laps' [start, end) times, for lapTime(), lapDistance() and lapNumber() (a file without laps is one lap, its
   * span), each with its index among the file's laps (as the lap reads number them: 0 the out-lap), which lapNumber()
   * gives: a task is sent only the laps its base reaches.
   */
  laps?: { start: number; end: number; index: number }[];
  /**
   * lapDistance(): the distance source, from the start of the first lap the base reaches to a sample past what it
   * needs, and the samples of each of `laps` in it, [from, to) (those the lap distance read takes of that lap; absent:
   * found from the times).
   */
  distance?: { source: LapDistanceSourceJson; slice: StoredSlice; laps?: { from: number; to: number }[] };
}

/** A math channel of a read evaluated in the read's shaping task: slice `index` of the results of `math[task]`. */
export interface EvaluatedChannel {
  evaluated: { task: number; index: number };
}

/**
 * A read's shaping task that evaluates its math channels first, in the same worker (`withMathChannels`): their results
 * are shaped where they are made, written into the worker's scratch arrays, never transferred.
 */
export type ShapeWithMathTask = Omit<ShapeTask, 'channels'> & { channels: (StoredSlice | EventSeries | EvaluatedChannel)[]; math?: MathTask[] };

/**
 * Where an evaluation's whole-length arrays come from and go back to (the pool worker's scratch arrays: ScratchArrays'
 * lease): `take` lends one, `release` takes back one the evaluation no longer reads.
 */
export interface EvaluationArrays {
  take(length: number): Float64Array;
  release(array: Float64Array): void;
}

/** The shaping task with its math channels evaluated (each base's task in turn), their arrays from `arrays`. */
export function withMathChannels(task: ShapeWithMathTask, arrays: EvaluationArrays): ShapeTask {
  const results = (task.math ?? []).map((t) => evaluateMathChannels(t, arrays));
  const { math: _math, channels, ...rest } = task;
  return { ...rest, channels: channels.map((c) => ('evaluated' in c ? (results[c.evaluated.task]?.[c.evaluated.index] as StoredSlice) : c)) };
}

/** One math channel alone: the definitions it needs in evaluation order, itself last (a batch of one). */
export type MathChannelTask = Omit<MathTask, 'channels' | 'baseInput'> & { name: string; unit: string };

/** Evaluates one math channel alone: the task of a batch of one, on the time base of its fastest input or its Rate. */
export function evaluateMathChannel(task: MathChannelTask): StoredSlice {
  const { name, unit, ...rest } = task;
  return evaluateMathChannels({ ...rest, channels: [{ name, unit }] })[0] as StoredSlice;
}

/**
 * Evaluates math channels over one time base: an input's sample times (or a grid at the Rate), every input resampled
 * linearly onto it (NaN outside an input's samples and next to its gaps, so gaps stay gaps), each definition evaluated
 * once on that base, in order. Each channel's result is a slice of physical values (identity conversion) the read
 * shapes like any logged channel's; NaN samples are its gaps, and so are infinite results. A definition with
 * DecimalPlaces is rounded as soon as it is evaluated, and its channel's slice is then integer codes under a decimal conversion, as a logged scaled channel's
 * (int16 or int32, 0 at its gaps), or its rounded float64 values when a code does not fit int32. The numbers of a channel are those of evaluating it
 * alone on the same base: a definition's values depend only on the base and on what it reads.
 *
 * A regular time base stays implicit (start + k / rate): its array of times is made only for the time functions, the
 * lap inputs, or an input with times of its own. An input on the base is converted from its stored codes block by block
 * as the expression reads it; a regular input at another rate is resampled block by block in one forward pass, and
 * so is an input onto (or from) times of their own (TimesResampler); the numbers are those of converting every input
 * whole and resampling it with interpolateLinear. No input makes an array of the base's length.
 *
 * `arrays`: where each definition's arrays come from (the pool worker's scratch arrays when the slices are shaped in
 * the same task, never when they are transferred); default, new arrays. Each definition's intermediate arrays (a time
 * function's argument and series, a value kept between its steps) are given back as soon as it no longer reads them,
 * and a definition's result once the last definition reading it has run (unless it is one of the channels), so the
 * task holds its results and one definition's intermediates at once. The base's length times what the
 * READ_SAMPLE_BUDGET counts of it (evaluatedSamples: the times, a lap input's array, each definition's `arrays`) bounds
 * every array of that length it makes.
 */
export function evaluateMathChannels(task: MathTask, arrays?: EvaluationArrays): StoredSlice[] {
  const fastest = task.baseInput !== undefined ? task.inputs.find((s) => s.name === task.baseInput) : fastestOf(task.inputs);
  let base: TimeBase;
  let frequency: number;
  const rate = task.rate;
  if (rate !== undefined) {
    const grid = task.grid ?? rateGrid(task.inputs, task.span, rate);
    base = { ...(task.origin ?? { start: grid.start, offset: 0 }), rate, length: grid.length };
    frequency = rate;
  } else if (fastest) {
    base = fastest.times ? { times: fastest.times } : { ...(task.origin ?? { start: fastest.startTime, offset: 0 }), rate: fastest.frequency, length: fastest.samples.length };
    frequency = fastest.frequency;
  } else {
    throw new Error('a math channel that reads no channel needs a Rate');
  }
  const n = 'times' in base ? base.times.length : base.length;
  let times: Float64Array | undefined = 'times' in base ? base.times : undefined;
  const time = (): Float64Array => (times ??= regularTimes((base as RegularBase).start, (base as RegularBase).rate, n, (base as RegularBase).offset));

  // No prototype: a file's channel named __proto__ is a key like any other (on {} it set the object's prototype).
  const inputs: Record<string, ExpressionInput> = Object.create(null) as Record<string, ExpressionInput>;
  for (const slice of task.inputs) {
    if (rate === undefined && slice === fastest) inputs[slice.name] = new StoredSource(slice, n);
    else if (!('times' in base) && !slice.times && onBase(slice, base)) inputs[slice.name] = new StoredSource(slice, n);
    else if (!('times' in base) && !slice.times) inputs[slice.name] = new RegularResampler(physicalOf(slice), slice.startTime, slice.frequency, base);
    else inputs[slice.name] = new TimesResampler(timesOf(slice), physicalOf(slice), time());
  }
  // What a definition may read: the inputs and the definitions before it (one named pi or e is read quoted: "pi").
  const available = new Set(Object.keys(inputs));
  const params = new Map(task.params ?? []);
  const compiled = task.definitions.map((definition) => {
    const expression = compile(definition.expression, { inputs: available, math: true, params });
    available.add(definition.name);
    return { name: definition.name, expression, decimalPlaces: definition.decimalPlaces };
  });
  const context: EvaluationContext = {};
  if (compiled.some((c) => c.expression.needs.time)) context.time = time();
  if (task.laps && compiled.some((c) => c.expression.needs.lapTime)) context.lapTime = lapTime(time(), task.laps);
  if (task.laps && task.distance && compiled.some((c) => c.expression.needs.lapDistance)) context.lapDistance = lapDistanceOf(time(), task.laps, task.distance);
  if (task.laps && compiled.some((c) => c.expression.needs.lapNumber)) context.lapNumber = lapNumbers(time(), task.laps);
  const values = new Map<string, Float64Array>();
  // What the definitions after each one read: one with DecimalPlaces is rounded as soon as it is evaluated when another
  // reads it, so they read what is sent of it (a channel read alone is rounded as it is sent, in one pass).
  const readLater = new Set(compiled.flatMap((c) => c.expression.inputs));
  // The last definition reading each: a definition no channel is is given back after it.
  const lastReader = new Map<string, number>();
  compiled.forEach((c, k) => c.expression.inputs.forEach((input) => lastReader.set(input, k)));
  const channels = new Set(task.channels.map((c) => c.name));
  const options = arrays ? { allocate: arrays.take, release: arrays.release } : {};
  compiled.forEach(({ name, expression, decimalPlaces }, k) => {
    const result = expression.evaluate(inputs, n, context, options);
    // Infinite results are gaps for every reader: made so here when the channel is rounded or read by another
    // definition, else as it is sent (physicalValues).
    if (decimalPlaces !== undefined || readLater.has(name)) infinitiesToGaps(result);
    if (decimalPlaces !== undefined && readLater.has(name)) roundToPlaces(result, decimalPlaces);
    values.set(name, result);
    inputs[name] = result;
    for (const read of [...expression.inputs, name]) {
      const done = values.get(read);
      if (!done || channels.has(read) || (lastReader.get(read) ?? -1) > k) continue;
      values.delete(read);
      delete inputs[read];
      arrays?.release(done);
    }
  });
  const placesOf = new Map(compiled.map((c) => [c.name, c.decimalPlaces]));
  // The read's own samples of a context evaluated beyond its scope: each channel's copied out, its context array given back.
  const keep = task.keep && (task.keep.from > 0 || task.keep.to < n) ? task.keep : undefined;
  if (keep) {
    const m = keep.to - keep.from;
    for (const name of new Set(task.channels.map((c) => c.name))) {
      const whole = values.get(name);
      if (!whole) continue;
      const kept = arrays ? arrays.take(m) : new Float64Array(m);
      kept.set(whole.subarray(keep.from, keep.to));
      arrays?.release(whole);
      values.set(name, kept);
    }
    if ('times' in base) base = { times: base.times.slice(keep.from, keep.to) };
  }
  const length = keep ? keep.to - keep.from : n;
  // A regular base's first time as the read's own samples have it (the context's start plus an offset may differ in its last bit).
  const startTime = 'times' in base ? (base.times[0] ?? task.span.start) : length === 0 ? task.span.start : keep ? keep.startTime : base.start + base.offset / base.rate;
  // Each slice owns its arrays (they are transferred on their own): a channel named twice, or a second channel's
  // times, gets a copy.
  const taken = new Set<ArrayBufferLike>();
  const own = <T extends Float64Array>(array: T): T => {
    if (!taken.has(array.buffer)) {
      taken.add(array.buffer);
      return array;
    }
    const copy = array.slice() as T;
    taken.add(copy.buffer);
    return copy;
  };
  // Every channel's own array first: the codes of a rounded one are written over its array, after any copy of it is made.
  const results = task.channels.map(({ name }) => own(values.get(name) ?? new Float64Array(length)));
  return task.channels.map(({ name, unit }, k) => {
    const places = placesOf.get(name);
    const result = results[k] as Float64Array;
    // Rounded: a logged scaled channel's codes (over its array), or the rounded float64 values; else the values.
    const sent = places !== undefined ? decimalValues(result, places) : physicalValues(result);
    return {
      name,
      unit,
      frequency,
      dimension: 1,
      startTime,
      ...sent,
      ...('times' in base ? { times: own(base.times) } : {}),
    };
  });
}

/** The input whose times are the time base without a Rate: the fastest, the first of the fastest in reading order. */
export function fastestOf<T extends { frequency: number }>(inputs: readonly T[]): T | undefined {
  return inputs.reduce<T | undefined>((best, s) => (!best || s.frequency > best.frequency ? s : best), undefined);
}

/** Seconds within which a grid time counts as at a span's end: float noise of times (a file from 100,000 s has ulps of 1.5e-11 s). */
export const GRID_END_TOLERANCE_S = 1e-9;

/**
 * The samples of a Rate's grid over `span` seconds from its first point: one every 1 / rate, the last at most at the
 * span's end, within a nanosecond. (A tolerance in samples instead lost the last point of a 10 kHz grid over a file
 * whose times start at 100,000 s, and reached a millisecond past the end at 1 mHz.)
 */
export function rateGridLength(span: number, rate: number): number {
  return Math.floor((span + GRID_END_TOLERANCE_S) * rate) + 1;
}

/**
 * The points of a Rate's grid from `start` in the half-open window [start, end): start + k / rate before the end, a
 * point within float noise of the end (a few ulps of the times) left out, as a logged channel's window leaves out a
 * sample there (sampleIndexRange in @pitwall/formats). None when the window is empty; at most `most` (a grid's own
 * length, when the window may run past it: an end of Infinity, a read with no duration, gives `most`).
 */
export function rateGridLengthBefore(start: number, end: number, rate: number, most = Number.MAX_SAFE_INTEGER): number {
  if (!(end > start)) return 0;
  // Infinity less a margin of Infinity is NaN: an endless window holds every point.
  const limit = Number.isFinite(end) ? end - 4 * Number.EPSILON * Math.max(Math.abs(start), Math.abs(end)) : end;
  let lo = 0;
  // A bound that is a safe integer, so mid + 1 always moves (above 2^53 it did not, and an endless window's bound was
  // Infinity): the search ends in at most 53 steps.
  let hi = Math.min(Math.max(0, most), Number.MAX_SAFE_INTEGER, Math.ceil((end - start) * rate) + 1);
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (start + mid / rate < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A Rate's grid: from the inputs' first sample to their last (each on the grid when it falls on it), or, for a
 * channel that reads none, over the half-open span [start, end) (the read's window clipped to the file), as a logged
 * channel's samples in the window.
 */
export function rateGrid(inputs: readonly Pick<StoredSlice, 'startTime' | 'frequency' | 'samples' | 'times'>[], span: { start: number; end: number }, rate: number): { start: number; length: number } {
  if (!inputs.length) return { start: span.start, length: rateGridLengthBefore(span.start, span.end, rate) };
  const { first, last } = rateBounds(inputs, span);
  return { start: first, length: Number.isFinite(first) && Number.isFinite(last) && last >= first ? rateGridLength(last - first, rate) : 0 };
}

/** Where a Rate's grid runs: from the first to the last sample of the inputs, or over the span when there is none. */
export function rateBounds(inputs: readonly Pick<StoredSlice, 'startTime' | 'frequency' | 'samples' | 'times'>[], span: { start: number; end: number }): { first: number; last: number } {
  if (!inputs.length) return { first: span.start, last: span.end };
  return { first: Math.min(...inputs.map((s) => firstTime(s) ?? Infinity)), last: Math.max(...inputs.map((s) => lastTime(s) ?? -Infinity)) };
}

/** The time base: a regular grid, start + k / rate for k in [0, length), or the sample times of an irregular input. */
interface RegularBase {
  start: number;
  /** The first point's index on the grid start + k / rate (MathTask.origin): 0 but in a context. */
  offset: number;
  rate: number;
  length: number;
}
type TimeBase = RegularBase | { times: Float64Array };

/** start + k / rate: the same numbers as the times of a regular slice and of a Rate's grid. */
function regularTimes(start: number, rate: number, n: number, offset = 0): Float64Array {
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) out[k] = start + (offset + k) / rate;
  return out;
}

function firstTime(slice: Pick<StoredSlice, 'startTime' | 'frequency' | 'samples' | 'times'>): number | undefined {
  if (slice.times) return slice.times[0];
  return slice.samples.length ? slice.startTime + 0 / slice.frequency : undefined;
}

function lastTime(slice: Pick<StoredSlice, 'startTime' | 'frequency' | 'samples' | 'times'>): number | undefined {
  if (slice.times) return slice.times[slice.times.length - 1];
  const n = slice.samples.length;
  return n ? slice.startTime + (n - 1) / slice.frequency : undefined;
}

/**
 * A regular input whose sample k is at the base's time k for every k of the base: its values need no resampling.
 * Only where the times rise strictly (a step wider than twice the rounding of the largest time), since
 * interpolateLinear would take the first of two equal times.
 */
function onBase(slice: StoredSlice, base: RegularBase): boolean {
  return (
    slice.startTime === base.start + base.offset / base.rate &&
    slice.frequency === base.rate &&
    slice.samples.length >= base.length &&
    (Math.abs(base.start) + (base.offset + base.length) / base.rate) * Number.EPSILON * 4 < 1 / base.rate
  );
}

/**
 * An input resampled linearly onto base times block by block (its own times, the base's given): interpolateLinear's
 * numbers without a whole-length array (NaN outside the input's samples and next to a gap; a base time equal to a
 * sample's takes the sample; the first of repeated times). Sample j of the base takes input sample lowerBound(xs, x):
 * found walking on from the last block's, or by binary search when the times go back (a block read again).
 */
class TimesResampler implements SampleSource {
  readonly length: number;
  private readonly first: number;
  private readonly last: number;
  private i = 0;
  private previous = -Infinity;

  constructor(
    private readonly xs: Float64Array,
    private readonly ys: Float64Array,
    private readonly at: Float64Array,
  ) {
    this.length = at.length;
    const n = xs.length;
    this.first = n ? (xs[0] as number) : Infinity;
    this.last = n ? (xs[n - 1] as number) : -Infinity;
  }

  read(from: number, count: number, out: Float64Array): void {
    const { xs, ys, at, first, last } = this;
    let i = this.i;
    let previous = this.previous;
    for (let j = 0; j < count; j++) {
      const x = at[from + j] as number;
      if (!(x >= first && x <= last)) {
        out[j] = NaN;
        continue;
      }
      if (x < previous) i = lowerBound(xs, x);
      else while ((xs[i] as number) < x) i++;
      previous = x;
      if (xs[i] === x) {
        out[j] = ys[i] as number;
        continue;
      }
      const y0 = ys[i - 1] as number;
      const y1 = ys[i] as number;
      const x0 = xs[i - 1] as number;
      out[j] = y0 !== y0 || y1 !== y1 ? NaN : y0 + ((y1 - y0) * (x - x0)) / ((xs[i] as number) - x0);
    }
    this.i = i;
    this.previous = previous;
  }
}

/** A stored slice's physical values, block by block (conversion applied, NaN at its gaps), as the expression reads them. */
class StoredSource implements SampleSource {
  constructor(
    private readonly slice: StoredSlice,
    readonly length: number,
  ) {}

  read(from: number, count: number, out: Float64Array): void {
    const { samples, conversion, gaps } = this.slice;
    convertInto(samples, conversion, from, count, out);
    if (gaps) for (let i = 0; i < count; i++) if (gaps[from + i] === 1) out[i] = NaN;
  }
}

/**
 * A regular input (sample i at start + i / rate) resampled linearly onto a regular base, block by block in one forward
 * pass: interpolateLinear's arithmetic with both sets of times computed instead of stored (NaN outside the input's
 * samples and next to a gap; a base time equal to a sample's takes the sample).
 */
class RegularResampler implements SampleSource {
  readonly length: number;
  private readonly first: number;
  private readonly last: number;
  /** The first input sample at or after the last base time read; the next block continues from it. */
  private i = 0;
  private next = 0;

  constructor(
    private readonly values: Float64Array,
    private readonly start: number,
    private readonly rate: number,
    private readonly base: RegularBase,
  ) {
    this.length = base.length;
    const n = values.length;
    this.first = n ? start + 0 / rate : Infinity;
    this.last = n ? start + (n - 1) / rate : -Infinity;
  }

  read(from: number, count: number, out: Float64Array): void {
    // Base times only rise, so the search goes on from the last block's; a read from an earlier block starts over.
    if (from < this.next) this.i = 0;
    this.next = from + count;
    const { values, start, rate, first, last } = this;
    const baseStart = this.base.start;
    const baseOffset = this.base.offset;
    const baseRate = this.base.rate;
    let i = this.i;
    // xi and x0: the times of samples i and i - 1, each computed once as i moves (the same expression, the same number).
    let xi = start + i / rate;
    let x0 = start + (i - 1) / rate;
    for (let j = 0; j < count; j++) {
      const x = baseStart + (baseOffset + from + j) / baseRate;
      if (!(x >= first && x <= last)) {
        out[j] = NaN;
        continue;
      }
      while (xi < x) {
        i++;
        x0 = xi;
        xi = start + i / rate;
      }
      if (xi === x) {
        out[j] = values[i];
        continue;
      }
      const y0 = values[i - 1];
      const y1 = values[i];
      out[j] = y0 !== y0 || y1 !== y1 ? NaN : y0 + ((y1 - y0) * (x - x0)) / (xi - x0);
    }
    this.i = i;
  }
}

/**
 * lapDistance(): metres since each time's lap line, as the lap distance read (`.../distance`) gives them, NaN outside
 * every lap: each lap's trace from its own samples of the distance source (lapDistances: from the line, the first
 * sample already some way into the lap, a distance channel's restart placed), the line itself (0 s, 0 m) before the
 * first sample, and the samples past the lap's end after its last (two), so that a time between the lap's last sample
 * and its end is read between them rather than left a gap; interpolated linearly at each time of the lap.
 */
function lapDistanceOf(time: Float64Array, laps: readonly { start: number; end: number }[], d: NonNullable<MathTask['distance']>): Float64Array {
  const times = timesOf(d.slice);
  const values = physicalOf(d.slice);
  const ranges = d.laps ?? laps.map((l) => ({ from: lowerBound(times, l.start), to: lowerBound(times, l.end) }));
  const out = new Float64Array(time.length).fill(NaN);
  const lapAt = lapWalk(laps);
  // The base's times only rise: each lap's are one run, read against that lap's trace.
  let i = 0;
  while (i < time.length) {
    const k = lapAt(time[i] as number);
    let j = i + 1;
    while (j < time.length && lapAt(time[j] as number) === k) j++;
    if (k >= 0) {
      const lap = laps[k] as { start: number };
      const trace = lapTraceOf(times, values, ranges[k] as { from: number; to: number }, lap.start, { kind: d.source.kind, unit: d.slice.unit });
      const at = new Float64Array(j - i);
      // A time within rounding before the line is on it (lapWalk): at 0 s of the lap.
      for (let m = 0; m < at.length; m++) at[m] = Math.max(0, (time[i + m] as number) - lap.start);
      out.set(interpolateLinear(trace.times, trace.distances, at), i);
    }
    i = j;
  }
  return out;
}

/**
 * One lap's distance trace, times from its line: lapDistances over the lap's samples [from, to) (those of the lap
 * distance read), the line (0 s, 0 m) first when the first sample comes after it, and the samples past the lap's end
 * last (their distance carried on from the lap's, the lap's own samples as lapDistances gives them without them).
 */
function lapTraceOf(times: Float64Array, values: Float64Array, range: { from: number; to: number }, lapStart: number, source: { kind: 'channel' | 'integrated'; unit: string }): { times: Float64Array; distances: Float64Array } {
  const { from, to } = range;
  // Two samples past the lap's end, when the slice has them: a time of the base within rounding of the first is then
  // still between two of the trace's.
  const end = Math.min(times.length, to + 2);
  const relative = new Float64Array(Math.max(0, end - from));
  for (let m = 0; m < relative.length; m++) relative[m] = (times[from + m] as number) - lapStart;
  const lapValues = values.subarray(from, from + relative.length);
  const distances = lapDistances(relative, lapValues, source);
  // A distance channel's restart is looked for over the lap's own samples only, as the lap distance read does.
  if (source.kind === 'channel' && end > to && to > from) distances.set(lapDistances(relative.subarray(0, to - from), lapValues.subarray(0, to - from), source));
  let first = 0;
  while (first < relative.length && !(Number.isFinite(relative[first]) && Number.isFinite(distances[first]))) first++;
  if (first === relative.length || !((relative[first] as number) > 0 && (distances[first] as number) >= 0)) return { times: relative, distances };
  const withLine = { times: new Float64Array(relative.length + 1), distances: new Float64Array(relative.length + 1) };
  withLine.times.set(relative, 1);
  withLine.distances.set(distances, 1);
  return withLine;
}

function timesOf(slice: StoredSlice): Float64Array {
  return slice.times ?? regularTimes(slice.startTime, slice.frequency, slice.samples.length);
}

/** Physical values of a numeric slice as float64, NaN at its gaps, in one pass. */
function physicalOf(slice: StoredSlice): Float64Array {
  const values = new Float64Array(slice.samples.length);
  new StoredSource(slice, values.length).read(0, values.length, values);
  return values;
}

/**
 * The index of the lap holding a time ([start, end), the last lap's end included), -1 outside every lap, for times
 * asked in increasing order (the walk goes on from the last one's lap). A time within the rounding of its magnitude
 * (a few ulps) of a lap's start is on it, as a lap read's window takes a sample there (sampleIndexRange in
 * @pitwall/formats): a sample on the line is in the lap it starts whatever read computed its time.
 */
function lapWalk(laps: readonly { start: number; end: number }[]): (t: number) => number {
  let k = 0;
  const from = (x: number) => x - 4 * Number.EPSILON * Math.abs(x);
  return (t) => {
    while (k < laps.length - 1 && t >= from((laps[k] as { end: number }).end)) k++;
    const lap = laps[k];
    return lap && t >= from(lap.start) && (t < from(lap.end) || (k === laps.length - 1 && t <= lap.end + 4 * Number.EPSILON * Math.abs(lap.end))) ? k : -1;
  };
}

/** The index of the lap holding each time ([start, end), the last lap's end included), -1 outside every lap. */
export function lapIndexOf(time: Float64Array, laps: readonly { start: number; end: number }[]): Int32Array {
  const lapAt = lapWalk(laps);
  return Int32Array.from(time, lapAt);
}

/** The index of each time's lap among the file's laps (lapNumber()), NaN outside every lap: one array of the times' length. */
export function lapNumbers(time: Float64Array, laps: readonly { start: number; end: number; index: number }[]): Float64Array {
  const lapAt = lapWalk(laps);
  const out = new Float64Array(time.length);
  for (let i = 0; i < time.length; i++) {
    const k = lapAt(time[i] as number);
    out[i] = k < 0 ? NaN : (laps[k] as { index: number }).index;
  }
  return out;
}

/**
 * Seconds since the start of each time's lap, NaN outside every lap: one array of the times' length. Each to the
 * nanosecond, as every time the service answers: 65.16 s into a lap is 65.16, not the difference's 65.16000000000001.
 */
export function lapTime(time: Float64Array, laps: readonly { start: number; end: number }[]): Float64Array {
  const lapAt = lapWalk(laps);
  const out = new Float64Array(time.length);
  for (let i = 0; i < time.length; i++) {
    const k = lapAt(time[i] as number);
    out[i] = k < 0 ? NaN : toNanosecond((time[i] as number) - (laps[k] as { start: number }).start);
  }
  return out;
}
