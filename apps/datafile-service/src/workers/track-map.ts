import { closeLoop, closureError, deadReckon, distanceUniformIndices, onFastestTimeBase, pathDistance, projectLocal, turnRateFromLateral, type TrackMapRole, type TrackMapSourceKind, type TrackPath } from '@pitwall/analysis';
import { applyConversion } from '@pitwall/channels';
import type { LapRefJson, TrackMapJson } from '@pitwall/contracts';
import { interpolateLinear, interpolateStep } from '@pitwall/laps';
import { rounded } from './lap-traces';
import type { StoredSlice } from './shape-channels';

/** One lap's track map as the pool receives it: the stored values inside the lap of the channels it is made from. */
export interface TrackMapTask {
  lap: LapRefJson;
  /** Seconds on the file's time axis where the lap starts (times come back from here). */
  startTime: number;
  /** A flying lap: it should end where it started. */
  closed: boolean;
  source: TrackMapSourceKind;
  /** The source's two channels (latitude and longitude, or speed and the turn), with the factor to the arithmetic's unit. */
  channels: { role: TrackMapRole; slice: StoredSlice; factor: number }[];
  colour?: { slice: StoredSlice; discrete: boolean };
  maxPoints: number;
}

const SECONDS_STEP = 1e6;
const METRES_STEP = 1e3;

/** The JSON body of a track map read, computed from every sample of the lap, then sampled evenly over distance. */
export function trackMapOf(task: TrackMapTask): Uint8Array {
  const series = task.channels.map(({ slice, factor }) => physical(slice, factor));
  // Both channels on the time base of the one with more samples (GPS latitude and longitude usually share theirs).
  const { times, values } = onFastestTimeBase(series.map((s) => ({ ...s, discrete: false })));
  const [a, b] = values as [Float64Array, Float64Array];
  let path: TrackPath;
  let kept: Float64Array = times;
  let closureErrorMetres: number | null = null;
  if (task.source === 'gps') {
    // A point without a fix is no point of the path.
    const { x, y } = projectLocal(a, b);
    const at: number[] = [];
    for (let i = 0; i < x.length; i++) if (!Number.isNaN(x[i])) at.push(i);
    const px = Float64Array.from(at, (i) => x[i] as number);
    const py = Float64Array.from(at, (i) => y[i] as number);
    kept = Float64Array.from(at, (i) => times[i] as number);
    path = { x: px, y: py, distance: pathDistance(px, py) };
    if (task.closed) closureErrorMetres = closureError(path);
  } else {
    const turnRates = task.source === 'yaw-rate' ? b : turnRateFromLateral(b, a);
    path = deadReckon({ times, speeds: a, turnRates });
    if (task.closed) closureErrorMetres = closeLoop(path);
  }
  const indices = distanceUniformIndices(path.distance, task.maxPoints);
  const pick = (column: Float64Array) => Float64Array.from(indices, (i) => column[i] as number);
  const pointTimes = pick(kept);
  let value: (number | null)[] | undefined;
  if (task.colour) {
    const colour = physical(task.colour.slice, 1);
    const at = (task.colour.discrete ? interpolateStep : interpolateLinear)(colour.times, colour.values, pointTimes);
    // Rounded to a millionth of the channel's unit: interpolation's float noise (171.05000000000018) is not data.
    value = Array.from(at, (v) => (Number.isNaN(v) ? null : Math.round(v * 1e6) / 1e6));
  }
  const answer: TrackMapJson = {
    lap: task.lap,
    startTime: task.startTime,
    source: task.source,
    channels: task.channels.map(({ role, slice }) => ({ role, name: slice.name, unit: slice.unit })),
    colour: task.colour ? { name: task.colour.slice.name, unit: task.colour.slice.unit } : null,
    closed: task.closed,
    closureErrorMetres: closureErrorMetres === null ? null : Math.round(closureErrorMetres * METRES_STEP) / METRES_STEP,
    count: path.x.length,
    points: {
      x: rounded(pick(path.x), METRES_STEP),
      y: rounded(pick(path.y), METRES_STEP),
      distance: rounded(pick(path.distance), METRES_STEP),
      time: rounded(pointTimes.map((t) => t - task.startTime), SECONDS_STEP),
      ...(value ? { value } : {}),
    },
  };
  return new TextEncoder().encode(JSON.stringify(answer));
}

/** A slice's values in the arithmetic's unit (NaN for gaps) and the time of each sample, s on the file's time axis. */
function physical(slice: StoredSlice, factor: number): { times: Float64Array; values: Float64Array } {
  const converted = applyConversion(slice.samples, slice.conversion);
  const values = Float64Array.from(converted, (v, i) => (slice.gaps?.[i] === 1 ? NaN : v * factor));
  const times = slice.times ? Float64Array.from(slice.times) : Float64Array.from(values, (_, i) => slice.startTime + i / slice.frequency);
  return { times, values };
}
