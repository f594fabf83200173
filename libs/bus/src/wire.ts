import { AppError, OUTCOME_UNKNOWN_SENTENCE, OUTCOME_UNKNOWN_TYPE, causeFields, inRequestScope, serializeAppError, toAppError, fromSerialized, type SerializedAppError } from '@pitwall/service-kit';
import type { Logger } from '@pitwall/service-kit';
import { EncodedJson, decodeJson, encodeJson } from './encoded-json';
import type { BusHeaders } from './types';

export const CONTENT_TYPE = 'application/json';

/**
 * A reply as it crosses the bus: the outcome travels beside the body (AMQP `type` `reply.ok` / `reply.error`), so
 * the body of a success is the handler's JSON itself and can be handed on without parsing.
 */
export type Reply = { ok: true; content: Buffer; headers: Record<string, string> } | { ok: false; content: Buffer };

export const REPLY_OK = 'reply.ok';
export const REPLY_ERROR = 'reply.error';
/**
 * Not a reply but a word before it: the instance handling the request is stopping (it no longer consumes) and will
 * still answer it. Sent to the request's reply address, empty, before the instance's consumer is cancelled.
 */
export const REPLY_HELD = 'reply.held';

/** Only string headers are bus headers; broker bookkeeping (x-delivery-count, x-death) stays out. */
export function toBusHeaders(raw: Record<string, unknown> | undefined): BusHeaders {
  const headers: BusHeaders = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (typeof value === 'string' && !name.startsWith('x-')) headers[name] = value;
    else if (Buffer.isBuffer(value) && !name.startsWith('x-')) headers[name] = value.toString('utf8');
  }
  return headers;
}

export function cleanHeaders(headers: BusHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (typeof value === 'string') out[name] = value;
  return out;
}

/** Turns a handler's outcome into the reply; unexpected errors are logged here, once, by the serving side. */
export async function runRequestHandler(run: () => Promise<unknown>, logger: Logger, context: Record<string, unknown>): Promise<Reply> {
  try {
    // What the handler reaches (a pooled database connection) logs its own failures with the caller's request id.
    const result = await inRequestScope(typeof context['requestId'] === 'string' ? context['requestId'] : undefined, run);
    if (result instanceof EncodedJson) return { ok: true, content: result.json, headers: { ...result.headers } };
    return { ok: true, content: encodeJson(result), headers: {} };
  } catch (err) {
    const appError = toAppError(err);
    // An unexpected error with its stack; an expected 5xx (a dependency's loss) as a warning with its detail and what
    // failed underneath (the dependency, its own words), which the reply carries for the caller's log too.
    const cause = appError.status >= 500 && !appError.catastrophic ? causeFields(appError) : undefined;
    if (appError.catastrophic || appError.status === 500) logger.error({ err, ...context }, 'bus request handler failed');
    else if (appError.status >= 500) logger.warn({ status: appError.status, detail: appError.message, ...cause, ...context }, 'bus request answered with a server error');
    else logger.debug({ status: appError.status, detail: appError.message, ...context }, 'bus request rejected');
    return { ok: false, content: encodeJson({ ...serializeAppError(appError), ...(cause ? { cause } : {}) }) };
  }
}

/** The caller's side of a reply: the parsed payload, or with `encoded` the bytes and headers as they came. */
export function settleReply<R>(reply: Reply, encoded: boolean): { value: R } | { error: AppError } {
  if (!reply.ok) return { error: fromSerialized(decodeJson(reply.content) as SerializedAppError) };
  return { value: (encoded ? new EncodedJson(reply.content, reply.headers) : decodeJson(reply.content)) as R };
}

export function timeoutError(service: string, type: string, timeoutMs: number): AppError {
  return AppError.timeout(`Service ${service} did not answer ${type} within ${timeoutMs} ms`);
}

export function unavailableError(detail: string, cause?: unknown): AppError {
  return new AppError(503, detail, { cause, retryAfterSeconds: BUS_RETRY_AFTER_SECONDS });
}

/**
 * When a client may try again after the bus could not carry its request: a lost connection is reconnected within a
 * few seconds (docs/bus.md), so each of the bus's 503s says `Retry-After` as every other dependency's loss does.
 */
export const BUS_RETRY_AFTER_SECONDS = 2;

/**
 * The wire header carrying a request's deadline (epoch ms); handlers see it as `BusRequest.deadline`, not among
 * the bus headers (an `x-` header is broker bookkeeping to them).
 */
export const DEADLINE_HEADER = 'x-pitwall-deadline';
/** The header carrying a state-changing command's id (set by its sender): the service records it with the write. */
export const COMMAND_ID_HEADER = 'commandId';
// The outcome-unknown problem (a command sent whose reply never came) is named in service-kit, where libs/db's lost
// COMMIT uses it too.
export { OUTCOME_UNKNOWN_SENTENCE, OUTCOME_UNKNOWN_TYPE };

/**
 * The deadline a request carries: a grace before the caller gives up (a fifth of its timeout, at most 1 s), so a
 * write that commits just in time is still answered, and one that would commit later rolls back instead.
 */
export function requestDeadline(timeoutMs: number, now = Date.now()): number {
  return now + timeoutMs - Math.min(1000, Math.floor(timeoutMs / 5));
}

/** The headers a request is sent with on the wire: the caller's, and its deadline. */
export function requestHeaders(headers: BusHeaders | undefined, timeoutMs: number, deadline?: number): Record<string, string> {
  return { ...cleanHeaders(headers), [DEADLINE_HEADER]: String(Math.min(requestDeadline(timeoutMs), deadline ?? Infinity)) };
}

/** The deadline a request arrived with (its wire header), if it carries a valid one. */
export function deadlineOf(raw: Record<string, unknown> | undefined): number | undefined {
  const value = raw?.[DEADLINE_HEADER];
  const deadline = typeof value === 'string' ? Number(value) : Buffer.isBuffer(value) ? Number(value.toString('utf8')) : NaN;
  return Number.isFinite(deadline) ? deadline : undefined;
}

/**
 * The error of a request that was sent and never answered. A command (it carries a command id) may have taken
 * effect: a 504 saying the outcome is unknown, with its command id. A query keeps `fallback`.
 */
export function unansweredError(headers: BusHeaders | undefined, fallback: AppError): AppError {
  const commandId = headers?.[COMMAND_ID_HEADER];
  if (!commandId) return fallback;
  // How to learn the outcome depends on the command's sender (the gateway's advice names the client's Idempotency-Key).
  return new AppError(504, `${fallback.message}. ${OUTCOME_UNKNOWN_SENTENCE}; a repeat with the same command id returns its outcome (it never runs twice)`, {
    type: OUTCOME_UNKNOWN_TYPE,
    extensions: { commandId },
    // A lost connection or a lost instance says when to come back for the outcome, as its 503 would; a timeout does not.
    ...(fallback.retryAfterSeconds !== undefined ? { retryAfterSeconds: fallback.retryAfterSeconds } : {}),
  });
}
