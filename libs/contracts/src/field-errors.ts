import { z } from 'zod';

/**
 * How a broken rule is reported, by the gateway and by every service alike: each field named by its path
 * (`ParameterUpdates[0].Value`) with the API's wording of the rule (`must be a number, not a string`). Binding an
 * HTTP request to these schemas (case-insensitive names, unknown properties) is the gateway's
 * (`apps/gateway/src/entry-points/http/request-binding.ts`).
 */

/**
 * The `when` of a body's refinement that checks several fields together, so that it runs beside the fields' own
 * refusals and one answer names every bad field: whenever the body is a JSON object. The refinement then reads the
 * body as sent (any field of any type: it must check what it reads, and look up a table only by its own keys).
 */
export const EVERY_REFUSAL_AT_ONCE = { when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value) };

/** Field path → messages, `ParameterUpdates[0].Value` style, for the problem+json `errors` member. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  // A value of the wrong type is told once: zod (4.6) still runs a string's length checks on an array (`[]` for a
  // name was "must be a string, not an array" and "must not be empty"). A message is given once a field.
  const wrongType = new Set<string>();
  const add = (path: string, message: string) => {
    const messages = (out[path || '(body)'] ??= []);
    if (!messages.includes(message)) messages.push(message);
  };
  for (const issue of error.issues) {
    const base = formatPath(issue.path);
    if (wrongType.has(base)) continue;
    if (issue.code === 'invalid_type') wrongType.add(base);
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

