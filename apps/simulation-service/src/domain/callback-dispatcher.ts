import { STATUS_CODES } from 'node:http';
import { AddressNotAllowed, ResponseTooLarge, type Egress } from '@pitwall/egress';
import type { Logger } from '@pitwall/service-kit';
import type { AttemptOutcome, CallbackRepository, DueDelivery } from '../data-access/callback-repository';
import { SealedUnderAnotherKey, type SecretBox } from './secret-box';
import { signWebhook } from './callbacks';
import { CoalescedPass } from './coalesced-pass';

export interface CallbackSettings {
  /** Attempts per delivery before it is given up (recorded as failed). */
  attempts: number;
  /** Wait before the second attempt; it doubles after each failure, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Time limit of one POST. */
  timeoutMs: number;
  /** How often due deliveries are looked for (besides right after each status change and each attempt's end). */
  pollIntervalMs: number;
  /** Deliveries this instance sends at once; a slot is refilled as soon as its attempt ends. */
  inFlight: number;
  /** Of them, at most this many of one account, and of one callback: a slow receiver holds its own slots only. */
  inFlightPerAccount: number;
  inFlightPerCallback: number;
  /**
   * SIMULATION_CALLBACK_BATCH_ROWS: delivery rows one statement writes (a batch of recorded status events, one delivery
   * per callback) or removes (the sweep, a deleted callback's purge) at most.
   */
  batchRows: number;
}

/** Defaults of the in-flight bounds (SIMULATION_CALLBACK_IN_FLIGHT, ..._PER_ACCOUNT, ..._PER_CALLBACK). */
export const DEFAULT_CALLBACK_IN_FLIGHT = { total: 100, perAccount: 10, perCallback: 4 } as const;
/** Ended deliveries (delivered or given up) are kept this long, then swept (hourly). */
export const ENDED_DELIVERIES_KEPT_DAYS = 30;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The failure of a delivery whose callback's secret no configured key opens (sealed under a key since removed), as the
 * account sees it: what to do, never the service's settings (the log names the keys tried). Retried like any failure:
 * during a key's roll-out another instance may open it.
 */
export const CALLBACK_SECRET_UNOPENABLE =
  "The callback's signing secret can no longer be used, so nothing was sent: delete the callback (DELETE /ExternalSimulations/Callbacks/{id}) and register it again (POST /ExternalSimulations/Callbacks) for a new secret";

/** The wait after the `attempt`-th failed attempt: base, 2 × base, 4 × base... capped. */
export const retryDelay = (settings: Pick<CallbackSettings, 'baseDelayMs' | 'maxDelayMs'>, attempt: number): number => Math.min(settings.baseDelayMs * 2 ** (attempt - 1), settings.maxDelayMs);

/**
 * Sends the webhook deliveries the status steps wrote (every instance runs one; a claimed delivery is leased to one
 * instance at a time): POST with the Standard Webhooks headers, a 2xx answer delivers it, anything else is retried
 * with exponential backoff until the attempts run out, and then recorded as failed with the last reason. Every POST
 * goes through the egress policy; a receiver whose address the policy refuses is given up at once. The reasons
 * recorded are the service's own words: no byte of a receiver's answer is kept or listed.
 *
 * Deliveries are sent by a pool of `inFlight` concurrent attempts, each slot claimed again as soon as its attempt ends
 * (no attempt waits for another's), with at most `inFlightPerAccount` of one account and `inFlightPerCallback` of one
 * callback in flight; a claim serves the accounts and callbacks with the fewest in flight first. So one account's
 * backlog, or a receiver that answers slowly or not at all, holds its own slots, never another account's deliveries.
 */
export class CallbackDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly filling = new CoalescedPass(
    () => this.fill(),
    (err: unknown) => this.logger.warn({ err }, 'callback deliveries could not be read; retried later'),
    () => !this.stopped,
  );
  private readonly purging = new CoalescedPass(
    () => this.purge(),
    (err: unknown) => this.logger.warn({ err }, "deleted callbacks' deliveries could not be removed; retried later"),
    () => !this.stopped,
  );
  /** The deliveries being sent now, by id, and their attempts (awaited by `stop`). */
  private readonly sending = new Map<string, DueDelivery>();
  private readonly attempts = new Set<Promise<void>>();

  constructor(
    private readonly egress: Egress,
    private readonly repository: CallbackRepository,
    private readonly secrets: SecretBox,
    private readonly settings: CallbackSettings,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.settings.pollIntervalMs);
    this.timer.unref();
    this.sweeper = setInterval(() => {
      this.repository.sweepEnded(ENDED_DELIVERIES_KEPT_DAYS, this.settings.batchRows).catch((err: unknown) => this.logger.warn({ err }, 'ended callback deliveries could not be swept; retried later'));
      this.purging.wake();
    }, SWEEP_INTERVAL_MS);
    this.sweeper.unref();
    this.wake();
    this.purging.wake();
  }

  /** After a callback's delete committed: what it left is removed now, in batches (and by every instance's start and hourly sweep). */
  deleted(): void {
    this.purging.wake();
  }

  /** Fills the free slots with due deliveries now (called after a status step committed, and as each attempt ends). */
  wake(): void {
    this.filling.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.sweeper) clearInterval(this.sweeper);
    this.timer = undefined;
    this.sweeper = undefined;
    await this.filling.idle();
    await this.purging.idle();
    await Promise.all([...this.attempts]);
  }

  private async purge(): Promise<void> {
    const purged = await this.repository.purgeDeleted(this.settings.batchRows);
    if (purged) this.logger.info({ deliveries: purged }, "deleted callbacks' deliveries removed");
  }

  /**
   * One batch of recorded status events written as deliveries (another pass follows while there were some), then one
   * claim for the free slots; each delivery claimed is sent at once, on its own.
   */
  private async fill(): Promise<void> {
    if (this.stopped) return;
    const written = await this.repository.writeDeliveries(this.settings.batchRows);
    if (written.messages > 0) this.wake();
    const free = this.settings.inFlight - this.sending.size;
    if (free <= 0) return;
    const sendingByAccount = new Map<string, number>();
    const sendingByCallback = new Map<string, number>();
    for (const { accountId, callbackId } of this.sending.values()) {
      sendingByAccount.set(accountId, (sendingByAccount.get(accountId) ?? 0) + 1);
      sendingByCallback.set(callbackId, (sendingByCallback.get(callbackId) ?? 0) + 1);
    }
    const due = await this.repository.claimDue(
      { limit: free, perAccount: this.settings.inFlightPerAccount, perCallback: this.settings.inFlightPerCallback, sendingByAccount, sendingByCallback },
      this.settings.timeoutMs * 2 + 5000,
    );
    for (const delivery of due) this.send(delivery);
  }

  private send(delivery: DueDelivery): void {
    this.sending.set(delivery.id, delivery);
    const attempt: Promise<void> = this.attempt(delivery)
      // Not recorded (the database is away): the delivery stays leased, and is due again when its lease ends.
      .catch((err: unknown) => this.logger.warn({ err, deliveryId: delivery.id }, 'callback attempt could not be recorded; retried after its lease'))
      .finally(() => {
        this.sending.delete(delivery.id);
        this.attempts.delete(attempt);
        this.wake();
      });
    this.attempts.add(attempt);
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const attempt = delivery.attempts + 1;
    let outcome: AttemptOutcome;
    // Why the secret did not open, for the log only: the account reads what to do (CALLBACK_SECRET_UNOPENABLE).
    let keysTried: string | undefined;
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const secret = this.secrets.open<string>(delivery.sealedSecret);
      const res = await this.egress.request(delivery.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Pitwall-Webhooks/1',
          'webhook-id': delivery.webhookId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, delivery.webhookId, timestamp, delivery.body),
        },
        body: delivery.body,
        timeoutMs: this.settings.timeoutMs,
      });
      outcome = this.answered(attempt, res.status);
    } catch (err) {
      if (err instanceof SealedUnderAnotherKey) {
        keysTried = `the callback's signing secret is ${err.message}`;
        outcome = this.failure(attempt, null, CALLBACK_SECRET_UNOPENABLE);
      } else if (err instanceof ResponseTooLarge) outcome = this.answered(attempt, err.status);
      // The policy's refusal does not change with another attempt: the delivery fails now.
      else if (err instanceof AddressNotAllowed) outcome = { ok: false, statusCode: null, error: `The request to the receiver was not sent: ${err.message}`, retryAt: null };
      else outcome = this.failure(attempt, null, `The request to the receiver failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!outcome.ok) this.logger.warn({ deliveryId: delivery.id, webhookId: delivery.webhookId, attempt, givenUp: outcome.retryAt === null, reason: outcome.error, ...(keysTried ? { keysTried } : {}) }, 'callback delivery failed');
    await this.repository.recordAttempt(delivery.id, outcome);
  }

  /** The receiver's status decides (2xx delivers; a 3xx is an answer, not followed); its body is never kept. */
  private answered(attempt: number, status: number): AttemptOutcome {
    if (status >= 200 && status < 300) return { ok: true, statusCode: status };
    return this.failure(attempt, status, `The receiver answered ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd());
  }

  private failure(attempt: number, statusCode: number | null, error: string): AttemptOutcome {
    const retryAt = attempt >= this.settings.attempts ? null : new Date(Date.now() + retryDelay(this.settings, attempt));
    return { ok: false, statusCode, error: attempt >= this.settings.attempts ? `${error} (given up after ${attempt} attempts)` : error, retryAt };
  }
}
