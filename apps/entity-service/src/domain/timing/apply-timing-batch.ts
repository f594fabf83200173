import { inTransaction, withConnection, type Queryable } from '@pitwall/db';
import { checkDeadline, commandOf, type ReplyCodec } from '@pitwall/messaging';
import { AppError, toAppError } from '@pitwall/service-kit';
import { timingRowRepository as timingRows } from '../../data-access/timing-row-repository';
import { loadParameterSets } from '../parameter-sets';
import type { ParameterSets } from '../projection';
import type { RenderedReply } from '../read-cache';
import { BatchWrites, replyCodec, requestHeaders, type StoreContext } from '../store-context';
import { checkCaller, timingWrite, type TimingWritten } from './apply-timing-update';
import { checkReplyFits, type TimingBatchItem, type TimingBatchOutcome } from './timing-batch';
import { NotInBulk, applyInBulk } from './timing-bulk';

/**
 * Consecutive updates of one timing partition (docs/timing.md) in one transaction, applied in the order given, each
 * as `applyTimingUpdate` would apply it alone: a refused update writes nothing and the others go on (see
 * `applyWithRetry`), recorded in the inbox under its own command id (a repeat answers its recorded reply), its events into
 * the outbox. One commit, one outbox insert, one scope bump per account and one publication for the batch, which the
 * answers do not wait for (`Outbox.detach`). An update
 * already past its deadline when its turn comes is refused alone (504 "deadline passed"); past the earliest deadline
 * of the others at the commit, nothing commits (every update is then a 504 "deadline passed": none took effect).
 */
export async function applyTimingBatch(ctx: StoreContext, items: readonly TimingBatchItem[]): Promise<TimingBatchOutcome[]> {
  // An account's parameter definitions are read once per batch (a write in it cannot change them).
  const sets = new Map<string, ParameterSets>();
  const cars = items.map((item) => ({ accountId: item.caller.accountId.toLowerCase(), sessionId: item.body.sessionId.toLowerCase(), carId: item.body.carId.toLowerCase() }));
  let result: Applied;
  if (items.length === 1) {
    try {
      // The car's lock before the inbox claim, in the same order as a longer batch takes them, in the BEGIN's round trip.
      result = await withConnection(ctx.pool, (client) =>
        inTransaction(client, (c) => applyFrom(ctx, c, items, sets, { savepointsFrom: 1, carsLocked: true }), timingRows.beginLockingCars(client, cars)),
      );
    } catch (err) {
      // The refusal rolled the transaction back, which writes nothing.
      if (err instanceof RefusedAlone) return [{ ok: false, error: err.error }];
      throw err;
    }
  } else result = await applyWithRetry(ctx, items, sets, cars);
  await ctx.afterCommit?.();
  // The events are in the outbox with the commit: the answers need not wait for the broker's confirm (nor the rows'
  // delete). A feed's next update of a car is sent after this answer, so its events still reach the broker after these.
  ctx.outbox.detach(result.publish);
  return result.outcomes;
}

/** The refusal of an update applied without a savepoint of its own, and its place in the batch. */
class RefusedAlone extends Error {
  constructor(
    readonly error: AppError,
    readonly index: number,
  ) {
    super(error.message);
  }
}

type Applied = { outcomes: TimingBatchOutcome[]; publish: () => Promise<void> };

/**
 * A batch of several updates: in bulk first (timing-bulk.ts: statements per batch, not per update); when the bulk
 * path leaves the batch to this one, update by update. Savepoints cost two statements per update and a feed's updates are almost always
 * accepted, so the batch is first applied without them. When an update is refused, that transaction rolls back and
 * the batch is applied again: the updates before the refused one as before (they were just accepted), the rest each
 * in a savepoint of its own, so only a refused update writes nothing. The batch's cars are locked for the session,
 * before either attempt and until the last has ended, so no other batch of theirs (a redelivery during a failover)
 * can run between the two attempts.
 */
async function applyWithRetry(ctx: StoreContext, items: readonly TimingBatchItem[], sets: Map<string, ParameterSets>, cars: { accountId: string; sessionId: string; carId: string }[]): Promise<Applied> {
  return withConnection(ctx.pool, async (client, discard) => {
    // The locks ride in the first attempt's BEGIN and, when it commits, go with its COMMIT: two round trips fewer. A
    // session-level lock taken in a transaction that rolls back is still held, for the attempts after it. The bulk
    // attempt's lookups and updates are prepared, their plans made to read by index (INDEXED_GENERIC_PLANS).
    let locked = false;
    let unlocked = false;
    try {
      try {
        const applied = await inTransaction(
          client,
          (c) => {
            locked = true; // the BEGIN, and with it the locks, went through
            return applyInBulk(ctx, c, items, sets);
          },
          timingRows.beginBatchLockingCars(client, cars),
          timingRows.commitUnlockingCars(client, cars),
        );
        unlocked = true;
        return applied;
      } catch (err) {
        // Rolled back: the batch goes update by update, which answers every case the bulk path leaves to it. Not when
        // the locks were not taken (the BEGIN failed): that path counts on them.
        if (!locked || !(err instanceof NotInBulk || isStatementError(err))) throw err;
      }
      let savepointsFrom = items.length;
      for (;;) {
        try {
          return await inTransaction(client, (c) => applyFrom(ctx, c, items, sets, { savepointsFrom, carsLocked: true }));
        } catch (err) {
          if (!(err instanceof RefusedAlone)) throw err;
          // Strictly earlier each time (an update from `savepointsFrom` on is refused in its savepoint, never thrown).
          savepointsFrom = err.index;
        }
      }
    } finally {
      // Not given back to the pool holding the locks: a connection that cannot unlock is dropped (its locks with it).
      // Unlocking a car whose lock was not taken (the BEGIN failed) only warns.
      if (!unlocked) await timingRows.unlockCars(client, cars).catch((err: unknown) => discard(err as Error));
    }
  });
}

/** An error PostgreSQL answered a statement with (the connection is still usable), as opposed to a lost connection. */
function isStatementError(err: unknown): boolean {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'string' && typeof (err as { severity?: unknown }).severity === 'string';
}

async function applyFrom(ctx: StoreContext, c: Queryable, items: readonly TimingBatchItem[], sets: Map<string, ParameterSets>, options: { savepointsFrom: number; carsLocked: boolean }): Promise<Applied> {
  const outcomes: TimingBatchOutcome[] = [];
  const writes = new BatchWrites();
  for (const [index, item] of items.entries()) {
    const savepoint = index >= options.savepointsFrom;
    if (savepoint) await timingRows.savepoint(c);
    let written: (TimingWritten & { headers: Record<string, string> }) | undefined;
    try {
      checkCaller(item.caller, item.body);
      const run = async (): Promise<RenderedReply> => {
        // An update whose caller has already given up is refused alone (504, nothing written), not with the batch.
        checkDeadline(item.deadline);
        let accountSets = sets.get(item.caller.accountId);
        if (!accountSets) sets.set(item.caller.accountId, (accountSets = await loadParameterSets(c, item.caller.accountId)));
        written = { ...(await timingWrite(c, item.caller, item.type, item.body, { sets: accountSets, carLocked: options.carsLocked })), headers: requestHeaders(item.headers) };
        return written.result;
      };
      const command = commandOf(item.headers, item.caller.accountId);
      const reply = ctx.inbox ? await ctx.inbox.once(c, command, replyCodec as ReplyCodec<RenderedReply>, run) : await run();
      if (savepoint) await timingRows.releaseSavepoint(c);
      outcomes.push({ ok: true, reply });
      // A repeat answered from the inbox wrote nothing: its deadline does not hold the commit (as in bulk).
      writes.accept(item.caller.accountId, written ? item.deadline : undefined, written);
    } catch (err) {
      // A parent deleted by a concurrent request between the checks and the insert: gone, not a fault.
      const error = (err as { code?: string })?.code === '23503' ? AppError.notFound('An entity this update refers to was deleted while it ran') : toAppError(err);
      if (!savepoint) throw new RefusedAlone(error, index);
      await timingRows.rollbackToSavepoint(c);
      outcomes.push({ ok: false, error });
    }
  }
  checkReplyFits(outcomes, ctx.maxReplyBytes);
  return { outcomes, publish: await writes.finish(ctx, c) };
}
