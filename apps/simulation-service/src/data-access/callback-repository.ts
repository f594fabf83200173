import type { Pool } from 'pg';
import type { SimulationCallback } from '@pitwall/contracts';
import type { Queryable } from '@pitwall/db';

export interface CallbackRow {
  id: string;
  accountId: string;
  url: string;
  description: string | null;
  createdAt: Date;
}

/** A webhook message for every callback of its account, recorded in the transaction of the status step. */
export interface WebhookMessage {
  accountId: string;
  /** The `webhook-id` header: the event's id, the same on every attempt. */
  webhookId: string;
  setupId: string;
  status: string;
  /** The exact body signed and sent. */
  body: string;
}

/** A delivery claimed for an attempt, with what it needs to be sent. */
export interface DueDelivery {
  id: string;
  accountId: string;
  callbackId: string;
  webhookId: string;
  body: string;
  attempts: number;
  url: string;
  sealedSecret: Buffer;
}

/** What one claim may take: in all, and of one account or one callback, counting what the claimer is already sending. */
export interface ClaimLimits {
  limit: number;
  perAccount: number;
  perCallback: number;
  /** Deliveries the claimer is sending now, by account and by callback (they count against the caps). */
  sendingByAccount: ReadonlyMap<string, number>;
  sendingByCallback: ReadonlyMap<string, number>;
}

export type AttemptOutcome = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string; retryAt: Date | null };

const FAILURES_LISTED = 20;

/** SIMULATION_CALLBACK_BATCH_ROWS's default: delivery rows one statement writes or removes at most. */
export const DEFAULT_CALLBACK_BATCH_ROWS = 1000;

/** The account's HTTP callbacks, the status events recorded for them, and their delivery records (the webhook outbox). */
export class CallbackRepository {
  constructor(private readonly pool: Pool) {}

  async insert(q: Queryable, callback: CallbackRow & { sealedSecret: Buffer }): Promise<void> {
    await q.query('INSERT INTO simulation.callbacks (id, account_id, url, description, sealed_secret, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      callback.id,
      callback.accountId,
      callback.url,
      callback.description,
      callback.sealedSecret,
      callback.createdAt,
    ]);
  }

  /** How many callbacks the account has, its registrations held back until the caller's transaction ends. */
  async countForUpdate(q: Queryable, accountId: string): Promise<number> {
    await q.query("SELECT pg_advisory_xact_lock(hashtextextended('simulation.callbacks:' || $1, 0))", [accountId]);
    const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM simulation.callbacks WHERE account_id = $1 AND deleted_at IS NULL', [accountId]);
    return rows[0]?.n ?? 0;
  }

  /**
   * Deletes the account's callback: from now on it is neither listed, counted nor delivered to (a claim skips its
   * pending deliveries); its delivery rows are removed afterwards in batches (`purgeDeleted`), then the row itself. False
   * when the account has no such callback.
   */
  async delete(q: Queryable, accountId: string, id: string): Promise<boolean> {
    const { rowCount } = await q.query('UPDATE simulation.callbacks SET deleted_at = now() WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL', [accountId, id]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * The account's callbacks, oldest first, with their deliveries by state (the counters the deliveries' own statements
   * keep: never a count of the rows) and their latest failures (an index walk of at most 20 rows each).
   */
  async list(accountId: string): Promise<SimulationCallback[]> {
    const { rows } = await this.pool.query<{ id: string; url: string; description: string | null; created_at: Date; delivered: string; pending: string; failed: string; failures: FailureRow[] | null }>(
      `SELECT c.id, c.url, c.description, c.created_at, c.delivered, c.pending, c.failed,
              (SELECT json_agg(f ORDER BY f.last_attempt_at DESC) FROM (
                 SELECT d.webhook_id, d.setup_id, d.status, d.state, d.attempts, d.last_attempt_at, d.next_attempt_at, d.last_status_code, d.last_error
                 FROM simulation.callback_deliveries d
                 WHERE d.callback_id = c.id AND d.last_error IS NOT NULL AND d.state <> 'delivered'
                 ORDER BY d.last_attempt_at DESC LIMIT ${FAILURES_LISTED}) f) AS failures
       FROM simulation.callbacks c WHERE c.account_id = $1 AND c.deleted_at IS NULL ORDER BY c.created_at, c.id`,
      [accountId],
    );
    return rows.map((r) => ({
      id: r.id,
      url: r.url,
      description: r.description,
      createdAt: r.created_at.toISOString(),
      deliveries: { delivered: Number(r.delivered), pending: Number(r.pending), failed: Number(r.failed) },
      recentFailures: (r.failures ?? []).map((f) => ({
        webhookId: f.webhook_id,
        setupId: f.setup_id,
        status: f.status,
        state: f.state === 'failed' ? ('failed' as const) : ('retrying' as const),
        attempts: f.attempts,
        lastAttemptAt: new Date(f.last_attempt_at).toISOString(),
        nextAttemptAt: f.state === 'failed' ? null : new Date(f.next_attempt_at).toISOString(),
        lastStatusCode: f.last_status_code,
        lastError: f.last_error,
      })),
    }));
  }

  /**
   * Records each message of an account that has callbacks, in the caller's transaction (the status step's), to be
   * written as one delivery per callback afterwards (`writeDeliveries`); returns how many were recorded. One row per
   * message, whatever the number of callbacks: a Trigger's transaction grows with its setups only.
   */
  async enqueue(q: Queryable, messages: readonly WebhookMessage[]): Promise<number> {
    if (!messages.length) return 0;
    const { rowCount } = await q.query(
      `INSERT INTO simulation.callback_events (account_id, webhook_id, setup_id, status, body)
       SELECT m.account_id, m.webhook_id, m.setup_id, m.status, m.body
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[]) WITH ORDINALITY AS m(account_id, webhook_id, setup_id, status, body, n)
       WHERE EXISTS (SELECT 1 FROM simulation.callbacks c WHERE c.account_id = m.account_id AND c.deleted_at IS NULL)
       ORDER BY m.n`,
      [messages.map((m) => m.accountId), messages.map((m) => m.webhookId), messages.map((m) => m.setupId), messages.map((m) => m.status), messages.map((m) => m.body)],
    );
    return rowCount ?? 0;
  }

  /**
   * Writes recorded messages as deliveries, one per callback of the message's account registered before it (a callback
   * deleted since gets none), and removes the messages, in one statement: at most `batchRows` deliveries (and at least
   * one message), the accounts taken in turn (each one's oldest message first, then each one's next), so one account's
   * Trigger of thousands of setups delays another account's step by one batch at most. Only the accounts with messages
   * are visited (one index probe each); messages another instance is writing are skipped. Returns the messages taken
   * and the deliveries written.
   */
  async writeDeliveries(batchRows: number): Promise<{ messages: number; deliveries: number }> {
    const { rows } = await this.pool.query<{ messages: number; deliveries: number }>(
      `WITH RECURSIVE account_with_events AS (
         (SELECT account_id FROM simulation.callback_events ORDER BY account_id LIMIT 1)
         UNION ALL
         SELECT n.account_id FROM account_with_events a CROSS JOIN LATERAL (
           SELECT account_id FROM simulation.callback_events WHERE account_id > a.account_id ORDER BY account_id LIMIT 1) n),
       account AS (
         SELECT a.account_id, GREATEST((SELECT count(*)::int FROM simulation.callbacks c WHERE c.account_id = a.account_id AND c.deleted_at IS NULL), 1) AS per_event
         FROM account_with_events a),
       candidate AS (
         SELECT e.id, a.per_event, row_number() OVER (PARTITION BY a.account_id ORDER BY e.id) AS k
         FROM account a CROSS JOIN LATERAL (
           SELECT id FROM simulation.callback_events WHERE account_id = a.account_id ORDER BY id LIMIT GREATEST($1 / a.per_event, 1)) e),
       chosen AS (
         SELECT id FROM (
           SELECT id, row_number() OVER turns AS n, sum(per_event) OVER turns AS upto FROM candidate
           WINDOW turns AS (ORDER BY k, id ROWS UNBOUNDED PRECEDING)) c
         WHERE upto <= $1 OR n = 1),
       taken AS (
         DELETE FROM simulation.callback_events e
         WHERE e.id IN (SELECT id FROM simulation.callback_events WHERE id IN (SELECT id FROM chosen) FOR UPDATE SKIP LOCKED)
         RETURNING e.id, e.account_id, e.webhook_id, e.setup_id, e.status, e.body),
       written AS (
         INSERT INTO simulation.callback_deliveries (id, callback_id, webhook_id, setup_id, status, body)
         SELECT gen_random_uuid(), c.id, t.webhook_id, t.setup_id, t.status, t.body
         FROM taken t JOIN simulation.callbacks c ON c.account_id = t.account_id AND c.deleted_at IS NULL AND c.events_from < t.id
         ORDER BY t.id, c.id
         RETURNING 1)
       SELECT (SELECT count(*)::int FROM taken) AS messages, (SELECT count(*)::int FROM written) AS deliveries`,
      [batchRows],
    );
    return rows[0] ?? { messages: 0, deliveries: 0 };
  }

  /**
   * Claims due deliveries for an attempt, fairly: at most `perCallback` of one callback and `perAccount` of one account
   * (what the claimer is sending counted in), the accounts and callbacks with the fewest in flight first, then the
   * longest due; so a backlog of one account, or of one slow receiver, never fills a claim. Each is leased (its next
   * attempt moved `leaseMs` ahead), so another instance does not send it meanwhile, and an instance that dies
   * mid-attempt leaves it due again after. Only the callbacks with pending deliveries are visited (one index probe
   * each), however many callbacks the accounts registered.
   */
  async claimDue(limits: ClaimLimits, leaseMs: number): Promise<DueDelivery[]> {
    if (limits.limit <= 0) return [];
    // The choice reads without locks (a window cannot lock); the rows chosen are then locked, skipping those another
    // instance holds, and checked again: one it claimed meanwhile is no longer due.
    const { rows } = await this.pool.query<{ id: string; account_id: string; callback_id: string; webhook_id: string; body: string; attempts: number; url: string; sealed_secret: Buffer }>(
      `WITH RECURSIVE sending_account AS (SELECT * FROM unnest($3::uuid[], $4::int[]) AS s(account_id, n)),
       sending_callback AS (SELECT * FROM unnest($5::uuid[], $6::int[]) AS s(callback_id, n)),
       -- Each callback with pending deliveries and its earliest, one index probe each (a skip scan of
       -- callback_deliveries_callback_due): callbacks with nothing pending are never read.
       pending_callback AS (
         (SELECT callback_id, next_attempt_at FROM simulation.callback_deliveries WHERE state = 'pending'
          ORDER BY callback_id, next_attempt_at, created_at LIMIT 1)
         UNION ALL
         SELECT n.callback_id, n.next_attempt_at FROM pending_callback p CROSS JOIN LATERAL (
           SELECT callback_id, next_attempt_at FROM simulation.callback_deliveries
           WHERE state = 'pending' AND callback_id > p.callback_id
           ORDER BY callback_id, next_attempt_at, created_at LIMIT 1) n),
       candidate AS (
         SELECT d.id, c.account_id, d.next_attempt_at, d.created_at, COALESCE(sa.n, 0) AS account_sending,
                COALESCE(sc.n, 0) + row_number() OVER (PARTITION BY c.id ORDER BY d.next_attempt_at, d.created_at) AS in_callback
         FROM pending_callback p
         CROSS JOIN LATERAL (SELECT id, account_id FROM simulation.callbacks WHERE id = p.callback_id AND deleted_at IS NULL LIMIT 1) c
         LEFT JOIN sending_account sa ON sa.account_id = c.account_id
         LEFT JOIN sending_callback sc ON sc.callback_id = c.id
         CROSS JOIN LATERAL (
           SELECT d.id, d.next_attempt_at, d.created_at FROM simulation.callback_deliveries d
           WHERE d.callback_id = c.id AND d.state = 'pending' AND d.next_attempt_at <= now()
           ORDER BY d.next_attempt_at, d.created_at LIMIT GREATEST($8 - COALESCE(sc.n, 0), 0)) d
         WHERE p.next_attempt_at <= now() AND COALESCE(sa.n, 0) < $7),
       ranked AS (
         SELECT id, next_attempt_at, created_at,
                account_sending + row_number() OVER (PARTITION BY account_id ORDER BY in_callback, next_attempt_at, created_at) AS in_account
         FROM candidate),
       chosen AS (SELECT id FROM ranked WHERE in_account <= $7 ORDER BY in_account, next_attempt_at, created_at LIMIT $1),
       locked AS (
         SELECT id FROM simulation.callback_deliveries
         WHERE id IN (SELECT id FROM chosen) AND state = 'pending' AND next_attempt_at <= now()
         FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE simulation.callback_deliveries d SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
         WHERE d.id IN (SELECT id FROM locked)
         RETURNING d.id, d.callback_id, d.webhook_id, d.body, d.attempts)
       -- Callbacks are read by key only (LIMIT 1 keeps each a probe, never a scan of every callback).
       SELECT d.id, c.account_id, d.callback_id, d.webhook_id, d.body, d.attempts, c.url, c.sealed_secret
       FROM claimed d CROSS JOIN LATERAL (SELECT account_id, url, sealed_secret FROM simulation.callbacks WHERE id = d.callback_id LIMIT 1) c`,
      [
        limits.limit,
        leaseMs,
        [...limits.sendingByAccount.keys()],
        [...limits.sendingByAccount.values()],
        [...limits.sendingByCallback.keys()],
        [...limits.sendingByCallback.values()],
        limits.perAccount,
        limits.perCallback,
      ],
    );
    return rows.map((r) => ({ id: r.id, accountId: r.account_id, callbackId: r.callback_id, webhookId: r.webhook_id, body: r.body, attempts: r.attempts, url: r.url, sealedSecret: r.sealed_secret }));
  }

  /**
   * Deletes the deliveries that ended (delivered or given up) more than `days` ago, oldest first, at most `batchRows` a
   * statement (each its own transaction, so other work goes between them); returns how many.
   */
  async sweepEnded(days: number, batchRows = DEFAULT_CALLBACK_BATCH_ROWS): Promise<number> {
    let swept = 0;
    for (;;) {
      const { rowCount } = await this.pool.query(
        `DELETE FROM simulation.callback_deliveries WHERE id IN (
           SELECT id FROM simulation.callback_deliveries WHERE state <> 'pending' AND last_attempt_at < now() - make_interval(days => $1)
           ORDER BY last_attempt_at LIMIT $2)`,
        [days, batchRows],
      );
      swept += rowCount ?? 0;
      if ((rowCount ?? 0) < batchRows) return swept;
    }
  }

  /**
   * Removes what deleted callbacks left: their deliveries, at most `batchRows` a statement (each its own transaction),
   * then each callback's row once it has none (up to 100 callbacks a call, the longest deleted first). Returns how many
   * deliveries went.
   */
  async purgeDeleted(batchRows = DEFAULT_CALLBACK_BATCH_ROWS): Promise<number> {
    let purged = 0;
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM simulation.callbacks WHERE deleted_at IS NOT NULL ORDER BY deleted_at, id LIMIT 100');
    for (const { id } of rows) {
      for (;;) {
        const { rowCount } = await this.pool.query('DELETE FROM simulation.callback_deliveries WHERE id IN (SELECT id FROM simulation.callback_deliveries WHERE callback_id = $1 LIMIT $2)', [id, batchRows]);
        purged += rowCount ?? 0;
        if ((rowCount ?? 0) < batchRows) break;
      }
      // A delivery written since (a step whose transaction read the callback before its delete) goes with the row.
      await this.pool.query('DELETE FROM simulation.callbacks WHERE id = $1 AND deleted_at IS NOT NULL', [id]);
    }
    return purged;
  }

  /**
   * Records an attempt: delivered, retried at `retryAt`, or given up (`retryAt` null). Only a delivery still pending
   * takes it: one that another attempt ended meanwhile (its lease lapsed and another instance took it) keeps its end.
   */
  async recordAttempt(id: string, outcome: AttemptOutcome): Promise<void> {
    if (outcome.ok) {
      await this.pool.query(
        `UPDATE simulation.callback_deliveries SET state = 'delivered', attempts = attempts + 1, last_attempt_at = now(), last_status_code = $2, last_error = NULL WHERE id = $1 AND state = 'pending'`,
        [id, outcome.statusCode],
      );
      return;
    }
    await this.pool.query(
      `UPDATE simulation.callback_deliveries
       SET state = CASE WHEN $4::timestamptz IS NULL THEN 'failed' ELSE 'pending' END, attempts = attempts + 1, last_attempt_at = now(),
           last_status_code = $2, last_error = $3, next_attempt_at = COALESCE($4::timestamptz, next_attempt_at)
       WHERE id = $1 AND state = 'pending'`,
      [id, outcome.statusCode, outcome.error, outcome.retryAt],
    );
  }
}

interface FailureRow {
  webhook_id: string;
  setup_id: string;
  status: string;
  state: string;
  attempts: number;
  last_attempt_at: string;
  next_attempt_at: string;
  last_status_code: number | null;
  last_error: string;
}
