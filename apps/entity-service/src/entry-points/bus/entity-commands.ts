import { AsyncLocalStorage } from 'node:async_hooks';
import { EncodedJson, type RequestHandler } from '@pitwall/bus';
import { AppError, serializeAppError, type Logger } from '@pitwall/service-kit';
import { ENTITY_COMMANDS, ENTITY_REPLY_HEADERS, ENTITY_TIMING_BATCH_COMMAND, ENTITY_TIMING_COMMAND, SERVICES, ATTACHMENT_COMMANDS } from '@pitwall/contracts';
import { dispatchCommands } from '@pitwall/service-host';
import type { AttachmentContext } from '../../domain/attachments/attachment-context';
import type { TimingBatchOutcome } from '../../domain/timing/timing-batch';
import type { EntityStore, RenderedReply } from '../../domain/entity-store';
import { attachmentCommandHandlers } from './attachment-commands';

/** The rendered JSON goes out as it is: the gateway forwards the bytes without parsing them. */
function encoded(reply: RenderedReply): EncodedJson {
  const headers: Record<string, string> = {};
  if (reply.lastModifiedTime) headers[ENTITY_REPLY_HEADERS.lastModifiedTime] = reply.lastModifiedTime;
  if (reply.entityId) headers[ENTITY_REPLY_HEADERS.entityId] = reply.entityId;
  return new EncodedJson(reply.json, headers);
}

/** A batch's outcomes as one JSON array (TimingBatchReplyItem), each rendered entity's bytes spliced in as they are. */
function encodedOutcomes(outcomes: TimingBatchOutcome[]): EncodedJson {
  const parts: Buffer[] = [Buffer.from('[')];
  outcomes.forEach((outcome, i) => {
    if (i > 0) parts.push(Buffer.from(','));
    if (!outcome.ok) {
      parts.push(Buffer.from(JSON.stringify({ ok: false, error: serializeAppError(outcome.error) })));
      return;
    }
    const { headers } = encoded(outcome.reply);
    parts.push(Buffer.from(`{"ok":true,"headers":${JSON.stringify(headers)},"body":`), outcome.reply.json, Buffer.from('}'));
  });
  parts.push(Buffer.from(']'));
  return new EncodedJson(Buffer.concat(parts), {});
}

/**
 * The request id and bus headers of the command being handled, for what it causes later in the same flow (its
 * events; its command id, request hash and deadline for the inbox).
 */
export const commandContext = new AsyncLocalStorage<{ requestId?: string; headers: Record<string, string | undefined>; deadline?: number }>();

/** Thin bus entry point: one handler per command the operation table routes to the entity service, each calling the store. */
export function entityCommands(store: EntityStore, logger: Logger, attachments: AttachmentContext): RequestHandler {
  const dispatch = dispatchCommands(
    SERVICES.entity,
    {
    [ENTITY_COMMANDS.get]: async (m) => encoded(await store.get(m.caller, m.type, m.id.toLowerCase(), m.include)),
    [ENTITY_COMMANDS.list]: async (m) => encoded(await store.list(m.caller, m.type, m.parentIds, m.include, m.filters)),
    [ENTITY_COMMANDS.search]: async (m) => encoded(await store.search(m.caller, m.type, m.body, m.include)),
    [ENTITY_COMMANDS.create]: async (m) => encoded(await store.create(m.caller, m.type, m.parentIds, m.body, m.bindingErrors, { filters: m.filters, include: m.include })),
    [ENTITY_COMMANDS.update]: async (m) => encoded(await store.update(m.caller, m.type, m.id.toLowerCase(), m.body, m.bindingErrors)),
    [ENTITY_COMMANDS.getMany]: async (m) => encoded(await store.getMany(m.caller, m.type, m.ids)),
    [ENTITY_COMMANDS.updateMany]: async (m) => encoded(await store.updateMany(m.caller, m.type, m.items)),
    [ATTACHMENT_COMMANDS.dataset]: async (m) => store.attachmentDataset(m.caller, m.type, m.id.toLowerCase(), m.group),
    [ATTACHMENT_COMMANDS.datasetSectors]: async (m) => store.datasetSectors(m.caller, m.type, m.id.toLowerCase()),
    [ATTACHMENT_COMMANDS.datasetConstants]: async (m) => store.datasetConstants(m.caller, m.type, m.id.toLowerCase(), m.names),
    [ENTITY_COMMANDS.delete]: async (m) => {
      await store.delete(m.caller, m.type, m.id.toLowerCase());
      return null;
    },
    [ENTITY_TIMING_COMMAND]: async (m) => encoded(await store.applyTimingUpdate(m.caller, m.type, m.body)),
    [ENTITY_TIMING_BATCH_COMMAND]: async (m) => encodedOutcomes(await store.applyTimingBatch(m.items)),
    ...attachmentCommandHandlers(attachments),
    },
    { extra: { ping: async () => 'pong' } },
  );
  return async (request) => {
    try {
      return await commandContext.run({ requestId: request.headers.requestId, headers: request.headers, ...(request.deadline === undefined ? {} : { deadline: request.deadline }) }, () => dispatch(request)).catch((err: unknown) => {
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
