import { createHash, randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { COMMAND_ID_HEADER, type BusHeaders } from '@pitwall/bus';
import type { Operation } from '@pitwall/contracts';
import { AppError, closeAfterAnswer } from '@pitwall/service-kit';

/** The header a client sends to make a write safe to retry (Stripe's, and the IETF draft's of the same name). */
const IDEMPOTENCY_KEY = 'Idempotency-Key';
const IDEMPOTENCY_KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * A state-changing command's id and request hash: the service records them with its write, so a redelivery or a
 * client's retry with the same `Idempotency-Key` takes effect once. The id is the client's key (the service scopes
 * it to the account), else fresh per HTTP request; the hash covers the operation and the command as bound (path and
 * query values, the body with its canonical property names, keys in sorted order), so a retry that spells the same
 * request with its keys in another order or case is the same request. Streamed bodies (uploads) carry no command.
 */
export function commandHeaders(op: Operation, req: Request, message: unknown): BusHeaders {
  const key = req.header(IDEMPOTENCY_KEY);
  // A streamed body's key was refused before the body was read (refuseIdempotencyKey).
  if (op.method === 'get' || op.bodyKind === 'stream') return {};
  if (key !== undefined && !IDEMPOTENCY_KEY_FORMAT.test(key)) {
    throw AppError.badRequest(`${IDEMPOTENCY_KEY} must be 1 to 255 visible ASCII characters`, { [IDEMPOTENCY_KEY]: ['must be 1 to 255 visible ASCII characters'] });
  }
  const hash = createHash('sha256').update(`${op.method.toUpperCase()} ${op.path}\n`).update(JSON.stringify(message, sortedKeys)).digest('base64url');
  return { [COMMAND_ID_HEADER]: key === undefined ? `request:${randomUUID()}` : `key:${key}`, commandHash: hash };
}

/**
 * A streamed body (an upload) records no command, so a key there could promise a safe retry it does not give: a 400,
 * before a byte is read or stored (whether the gateway answers it or a service). The unread body ends the connection.
 */
export function refuseIdempotencyKey(op: Operation): RequestHandler {
  return (req, res, next) => {
    if (req.header(IDEMPOTENCY_KEY) === undefined) return next();
    closeAfterAnswer(req, res);
    throw AppError.badRequest(`${IDEMPOTENCY_KEY} is not supported on ${op.method.toUpperCase()} ${op.path}`, { [IDEMPOTENCY_KEY]: ['not supported on this operation'] });
  };
}

/** A JSON.stringify replacer writing every object's keys in sorted order (arrays keep theirs). */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const sorted = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(value).sort()) sorted[k] = (value as Record<string, unknown>)[k];
  return sorted;
}
