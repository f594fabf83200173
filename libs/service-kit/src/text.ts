/** A UTF-16 code unit of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The text with each unpaired surrogate (a pair cut in two, or a broken one) as U+FFFD: what `encodeURIComponent`, a
 * UTF-8 encoder and the entity store take (String.prototype.toWellFormed, which the project's TypeScript lib lacks).
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}
