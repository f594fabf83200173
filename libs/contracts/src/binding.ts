import { z } from 'zod';

/**
 * Case-insensitive binding (wire.md §1): renames each property of `value` to the spelling the schema
 * declares, whatever its case, recursively through objects, arrays, records, optionals and nullables.
 * Properties the schema does not declare keep their spelling so the strict schema can name them.
 * A declared property given in two spellings (`stintLapNumber` and `StintLapNumber`) keeps the first; the path of each
 * such property goes into `givenTwice`, for the caller to refuse (one value must not silently hide another).
 */
export function bindCaseInsensitive(schema: z.ZodType, value: unknown, givenTwice: string[] = [], path: (string | number)[] = []): unknown {
  const def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'nonoptional':
      return bindCaseInsensitive(def.innerType as z.ZodType, value, givenTwice, path);
    case 'pipe':
      return bindCaseInsensitive(def.in as z.ZodType, value, givenTwice, path);
    case 'array':
      return Array.isArray(value) ? value.map((v, i) => within(path, i, () => bindCaseInsensitive(def.element as z.ZodType, v, givenTwice, path))) : value;
    case 'record':
      if (!isPlainObject(value)) return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, within(path, k, () => bindCaseInsensitive(def.valueType as z.ZodType, v, givenTwice, path))]));
    case 'object': {
      if (!isPlainObject(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      const canonical = canonicalNames(shape);
      // Keys come from the client: `constructor` or `__proto__` must be plain unknown properties, never Object's own.
      const out: Record<string, unknown> = Object.create(null);
      for (const [key, v] of Object.entries(value)) {
        const name = canonical.get(key.toLowerCase()) ?? key;
        if (!Object.hasOwn(shape, name)) out[name] = v;
        else if (Object.hasOwn(out, name)) givenTwice.push(formatPath([...path, name]));
        else out[name] = within(path, name, () => bindCaseInsensitive(shape[name] as z.ZodType, v, givenTwice, path));
      }
      return out;
    }
    default:
      return value;
  }
}

/** `run()` with `key` on the end of `path` (one array, pushed and popped, instead of a path spelled for every value). */
function within<T>(path: (string | number)[], key: string | number, run: () => T): T {
  path.push(key);
  try {
    return run();
  } finally {
    path.pop();
  }
}

/** Each object schema's property names by their lower case, worked out once per shape (shapes do not change). */
const canonicalByShape = new WeakMap<object, Map<string, string>>();

function canonicalNames(shape: Record<string, z.ZodType>): Map<string, string> {
  let names = canonicalByShape.get(shape);
  if (!names) canonicalByShape.set(shape, (names = new Map(Object.keys(shape).map((k) => [k.toLowerCase(), k]))));
  return names;
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
  const out: Record<string, string[]> = Object.create(null);
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

/**
 * Validates with the input kept on each issue, so a value of the wrong type is told apart from a missing one; a rule
 * whose schema gives no message of its own is worded as the API words its rules (`must be a number, not a string`).
 */
export function safeParseReporting<S extends z.ZodType>(schema: S, value: unknown) {
  return schema.safeParse(value, { reportInput: true, error: ruleMessage });
}

/** zod's default messages in the API's words; undefined keeps zod's own (an issue this does not know). */
export function ruleMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'is required';
      // zod reports 1.5 against .int() as the wrong type: a number, not a whole one.
      if (typeof issue.input === 'number' && (issue.expected === 'number' || issue.expected === 'int'))
        return Number.isFinite(issue.input) && issue.expected === 'int' ? 'must be a whole number' : 'must be a finite number';
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      return `must be ${expected}, not ${kindOf(issue.input)}`;
    }
    case 'too_big': {
      const bound = String(issue.maximum);
      if (issue.origin === 'array' || issue.origin === 'set') return issue.inclusive ? `must have at most ${bound} items` : `must have fewer than ${bound} items`;
      if (issue.origin === 'string') return issue.inclusive ? `must be at most ${bound} characters long` : `must be shorter than ${bound} characters`;
      return issue.inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
    }
    case 'too_small': {
      const bound = String(issue.minimum);
      if ((issue.origin === 'array' || issue.origin === 'set' || issue.origin === 'string') && bound === '1' && issue.inclusive) return 'must not be empty';
      if (issue.origin === 'array' || issue.origin === 'set') return issue.inclusive ? `must have at least ${bound} items` : `must have more than ${bound} items`;
      if (issue.origin === 'string') return issue.inclusive ? `must be at least ${bound} characters long` : `must be longer than ${bound} characters`;
      return issue.inclusive ? `must be ${bound} or more` : `must be more than ${bound}`;
    }
    case 'invalid_value':
      return `must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((v) => (typeof v === 'bigint' ? String(v) : JSON.stringify(v))).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return undefined;
  }
}

const EXPECTED: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  record: 'an object',
  null: 'null',
};

/** What a JSON value is, in words: `a string`, `an array`, `null`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}

/** Binds then validates a request body. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): ParseResult<z.infer<S>> {
  const givenTwice: string[] = [];
  const bound = bindCaseInsensitive(schema, body, givenTwice);
  const result = safeParseReporting(schema, bound);
  // A `__proto__` key would vanish into an object's prototype inside zod instead of being reported: report it here.
  const proto = protoKeyPaths(bound);
  if (result.success && proto.length === 0 && givenTwice.length === 0) return { ok: true, value: result.data };
  const errors = result.success ? Object.create(null) : fieldErrors(result.error);
  for (const path of proto) errors[path] = ['unknown property'];
  for (const path of givenTwice) errors[path] = ['must be given once'];
  return { ok: false, errors };
}

/**
 * Paths of the own `__proto__` keys (JSON.parse makes them) in a bound body, down to the depth the contracts reach;
 * iterative, so a hostile nesting depth costs no stack. Almost every body has none, so a node keeps only its parent
 * and its key, and a path is spelled only for a key found.
 */
function protoKeyPaths(value: unknown): string[] {
  const found: string[] = [];
  const pending: WalkStep[] = [{ node: value, depth: 0 }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    const { node, depth } = step;
    if (depth > MAX_CONTRACT_DEPTH) continue;
    if (Array.isArray(node)) node.forEach((v, i) => pending.push({ node: v, depth: depth + 1, parent: step, key: i }));
    else if (isPlainObject(node)) {
      for (const k of Object.keys(node)) {
        if (k === '__proto__') {
          const at = pathOf(step);
          found.push(at ? `${at}.${k}` : k);
        }
        else pending.push({ node: node[k], depth: depth + 1, parent: step, key: k });
      }
    }
  }
  return found;
}

/** A node of that walk: its value, and where it sits (an array index or a property of its parent). */
interface WalkStep {
  node: unknown;
  depth: number;
  parent?: WalkStep;
  key?: string | number;
}

/** `a.b[2].c`: the keys from the root down to `step`. */
function pathOf(step: WalkStep): string {
  let path = '';
  for (let at: WalkStep | undefined = step; at?.parent; at = at.parent) {
    const key = at.key as string | number;
    path = typeof key === 'number' ? `[${key}]${path}` : `${at.parent.parent ? '.' : ''}${key}${path}`;
  }
  return path;
}

/** Deeper than any contract's objects: a `__proto__` key below this is inside a value no schema copies. */
const MAX_CONTRACT_DEPTH = 16;
