import { interpolateLinear, interpolateStep } from '@pitwall/laps';

/** A channel to put on a common time base: its sample times, physical values (NaN for gaps), and how to read between them. */
export interface ResampleInput {
  times: ArrayLike<number>;
  values: ArrayLike<number>;
  /** Hold each value until the next sample (gear, flags) instead of drawing a line between samples. */
  discrete: boolean;
}

/**
 * Channels logged at different rates on one time base: the times of the channel with the most samples (the fastest
 * over the same span), every other channel read at those times, linearly between its samples or, for a discrete
 * one, the last sample's value held. Where a channel has no sample on both sides (before its first, after its last,
 * next to a gap) its value is NaN: nothing is extrapolated. `base` is the index of the channel whose times were used.
 */
export function onFastestTimeBase(channels: readonly ResampleInput[]): { base: number; times: Float64Array; values: Float64Array[] } {
  if (channels.length === 0) return { base: -1, times: new Float64Array(0), values: [] };
  let base = 0;
  channels.forEach((c, i) => {
    if (c.times.length > (channels[base] as ResampleInput).times.length) base = i;
  });
  const times = Float64Array.from((channels[base] as ResampleInput).times);
  const values = channels.map((c, i) => {
    if (i === base) return Float64Array.from(c.values);
    return c.discrete ? interpolateStep(c.times, c.values, times) : interpolateLinear(c.times, c.values, times);
  });
  return { base, times, values };
}
