import { AsyncLocalStorage } from 'node:async_hooks';
import type { z } from 'zod';
import { EncodedJson, type BusRequest, type RequestHandler } from '@pitwall/bus';
import { AppError, type Logger } from '@pitwall/service-kit';
import { ENTITY_COMMANDS, ENTITY_REPLY_HEADERS, EntityCreate, EntityDelete, EntityGet, EntityList, EntitySearch, EntityUpdate, entityType, fieldErrors, safeParseReporting } from '@pitwall/contracts';
import type { EntityStore, RenderedReply } from '../../domain/entity-store';

function parse<S extends z.ZodType>(schema: S, request: BusRequest): z.infer<S> {
  const result = safeParseReporting(schema, request.payload);
  if (!result.success) throw AppError.badRequest(`The ${request.type} message is not valid`, fieldErrors(result.error));
  return result.data;
}

/** The rendered JSON goes out as it is: the gateway forwards the bytes without parsing them. */
function encoded(reply: RenderedReply): EncodedJson {
  const headers: Record<string, string> = {};
  if (reply.lastModifiedTime) headers[ENTITY_REPLY_HEADERS.lastModifiedTime] = reply.lastModifiedTime;
  if (reply.entityId) headers[ENTITY_REPLY_HEADERS.entityId] = reply.entityId;
  return new EncodedJson(reply.json, headers);
}

/** A type the registry declares read-only (Users) is never written over the API: 403 with the reason. */
function refuseReadOnly(typeName: string): void {
  const readOnly = entityType(typeName)?.readOnly;
  if (readOnly) throw AppError.forbidden(readOnly.reason);
}

/** The request id of the command being handled, for what it causes later in the same flow (its events). */
export const commandContext = new AsyncLocalStorage<{ requestId?: string }>();

/** Thin bus entry point: validate the message with the contracts, call the store. */
export function entityCommands(store: EntityStore, logger: Logger): RequestHandler {
  const handlers: Record<string, (r: BusRequest) => Promise<unknown>> = {
    ping: async () => 'pong',
    [ENTITY_COMMANDS.get]: async (r) => {
      const m = parse(EntityGet, r);
      return encoded(await store.get(m.caller, m.type, m.id.toLowerCase(), m.include));
    },
    [ENTITY_COMMANDS.list]: async (r) => {
      const m = parse(EntityList, r);
      return encoded(await store.list(m.caller, m.type, m.parentIds, m.include, m.filters));
    },
    [ENTITY_COMMANDS.search]: async (r) => {
      const m = parse(EntitySearch, r);
      return encoded(await store.search(m.caller, m.type, m.body, m.include));
    },
    [ENTITY_COMMANDS.create]: async (r) => {
      const m = parse(EntityCreate, r);
      refuseReadOnly(m.type);
      return encoded(await store.create(m.caller, m.type, m.parentIds, m.body, m.bindingErrors));
    },
    [ENTITY_COMMANDS.update]: async (r) => {
      const m = parse(EntityUpdate, r);
      refuseReadOnly(m.type);
      return encoded(await store.update(m.caller, m.type, m.id.toLowerCase(), m.body, m.bindingErrors));
    },
    [ENTITY_COMMANDS.delete]: async (r) => {
      const m = parse(EntityDelete, r);
      refuseReadOnly(m.type);
      await store.delete(m.caller, m.type, m.id.toLowerCase());
      return null;
    },
  };
  return async (request) => {
    const handler = handlers[request.type];
    if (!handler) throw AppError.badRequest(`The entity service has no command ${request.type}`);
    try {
      return await commandContext.run({ requestId: request.headers.requestId }, () => handler(request)).catch((err: unknown) => {
        // A parent deleted by a concurrent request between our check and our insert: the parent is gone, not a fault.
        if ((err as { code?: string })?.code === '23503') throw AppError.notFound('An entity this request refers to was deleted while it ran');
        throw err;
      });
    } catch (err) {
      // The bus logs failures (5xx) once; a rejection is worth an info line carrying the caller's request id.
      if (err instanceof AppError && err.status < 500) logger.info({ requestId: request.headers.requestId, command: request.type, status: err.status, detail: err.message }, 'rejected');
      throw err;
    }
  };
}
