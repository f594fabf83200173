import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError, requestContext } from '@pitwall/service-kit';
import { freePort } from '@pitwall/testing';
import { defineService, startService } from '../src';
import { startInProcessStack, type InProcessStack } from '../src/testing';

/** A non-loopback IPv4 address of this machine: where a health port bound to 0.0.0.0 answers and 127.0.0.1 does not. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

/** The value of one series of a Prometheus scrape: `name` with exactly `labels` (in any order); undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = [...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]).sort();
    if (JSON.stringify(got) === wanted) return Number(m[3]);
  }
  return undefined;
}

const received: unknown[] = [];
const notes = defineService({
  name: 'notes-service',
  config: z.object({ NOTE_PREFIX: z.string().default('note:'), NOTE_FACTOR: z.coerce.number().int().default(2) }),
  database: { schema: 'notes', migrations: [{ version: 1, name: 'notes', sql: 'CREATE TABLE notes.notes (text text NOT NULL)' }] },
  pools: [{ name: 'double', entry: join(__dirname, 'fixtures', 'double.worker.js'), maxThreads: 1, workerData: (config) => ({ factor: config.NOTE_FACTOR }) }],
  build: async ({ pool, config, workers }) => ({
    add: async (text: string) => {
      await pool?.query('INSERT INTO notes.notes (text) VALUES ($1)', [config.NOTE_PREFIX + text]);
    },
    count: async () => Number((await pool?.query('SELECT count(*) AS n FROM notes.notes'))?.rows[0].n),
    /** The database session's settings as the service's pool sees them. */
    timeouts: async () => (await pool?.query('SELECT current_setting($1) AS statement, current_setting($2) AS idle', ['statement_timeout', 'idle_in_transaction_session_timeout']))?.rows[0],
    double: (n: number): Promise<number> => workers['double'].run(n),
  }),
  bus: {
    service: 'notes',
    commands: (parts) => async (request) => {
      if (request.type === 'notes.add') return parts.add((request.payload as { text: string }).text);
      if (request.type === 'notes.count') return parts.count();
      if (request.type === 'notes.double') return parts.double(request.payload as number);
      throw AppError.badRequest(`no command ${request.type}`);
    },
  },
  subscriptions: [{ exchange: 'things.events', queue: 'notes.things', bindingKeys: ['thing.*'], handler: () => async (event) => void received.push(event.payload) }],
  health: () => ({ notebook: async () => true }),
});

describe('startService: one host for any definition', () => {
  let stack: InProcessStack;
  beforeAll(async () => {
    stack = await startInProcessStack();
  });
  afterAll(() => stack.stop());

  test('when a pool declares workerData, then its workers get it from the validated config of the started service', async () => {
    const running = await stack.start(notes, { NOTE_FACTOR: '5' });
    try {
      expect(await stack.bus.request('notes', 'notes.double', 21)).toBe(105);
    } finally {
      await running.stop();
    }
  });

  test('when a definition is started, then its schema is migrated, its commands answer over the bus (ping included), its workers run and its subscriptions receive', async () => {
    const running = await stack.start(notes);
    try {
      expect(await stack.bus.request('notes', 'ping', {})).toBe('pong');
      await stack.bus.request('notes', 'notes.add', { text: 'box box' });
      expect(await stack.bus.request('notes', 'notes.count', {})).toBe(1);
      expect(await running.parts.count()).toBe(1);
      expect(await stack.bus.request('notes', 'notes.double', 21)).toBe(42);
      await expect(stack.bus.request('notes', 'notes.nope', {})).rejects.toMatchObject({ status: 400 });
      await stack.bus.publish('things.events', 'thing.created', { id: 't1' });
      await waitFor(() => received.length === 1);
      expect(received).toEqual([{ id: 't1' }]);
      const ready = await fetch(`${running.address}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', dependencies: { database: 'up', bus: 'up', notebook: 'up' } });
    } finally {
      await running.stop();
    }
    await expect(fetch(`${running.address}/health`)).rejects.toThrow();
  });

  test('when a stopping service hands its work in flight back as new messages (its drain), then they wait in the queue for the next instance: the stopping one is not given them', async () => {
    // A job runner: each job runs until the service stops, then is published again to be resumed by another instance.
    const seen: { instance: string; job: number }[] = [];
    let handedBackOpen!: () => void;
    const handedBack = { opened: new Promise<void>((resolve) => (handedBackOpen = resolve)), open: () => handedBackOpen() };
    const runner = (instance: string) =>
      defineService({
        name: 'runner-service',
        config: z.object({}),
        build: async ({ bus }) => {
          const stopping = new AbortController();
          const running = new Set<number>();
          return {
            stopping: stopping.signal,
            drain: () => stopping.abort(),
            handBack: async (job: number) => {
              await bus.publish('runner.jobs', 'job.run', { job, handedBack: true });
              handedBack.open();
            },
            running,
          };
        },
        // A request in flight at the stop, answered once the job was handed back: its consumer closes first and waits.
        bus: { service: 'runner', commands: () => async () => handedBack.opened.then(() => new Promise((resolve) => setTimeout(() => resolve('done'), 200))) },
        subscriptions: [
          {
            exchange: 'runner.jobs',
            queue: 'runner.jobs',
            bindingKeys: ['job.*'],
            handler: (parts) => async (event) => {
              const { job } = event.payload as { job: number };
              seen.push({ instance, job });
              if (parts.stopping.aborted) throw new Error('stopping: requeued');
              if (instance === 'second') return;
              // Runs until the stop, then hands the job back.
              await new Promise((resolve) => parts.stopping.addEventListener('abort', resolve, { once: true }));
              await parts.handBack(job);
            },
          },
        ],
      });
    const first = await stack.start(runner('first'));
    await stack.bus.publish('runner.jobs', 'job.run', { job: 7 });
    await waitFor(() => seen.length === 1);
    const inFlight = stack.bus.request('runner', 'runner.slow', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    await first.stop();
    expect(await inFlight).toBe('done');
    expect(seen).toEqual([{ instance: 'first', job: 7 }]);

    const second = await stack.start(runner('second'));
    try {
      await waitFor(() => seen.length === 2);
      expect(seen).toEqual([{ instance: 'first', job: 7 }, { instance: 'second', job: 7 }]);
    } finally {
      await second.stop();
    }
  });

  test('when DB_STATEMENT_TIMEOUT_MS and DB_IDLE_IN_TRANSACTION_TIMEOUT_MS are not set, then the pool bounds statements at 2 min and idle transactions at 1 min; set, at their values', async () => {
    const defaults = await stack.start(notes);
    try {
      expect(await defaults.parts.timeouts()).toEqual({ statement: '2min', idle: '1min' });
    } finally {
      await defaults.stop();
    }
    const set = await stack.start(notes, { DB_STATEMENT_TIMEOUT_MS: '2500', DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0' });
    try {
      expect(await set.parts.timeouts()).toEqual({ statement: '2500ms', idle: '0' });
    } finally {
      await set.stop();
    }
  });

  test('when HEALTH_HOST is not set, then the health port answers on loopback only; when it is 0.0.0.0, then on every interface', async () => {
    expect(outside).toBeDefined();
    const loopback = await stack.start(defineService({ name: 'quiet-service' }));
    const port = new URL(loopback.address).port;
    try {
      expect(new URL(loopback.address).hostname).toBe('127.0.0.1');
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      await expect(fetch(`http://${outside}:${port}/health`)).rejects.toThrow();
    } finally {
      await loopback.stop();
    }
    const everywhere = await stack.start(defineService({ name: 'open-service' }), { HEALTH_HOST: '0.0.0.0' });
    try {
      expect((await fetch(`http://${outside}:${new URL(everywhere.address).port}/health`)).status).toBe(200);
    } finally {
      await everywhere.stop();
    }
  });

  test('when the definition declares an HTTP part, then its app is served on its port setting with the host readiness checks, and the health and metrics on an internal port of their own', async () => {
    const express = (await import('express')).default;
    const web = defineService({
      name: 'web',
      config: z.object({ WEB_PORT: z.coerce.number().int().default(0) }),
      build: async () => ({ greeting: 'hello' }),
      http: {
        port: (config) => config.WEB_PORT,
        app: (parts, { logger, metrics }, checks) => {
          const app = express();
          app.use(requestContext(logger, metrics));
          app.get('/hello/:name', (req, res) => void res.send(`${parts.greeting} ${req.params['name']}`));
          app.get('/checks', (_req, res) => void res.json(Object.keys(checks)));
          return app;
        },
      },
    });
    const running = await stack.start(web);
    try {
      expect(running.port).toBeGreaterThan(0);
      expect(running.address).toBe(`http://127.0.0.1:${running.port}`);
      expect(await (await fetch(`${running.address}/hello/ann`)).text()).toBe('hello ann');
      expect(await (await fetch(`${running.address}/hello/bob`)).text()).toBe('hello bob');
      expect(await (await fetch(`${running.address}/checks`)).json()).toEqual(['bus']);
      // The public port has no metrics; the internal one has them, one series per route template whatever the names.
      expect((await fetch(`${running.address}/metrics`)).status).toBe(404);
      expect(running.internal).not.toBe(running.address);
      expect((await fetch(`${running.internal}/health/ready`)).status).toBe(200);
      const scrape = await fetch(`${running.internal}/metrics`);
      expect(scrape.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = await scrape.text();
      expect(sample(text, 'pitwall_http_request_duration_seconds_count', { app: 'web', method: 'GET', route: '/hello/:name', status: '200' })).toBe(2);
      expect(sample(text, 'pitwall_http_request_duration_seconds_count', { app: 'web', method: 'GET', route: '/checks', status: '200' })).toBe(1);
      expect(text).not.toContain('ann');
    } finally {
      await running.stop();
    }
  });

  test('when a service handles commands, then its internal /metrics counts them by command and outcome, with its pools and Node\'s own figures', async () => {
    const running = await stack.start(notes);
    try {
      await stack.bus.request('notes', 'notes.count', {});
      await stack.bus.request('notes', 'notes.count', {});
      await expect(stack.bus.request('notes', 'notes.unknown', {})).rejects.toMatchObject({ status: 400 });
      const text = await (await fetch(`${running.internal}/metrics`)).text();
      const app = { app: 'notes-service' };
      expect(sample(text, 'pitwall_bus_command_duration_seconds_count', { ...app, command: 'notes.count', outcome: 'ok' })).toBe(2);
      expect(sample(text, 'pitwall_bus_command_duration_seconds_count', { ...app, command: 'notes.unknown', outcome: '400' })).toBe(1);
      expect(sample(text, 'pitwall_double_pool_threads', app)).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'pitwall_double_pool_queue', app)).toBe(0);
      // Node's own figures are the process's: no app label.
      expect(sample(text, 'process_cpu_user_seconds_total', {})).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_eventloop_lag_seconds', {})).toBeGreaterThanOrEqual(0);
      // A method the endpoint does not have: 405 naming what it answers; a path it does not have: 404; both problem+json.
      const posted = await fetch(`${running.internal}/metrics`, { method: 'POST' });
      expect([posted.status, posted.headers.get('allow'), posted.headers.get('content-type')]).toEqual([405, 'GET, HEAD', 'application/problem+json; charset=utf-8']);
      const missing = await fetch(`${running.internal}/nothing-here`);
      expect([missing.status, missing.headers.get('content-type')]).toEqual([404, 'application/problem+json; charset=utf-8']);
    } finally {
      await running.stop();
    }
  });

  describe('a database that does not answer at start', () => {
    /** A TCP relay on `port` to the test database's server: PostgreSQL "coming up" on that port. */
    async function relayTo(databaseUrl: string, port: number): Promise<Server & { sockets: Set<Socket> }> {
      const target = new URL(databaseUrl);
      const sockets = new Set<Socket>();
      const server = createServer((client) => {
        const upstream = connectTcp(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', () => undefined);
          socket.on('close', () => sockets.delete(socket));
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      return Object.assign(server, { sockets });
    }

    const at = (port: number) => {
      const url = new URL(stack.databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    };

    test('when the database comes up while the service starts, then the start waits for it and the service works', async () => {
      const port = await freePort();
      const starting = stack.start(notes, { DATABASE_URL: at(port), STARTUP_WAIT_S: '30' });
      let settled = false;
      void starting.then(() => (settled = true), () => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 1200));
      // Refused for over a second, and still starting rather than failed.
      expect(settled).toBe(false);
      const relay = await relayTo(stack.databaseUrl, port);
      try {
        const running = await starting;
        try {
          await stack.bus.request('notes', 'notes.add', { text: 'late database' });
          expect(await running.parts.count()).toBeGreaterThanOrEqual(1);
          expect((await fetch(`${running.address}/health/ready`)).status).toBe(200);
        } finally {
          await running.stop();
        }
      } finally {
        for (const socket of relay.sockets) socket.destroy();
        await new Promise((resolve) => relay.close(resolve));
      }
    });

    test('when it does not answer within STARTUP_WAIT_S, then the start fails naming STARTUP_WAIT_S and the reason', async () => {
      const port = await freePort();
      await expect(stack.start(notes, { DATABASE_URL: at(port), STARTUP_WAIT_S: '1' })).rejects.toThrow(/^the database did not answer within STARTUP_WAIT_S \(1 s\): .*ECONNREFUSED/);
    });

    test('when the database host does not answer a connection at all (packets dropped), then each try is bounded by the time left and the start fails within STARTUP_WAIT_S', async () => {
      // 10.255.255.1 is not routed from here: a connect either hangs (dropped) or is refused as unreachable at once.
      const url = new URL(stack.databaseUrl);
      url.hostname = '10.255.255.1';
      await expect(stack.start(notes, { DATABASE_URL: url.toString(), STARTUP_WAIT_S: '1' })).rejects.toThrow(/^the database did not answer within STARTUP_WAIT_S \(1 s\)/);
    });

    test('when the server answers that the database does not exist, then the start fails with that answer, without waiting', async () => {
      const url = new URL(stack.databaseUrl);
      url.pathname = '/pitwall_no_such_database';
      // Within the test's 5 s although STARTUP_WAIT_S allows 600: the server's answer is not waited out.
      const failure = (await stack.start(notes, { DATABASE_URL: url.toString(), STARTUP_WAIT_S: '600' }).then(
        () => undefined,
        (err: unknown) => err,
      )) as { message: string } | undefined;
      expect(failure?.message).toMatch(/database "pitwall_no_such_database" does not exist/);
    });
  });

  test('when a setting is invalid or a needed one is missing, then the start fails with a message naming the variable', async () => {
    await expect(startService(notes, { env: { AMQP_URL: 'amqp://127.0.0.1', DATABASE_URL: stack.databaseUrl, HEALTH_PORT: 'eighty' } })).rejects.toThrow(/HEALTH_PORT/);
    await expect(startService(notes, { env: { DATABASE_URL: stack.databaseUrl } })).rejects.toThrow(/AMQP_URL: is required when notes-service runs as its own process/);
    await expect(startService(notes, { env: {}, shared: { bus: stack.bus } })).rejects.toThrow(/DATABASE_URL: is required by notes-service/);
  });
});

async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
