import { mkdtemp, rm } from 'node:fs/promises';
import { makeDirectory } from './directories';
import { isIP } from 'node:net';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * Settings where an empty value is a value, refused as blank: a name prefix set empty was meant to be empty, and the
 * default in its place would share its keys or queues with every other deployment. Any other setting set empty is
 * unset (compose passes `${NAME:-}` for an unset variable).
 */
const emptyIsAValue = new WeakSet<z.ZodType>();

/**
 * Validates the environment against an app's config schema, whose keys are the environment variable names.
 * A bad value stops start-up with a message naming the variable and what it takes, never the value (a URL or a
 * secret may be in it).
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const picked: Record<string, string | undefined> = {};
  for (const [key, setting] of Object.entries(schema.shape)) {
    const value = env[key];
    picked[key] = value === '' && !emptyIsAValue.has(setting as z.ZodType) ? undefined : value;
  }
  const result = schema.safeParse(picked);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return result.data;
}

/**
 * The longest delay Node's timers keep, 2^31−1 ms (about 24.8 days): a longer one fires after 1 ms with a
 * TimeoutOverflowWarning, so a timeout meant to be long would fire at once, and an interval would spin. It is also
 * PostgreSQL's bound on its own timeouts.
 */
export const TIMER_MAX_MS = 2_147_483_647;
/** The same bound in whole seconds (2147483), for a `*_S` setting. */
export const TIMER_MAX_S = Math.floor(TIMER_MAX_MS / 1000);
/** AMQP's prefetch count is a 16-bit field: amqplib throws past it (at every connection, not at start). */
export const PREFETCH_MAX = 65_535;

export interface IntBounds {
  /** The least value (default 1): say `min: 0` only where 0 has a documented meaning ("0: none", "0 turns it off"). */
  min?: number;
  max?: number;
}

/** Decimal digits only (a sign for the bounds' message): not `0x10`, `1e3`, ` 16`, or blank, which Number() reads. */
const DECIMAL_DIGITS = /^-?[0-9]+$/;

/**
 * A whole number read from its decimal digits and checked against its bounds, refused with `message` (the variable's
 * name is put before it by loadConfig); past `Number.MAX_SAFE_INTEGER` by `pastSafe` when there is no bound of its own.
 */
function wholeNumber(fallback: number, min: number, max: number, message: string, pastSafe = message) {
  return z
    .string({ error: message })
    .regex(DECIMAL_DIGITS, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(Math.min(max, Number.MAX_SAFE_INTEGER), max < Number.MAX_SAFE_INTEGER ? message : pastSafe))
    .default(fallback);
}

/**
 * A whole-number environment variable with a default, e.g. `BUS_PUBLISH_WINDOW`. At least 1 unless `min` says
 * otherwise: a 0 that would break everything stops the start, naming the variable. Written in decimal digits only.
 * A duration is `msVar` or `secondsVar`, a prefetch `prefetchVar`: they have the bounds timers and AMQP keep.
 */
export function intVar(fallback: number, { min = 1, max }: IntBounds = {}) {
  if (max !== undefined) return wholeNumber(fallback, min, max, `must be a whole number from ${min} to ${max}`);
  return wholeNumber(fallback, min, Number.MAX_SAFE_INTEGER, `must be a whole number of ${min} or more`, `must be a whole number from ${min} to ${Number.MAX_SAFE_INTEGER}`);
}

/**
 * A duration in milliseconds (a `*_MS` variable): at least 1 unless `min` says otherwise, and at most TIMER_MAX_MS (or
 * a lower `max`), so that no timer made from it (or from a sum the code bounds the same way) fires at once.
 */
export function msVar(fallback: number, { min = 1, max = TIMER_MAX_MS }: IntBounds = {}) {
  return wholeNumber(fallback, min, Math.min(max, TIMER_MAX_MS), `must be a whole number of milliseconds from ${min} to ${Math.min(max, TIMER_MAX_MS)}`);
}

/** A duration in seconds (a `*_S` variable): as msVar, at most TIMER_MAX_S (2147483, about 24.8 days) or a lower `max`. */
export function secondsVar(fallback: number, { min = 1, max = TIMER_MAX_S }: IntBounds = {}) {
  return wholeNumber(fallback, min, Math.min(max, TIMER_MAX_S), `must be a whole number of seconds from ${min} to ${Math.min(max, TIMER_MAX_S)}`);
}

/** A consumer's prefetch (messages held unacknowledged at once): 1 to 65535, AMQP's bound. */
export function prefetchVar(fallback: number) {
  return wholeNumber(fallback, 1, PREFETCH_MAX, `must be a whole number from 1 to ${PREFETCH_MAX} (AMQP's bound on a prefetch)`);
}

/**
 * The memory this process may use at most: the machine's, or its container's limit when lower (cgroups), in MiB.
 * A cache setting is bounded by a share of it, so a typo of a few digits is refused at start instead of growing until
 * the kernel ends the process.
 */
export function memoryMiB(): number {
  const constrained = typeof process.constrainedMemory === 'function' ? process.constrainedMemory() : 0;
  const bytes = constrained > 0 ? Math.min(constrained, totalmem()) : totalmem();
  return Math.floor(bytes / (1024 * 1024));
}

/** A size in MiB of a cache kept in memory: 0 (`min: 0`) or more, up to half of `memoryMiB()`, named in the refusal. */
export function memoryShareMiBVar(fallback: number, { min = 0 }: { min?: number } = {}) {
  const max = Math.max(min, Math.floor(memoryMiB() / 2));
  return wholeNumber(fallback, min, max, `must be a whole number of MiB from ${min} to ${max} (half of the ${memoryMiB()} MiB this machine or container has)`);
}

/** A size in bytes of a cache kept in memory: 0 or more, up to half of `memoryMiB()` in bytes, named in the refusal. */
export function memoryShareBytesVar(fallback: number) {
  const max = Math.floor(memoryMiB() / 2) * 1024 * 1024;
  return wholeNumber(fallback, 0, max, `must be a whole number of bytes from 0 to ${max} (half of the ${memoryMiB()} MiB this machine or container has)`);
}

/**
 * A name prefix (`BUS_PREFIX`, `REDIS_PREFIX`): set empty or blank it is refused, never taken for unset, because the
 * default in its place would share keys or queues with other deployments.
 */
export function prefixVar(fallback: string) {
  const schema = nonBlank(fallback).default(fallback);
  emptyIsAValue.add(schema);
  return schema;
}

/** prefixVar where the caller supplies the default when it is unset (the admin CLI: its tests give their own). */
export function optionalPrefixVar(fallback: string) {
  const schema = nonBlank(fallback).optional();
  emptyIsAValue.add(schema);
  return schema;
}

const nonBlank = (fallback: string) => z.string().regex(/\S/, `must not be empty or blank (unset, it is ${fallback})`);

/** A host name: letters, digits and hyphens in dot-separated labels (underscores too, as resolvers take them). */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}[a-z0-9_])?)*\.?$/i;

/**
 * What is wrong with `host` as a host name or address (undefined: nothing). A name whose last label is a number is an
 * IPv4 address to every URL parser and resolver (`300.1.1.1`, `999.1.1.1`): one that is not a valid address is
 * refused as such, never looked up as a name.
 */
export function hostProblem(host: string): string | undefined {
  if (isIP(host)) return undefined;
  const labels = host.replace(/\.$/, '').split('.');
  if (/^(?:[0-9]+|0x[0-9a-f]*)$/i.test(labels[labels.length - 1] ?? '')) return 'is not a valid IPv4 address (four numbers from 0 to 255)';
  if (!HOST_NAME.test(host)) return 'is not a host name or an IP address';
  return undefined;
}

/**
 * An interface to listen on (`HOST`, `HEALTH_HOST`, `CLAIM_HOST`): an IP address or a host name. One that parses but
 * is not this machine's is refused when the listen fails, naming the variable too (`listenRefusal`).
 */
export function hostVar(fallback: string) {
  return z
    .string()
    .superRefine((value, ctx) => {
      const problem = hostProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `${problem}; it must be an address of this machine such as 127.0.0.1, 0.0.0.0 or ::, or a name of one` });
    })
    .default(fallback);
}

/**
 * A listen that failed, as the start-up refusal naming the setting at fault: the host's (not this machine's: not found,
 * not an address here) or the port's (in use, not allowed); any other failure as it is.
 */
export function listenRefusal(err: unknown, variables: { port: string; host: string }): Error {
  const code = (err as { code?: unknown } | null)?.code;
  const why = `(${typeof code === 'string' ? code : 'refused'})`;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
    case 'EADDRNOTAVAIL':
      return new Error(`Invalid configuration:\n  ${variables.host}: is not an address of this machine ${why}; it must be one such as 127.0.0.1, 0.0.0.0 or ::, or a name of one`, { cause: err });
    case 'EADDRINUSE':
      return new Error(`Invalid configuration:\n  ${variables.port}: is already in use on the ${variables.host} interface ${why}; choose another port, or 0 for a free one`, { cause: err });
    case 'EACCES':
      return new Error(`Invalid configuration:\n  ${variables.port}: may not be listened on by this user ${why}; ports below 1024 need privileges`, { cause: err });
    default:
      return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * Makes `dir` (and its parents) and proves it writable now, so a directory this process cannot write stops the start
 * naming `variable` rather than failing at its first use.
 */
export async function writableDirectory(dir: string, variable: string): Promise<void> {
  try {
    await makeDirectory(dir);
    await rm(await mkdtemp(join(dir, '.writable-')), { recursive: true, force: true });
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    throw new Error(`Invalid configuration:\n  ${variable}: cannot be created or written by this process (${typeof code === 'string' ? code : 'refused'}); it must be a directory it may write`, { cause: err });
  }
}

/**
 * A TCP port to listen on (0: a free one); `none: -1` also takes -1 for "do not listen at all". Checked here, so a
 * bad one stops the start naming its variable instead of Node's `options.port should be >= 0 and < 65536`.
 */
export function portVar(fallback: number, { none }: { none?: -1 } = {}) {
  const message = `must be a port number from 0 (a free one) to 65535${none === undefined ? '' : `, or ${none} (none)`}`;
  return wholeNumber(fallback, none ?? 0, 65535, message);
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
