/** One media range of an Accept header (RFC 9110 §12.5.1): `type/subtype` lower-cased, its weight, its place. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  order: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * The media type of `offered` the Accept header prefers, or undefined when it accepts none of them (or there is no
 * header): the highest weight wins, then the most specific range (`a/b` over `a/*` over `*\/*`), then the range the
 * client wrote first, then the order of `offered`. A type's weight is that of the most specific range matching it.
 * Media type parameters (`;version=1`) do not narrow the match: the offered types have none to compare with.
 */
export function preferredMediaType(accept: string | undefined, offered: readonly string[]): string | undefined {
  if (accept === undefined) return undefined;
  const ranges = parseAccept(accept);
  let best: { type: string; q: number; specificity: number; order: number } | undefined;
  for (const type of offered) {
    const [main, sub] = type.toLowerCase().split('/');
    let match: { q: number; specificity: number; order: number } | undefined;
    for (const range of ranges) {
      const specificity = range.type === main && range.subtype === sub ? 2 : range.type === main && range.subtype === '*' ? 1 : range.type === '*' && range.subtype === '*' ? 0 : -1;
      if (specificity < 0 || (match && (specificity < match.specificity || (specificity === match.specificity && range.q <= match.q)))) continue;
      match = { q: range.q, specificity, order: range.order };
    }
    if (!match || match.q === 0) continue;
    const better = !best || match.q > best.q || (match.q === best.q && (match.specificity > best.specificity || (match.specificity === best.specificity && match.order < best.order)));
    if (better) best = { type, ...match };
  }
  return best?.type;
}

/** The media ranges of an Accept header; a malformed one (no `type/subtype`, a q that is not a number) is skipped. */
function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  splitOutsideQuotes(header, ',').forEach((element, order) => {
    const [range = '', ...parameters] = splitOutsideQuotes(element, ';').map((part) => part.trim());
    const [type, subtype, extra] = range.toLowerCase().split('/');
    if (!type || !subtype || extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) return;
    let q = 1;
    const weight = weightText(parameters);
    if (weight !== undefined) {
      // Read leniently, as browsers and proxies write it (`q=1.0000`, `q=.5`): a number clamped to 0..1; not a number skips the range.
      const value = Number(weight.replace(/^"(.*)"$/, '$1'));
      if (!Number.isFinite(value)) return;
      q = Math.min(1, Math.max(0, value));
    }
    ranges.push({ type, subtype, q, order });
  });
  return ranges;
}

/**
 * The text of an element's weight (`q=0.5` gives `0.5`, trimmed), from its parameters after the first (Accept,
 * Accept-Encoding: RFC 9110 §12.4.2); undefined without one. Only the first `q` counts: parameters after it are
 * accept extensions, not the element's own.
 */
export function weightText(parameters: readonly string[]): string | undefined {
  for (const parameter of parameters) {
    const at = parameter.indexOf('=');
    if (at >= 0 && parameter.slice(0, at).trim().toLowerCase() === 'q') return parameter.slice(at + 1).trim();
  }
  return undefined;
}

/** `text` cut at each `separator` that is not inside a quoted string (`"a, b"`, with `\"` escapes). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
