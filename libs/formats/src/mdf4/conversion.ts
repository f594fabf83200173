import { type CompiledExpression, compile, ExpressionError } from '@pitwall/expressions';
import type { BinaryView } from '../binary-view';
import { UnsupportedFeatureError } from '../errors';
import type { ChannelLabel } from '../model';
import { readBlock, readText } from './blocks';

/** A channel conversion (##CC) reduced to what decoding needs. */
export type Conversion =
  | { kind: 'identity' }
  | { kind: 'linear'; offset: number; factor: number }
  | { kind: 'rational'; p: number[] }
  /** cc_type 3: the formula of the first reference, in the variable X (the raw value). */
  | { kind: 'algebraic'; formula: string; expression: CompiledExpression }
  | { kind: 'table'; keys: number[]; values: number[]; interpolate: boolean }
  | { kind: 'range-value'; ranges: RangeTable; fallback: number }
  /** Samples stay raw codes; the labels travel in the catalogue. */
  | { kind: 'text'; labels: ChannelLabel[]; defaultLabel?: string }
  | { kind: 'unsupported'; feature: string };

const CC = { type: 0, refCount: 4, valCount: 6, values: 24 } as const;
const IDENTITY: Conversion = { kind: 'identity' };

export function readConversion(bin: BinaryView, offset: number): { conversion: Conversion; unit: string } {
  if (offset === 0) return { conversion: IDENTITY, unit: '' };
  const block = readBlock(bin, offset, ['CC']);
  if (block.dataLength < CC.values) throw bin.corrupt('##CC data section is too short', block.data);
  const type = bin.u8(block.data + CC.type);
  const refCount = bin.u16(block.data + CC.refCount);
  const valCount = bin.u16(block.data + CC.valCount);
  if (CC.values + valCount * 8 > block.dataLength) throw bin.corrupt(`##CC declares ${valCount} values but has room for fewer`, block.data + CC.valCount);
  if (4 + refCount > block.links.length) throw bin.corrupt(`##CC declares ${refCount} references but has fewer links`, block.data + CC.refCount);
  const vals = Array.from({ length: valCount }, (_, i) => bin.f64(block.data + CC.values + i * 8));
  const refs = block.links.slice(4, 4 + refCount);
  const unit = readText(bin, block.links[1]);
  const need = (count: number) => {
    if (valCount < count) throw bin.corrupt(`##CC type ${type} needs ${count} values, has ${valCount}`, block.data + CC.valCount);
  };

  switch (type) {
    case 0:
      return { conversion: IDENTITY, unit };
    case 1:
      need(2);
      return { conversion: { kind: 'linear', offset: vals[0], factor: vals[1] }, unit };
    case 2:
      need(6);
      return { conversion: { kind: 'rational', p: vals.slice(0, 6) }, unit };
    case 3:
      return { conversion: algebraic(bin, refs[0] ?? 0), unit };
    case 4:
    case 5: {
      const n = Math.floor(valCount / 2);
      if (n === 0) throw bin.corrupt('##CC table has no entries', block.data + CC.valCount);
      const keys = Array.from({ length: n }, (_, i) => vals[2 * i]);
      const values = Array.from({ length: n }, (_, i) => vals[2 * i + 1]);
      return { conversion: { kind: 'table', keys, values, interpolate: type === 4 }, unit };
    }
    case 6: {
      const n = Math.floor((valCount - 1) / 3);
      need(1);
      const mins = Array.from({ length: n }, (_, i) => vals[3 * i]);
      const maxs = Array.from({ length: n }, (_, i) => vals[3 * i + 1]);
      return { conversion: { kind: 'range-value', ranges: rangeTable(mins, maxs, Array.from({ length: n }, (_, i) => vals[3 * i + 2])), fallback: vals[3 * n] }, unit };
    }
    case 7:
    case 8: {
      const ranged = type === 8;
      const n = ranged ? Math.floor(valCount / 2) : valCount;
      if (refs.length < n) throw bin.corrupt(`##CC text table has ${n} keys but ${refs.length} texts`, block.data + CC.refCount);
      const labels: ChannelLabel[] = [];
      for (let i = 0; i < n; i++) {
        const text = refText(bin, refs[i]);
        if (text === null) return { conversion: { kind: 'unsupported', feature: 'conversion nested in a text table' }, unit };
        labels.push(ranged ? { min: vals[2 * i], max: vals[2 * i + 1], text } : { min: vals[i], max: vals[i], text });
      }
      const fallback = refs.length > n ? refText(bin, refs[n]) : '';
      if (fallback === null) return { conversion: { kind: 'unsupported', feature: 'conversion nested in a text table' }, unit };
      return { conversion: { kind: 'text', labels, ...(fallback ? { defaultLabel: fallback } : {}) }, unit };
    }
    default:
      return { conversion: { kind: 'unsupported', feature: `conversion type ${type}` }, unit };
  }
}

/** An algebraic conversion is read without eval; a formula that does not parse, or calls an unknown function, refuses the channel. */
function algebraic(bin: BinaryView, link: number): Conversion {
  const formula = link === 0 ? '' : readText(bin, link);
  try {
    return { kind: 'algebraic', formula, expression: compile(formula, { inputs: [ALGEBRAIC_VARIABLE] }) };
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    return { kind: 'unsupported', feature: `algebraic conversion ${JSON.stringify(formula)}: ${error.message}` };
  }
}

/** The raw value's name in an MDF 4 formula (MDF 3 writes X1). */
const ALGEBRAIC_VARIABLE = 'X';

/** Text of a TX/MD reference, '' for none, null when the reference is a nested conversion. */
function refText(bin: BinaryView, link: number): string | null {
  if (link === 0) return '';
  const block = readBlock(bin, link);
  if (block.id === 'CC') return null;
  return readText(bin, link);
}

/**
 * Applies a numeric conversion in place; `integerRaw` selects the closed range rule of range tables. `channel` names
 * the channel converted in the refusal of a formula that cannot be evaluated.
 */
export function applyConversion(conversion: Conversion, values: Float64Array, integerRaw: boolean, channel?: string): void {
  const n = values.length;
  switch (conversion.kind) {
    case 'identity':
    case 'text':
    case 'unsupported':
      return;
    case 'linear': {
      const { offset, factor } = conversion;
      for (let i = 0; i < n; i++) values[i] = values[i] * factor + offset;
      return;
    }
    case 'algebraic':
      values.set(evaluateAlgebraic(conversion, values, channel));
      return;
    case 'rational': {
      const [p1, p2, p3, p4, p5, p6] = conversion.p;
      for (let i = 0; i < n; i++) {
        const x = values[i];
        values[i] = (p1 * x * x + p2 * x + p3) / (p4 * x * x + p5 * x + p6);
      }
      return;
    }
    case 'table':
      for (let i = 0; i < n; i++) values[i] = lookUp(conversion.keys, conversion.values, values[i], conversion.interpolate);
      return;
    case 'range-value':
      for (let i = 0; i < n; i++) values[i] = rangeValue(conversion, values[i], integerRaw);
      return;
  }
}

/**
 * A formula over every raw value at once; one that reads no X (a constant such as `5`) is that value for every sample.
 * Whatever stops the evaluation refuses the channel as UNSUPPORTED, naming it and its formula.
 */
function evaluateAlgebraic(conversion: Extract<Conversion, { kind: 'algebraic' }>, values: Float64Array, channel: string | undefined): Float64Array {
  try {
    return conversion.expression.evaluate({ [ALGEBRAIC_VARIABLE]: values }, values.length);
  } catch (error) {
    const of = channel === undefined ? '' : ` of channel ${channel}`;
    throw new UnsupportedFeatureError('mdf4', `algebraic conversion ${JSON.stringify(conversion.formula)}${of}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Outside the keys the end values hold; without interpolation the nearer key wins, the lower on a tie. */
function lookUp(keys: number[], values: number[], x: number, interpolate: boolean): number {
  const last = keys.length - 1;
  if (!(x > keys[0])) return values[0];
  if (x >= keys[last]) return values[last];
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (keys[mid] <= x) lo = mid;
    else hi = mid;
  }
  if (interpolate) return values[lo] + ((values[hi] - values[lo]) * (x - keys[lo])) / (keys[hi] - keys[lo]);
  return x - keys[lo] <= keys[hi] - x ? values[lo] : values[hi];
}

/**
 * A value-range table (cc_type 6) cut into the pieces its range ends make: each end `points[k]`, and the open stretch
 * from it to the next, with the value of the first declared range that holds it. A sample costs a binary search, not a
 * pass over the ranges (a file may declare 21,844 of them: samples times ranges blocked a worker for minutes).
 * `closed` is the range that holds the point under the integer rule (lower ≤ x ≤ upper), `after` the one that holds the
 * stretch, which also holds the point under the float rule (lower ≤ x < upper); -1 where none does (the default's).
 */
export interface RangeTable {
  points: Float64Array;
  closed: Int32Array;
  after: Int32Array;
  values: Float64Array;
}

function rangeTable(mins: readonly number[], maxs: readonly number[], values: readonly number[]): RangeTable {
  // Ranges with a NaN end hold nothing (every comparison with NaN is false); ranges whose lower end passes the upper too.
  const usable = mins.map((_, i) => i).filter((i) => mins[i] <= maxs[i]);
  const points = Float64Array.from(new Set(usable.flatMap((i) => [mins[i], maxs[i]]))).sort();
  const closed = new Int32Array(points.length);
  const after = new Int32Array(points.length);
  const byMin = [...usable].sort((a, b) => mins[a] - mins[b]);
  // Ranges ending at each point, the first declared of them (its closed value).
  const firstEnding = new Map<number, number>();
  for (const i of usable) if (!firstEnding.has(maxs[i])) firstEnding.set(maxs[i], i);
  // The ranges begun so far, the first declared on top; one that ends at or before the point is dropped when on top.
  const open = new IndexHeap();
  let next = 0;
  for (let k = 0; k < points.length; k++) {
    const p = points[k];
    while (next < byMin.length && mins[byMin[next]] <= p) open.push(byMin[next++]);
    while (open.size > 0 && maxs[open.top] <= p) open.pop();
    const stretch = open.size > 0 ? open.top : -1;
    const ending = firstEnding.get(p) ?? -1;
    after[k] = stretch;
    closed[k] = stretch < 0 ? ending : ending < 0 ? stretch : Math.min(stretch, ending);
  }
  return { points, closed, after, values: Float64Array.from(values) };
}

/** A binary min-heap of range indices: the first declared on top. */
class IndexHeap {
  private readonly items: number[] = [];
  get size(): number {
    return this.items.length;
  }
  get top(): number {
    return this.items[0] as number;
  }
  push(value: number): void {
    const items = this.items;
    let at = items.push(value) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (items[parent] <= value) break;
      items[at] = items[parent];
      at = parent;
    }
    items[at] = value;
  }
  pop(): void {
    const items = this.items;
    const last = items.pop() as number;
    if (items.length === 0) return;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= items.length) break;
      if (child + 1 < items.length && items[child + 1] < items[child]) child++;
      if (items[child] >= last) break;
      items[at] = items[child];
      at = child;
    }
    items[at] = last;
  }
}

function rangeValue(c: Extract<Conversion, { kind: 'range-value' }>, x: number, integerRaw: boolean): number {
  const { points, closed, after, values } = c.ranges;
  // The last point at or below x (none: below every range, or NaN).
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  const k = lo - 1;
  if (k < 0) return c.fallback;
  const range = x === points[k] && integerRaw ? closed[k] : after[k];
  return range < 0 ? c.fallback : values[range];
}
