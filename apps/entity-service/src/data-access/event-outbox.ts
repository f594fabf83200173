import type { Pool } from 'pg';
import { withTransaction } from '@pitwall/db';
import type { EntityChangedEvent } from '@pitwall/contracts';
import type { Logger } from '@pitwall/service-kit';
import type { Queryable } from './entity-repository';

const routingKeyOf = (e: EntityChangedEvent) => `entity.${e.entityType}.${e.action}`;

/** Sends one event to the entity events exchange; resolves once the broker has taken it. */
export type PublishEvent = (routingKey: string, payload: EntityChangedEvent, headers: Record<string, string>) => Promise<void>;

interface OutboxRow {
  id: string;
  routing_key: string;
  payload: EntityChangedEvent;
  headers: Record<string, string>;
}

export interface EventOutboxOptions {
  /** How often left-over events are looked for. Default 1000 ms. */
  retryIntervalMs?: number;
  /** An event still in the outbox this long after its write is a leftover that any instance publishes. Default 2000 ms. */
  staleAfterMs?: number;
  /** Left-over events published per transaction. Default 200. */
  batchSize?: number;
}

/**
 * The transactional outbox of entity events. A write adds its events in its own transaction, so they exist exactly
 * when the write committed, and publishes them itself right after the commit, in the order it made them.
 * What it could not publish (broker unreachable, process killed between commit and publish) is left over; once
 * stale, a retry on any instance publishes it. Every committed write's events are therefore published at least
 * once; a retry after a lost confirm can publish one twice, and left-overs may arrive after later events.
 * Instances never publish the same row at once (`FOR UPDATE SKIP LOCKED`).
 */
export class EventOutbox {
  private readonly retryIntervalMs: number;
  private readonly staleAfterMs: number;
  private readonly batchSize: number;
  private timer: NodeJS.Timeout | undefined;
  private retrying: Promise<void> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly publish: PublishEvent,
    private readonly logger: Logger,
    options: EventOutboxOptions = {},
  ) {
    this.retryIntervalMs = options.retryIntervalMs ?? 1000;
    this.staleAfterMs = options.staleAfterMs ?? 2000;
    this.batchSize = options.batchSize ?? 200;
  }

  /**
   * Adds `events` inside the caller's transaction; `headers` travel with each (the request id). Returns what
   * publishes them once that transaction has committed.
   */
  async add(q: Queryable, events: EntityChangedEvent[], headers: Record<string, string>): Promise<() => Promise<void>> {
    if (events.length === 0) return async () => undefined;
    const routingKeys = events.map(routingKeyOf);
    const { rows } = await q.query<{ id: string }>(
      `INSERT INTO entity.outbox (routing_key, payload, headers)
       SELECT r, p, $3::jsonb FROM unnest($1::text[], $2::jsonb[]) WITH ORDINALITY AS e(r, p, n) ORDER BY n
       RETURNING id::text`,
      [routingKeys, events.map((e) => JSON.stringify(e)), JSON.stringify(headers)],
    );
    const ids = rows.map((r) => r.id);
    return () => this.publishCommitted(ids, routingKeys, events, headers);
  }

  /**
   * The writer publishes its own committed events from memory, in the order it made them, then deletes the rows
   * the broker confirmed. No row lock: the retry only takes rows older than `staleAfterMs`. Never rejects.
   */
  private async publishCommitted(ids: string[], routingKeys: string[], events: EntityChangedEvent[], headers: Record<string, string>): Promise<void> {
    const outcomes = await Promise.allSettled(events.map((e, i) => this.publish(routingKeys[i] as string, e, headers)));
    const published = ids.filter((_, i) => outcomes[i]?.status === 'fulfilled');
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) this.logger.warn({ err: failure.reason, pending: ids.length - published.length }, 'entity events not published yet; they stay in the outbox for the retry');
    if (published.length === 0) return;
    // A delete lost in a crash only means the event is published again: no need to wait for the WAL flush. Several
    // statements in one simple query run as one implicit transaction, so SET LOCAL holds for the DELETE alone; the
    // ids are bigints this database returned, so they go inline.
    const list = published.filter((id) => /^\d+$/.test(id)).join(',');
    await this.pool
      .query(`SET LOCAL synchronous_commit TO OFF; DELETE FROM entity.outbox WHERE id IN (${list})`)
      .catch((err: unknown) => this.logger.warn({ err }, 'published entity events not removed from the outbox; the retry will publish them again'));
  }

  /** Publishes every left-over event (older than `staleAfterMs`), batch by batch. Never rejects. */
  retry(): Promise<void> {
    this.retrying ??= (async () => {
      try {
        const where = `WHERE created_at < clock_timestamp() - make_interval(secs => $1)`;
        while ((await this.publishRows(where, [this.staleAfterMs / 1000])) === this.batchSize);
      } catch (err) {
        this.logger.error({ err }, 'left-over entity events not published; retrying later');
      } finally {
        this.retrying = undefined;
      }
    })();
    return this.retrying;
  }

  /** Looks for left-over events now and then every `retryIntervalMs`. */
  start(): void {
    void this.retry();
    this.timer = setInterval(() => void this.retry(), this.retryIntervalMs);
    this.timer.unref();
  }

  /** Stops the retries and waits for the one in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.retrying;
  }

  /**
   * One transaction: lock up to a batch of the rows `where` selects (skipping rows another instance holds), publish
   * them in id order, delete those the broker confirmed. Returns how many were published, -1 after a failure.
   */
  private publishRows(where: string, values: unknown[]): Promise<number> {
    return withTransaction(this.pool, async (c) => {
      const { rows } = await c.query<OutboxRow>(
        `SELECT id::text, routing_key, payload, headers FROM entity.outbox ${where} ORDER BY id LIMIT ${this.batchSize} FOR UPDATE SKIP LOCKED`,
        values,
      );
      if (rows.length === 0) return 0;
      // Published in id order on one channel and confirmed together; what the broker did not confirm stays.
      const outcomes = await Promise.allSettled(rows.map((r) => this.publish(r.routing_key, r.payload, r.headers)));
      const published = rows.filter((_, i) => outcomes[i]?.status === 'fulfilled');
      if (published.length) await c.query(`DELETE FROM entity.outbox WHERE id = ANY($1::bigint[])`, [published.map((r) => r.id)]);
      const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failure) {
        this.logger.warn({ err: failure.reason, pending: rows.length - published.length }, 'entity events not published yet; they stay in the outbox for the retry');
        return -1;
      }
      return rows.length;
    });
  }
}
