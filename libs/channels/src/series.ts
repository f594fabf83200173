import { applyConversion, isIdentity, type LinearConversion, type PhysicalSampleArray, type RawSampleArray } from './conversion';

/**
 * One channel of a read, as the service holds it before encoding and as a client gets it back from the binary
 * body: physical samples, or raw stored values with the conversion that makes them physical.
 */
export interface ChannelSeries {
  name: string;
  unit: string;
  /** Hz of the channel (of the source channel when the series is downsampled). */
  frequency: number;
  dimension: number;
  /** Seconds on the file's time axis of the first sample (implicit time: sample i is at startTime + i / frequency). */
  startTime: number;
  /** Physical values when `conversion` is absent; stored values to convert when it is present. NaN (or 0 when raw) at gaps. */
  samples: PhysicalSampleArray | RawSampleArray;
  conversion?: LinearConversion;
  /** Explicit time of every sample, seconds; present for downsampled (maxPoints) reads, whose points are not regular. */
  times?: Float64Array;
  /** 1 where there is no sample at that index; absent when there are no gaps. */
  gaps?: Uint8Array;
  /** Present (false) when a read asked for maxPoints and got every sample: arrays (dimension > 1) are not downsampled. */
  maxPointsApplied?: false;
  /**
   * A math channel reading param() (docs/math-channels.md): each parameter it read, the value taken and the entity it
   * was taken from. The JSON record carries it; the binary block has no room for it (binary-channels.md).
   */
  parameters?: readonly ParameterUse[];
}

/** A parameter a math channel read with param("Name"): its name as the definition writes it, its value, and where it is held (`Cars <id>`). */
export interface ParameterUse {
  name: string;
  value: number;
  from: string;
}

/** The JSON channel record of the channel reads; `times` only when the series carries explicit times (maxPoints). */
export interface ChannelRecord {
  name: string;
  unit: string;
  frequency: number;
  dimension: number;
  /** n × dimension values, sample by sample. */
  samples: (number | null)[];
  times?: number[];
  maxPointsApplied?: false;
  parameters?: ParameterUse[];
}

/** Physical samples of a series (a copy with the conversion applied when it carries raw values, else the samples). */
export function physicalSamples(series: ChannelSeries): PhysicalSampleArray {
  if (series.conversion) return applyConversion(series.samples as RawSampleArray, series.conversion);
  return series.samples as PhysicalSampleArray;
}

/** The JSON record: physical numbers, null for gaps (and for NaN, which JSON cannot carry). */
export function toChannelRecord(series: ChannelSeries): ChannelRecord {
  const values = physicalSamples(series);
  const gaps = series.gaps;
  const d = Math.max(1, series.dimension);
  const samples = new Array<number | null>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    samples[i] = gaps?.[d === 1 ? i : Math.floor(i / d)] === 1 || !Number.isFinite(v) ? null : v;
  }
  return {
    name: series.name,
    unit: series.unit,
    frequency: series.frequency,
    dimension: series.dimension,
    samples,
    ...(series.times ? { times: Array.from(series.times) } : {}),
    ...(series.maxPointsApplied === false ? { maxPointsApplied: false as const } : {}),
    ...(series.parameters?.length ? { parameters: series.parameters.map((p) => ({ name: p.name, value: p.value, from: p.from })) } : {}),
  };
}

/**
 * What to send for stored values: the stored integers (or float32) with their conversion when they are narrower than
 * the physical array the conversion would make, else the physical values (no copy when the conversion is the identity).
 */
export function compactSamples(raw: RawSampleArray, conversion: LinearConversion): Pick<ChannelSeries, 'samples' | 'conversion'> {
  const floating = raw instanceof Float32Array || raw instanceof Float64Array;
  // Floats under the identity are their physical values already.
  if (floating && isIdentity(conversion)) return { samples: raw };
  // The conversion makes float32 of unscaled int16, float64 of everything else.
  const physicalWidth = raw instanceof Int16Array && isIdentity(conversion) ? 4 : 8;
  if (raw.BYTES_PER_ELEMENT < physicalWidth) return { samples: raw, conversion: { ...conversion } };
  return { samples: applyConversion(raw, conversion) };
}
