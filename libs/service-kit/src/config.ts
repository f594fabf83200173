import { z } from 'zod';

/**
 * Validates the environment against an app's config schema, whose keys are the environment variable names.
 * A bad value stops start-up with a message naming the variable.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    picked[key] = value === '' ? undefined : value;
  }
  const result = schema.safeParse(picked);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return result.data;
}

export interface IntBounds {
  /** The least value (default 1): say `min: 0` only where 0 has a documented meaning ("0: none", "0 turns it off"). */
  min?: number;
  max?: number;
}

/** The one refusal of a whole number out of its bounds (the variable's name is put before it by loadConfig). */
function wholeNumber(min: number, max: number | undefined): string {
  return max === undefined ? `must be a whole number of ${min} or more` : `must be a whole number from ${min} to ${max}`;
}

/**
 * A whole-number environment variable with a default, e.g. `BUS_TIMEOUT_MS`. At least 1 unless `min` says otherwise:
 * a 0 that would break everything (every request timing out at once) stops the start, naming the variable.
 */
export function intVar(fallback: number, { min = 1, max }: IntBounds = {}) {
  const message = wholeNumber(min, max);
  const n = z.coerce.number({ error: message }).int(message).min(min, message);
  return (max === undefined ? n : n.max(max, message)).default(fallback);
}

/**
 * A TCP port to listen on (0: a free one); `none: -1` also takes -1 for "do not listen at all". Checked here, so a
 * bad one stops the start naming its variable instead of Node's `options.port should be >= 0 and < 65536`.
 */
export function portVar(fallback: number, { none }: { none?: -1 } = {}) {
  const message = `must be a port number from 0 (a free one) to 65535${none === undefined ? '' : `, or ${none} (none)`}`;
  return z.coerce
    .number({ error: message })
    .int(message)
    .min(none ?? 0, message)
    .max(65535, message)
    .default(fallback);
}

/** What a connection URL may be: its schemes (without the colon) and an example for the message. */
export interface UrlKind {
  schemes: readonly string[];
  example: string;
}

export const POSTGRES_URL: UrlKind = { schemes: ['postgres', 'postgresql'], example: 'postgres://user:password@host:5432/database' };
export const AMQP_URL: UrlKind = { schemes: ['amqp', 'amqps'], example: 'amqp://user:password@host:5672' };
export const REDIS_URL: UrlKind = { schemes: ['redis', 'rediss'], example: 'redis://host:6379' };

/**
 * A connection URL (`DATABASE_URL`, `AMQP_URL`, `REDIS_URL`): it must parse and have one of the kind's schemes, so a
 * typo stops the start naming the variable rather than a driver failing later (or waiting for a host that is not one).
 * The message never repeats the value: it may hold a password.
 */
export function urlVar(kind: UrlKind) {
  const schemes = kind.schemes.map((s) => `${s}://`).join(' or ');
  const a = /^[aeiou]/.test(schemes) ? 'an' : 'a';
  return z.string().superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `is not a URL; it must be ${a} ${schemes} URL such as ${kind.example}` });
      return;
    }
    if (!kind.schemes.includes(url.protocol.replace(/:$/, '').toLowerCase())) ctx.addIssue({ code: 'custom', message: `must be ${a} ${schemes} URL such as ${kind.example}` });
  });
}

/** Where a connection URL points, for a log line: scheme, host and port, never its user or password. */
export function urlAddress(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(not a URL)';
  }
}
