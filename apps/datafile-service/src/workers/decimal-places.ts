import { IDENTITY, type LinearConversion } from '@pitwall/channels';
import { round } from '@pitwall/expressions';

// A math channel's values rounded to its DecimalPlaces (docs/math-channels.md): each value is
// `round(x × 10^places) / 10^places`, the expression language's round (halves away from zero) of the scaled value, so a
// channel with DecimalPlaces 2 is `round(x * 100) / 100` of its expression; sent as a logged scaled channel is, as
// integer codes under a decimal conversion, when they fit int32. A value whose scaled magnitude reaches 2^52 (a float64
// that holds no digit at that decimal, |x| ≥ 4.5e9 at 6 places) is left as it is, and the channel is then sent as its
// rounded float64 values. An infinite result is a gap before it is rounded (infinitiesToGaps). Rounding a rounded
// value again gives it back, so a value is rounded the same wherever it is rounded.

/** The scaled magnitude from which a float64 is an integer: nothing is left to round. */
const INTEGRAL = 2 ** 52;

/**
 * Rounds `values` in place to `places` decimals (NaN, the gaps, stay NaN; -0 becomes 0, as the codes make it): the
 * numbers a reader gets from the codes and their conversion (`code / 10^places + 0`), for the definitions reading it.
 */
export function roundToPlaces(values: Float64Array, places: number): void {
  const scale = 10 ** places;
  for (let i = 0; i < values.length; i++) {
    const scaled = (values[i] as number) * scale;
    if (Math.abs(scaled) < INTEGRAL) values[i] = round(scaled) / scale + 0;
  }
}

/** raw × 1 / 10^places: the conversion of the codes, a decimal scale as a logged channel's (MoTeC's decimal shift). */
export function decimalConversion(places: number): LinearConversion {
  return { numerator: 1, denominator: 10 ** places, offset: 0 };
}

/** A channel's values as sent: codes with their conversion, or float64 under the identity; 1 in `gaps` where there is no value. */
export interface DecimalValues {
  samples: Int16Array | Int32Array | Float64Array;
  conversion: LinearConversion;
  gaps?: Uint8Array;
}

/**
 * The values of a channel with DecimalPlaces as they are sent: int16 codes when every one fits, else int32 (0 at the
 * gaps, which `gaps` flags), under the decimal conversion; else the values rounded, as float64. `values` (which may
 * already be rounded) is taken: the codes are written over it, in its buffer (a code's bytes come before its value's,
 * so a forward pass reads each value before it is written over), and no array as long is made for them.
 */
export function decimalValues(values: Float64Array, places: number): DecimalValues {
  const scale = 10 ** places;
  const { least, most, gap } = codeRange(values, scale);
  if (!(least >= -2147483648 && most <= 2147483647)) {
    roundToPlaces(values, places);
    return physicalValues(values);
  }
  const gaps = gap ? new Uint8Array(values.length) : undefined;
  const codes = least >= -32768 && most <= 32767 ? new Int16Array(values.buffer, values.byteOffset, values.length) : new Int32Array(values.buffer, values.byteOffset, values.length);
  return { samples: codesOver(values, scale, codes, gaps), conversion: decimalConversion(places), ...(gaps ? { gaps } : {}) };
}

/**
 * A math channel's infinite results (a division by zero, `log(0)`, an overflow) made gaps (NaN), in place: JSON has no
 * number for them, so every reader (JSON, binary, Arrow, the analysis reads, the definitions reading the channel) sees
 * the same gap.
 */
export function infinitiesToGaps(values: Float64Array): void {
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (x - x !== 0) values[i] = NaN;
  }
}

/**
 * Float64 values as they are sent: themselves under the identity, 1 in `gaps` where a value is NaN or infinite (made
 * NaN, as infinitiesToGaps does).
 */
export function physicalValues(values: Float64Array): DecimalValues {
  let gaps: Uint8Array | undefined;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (x - x === 0) continue;
    values[i] = NaN;
    gaps ??= new Uint8Array(values.length);
    gaps[i] = 1;
  }
  return { samples: values, conversion: IDENTITY, ...(gaps ? { gaps } : {}) };
}

/**
 * The least and greatest code, and whether a value is NaN: the codes of the least and greatest value, since
 * `round(x × scale)` never falls as x rises (so the values are only compared, not each rounded). An infinity, or a value
 * past 2^52 scaled, puts the range past every integer type's; no value: +Infinity and -Infinity, which fit int16.
 */
function codeRange(values: Float64Array, scale: number): { least: number; most: number; gap: boolean } {
  let least = Infinity;
  let most = -Infinity;
  let gap = false;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (x < least) least = x;
    if (x > most) most = x;
    if (x !== x) gap = true;
  }
  return least > most ? { least, most, gap } : { least: round(least * scale), most: round(most * scale), gap };
}

/** Writes each value's code over `values` (`codes` views its buffer from the same start), 0 and a flag in `gaps` at NaN. */
function codesOver<T extends Int16Array | Int32Array>(values: Float64Array, scale: number, codes: T, gaps: Uint8Array | undefined): T {
  for (let i = 0; i < values.length; i++) {
    const scaled = (values[i] as number) * scale;
    if (scaled === scaled) codes[i] = round(scaled);
    else {
      codes[i] = 0;
      (gaps as Uint8Array)[i] = 1;
    }
  }
  return codes;
}
