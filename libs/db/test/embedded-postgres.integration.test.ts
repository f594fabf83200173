import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createLogger } from '@pitwall/service-kit';
import { createPool, migrate, startEmbeddedPostgres, withTransaction, type EmbeddedPostgres } from '../src';

jest.setTimeout(30_000);
const logger = createLogger('embedded-test');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('startEmbeddedPostgres', () => {
  let dataDir: string;
  let server: EmbeddedPostgres | undefined;
  const pools: pg.Pool[] = [];
  const url = () => {
    if (!server) throw new Error('server not started');
    return server.url;
  };
  const pool = (max = 5) => {
    const p = createPool({ url: url(), applicationName: 'embedded-test', logger, max });
    pools.push(p);
    return p;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pitwall-pg-'));
    server = await startEmbeddedPostgres({ dataDir, logger });
  });
  afterAll(async () => {
    await Promise.all(pools.splice(0).map((p) => p.end()));
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('when a pg Pool queries it, then parameterised queries round-trip', async () => {
    const { rows } = await pool().query('SELECT $1::int + 1 AS n, $2::text AS s', [41, 'pitwall']);
    expect(rows[0]).toEqual({ n: 42, s: 'pitwall' });
  });

  test('when two pools run interleaved transactions and one rolls back, then neither sees the other and only the commit persists', async () => {
    const a = pool();
    const b = pool();
    await migrate(a, { schema: 'iso', migrations: [{ version: 1, name: 'items', sql: 'CREATE TABLE iso.items (owner text, n int)' }], logger });
    let aStarted!: () => void;
    const aInside = new Promise<void>((r) => (aStarted = r));

    const committing = withTransaction(a, async (c) => {
      await c.query("INSERT INTO iso.items VALUES ('a', 1)");
      aStarted();
      // Give B every chance to run its statements while A's transaction is open.
      await sleep(100);
      await c.query("INSERT INTO iso.items VALUES ('a', 2)");
      return (await c.query("SELECT count(*)::int AS n FROM iso.items WHERE owner = 'b'")).rows[0].n as number;
    });
    const rollingBack = (async () => {
      await aInside;
      return withTransaction(b, async (c) => {
        await c.query("INSERT INTO iso.items VALUES ('b', 1)");
        const seen = (await c.query("SELECT count(*)::int AS n FROM iso.items WHERE owner = 'a'")).rows[0].n as number;
        throw Object.assign(new Error('roll me back'), { seen });
      });
    })().catch((err: { seen: number }) => err.seen);
    // Meanwhile plain autocommit queries on a third pool keep working and see no uncommitted rows.
    const outside = (async () => {
      await aInside;
      return (await pool().query('SELECT count(*)::int AS n FROM iso.items')).rows[0].n as number;
    })();

    const [bSeenByA, aSeenByB, seenOutside] = await Promise.all([committing, rollingBack, outside]);
    expect(bSeenByA).toBe(0);
    expect(aSeenByB).toBe(2);
    expect(seenOutside).toBe(2);
    const { rows } = await b.query('SELECT owner, n FROM iso.items ORDER BY owner, n');
    expect(rows).toEqual([
      { owner: 'a', n: 1 },
      { owner: 'a', n: 2 },
    ]);
  });

  test('when many clients run different parameterised statements at once, then every answer belongs to its own query', async () => {
    const pools = [pool(4), pool(4), pool(4)];
    const answers = await Promise.all(
      Array.from({ length: 90 }, (_, i) => {
        const p = pools[i % 3];
        return i % 2 === 0
          ? p.query('SELECT $1::int * 2 AS v', [i]).then((r) => r.rows[0].v === i * 2)
          : p.query('SELECT $1::text AS v, $2::int AS w', [`q${i}`, i]).then((r) => r.rows[0].v === `q${i}` && r.rows[0].w === i);
      }),
    );
    expect(answers.every(Boolean)).toBe(true);
  });

  test('when a client disconnects inside a transaction, then it is rolled back and others carry on', async () => {
    const client = new pg.Client({ connectionString: url() });
    client.on('error', () => undefined);
    await client.connect();
    await client.query('CREATE TABLE IF NOT EXISTS public.dropped (n int)');
    await client.query('BEGIN');
    await client.query('INSERT INTO public.dropped VALUES (1)');
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const { rows } = await pool().query('SELECT count(*)::int AS n FROM public.dropped');
    expect(rows[0].n).toBe(0);
  });

  test('when a statement fails inside a transaction, then the other pools are not blocked after its rollback', async () => {
    const a = pool();
    await expect(
      withTransaction(a, async (c) => {
        await c.query('SELECT * FROM public.no_such_table');
      }),
    ).rejects.toThrow(/no_such_table/);
    expect((await pool().query('SELECT 1 AS one')).rows[0].one).toBe(1);
  });

  test('when stopped and started again on the same data dir, then the data is still there', async () => {
    await pool().query('CREATE TABLE public.kept (v text)');
    await pool().query("INSERT INTO public.kept VALUES ('persisted')");
    await Promise.all(pools.splice(0).map((p) => p.end()));
    await server?.stop();

    server = await startEmbeddedPostgres({ dataDir, logger });
    const { rows } = await pool().query('SELECT v FROM public.kept');
    expect(rows).toEqual([{ v: 'persisted' }]);
  });
});
