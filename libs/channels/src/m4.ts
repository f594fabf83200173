import { applyConversion, type PhysicalSampleArray } from './conversion';
import { type ChannelSeries, physicalSamples } from './series';
import { toNanosecond } from './time';

/** A physical series over a time window, as M4 reads it. */
export interface M4Input {
  samples: PhysicalSampleArray;
  /** Explicit times of the samples; when absent, sample i is at startTime + i / frequency. */
  times?: Float64Array;
  startTime: number;
  frequency: number;
  gaps?: Uint8Array;
}

export interface M4Options {
  /** At most this many points come back; at least 4 (one bucket of first, min, max, last). */
  maxPoints: number;
  /** Time span the buckets divide, [start, end); defaults to the first sample's time and one period past the last. */
  start?: number;
  end?: number;
}

export interface M4Output {
  samples: Float64Array;
  times: Float64Array;
  /** 1 where the point is a gap (its sample NaN); absent when none is. */
  gaps?: Uint8Array;
}

/**
 * M4 aggregation (Jugel et al., VLDB 2014): the window is cut into equal time buckets; of each bucket the first,
 * minimum, maximum and last present sample are kept (once each, in time order), so a line chart as wide as the bucket
 * count is drawn exactly as from every sample. Gaps stay breaks: where gap samples lie between one bucket's last
 * present sample and the next one's first, or between two kept samples of one bucket, the first of them is kept as a
 * gap point (NaN, flagged in `gaps`), so the chart does not join across missing data. Buckets: floor(maxPoints / 4);
 * when the series has gaps floor(maxPoints / 5), or floor(maxPoints / 8) when that gave more than maxPoints points (a
 * bucket's 4 points, 3 gaps between them and 1 before), so never more than maxPoints points; under 8 points, one
 * bucket without its inner gaps. A series of at most maxPoints samples comes back whole, gaps included; a longer one
 * with no present sample at all, as its first and last samples, both gap points. A NaN or an infinity among the samples
 * counts as a gap.
 */
export function m4(input: M4Input, options: M4Options): M4Output {
  const { maxPoints } = options;
  if (!Number.isInteger(maxPoints) || maxPoints < 4) throw new RangeError(`maxPoints ${maxPoints} must be an integer of at least 4`);
  const { samples, times, gaps, startTime, frequency } = input;
  const n = samples.length;
  const timeAt = times ? (i: number) => times[i] : (i: number) => startTime + i / frequency;
  // Buckets are found on the computed times (as the int16 path finds them); a point's time is given to the nanosecond.
  const pointTime = times ? timeAt : (i: number) => toNanosecond(timeAt(i));
  // A NaN or infinity the file stores is no value to draw (nor a bucket's minimum or maximum): a gap here, as JSON has it.
  const present = (i: number) => gaps?.[i] !== 1 && Number.isFinite(samples[i]);

  const isGap = (i: number) => !present(i);
  let hasGaps = false;
  for (let i = 0; i < n && !hasGaps; i++) hasGaps = isGap(i);
  if (n <= maxPoints) return collect(samples, pointTime, () => true, n, n, hasGaps ? isGap : undefined);
  // Nothing present at all: its first and last samples as gap points, so the read still spans the samples it holds (as
  // the whole read's nulls do) rather than looking like a window without samples.
  if (hasGaps && !hasPresent(n, present)) return collect(samples, pointTime, (i) => i === 0 || i === n - 1, n, 2, () => true);

  const start = options.start ?? timeAt(0);
  const end = options.end ?? timeAt(n - 1) + (frequency > 0 ? 1 / frequency : 0);
  const pass = (buckets: number, innerGaps = true) => bucketPass(samples, n, timeAt, present, start, end, buckets, innerGaps);
  if (!hasGaps) {
    const { keep, kept } = pass(Math.floor(maxPoints / 4));
    return collect(samples, pointTime, (i) => keep[i] !== 0, n, kept);
  }
  // A gappy series: a bucket keeps at most 4 points, a gap point between each two of them (3) and one before it from
  // the previous bucket, 8 in all; most keep far fewer, so first try room for 5 a bucket, then for 8 if that was too many.
  let result = pass(Math.max(1, Math.floor(maxPoints / 5)));
  if (result.kept > maxPoints) result = pass(Math.max(1, Math.floor(maxPoints / 8)));
  // Under 8 points there is one bucket: its 4 points, without the gaps between them.
  if (result.kept > maxPoints) result = pass(1, false);
  const { keep, kept } = result;
  return collect(samples, pointTime, (i) => keep[i] !== 0, n, kept, (i) => keep[i] === 2);
}

function hasPresent(n: number, present: (i: number) => boolean): boolean {
  for (let i = 0; i < n; i++) if (present(i)) return true;
  return false;
}

/**
 * One M4 pass over `buckets` equal time buckets of [start, end): 1 marks a kept sample, 2 a kept gap point (the first
 * gap sample between two kept samples, within a bucket or from one bucket to the next).
 */
function bucketPass(
  samples: PhysicalSampleArray,
  n: number,
  timeAt: (i: number) => number,
  present: (i: number) => boolean,
  start: number,
  end: number,
  buckets: number,
  innerGaps: boolean,
): { keep: Uint8Array; kept: number } {
  const span = end - start;
  const bucketOf = (t: number) => (span > 0 ? Math.min(buckets - 1, Math.max(0, Math.floor(((t - start) / span) * buckets))) : 0);
  const keep = new Uint8Array(n);
  let bucket = -1;
  let first = -1;
  let last = -1;
  let min = -1;
  let max = -1;
  // The first gap sample after the last present one seen, while no present sample has followed it.
  let gapAfterLast = -1;
  // The gaps inside the current bucket: the first gap sample of each run of gaps that a present sample of it follows.
  const inner: number[] = [];
  const close = () => {
    if (first < 0) return;
    keep[first] = keep[last] = keep[min] = keep[max] = 1;
    if (!inner.length) return;
    const four = [first, min, max, last].sort((a, b) => a - b);
    for (let k = 1; k < 4; k++) {
      const gap = inner.find((g) => g > (four[k - 1] as number) && g < (four[k] as number));
      if (gap !== undefined) keep[gap] = 2;
    }
    inner.length = 0;
  };
  for (let i = 0; i < n; i++) {
    if (!present(i)) {
      if (first >= 0 && gapAfterLast < 0) gapAfterLast = i;
      continue;
    }
    const b = bucketOf(timeAt(i));
    if (b !== bucket) {
      close();
      if (gapAfterLast >= 0) keep[gapAfterLast] = 2;
      gapAfterLast = -1;
      bucket = b;
      first = last = min = max = i;
      continue;
    }
    if (gapAfterLast >= 0 && innerGaps) inner.push(gapAfterLast);
    gapAfterLast = -1;
    last = i;
    if (samples[i] < samples[min]) min = i;
    if (samples[i] > samples[max]) max = i;
  }
  close();
  let kept = 0;
  for (let i = 0; i < n; i++) if (keep[i]) kept++;
  return { keep, kept };
}

function collect(samples: PhysicalSampleArray, pointTime: (i: number) => number, take: (i: number) => boolean, n: number, count: number, isGap?: (i: number) => boolean): M4Output {
  const out: M4Output = { samples: new Float64Array(count), times: new Float64Array(count) };
  let gaps: Uint8Array | undefined;
  for (let i = 0, k = 0; i < n; i++) {
    if (!take(i)) continue;
    if (isGap?.(i)) {
      (gaps ??= new Uint8Array(count))[k] = 1;
      out.samples[k] = NaN;
    } else out.samples[k] = samples[i] as number;
    out.times[k++] = pointTime(i);
  }
  if (gaps) out.gaps = gaps;
  return out;
}

/** A series downsampled for display (raw values converted first): explicit times, gap points where gaps break it, the source's name, unit and rate. */
export function downsampleSeries(series: ChannelSeries, options: M4Options): ChannelSeries {
  const out = int16M4(series, options) ?? m4({ samples: physicalSamples(series), times: series.times, startTime: series.startTime, frequency: series.frequency, gaps: series.gaps }, options);
  return {
    name: series.name,
    unit: series.unit,
    frequency: series.frequency,
    dimension: series.dimension,
    startTime: out.times.length > 0 ? out.times[0] : (options.start ?? series.startTime),
    samples: out.samples,
    times: out.times,
    ...(out.gaps ? { gaps: out.gaps } : {}),
  };
}

/**
 * The same M4 straight on stored int16 values of a regular series without gaps (the common `.ld` channel): the
 * buckets' extremes are found on the raw integers and only the kept points are converted, so a whole-file read of
 * millions of samples allocates no physical copy. A linear conversion with a non-zero scale maps distinct int16 values
 * to distinct, order-preserving (or order-reversing) numbers, so the kept points are exactly those of `m4` over the
 * physical values. Anything else (other types, gaps, explicit times, a series small enough to come back whole):
 * undefined, and the general path runs.
 */
function int16M4(series: ChannelSeries, options: M4Options): M4Output | undefined {
  const { samples, conversion, startTime, frequency } = series;
  const { maxPoints } = options;
  if (!(samples instanceof Int16Array) || series.times || series.gaps || !(frequency > 0)) return undefined;
  if (!Number.isInteger(maxPoints) || maxPoints < 4 || samples.length <= maxPoints) return undefined;
  if (conversion && !(conversion.numerator !== 0 && conversion.denominator !== 0 && Number.isFinite(conversion.numerator / conversion.denominator) && Number.isFinite(conversion.offset))) return undefined;
  const n = samples.length;
  const buckets = Math.floor(maxPoints / 4);
  const start = options.start ?? startTime + 0 / frequency;
  const end = options.end ?? startTime + (n - 1) / frequency + 1 / frequency;
  const span = end - start;
  const bucketOf = (i: number) => {
    const t = startTime + i / frequency;
    return span > 0 ? Math.min(buckets - 1, Math.max(0, Math.floor(((t - start) / span) * buckets))) : 0;
  };
  // The bucket of sample i never decreases with i (each step of the formula is monotonic, rounding included): each
  // bucket is one run of samples, whose end is found by a galloping search, then scanned for its extremes.
  const kept: number[] = [];
  for (let from = 0; from < n; ) {
    const b = bucketOf(from);
    let lo = from;
    let step = 1;
    while (lo + step < n && bucketOf(lo + step) === b) {
      lo += step;
      step *= 2;
    }
    let hi = Math.min(n, lo + step);
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (bucketOf(mid) === b) lo = mid;
      else hi = mid;
    }
    const to = lo;
    let min = from;
    let max = from;
    let low = samples[from] as number;
    let high = low;
    for (let i = from + 1; i <= to; i++) {
      const v = samples[i] as number;
      if (v < low) {
        low = v;
        min = i;
      }
      if (v > high) {
        high = v;
        max = i;
      }
    }
    // Within a bucket the four are between first and last; buckets follow each other in sample order.
    const four = [from, min, max, to].sort((x, y) => x - y);
    for (let k = 0; k < 4; k++) if (k === 0 || four[k] !== four[k - 1]) kept.push(four[k] as number);
    from = to + 1;
  }
  const raw = new Int16Array(kept.length);
  const times = new Float64Array(kept.length);
  for (let k = 0; k < kept.length; k++) {
    const i = kept[k] as number;
    raw[k] = samples[i] as number;
    times[k] = toNanosecond(startTime + i / frequency);
  }
  // With a negative scale the raw minimum is the physical maximum: both are kept either way.
  return { samples: Float64Array.from(conversion ? applyConversion(raw, conversion) : raw), times };
}
