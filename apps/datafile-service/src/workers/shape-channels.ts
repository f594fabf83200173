import { compactSamples, downsampleSeries, encodeChannels, toReadRecord, type EventSeries, type LinearConversion, type RawSampleArray, type ReadSeries } from '@pitwall/channels';

/** One channel of a read as the service hands it to the pool: stored values of the scope and their conversion. */
export interface StoredSlice {
  name: string;
  unit: string;
  frequency: number;
  dimension: number;
  /** Seconds on the file's time axis of the first sample. */
  startTime: number;
  samples: RawSampleArray;
  conversion: LinearConversion;
  /** Explicit sample times, for channels without a regular rate. */
  times?: Float64Array;
  gaps?: Uint8Array;
}

export interface ShapeTask {
  /** Numeric channels as stored, and the events of text and byte channels as they are sent. */
  channels: (StoredSlice | EventSeries)[];
  /** The answer's records as indices into `channels`, when the request named a channel more than once. */
  order?: number[];
  binary: boolean;
  /** Display-sized read: M4 over [start, end) (the scope's window; the channel's own span for a whole-file read). */
  maxPoints?: number;
  window?: { start: number; end: number };
}

/** The encoded body: the binary channel body, or the JSON array of channel records as UTF-8. */
export interface ShapeResult {
  body: Uint8Array;
}

/**
 * The work of a read that touches every sample, done on the pool: M4 when asked, the conversion applied to this slice
 * (or raw integers kept with their conversion in the binary body when smaller), then the encoding.
 */
export function shapeChannels(task: ShapeTask): ShapeResult {
  const shaped = task.channels.map((c) => shapeOne(c, task));
  const series = task.order ? task.order.map((k) => shaped[k] as ReadSeries) : shaped;
  if (task.binary) return { body: encodeChannels(series) };
  return { body: new TextEncoder().encode(JSON.stringify(series.map(toReadRecord))) };
}

/** maxPoints applies to numbers of one value a sample; events and arrays come whole, and say so. */
function shapeOne(c: StoredSlice | EventSeries, task: ShapeTask): ReadSeries {
  const whole = task.maxPoints !== undefined ? { maxPointsApplied: false as const } : {};
  if ('kind' in c) return { ...c, ...whole };
  const base = { name: c.name, unit: c.unit, frequency: c.frequency, dimension: c.dimension, startTime: c.startTime, ...(c.times ? { times: c.times } : {}), ...(c.gaps ? { gaps: c.gaps } : {}) };
  if (task.maxPoints !== undefined && c.dimension <= 1) {
    return downsampleSeries({ ...base, samples: c.samples, conversion: c.conversion }, { maxPoints: task.maxPoints, ...(task.window ? { start: task.window.start, end: task.window.end } : {}) });
  }
  return { ...base, ...compactSamples(c.samples, c.conversion), ...(c.dimension > 1 ? whole : {}) };
}
