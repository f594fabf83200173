import type { CallerContext, TimingLevel, TimingUpdate } from '@pitwall/contracts';
import { TIMING_BATCH_REPLY_TOO_LARGE } from '@pitwall/contracts';
import { AppError, serializeAppError } from '@pitwall/service-kit';
import type { RenderedReply } from '../read-cache';

/** One update of a batch, with the bus headers of its own request (command id and hash, request id) and its deadline. */
export interface TimingBatchItem {
  caller: CallerContext;
  type: TimingLevel;
  body: TimingUpdate;
  headers: Record<string, string>;
  deadline?: number;
}

/** What one update of a batch came to: its reply, or the refusal that left it unwritten. */
export type TimingBatchOutcome = { ok: true; reply: RenderedReply } | { ok: false; error: AppError };

/** Bytes of a reply item around its entity's JSON (`{"ok":true,"headers":…,"body":…}`), headers included: a bound. */
const REPLY_ITEM_OVERHEAD = 512;

/**
 * Refuses, inside its transaction (so nothing of it commits), a batch whose reply would be larger than one bus message
 * may be (`maxReplyBytes`, BUS_MAX_MESSAGE_BYTES): committed, its updates would each be answered the bus's 413 for a
 * write that took effect. A batch of several is refused with TIMING_BATCH_REPLY_TOO_LARGE (the timing-service sends it
 * again in halves); one update alone, whose entity is that large, is a 413 of its own.
 */
export function checkReplyFits(outcomes: readonly TimingBatchOutcome[], maxReplyBytes: number | undefined): void {
  if (maxReplyBytes === undefined) return;
  let bytes = 2;
  for (const outcome of outcomes) bytes += REPLY_ITEM_OVERHEAD + (outcome.ok ? outcome.reply.json.byteLength : JSON.stringify(serializeAppError(outcome.error)).length);
  if (bytes <= maxReplyBytes) return;
  if (outcomes.length > 1)
    throw new AppError(413, `The answers to these ${outcomes.length} timing updates would be about ${bytes} bytes, more than one message of the broker takes (BUS_MAX_MESSAGE_BYTES is ${maxReplyBytes}): nothing was changed; send them in smaller batches`, { type: TIMING_BATCH_REPLY_TOO_LARGE });
  throw new AppError(413, `The answer to this timing update (its entity) would be about ${bytes} bytes, more than the message broker takes (BUS_MAX_MESSAGE_BYTES is ${maxReplyBytes}): nothing was changed`);
}
