import { applyConversion, type LinearConversion, type RawSampleArray } from '@pitwall/channels';
import type { ChannelData, TimeBase } from '../model';

/**
 * Samples of one channel (or of a range of it) as the file stores them, with the linear conversion that makes them
 * physical. Caches hold this form; the conversion is applied only to the slice a read returns.
 */
export interface StoredChannel {
  name: string;
  unit: string;
  frequency: number;
  dimension: number;
  /** Time base of `samples` (its first sample is the first of the range read). */
  time: TimeBase;
  samples: RawSampleArray;
  conversion: LinearConversion;
  gaps?: Uint8Array;
}

const IDENTITY: LinearConversion = { numerator: 1, denominator: 1, offset: 0 };

/** A decoded channel as a stored channel whose conversion is the identity (formats read whole, MDF and CSV). */
export function storedFromChannelData(data: ChannelData): StoredChannel {
  return { name: data.name, unit: data.unit, frequency: data.frequency, dimension: data.dimension, time: data.time, samples: data.samples, conversion: IDENTITY, ...(data.gaps ? { gaps: data.gaps } : {}) };
}

/** Samples [from, to) of a stored channel (of `dimension` values each): views, no copy. */
export function sliceStored(stored: StoredChannel, from: number, to: number): StoredChannel {
  const d = Math.max(1, stored.dimension);
  const n = stored.samples.length / d;
  if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= n)) throw new RangeError(`sample range [${from}, ${to}) is outside 0..${n}`);
  const time: TimeBase =
    stored.time.kind === 'implicit'
      ? { kind: 'implicit', start: stored.time.start + from / stored.time.frequency, frequency: stored.time.frequency }
      : { kind: 'explicit', timestamps: stored.time.timestamps.subarray(from, to) };
  return { ...stored, time, samples: stored.samples.subarray(from * d, to * d), ...(stored.gaps ? { gaps: stored.gaps.subarray(from, to) } : {}) };
}

/** Physical samples of a stored channel: the conversion applied to these samples only; arrays own their buffers. */
export function physicalChannel(stored: StoredChannel): ChannelData {
  return {
    name: stored.name,
    unit: stored.unit,
    frequency: stored.frequency,
    dimension: stored.dimension,
    samples: applyConversion(stored.samples, stored.conversion),
    time: stored.time.kind === 'implicit' ? stored.time : { kind: 'explicit', timestamps: stored.time.timestamps.slice() },
    ...(stored.gaps ? { gaps: stored.gaps.slice() } : {}),
  };
}

/** Bytes a stored channel holds (samples, explicit timestamps, gaps), what a byte-bounded cache counts. */
export function storedChannelBytes(stored: StoredChannel): number {
  return stored.samples.byteLength + (stored.time.kind === 'explicit' ? stored.time.timestamps.byteLength : 0) + (stored.gaps?.byteLength ?? 0);
}
