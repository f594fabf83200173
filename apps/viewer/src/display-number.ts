/**
 * A computed value as the page shows it: `digits` significant digits (sums of binary fractions print as
 * 50.00000000000012 or 167.21999999999997 otherwise), trailing zeros dropped, no exponent for large values (the whole
 * number instead) and no "-0". The API's JSON keeps full precision; only the page rounds.
 */
export function displayNumber(value: number, digits = 5): string {
  if (!Number.isFinite(value)) return String(value);
  // Past 2^53 every double is a whole number, which BigInt prints without an exponent (String does from 1e21).
  if (Math.abs(value) >= 2 ** 53) return BigInt(value).toString();
  if (Math.abs(value) >= 10 ** digits) return String(Math.round(value) + 0);
  return String(Number(value.toPrecision(digits)) + 0);
}

/** Characters a name or unit is shown with where space is fixed (an axis, a legend, a canvas label); the rest is "…". */
export const SHOWN_TEXT_CHARS = 40;

/**
 * A file's name or unit as a fixed-width place shows it: whole up to `max` characters, else its first `max - 1` and
 * "…" (a 300-character channel name made the page 3,465 px wide). The whole text goes in a title where there is one.
 */
export function shortText(text: string, max = SHOWN_TEXT_CHARS): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
