import pino from 'pino';
import { PinoPretty } from 'pino-pretty';

export type Logger = pino.Logger;

/** `LOG_FORMAT`: `json` (one object per line, for collectors), `pretty` (for a person), or by stdout being a terminal. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function logFormat(value = process.env['LOG_FORMAT'], isTerminal = Boolean(process.stdout.isTTY)): LogFormat {
  if (value === undefined || value === '') return isTerminal ? 'pretty' : 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(value)) throw new Error(`Invalid configuration:\n  LOG_FORMAT: must be one of ${LOG_FORMATS.join(', ')}`);
  return value as LogFormat;
}

/** While held (startup of `npm start`), info and below are dropped: warnings and errors still show. */
let infoHeld = false;
const WARN = 40; // pino's level number of warn

/** Drops info-level lines of every logger until the returned function is called (the demo's seeding stays quiet). */
export function holdInfoLogs(): () => void {
  infoHeld = true;
  return () => {
    infoHeld = false;
  };
}

/**
 * One logger per app; `LOG_LEVEL` sets the level (default info, silent in tests unless set), `LOG_FORMAT` the format
 * (JSON unless stdout is a terminal).
 */
export function createLogger(
  app: string,
  level = process.env['LOG_LEVEL'] ?? (process.env['JEST_WORKER_ID'] ? 'silent' : 'info'),
  format: LogFormat = logFormat(),
  destination: pino.DestinationStream | NodeJS.WritableStream = process.stdout,
): Logger {
  if (level !== 'silent' && !(level in pino.levels.values)) throw new Error(`Invalid configuration:\n  LOG_LEVEL: must be one of ${Object.keys(pino.levels.values).join(', ')}, silent`);
  const options: pino.LoggerOptions = {
    name: app,
    level,
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: {
      logMethod(args, method, levelValue) {
        if (infoHeld && levelValue < WARN) return;
        method.apply(this, args);
      },
    },
  };
  if (format === 'pretty') return pino(options, prettyStreamTo(destination));
  return destination === process.stdout ? pino(options) : pino(options, destination as pino.DestinationStream);
}

/** One pretty stream per destination, shared by every app's logger: each stream listens on its destination. */
const prettyStreams = new WeakMap<object, ReturnType<typeof PinoPretty>>();

function prettyStreamTo(destination: pino.DestinationStream | NodeJS.WritableStream): ReturnType<typeof PinoPretty> {
  let stream = prettyStreams.get(destination);
  if (!stream) {
    // Pretty lines are written synchronously on the calling thread: no worker thread to resolve inside a bundle.
    stream = PinoPretty({ sync: true, destination, colorize: destination === process.stdout && Boolean(process.stdout.isTTY), translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,app' });
    prettyStreams.set(destination, stream);
  }
  return stream;
}

/**
 * What a log line says of an error it does not treat as a bug: its message (the first of an AggregateError's when it
 * has none, else its code) and its code, one line. Never the stack, nor what a driver hung on it (a pg error's `client`, with the
 * backend's cancel key).
 */
export function errorFields(err: unknown): { reason: string; code?: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return { reason: errorReason(err), ...(typeof code === 'string' ? { code } : {}) };
}

// By shape, not instanceof: an error made in another realm (a worker, a test's sandbox) is one too.
function errorReason(err: unknown): string {
  const e = err as { message?: unknown; name?: unknown; errors?: unknown; code?: unknown } | null;
  if (typeof e !== 'object' || e === null || typeof e.message !== 'string') return String(err);
  if (e.message) return e.message;
  const first = Array.isArray(e.errors) ? (e.errors[0] as { message?: unknown } | undefined) : undefined;
  if (typeof first?.message === 'string' && first.message) return first.message;
  if (typeof e.code === 'string' && e.code) return e.code;
  return typeof e.name === 'string' ? e.name : 'Error';
}
