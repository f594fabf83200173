/**
 * Linear conversion from stored (raw) values to physical values: physical = raw × numerator / denominator + offset.
 * Integer numerator and denominator keep one rounding (MoTeC's 2446 with decimal shift 1 is exactly 244.6).
 * The server, the TypeScript decoder and the Python decoder all apply this one formula.
 */
export interface LinearConversion {
  numerator: number;
  denominator: number;
  offset: number;
}

/**
 * Values as a file stores them: integers, or floats (float16 already widened to float32); Float64Array for formats
 * whose readers decode straight to physical values (their conversion is then the identity).
 */
export type RawSampleArray = Int16Array | Int32Array | Float32Array | Float64Array;

/** Physical values. */
export type PhysicalSampleArray = Float64Array | Float32Array;

export const IDENTITY: LinearConversion = Object.freeze({ numerator: 1, denominator: 1, offset: 0 });

export function isIdentity(c: LinearConversion): boolean {
  return c.numerator === c.denominator && c.offset === 0;
}

/**
 * Physical values of `raw` (a new array that owns its buffer) (all of it: pass a subarray to convert a slice only). Unscaled int16 and float32 values
 * are exact in float32 and come back as a Float32Array (half the memory); everything else as a Float64Array.
 */
export function applyConversion(raw: RawSampleArray, conversion: LinearConversion): PhysicalSampleArray {
  const n = raw.length;
  if (isIdentity(conversion) && raw instanceof Float64Array) return raw.slice();
  if (isIdentity(conversion) && !(raw instanceof Int32Array)) {
    const out = new Float32Array(n);
    out.set(raw);
    return out;
  }
  const out = new Float64Array(n);
  convertInto(raw, conversion, 0, n, out);
  return out;
}

/**
 * Physical values of raw[from, from + count) written into out[0, count) as float64, the same numbers applyConversion
 * gives (the identity copies the values, Int32 under an identity written n/n still goes through the formula): for a
 * caller that converts block by block into a buffer it reuses.
 */
export function convertInto(raw: RawSampleArray, conversion: LinearConversion, from: number, count: number, out: Float64Array): void {
  if (isIdentity(conversion) && !(raw instanceof Int32Array)) {
    for (let i = 0; i < count; i++) out[i] = raw[from + i];
    return;
  }
  const { numerator, denominator, offset } = conversion;
  // The three loops compute the same (raw × numerator) / denominator + offset; the special cases only skip a no-op.
  if (denominator === 1) {
    for (let i = 0; i < count; i++) out[i] = raw[from + i] * numerator + offset;
  } else if (numerator === 1) {
    for (let i = 0; i < count; i++) out[i] = raw[from + i] / denominator + offset;
  } else {
    for (let i = 0; i < count; i++) out[i] = (raw[from + i] * numerator) / denominator + offset;
  }
}
