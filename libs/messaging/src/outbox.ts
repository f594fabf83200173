import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { prepared, withTransaction, type Migration, type Queryable } from '@pitwall/db';
import { AppError, errorFields, isDatabaseUnreachable, type Logger } from '@pitwall/service-kit';
import { outboxTable } from './schema';

/** One message to publish once the write that made it has committed. */
/**
 * The header every message published through an outbox carries: an id given when the message is added, the same on
 * every copy of it (at least once: a retry can publish a message again), so a subscriber that must act once keeps the
 * ids it has handled.
 */
export const MESSAGE_ID_HEADER = 'messageId';

export interface OutboxMessage<P = unknown> {
  routingKey: string;
  /** JSON: stored as jsonb, published as it comes back. */
  payload: P;
  /** Message headers (a request id); none when absent. */
  headers?: Record<string, string>;
}

/**
 * Sends one message to the outbox's exchange; resolves once the broker has taken it (publisher confirm), rejects
 * when it has not. E.g. `(key, payload, headers) => bus.publish(EXCHANGES.entityEvents, key, payload, headers)`.
 */
export type PublishMessage<P = unknown> = (routingKey: string, payload: P, headers: Record<string, string>) => Promise<void>;

export interface OutboxTiming {
  /** How often left-over messages are looked for. Default 1000 ms. */
  retryIntervalMs?: number;
  /** A message still in the outbox this long after its write is a left-over that any instance publishes. Default 2000 ms. */
  staleAfterMs?: number;
  /** Left-over rows published per transaction. Default 200. */
  batchSize?: number;
  /**
   * A write that adds at least this many messages stores them as one row (a batch: the messages as one JSON array)
   * instead of one row each: a 10,000-item collection update then writes one outbox row, not 10,000. Default 64.
   */
  batchFrom?: number;
}

export interface OutboxOptions<P> extends OutboxTiming {
  pool: Pool;
  /** The owning service's schema: the messages live in `<schema>.outbox` (migration: `outboxMigration`). */
  schema: string;
  publish: PublishMessage<P>;
  logger: Logger;
  /**
   * The largest message the broker takes (`BUS_MAX_MESSAGE_BYTES`: the bus refuses a larger event, for good). A write
   * that adds a larger one is refused with it (a 413 naming the setting), so it leaves no trace, instead of committing
   * an event that could never be published. No bound when absent.
   */
  maxMessageBytes?: number;
}

/** Publishes what one transaction added, once it has committed. Never rejects: what fails now is retried later. */
export type PublishAfterCommit = () => Promise<void>;

/**
 * A transactional outbox. A write adds its messages in its own transaction, so they exist exactly when the write
 * committed, and publishes them itself right after the commit, in the order it made them. What it could not publish
 * (broker unreachable, confirm lost, process killed between commit and publish) is left over; once stale, the retry
 * of any instance publishes it (`FOR UPDATE SKIP LOCKED`: never two instances at once). So every committed write's
 * messages are published at least once; a retry after a lost confirm can publish one twice, and left-overs may
 * arrive after later messages. Subscribers must be idempotent.
 */
export interface Outbox<P = unknown> {
  /** Adds `messages` inside the caller's transaction (`q` is its client); returns what publishes them after the commit. */
  add(q: Queryable, messages: readonly OutboxMessage<P>[]): Promise<PublishAfterCommit>;
  /**
   * Runs `fn` in a transaction of the outbox's pool and resolves at its commit; what it added through `add` is then
   * published detached (`detach`). A throw rolls the write and its messages back: nothing is published.
   */
  transaction<T>(fn: (client: Queryable, add: (messages: readonly OutboxMessage<P>[]) => Promise<void>) => Promise<T>): Promise<T>;
  /**
   * Publishes what a committed write added (`add`'s answer) without the writer waiting for it: the write answers at
   * once, and the broker's confirm and the rows' delete follow. Messages are handed to the broker in the order of the
   * calls, so a later write detached after an earlier one reaches the channel after it. `stop()` waits for them.
   */
  detach(publish: PublishAfterCommit): void;
  /** Resolves once the publications detached so far have ended (confirmed, or left for the retry). */
  settled(): Promise<void>;
  /** Publishes every left-over message (older than `staleAfterMs`), batch by batch. Never rejects. */
  retry(): Promise<void>;
  /** Looks for left-over messages now and then every `retryIntervalMs`. */
  start(): void;
  /** Stops the retries and waits for the one in progress, and for the detached publications. */
  stop(): Promise<void>;
}

/** The outbox of `schema`: `const outbox = createOutbox({ pool, schema, publish, logger })`, then `outbox.start()`. */
export function createOutbox<P = unknown>(options: OutboxOptions<P>): Outbox<P> {
  return new TransactionalOutbox(options);
}

/**
 * The migration that creates `<schema>.outbox`; add it to the owning service's migrations under its next version.
 * Its SQL never changes: an applied migration's checksum is checked on every start (the entity schema's version 3).
 */
export function outboxMigration({ schema, version, name = 'outbox' }: { schema: string; version: number; name?: string }): Migration {
  return {
    version,
    name,
    sql: `
      CREATE TABLE ${outboxTable(schema)} (
        id bigserial PRIMARY KEY,
        routing_key text NOT NULL,
        payload jsonb NOT NULL,
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
    `,
  };
}

interface OutboxRow<P> {
  id: string;
  routing_key: string;
  payload: P;
  headers: Record<string, string>;
}

/**
 * The routing key of a batch row: its payload is the array of the write's messages, in order. Never a real routing key
 * (the topics are dotted words). A batch is deleted once all its messages are confirmed, else retried whole, so a
 * message of a partly published batch may go out twice (within the at-least-once the outbox promises anyway).
 */
const BATCH_ROUTING_KEY = '(batch)';

/** How long a batch row is leased to its writer while its messages go out: a base and a bound per message (generous). */
const BATCH_LEASE_BASE_MS = 30_000;
const BATCH_LEASE_PER_MESSAGE_MS = 5;

/** The messages of a stored row: itself, or those of a batch. */
function messagesOf<P>(row: OutboxRow<P>): OutboxMessage<P>[] {
  if (row.routing_key !== BATCH_ROUTING_KEY) return [{ routingKey: row.routing_key, payload: row.payload, headers: row.headers }];
  return row.payload as unknown as OutboxMessage<P>[];
}

class TransactionalOutbox<P> implements Outbox<P> {
  private readonly pool: Pool;
  private readonly table: string;
  private readonly publish: PublishMessage<P>;
  private readonly logger: Logger;
  private readonly retryIntervalMs: number;
  private readonly staleAfterMs: number;
  private readonly batchSize: number;
  private readonly batchFrom: number;
  private readonly maxMessageBytes: number;
  private timer: NodeJS.Timeout | undefined;
  private retrying: Promise<void> | undefined;
  /** The retry's last pass failed: its failure was logged, its recovery will be. */
  private failing = false;
  private readonly detached = new Set<Promise<void>>();

  constructor(options: OutboxOptions<P>) {
    this.pool = options.pool;
    this.table = outboxTable(options.schema);
    this.publish = options.publish;
    this.logger = options.logger;
    this.retryIntervalMs = options.retryIntervalMs ?? 1000;
    this.staleAfterMs = options.staleAfterMs ?? 2000;
    this.batchSize = options.batchSize ?? 200;
    this.batchFrom = options.batchFrom ?? 64;
    this.maxMessageBytes = options.maxMessageBytes ?? Number.POSITIVE_INFINITY;
    // It goes into the SQL as a LIMIT.
    if (!Number.isSafeInteger(this.batchSize) || this.batchSize < 1) throw new Error(`outbox: batchSize must be a positive integer (got ${options.batchSize})`);
    if (!(this.batchFrom >= 1)) throw new Error(`outbox: batchFrom must be at least 1 (got ${options.batchFrom})`);
  }

  async add(q: Queryable, unstamped: readonly OutboxMessage<P>[]): Promise<PublishAfterCommit> {
    if (unstamped.length === 0) return async () => undefined;
    // Each message's id is stored with it, so every copy of it (a retry's, a redelivery's) carries the same one.
    const messages = unstamped.map((m) => ({ ...m, headers: { ...m.headers, [MESSAGE_ID_HEADER]: m.headers?.[MESSAGE_ID_HEADER] ?? randomUUID() } }));
    // Encoded once: checked against the broker's bound, then stored as they will be published.
    const payloads = messages.map((m) => JSON.stringify(m.payload ?? null));
    this.refuseOversized(messages, payloads);
    if (messages.length >= this.batchFrom) {
      // One row for all of them: one JSON document to parse instead of thousands of rows to insert and delete.
      const batch = messages.map((m, i) => `{"routingKey":${JSON.stringify(m.routingKey)},"payload":${payloads[i]},"headers":${JSON.stringify(m.headers ?? {})}}`);
      const { rows } = await q.query<{ id: string }>(`INSERT INTO ${this.table} (routing_key, payload) VALUES ($1, $2) RETURNING id::text`, [BATCH_ROUTING_KEY, `[${batch.join(',')}]`]);
      const id = (rows[0] as { id: string }).id;
      return () => this.publishBatch(id, messages);
    }
    const { rows } = await q.query<{ id: string }>(
      prepared(
        `outbox_add_${this.table}`,
        `INSERT INTO ${this.table} (routing_key, payload, headers)
         SELECT r, p, h FROM unnest($1::text[], $2::jsonb[], $3::jsonb[]) WITH ORDINALITY AS m(r, p, h, n) ORDER BY n
         RETURNING id::text`,
        [messages.map((m) => m.routingKey), payloads, messages.map((m) => JSON.stringify(m.headers ?? {}))],
      ),
    );
    const added = rows.map((r, i) => ({ id: r.id, message: messages[i] as OutboxMessage<P> }));
    return () => this.publishCommitted(added);
  }

  /** A message the broker would refuse for good: the write that adds it is refused (413), rolled back by its caller. */
  private refuseOversized(messages: readonly OutboxMessage<P>[], payloads: readonly string[]): void {
    if (this.maxMessageBytes === Number.POSITIVE_INFINITY) return;
    payloads.forEach((payload, i) => {
      // A string's UTF-8 length is at least its length in UTF-16 units and at most three times it: measured only when it could be over.
      if (payload.length * 3 <= this.maxMessageBytes) return;
      const bytes = Buffer.byteLength(payload);
      if (bytes <= this.maxMessageBytes) return;
      throw new AppError(413, `The event ${messages[i]?.routingKey} this write makes is ${bytes} bytes, more than the message broker takes (BUS_MAX_MESSAGE_BYTES is ${this.maxMessageBytes}): nothing was written`);
    });
  }

  async transaction<T>(fn: (client: Queryable, add: (messages: readonly OutboxMessage<P>[]) => Promise<void>) => Promise<T>): Promise<T> {
    const { result, publishers } = await withTransaction(this.pool, async (c) => {
      const publishers: PublishAfterCommit[] = [];
      const result = await fn(c, async (messages) => void publishers.push(await this.add(c, messages)));
      return { result, publishers };
    });
    for (const publish of publishers) this.detach(publish);
    return result;
  }

  /**
   * The writer publishes its own committed messages from memory, in the order it made them, then deletes the rows
   * the broker confirmed. No row lock: the retry only takes rows older than `staleAfterMs`. Never rejects.
   */
  private async publishCommitted(added: { id: string; message: OutboxMessage<P> }[]): Promise<void> {
    const outcomes = await Promise.allSettled(added.map(({ message: m }) => this.publish(m.routingKey, m.payload, m.headers ?? {})));
    // A row goes once every message it holds was confirmed (a batch row holds many).
    const unconfirmed = new Set(added.filter((_, i) => outcomes[i]?.status !== 'fulfilled').map((a) => a.id));
    const published = [...new Set(added.map((a) => a.id))].filter((id) => !unconfirmed.has(id));
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) this.logger.warn({ err: failure.reason, outbox: this.table, pending: unconfirmed.size }, 'messages not published yet; they stay in the outbox for the retry');
    if (published.length === 0) return;
    // A delete lost in a crash only means the message is published again: no need to wait for the WAL flush. Several
    // statements in one simple query run as one implicit transaction, so SET LOCAL holds for the DELETE alone; the
    // ids are bigints this database returned, so they go inline.
    const list = published.filter((id) => /^\d+$/.test(id)).join(',');
    await this.pool
      .query(`SET LOCAL synchronous_commit TO OFF; DELETE FROM ${this.table} WHERE id IN (${list})`)
      .catch((err: unknown) => this.logger.warn({ err, outbox: this.table }, 'published messages not removed from the outbox; the retry will publish them again'));
  }

  /**
   * A batch row is leased, not locked, while its messages go out: its `created_at` is moved past the time its
   * publication may take, so no retry (which takes rows older than `staleAfterMs`) publishes it meanwhile, and no pool
   * connection is held for the thousands of confirms (48 concurrent big writes would otherwise hold the whole pool and
   * starve the writes). The messages are handed to the broker at once, in the order of the calls, as a row's are;
   * the lease is taken in the same moment, long before the row could be stale. A retry that already holds the row
   * (its writer was late by more than `staleAfterMs`) makes the lease wait, and may publish it too (at least once).
   * If the process dies meanwhile, the row is published once the lease has run out. Never rejects.
   */
  private async publishBatch(id: string, messages: readonly OutboxMessage<P>[]): Promise<void> {
    const leaseSeconds = (BATCH_LEASE_BASE_MS + messages.length * BATCH_LEASE_PER_MESSAGE_MS) / 1000;
    const leased = this.pool
      .query(`UPDATE ${this.table} SET created_at = clock_timestamp() + make_interval(secs => $2) WHERE id = $1`, [id, leaseSeconds])
      .then(
        () => true,
        (err: unknown) => {
          this.logger.warn({ err, outbox: this.table }, 'a batch of messages was not leased; a retry may publish it as well');
          return false;
        },
      );
    const outcomes = await Promise.allSettled(messages.map((m) => this.publish(m.routingKey, m.payload, m.headers ?? {})));
    await leased;
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    // Unconfirmed: the lease is given back, so the retry publishes the batch once it is stale, not once the lease ends.
    const settle = failure ? `UPDATE ${this.table} SET created_at = clock_timestamp() WHERE id = $1` : `DELETE FROM ${this.table} WHERE id = $1`;
    if (failure) this.logger.warn({ err: failure.reason, outbox: this.table, pending: messages.length }, 'messages not published yet; they stay in the outbox for the retry');
    await this.pool.query(settle, [id]).catch((err: unknown) => this.logger.warn({ err, outbox: this.table }, 'a batch of messages was not removed or released; the retry will publish it'));
  }

  detach(publish: PublishAfterCommit): void {
    const publishing: Promise<void> = publish()
      .catch((err: unknown) => this.logger.warn({ err, outbox: this.table }, 'messages not published yet; they stay in the outbox for the retry'))
      .finally(() => this.detached.delete(publishing));
    this.detached.add(publishing);
  }

  async settled(): Promise<void> {
    await Promise.all([...this.detached]);
  }

  retry(): Promise<void> {
    this.retrying ??= (async () => {
      try {
        while ((await this.publishLeftOvers()) === this.batchSize);
        if (this.failing) this.logger.info({ outbox: this.table }, 'left-over messages are published again');
        this.failing = false;
      } catch (err) {
        // Said once when the passes start failing, not at every pass (once a second) while the cause lasts.
        if (!this.failing) this.logLeftOversFailing(err);
        this.failing = true;
      } finally {
        this.retrying = undefined;
      }
    })();
    return this.retrying;
  }

  /** A database that cannot be reached is a dependency's loss (warn, the reason); anything else is unexpected. */
  private logLeftOversFailing(err: unknown): void {
    const message = `left-over messages not published; retrying every ${this.retryIntervalMs} ms (logged again once they are)`;
    if (isDatabaseUnreachable(err)) this.logger.warn({ outbox: this.table, ...errorFields(err) }, message);
    else this.logger.error({ err, outbox: this.table }, message);
  }

  start(): void {
    void this.retry();
    this.timer = setInterval(() => void this.retry(), this.retryIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.retrying;
    await this.settled();
  }

  /**
   * One transaction: lock up to a batch of stale rows (skipping rows another instance holds), publish them in id
   * order, delete those the broker confirmed. Returns how many were published, -1 after a failure.
   */
  private publishLeftOvers(): Promise<number> {
    return withTransaction(this.pool, async (c) => {
      // The rows stay locked while the broker confirms what was published (thousands of messages, after an outage):
      // the pool's bound on a transaction left idle (DB_IDLE_IN_TRANSACTION_TIMEOUT_MS) would end the session before its
      // DELETE, and every pass would publish them again.
      await c.query('SET LOCAL idle_in_transaction_session_timeout = 0');
      // Ordered by the column: a bare `id` would name the output column, the text, and sort "1000" before "997".
      const { rows } = await c.query<OutboxRow<P>>(
        `SELECT id::text, routing_key, payload, headers FROM ${this.table}
         WHERE created_at < clock_timestamp() - make_interval(secs => $1)
         ORDER BY ${this.table}.id LIMIT ${this.batchSize} FOR UPDATE SKIP LOCKED`,
        [this.staleAfterMs / 1000],
      );
      if (rows.length === 0) return 0;
      // Published in id order on one channel and confirmed together (a batch row's messages in their order); a row
      // the broker did not confirm whole stays.
      const rowsSettled = await Promise.all(rows.map(async (r) => (await Promise.allSettled(messagesOf(r).map((m) => this.publish(m.routingKey, m.payload, m.headers ?? {})))) as PromiseSettledResult<void>[]));
      const published = rows.filter((_, i) => (rowsSettled[i] as PromiseSettledResult<void>[]).every((o) => o.status === 'fulfilled'));
      if (published.length) await c.query(`DELETE FROM ${this.table} WHERE id = ANY($1::bigint[])`, [published.map((r) => r.id)]);
      const failure = rowsSettled.flat().find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failure) {
        this.logger.warn({ err: failure.reason, outbox: this.table, pending: rows.length - published.length }, 'messages not published yet; they stay in the outbox for the retry');
        return -1;
      }
      return rows.length;
    });
  }
}
