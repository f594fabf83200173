import type { Pool } from 'pg';
import { withReadSnapshot, withTransaction } from '@pitwall/db';
import type { Outbox } from '@pitwall/messaging';
import type { EntityChangedEvent } from '@pitwall/contracts';
import { entityRepository as repo, type Queryable } from '../data-access/entity-repository';
import { entityEventMessage } from './entity-events';
import type { ReadCache, RenderedReply } from './read-cache';

/** What every use case of the store runs on. */
export interface StoreContext {
  pool: Pool;
  /** Where a write's events go: added in its transaction, published once it committed. */
  outbox: Outbox<EntityChangedEvent>;
  cache: ReadCache;
  /** Headers for the events of the command being handled (its request id). */
  eventHeaders: () => Record<string, string>;
  /** Removes the blobs among `keys` that no attached file refers to any more (after a delete committed). */
  releaseBlobs: (keys: string[]) => Promise<void>;
}

/**
 * A read answered from the cache when the account has not been written since it was rendered (one query: the
 * account's version), else rendered in one snapshot, so its queries never straddle a concurrent write.
 */
export async function cachedRead(ctx: StoreContext, accountId: string, what: unknown[], render: (q: Queryable) => Promise<RenderedReply>): Promise<RenderedReply> {
  const key = JSON.stringify(what);
  if (ctx.cache.enabled) {
    const hit = ctx.cache.get(accountId, await repo.accountVersion(ctx.pool, accountId), key);
    if (hit) return hit;
  }
  return withReadSnapshot(ctx.pool, async (c) => {
    const version = await repo.accountVersion(c, accountId);
    const reply = await render(c);
    ctx.cache.set(accountId, version, key, reply);
    return reply;
  });
}

/**
 * A write: its events go into the outbox and the account's version is bumped, both in its transaction (the bump
 * last, so cached reads end with the commit); once committed, the events are published before the answer.
 */
export async function write<T>(ctx: StoreContext, accountId: string, fn: (q: Queryable) => Promise<{ result: T; events: EntityChangedEvent[] }>): Promise<T> {
  const { result, publish } = await withTransaction(ctx.pool, async (c) => {
    const { result, events } = await fn(c);
    const headers = ctx.eventHeaders();
    const publish = await ctx.outbox.add(c, events.map((e) => entityEventMessage(e, headers)));
    await repo.bumpAccountVersion(c, accountId);
    return { result, publish };
  });
  await publish();
  return result;
}

/** Later than the previous write by at least 1 ms, so an optimistic check can never tie. */
export function nextModifiedTime(previous: Date): Date {
  return new Date(Math.max(Date.now(), previous.getTime() + 1));
}
