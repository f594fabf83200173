import { EncodedJson, OUTCOME_UNKNOWN_TYPE, type Bus, type BusRequest } from '@pitwall/bus';
import { ENTITY_TIMING_BATCH_COMMAND, SERVICES, type TimingBatchReplyItem, type TimingCommand } from '@pitwall/contracts';
import { AppError, fromSerialized, toAppError, type SerializedAppError } from '@pitwall/service-kit';

interface Pending {
  message: TimingCommand;
  request: BusRequest;
  resolve: (reply: EncodedJson) => void;
  reject: (err: unknown) => void;
}

/**
 * The updates of one partition, applied in the order they were delivered: whatever queued up while the previous
 * batch was applied goes to the entity-service as the next batch (one transaction, `entity.applyTimingUpdates`), so a
 * busy partition pays one bus round trip and one commit for many updates, and an idle one sends an update at once.
 * Each update still gets its own answer, and its own command id in the inbox.
 */
export class PartitionBatches {
  private readonly queues = new Map<string, Pending[]>();

  constructor(
    private readonly bus: Bus,
    private readonly maxBatch: number,
  ) {}

  /** Queues an update of `partition`; resolves with its own reply. Called on the delivery's stack, in delivery order. */
  apply(partition: string, message: TimingCommand, request: BusRequest): Promise<EncodedJson> {
    return new Promise<EncodedJson>((resolve, reject) => {
      const queue = this.queues.get(partition);
      const pending = { message, request, resolve, reject };
      if (queue) {
        queue.push(pending);
        return;
      }
      this.queues.set(partition, [pending]);
      void this.drain(partition);
    });
  }

  /** Partitions with updates queued or being applied. */
  get size(): number {
    return this.queues.size;
  }

  private async drain(partition: string): Promise<void> {
    const queue = this.queues.get(partition) as Pending[];
    while (queue.length) {
      const batch = queue.slice(0, this.maxBatch);
      try {
        await this.send(batch);
      } catch (err) {
        for (const p of batch) p.reject(perUpdate(err, p));
      }
      queue.splice(0, batch.length);
    }
    this.queues.delete(partition);
  }

  private async send(batch: Pending[]): Promise<void> {
    const deadlines = batch.map((p) => p.request.deadline).filter((d): d is number => d !== undefined);
    const items = batch.map(({ message, request }) => ({ ...message, headers: stringHeaders(request.headers), ...(request.deadline === undefined ? {} : { deadline: request.deadline }) }));
    const outcomes = await this.bus.request<TimingBatchReplyItem[]>(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, { items }, {
      // The batch's own id makes a lost reply an unknown outcome (504), which each update then reports as its own.
      headers: { commandId: `timing-batch:${batch[0]?.request.headers['commandId'] ?? ''}`, ...(batch[0]?.request.headers.requestId ? { requestId: batch[0].request.headers.requestId } : {}) },
      ...(deadlines.length ? { deadline: Math.min(...deadlines) } : {}),
    });
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (!outcome) p.reject(AppError.unavailable('The entity-service answered fewer outcomes than the batch had updates'));
      else if (outcome.ok) p.resolve(new EncodedJson(Buffer.from(JSON.stringify(outcome.body)), outcome.headers));
      else p.reject(fromSerialized(outcome.error as SerializedAppError));
    });
  }
}

function stringHeaders(headers: BusRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') out[name] = value;
  return out;
}

/** A failure of the whole batch, as one update's own: an unknown outcome names that update's command. */
function perUpdate(err: unknown, pending: Pending): AppError {
  const error = toAppError(err);
  const commandId = pending.request.headers['commandId'];
  if (error.type !== OUTCOME_UNKNOWN_TYPE || !commandId) return error;
  return new AppError(504, error.message, { type: OUTCOME_UNKNOWN_TYPE, extensions: { commandId } });
}
