/**
 * The math pool task as it was before its inputs were read block by block (every input converted to a whole float64
 * array with a whole array of times, resampled with interpolateLinear), kept as the reference the optimised
 * evaluateMathChannel must match sample for sample. Test-only.
 */
import { applyConversion, IDENTITY, toNanosecond } from '@pitwall/channels';
import { compile, type EvaluationContext } from '@pitwall/expressions';
import { interpolateLinear, lapDistances } from '@pitwall/laps';
// The lap helpers the block reading left as they were: the reference uses them as the task does.
import { lapIndexOf, type MathChannelTask } from '../../src/workers/math-channels';
import type { StoredSlice } from '../../src/workers/shape-channels';

/**
 * Evaluates a math channel over one time base: the fastest input's sample times (or a grid at the definition's Rate),
 * every input resampled linearly onto it (NaN outside an input's samples and next to its gaps, so gaps stay gaps), the
 * definitions it reads evaluated on the same base before it. The result is a slice of physical values (identity
 * conversion) the read shapes like any logged channel's; NaN samples are its gaps.
 */
export function referenceMathChannel(task: MathChannelTask): StoredSlice {
  const physical = task.inputs.map((slice) => ({ slice, times: timesOf(slice), values: physicalOf(slice) }));
  const fastest = physical.reduce<(typeof physical)[number] | undefined>((best, p) => (!best || p.slice.frequency > best.slice.frequency ? p : best), undefined);
  let time: Float64Array;
  let frequency: number;
  let regular = true;
  const rate = task.rate;
  if (rate !== undefined) {
    const first = physical.length ? Math.min(...physical.map((p) => p.times[0] ?? Infinity)) : task.span.start;
    const last = physical.length ? Math.max(...physical.map((p) => p.times[p.times.length - 1] ?? -Infinity)) : task.span.end;
    const n = Number.isFinite(first) && Number.isFinite(last) && last >= first ? Math.floor((last - first) * rate + 1e-9) + 1 : 0;
    time = new Float64Array(n);
    for (let k = 0; k < n; k++) time[k] = first + k / rate;
    frequency = rate;
  } else if (fastest) {
    time = fastest.times;
    frequency = fastest.slice.frequency;
    regular = !fastest.slice.times;
  } else {
    throw new Error('a math channel that reads no channel needs a Rate');
  }
  const inputs: Record<string, Float64Array> = {};
  for (const p of physical) inputs[p.slice.name] = p === fastest && task.rate === undefined ? p.values : interpolateLinear(p.times, p.values, time);
  const context: EvaluationContext = { time };
  if (task.laps) {
    const laps = task.laps;
    // Seconds since the lap's line, to the nanosecond as every time the service answers.
    context.lapTime = Float64Array.from(lapIndexOf(time, laps), (k, i) => (k < 0 ? NaN : toNanosecond((time[i] as number) - (laps[k] as { start: number }).start)));
    context.lapNumber = Float64Array.from(lapIndexOf(time, laps), (k) => (k < 0 ? NaN : (laps[k] as { index: number }).index));
  }
  if (task.laps && task.distance) {
    // Each lap's distance trace as the lap distance read gives it (its own samples from its line, the line first),
    // carried on to the two samples past the lap's end; read linearly at each time of the lap.
    const d = task.distance;
    const times = timesOf(d.slice);
    const values = physicalOf(d.slice);
    const lapIndex = lapIndexOf(time, task.laps);
    const traces = task.laps.map((lap) => {
      const own = [...times.keys()].filter((i) => (times[i] as number) >= lap.start && (times[i] as number) < lap.end);
      const from = own[0] ?? times.findIndex((t) => t >= lap.end);
      const to = own.length ? (own.at(-1) as number) + 1 : from;
      const relative = Array.from(times.subarray(from, to), (t) => t - lap.start);
      const distances = Array.from(lapDistances(relative, values.subarray(from, to), { kind: d.source.kind, unit: d.slice.unit }));
      // Two samples past the lap's end, their distances carried on from the lap's.
      const past = Array.from(times.subarray(to, to + 2), (t) => t - lap.start);
      if (past.length && from >= 0) {
        const carried = lapDistances([...relative, ...past], values.subarray(from, to + past.length), { kind: d.source.kind, unit: d.slice.unit });
        relative.push(...past);
        distances.push(...carried.subarray(carried.length - past.length));
      }
      const firstFinite = relative.findIndex((t, k) => Number.isFinite(t) && Number.isFinite(distances[k]));
      if (firstFinite >= 0 && (relative[firstFinite] as number) > 0 && (distances[firstFinite] as number) >= 0) {
        relative.unshift(0);
        distances.unshift(0);
      }
      return { times: Float64Array.from(relative), distances: Float64Array.from(distances) };
    });
    const lapDistance = new Float64Array(time.length);
    for (let i = 0; i < time.length; i++) {
      const k = lapIndex[i] as number;
      const trace = traces[k];
      const lap = task.laps[k];
      lapDistance[i] = k < 0 || !trace || !lap ? NaN : (interpolateLinear(trace.times, trace.distances, [(time[i] as number) - lap.start])[0] as number);
    }
    context.lapDistance = lapDistance;
  }
  let result: Float64Array = new Float64Array(time.length);
  const available = Object.keys(inputs);
  for (const definition of task.definitions) {
    result = compile(definition.expression, { inputs: available, math: true }).evaluate(inputs, time.length, context);
    inputs[definition.name] = result;
    available.push(definition.name);
  }
  let gaps: Uint8Array | undefined;
  for (let i = 0; i < result.length; i++) {
    if (result[i] === result[i]) continue;
    gaps ??= new Uint8Array(result.length);
    gaps[i] = 1;
  }
  return {
    name: task.name,
    unit: task.unit,
    frequency,
    dimension: 1,
    startTime: time[0] ?? task.span.start,
    samples: result,
    conversion: IDENTITY,
    ...(regular ? {} : { times: time }),
    ...(gaps ? { gaps } : {}),
  };
}

function timesOf(slice: StoredSlice): Float64Array {
  if (slice.times) return slice.times;
  const n = slice.samples.length;
  const out = new Float64Array(n);
  const { startTime, frequency } = slice;
  for (let i = 0; i < n; i++) out[i] = startTime + i / frequency;
  return out;
}

/** Physical values of a numeric slice, NaN at its gaps. */
function physicalOf(slice: StoredSlice): Float64Array {
  const converted = applyConversion(slice.samples, slice.conversion);
  const values = converted instanceof Float64Array ? converted : new Float64Array(converted);
  if (slice.gaps) for (let i = 0; i < values.length; i++) if (slice.gaps[i] === 1) values[i] = NaN;
  return values;
}
