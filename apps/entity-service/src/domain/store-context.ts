import type { Pool } from 'pg';
import { withReadSnapshot, withTransaction } from '@pitwall/db';
import { checkDeadline, type Inbox, type InboxCommand, type Outbox, type OutboxMessage, type PublishAfterCommit, type ReplyCodec } from '@pitwall/messaging';
import type { EntityChangedEvent, TimingEvent } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { cacheVersionRepository as versions } from '../data-access/cache-version-repository';
import { entityEventMessage } from './entity-events';
import type { ReadCache, RenderedReply } from './read-cache';
import type { RuleLimits } from './type-rules';

/** The state-changing command being handled: its id and request hash (absent: not recorded) and its deadline. */
export interface CurrentCommand {
  /** Builds the command of `accountId` (its scope), when the request carried one. */
  command?: (accountId: string) => InboxCommand | undefined;
  /** Epoch ms past which the write must not commit. */
  deadline?: number;
}

/** What every use case of the store runs on. */
export interface StoreContext {
  pool: Pool;
  /**
   * Where a write's events go: added in its transaction, published once it committed. Entity events go to the entity
   * events exchange, `timing.*` messages to the timing events exchange (the publisher routes by key).
   */
  outbox: Outbox<EntityChangedEvent>;
  cache: ReadCache;
  /** Headers for the events of the command being handled (its request id). */
  eventHeaders: () => Record<string, string>;
  /** Where each command is recorded with its reply, in the transaction of its write; none: not recorded. */
  inbox?: Inbox;
  /** The command being handled (from its bus headers). */
  currentCommand?: () => CurrentCommand;
  /** Test-only: called in each write's transaction just before its deadline check (a test makes a write run late). */
  beforeCommit?: () => Promise<void>;
  /** Test-only: called after each write's commit, before its answer (a kill -9 test holds the reply there). */
  afterCommit?: () => Promise<void>;
  /** Removes the blobs among `keys` that no attached file refers to any more (after a delete committed). */
  releaseBlobs: (keys: string[]) => Promise<void>;
  /** The bounds the types' rules keep (default DEFAULT_RULE_LIMITS). */
  ruleLimits?: RuleLimits;
  /** Entities one get, list or search may write out, nested and repeated references counted (ENTITY_READ_MAX_ENTITIES; default DEFAULT_MAX_READ_ENTITIES). */
  maxReadEntities?: number;
  /** ENTITY_READ_MAX_BYTES: bytes of JSON one answer may hold; more is a 413. */
  maxReadBytes?: number;
  /** Entities one `CopyAll` may copy (ENTITY_COPY_MAX_ENTITIES; default DEFAULT_MAX_COPY_ENTITIES). */
  maxCopyEntities?: number;
  /** Entities one delete may remove, the entity and everything below it (ENTITY_DELETE_MAX_ENTITIES; default DEFAULT_MAX_DELETE_ENTITIES). */
  maxDeleteEntities?: number;
  /** BUS_MAX_MESSAGE_BYTES: the largest reply the bus carries; a timing batch whose reply would be larger commits nothing. */
  maxReplyBytes?: number;
}

/** The type whose entities are cache scopes: a timing update writes only under its run sheet (apply-timing-update.ts). */
export const RUN_SHEET_SCOPE_TYPE = 'RunSheets';
/** The types a write confined to a run's scope writes (a timing update: the run, its laps, their sectors and speed traps). */
export const RUN_SCOPED_TYPES: ReadonlySet<string> = new Set([RUN_SHEET_SCOPE_TYPE, 'Laps', 'LapSectors', 'LapSpeedTraps']);

/**
 * A read answered from the cache when the account has not been written since it was rendered (one query: the
 * account's version), else rendered in one snapshot, so its queries never straddle a concurrent write. A read of one
 * run sheet's subtree passes the run as its `scope`: it is kept under the scope's version, which a write confined to
 * another run (a timing update of another car) leaves as it is, and any write outside scopes moves.
 */
export async function cachedRead(ctx: StoreContext, accountId: string, what: unknown[], render: (q: Queryable, escapesScope: () => void) => Promise<RenderedReply>, scope?: string): Promise<RenderedReply> {
  const key = JSON.stringify(what);
  // A read that renders entities outside its scope was found out by an earlier render: it is read under the account.
  const scoped = scope !== undefined && !ctx.cache.isUnscoped(accountId, key) ? scope : undefined;
  const partition = scoped === undefined ? accountId : `${accountId}/${scoped}`;
  const version = (q: Queryable) => (scoped === undefined ? versions.accountVersion(q, accountId) : versions.scopeVersion(q, accountId, scoped));
  if (ctx.cache.enabled) {
    const hit = ctx.cache.get(partition, await version(ctx.pool), key);
    if (hit) return hit;
  }
  return withReadSnapshot(ctx.pool, async (c) => {
    const at = await version(c);
    let escaped = false;
    const reply = await render(c, () => (escaped = true));
    if (escaped && scoped !== undefined) {
      // Rendered outside its scope: a write confined to another scope may change it, so it is kept under the account.
      ctx.cache.markUnscoped(accountId, key);
      ctx.cache.set(accountId, await versions.accountVersion(c, accountId), key, reply);
    } else {
      ctx.cache.set(partition, at, key, reply);
    }
    return reply;
  });
}

/**
 * A write: its events (and other `messages`, the timing events) go into the outbox and the account's version (or
 * its `scopes`' versions) is bumped, both in its transaction (the bump last, so cached reads end with the commit); it
 * answers at the commit, and its events are published from the outbox after it (`Outbox.detach`, in commit order). With an inbox, the command is recorded with its reply in the same transaction:
 * a repeat (broker redelivery, or the client's `Idempotency-Key`) answers the recorded reply and writes nothing.
 * Just before the commit, the command's deadline is checked: past it, the write rolls back, as the caller has
 * stopped waiting.
 */
export async function write<T>(
  ctx: StoreContext,
  accountId: string,
  fn: (q: Queryable) => Promise<{
    result: T;
    events: EntityChangedEvent[];
    messages?: OutboxMessage<TimingEvent>[];
    /**
     * The run sheets whose subtrees are all this write changed (a timing update): their scope versions are bumped
     * instead of the account's, so cached reads of other runs stay. Absent: the account's version is bumped.
     */
    scopes?: string[];
  }>,
): Promise<T> {
  const current = ctx.currentCommand?.() ?? {};
  const { result, publish } = await withTransaction(ctx.pool, async (c) => {
    let publish: PublishAfterCommit = async () => undefined;
    const run = async (): Promise<T> => {
      const { result, events, messages = [], scopes = [] } = await fn(c);
      publish = await ctx.outbox.add(c, outboxMessages(events, messages, ctx.eventHeaders()));
      if (scopes.length) await versions.bumpScopeVersions(c, accountId, scopes);
      else await versions.bumpAccountVersion(c, accountId);
      await ctx.beforeCommit?.();
      checkDeadline(current.deadline);
      return result;
    };
    const result = ctx.inbox ? await ctx.inbox.once(c, current.command?.(accountId), replyCodec as ReplyCodec<T>, run) : await run();
    return { result, publish };
    // A write queued behind others (48 big PUTs at once) waits for a connection as long as its caller waits for it.
  }, current.deadline === undefined ? {} : { waitUntil: current.deadline });
  await ctx.afterCommit?.();
  // The events are in the outbox with the commit: the answer goes now, and their publication follows.
  ctx.outbox.detach(publish);
  return result;
}

/** A write's entity events and timing messages as its outbox messages, each with `headers` (a message's own win). */
export function outboxMessages(events: readonly EntityChangedEvent[], messages: readonly OutboxMessage<TimingEvent>[], headers: Record<string, string>): OutboxMessage<EntityChangedEvent>[] {
  // The outbox stores any JSON payload: timing messages ride in it beside the entity events (typed for those).
  const timing = messages.map((m) => ({ ...m, headers: { ...headers, ...m.headers } })) as unknown as OutboxMessage<EntityChangedEvent>[];
  return [...events.map((e) => entityEventMessage(e, headers)), ...timing];
}

/** The headers the events of a command from the bus carry: its request id. */
export function requestHeaders(busHeaders: Record<string, string>): Record<string, string> {
  return busHeaders['requestId'] ? { requestId: busHeaders['requestId'] } : {};
}

/**
 * What the accepted updates of a timing batch write besides their rows (their events, the run scopes they touched)
 * and the deadlines the batch's commit must meet, gathered as they are applied and written once at its end.
 */
export class BatchWrites {
  private readonly messages: OutboxMessage<EntityChangedEvent>[] = [];
  private readonly scopes = new Map<string, string[]>();
  private readonly deadlines: number[] = [];

  /** An accepted update of `accountId`: what it wrote (none when answered from the inbox) and its deadline. */
  accept(accountId: string, deadline: number | undefined, written?: { events: EntityChangedEvent[]; messages: OutboxMessage<TimingEvent>[]; scopes: string[]; headers: Record<string, string> }): void {
    if (deadline !== undefined) this.deadlines.push(deadline);
    if (!written) return;
    this.messages.push(...outboxMessages(written.events, written.messages, written.headers));
    this.scopes.set(accountId, [...(this.scopes.get(accountId) ?? []), ...written.scopes]);
  }

  /**
   * Adds the events to the outbox and bumps the scopes (last, so cached reads of these runs end with the commit),
   * then refuses the commit past the earliest deadline; resolves with what publishes the events after the commit.
   */
  async finish(ctx: StoreContext, c: Queryable): Promise<PublishAfterCommit> {
    const publish = await ctx.outbox.add(c, this.messages);
    for (const [accountId, touched] of this.scopes) if (touched.length) await versions.bumpScopeVersions(c, accountId, touched);
    await ctx.beforeCommit?.();
    if (this.deadlines.length) checkDeadline(Math.min(...this.deadlines));
    return publish;
  }
}

/** A write's result as the inbox records it: a rendered entity (its JSON and reply headers), or nothing. */
export const replyCodec: ReplyCodec<RenderedReply | undefined> = {
  encode: (reply) => {
    if (!reply) return { body: null, headers: {} };
    const headers: Record<string, string> = {};
    if (reply.lastModifiedTime) headers['lastModifiedTime'] = reply.lastModifiedTime;
    if (reply.entityId) headers['entityId'] = reply.entityId;
    return { body: reply.json, headers };
  },
  decode: ({ body, headers }) => (body ? { json: body, ...(headers['lastModifiedTime'] ? { lastModifiedTime: headers['lastModifiedTime'] } : {}), ...(headers['entityId'] ? { entityId: headers['entityId'] } : {}) } : undefined),
};

/** Later than the previous write by at least 1 ms, so an optimistic check can never tie. */
export function nextModifiedTime(previous: Date): Date {
  return new Date(Math.max(Date.now(), previous.getTime() + 1));
}
