import type { Pool } from 'pg';
import { prepared, type Migration, type Queryable } from '@pitwall/db';
import { AppError, type Logger } from '@pitwall/service-kit';
import { inboxTable } from './schema';

/**
 * The headers a state-changing command carries on the bus, set by its sender (the gateway). Its deadline travels
 * beside them (`BusRequest.deadline`, set by the bus on every request).
 */
export const COMMAND_HEADERS = {
  /** Unique per command: the caller's `Idempotency-Key` (scoped to its account), else a fresh id per HTTP request. */
  id: 'commandId',
  /** A hash of what the command asks (method, path, body): a repeat under the same id must ask the same. */
  hash: 'commandHash',
} as const;

/** One state-changing command, as the inbox records it. */
export interface InboxCommand {
  /** Who the id belongs to (the account): the same id of two scopes are two commands. */
  scope: string;
  id: string;
  requestHash: string;
}

/** The reply recorded with a command: its JSON body (none for an empty answer) and its reply headers. */
export interface RecordedReply {
  body: Buffer | null;
  headers: Record<string, string>;
}

/** How a write's result becomes the recorded reply and back. */
export interface ReplyCodec<T> {
  encode(result: T): RecordedReply;
  decode(reply: RecordedReply): T;
}

/** The command a request carries, from its bus headers; none when it carries no command id or no hash. */
export function commandOf(headers: Record<string, string | undefined>, scope: string): InboxCommand | undefined {
  const id = headers[COMMAND_HEADERS.id];
  const requestHash = headers[COMMAND_HEADERS.hash];
  if (!id || !requestHash) return undefined;
  return { scope, id, requestHash };
}

/** The problem `type` of a write refused because its deadline passed before it could commit: nothing was written. */
export const DEADLINE_PASSED_TYPE = 'urn:pitwall:problem:deadline-passed';
/** The problem `type` of an Idempotency-Key reused with another request. */
export const KEY_REUSED_TYPE = 'urn:pitwall:problem:idempotency-key-reused';

/**
 * Throws (so the caller's transaction rolls back) when `deadline` has passed: call it inside the write's transaction,
 * just before its commit. The caller has stopped waiting by then, so a commit would be a write nobody was told of.
 */
export function checkDeadline(deadline: number | undefined, now = Date.now()): void {
  if (deadline !== undefined && now > deadline) {
    throw new AppError(504, `The write was rolled back: its deadline passed ${now - deadline} ms before it could commit. Nothing was changed`, { type: DEADLINE_PASSED_TYPE });
  }
}

export interface InboxOptions {
  pool: Pool;
  /** The owning service's schema: the commands live in `<schema>.inbox` (migration: `inboxMigration`). */
  schema: string;
  logger: Logger;
  /** How long a recorded command is kept (its idempotency window). Default 24 h; never less. */
  keepMs?: number;
  /** How often expired commands are swept. Default 10 minutes. */
  sweepIntervalMs?: number;
  /** Expired commands one statement of a sweep deletes at most (default 5,000): each page is its own short transaction. */
  sweepPageSize?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The inbox: every state-changing command recorded with its reply in the transaction of its write, so a command
 * redelivered by the broker or repeated by a client with the same `Idempotency-Key` takes effect once. A repeat
 * returns the recorded reply and writes nothing; the same id with another request hash is a 422. The first to
 * claim a command id holds its row until it commits or rolls back: a concurrent repeat waits for it, then answers
 * from what it recorded (or runs, if it rolled back). Recorded commands are kept `keepMs`, then swept.
 */
export interface Inbox {
  /**
   * Runs `write` once per command inside the caller's transaction (`q`): records `command` with the reply `codec`
   * makes of the result; a repeat answers `codec.decode(recorded reply)` without running `write`. Without a command,
   * just runs `write`.
   */
  once<T>(q: Queryable, command: InboxCommand | undefined, codec: ReplyCodec<T>, write: () => Promise<T>): Promise<T>;
  /**
   * `once` for many commands of one transaction, in two steps, for callers that apply them together (a batch that
   * holds locks making the commands' writers wait for each other, so none is claimed concurrently in between):
   * claims every command in one statement; answers, per command, `undefined` when it was claimed now (run it), or
   * the reply recorded for it (a repeat: answer that, or a 422 when `requestHash` differs: see `recordedReply`). The
   * commands' ids must differ within the call. A command whose conflicting record was swept before it could be read
   * (older than the window) throws `InboxRaceError`: apply the batch command by command then.
   */
  claimMany(q: Queryable, commands: readonly InboxCommand[]): Promise<(RecordedCommand | undefined)[]>;
  /**
   * Records the replies of claimed commands that ran, and releases (deletes) the claims of those refused.
   * `indexedGeneric`: the caller's transaction was begun with `INDEXED_GENERIC_PLANS` (`@pitwall/db`), so the
   * statement recording the replies is prepared.
   */
  settleMany(q: Queryable, replies: readonly { command: InboxCommand; reply: RecordedReply }[], released: readonly InboxCommand[], indexedGeneric?: boolean): Promise<void>;
  /** Deletes the commands older than the window; returns how many. */
  sweep(): Promise<number>;
  /** Sweeps now and then every `sweepIntervalMs`. */
  start(): void;
  /** Stops sweeping and waits for the sweep in progress. */
  stop(): Promise<void>;
}

export function createInbox(options: InboxOptions): Inbox {
  return new CommandInbox(options);
}

/**
 * The migration that creates `<schema>.inbox`; add it to the owning service's migrations under its next version.
 * Its SQL never changes once applied.
 */
export function inboxMigration({ schema, version, name = 'command inbox' }: { schema: string; version: number; name?: string }): Migration {
  const table = inboxTable(schema);
  return {
    version,
    name,
    sql: `
      CREATE TABLE ${table} (
        scope text NOT NULL,
        command_id text NOT NULL,
        request_hash text NOT NULL,
        reply_body bytea,
        reply_headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (scope, command_id)
      );
      CREATE INDEX ${schema}_inbox_created_at ON ${table} (created_at);
    `,
  };
}

interface InboxRow {
  request_hash: string;
  reply_body: Buffer | null;
  reply_headers: Record<string, string>;
}

/** A command found already recorded: the hash of the request it was recorded with, and its reply. */
export interface RecordedCommand {
  requestHash: string;
  reply: RecordedReply;
}

/** A command's identity in the inbox (its scope and id) as one string, for maps and sets of commands. */
export function commandKey(command: Pick<InboxCommand, 'scope' | 'id'>): string {
  return `${command.scope}\u0000${command.id}`;
}

/** `claimMany` met a record that disappeared (swept) between its two statements. */
export class InboxRaceError extends Error {}

/** A repeat's answer: the recorded reply decoded, or the 422 of an Idempotency-Key reused with another request. */
export function recordedReply<T>(recorded: RecordedCommand, command: InboxCommand, codec: ReplyCodec<T>): T {
  if (recorded.requestHash !== command.requestHash) throw keyReused();
  return codec.decode(recorded.reply);
}

function keyReused(): AppError {
  return new AppError(422, 'This Idempotency-Key was already used with another request; send a new key for a new request', { type: KEY_REUSED_TYPE });
}

class CommandInbox implements Inbox {
  private readonly pool: Pool;
  private readonly table: string;
  private readonly logger: Logger;
  private readonly keepMs: number;
  private readonly sweepIntervalMs: number;
  private readonly sweepPageSize: number;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> | undefined;
  private sweepRunning = false;

  constructor(options: InboxOptions) {
    this.pool = options.pool;
    this.table = inboxTable(options.schema);
    this.logger = options.logger;
    this.keepMs = Math.max(options.keepMs ?? DAY_MS, DAY_MS);
    this.sweepIntervalMs = options.sweepIntervalMs ?? 10 * 60 * 1000;
    this.sweepPageSize = options.sweepPageSize ?? 5000;
  }

  async once<T>(q: Queryable, command: InboxCommand | undefined, codec: ReplyCodec<T>, write: () => Promise<T>): Promise<T> {
    if (!command) return write();
    // Claim first: a concurrent repeat blocks on this row until we commit (then it finds our reply) or roll back.
    const claimed = await q.query(
      prepared(`inbox_claim_${this.table}`, `INSERT INTO ${this.table} (scope, command_id, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1`, [
        command.scope,
        command.id,
        command.requestHash,
      ]),
    );
    if (claimed.rowCount === 0) {
      const { rows } = await q.query<InboxRow>(`SELECT request_hash, reply_body, reply_headers FROM ${this.table} WHERE scope = $1 AND command_id = $2`, [command.scope, command.id]);
      const row = rows[0];
      // Swept between the two statements: it is older than the window, so this is a new command after all.
      if (!row) return this.once(q, command, codec, write);
      return recordedReply({ requestHash: row.request_hash, reply: { body: row.reply_body, headers: row.reply_headers } }, command, codec);
    }
    const result = await write();
    const reply = codec.encode(result);
    await q.query(prepared(`inbox_reply_${this.table}`, `UPDATE ${this.table} SET reply_body = $3, reply_headers = $4 WHERE scope = $1 AND command_id = $2`, [command.scope, command.id, reply.body, JSON.stringify(reply.headers)]));
    return result;
  }

  async claimMany(q: Queryable, commands: readonly InboxCommand[]): Promise<(RecordedCommand | undefined)[]> {
    if (commands.length === 0) return [];
    const scopes = commands.map((c) => c.scope);
    const ids = commands.map((c) => c.id);
    const claimed = await q.query<{ scope: string; command_id: string }>(
      prepared(
        `inbox_claim_many_${this.table}`,
        `INSERT INTO ${this.table} (scope, command_id, request_hash) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING RETURNING scope, command_id`,
        [scopes, ids, commands.map((c) => c.requestHash)],
      ),
    );
    if (claimed.rows.length === commands.length) return commands.map(() => undefined);
    const fresh = new Set(claimed.rows.map((r) => commandKey({ scope: r.scope, id: r.command_id })));
    const { rows } = await q.query<InboxRow & { scope: string; command_id: string }>(
      `SELECT scope, command_id, request_hash, reply_body, reply_headers FROM ${this.table} WHERE (scope, command_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [scopes, ids],
    );
    const recorded = new Map(rows.map((r) => [commandKey({ scope: r.scope, id: r.command_id }), r]));
    return commands.map((c) => {
      const k = commandKey(c);
      if (fresh.has(k)) return undefined;
      const row = recorded.get(k);
      if (!row) throw new InboxRaceError(`inbox record ${c.id} was swept while it was claimed`);
      return { requestHash: row.request_hash, reply: { body: row.reply_body, headers: row.reply_headers } };
    });
  }

  async settleMany(q: Queryable, replies: readonly { command: InboxCommand; reply: RecordedReply }[], released: readonly InboxCommand[], indexedGeneric = false): Promise<void> {
    if (replies.length) {
      // Otherwise not prepared (see `prepared` in @pitwall/db): planned on each call with its arrays and the table as they are.
      const text = `UPDATE ${this.table} t SET reply_body = u.body, reply_headers = u.headers
           FROM unnest($1::text[], $2::text[], $3::bytea[], $4::jsonb[]) AS u(scope, command_id, body, headers)
          WHERE t.scope = u.scope AND t.command_id = u.command_id`;
      const values = [replies.map((r) => r.command.scope), replies.map((r) => r.command.id), replies.map((r) => r.reply.body), replies.map((r) => JSON.stringify(r.reply.headers))];
      await (indexedGeneric ? q.query(prepared(`inbox_settle_many_${this.table}`, text, values)) : q.query(text, values));
    }
    if (released.length)
      await q.query(`DELETE FROM ${this.table} WHERE (scope, command_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, [released.map((c) => c.scope), released.map((c) => c.id)]);
  }

  /**
   * Deletes the expired commands, oldest first, a page (`sweepPageSize`) per statement until none is left: a backlog
   * (sweeps that failed for a while, a restore) is never one statement, whose rows, replies and WAL grew with it and
   * which the statement timeout could cancel every time, the table then only growing.
   */
  async sweep(): Promise<number> {
    let swept = 0;
    for (;;) {
      const { rowCount } = await this.pool.query(
        `DELETE FROM ${this.table} WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM ${this.table} WHERE created_at < clock_timestamp() - make_interval(secs => $1) ORDER BY created_at LIMIT $2))`,
        [this.keepMs / 1000, this.sweepPageSize],
      );
      swept += rowCount ?? 0;
      if ((rowCount ?? 0) < this.sweepPageSize) return swept;
    }
  }

  start(): void {
    if (this.timer) return;
    const tick = (): void => {
      // One sweep at a time: a long one is not joined by the next.
      if (this.sweepRunning) return;
      this.sweepRunning = true;
      this.sweeping = this.sweep()
        .catch((err: unknown) => this.logger.warn({ err, table: this.table }, 'inbox sweep failed; retried later'))
        .finally(() => (this.sweepRunning = false));
    };
    tick();
    this.timer = setInterval(tick, this.sweepIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }
}
