import { z } from 'zod';

/**
 * Case-insensitive binding (wire.md §1): renames each property of `value` to the spelling the schema
 * declares, whatever its case, recursively through objects, arrays, records, optionals and nullables.
 * Properties the schema does not declare keep their spelling so the strict schema can name them.
 */
export function bindCaseInsensitive(schema: z.ZodType, value: unknown): unknown {
  const def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'nonoptional':
      return bindCaseInsensitive(def.innerType as z.ZodType, value);
    case 'pipe':
      return bindCaseInsensitive(def.in as z.ZodType, value);
    case 'array':
      return Array.isArray(value) ? value.map((v) => bindCaseInsensitive(def.element as z.ZodType, v)) : value;
    case 'record':
      if (!isPlainObject(value)) return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bindCaseInsensitive(def.valueType as z.ZodType, v)]));
    case 'object': {
      if (!isPlainObject(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      const canonical = new Map(Object.keys(shape).map((k) => [k.toLowerCase(), k]));
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) {
        const name = canonical.get(key.toLowerCase()) ?? key;
        out[name] = shape[name] ? bindCaseInsensitive(shape[name], v) : v;
      }
      return out;
    }
    default:
      return value;
  }
}

interface ZodDef {
  type: string;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
  valueType?: unknown;
  shape?: unknown;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Field path → messages, `ParameterUpdates[0].Value` style, for the problem+json `errors` member. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (path: string, message: string) => (out[path || '(body)'] ??= []).push(message);
  for (const issue of error.issues) {
    const base = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(base ? `${base}.${key}` : key, 'unknown property');
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      add(base, 'is required');
    } else {
      add(base, issue.message);
    }
  }
  return out;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const seg of path) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else s += s ? `.${String(seg)}` : String(seg);
  }
  return s;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string[]> };

/** Binds then validates a request body. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): ParseResult<z.infer<S>> {
  const result = schema.safeParse(bindCaseInsensitive(schema, body));
  return result.success ? { ok: true, value: result.data } : { ok: false, errors: fieldErrors(result.error) };
}
