import { EncodedJson, OUTCOME_UNKNOWN_TYPE, type Bus, type BusRequest } from '@pitwall/bus';
import { DEFAULT_TIMING_BATCH_MAX_BYTES, ENTITY_TIMING_BATCH_COMMAND, SERVICES, TIMING_BATCH_REPLY_TOO_LARGE, type TimingBatchReplyItem, type TimingCommand } from '@pitwall/contracts';
import { AppError, fromSerialized, toAppError, type SerializedAppError } from '@pitwall/service-kit';

interface Pending {
  message: TimingCommand;
  request: BusRequest;
  /** Its JSON's bytes (what it adds to the batch's bus message). */
  bytes: number;
  resolve: (reply: EncodedJson) => void;
  reject: (err: unknown) => void;
}

/**
 * The updates of every partition an instance consumes, applied in the order each partition delivered them, in
 * batches (one transaction each, `entity.applyTimingUpdates`). At most `maxInFlight` batches are applied at once;
 * while they are, updates queue, and the next batch takes what queued in every partition that has no batch in
 * flight (up to `maxBatch` updates and `maxBatchBytes` of their JSON, so one bus message stays far below the broker's
 * bound whatever BODY_LIMIT lets in). A partition is in one batch at a time, so its updates keep their order; an
 * idle instance sends an update at once, a busy one pays one bus round trip and one commit for many updates, of
 * many cars. Each update still gets its own answer, and its own command id in the inbox.
 */
export class PartitionBatches {
  /** Updates received and not yet sent, per partition (insertion order: the partition waiting longest first). */
  private readonly queues = new Map<string, Pending[]>();
  /** Partitions with a batch in flight. */
  private readonly busy = new Set<string>();
  private inFlight = 0;
  /** A small batch waiting for company (see `companyWaitMs`). */
  private waiting: NodeJS.Timeout | undefined;

  /** Most updates in one batch. */
  private readonly maxBatch: number;
  /** Most bytes of updates in one batch (an update larger than this goes alone). */
  private readonly maxBatchBytes: number;

  constructor(
    private readonly bus: Bus,
    /** Most updates (TIMING_BATCH_MAX) and most bytes of their JSON (TIMING_BATCH_MAX_BYTES) in one batch. */
    max: { updates: number; bytes?: number },
    private readonly maxInFlight = 2,
    /**
     * While another batch is in flight, a batch of fewer than `smallBatch` updates waits this long for others to join it
     * (0: it goes at once). A batch costs the entity-service a transaction of about a dozen statements whatever its
     * size, and under load the free slot otherwise goes to whichever single update arrived first.
     */
    private readonly companyWaitMs = 0,
    private readonly smallBatch = 4,
  ) {
    this.maxBatch = max.updates;
    this.maxBatchBytes = max.bytes ?? DEFAULT_TIMING_BATCH_MAX_BYTES;
  }

  /** Queues an update of `partition`; resolves with its own reply. Called on the delivery's stack, in delivery order. */
  apply(partition: string, message: TimingCommand, request: BusRequest): Promise<EncodedJson> {
    return new Promise<EncodedJson>((resolve, reject) => {
      const queue = this.queues.get(partition);
      // Measured here, once: a batch is closed before it would pass maxBatchBytes, whatever BODY_LIMIT lets in.
      const pending = { message, request, resolve, reject, bytes: Buffer.byteLength(JSON.stringify(message)) };
      if (queue) queue.push(pending);
      else this.queues.set(partition, [pending]);
      this.pump();
    });
  }

  /** Partitions with updates queued or being applied. */
  get size(): number {
    return new Set([...this.queues.keys(), ...this.busy]).size;
  }

  /** Updates that a batch sent now would take (those of partitions without a batch in flight), counted up to `upTo`. */
  private sendable(upTo: number): number {
    let n = 0;
    for (const [partition, queue] of this.queues) if (!this.busy.has(partition) && (n += queue.length) >= upTo) break;
    return n;
  }

  /**
   * Sends batches while fewer than `maxInFlight` are in flight and some partition without one has updates queued. A
   * small batch waits for company once (`companyWaitMs`) while another batch is in flight, and goes at once when none is.
   */
  private pump(waited = false): void {
    if (this.waiting) {
      // Company came, or the batch in flight ended (an idle instance sends at once): no more waiting.
      if (this.inFlight > 0 && this.sendable(this.smallBatch) < this.smallBatch) return;
      clearTimeout(this.waiting);
      this.waiting = undefined;
      waited = true;
    }
    if (!waited && this.companyWaitMs > 0 && this.inFlight > 0 && this.inFlight < this.maxInFlight) {
      const n = this.sendable(this.smallBatch);
      if (n === 0) return;
      if (n < this.smallBatch) {
        this.waiting = setTimeout(() => {
          this.waiting = undefined;
          this.pump(true);
        }, this.companyWaitMs);
        return;
      }
    }
    while (this.inFlight < this.maxInFlight) {
      const batch: Pending[] = [];
      const partitions: string[] = [];
      let bytes = 0;
      let full = false;
      for (const [partition, queue] of this.queues) {
        if (this.busy.has(partition)) continue;
        let taken = 0;
        for (const next of queue) {
          // The first update goes whatever its size; another only while the batch stays within both bounds.
          if (batch.length >= this.maxBatch || (batch.length > 0 && bytes + next.bytes > this.maxBatchBytes)) {
            full = true;
            break;
          }
          batch.push(next);
          bytes += next.bytes;
          taken++;
        }
        if (taken === 0) break;
        queue.splice(0, taken);
        partitions.push(partition);
        if (queue.length === 0) this.queues.delete(partition);
        if (full) break;
      }
      if (batch.length === 0) return;
      for (const partition of partitions) this.busy.add(partition);
      this.inFlight++;
      const done = () => {
        this.inFlight--;
        for (const partition of partitions) this.busy.delete(partition);
      };
      // The partitions are free again before the answers go out (and the next batch is sent right after).
      void this.send(batch)
        .then(
          (answer) => {
            done();
            answer();
          },
          (err: unknown) => {
            done();
            for (const p of batch) p.reject(perUpdate(err, p));
          },
        )
        .finally(() => this.pump());
    }
  }

  /**
   * Has the entity-service apply `batch`; resolves with what answers each update. A batch whose answers would not fit in
   * one bus message is refused whole by the entity-service, nothing of it written (TIMING_BATCH_REPLY_TOO_LARGE): it
   * is sent again in two halves, in order, each split again as needed (one update alone gets a 413 of its own).
   */
  private async send(batch: Pending[]): Promise<() => void> {
    try {
      return await this.sendWhole(batch);
    } catch (err) {
      if (!(batch.length > 1 && err instanceof AppError && err.type === TIMING_BATCH_REPLY_TOO_LARGE)) throw err;
      // Each half answered as it comes to, as two batches one after the other would be.
      const half = Math.ceil(batch.length / 2);
      const answers: (() => void)[] = [];
      for (const part of [batch.slice(0, half), batch.slice(half)])
        answers.push(
          await this.send(part).catch((failure: unknown) => () => {
            for (const p of part) p.reject(perUpdate(failure, p));
          }),
        );
      return () => {
        for (const answer of answers) answer();
      };
    }
  }

  private async sendWhole(batch: Pending[]): Promise<() => void> {
    const deadlines = batch.map((p) => p.request.deadline).filter((d): d is number => d !== undefined);
    const items = batch.map(({ message, request }) => ({ ...message, headers: stringHeaders(request.headers), ...(request.deadline === undefined ? {} : { deadline: request.deadline }) }));
    const outcomes = await this.bus.request<TimingBatchReplyItem[]>(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, { items }, {
      // The batch's own id makes a lost reply an unknown outcome (504), which each update then reports as its own.
      headers: { commandId: `timing-batch:${batch[0]?.request.headers['commandId'] ?? ''}`, ...(batch[0]?.request.headers.requestId ? { requestId: batch[0].request.headers.requestId } : {}) },
      // Waited for as long as its updates' callers wait (a big update's gets BUS_TIMEOUT_MS_PER_MB more at the gateway),
      // and a second more for the answer to come back: not the bus's default, which would cut those short.
      ...(deadlines.length ? { deadline: Math.min(...deadlines), timeoutMs: Math.max(1, Math.min(...deadlines) - Date.now()) + ANSWER_GRACE_MS } : {}),
    });
    return () =>
      batch.forEach((p, i) => {
        const outcome = outcomes[i];
        if (!outcome) p.reject(AppError.unavailable('The entity-service answered fewer outcomes than the batch had updates'));
        else if (outcome.ok) p.resolve(new EncodedJson(Buffer.from(JSON.stringify(outcome.body)), outcome.headers));
        else p.reject(fromSerialized(outcome.error as SerializedAppError));
      });
  }
}

/** How long after the earliest deadline of its updates a batch's answer is still waited for (it commits before that deadline). */
const ANSWER_GRACE_MS = 1000;

function stringHeaders(headers: BusRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') out[name] = value;
  return out;
}

/**
 * A failure of the whole batch, as one update's own: an unknown outcome names that update's command, and keeps the
 * batch's `Retry-After` (a lost entity-service or broker says when to come back, as a direct entity write's 504 does).
 */
function perUpdate(err: unknown, pending: Pending): AppError {
  const error = toAppError(err);
  const commandId = pending.request.headers['commandId'];
  if (error.type !== OUTCOME_UNKNOWN_TYPE || !commandId) return error;
  return new AppError(504, error.message, { type: OUTCOME_UNKNOWN_TYPE, extensions: { commandId }, ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}) });
}
