import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import pino from 'pino';
import { createPool, migrate, withTransaction } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { tcpProxy } from '@pitwall/testing';
import { createOutbox, outboxMigration, type Outbox, type OutboxMessage, type OutboxTiming, type PublishMessage } from '../src';

/** What a service would publish: the outbox only needs it to be JSON. */
interface LapTimed {
  runId: string;
  lap: number;
}

const silent = pino({ level: 'silent' });
let db: TestDatabase;
let pool: pg.Pool;
const outboxes: Outbox<LapTimed>[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool({ url: db.url, applicationName: 'messaging-test', logger: silent });
  // Two owning schemas, each with its own outbox: the migration is the lib's, the versions the service's.
  await migrate(pool, { schema: 'timing', migrations: [{ version: 1, name: 'laps', sql: 'CREATE TABLE timing.laps (id uuid PRIMARY KEY)' }, outboxMigration({ schema: 'timing', version: 2 })], logger: silent });
  await migrate(pool, { schema: 'simulation', migrations: [outboxMigration({ schema: 'simulation', version: 1 })], logger: silent });
});
afterEach(async () => {
  for (const o of outboxes.splice(0)) await o.stop();
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

interface Published {
  routingKey: string;
  payload: LapTimed;
  headers: Record<string, string>;
}

/** A broker stand-in: records what it confirms; while `down`, refuses like an unreachable one; refuses laps in `refuse`. */
function broker() {
  const published: Published[] = [];
  const state = { down: false, refuse: new Set<number>() };
  const publish: PublishMessage<LapTimed> = async (routingKey, payload, headers) => {
    if (state.down || state.refuse.has(payload.lap)) throw new Error('broker unreachable');
    published.push({ routingKey, payload, headers });
  };
  return { published, state, publish, of: (runId: string) => published.filter((p) => p.payload.runId === runId) };
}

function outbox(publish: PublishMessage<LapTimed>, options: OutboxTiming & { schema?: string } = {}): Outbox<LapTimed> {
  const o = createOutbox<LapTimed>({ pool, schema: 'timing', publish, logger: silent, ...options });
  outboxes.push(o);
  return o;
}

const laps = (runId: string, count: number, headers?: Record<string, string>): OutboxMessage<LapTimed>[] =>
  Array.from({ length: count }, (_, i) => ({ routingKey: `timing.lap.${i + 1}`, payload: { runId, lap: i + 1 }, ...(headers ? { headers } : {}) }));
const pending = async (runId: string, schema = 'timing') =>
  Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.outbox WHERE payload->>'runId' = $1`, [runId])).rows[0]?.n);
const until = async (done: () => boolean | Promise<boolean>) => {
  for (const end = Date.now() + 5000; !(await done()) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
};

describe('outbox.transaction', () => {
  test('when the write commits, then it resolves at the commit, and its messages are published after it in the order they were added, with their headers, and none are left', async () => {
    let confirm!: () => void;
    const confirmed = new Promise<void>((resolve) => (confirm = resolve));
    const b = broker();
    const runId = randomUUID();
    const o = outbox(async (key, payload, headers) => {
      await confirmed;
      await b.publish(key, payload, headers);
    });

    const result = await o.transaction(async (c, add) => {
      await c.query('INSERT INTO timing.laps (id) VALUES ($1)', [randomUUID()]);
      await add(laps(runId, 2, { requestId: 'req-1' }));
      await add([{ routingKey: 'timing.run.closed', payload: { runId, lap: 0 } }]);
      return 'written';
    });

    expect(result).toBe('written');
    expect(b.of(runId)).toEqual([]);
    expect(await pending(runId)).toBe(3);
    confirm();
    await o.settled();
    const messageId = expect.stringMatching(/^[0-9a-f-]{36}$/);
    expect(b.of(runId)).toEqual([
      { routingKey: 'timing.lap.1', payload: { runId, lap: 1 }, headers: { requestId: 'req-1', messageId } },
      { routingKey: 'timing.lap.2', payload: { runId, lap: 2 }, headers: { requestId: 'req-1', messageId } },
      { routingKey: 'timing.run.closed', payload: { runId, lap: 0 }, headers: { messageId } },
    ]);
    // Each message its own id.
    expect(new Set(b.of(runId).map((p) => p.headers['messageId'])).size).toBe(3);
    expect(await pending(runId)).toBe(0);
  });

  test.each([
    ['its own rows', 100],
    ['one batch row', 2],
  ])('when the retry publishes messages again (stored as %s), then each copy carries the messageId its first publication carried', async (_how, batchFrom) => {
    const seen: Published[] = [];
    let refuse = true;
    const runId = randomUUID();
    const o = outbox(
      async (routingKey, payload, headers) => {
        seen.push({ routingKey, payload, headers });
        // The last message is refused the first time: its row (the batch) stays for the retry.
        if (refuse && payload.lap === 3) throw new Error('broker unreachable');
      },
      { batchFrom, retryIntervalMs: 50, staleAfterMs: 0 },
    );
    const publish = await withTransaction(pool, (c) => o.add(c, laps(runId, 3, { requestId: 'req-2' })));
    await publish();
    refuse = false;
    const idsOf = (lap: number) => seen.filter((p) => p.payload.runId === runId && p.payload.lap === lap).map((p) => p.headers['messageId']);
    o.start();
    await until(() => idsOf(3).length >= 2);

    const third = idsOf(3);
    expect(third.length).toBeGreaterThanOrEqual(2);
    expect(new Set(third).size).toBe(1);
    for (const lap of [1, 2]) expect(new Set(idsOf(lap)).size).toBe(1);
    expect(new Set([idsOf(1)[0], idsOf(2)[0], third[0]]).size).toBe(3);
  });

  test('when the write throws after adding messages, then it rolls back with them: nothing is published or left', async () => {
    const b = broker();
    const runId = randomUUID();

    const error = await outbox(b.publish)
      .transaction(async (_c, add) => {
        await add(laps(runId, 3));
        throw new Error('lap refused');
      })
      .catch((err: unknown) => err);

    expect(error).toEqual(new Error('lap refused'));
    expect(b.of(runId)).toEqual([]);
    expect(await pending(runId)).toBe(0);
  });
});

describe('outbox.add', () => {
  test('when nothing is added, then nothing is written and the publisher does nothing', async () => {
    const b = broker();
    const publish = await withTransaction(pool, (c) => outbox(b.publish).add(c, []));

    await publish();

    expect(b.published).toEqual([]);
  });

  test('when the broker takes only some messages, then the others stay for the retry, which publishes them', async () => {
    const b = broker();
    const runId = randomUUID();
    const o = outbox(b.publish, { retryIntervalMs: 50, staleAfterMs: 0 });
    b.state.refuse.add(2);

    const publish = await withTransaction(pool, (c) => o.add(c, laps(runId, 3)));
    await publish();
    expect(b.of(runId).map((p) => p.payload.lap)).toEqual([1, 3]);
    expect(await pending(runId)).toBe(1);

    b.state.refuse.clear();
    o.start();
    // The retry deletes the row after the confirm: wait for both.
    await until(async () => b.of(runId).length === 3 && (await pending(runId)) === 0);

    expect(b.of(runId).map((p) => p.payload.lap)).toEqual([1, 3, 2]);
    expect(await pending(runId)).toBe(0);
  });
});

describe('outbox.detach', () => {
  test('when a committed write detaches its publication, then it returns before the confirm, and stop waits for the confirm and the delete', async () => {
    let confirm!: () => void;
    const confirmed = new Promise<void>((resolve) => (confirm = resolve));
    const published: LapTimed[] = [];
    const o = createOutbox<LapTimed>({
      pool,
      schema: 'timing',
      logger: silent,
      publish: async (_key, payload) => {
        await confirmed;
        published.push(payload);
      },
    });
    const runId = randomUUID();

    o.detach(await withTransaction(pool, (c) => o.add(c, laps(runId, 2))));
    let stopped = false;
    const stopping = o.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 50));

    expect(published).toEqual([]);
    expect(stopped).toBe(false);
    expect(await pending(runId)).toBe(2);
    confirm();
    await stopping;
    expect(published).toEqual([
      { runId, lap: 1 },
      { runId, lap: 2 },
    ]);
    expect(await pending(runId)).toBe(0);
  });

  test('when two writes detach in turn, then the broker is handed the first one\'s messages first', async () => {
    const b = broker();
    const o = outbox(b.publish);
    const [first, second] = [randomUUID(), randomUUID()];

    o.detach(await withTransaction(pool, (c) => o.add(c, laps(first, 2))));
    o.detach(await withTransaction(pool, (c) => o.add(c, laps(second, 2))));
    await o.stop();

    expect(b.published.map((p) => p.payload)).toEqual([
      { runId: first, lap: 1 },
      { runId: first, lap: 2 },
      { runId: second, lap: 1 },
      { runId: second, lap: 2 },
    ]);
  });

  test('when the broker is down, then the detached messages stay for the retry', async () => {
    const b = broker();
    const o = outbox(b.publish, { retryIntervalMs: 50, staleAfterMs: 0 });
    const runId = randomUUID();
    b.state.down = true;

    o.detach(await withTransaction(pool, (c) => o.add(c, laps(runId, 2))));
    await o.stop(); // waits for the detached publication, which the broker refused
    expect(b.published).toEqual([]);
    expect(await pending(runId)).toBe(2);
    b.state.down = false;
    o.start();
    await until(async () => (await pending(runId)) === 0);

    expect(b.of(runId).map((p) => p.payload.lap)).toEqual([1, 2]);
  });
});

describe('outbox batches (a write of many messages)', () => {
  const rowsOf = async (runId: string) =>
    Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM timing.outbox WHERE payload @> $1::jsonb`, [JSON.stringify([{ payload: { runId } }])])).rows[0]?.n);

  test('when a write adds a message larger than maxMessageBytes (counted in UTF-8 bytes), alone or in a batch, then the write is refused with a 413 naming BUS_MAX_MESSAGE_BYTES and nothing of it is written or published', async () => {
    const b = broker();
    const o = createOutbox<LapTimed & { note?: string }>({ pool, schema: 'timing', publish: b.publish, logger: silent, maxMessageBytes: 400, batchFrom: 10 });
    outboxes.push(o as Outbox<LapTimed>);
    // 150 characters of three UTF-8 bytes each: 150 UTF-16 units, over 450 bytes.
    const big = (runId: string, lap: number) => ({ routingKey: 'timing.lap.big', payload: { runId, lap, note: '€'.repeat(150) } });
    for (const count of [1, 20]) {
      const runId = randomUUID();
      const lapId = randomUUID();
      const error = await o
        .transaction(async (c, add) => {
          await c.query('INSERT INTO timing.laps (id) VALUES ($1)', [lapId]);
          await add([...laps(runId, count - 1), big(runId, count)]);
        })
        .catch((err: unknown) => err);

      expect(error).toMatchObject({ status: 413, message: expect.stringMatching(/^The event timing\.lap\.big this write makes is 5\d\d bytes, more than the message broker takes \(BUS_MAX_MESSAGE_BYTES is 400\): nothing was written$/) });
      expect((await pool.query('SELECT 1 FROM timing.laps WHERE id = $1', [lapId])).rowCount).toBe(0);
      expect(await pending(runId)).toBe(0);
      expect(await rowsOf(runId)).toBe(0);
    }
    await o.settled();
    expect(b.published).toEqual([]);

    // At the bound, it is taken and published.
    const runId = randomUUID();
    await o.transaction(async (_c, add) => add([{ routingKey: 'timing.lap.fits', payload: { runId, lap: 1, note: 'x'.repeat(400 - JSON.stringify({ runId, lap: 1, note: '' }).length) } }]));
    await o.settled();
    expect(b.of(runId).map((p) => p.routingKey)).toEqual(['timing.lap.fits']);
  });

  test('when a write adds at least batchFrom messages, then they are one row, published in order with their headers, and the row goes', async () => {
    const b = broker();
    const runId = randomUUID();
    const o = outbox(b.publish, { batchFrom: 10 });

    const publish = await withTransaction(pool, async (c) => {
      const p = await o.add(c, laps(runId, 25, { requestId: 'req-batch' }));
      expect(await rowsOf(runId)).toBe(0); // not visible outside the write's transaction
      return p;
    });
    expect(await rowsOf(runId)).toBe(1);
    await publish();

    expect(b.of(runId).map((p) => p.payload.lap)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(b.of(runId).map((p) => p.routingKey)).toEqual(laps(runId, 25).map((m) => m.routingKey));
    expect(new Set(b.of(runId).map((p) => p.headers['requestId']))).toEqual(new Set(['req-batch']));
    expect(await rowsOf(runId)).toBe(0);
  });

  test('when the broker refuses one message of a batch, then the batch stays and the retry publishes all of it again, in order', async () => {
    const b = broker();
    const runId = randomUUID();
    const o = outbox(b.publish, { batchFrom: 5, retryIntervalMs: 50, staleAfterMs: 0 });
    b.state.refuse.add(3);

    const publish = await withTransaction(pool, (c) => o.add(c, laps(runId, 6)));
    await publish();
    expect(b.of(runId).map((p) => p.payload.lap)).toEqual([1, 2, 4, 5, 6]);
    expect(await rowsOf(runId)).toBe(1);

    b.state.refuse.clear();
    o.start();
    await until(async () => (await rowsOf(runId)) === 0);

    // At least once: the five confirmed before are published again with the one that was refused.
    expect(b.of(runId).map((p) => p.payload.lap)).toEqual([1, 2, 4, 5, 6, 1, 2, 3, 4, 5, 6]);
  });

  test('when a retry runs while the writer is still publishing its batch, then the retry leaves it and each message goes out once', async () => {
    const runId = randomUUID();
    const published: number[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    // The writer's broker is slow on the first message: the batch is stale (staleAfterMs 0) while it publishes.
    const slow: PublishMessage<LapTimed> = async (_key, payload) => {
      if (payload.lap === 1) await held;
      published.push(payload.lap);
    };
    const writer = outbox(slow, { batchFrom: 5, staleAfterMs: 0 });
    const other = outbox(async (_key, payload) => void published.push(payload.lap), { batchFrom: 5, staleAfterMs: 0 });

    const publish = await withTransaction(pool, (c) => writer.add(c, laps(runId, 5)));
    const publishing = publish();
    await new Promise((r) => setTimeout(r, 100));
    await other.retry();
    release();
    await publishing;

    expect(published.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(await rowsOf(runId)).toBe(0);
  });

  test('when a batch is being published, then it holds no pool connection, and stop waits for it', async () => {
    const runId = randomUUID();
    let confirm!: () => void;
    const confirmed = new Promise<void>((resolve) => (confirm = resolve));
    const published: number[] = [];
    const one = createPool({ url: db.url, applicationName: 'messaging-test', logger: silent, max: 1 });
    try {
      const o = createOutbox<LapTimed>({ pool: one, schema: 'timing', logger: silent, batchFrom: 5, publish: async (_key, payload) => {
        await confirmed;
        published.push(payload.lap);
      } });
      o.detach(await withTransaction(one, (c) => o.add(c, laps(runId, 5))));
      await new Promise((r) => setTimeout(r, 100));
      // The pool's one connection is free for the next write while the broker has not confirmed.
      expect((await one.query('SELECT 1 AS free')).rows[0].free).toBe(1);
      let stopped = false;
      const stopping = o.stop().then(() => (stopped = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(stopped).toBe(false);
      confirm();
      await stopping;
      expect(published).toEqual([1, 2, 3, 4, 5]);
      expect(await rowsOf(runId)).toBe(0);
    } finally {
      await one.end();
    }
  });

  test('when a write adds fewer than batchFrom messages, then each is its own row', async () => {
    const b = broker();
    const runId = randomUUID();
    const o = outbox(b.publish, { batchFrom: 10 });
    b.state.down = true;

    await (await withTransaction(pool, (c) => o.add(c, laps(runId, 9))))();

    expect(await pending(runId)).toBe(9);
    await pool.query(`DELETE FROM timing.outbox WHERE payload->>'runId' = $1`, [runId]);
  });
});

describe('outbox retry', () => {
  test('when the broker is down at the commit, then the messages go out once it is back', async () => {
    const b = broker();
    const runId = randomUUID();
    const o = outbox(b.publish, { retryIntervalMs: 50, staleAfterMs: 0 });
    b.state.down = true;

    await o.transaction(async (_c, add) => add(laps(runId, 2)));
    expect(b.of(runId)).toEqual([]);
    expect(await pending(runId)).toBe(2);

    b.state.down = false;
    o.start();
    // The retry deletes what the broker confirmed just after publishing it: wait for both.
    await until(async () => b.of(runId).length === 2 && (await pending(runId)) === 0);

    expect(b.of(runId).map((p) => p.routingKey)).toEqual(['timing.lap.1', 'timing.lap.2']);
    expect(await pending(runId)).toBe(0);
  });

  test('when left-over rows have ids of different lengths (99, 100, ...), then the retry publishes them in id order, not text order', async () => {
    const runId = randomUUID();
    const b = broker();
    const o = outbox(b.publish, { staleAfterMs: 0 });
    // The next ids cross a power of ten (as text, "1000" sorts before "997").
    const { rows } = await pool.query<{ last: string }>(`SELECT last_value::text AS last FROM timing.outbox_id_seq`);
    const next = 10 ** String(Number(rows[0]?.last) + 10).length;
    await pool.query(`SELECT setval('timing.outbox_id_seq', $1)`, [next - 4]);
    for (const message of laps(runId, 8)) await withTransaction(pool, (c) => o.add(c, [message]));

    await o.retry();

    expect(b.of(runId).map((p) => p.payload.lap)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await pending(runId)).toBe(0);
  });

  test('when the broker takes longer to confirm the left-overs than the pool lets a transaction idle, then they are still published once and deleted', async () => {
    const runId = randomUUID();
    const bounded = createPool({ url: db.url, applicationName: 'messaging-test-bounded', logger: silent, idleInTransactionTimeoutMs: 200 });
    try {
      const b = broker();
      const slow: PublishMessage<LapTimed> = async (routingKey, payload, headers) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await b.publish(routingKey, payload, headers);
      };
      const o = createOutbox<LapTimed>({ pool: bounded, schema: 'timing', publish: slow, logger: silent, staleAfterMs: 0 });
      outboxes.push(o);
      await withTransaction(pool, (c) => o.add(c, laps(runId, 2)));

      await o.retry();
      await o.retry();

      expect(b.of(runId).map((p) => p.payload.lap)).toEqual([1, 2]);
      expect(await pending(runId)).toBe(0);
    } finally {
      await bounded.end();
    }
  });

  test('when two instances retry the same left-over messages at once, then each message is published once', async () => {
    const runId = randomUUID();
    const messages = laps(runId, 450);
    const a = broker();
    const b = broker();
    const first = outbox(a.publish, { batchSize: 50, staleAfterMs: 0 });
    const second = outbox(b.publish, { batchSize: 50, staleAfterMs: 0 });
    await withTransaction(pool, (c) => first.add(c, messages));

    await Promise.all([first.retry(), second.retry()]);

    const seen = [...a.of(runId), ...b.of(runId)].map((p) => p.payload.lap);
    expect(seen.sort()).toEqual(messages.map((m) => m.payload.lap).sort());
    expect(await pending(runId)).toBe(0);
  });

  test('when messages are fresh, then the retry leaves them to the instance that wrote them', async () => {
    const runId = randomUUID();
    const b = broker();
    const other = outbox(b.publish, { staleAfterMs: 60_000 });
    await withTransaction(pool, (c) => other.add(c, laps(runId, 1)));

    await other.retry();

    expect(b.of(runId)).toEqual([]);
    expect(await pending(runId)).toBe(1);
  });

  test('when two schemas each have an outbox, then each retries only its own messages', async () => {
    const runId = randomUUID();
    const timing = broker();
    const simulation = broker();
    timing.state.down = true;
    await outbox(timing.publish).transaction(async (_c, add) => add(laps(runId, 1)));
    timing.state.down = false;

    await outbox(simulation.publish, { schema: 'simulation', staleAfterMs: 0 }).retry();

    expect(simulation.published).toEqual([]);
    expect(await pending(runId, 'timing')).toBe(1);
  });

  test('when a retry fails to reach the broker, then stop still returns and the messages stay', async () => {
    const runId = randomUUID();
    const b = broker();
    const o = outbox(b.publish, { staleAfterMs: 0, retryIntervalMs: 20 });
    await withTransaction(pool, (c) => o.add(c, laps(runId, 2)));
    b.state.down = true;

    o.start();
    await new Promise((r) => setTimeout(r, 100));
    await o.stop();

    expect(b.of(runId)).toEqual([]);
    expect(await pending(runId)).toBe(2);
  });
});

describe('outbox retry while the database cannot be reached', () => {
  /** A logger whose lines the test reads, as JSON objects. */
  function capturedLogger() {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    return { logger, lines, about: (text: string) => lines.filter((l) => String(l['msg']).includes(text)) };
  }

  test('when PostgreSQL is down for many retry passes, then one warn line gives the reason (no stack, nothing at error), and one info line says when left-overs are published again', async () => {
    const runId = randomUUID();
    const b = broker();
    // The outbox's connections go through a proxy the test cuts and opens: the database goes away and comes back.
    const url = new URL(db.url);
    const proxy = await tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    const log = capturedLogger();
    const proxied = createPool({ url: url.toString(), applicationName: 'messaging-test-outage', logger: silent, max: 2 });
    const o = createOutbox<LapTimed>({ pool: proxied, schema: 'timing', publish: b.publish, logger: log.logger, staleAfterMs: 0, retryIntervalMs: 20 });
    try {
      // A left-over the retry must publish once it reaches the database again.
      b.state.down = true;
      await withTransaction(pool, (c) => o.add(c, laps(runId, 1)));
      b.state.down = false;

      o.start();
      await until(() => log.about('left-over messages not published').length > 0);
      await new Promise((r) => setTimeout(r, 400)); // some 20 passes, each failing
      expect(log.about('left-over messages not published')).toEqual([
        expect.objectContaining({ level: 40, outbox: 'timing.outbox', code: 'ECONNREFUSED', reason: expect.stringContaining('ECONNREFUSED'), msg: 'left-over messages not published; retrying every 20 ms (logged again once they are)' }),
      ]);
      expect(log.lines.filter((l) => Number(l['level']) >= 50)).toEqual([]);
      expect(JSON.stringify(log.lines)).not.toContain('stack');
      expect(b.of(runId)).toEqual([]);

      await proxy.open();
      await until(() => b.of(runId).length === 1);
      await until(() => log.about('left-over messages are published again').length === 1);
      expect(log.about('left-over messages are published again')).toEqual([expect.objectContaining({ level: 30, outbox: 'timing.outbox' })]);
      await new Promise((r) => setTimeout(r, 100));
      expect(log.about('published again')).toHaveLength(1);
    } finally {
      await o.stop();
      await proxied.end();
      await proxy.cut();
    }
  });
});

describe('createOutbox', () => {
  test('when the schema is not a plain identifier, then it refuses to build the outbox or its migration', () => {
    expect(() => createOutbox({ pool, schema: 'timing; DROP TABLE x', publish: async () => undefined, logger: silent })).toThrow('invalid schema name');
    expect(() => outboxMigration({ schema: 'Timing.X', version: 1 })).toThrow('invalid schema name');
  });

  test('when the batch size is not a positive integer, then it refuses to build the outbox', () => {
    expect(() => createOutbox({ pool, schema: 'timing', publish: async () => undefined, logger: silent, batchSize: 0 })).toThrow('batchSize');
  });
});
