import { checkDeadline, commandKey, commandOf, recordedReply, InboxRaceError, type InboxCommand, type RecordedReply, type ReplyCodec } from '@pitwall/messaging';
import { AppError, toAppError } from '@pitwall/service-kit';
import type { TimingUpdate } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';
import { entityRepository } from '../../data-access/entity-repository';
import type { EntityRow } from '../../data-access/entity-row';
import { timingLookupKey, timingRowRepository as timingRows, untimedChildKey, type TimingAdoption } from '../../data-access/timing-row-repository';
import { loadParameterSets } from '../parameter-sets';
import type { ParameterValue } from '../parameters';
import type { ParameterSets } from '../projection';
import type { RenderedReply } from '../read-cache';
import { BatchWrites, replyCodec, requestHeaders, type StoreContext } from '../store-context';
import { checkCaller, timingWrite, type TimingRows } from './apply-timing-update';
import { checkReplyFits, type TimingBatchItem, type TimingBatchOutcome } from './timing-batch';

/** A batch the bulk path does not cover (apply-timing-batch.ts then applies it update by update). */
export class NotInBulk extends Error {}

/** What the bulk path gives the reads it does not serve itself: a refusal, so the batch goes update by update. */
const NO_QUERIES: Queryable = {
  query: () => Promise.reject(new NotInBulk('a read the bulk path does not serve')),
};

/**
 * A timing batch applied in bulk, in the caller's transaction `c` (begun with `INDEXED_GENERIC_PLANS`: its lookups
 * and updates are prepared, see `prepared` in @pitwall/db), with every car of the batch already locked: the
 * statements are per batch, not per update. The inbox claims every command in one statement; the rows the updates
 * address (their runs, laps, sectors and speed traps, and the ids they name) are read in three or four statements,
 * locked; then each update runs `timingWrite` exactly as alone, on those rows in memory (`BatchRows`), in order, a
 * refused one leaving nothing; then the new rows are inserted in one statement, the changed ones updated in one,
 * the replies recorded in one, the events added to the outbox in one.
 *
 * The answers, rows and events are those of the update-by-update path (the same code decides them): a batch it cannot
 * guarantee that for (a repeated command id in the batch, a property referring to another entity, a rendering that
 * reads, a row it did not read) throws `NotInBulk` before anything is written, and a statement that fails (a parent
 * deleted meanwhile) throws its database error: either way the caller rolls back and applies the batch update by update.
 */
export async function applyInBulk(ctx: StoreContext, c: Queryable, items: readonly TimingBatchItem[], sets: Map<string, ParameterSets>): Promise<{ outcomes: TimingBatchOutcome[]; publish: () => Promise<void> }> {
  const commands = items.map((item) => commandOf(item.headers, item.caller.accountId));
  const seen = new Set<string>();
  for (const command of commands) {
    if (!command) continue;
    const key = commandKey(command);
    if (seen.has(key)) throw new NotInBulk('a command id twice in one batch');
    seen.add(key);
  }
  const inbox = ctx.inbox;
  const claimed: (InboxCommand | undefined)[] = inbox ? commands : commands.map(() => undefined);
  const claims = inbox ? await claimAll(c, inbox, claimed) : [];

  const rows = new BatchRows();
  await rows.prefetch(c, items);
  for (const accountId of new Set(items.map((item) => item.caller.accountId))) if (!sets.has(accountId)) sets.set(accountId, await loadParameterSets(c, accountId));

  const outcomes: TimingBatchOutcome[] = [];
  // A repeat answered from the inbox is not accepted into `writes` here: it writes nothing, so its deadline does not hold the commit.
  const writes = new BatchWrites();
  const replies: { command: InboxCommand; reply: RecordedReply }[] = [];
  const released: InboxCommand[] = [];
  for (const [index, item] of items.entries()) {
    const command = claimed[index];
    const recorded = claims[index];
    try {
      checkCaller(item.caller, item.body);
      if (command && recorded) {
        outcomes.push({ ok: true, reply: recordedReply(recorded, command, replyCodec as ReplyCodec<RenderedReply>) });
        continue;
      }
      checkDeadline(item.deadline);
    } catch (err) {
      if (command && !recorded) released.push(command);
      outcomes.push({ ok: false, error: toAppError(err) });
      continue;
    }
    rows.begin();
    try {
      const written = await timingWrite(NO_QUERIES, item.caller, item.type, item.body, { sets: sets.get(item.caller.accountId) as ParameterSets, carLocked: true, rows });
      rows.keep();
      writes.accept(item.caller.accountId, item.deadline, { ...written, headers: requestHeaders(item.headers) });
      if (command) replies.push({ command, reply: (replyCodec as ReplyCodec<RenderedReply>).encode(written.result) });
      outcomes.push({ ok: true, reply: written.result });
    } catch (err) {
      rows.undo();
      // Only the refusals the update-by-update path would answer alike are answered here; anything else goes that way.
      if (!(err instanceof AppError)) throw err instanceof NotInBulk ? err : new NotInBulk(`not in bulk: ${(err as Error)?.message}`);
      if (command) released.push(command);
      outcomes.push({ ok: false, error: err });
    }
  }

  await rows.flush(c);
  if (inbox) await inbox.settleMany(c, replies, released, true);
  checkReplyFits(outcomes, ctx.maxReplyBytes);
  return { outcomes, publish: await writes.finish(ctx, c) };
}

async function claimAll(c: Queryable, inbox: NonNullable<StoreContext['inbox']>, commands: (InboxCommand | undefined)[]) {
  const present = commands.filter((command): command is InboxCommand => !!command);
  let claims;
  try {
    claims = await inbox.claimMany(c, present);
  } catch (err) {
    if (err instanceof InboxRaceError) throw new NotInBulk(err.message);
    throw err;
  }
  let next = 0;
  return commands.map((command) => (command ? claims[next++] : undefined));
}

/**
 * A row's key among the timing-keyed rows: its parent, type and timing key (the database's uniqueness), spelled as
 * the database's lookup finds it (`timingLookupKey`), so the keys a batch reads by are the keys it keeps rows by.
 */
const keyOf = (parentId: string | null, type: string, timingKey: string): string => timingLookupKey(parentId ?? '', type, timingKey);

/**
 * The rows a batch addresses, read (and locked) before its updates run, then written by them in memory: what
 * `timingWrite` would have found and written in the database, update after update. A row it asks for must be one
 * read beforehand (found or known absent) or under a parent created in this batch; any other is `NotInBulk`. One
 * update's writes are undone when it is refused (`begin`, `keep`, `undo`).
 */
class BatchRows implements TimingRows {
  readonly q = NO_QUERIES;
  /** The ids the updates name, by account; the (event, car) pairs with an EventCar, by account. */
  private readonly named = new Map<string, Map<string, EntityRow>>();
  private readonly entered = new Map<string, Set<string>>();
  /** Timing-keyed rows by key: found, created or changed; `null`: read and known absent. */
  private byKey = new Map<string, EntityRow | null>();
  private byId = new Map<string, { key: string; timingKey: string }>();
  /** Rows without a timing key under the parents read, by (parent, type) as `untimedChildKey` spells it. */
  private readonly untimed = new Map<string, EntityRow[]>();
  /** The accounts of the batch's callers (`prefetch`). */
  private accounts: string[] = [];
  /** Ids of the rows created in this batch, in creation order (parents first). */
  private created: string[] = [];
  /** Ids of the rows found and then changed. */
  private changed = new Set<string>();
  private saved: { byKey: Map<string, EntityRow | null>; byId: Map<string, { key: string; timingKey: string }>; created: string[]; changed: Set<string> } | undefined;

  async prefetch(c: Queryable, items: readonly TimingBatchItem[]): Promise<void> {
    const byAccount = new Map<string, TimingBatchItem[]>();
    for (const item of items) byAccount.set(item.caller.accountId, [...(byAccount.get(item.caller.accountId) ?? []), item]);
    // The rows are looked up (and locked) among the batch's accounts' only.
    this.accounts = [...byAccount.keys()];
    for (const [accountId, own] of byAccount) {
      const ids = new Set<string>();
      const entries: { eventId: string; carId: string }[] = [];
      for (const { body } of own) {
        for (const id of [body.championshipId, body.eventId, body.sessionId, body.carId, body.driverId, body.sectorId, body.speedTrapId]) if (id) ids.add(id.toLowerCase());
        entries.push({ eventId: body.eventId.toLowerCase(), carId: body.carId.toLowerCase() });
      }
      const found = await timingRows.findTimingRowsMany(c, accountId, [...ids], entries);
      this.named.set(accountId, new Map(found.rows.filter((r) => ids.has(r.id)).map((r) => [r.id, r])));
      this.entered.set(accountId, found.entered);
    }

    // The runs, then the laps of the runs found, then the sectors and speed traps of the laps found.
    const runAt = (body: TimingUpdate, index: number) => ({ parentId: body.sessionId.toLowerCase(), type: 'RunSheets', timingKey: `${body.carId.toLowerCase()}:${index}` });
    const lapAt = (run: EntityRow, body: TimingUpdate) => ({ parentId: run.id, type: 'Laps', timingKey: String(body.stintLapNumber) });
    const found = (k: { parentId: string; type: string; timingKey: string }) => this.byKey.get(keyOf(k.parentId, k.type, k.timingKey));
    await this.read(
      c,
      items.flatMap(({ body }) => (body.shouldCreateNextRun ? [runAt(body, body.runIndex), runAt(body, body.runIndex + 1)] : [runAt(body, body.runIndex)])),
    );
    const runOf = (body: TimingUpdate) => (body.stintLapNumber === undefined ? undefined : found(runAt(body, body.runIndex)));
    await this.read(
      c,
      items.flatMap(({ body }) => {
        const run = runOf(body);
        return run ? [lapAt(run, body)] : [];
      }),
    );
    const parts = items.flatMap(({ body }) => {
      const run = runOf(body);
      const lap = run && found(lapAt(run, body));
      if (!lap) return [];
      return [
        ...(body.sectorId ? [{ parentId: lap.id, type: 'LapSectors', timingKey: body.sectorId.toLowerCase() }] : []),
        ...(body.speedTrapId ? [{ parentId: lap.id, type: 'LapSpeedTraps', timingKey: body.speedTrapId.toLowerCase() }] : []),
      ];
    });
    await this.read(c, parts);
  }

  private async read(c: Queryable, keys: { parentId: string; type: string; timingKey: string }[]): Promise<void> {
    const unique = new Set(keys.map((k) => keyOf(k.parentId, k.type, k.timingKey)));
    if (unique.size === 0) return;
    for (const k of unique) this.byKey.set(k, null);
    const parents = new Set(keys.map((k) => untimedChildKey(k.parentId, k.type)));
    for (const { timing_key: timingKey, ...row } of await timingRows.findByTimingKeysForUpdate(c, this.accounts, [...unique], [...parents])) {
      if (timingKey === null) {
        const under = untimedChildKey(row.parent_id ?? '', row.type);
        const siblings = this.untimed.get(under);
        if (siblings) siblings.push(row);
        else this.untimed.set(under, [row]);
        continue;
      }
      const key = keyOf(row.parent_id, row.type, timingKey);
      this.byKey.set(key, row);
      this.byId.set(row.id, { key, timingKey });
    }
  }

  /**
   * Whether the update-by-update path could take over an entity without a timing key here instead of creating the
   * row (`TimingAdoption`): a lap, sector or speed trap of that stint lap number or definition, or any run sheet of the
   * car in the session (its index among them needs every run sheet of the car; rare enough to leave to that path).
   */
  private adoptable(row: EntityRow, adopt: TimingAdoption): boolean {
    const candidates = this.untimed.get(untimedChildKey(row.parent_id ?? '', row.type)) ?? [];
    if ('ordinal' in adopt) return candidates.some((c) => c.parent2_id === row.parent2_id);
    return candidates.some((c) => JSON.stringify(c.parameters[adopt.parameter]) === JSON.stringify(adopt.value));
  }

  /** Resolution reads, served from the rows read beforehand. */
  async findTimingRows(accountId: string, ids: string[], eventId: string, carId: string): Promise<{ rows: EntityRow[]; carEntered: boolean }> {
    const named = this.named.get(accountId);
    const entered = this.entered.get(accountId);
    if (!named || !entered) throw new NotInBulk(`no rows read for account ${accountId}`);
    return { rows: ids.flatMap((id) => named.get(id) ?? []), carEntered: entered.has(`${eventId}:${carId}`) };
  }

  async upsertByTimingKey(row: EntityRow, timingKey: string, adopt: TimingAdoption): Promise<{ row: EntityRow; inserted: boolean }> {
    const key = keyOf(row.parent_id, row.type, timingKey);
    const known = this.byKey.get(key);
    if (known) return { row: known, inserted: false };
    if (known === undefined && !(row.parent_id && this.created.includes(row.parent_id))) throw new NotInBulk(`a row not read beforehand: ${key}`);
    if (known === null && this.adoptable(row, adopt)) throw new NotInBulk(`an entity without a timing key to take over: ${key}`);
    // As the database would answer it: parameters as jsonb gives them back, no association parameters.
    const stored: EntityRow = { ...row, parameters: asJsonb(row.parameters), association_parameters: {} };
    this.byKey.set(key, stored);
    this.byId.set(row.id, { key, timingKey });
    this.created.push(row.id);
    return { row: stored, inserted: true };
  }

  async updateParameters(id: string, parameters: Record<string, ParameterValue>, modifiedAt: Date): Promise<void> {
    const at = this.byId.get(id);
    const row = at && this.byKey.get(at.key);
    if (!at || !row) throw new NotInBulk(`an update of a row not read beforehand: ${id}`);
    this.byKey.set(at.key, { ...row, parameters: asJsonb(parameters), modified_at: modifiedAt });
    if (!this.created.includes(id)) this.changed.add(id);
  }

  /** Marks where an update starts: `undo` goes back here. */
  begin(): void {
    this.saved = { byKey: new Map(this.byKey), byId: new Map(this.byId), created: [...this.created], changed: new Set(this.changed) };
  }

  keep(): void {
    this.saved = undefined;
  }

  undo(): void {
    if (!this.saved) return;
    ({ byKey: this.byKey, byId: this.byId, created: this.created, changed: this.changed } = this.saved);
    this.saved = undefined;
  }

  /** Writes what the updates kept: the new rows (parents first) in one statement, the changed ones in another. */
  async flush(c: Queryable): Promise<void> {
    const rowOf = (id: string) => {
      const at = this.byId.get(id) as { key: string; timingKey: string };
      return { row: this.byKey.get(at.key) as EntityRow, timingKey: at.timingKey };
    };
    await timingRows.insertTimingRows(c, this.created.map(rowOf));
    await entityRepository.updateParametersMany(
      c,
      [...this.changed].map((id) => {
        const { row } = rowOf(id);
        return { id, parameters: row.parameters, modifiedAt: row.modified_at };
      }),
      true,
    );
  }
}

/**
 * `parameters` as PostgreSQL gives back what it stored as jsonb: JSON values (dates as strings), and each object's
 * keys in jsonb's order (shorter first, then by their UTF-8 bytes), so events and answers list them as the
 * update-by-update path, which reads rows back, does.
 */
export function asJsonb<T>(value: T): T {
  return order(JSON.parse(JSON.stringify(value))) as T;
}

function order(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(order);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = order((value as Record<string, unknown>)[k]);
  return out;
}
