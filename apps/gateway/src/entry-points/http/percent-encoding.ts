import { unescape as lenientUnescape } from 'node:querystring';
import { AppError, NOT_PERCENT_ENCODED, PERCENT_ENCODING_HINT } from '@pitwall/service-kit';

/** A value of a request's URL that is not valid percent-encoding, by the name it binds to. */
export interface MalformedValue {
  name: string;
  value: string;
}

/** Whether a path segment or query component decodes: every `%` starts `%XX`, and the bytes are UTF-8. */
function decodes(text: string): boolean {
  if (!text.includes('%')) return true;
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path parameters of an operation's `template` (`/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/metadata`)
 * whose segments of the raw `path` do not decode; undefined when the path is not the template's (literal segments
 * match case-insensitively and a trailing slash is allowed, as the routes match).
 */
export function malformedPathParameters(template: string, path: string): MalformedValue[] | undefined {
  const expected = template.split('/').slice(1);
  const actual = path.split('/').slice(1);
  if (actual.length === expected.length + 1 && actual.at(-1) === '') actual.pop();
  if (actual.length !== expected.length) return undefined;
  const malformed: MalformedValue[] = [];
  for (const [i, part] of expected.entries()) {
    const segment = actual[i] as string;
    const parameter = /^\{(\w+)\}$/.exec(part)?.[1];
    if (parameter === undefined) {
      if (segment.toLowerCase() !== part.toLowerCase()) return undefined;
    } else if (segment === '') return undefined;
    else if (!decodes(segment)) malformed.push({ name: parameter, value: segment });
  }
  return malformed;
}

/**
 * The parameters of a raw query string whose name or value does not decode, named as the query binding reads them
 * (the name decoded as leniently as the query parser does, `+` a space).
 */
export function malformedQueryParameters(query: string): MalformedValue[] {
  const malformed: MalformedValue[] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = (at < 0 ? pair : pair.slice(0, at)).replace(/\+/g, ' ');
    const value = at < 0 ? '' : pair.slice(at + 1).replace(/\+/g, ' ');
    if (!decodes(name)) malformed.push({ name: lenientUnescape(name), value: name });
    else if (!decodes(value)) malformed.push({ name: decodeURIComponent(name), value });
  }
  return malformed;
}

/** The 400 of a request whose URL has values that are not valid percent-encoding: each named, one sentence each. */
export function percentEncodingRefusal(values: readonly MalformedValue[]): AppError {
  const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const { name } of values) (errors[name] ??= []).push(NOT_PERCENT_ENCODED);
  return AppError.badRequest(values.map(({ name, value }) => `${name} '${value.slice(0, 64)}' ${NOT_PERCENT_ENCODED} ${PERCENT_ENCODING_HINT}`).join('; '), errors);
}
