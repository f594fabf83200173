import type { LinearConversion, RawSampleArray } from '@pitwall/channels';
import { round } from '@pitwall/expressions';

// A math channel's values rounded to its DecimalPlaces (docs/math-channels.md): each value is
// `round(x × 10^places) / 10^places`, the expression language's round (halves away from zero) of the scaled value, so a
// channel with DecimalPlaces 2 is `round(x * 100) / 100` of its expression; then sent as a logged scaled channel is, as
// integer codes under a decimal conversion, when they fit int32. A value whose scaled magnitude reaches 2^52 (a float64
// that holds no digit at that decimal, |x| ≥ 4.5e9 at 6 places, or an infinity) is left as it is, and the channel is
// then sent as float64.

/** The least and the greatest code, NaN values left out (none: +Infinity and -Infinity); ±Infinity when a value was left as it is. */
export interface RoundedRange {
  least: number;
  most: number;
}

/** The scaled magnitude from which a float64 is an integer: nothing is left to round. */
const INTEGRAL = 2 ** 52;

/**
 * Rounds `values` in place to `places` decimals (NaN, the gaps, stay NaN; -0 becomes 0, as the codes make it), and
 * gives the range of their codes. The numbers are exactly those a reader gets from the codes and their conversion
 * (`code / 10^places + 0`, `decimalConversion`), so every reader of the channel sees one set of numbers.
 */
export function roundToPlaces(values: Float64Array, places: number): RoundedRange {
  const scale = 10 ** places;
  let least = Infinity;
  let most = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (x !== x) continue;
    const scaled = x * scale;
    if (!(Math.abs(scaled) < INTEGRAL)) {
      least = -Infinity;
      most = Infinity;
      continue;
    }
    const code = round(scaled);
    values[i] = code / scale + 0;
    if (code < least) least = code;
    if (code > most) most = code;
  }
  return { least, most };
}

/** raw × 1 / 10^places: the conversion of the codes, a decimal scale as a logged channel's (MoTeC's decimal shift). */
export function decimalConversion(places: number): LinearConversion {
  return { numerator: 1, denominator: 10 ** places, offset: 0 };
}

/**
 * The rounded values as the integer codes a logged scaled channel is sent with: int16 when every code of the range
 * fits, else int32 (0 at gaps, which `gaps` flags), with their decimal conversion; undefined when one does not fit
 * int32, and the channel is then sent as its rounded float64 values.
 */
export function decimalCodes(values: Float64Array, places: number, range: RoundedRange): { samples: Exclude<RawSampleArray, Float32Array | Float64Array>; conversion: LinearConversion } | undefined {
  // An empty range (no value, or gaps only) fits int16.
  const int16 = range.least >= -32768 && range.most <= 32767;
  if (!int16 && !(range.least >= -2147483648 && range.most <= 2147483647)) return undefined;
  const scale = 10 ** places;
  const samples = int16 ? new Int16Array(values.length) : new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    // A rounded value times the scale is within a few ulps of its code: Math.round finds it whatever its sign.
    if (x === x) samples[i] = Math.round(x * scale);
  }
  return { samples, conversion: decimalConversion(places) };
}
