import type { Logger } from '@pitwall/service-kit';
import type { AttemptOutcome, CallbackRepository, DueDelivery } from '../data-access/callback-repository';
import type { SecretBox } from './secret-box';
import { signWebhook } from './callbacks';

export interface CallbackSettings {
  /** Attempts per delivery before it is given up (recorded as failed). */
  attempts: number;
  /** Wait before the second attempt; it doubles after each failure, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Time limit of one POST. */
  timeoutMs: number;
  /** How often due deliveries are looked for (besides right after each status change). */
  pollIntervalMs: number;
}

const BATCH = 20;
/** Ended deliveries (delivered or given up) are kept this long, then swept (hourly). */
export const ENDED_DELIVERIES_KEPT_DAYS = 30;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Characters of a failed answer's body kept with the failure. */
const ERROR_EXCERPT = 200;

/** The wait after the `attempt`-th failed attempt: base, 2 × base, 4 × base... capped. */
export const retryDelay = (settings: Pick<CallbackSettings, 'baseDelayMs' | 'maxDelayMs'>, attempt: number): number => Math.min(settings.baseDelayMs * 2 ** (attempt - 1), settings.maxDelayMs);

/**
 * Sends the webhook deliveries the status steps wrote (every instance runs one; a claimed delivery is leased to one
 * instance at a time): POST with the Standard Webhooks headers, a 2xx answer delivers it, anything else is retried
 * with exponential backoff until the attempts run out, and then recorded as failed with the last reason.
 */
export class CallbackDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
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
      this.repository.sweepEnded(ENDED_DELIVERIES_KEPT_DAYS).catch((err: unknown) => this.logger.warn({ err }, 'ended callback deliveries could not be swept; retried later'));
    }, SWEEP_INTERVAL_MS);
    this.sweeper.unref();
    this.wake();
  }

  /** Looks for due deliveries now (called after a status step committed). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.logger.warn({ err }, 'callback deliveries could not be read; retried later'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.sweeper) clearInterval(this.sweeper);
    this.timer = undefined;
    this.sweeper = undefined;
    await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const due = await this.repository.claimDue(BATCH, this.settings.timeoutMs * 2 + 5000);
      await Promise.all(due.map((delivery) => this.attempt(delivery)));
      if (due.length < BATCH) return;
    }
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const attempt = delivery.attempts + 1;
    let outcome: AttemptOutcome;
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const secret = this.secrets.open<string>(delivery.sealedSecret);
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Pitwall-Webhooks/1',
          'webhook-id': delivery.webhookId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, delivery.webhookId, timestamp, delivery.body),
        },
        body: delivery.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      const text = await res.text().catch(() => '');
      if (res.status >= 200 && res.status < 300) outcome = { ok: true, statusCode: res.status };
      else outcome = this.failure(attempt, res.status, `The receiver answered ${res.status}${text ? `: ${text.slice(0, ERROR_EXCERPT)}` : ''}`);
    } catch (err) {
      const reason = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${this.settings.timeoutMs} ms` : causeOf(err);
      outcome = this.failure(attempt, null, `The request to the receiver failed: ${reason}`);
    }
    if (!outcome.ok) this.logger.warn({ deliveryId: delivery.id, webhookId: delivery.webhookId, attempt, givenUp: outcome.retryAt === null, reason: outcome.error }, 'callback delivery failed');
    await this.repository.recordAttempt(delivery.id, outcome);
  }

  private failure(attempt: number, statusCode: number | null, error: string): AttemptOutcome {
    const retryAt = attempt >= this.settings.attempts ? null : new Date(Date.now() + retryDelay(this.settings, attempt));
    return { ok: false, statusCode, error: attempt >= this.settings.attempts ? `${error} (given up after ${attempt} attempts)` : error, retryAt };
  }
}

/** fetch's failures carry the network reason (ECONNREFUSED, ENOTFOUND...) in their cause. */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
