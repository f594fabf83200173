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

/** A webhook message to write for every callback of its account, in the transaction of the status step. */
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
  webhookId: string;
  body: string;
  attempts: number;
  url: string;
  sealedSecret: Buffer;
}

export type AttemptOutcome = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string; retryAt: Date | null };

const FAILURES_LISTED = 20;

/** The account's HTTP callbacks and their delivery records (the webhook outbox). */
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
    const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM simulation.callbacks WHERE account_id = $1', [accountId]);
    return rows[0]?.n ?? 0;
  }

  /** Deletes the account's callback (its deliveries go with it); false when it has none of that id. */
  async delete(q: Queryable, accountId: string, id: string): Promise<boolean> {
    const { rowCount } = await q.query('DELETE FROM simulation.callbacks WHERE account_id = $1 AND id = $2', [accountId, id]);
    return (rowCount ?? 0) > 0;
  }

  /** The account's callbacks, oldest first, with their deliveries by state and their latest failures. */
  async list(accountId: string): Promise<SimulationCallback[]> {
    const { rows } = await this.pool.query<{ id: string; url: string; description: string | null; created_at: Date; delivered: number; pending: number; failed: number; failures: FailureRow[] | null }>(
      `SELECT c.id, c.url, c.description, c.created_at,
              (SELECT count(*)::int FROM simulation.callback_deliveries d WHERE d.callback_id = c.id AND d.state = 'delivered') AS delivered,
              (SELECT count(*)::int FROM simulation.callback_deliveries d WHERE d.callback_id = c.id AND d.state = 'pending') AS pending,
              (SELECT count(*)::int FROM simulation.callback_deliveries d WHERE d.callback_id = c.id AND d.state = 'failed') AS failed,
              (SELECT json_agg(f ORDER BY f.last_attempt_at DESC) FROM (
                 SELECT d.webhook_id, d.setup_id, d.status, d.state, d.attempts, d.last_attempt_at, d.next_attempt_at, d.last_status_code, d.last_error
                 FROM simulation.callback_deliveries d
                 WHERE d.callback_id = c.id AND d.last_error IS NOT NULL AND d.state <> 'delivered'
                 ORDER BY d.last_attempt_at DESC LIMIT ${FAILURES_LISTED}) f) AS failures
       FROM simulation.callbacks c WHERE c.account_id = $1 ORDER BY c.created_at, c.id`,
      [accountId],
    );
    return rows.map((r) => ({
      id: r.id,
      url: r.url,
      description: r.description,
      createdAt: r.created_at.toISOString(),
      deliveries: { delivered: r.delivered, pending: r.pending, failed: r.failed },
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

  /** One delivery per callback of each message's account, written in the caller's transaction; returns how many. */
  async enqueue(q: Queryable, messages: readonly WebhookMessage[]): Promise<number> {
    if (!messages.length) return 0;
    const { rowCount } = await q.query(
      `INSERT INTO simulation.callback_deliveries (id, callback_id, webhook_id, setup_id, status, body)
       SELECT gen_random_uuid(), c.id, m.webhook_id, m.setup_id, m.status, m.body
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[]) AS m(account_id, webhook_id, setup_id, status, body)
       JOIN simulation.callbacks c ON c.account_id = m.account_id`,
      [messages.map((m) => m.accountId), messages.map((m) => m.webhookId), messages.map((m) => m.setupId), messages.map((m) => m.status), messages.map((m) => m.body)],
    );
    return rowCount ?? 0;
  }

  /**
   * Claims up to `limit` due deliveries for an attempt: each is leased (its next attempt moved `leaseMs` ahead), so
   * another instance does not send it meanwhile, and an instance that dies mid-attempt leaves it due again after.
   */
  async claimDue(limit: number, leaseMs: number): Promise<DueDelivery[]> {
    const { rows } = await this.pool.query<{ id: string; webhook_id: string; body: string; attempts: number; url: string; sealed_secret: Buffer }>(
      `UPDATE simulation.callback_deliveries d SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
       FROM simulation.callbacks c
       WHERE c.id = d.callback_id AND d.id IN (
         SELECT id FROM simulation.callback_deliveries WHERE state = 'pending' AND next_attempt_at <= now()
         ORDER BY next_attempt_at, created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING d.id, d.webhook_id, d.body, d.attempts, c.url, c.sealed_secret`,
      [limit, leaseMs],
    );
    return rows.map((r) => ({ id: r.id, webhookId: r.webhook_id, body: r.body, attempts: r.attempts, url: r.url, sealedSecret: r.sealed_secret }));
  }

  /** Deletes the deliveries that ended (delivered or given up) more than `days` ago; returns how many. */
  async sweepEnded(days: number): Promise<number> {
    const { rowCount } = await this.pool.query(`DELETE FROM simulation.callback_deliveries WHERE state <> 'pending' AND last_attempt_at < now() - make_interval(days => $1)`, [days]);
    return rowCount ?? 0;
  }

  /** Records an attempt: delivered, retried at `retryAt`, or given up (`retryAt` null). */
  async recordAttempt(id: string, outcome: AttemptOutcome): Promise<void> {
    if (outcome.ok) {
      await this.pool.query(
        `UPDATE simulation.callback_deliveries SET state = 'delivered', attempts = attempts + 1, last_attempt_at = now(), last_status_code = $2, last_error = NULL WHERE id = $1`,
        [id, outcome.statusCode],
      );
      return;
    }
    await this.pool.query(
      `UPDATE simulation.callback_deliveries
       SET state = CASE WHEN $4::timestamptz IS NULL THEN 'failed' ELSE 'pending' END, attempts = attempts + 1, last_attempt_at = now(),
           last_status_code = $2, last_error = $3, next_attempt_at = COALESCE($4::timestamptz, next_attempt_at)
       WHERE id = $1`,
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
