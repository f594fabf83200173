import { setTimeout as sleep } from 'node:timers/promises';
import type { EventHandler } from '@pitwall/bus';
import { toAppError, type Logger } from '@pitwall/service-kit';

export interface HoldOptions {
  logger: Logger;
  /** The queue the handler consumes, for the log. */
  queue: string;
  /** Aborted when the service stops: the event then goes back to its queue at once, for another instance. */
  signal: AbortSignal;
  /** The first wait before the handler runs again; it doubles up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Whether a failure is the absence of something the handler needs that comes back by itself: a 503 (the database's
 * connection lost or busy, another service with no running instance, the broker unreachable) or a 504 (a command whose
 * outcome is unknown: running it again with the same command id settles it).
 */
export function isUnavailable(err: unknown): boolean {
  const { status } = toAppError(err);
  return status === 503 || status === 504;
}

/**
 * An event handler that keeps its event while what it needs is unavailable: it runs the handler again after a wait
 * that doubles (0.5 s to 30 s by default) for as long as the failure is `isUnavailable`, holding the delivery unacked
 * instead of handing it back to the queue. Handed back at once, the event would be redelivered within milliseconds and
 * reach the queue's delivery limit (the dead-letter queue) during an outage of a few seconds: a database failover or
 * the entity-service restarting would dead-letter every acknowledged simulation job in flight. Any other failure (a
 * poison event, a bug) is thrown at once, to be redelivered up to the limit and then dead-lettered; so is the last
 * failure when the service stops. Handlers run again must be idempotent, as every redelivered handler already is.
 */
export function holdWhileUnavailable(handler: EventHandler, options: HoldOptions): EventHandler {
  const first = options.firstDelayMs ?? 500;
  const max = options.maxDelayMs ?? 30_000;
  return async (event) => {
    // Held until the service stops, or until the delivery itself is gone (its channel closed: the broker gives the
    // event to a consumer again, and that copy is held instead; holding this one too ran the handler twice at once and
    // kept a loop for a delivery no ack could reach, one more at every connection lost).
    const signal = event.signal ? AbortSignal.any([options.signal, event.signal]) : options.signal;
    for (let attempt = 1, delay = first; ; attempt++, delay = Math.min(max, delay * 2)) {
      try {
        return await handler(event);
      } catch (err) {
        if (!isUnavailable(err) || signal.aborted) throw err;
        options.logger.warn({ queue: options.queue, routingKey: event.routingKey, attempt, retryInMs: delay, reason: toAppError(err).message }, 'event handler met an unavailable dependency; keeping the event and running it again');
        // A stop, or the delivery lost, ends the wait at once (the sleep rejects): the last failure is thrown.
        await sleep(delay, undefined, { signal }).catch(() => Promise.reject(err));
      }
    }
  };
}
