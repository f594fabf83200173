/** IEEE 754 binary16 (half precision), used by .ld float16 channels and 16-bit MDF floats. */

let halfTable: Float32Array | null = null;

/** IEEE 754 binary16 through a 64K-entry table built on first use. */
export function decodeHalf(raw: Uint16Array, out: Float32Array): Float32Array {
  const table = (halfTable ??= buildHalfTable());
  for (let i = 0; i < raw.length; i++) out[i] = table[raw[i]];
  return out;
}

export function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

function buildHalfTable(): Float32Array {
  const table = new Float32Array(65536);
  for (let bits = 0; bits < 65536; bits++) table[bits] = halfToNumber(bits);
  return table;
}
