import type { CallerContext, TimingLevel, TimingUpdate } from '@pitwall/contracts';
import type { AppError } from '@pitwall/service-kit';
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
