import type { Request } from 'express';
import type { z } from 'zod';
import { GUID_PATTERN, parseBody } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';

/** Validates a JSON body against a contract (case-insensitive names, unknown properties rejected). */
export function bindBody<S extends z.ZodType>(schema: S, req: Request, body: unknown = req.body): z.infer<S> {
  const parsed = parseBody(schema, body ?? {});
  if (!parsed.ok) throw AppError.badRequest('The request body is not valid', parsed.errors);
  return parsed.value;
}

/** The body as a plain object (`{}` when absent); anything else is a 400. */
export function objectBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw AppError.badRequest('The request body must be a JSON object', { '(body)': ['must be a JSON object'] });
  return body as Record<string, unknown>;
}

/**
 * Query parameters bound case-insensitively to `allowed`; anything else is a 400 naming it. A `repeated` name may come
 * once per value (`setupIds=a&setupIds=b`): its values are in `lists`, never in the result.
 */
export function bindQuery(req: Request, allowed: readonly string[], repeated: readonly string[] = [], lists: Record<string, string[]> = {}): Record<string, string> {
  const canonical = new Map(allowed.map((k) => [k.toLowerCase(), k]));
  const out: Record<string, string> = {};
  // Names come from the client (`__proto__` too): a null-prototype object keeps each one an ordinary key.
  const errors: Record<string, string[]> = Object.create(null);
  for (const [key, value] of Object.entries(req.query)) {
    const name = canonical.get(key.toLowerCase());
    if (!name) {
      errors[key] = ['unknown query parameter'];
      continue;
    }
    if (repeated.includes(name)) {
      const values = Array.isArray(value) ? value : [value];
      if (values.every((v) => typeof v === 'string')) lists[name] = [...(lists[name] ?? []), ...(values as string[])];
      else errors[name] = ['must be plain values'];
      continue;
    }
    // Given twice, in one spelling (`maxPoints=1&maxPoints=2`) or two (`maxPoints=1&MAXPOINTS=2`): neither wins.
    if (typeof value !== 'string' || Object.hasOwn(out, name)) {
      errors[name] = ['must be given once'];
      continue;
    }
    out[name] = value;
  }
  // `query parameter maxPoints must be given once`, `unknown query parameter 'foo'`.
  const refused = Object.entries(errors).map(([name, messages]) => (messages[0] === 'unknown query parameter' ? `unknown query parameter '${name}'` : `query parameter ${name} ${messages.join(', ')}`));
  if (refused.length) throw AppError.badRequest(refused.length === 1 ? (refused[0] as string) : `The query string is not valid: ${refused.join('; ')}`, errors);
  return out;
}

export function includeList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const paths = value.split(',').map((p) => p.trim()).filter(Boolean);
  if (paths.length > 200) throw AppError.badRequest('parametersToInclude names too many paths', { parametersToInclude: ['names more than 200 paths'] });
  const long = paths.find((p) => p.length > 500);
  if (long) throw AppError.badRequest('parametersToInclude has a path that is too long', { parametersToInclude: [`path '${long.slice(0, 40)}…' is longer than 500 characters`] });
  return paths.length ? paths : undefined;
}


export function requireGuid(name: string, value: string | undefined): string {
  if (!value || !GUID_PATTERN.test(value)) throw AppError.badRequest(`${name} '${(value ?? '').slice(0, 64)}' is not a GUID`, { [name]: ['is not a GUID'] });
  return value.toLowerCase();
}

/**
 * Like bindBody, but unknown top-level properties alone do not stop the request here: the rest is bound and the
 * unknown ones are returned, so the entity-service can report them together with the parameter errors only it can
 * find (examples.md, Validation: `ParameterUpdate` unknown and `ParameterUpdates[0].Value` in one 400).
 */
export function bindBodyKeepingUnknown<S extends z.ZodType>(schema: S, req: Request, body: Record<string, unknown>): { value: z.infer<S>; unknown?: Record<string, string[]> } {
  const parsed = parseBody(schema, body);
  if (parsed.ok) return { value: parsed.value };
  // `__proto__` cannot cross the bus as an error key (it would become a prototype again): it is refused here.
  const unknownKeys = Object.entries(parsed.errors).filter(([key, messages]) => key !== '__proto__' && Object.hasOwn(body, key) && messages.every((m) => m === 'unknown property'));
  if (unknownKeys.length !== Object.keys(parsed.errors).length) throw AppError.badRequest('The request body is not valid', parsed.errors);
  const rest = Object.fromEntries(Object.entries(body).filter(([key]) => !Object.hasOwn(parsed.errors, key)));
  return { value: bindBody(schema, req, rest), unknown: parsed.errors };
}
