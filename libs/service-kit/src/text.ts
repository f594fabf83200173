/** A UTF-16 code unit of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The text with each unpaired surrogate (a pair cut in two, or a broken one) as U+FFFD: what `encodeURIComponent`, a
 * UTF-8 encoder and the entity store take (String.prototype.toWellFormed, which the project's TypeScript lib lacks).
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * The text as a refusal or log line repeats it: whole up to `max` UTF-16 code units, otherwise its first `max` and `…`
 * (a pair cut in two becomes U+FFFD). A name or value of a request may be megabytes long; its echo never is.
 */
export function shortened(text: string, max: number): string {
  return text.length > max ? `${wellFormed(text.slice(0, max))}…` : text;
}

/**
 * `attachment` with the file's name (RFC 6266): `filename` an ASCII stand-in (other characters, quotes and backslashes
 * as `_`), `filename*` the name itself, UTF-8 percent-encoded (RFC 8187), which clients that read it prefer. The name
 * is cut at 500 characters. The gateway's downloads send it, and an S3 store's signed download URLs ask for it.
 */
export function attachmentDisposition(fileName: string): string {
  // Well formed: encodeURIComponent throws on a lone surrogate (a cut pair).
  const name = wellFormed(fileName.slice(0, 500));
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
