import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import pino from 'pino';
import { createPool, migrate, withTransaction } from '@pitwall/db';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { AppError } from '@pitwall/service-kit';
import { DEADLINE_PASSED_TYPE, KEY_REUSED_TYPE, checkDeadline, commandOf, createInbox, inboxMigration, type Inbox, type InboxCommand, type ReplyCodec } from '../src';

const silent = pino({ level: 'silent' });
let db: TestDatabase;
let pool: pg.Pool;
let inbox: Inbox;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool({ url: db.url, applicationName: 'inbox-test', logger: silent });
  // An owning schema with something to write, and its inbox: the migration is the lib's, the version the service's.
  await migrate(pool, { schema: 'timing', migrations: [{ version: 1, name: 'laps', sql: 'CREATE TABLE timing.laps (id uuid PRIMARY KEY, run text NOT NULL)' }, inboxMigration({ schema: 'timing', version: 2 })], logger: silent });
  inbox = createInbox({ pool, schema: 'timing', logger: silent });
});
afterAll(async () => {
  await inbox?.stop();
  await pool?.end();
  await db?.drop();
});

/** The reply of a lap write: its id, as JSON. */
const codec: ReplyCodec<{ id: string }> = {
  encode: (r) => ({ body: Buffer.from(JSON.stringify(r)), headers: { kind: 'lap' } }),
  decode: (r) => JSON.parse((r.body as Buffer).toString()) as { id: string },
};

/** One lap written under `command`, as a service's write helper would. */
const writeLap = (run: string, command: InboxCommand | undefined) =>
  withTransaction(pool, (c) =>
    inbox.once(c, command, codec, async () => {
      const id = randomUUID();
      await c.query('INSERT INTO timing.laps (id, run) VALUES ($1, $2)', [id, run]);
      return { id };
    }),
  );
const laps = async (run: string) => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM timing.laps WHERE run = $1', [run])).rows[0]?.n);
const command = (requestHash = 'h1', scope = 'account-a'): InboxCommand => ({ scope, id: `key:${randomUUID()}`, requestHash });

describe('inbox', () => {
  test('when a command runs twice, then the second returns the recorded reply and writes nothing', async () => {
    const run = randomUUID();
    const c = command();

    const first = await writeLap(run, c);
    const second = await writeLap(run, c);

    expect(second).toEqual(first);
    expect(await laps(run)).toBe(1);
  });

  test('when the same id comes with another request hash, then 422 (key reused) and nothing is written', async () => {
    const run = randomUUID();
    const c = command('h1');
    await writeLap(run, c);

    const error = await writeLap(run, { ...c, requestHash: 'h2' }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 422, type: KEY_REUSED_TYPE });
    expect(await laps(run)).toBe(1);
  });

  test('when the same id comes from two scopes (accounts), then they are two commands', async () => {
    const run = randomUUID();
    const c = command('h1', 'account-a');

    await writeLap(run, c);
    await writeLap(run, { ...c, scope: 'account-b' });

    expect(await laps(run)).toBe(2);
  });

  test('when the write rolls back, then its command is not recorded: the repeat runs', async () => {
    const run = randomUUID();
    const c = command();
    const failed = withTransaction(pool, (q) =>
      inbox.once(q, c, codec, async () => {
        await q.query('INSERT INTO timing.laps (id, run) VALUES ($1, $2)', [randomUUID(), run]);
        throw AppError.badRequest('refused');
      }),
    );
    await expect(failed).rejects.toMatchObject({ status: 400 });

    await writeLap(run, c);

    expect(await laps(run)).toBe(1);
  });

  test('when repeats of one command run at once, then one writes and all get its reply', async () => {
    const run = randomUUID();
    const c = command();

    const replies = await Promise.all(Array.from({ length: 6 }, () => writeLap(run, c)));

    expect(new Set(replies.map((r) => r.id)).size).toBe(1);
    expect(await laps(run)).toBe(1);
  });

  test('when there is no command, then the write just runs', async () => {
    const run = randomUUID();
    await writeLap(run, undefined);
    await writeLap(run, undefined);

    expect(await laps(run)).toBe(2);
  });

  test('when a recorded command is older than the window (24 h), then the sweep deletes it, and only it', async () => {
    const old = command();
    const recent = command();
    await writeLap(randomUUID(), old);
    await writeLap(randomUUID(), recent);
    await pool.query(`UPDATE timing.inbox SET created_at = now() - interval '25 hours' WHERE command_id = $1`, [old.id]);

    expect(await inbox.sweep()).toBeGreaterThanOrEqual(1);

    const { rows } = await pool.query<{ command_id: string }>('SELECT command_id FROM timing.inbox WHERE command_id = ANY($1)', [[old.id, recent.id]]);
    expect(rows.map((r) => r.command_id)).toEqual([recent.id]);
  });

  test('when thousands of commands expired (a backlog), then the sweep deletes them all in pages of sweepPageSize, each its own statement, and keeps the recent', async () => {
    const recent = command();
    await writeLap(randomUUID(), recent);
    await pool.query(
      `INSERT INTO timing.inbox (scope, command_id, request_hash, created_at) SELECT 'backlog', 'old-' || g, 'h', now() - interval '30 hours' - g * interval '1 second' FROM generate_series(1, 2500) g`,
    );
    const deletes: number[] = [];
    const counting = new Proxy(pool, {
      get(target, name) {
        if (name !== 'query') return Reflect.get(target, name);
        return async (...args: Parameters<typeof pool.query>) => {
          const result = await (target.query as (...a: unknown[]) => Promise<{ rowCount: number | null }>)(...args);
          if (String(args[0]).trimStart().startsWith('DELETE')) deletes.push(result.rowCount ?? 0);
          return result;
        };
      },
    });
    const paged = createInbox({ pool: counting, schema: 'timing', logger: silent, sweepPageSize: 1000 });

    expect(await paged.sweep()).toBeGreaterThanOrEqual(2500);

    expect(deletes.slice(0, 2)).toEqual([1000, 1000]);
    expect(deletes.every((n) => n <= 1000)).toBe(true);
    const { rows } = await pool.query<{ scope: string; n: string }>(`SELECT scope, count(*) AS n FROM timing.inbox WHERE scope = 'backlog' OR command_id = $1 GROUP BY scope`, [recent.id]);
    expect(rows).toEqual([{ scope: recent.scope, n: '1' }]);
  });

  test('when a command is read from bus headers, then it needs both its id and its hash', () => {
    expect(commandOf({ commandId: 'key:1', commandHash: 'h' }, 'acc')).toEqual({ scope: 'acc', id: 'key:1', requestHash: 'h' });
    expect(commandOf({ commandId: 'key:1' }, 'acc')).toBeUndefined();
    expect(commandOf({}, 'acc')).toBeUndefined();
  });

  test('when the deadline has passed, then checkDeadline throws 504 "deadline passed"; before it, or without one, it does not', () => {
    expect(() => checkDeadline(1000, 1001)).toThrow(expect.objectContaining({ status: 504, type: DEADLINE_PASSED_TYPE }));
    expect(() => checkDeadline(1000, 1000)).not.toThrow();
    expect(() => checkDeadline(undefined)).not.toThrow();
  });
});
