import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { CallbackRepository, type WebhookMessage } from '../../src/data-access/callback-repository';
import { useMigratedDatabase } from '../support/migrated-database';

/**
 * Status events recorded with their step and written as their callbacks' deliveries afterwards, on the real PostgreSQL
 * (a migrated database, nothing sending).
 */
describe("writing a step's deliveries after the step, in bounded batches", () => {
  const database = useMigratedDatabase(8);
  let pool: Pool;
  let repository: CallbackRepository;
  beforeAll(() => {
    pool = database.pool;
    repository = new CallbackRepository(pool);
  });
  // Each test writes every account's recorded events: it starts with none left by another.
  beforeEach(() => drain(1_000_000));

  async function buildCallbacks(accountId: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => randomUUID());
    for (const id of ids) await repository.insert(pool, { id, accountId, url: `https://hooks.example/${id}`, description: null, createdAt: new Date(), sealedSecret: Buffer.from('sealed') });
    return ids;
  }

  const messages = (accountId: string, count: number): WebhookMessage[] =>
    Array.from({ length: count }, (_, i) => ({ accountId, webhookId: randomUUID(), setupId: randomUUID(), status: 'Requested', body: `{"n":${i}}` }));

  /** The deliveries written for each webhook id, by callback. */
  async function deliveriesOf(accountId: string): Promise<{ webhook_id: string; callback_id: string }[]> {
    const { rows } = await pool.query<{ webhook_id: string; callback_id: string }>(
      'SELECT d.webhook_id, d.callback_id FROM simulation.callback_deliveries d JOIN simulation.callbacks c ON c.id = d.callback_id WHERE c.account_id = $1',
      [accountId],
    );
    return rows;
  }

  /** Batches until none is left: each batch's result. */
  async function drain(batchRows: number): Promise<{ messages: number; deliveries: number }[]> {
    const batches: { messages: number; deliveries: number }[] = [];
    for (;;) {
      const batch = await repository.writeDeliveries(batchRows);
      if (!batch.messages) return batches;
      batches.push(batch);
    }
  }

  test("when a Trigger's 500 setups are announced to an account of 20 callbacks, then its transaction records 500 events and no delivery, and the 10,000 deliveries are written afterwards at most 1,000 a batch, each once", async () => {
    const accountId = randomUUID();
    const callbacks = await buildCallbacks(accountId, 20);
    const announced = messages(accountId, 500);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      expect(await repository.enqueue(client, announced)).toBe(500);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await deliveriesOf(accountId)).toEqual([]);
    expect((await repository.list(accountId)).map((c) => c.deliveries.pending)).toEqual(Array(20).fill(0));

    const batches = await drain(1_000);
    expect(batches.every((b) => b.deliveries <= 1_000)).toBe(true);
    expect(batches.reduce((n, b) => n + b.messages, 0)).toBe(500);
    const written = await deliveriesOf(accountId);
    expect(written).toHaveLength(10_000);
    expect(new Set(written.map((d) => `${d.webhook_id} ${d.callback_id}`)).size).toBe(10_000);
    expect(new Set(written.map((d) => d.callback_id))).toEqual(new Set(callbacks));
    expect((await repository.list(accountId)).map((c) => c.deliveries.pending)).toEqual(Array(20).fill(500));
  });

  test("when one account's thousands of events wait to be written, then another account's step is written in the first batch", async () => {
    const [busy, other] = [randomUUID(), randomUUID()];
    await buildCallbacks(busy, 20);
    const [mine] = await buildCallbacks(other, 1);
    await repository.enqueue(pool, messages(busy, 2_000));
    const [step] = messages(other, 1) as [WebhookMessage];
    await repository.enqueue(pool, [step]);

    expect(await repository.writeDeliveries(1_000)).toEqual({ messages: 50, deliveries: 981 });
    expect(await deliveriesOf(other)).toEqual([{ webhook_id: step.webhookId, callback_id: mine }]);
    expect(await deliveriesOf(busy)).toHaveLength(980);
  });

  test('when a callback is registered after a step, or deleted before its deliveries are written, then it gets none of it; an account without callbacks records nothing', async () => {
    const accountId = randomUUID();
    const [early, doomed] = await buildCallbacks(accountId, 2);
    const [before] = messages(accountId, 1) as [WebhookMessage];
    await repository.enqueue(pool, [before]);
    const [late] = await buildCallbacks(accountId, 1);
    await repository.delete(pool, accountId, doomed as string);
    const [after] = messages(accountId, 1) as [WebhookMessage];
    await repository.enqueue(pool, [after]);
    await drain(1_000);
    expect((await deliveriesOf(accountId)).map((d) => [d.webhook_id, d.callback_id]).sort()).toEqual(
      [
        [before.webhookId, early],
        [after.webhookId, early],
        [after.webhookId, late],
      ].sort(),
    );

    expect(await repository.enqueue(pool, messages(randomUUID(), 3))).toBe(0);
  });

  test('when several instances write at once, then every event is written once for each callback', async () => {
    const accounts = [randomUUID(), randomUUID(), randomUUID()];
    for (const accountId of accounts) {
      await buildCallbacks(accountId, 5);
      await repository.enqueue(pool, messages(accountId, 300));
    }
    const writers = Array.from({ length: 4 }, () => drain(200));
    await Promise.all(writers);
    for (const accountId of accounts) {
      const written = await deliveriesOf(accountId);
      expect(written).toHaveLength(1_500);
      expect(new Set(written.map((d) => `${d.webhook_id} ${d.callback_id}`)).size).toBe(1_500);
    }
    expect((await pool.query('SELECT count(*)::int AS n FROM simulation.callback_events')).rows[0]).toEqual({ n: 0 });
  });
});
