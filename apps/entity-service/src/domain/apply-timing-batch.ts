import { withTransaction } from '@pitwall/db';
import { checkDeadline, commandOf, type OutboxMessage, type ReplyCodec } from '@pitwall/messaging';
import { AppError, toAppError } from '@pitwall/service-kit';
import type { CallerContext, EntityChangedEvent, TimingEvent, TimingLevel, TimingUpdate } from '@pitwall/contracts';
import { entityRepository as repo } from '../data-access/entity-repository';
import { checkCaller, timingWrite } from './apply-timing-update';
import { entityEventMessage } from './entity-events';
import { loadParameterSets } from './parameter-sets';
import type { ParameterSets } from './projection';
import type { RenderedReply } from './read-cache';
import { replyCodec, type StoreContext } from './store-context';

/** One update of a batch, with the bus headers of its own request (command id and hash, request id) and its deadline. */
export interface TimingBatchItem {
  caller: CallerContext;
  type: TimingLevel;
  body: TimingUpdate;
  headers: Record<string, string>;
  deadline?: number;
}

export type TimingBatchOutcome = { ok: true; reply: RenderedReply } | { ok: false; error: AppError };

/**
 * Consecutive updates of one timing partition (docs/timing.md) in one transaction, applied in the order given, each
 * as `applyTimingUpdate` would apply it alone: a refused update writes nothing and the others go on (when one is
 * refused, the batch is applied again with a savepoint per update), recorded in the inbox under its own command id (a repeat answers its recorded reply), its events into
 * the outbox. One commit, one outbox insert, one scope bump per account and one publication for the batch. An update
 * already past its deadline when its turn comes is refused alone (504 "deadline passed"); past the earliest deadline
 * of the others at the commit, nothing commits (every update is then a 504 "deadline passed": none took effect).
 */
export async function applyTimingBatch(ctx: StoreContext, items: readonly TimingBatchItem[]): Promise<TimingBatchOutcome[]> {
  // First without savepoints (two statements fewer per update): a feed's updates are almost always accepted. A refusal
  // then rolls the whole transaction back, which writes nothing; a batch of one is answered with it, a longer batch
  // is applied again with a savepoint per update, so that only the refused one writes nothing.
  let result: { outcomes: TimingBatchOutcome[]; publish: () => Promise<void> };
  try {
    result = await applyInTransaction(ctx, items, false);
  } catch (err) {
    if (!(err instanceof RefusedAlone)) throw err;
    if (items.length === 1) return [{ ok: false, error: err.error }];
    result = await applyInTransaction(ctx, items, true);
  }
  await ctx.afterCommit?.();
  await result.publish();
  return result.outcomes;
}

/** The refusal of an update applied without a savepoint, carried out of its transaction (which it rolled back). */
class RefusedAlone extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
  }
}

async function applyInTransaction(ctx: StoreContext, items: readonly TimingBatchItem[], savepoints: boolean): Promise<{ outcomes: TimingBatchOutcome[]; publish: () => Promise<void> }> {
  return withTransaction(ctx.pool, async (c) => {
    const outcomes: TimingBatchOutcome[] = [];
    const messages: OutboxMessage<EntityChangedEvent>[] = [];
    const scopes = new Map<string, string[]>();
    // An account's parameter definitions are read once per batch (a write in it cannot change them).
    const sets = new Map<string, ParameterSets>();
    // The deadlines of the updates that will commit: past the earliest, the whole batch rolls back.
    const deadlines: number[] = [];
    for (const item of items) {
      if (savepoints) await c.query('SAVEPOINT timing_update');
      const own: OutboxMessage<EntityChangedEvent>[] = [];
      const touched: string[] = [];
      try {
        checkCaller(item.caller, item.body);
        const run = async (): Promise<RenderedReply> => {
          // An update whose caller has already given up is refused alone (504, nothing written), not with the batch.
          checkDeadline(item.deadline);
          let accountSets = sets.get(item.caller.accountId);
          if (!accountSets) sets.set(item.caller.accountId, (accountSets = await loadParameterSets(c, item.caller.accountId)));
          const written = await timingWrite(c, item.caller, item.type, item.body, accountSets);
          const headers: Record<string, string> = item.headers['requestId'] ? { requestId: item.headers['requestId'] } : {};
          own.push(...written.events.map((e) => entityEventMessage(e, headers)));
          // The outbox stores any JSON payload: timing messages ride in it beside the entity events (typed for those).
          own.push(...(written.messages.map((m: OutboxMessage<TimingEvent>) => ({ ...m, headers: { ...headers, ...m.headers } })) as unknown as OutboxMessage<EntityChangedEvent>[]));
          touched.push(...written.scopes);
          return written.result;
        };
        const command = commandOf(item.headers, item.caller.accountId);
        const reply = ctx.inbox ? await ctx.inbox.once(c, command, replyCodec as ReplyCodec<RenderedReply>, run) : await run();
        if (savepoints) await c.query('RELEASE SAVEPOINT timing_update');
        outcomes.push({ ok: true, reply });
        if (item.deadline !== undefined) deadlines.push(item.deadline);
        messages.push(...own);
        scopes.set(item.caller.accountId, [...(scopes.get(item.caller.accountId) ?? []), ...touched]);
      } catch (err) {
        // A parent deleted by a concurrent request between the checks and the insert: gone, not a fault.
        const error = (err as { code?: string })?.code === '23503' ? AppError.notFound('An entity this update refers to was deleted while it ran') : toAppError(err);
        if (!savepoints) throw new RefusedAlone(error);
        await c.query('ROLLBACK TO SAVEPOINT timing_update');
        outcomes.push({ ok: false, error });
      }
    }
    const publish = await ctx.outbox.add(c, messages);
    // Last, so cached reads of these runs end with the commit.
    for (const [accountId, touched] of scopes) if (touched.length) await repo.bumpScopeVersions(c, accountId, touched);
    await ctx.beforeCommit?.();
    if (deadlines.length) checkDeadline(Math.min(...deadlines));
    return { outcomes, publish };
  });
}
