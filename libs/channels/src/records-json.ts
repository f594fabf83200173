import { applyConversion, type RawSampleArray } from './conversion';
import type { ChannelSeries } from './series';

/** Values converted and written per step: bounded memory however long the channel. */
const STEP = 16 * 1024;

/**
 * The JSON text of the channel records of `series` (`JSON.stringify(series.map(toChannelRecord))`, character for
 * character), in pieces of about `chunkChars`: a long read is streamed as it is written, never held as one string.
 * `bare` writes the one record of a single-channel read without the array around it.
 */
export function* channelRecordsJson(series: readonly ChannelSeries[], chunkChars: number, options: { bare?: boolean } = {}): Generator<string> {
  let out = options.bare ? '' : '[';
  for (let k = 0; k < series.length; k++) {
    const s = series[k] as ChannelSeries;
    out += `${k ? ',' : ''}{"name":${JSON.stringify(s.name)},"unit":${JSON.stringify(s.unit)},"frequency":${JSON.stringify(s.frequency)},"dimension":${JSON.stringify(s.dimension)},"samples":[`;
    const n = s.samples.length;
    for (let from = 0; from < n; from += STEP) {
      const to = Math.min(n, from + STEP);
      const slice = s.samples.subarray(from, to);
      const values = s.conversion ? applyConversion(slice as RawSampleArray, s.conversion) : slice;
      const gaps = s.gaps;
      for (let i = 0; i < values.length; i++) {
        const v = values[i] as number;
        if (from + i > 0) out += ',';
        out += gaps?.[from + i] === 1 || !Number.isFinite(v) ? 'null' : String(v);
      }
      if (out.length >= chunkChars) {
        yield out;
        out = '';
      }
    }
    out += ']';
    if (s.times) {
      out += ',"times":[';
      const times = s.times;
      for (let i = 0; i < times.length; i++) {
        out += `${i ? ',' : ''}${JSON.stringify(times[i])}`;
        if (out.length >= chunkChars) {
          yield out;
          out = '';
        }
      }
      out += ']';
    }
    out += '}';
  }
  if (!options.bare) out += ']';
  yield out;
}
