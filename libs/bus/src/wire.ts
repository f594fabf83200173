import { AppError, serializeAppError, toAppError, fromSerialized, type SerializedAppError } from '@pitwall/service-kit';
import type { Logger } from '@pitwall/service-kit';
import type { BusHeaders } from './types';

/** What a reply message carries: the handler's result or its error, never both. */
export type ReplyEnvelope = { ok: true; payload: unknown } | { ok: false; error: SerializedAppError };

export const CONTENT_TYPE = 'application/json';

/** Payloads cross the bus as JSON on both transports, so they behave the same everywhere. */
export function encodeJson(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value === undefined ? null : value));
}

export function decodeJson(content: Buffer): unknown {
  return JSON.parse(content.toString('utf8'));
}

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
export async function runRequestHandler(run: () => Promise<unknown>, logger: Logger, context: Record<string, unknown>): Promise<ReplyEnvelope> {
  try {
    return { ok: true, payload: await run() };
  } catch (err) {
    const appError = toAppError(err);
    if (appError.status >= 500) logger.error({ err, ...context }, 'bus request handler failed');
    else logger.debug({ status: appError.status, detail: appError.message, ...context }, 'bus request rejected');
    return { ok: false, error: serializeAppError(appError) };
  }
}

export function settleReply<R>(envelope: ReplyEnvelope): { value: R } | { error: AppError } {
  if (envelope.ok) return { value: envelope.payload as R };
  return { error: fromSerialized(envelope.error) };
}

export function timeoutError(service: string, type: string, timeoutMs: number): AppError {
  return AppError.timeout(`Service ${service} did not answer ${type} within ${timeoutMs} ms`);
}

export function unavailableError(detail: string, cause?: unknown): AppError {
  return AppError.unavailable(detail, cause);
}
