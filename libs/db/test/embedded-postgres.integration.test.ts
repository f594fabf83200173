import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createLogger } from '@pitwall/service-kit';
import { createPool, migrate, startEmbeddedPostgres, withTransaction, type EmbeddedPostgres } from '../src';

jest.setTimeout(30_000);
/** A new data directory's first start runs initdb in WebAssembly: seconds alone, past 30 s on a machine this loaded (CI's Node 26 pass beside browser tests). */
const COLD_START_MS = 120_000;
const logger = createLogger('embedded-test');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `bytes` to the server at `databaseUrl` on a raw connection; resolves with all it was answered once it closed it. */
const rawExchange = (databaseUrl: string, bytes: Buffer): Promise<Buffer> =>
  new Promise<Buffer>((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port: Number(new URL(databaseUrl).port) }, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
const int32s = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from([(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff])));
const SSL_REQUEST = int32s(8, 80877103);

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
  }, COLD_START_MS);
  afterAll(async () => {
    await Promise.all(pools.splice(0).map((p) => p.end()));
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('when a pg Pool queries it, then parameterised queries round-trip', async () => {
    const { rows } = await pool().query('SELECT $1::int + 1 AS n, $2::text AS s', [41, 'pitwall']);
    expect(rows[0]).toEqual({ n: 42, s: 'pitwall' });
  });

  test('when a client connects without the password, or with another, then it is refused (28P01) before its startup reaches the database; with the URL\'s it connects', async () => {
    const withPassword = (password: string | undefined) => {
      const u = new URL(url());
      u.password = password ?? '';
      return u.toString();
    };
    for (const password of [undefined, 'not-the-password', `${new URL(url()).password}x`]) {
      const client = new pg.Client({ connectionString: withPassword(password), password: password ?? '' });
      client.on('error', () => undefined);
      await expect(client.connect()).rejects.toMatchObject({ code: '28P01', message: 'password authentication failed for user "postgres"' });
      await client.end().catch(() => undefined);
    }
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await client.end();
  });


  test.each([
    ['announces a startup packet of 2 GB', int32s(0x7fffffff, 196608), 'a message of 2147483647 bytes before authentication'],
    ['sends a startup packet of 5 bytes (too short to hold its code)', Buffer.from([0, 0, 0, 5, 0]), 'a message of 5 bytes before authentication'],
    ['asks for SSL twice', Buffer.concat([SSL_REQUEST, SSL_REQUEST]), 'a second SSL or GSS encryption request'],
  ])('when a client %s, then its connection alone is closed with 08P01, nothing buffered, and the server still serves', async (_what, bytes, reason) => {
    const answer = await rawExchange(url(), bytes);
    // An ErrorResponse ('E') naming the protocol violation (after the one 'N' of a first SSL request), then the close.
    const error = answer.subarray(answer.indexOf('E'));
    expect(error.toString('latin1')).toContain('08P01');
    expect(error.toString('latin1')).toContain(reason);
    expect((await pool().query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });

  test('when a client logged in pipelines a query past 10,000 bytes after its password, then the query is run: only the startup and the password are bounded', async () => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    const long = 'x'.repeat(20_000);
    expect((await client.query('SELECT length($1::text) AS n', [long])).rows).toEqual([{ n: 20_000 }]);
    await client.end();
  });

  test('when a logged-in client sends a message whose length is -1, then its connection is closed and the server still serves', async () => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    const closed = new Promise<void>((resolve) => (client as unknown as { connection: { stream: { on(e: string, f: () => void): void } } }).connection.stream.on('close', resolve));
    client.on('error', () => undefined);
    (client as unknown as { connection: { stream: { write(b: Buffer): void } } }).connection.stream.write(Buffer.from([0x51, 0xff, 0xff, 0xff, 0xff]));
    await closed;
    expect((await pool().query('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
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

  test('when several connections prepare statements of the same name, then each runs its own, also after a reconnect', async () => {
    const named = (text: string, values: unknown[]) => ({ name: 'pw_same_name', text, values });
    const clients = [new pg.Client({ connectionString: url() }), new pg.Client({ connectionString: url() })];
    await Promise.all(clients.map((c) => c.connect()));
    try {
      // The same name with different texts on two connections, interleaved, many times over (each connection's
      // statements one after another: node-postgres no longer queues a statement behind a running one).
      const answers: number[] = [];
      await Promise.all(
        clients.map(async (c, k) => {
          for (let i = k; i < 20; i += 2) {
            const { rows } = await (k ? c.query(named('SELECT $1::int * 10 AS v', [i])) : c.query(named('SELECT $1::int + 1000 AS v', [i])));
            answers[i] = rows[0].v;
          }
        }),
      );
      expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? i * 10 : i + 1000)));
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    // A new connection prepares the name afresh (node-postgres does, once per connection), and the session is clean.
    const again = new pg.Client({ connectionString: url() });
    await again.connect();
    try {
      expect((await again.query(named('SELECT $1::int - 1 AS v', [5]))).rows[0].v).toBe(4);
      await sleep(50); // the closed connections' statements are deallocated once the session is free
      const { rows } = await again.query(`SELECT name FROM pg_prepared_statements WHERE name LIKE '%pw_same_name'`);
      expect(rows).toHaveLength(1);
    } finally {
      await again.end();
    }
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

describe('startEmbeddedPostgres with sessionWaitTimeoutMs', () => {
  let dataDir: string;
  let server: EmbeddedPostgres;
  const clients: pg.Client[] = [];
  const pools: pg.Pool[] = [];
  const client = async () => {
    const c = new pg.Client({ connectionString: server.url });
    c.on('error', () => undefined);
    clients.push(c);
    await c.connect();
    return c;
  };
  const pool = () => {
    const p = createPool({ url: server.url, applicationName: 'embedded-test', logger, max: 2 });
    pools.push(p);
    return p;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pitwall-pg-'));
    server = await startEmbeddedPostgres({ dataDir, logger, sessionWaitTimeoutMs: 200, loginTimeoutMs: 500 });
    await (await client()).query('CREATE TABLE public.waited (n int)');
  }, COLD_START_MS);
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end().catch(() => undefined)));
    await Promise.all(pools.splice(0).map((p) => p.end()));
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('when a client opens a connection and gives no password, then it is closed after the login bound (08P01), and the others log in', async () => {
    const answer = await rawExchange(server.url, Buffer.alloc(0));
    expect(answer.toString('latin1')).toContain('no password given in time');
    expect((await (await client()).query('SELECT 4 AS four')).rows).toEqual([{ four: 4 }]);
  });

  test('when another connection holds a transaction past the bound, then statements, transactions and new connections are refused with 57P03 and work once it ends', async () => {
    const waiting = await client();
    const warm = pool();
    await warm.query('SELECT 1');
    const holder = await client();
    await holder.query('BEGIN');
    await holder.query('INSERT INTO public.waited VALUES (1)');

    await expect(waiting.query('SELECT count(*) FROM public.waited')).rejects.toMatchObject({ code: '57P03' });
    await expect(withTransaction(warm, (c) => c.query('INSERT INTO public.waited VALUES (2)'))).rejects.toMatchObject({ code: '57P03' });
    await expect(pool().query('SELECT 1')).rejects.toMatchObject({ code: '57P03' });
    // The holder's transaction was never joined nor disturbed.
    expect((await holder.query('SELECT count(*)::int AS n FROM public.waited')).rows[0].n).toBe(1);
    await holder.query('COMMIT');

    expect((await waiting.query('SELECT count(*)::int AS n FROM public.waited')).rows[0].n).toBe(1);
    await withTransaction(warm, (c) => c.query('INSERT INTO public.waited VALUES (2)'));
    expect((await pool().query('SELECT array_agg(n ORDER BY n) AS ns FROM public.waited')).rows[0].ns).toEqual([1, 2]);
  });

  test('when a client that holds no transaction sends ROLLBACK, then it is answered and the session stays free', async () => {
    const c = await client();
    await c.query('ROLLBACK');
    const holder = await client();
    await holder.query('BEGIN');
    // Answered while another transaction holds the session: a ROLLBACK outside a transaction has nothing to undo.
    await c.query('ROLLBACK');
    await holder.query('ROLLBACK');
    expect((await c.query('SELECT 1 AS one')).rows[0].one).toBe(1);
  });
});

describe('startEmbeddedPostgres on a new data directory', () => {
  test('when its first start fails, then the start is refused naming the directory and the reason, and a start with valid settings then serves it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pitwall-pg-'));
    let server: EmbeddedPostgres | undefined;
    try {
      // An invalid setting makes PGlite fail to start in the child process that initialises the directory.
      await expect(startEmbeddedPostgres({ dataDir, logger, sharedBuffers: 'lots' })).rejects.toThrow(`initialising the embedded database in ${dataDir} failed (exit 1): PGlite failed to initialize properly`);
      server = await startEmbeddedPostgres({ dataDir, logger, sharedBuffers: '16MB' });
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      expect((await client.query('SHOW shared_buffers')).rows[0]).toEqual({ shared_buffers: '16MB' });
      await client.end();
    } finally {
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, COLD_START_MS);
});
