import { randomUUID } from 'node:crypto';
import { failFastBus, InProcessBroker, InProcessBus, OUTCOME_UNKNOWN_TYPE, ServicePresence, type BusRequest } from '@pitwall/bus';
import { ENTITY_TIMING_BATCH_COMMAND, SERVICES, TIMING_BATCH_REPLY_TOO_LARGE, type TimingBatchCommand, type TimingCommand } from '@pitwall/contracts';
import { AppError, createLogger, serializeAppError } from '@pitwall/service-kit';
import { PartitionBatches } from '../../src/partition-batches';

const logger = createLogger('partition-batches-test');

/** A stand-in entity-service on an in-process bus: records each batch (the runIndex of its updates) and answers it. */
async function entityService(answer: (batch: TimingBatchCommand) => Promise<unknown>) {
  const bus = new InProcessBus({ prefix: `t${randomUUID().slice(0, 8)}.`, logger });
  const batches: number[][] = [];
  await bus.serve(SERVICES.entity, async (request) => {
    expect(request.type).toBe(ENTITY_TIMING_BATCH_COMMAND);
    const batch = request.payload as TimingBatchCommand;
    batches.push(batch.items.map((i) => i.body.runIndex));
    return answer(batch);
  });
  return { bus, batches };
}

const update = (runIndex: number) => ({ caller: { accountId: 'a', userId: 'u', role: 'editor' }, type: 'RunSheets', body: { runIndex } }) as unknown as TimingCommand;
const request = (n: number): BusRequest => ({ type: 'timing.update', payload: null, headers: { commandId: `request:${n}`, commandHash: `h${n}` } });
const ok = (batch: TimingBatchCommand) => batch.items.map((i) => ({ ok: true, headers: { entityId: `run-${i.body.runIndex}` }, body: { runIndex: i.body.runIndex, command: i.headers['commandId'] } }));

/** The stand-in entity-service holding the batch that starts with update 1 until `release()`, answering the rest at once. */
async function heldAtUpdateOne() {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const service = await entityService(async (batch) => {
    if (batch.items[0]?.body.runIndex === 1) await held;
    return ok(batch);
  });
  return { ...service, release };
}

describe('PartitionBatches', () => {
  test('when updates of a partition arrive while its batch is applied, then they go together as the next batch, in arrival order, each answered on its own', async () => {
    const { bus, batches, release } = await heldAtUpdateOne();
    const partitions = new PartitionBatches(bus, { updates: 64 });

    const first = partitions.apply('timing.p0', update(1), request(1));
    const rest = [2, 3, 4].map((n) => partitions.apply('timing.p0', update(n), request(n)));
    release();
    const replies = await Promise.all([first, ...rest]);

    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(replies.map((r) => JSON.parse(r.json.toString('utf8')))).toEqual([1, 2, 3, 4].map((n) => ({ runIndex: n, command: `request:${n}` })));
    expect(replies[2]?.headers).toEqual({ entityId: 'run-3' });
    expect(partitions.size).toBe(0);
    await bus.close();
  });

  test('when a batch is bigger than the most one transaction takes, then it is split in order', async () => {
    const { bus, batches } = await entityService(async (batch) => ok(batch));
    const partitions = new PartitionBatches(bus, { updates: 2 });

    await Promise.all([1, 2, 3, 4, 5].map((n) => partitions.apply('timing.p1', update(n), request(n))));

    // The first goes at once (the partition was idle); what queued meanwhile goes two by two.
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
    await bus.close();
  });

  test('when the updates queued are more bytes than one batch takes, then they go in batches within the bound, in order, and an update larger than the bound goes alone', async () => {
    const bytes: number[] = [];
    const { bus, batches } = await entityService(async (batch) => {
      bytes.push(batch.items.reduce((sum, { caller, type, body }) => sum + Buffer.byteLength(JSON.stringify({ caller, type, body })), 0));
      return ok(batch);
    });
    const sized = (runIndex: number, text: number) => ({ ...update(runIndex), body: { runIndex, properties: [{ name: 'Comment', value: 'x'.repeat(text) }] } }) as unknown as TimingCommand;
    const partitions = new PartitionBatches(bus, { updates: 64, bytes: 10_000 });

    // 1 goes at once; 2 to 7 queue meanwhile: 3,000-byte updates go three to a batch, 5 (25,000 bytes) alone.
    const texts = [10, 3_000, 3_000, 3_000, 25_000, 3_000, 3_000];
    await Promise.all(texts.map((text, i) => partitions.apply('timing.p2', sized(i + 1, text), request(i + 1))));

    expect(batches).toEqual([[1], [2, 3, 4], [5], [6, 7]]);
    expect(bytes.filter((_, i) => batches[i]?.length !== 1).every((b) => b <= 10_000)).toBe(true);
    await bus.close();
  });

  test('when the batches in flight are at the limit, then the next batch takes what queued in every partition, each partition in order', async () => {
    const { bus, batches, release } = await heldAtUpdateOne();
    const partitions = new PartitionBatches(bus, { updates: 64 }, 1);

    const first = partitions.apply('timing.p0', update(1), request(1));
    const rest = [
      partitions.apply('timing.p1', update(2), request(2)),
      partitions.apply('timing.p2', update(3), request(3)),
      partitions.apply('timing.p1', update(4), request(4)),
      partitions.apply('timing.p0', update(5), request(5)),
    ];
    release();
    await Promise.all([first, ...rest]);

    // p1's two updates stay in their order; p0's second went after its first had been applied.
    expect(batches).toEqual([[1], [2, 4, 3, 5]]);
    expect(partitions.size).toBe(0);
    await bus.close();
  });

  test('when a partition has a batch in flight, then its next updates wait for it while another partition goes at once', async () => {
    const { bus, batches, release } = await heldAtUpdateOne();
    const partitions = new PartitionBatches(bus, { updates: 64 }, 2);

    const first = partitions.apply('timing.p0', update(1), request(1));
    const second = partitions.apply('timing.p0', update(2), request(2));
    await partitions.apply('timing.p1', update(3), request(3));
    expect(batches).toEqual([[1], [3]]);

    release();
    await Promise.all([first, second]);
    expect(batches).toEqual([[1], [3], [2]]);
    await bus.close();
  });

  describe('with a wait for company', () => {
    /** Time for the bus to deliver what was sent (the wait for company is a minute: nothing else can send). */
    const settled = () => new Promise((r) => setTimeout(r, 50));
    test('when a small batch would go while another is in flight, then it waits for others and goes with them once there are four', async () => {
      const { bus, batches, release } = await heldAtUpdateOne();
      // A wait far longer than the test: only company (or the end of the batch in flight) can send the small batch.
      const partitions = new PartitionBatches(bus, { updates: 64 }, 2, 60_000);

      const first = partitions.apply('timing.p0', update(1), request(1));
      const company = [2, 3, 4].map((n) => partitions.apply(`timing.p${n}`, update(n), request(n)));
      await settled();
      expect(batches).toEqual([[1]]);
      const fourth = partitions.apply('timing.p5', update(5), request(5));
      await Promise.all([...company, fourth]);
      expect(batches).toEqual([[1], [2, 3, 4, 5]]);

      release();
      await first;
      await bus.close();
    });

    test('when the batch in flight ends while a small batch waits, then the small batch goes at once', async () => {
      const { bus, batches, release } = await heldAtUpdateOne();
      const partitions = new PartitionBatches(bus, { updates: 64 }, 2, 60_000);

      const first = partitions.apply('timing.p0', update(1), request(1));
      const alone = partitions.apply('timing.p1', update(2), request(2));
      await settled();
      expect(batches).toEqual([[1]]);
      release();
      await Promise.all([first, alone]);
      expect(batches).toEqual([[1], [2]]);
      await bus.close();
    });

    test('when no company comes, then the small batch goes alone after the wait', async () => {
      const { bus, batches, release } = await heldAtUpdateOne();
      const partitions = new PartitionBatches(bus, { updates: 64 }, 2, 5);

      const first = partitions.apply('timing.p0', update(1), request(1));
      await expect(partitions.apply('timing.p1', update(2), request(2))).resolves.toBeDefined();
      expect(batches).toEqual([[1], [2]]);
      release();
      await first;
      await bus.close();
    });
  });

  test("when the entity-service refuses a batch whose answers would not fit in one bus message (nothing written), then it is sent again in halves, in order, until each fits; one update alone gets its own 413", async () => {
    // Answers of more than two updates do not fit; update 5's alone does not either.
    const { bus, batches } = await entityService(async (batch) => {
      const withFive = batch.items.some((i) => i.body.runIndex === 5);
      if (batch.items.length > 2 || (withFive && batch.items.length > 1)) throw new AppError(413, 'too large together', { type: TIMING_BATCH_REPLY_TOO_LARGE });
      if (batch.items.length === 1 && batch.items[0]?.body.runIndex === 5) throw new AppError(413, 'The answer to this timing update would be too large');
      return ok(batch);
    });
    const partitions = new PartitionBatches(bus, { updates: 64 });

    // 1 goes at once; 2 to 7 queue meanwhile and go as one batch, refused, then as halves.
    const first = partitions.apply('timing.p3', update(1), request(1));
    const rest = [2, 3, 4, 5, 6, 7].map((n) => partitions.apply('timing.p3', update(n), request(n)).then((r) => JSON.parse(r.json.toString('utf8')), (err: AppError) => ({ status: err.status, detail: err.message })));
    await first;
    const answers = await Promise.all(rest);

    expect(batches).toEqual([[1], [2, 3, 4, 5, 6, 7], [2, 3, 4], [2, 3], [4], [5, 6, 7], [5, 6], [5], [6], [7]]);
    expect(answers).toEqual([
      { runIndex: 2, command: 'request:2' },
      { runIndex: 3, command: 'request:3' },
      { runIndex: 4, command: 'request:4' },
      { status: 413, detail: 'The answer to this timing update would be too large' },
      { runIndex: 6, command: 'request:6' },
      { runIndex: 7, command: 'request:7' },
    ]);
    await bus.close();
  });

  test("when the updates' callers wait longer than the bus's default timeout (a big update's deadline), then the batch's answer is waited for that long", async () => {
    const bus = new InProcessBus({ prefix: `t${randomUUID().slice(0, 8)}.`, logger, requestTimeoutMs: 300 });
    await bus.serve(SERVICES.entity, async (req) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return ok(req.payload as TimingBatchCommand);
    });
    const partitions = new PartitionBatches(bus, { updates: 64 });

    const late = { ...request(1), deadline: Date.now() + 5000 };
    const reply = await partitions.apply('timing.p4', update(1), late);
    expect(JSON.parse(reply.json.toString('utf8'))).toEqual({ runIndex: 1, command: 'request:1' });
    // Without a deadline of its own, the bus's default holds.
    await expect(partitions.apply('timing.p4', update(2), request(2))).rejects.toMatchObject({ status: 504 });
    await bus.close();
  });

  test('when one update of a batch is refused, then only that one fails, with its own problem', async () => {
    const { bus } = await entityService(async (batch) =>
      batch.items.map((i) => (i.body.runIndex === 2 ? { ok: false, error: serializeAppError(AppError.badRequest('carId: not entered', { carId: ['the car is not entered in the event'] })) } : ok({ items: [i] })[0])),
    );
    const partitions = new PartitionBatches(bus, { updates: 64 });

    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => partitions.apply('timing.p2', update(n), request(n))));

    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ status: 400, errors: { carId: ['the car is not entered in the event'] } });
    await bus.close();
  });

  test("when the batch's outcome is unknown, then each update's 504 names its own command", async () => {
    const { bus } = await entityService(async () => {
      throw new AppError(504, 'lost', { type: OUTCOME_UNKNOWN_TYPE, extensions: { commandId: 'timing-batch:x' } });
    });
    const partitions = new PartitionBatches(bus, { updates: 64 });

    const outcomes = await Promise.allSettled([1, 2].map((n) => partitions.apply('timing.p3', update(n), request(n))));

    expect(outcomes.map((o) => (o as PromiseRejectedResult).reason)).toEqual([
      expect.objectContaining({ status: 504, type: OUTCOME_UNKNOWN_TYPE, extensions: { commandId: 'request:1' } }),
      expect.objectContaining({ status: 504, type: OUTCOME_UNKNOWN_TYPE, extensions: { commandId: 'request:2' } }),
    ]);
    await bus.close();
  });

  test("when the entity-service's last instance goes while a batch is applied, then the update's 504 says when to retry (Retry-After), as a direct entity write's does", async () => {
    // As the timing-service sends: through a bus that watches the entity-service's presence (start-service.ts).
    const broker = new InProcessBroker();
    const prefix = `t${randomUUID().slice(0, 8)}.`;
    const entity = new InProcessBus({ prefix, logger, broker });
    await entity.serve(SERVICES.entity, () => new Promise(() => undefined));
    const bus = new InProcessBus({ prefix, logger, broker, requestTimeoutMs: 30_000 });
    const presence = new ServicePresence(bus, { intervalMs: 50, logger });
    presence.start();
    try {
      const partitions = new PartitionBatches(failFastBus(bus, presence), { updates: 64 });
      const outcome = partitions.apply('timing.p4', update(1), request(1));
      outcome.catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      await entity.destroy();

      await expect(outcome).rejects.toMatchObject({ status: 504, type: OUTCOME_UNKNOWN_TYPE, retryAfterSeconds: 2, extensions: { commandId: 'request:1' } });
    } finally {
      presence.stop();
      await bus.close();
    }
  });
});
