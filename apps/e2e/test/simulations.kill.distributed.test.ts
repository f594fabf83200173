import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import amqp from 'amqplib';
import type { Pool, PoolClient } from 'pg';
import { testPool } from '@pitwall/db/testing';
import { startSimulationStandIn, type SimulationStandIn } from '@pitwall/simulation-standin';
import { AMQP_URL, DistributedStack, type Member } from './support/distributed';
import { buildSimulationFixture, waitFor } from './support/simulations';

// The bundles are found from the repository root, not the working directory: `nx test e2e` runs jest in apps/e2e.
const ROOT = path.join(__dirname, '..', '..', '..');
const SETUPS = 6;
/** Delivery rows one statement writes or removes: several batches for the few setups of a test. */
const BATCH_ROWS = 10;


/**
 * The simulation-service's work in two phases, each killed -9 between them: a Trigger's jobs committed waiting and
 * published by a wake afterwards; a status step's event recorded with it and written as one delivery per callback
 * afterwards, in batches; a deleted callback hidden at once and its deliveries removed afterwards, in batches. The
 * test holds the second phase where it cannot go on (a test-only hold of the wakes; a row lock the batch's statement
 * waits for), kills the process, ends the killed process's statement still waiting on that lock (its session is gone
 * with it: rolled back), and starts a new process on the same database and bus.
 */
describe('the simulation-service killed -9 between the two phases of its work (five-process stack)', () => {
  let stack: DistributedStack;
  let standIn: SimulationStandIn;
  let pool: Pool;
  let connection: amqp.ChannelModel;
  /** The simulation-service now: the stack's first, then each replacement. */
  let service: ChildProcess;
  let output = '';
  const replacements: ChildProcess[] = [];
  const received: { path: string; webhookId: string }[] = [];
  const receiver = createServer((req, res) => {
    received.push({ path: req.url ?? '', webhookId: String(req.headers['webhook-id']) });
    req.resume().on('end', () => res.writeHead(200).end());
  });
  let receiverUrl: string;

  beforeAll(async () => {
    standIn = await startSimulationStandIn({ runningPolls: 2 });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const allow = [new URL(standIn.url).host, new URL(receiverUrl).host].join(',');
    // The first process holds its wakes (TEST_HOLD_WAKES_MS): the first test kills it before any; replacements do not.
    const env = { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_POLL_INTERVAL_MS: '100', SIMULATION_CALLBACK_BATCH_ROWS: String(BATCH_ROWS), EGRESS_ALLOW: allow, TEST_HOLD_WAKES_MS: '600000' };
    stack = await DistributedStack.start({ env, readyTimeoutMs: 90_000 });
    const first = stack.stack.procs.find((p) => p.name === 'simulation-service');
    if (!first) throw new Error('the stack has no simulation-service');
    service = first.child;
    pool = testPool(stack.databaseUrl, 3);
    connection = await amqp.connect(AMQP_URL);
  }, 120_000);
  afterAll(async () => {
    for (const child of replacements) child.kill('SIGKILL');
    await pool?.end();
    await connection?.close();
    await stack?.stop();
    await standIn?.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  async function kill(): Promise<void> {
    const child = service;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the simulation-service ended before the kill (code ${child.exitCode}):\n${output}`);
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
  }
  function restart(): void {
    output = '';
    service = spawn(process.execPath, [path.join(ROOT, 'dist', 'apps', 'simulation-service', 'main.js')], {
      env: { ...process.env, ...stack.env, HEALTH_PORT: '0', TEST_HOLD_WAKES_MS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    replacements.push(service);
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    service.stdout?.on('data', collect);
    service.stderr?.on('data', collect);
  }
  /** Waits like waitFor, failing at once (with its output) should the replacement exit. */
  const whileUp = <T>(probe: () => T | undefined | Promise<T | undefined>, what: string, ms?: number) =>
    waitFor(() => {
      if (service.exitCode !== null) throw new Error(`the restarted simulation-service exited with code ${service.exitCode}:\n${output}`);
      return probe();
    }, what, ms).catch((err: Error) => {
      throw new Error(`${err.message}; the simulation-service's last output:\n${output}`);
    });

  /** The simulation-service's statements waiting for a lock this session holds; none is left waiting (ended, rolled back). */
  async function blockedBy(holder: PoolClient): Promise<number[]> {
    const { rows } = await pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'simulation-service' AND $1::int = ANY(pg_blocking_pids(pid))`,
      [await pidOf(holder)],
    );
    return rows.map((r) => r.pid);
  }
  const pidOf = async (client: PoolClient) => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid as number;
  /** Ends the killed process's statements still waiting on the holder's lock: its session dies with it, the batch rolled back. */
  async function endKilledStatements(holder: PoolClient): Promise<void> {
    for (const pid of await blockedBy(holder)) await pool.query('SELECT pg_terminate_backend($1)', [pid]);
    await waitFor(async () => ((await blockedBy(holder)).length === 0 ? true : undefined), "the killed process's statement to end");
  }

  async function simulatedAccount(): Promise<{ m: Member; profileId: string; setupIds: string[] }> {
    const m = await stack.member('admin');
    const { profileId, setupIds } = await buildSimulationFixture(m.client, standIn.url, SETUPS);
    expect((await m.client.putExternalSimulationConnection({ clientId: 'team', clientSecret: 'secret', username: 'engineer', password: 'pw', baseUrl: standIn.url })).statusCode).toBe(204);
    return { m, profileId, setupIds };
  }
  async function trigger(m: Member, profileId: string, setupIds: string[]): Promise<void> {
    const answer = await m.client.triggerExternalSimulations({ externalProfileId: profileId, setupIds });
    expect(answer.returnValue?.results.map((r) => r.accepted)).toEqual(setupIds.map(() => true));
  }
  /** A Trigger sent with an Idempotency-Key: its status and problem or body (status 0: no answer came). */
  async function keyedTrigger(m: Member, profileId: string, setupIds: string[], key: string): Promise<{ status: number; body: { type?: string; detail?: string; results?: { setupId: string; accepted: boolean }[] } | null }> {
    const res = await fetch(`${stack.baseUrl}/ExternalSimulations/Trigger`, {
      method: 'POST',
      headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ externalProfileId: profileId, setupIds }),
    }).catch(() => undefined);
    if (!res) return { status: 0, body: null };
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const statusesOf = async (m: Member, profileId: string, setupIds: string[]) => ((await m.client.getExternalSimulationStatus(profileId, setupIds)).returnValue?.results ?? []).map((r) => r.status);
  /** Study creates the stand-in has answered (tests run one at a time: a test counts those since it began). */
  const creates = () => standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length;
  /**
   * Sends a keyed Trigger of the setups and holds it between its write of `Requested` to the setups (another service's
   * commit) and the commit of its jobs: the test's session locks the jobs table against writes, so the Trigger's
   * transaction waits on it. Once every setup says `Requested` and the service's statement waits, the process is killed
   * -9, its waiting statement ended (rolled back), the lock let go. Returns the Trigger's answer, as the client got it.
   */
  async function triggerKilledBeforeItsJobs(m: Member, profileId: string, setupIds: string[], key: string): Promise<Awaited<ReturnType<typeof keyedTrigger>>> {
    const holder = await pool.connect();
    let answer: Promise<Awaited<ReturnType<typeof keyedTrigger>>>;
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE simulation.jobs IN SHARE MODE');
      answer = keyedTrigger(m, profileId, setupIds, key);
      await waitFor(async () => ((await statusesOf(m, profileId, setupIds)).every((s) => s === 'Requested') && (await blockedBy(holder)).length ? true : undefined), "every setup to say Requested, and the Trigger's commit waiting");
      expect(await pool.query('SELECT 1 FROM simulation.jobs WHERE account_id = $1', [m.accountId])).toMatchObject({ rowCount: 0 });
      await kill();
      await endKilledStatements(holder);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    return answer;
  }
  const allCompleted = async (m: Member, profileId: string, setupIds: string[]) => {
    const status = (await m.client.getExternalSimulationStatus(profileId, setupIds)).returnValue?.results ?? [];
    return status.length === setupIds.length && status.every((s) => s.status === 'Processing completed') ? status : undefined;
  };
  async function registerCallbacks(m: Member, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await m.client.registerExternalSimulationCallback({ url: `${receiverUrl}/${m.accountId}/${i}` });
      expect(created.statusCode).toBe(201);
      ids.push(created.returnValue?.id as string);
    }
    return ids;
  }
  /** Every status event of the account announced on the exchange, by eventId (a copy the outbox sent again counted once). */
  async function watchEvents(accountId: string): Promise<Set<string>> {
    const seen = new Set<string>();
    const channel = await connection.createChannel();
    const exchange = `${stack.prefix}.simulation.status`;
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true });
    await channel.bindQueue(queue, exchange, `${accountId}.#`);
    await channel.consume(queue, (msg) => {
      if (!msg) return;
      seen.add((JSON.parse(msg.content.toString('utf8')) as { eventId: string }).eventId);
      channel.ack(msg);
    });
    return seen;
  }
  /** The events each callback of the account (deleted ones included) has a delivery record of, one entry per record. */
  async function deliveriesOf(accountId: string): Promise<Map<string, string[]>> {
    const { rows } = await pool.query<{ callback_id: string; webhook_ids: string[] }>(
      `SELECT c.id AS callback_id, COALESCE(array_agg(d.webhook_id) FILTER (WHERE d.id IS NOT NULL), '{}') AS webhook_ids
         FROM simulation.callbacks c LEFT JOIN simulation.callback_deliveries d ON d.callback_id = c.id
        WHERE c.account_id = $1 GROUP BY c.id`,
      [accountId],
    );
    return new Map(rows.map((r) => [r.callback_id, r.webhook_ids]));
  }
  const recordedEvents = async (accountId: string) =>
    (await pool.query<{ webhook_id: string }>('SELECT webhook_id FROM simulation.callback_events WHERE account_id = $1', [accountId])).rows.map((r) => r.webhook_id);
  /** The counters the list reads, and the rows they count, per callback (deleted ones included). */
  async function countersOf(accountId: string): Promise<{ id: string; counted: number; rows: number }[]> {
    const { rows } = await pool.query<{ id: string; counted: string; rows: string }>(
      `SELECT c.id, c.delivered + c.pending + c.failed AS counted, (SELECT count(*) FROM simulation.callback_deliveries d WHERE d.callback_id = c.id) AS rows
         FROM simulation.callbacks c WHERE c.account_id = $1 ORDER BY c.id`,
      [accountId],
    );
    return rows.map((r) => ({ id: r.id, counted: Number(r.counted), rows: Number(r.rows) }));
  }

  test("when it is killed -9 with a Trigger's jobs committed waiting, before their first wake, then after a restart they are woken and each runs once", async () => {
    const { m, profileId, setupIds } = await simulatedAccount();
    const createsBefore = standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length;
    await trigger(m, profileId, setupIds);
    // Committed waiting (the Trigger answered), none published: the wakes of this process are held.
    const { rows } = await pool.query<{ waiting: number; woken: number }>(
      'SELECT count(*) FILTER (WHERE waiting)::int AS waiting, count(*) FILTER (WHERE woken_until IS NOT NULL)::int AS woken FROM simulation.jobs WHERE account_id = $1',
      [m.accountId],
    );
    expect(rows[0]).toEqual({ waiting: SETUPS, woken: 0 });

    await kill();
    expect(standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length).toBe(createsBefore);
    restart();
    const results = await whileUp(() => allCompleted(m, profileId, setupIds), 'every job to complete after the restart', 120_000);

    // Each job ran once: one create per job (no create repeated), one study each, the one the status shows.
    expect(standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length - createsBefore).toBe(SETUPS);
    const names = new Set(['Quali trim', ...Array.from({ length: SETUPS - 1 }, (_, i) => `Quali trim ${i + 2}`)]);
    const studies = [...standIn.studies.values()].filter((s) => names.has(s.name) && results.some((r) => r.studyId === s.id));
    expect(studies).toHaveLength(SETUPS);
    expect(new Set(studies.map((s) => s.idempotencyKey)).size).toBe(SETUPS);
  }, 180_000);

  test('when it is killed -9 with status events recorded but not yet written as deliveries, then after a restart each event is exactly one delivery per callback, and the counts are exact', async () => {
    const { m, profileId, setupIds } = await simulatedAccount();
    const callbackIds = await registerCallbacks(m, 3);
    const announced = await watchEvents(m.accountId);
    // The callbacks' rows locked: a batch writing their deliveries (whose counters it updates) waits for this session.
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM simulation.callbacks WHERE account_id = $1 FOR UPDATE', [m.accountId]);
      await trigger(m, profileId, setupIds);
      // The jobs run to their end meanwhile, each step recorded for the callbacks with it; none written as deliveries.
      await waitFor(() => allCompleted(m, profileId, setupIds), 'every job to complete', 90_000);
      await waitFor(async () => ((await recordedEvents(m.accountId)).length === announced.size && (await blockedBy(holder)).length ? true : undefined), 'every event recorded, and a batch waiting');
      expect(new Set(await recordedEvents(m.accountId))).toEqual(announced);

      await kill();
      await endKilledStatements(holder);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    // Nothing of the batch in flight was kept: every event still recorded, no delivery written.
    expect(new Set(await recordedEvents(m.accountId))).toEqual(announced);
    expect([...(await deliveriesOf(m.accountId)).values()].flat()).toEqual([]);

    restart();
    await whileUp(async () => ((await recordedEvents(m.accountId)).length === 0 ? true : undefined), 'the recorded events to be written as deliveries');
    const written = await deliveriesOf(m.accountId);
    expect([...written.keys()].sort()).toEqual([...callbackIds].sort());
    for (const webhookIds of written.values()) {
      expect(webhookIds).toHaveLength(announced.size);
      expect(new Set(webhookIds)).toEqual(announced);
    }
    // Sent and counted: each callback's list shows every event delivered, the counters equal to the rows.
    const listed = await whileUp(async () => {
      const callbacks = (await m.client.getExternalSimulationCallbacks()).returnValue?.callbacks ?? [];
      return callbacks.length === 3 && callbacks.every((c) => c.deliveries.delivered === announced.size) ? callbacks : undefined;
    }, 'every delivery to be sent');
    expect(listed.map((c) => c.deliveries)).toEqual(callbackIds.map(() => ({ delivered: announced.size, pending: 0, failed: 0 })));
    expect((await countersOf(m.accountId)).every((c) => c.counted === c.rows && c.rows === announced.size)).toBe(true);
    for (let i = 0; i < 3; i++) expect(new Set(received.filter((r) => r.path === `/${m.accountId}/${i}`).map((r) => r.webhookId))).toEqual(announced);
  }, 180_000);

  test("when it is killed -9 in the middle of a deleted callback's purge, then after a restart the rest is purged, and the account's other callback and every count are exact", async () => {
    const { m, profileId, setupIds } = await simulatedAccount();
    const [gone, kept] = (await registerCallbacks(m, 2)) as [string, string];
    const announced = await watchEvents(m.accountId);
    await trigger(m, profileId, setupIds);
    await whileUp(() => allCompleted(m, profileId, setupIds), 'every job to complete', 90_000);
    await whileUp(async () => {
      const callbacks = (await m.client.getExternalSimulationCallbacks()).returnValue?.callbacks ?? [];
      return callbacks.length === 2 && callbacks.every((c) => c.deliveries.delivered === announced.size) ? true : undefined;
    }, 'every delivery to be sent');
    const total = announced.size;
    expect(total).toBeGreaterThan(BATCH_ROWS);

    // One of the deleted callback's deliveries locked: the purge's batch that holds it waits for this session.
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM simulation.callback_deliveries WHERE callback_id = $1 ORDER BY id DESC LIMIT 1 FOR UPDATE', [gone]);
      expect((await m.client.deleteExternalSimulationCallback(gone)).statusCode).toBe(204);
      const after = await m.client.getExternalSimulationCallbacks();
      expect({ statusCode: after.statusCode, message: after.statusCode === 200 ? '' : after.message, ids: after.returnValue?.callbacks.map((c) => c.id) }).toEqual({ statusCode: 200, message: '', ids: [kept] });
      await whileUp(async () => ((await blockedBy(holder)).length ? true : undefined), 'the purge to reach the locked delivery');

      await kill();
      await endKilledStatements(holder);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    // Cut off: the deleted callback still has deliveries, and its counters count exactly them.
    const cut = (await countersOf(m.accountId)).find((c) => c.id === gone);
    expect(cut?.rows).toBeGreaterThan(0);
    expect(cut?.counted).toBe(cut?.rows);

    restart();
    await whileUp(async () => ((await countersOf(m.accountId)).length === 1 ? true : undefined), "the rest of the deleted callback's deliveries, then its row, to be removed");
    expect((await pool.query('SELECT 1 FROM simulation.callback_deliveries WHERE callback_id = $1', [gone])).rowCount).toBe(0);
    expect(await countersOf(m.accountId)).toEqual([{ id: kept, counted: total, rows: total }]);
    const left = (await deliveriesOf(m.accountId)).get(kept) ?? [];
    expect(left).toHaveLength(total);
    expect(new Set(left)).toEqual(announced);
    // Read through the restarted service. The gateway learns of its new instance a moment after the instance's own work
    // (the purge above) has begun: meanwhile it answers 503 "no running instance ... retry shortly", nothing done, as a
    // client is told to retry. Any other answer, or a 503 that lasts, is kept whole, so a refusal says what it was.
    let last = '';
    const answer = await whileUp(async () => {
      const listed = await m.client.getExternalSimulationCallbacks();
      last = `${listed.statusCode} ${listed.message}`;
      return listed.statusCode === 503 ? undefined : listed;
    }, 'the gateway to reach the restarted simulation-service', 15_000).catch((err: Error) => {
      throw new Error(`${err.message}; its last answer: ${last}`);
    });
    expect({ statusCode: answer.statusCode, message: answer.statusCode === 200 ? '' : answer.message, listed: answer.returnValue?.callbacks.map((c) => [c.id, c.deliveries]) }).toEqual({ statusCode: 200, message: '', listed: [[kept, { delivered: total, pending: 0, failed: 0 }]] });
  }, 180_000);
  test("when it is killed -9 after a Trigger wrote Requested to its setups and before it committed their jobs, then without any retry every setup runs once to Processing completed", async () => {
    const { m, profileId, setupIds } = await simulatedAccount();
    const createsBefore = creates();
    const answer = await triggerKilledBeforeItsJobs(m, profileId, setupIds, randomUUID());
    // The client was not told the outcome (the process died with its request): a 504 outcome-unknown.
    expect({ status: answer.status, type: answer.body?.type }).toEqual({ status: 504, type: 'urn:pitwall:problem:outcome-unknown' });
    expect(creates()).toBe(createsBefore);

    restart();
    // Nobody sends the Trigger again: the setups do not stay Requested with no job behind them.
    await whileUp(() => allCompleted(m, profileId, setupIds), 'every setup to complete without a retry', 120_000).catch(async (err: Error) => {
      throw new Error(`${err.message}; statuses: ${JSON.stringify(await statusesOf(m, profileId, setupIds))}; jobs: ${(await pool.query('SELECT 1 FROM simulation.jobs WHERE account_id = $1', [m.accountId])).rowCount}`);
    });
    // Once each: one job and one create per setup.
    expect((await pool.query('SELECT setup_id FROM simulation.jobs WHERE account_id = $1', [m.accountId])).rows.map((r: { setup_id: string }) => r.setup_id).sort()).toEqual([...setupIds].sort());
    expect(creates() - createsBefore).toBe(SETUPS);
  }, 180_000);

  test('when it is killed -9 after a Trigger wrote Requested to its setups and before it committed their jobs, then the retry with the same Idempotency-Key is answered the Trigger\'s outcome, and every setup runs once', async () => {
    const { m, profileId, setupIds } = await simulatedAccount();
    const key = randomUUID();
    const createsBefore = creates();
    const answer = await triggerKilledBeforeItsJobs(m, profileId, setupIds, key);
    expect({ status: answer.status, type: answer.body?.type }).toEqual({ status: 504, type: 'urn:pitwall:problem:outcome-unknown' });

    restart();
    // The retry as a client sends it: again on a 503 from the gateway while no instance of the service is known yet, and
    // again on a 504 outcome-unknown (the restarted instance's sweep may be finishing the same recorded work, and a
    // retry that waits on it past its deadline is told to ask again), and on the 503 saying another request of the same
    // key is finishing it (that one's doing); at most a minute of asking. Never on a 503 saying the setups are being
    // written by another request: that is what the test is about (it lasted the two minutes of a write lease).
    let retried = await keyedTrigger(m, profileId, setupIds, key);
    const askAgain = (a: typeof retried) =>
      (a.status === 503 && /no running instance|being finished by another request of the same Idempotency-Key/i.test(a.body?.detail ?? '')) || (a.status === 504 && a.body?.type === 'urn:pitwall:problem:outcome-unknown');
    const until = Date.now() + 60_000;
    while (askAgain(retried) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      retried = await keyedTrigger(m, profileId, setupIds, key);
    }
    // Answered the outcome (every setup accepted), not told the setups are being written by another request.
    expect({ status: retried.status, detail: retried.body?.detail, accepted: retried.body?.results?.map((r) => [r.setupId, r.accepted]) }).toEqual({ status: 200, detail: undefined, accepted: setupIds.map((id) => [id, true]) });
    await whileUp(() => allCompleted(m, profileId, setupIds), 'every setup to complete', 120_000);
    expect(creates() - createsBefore).toBe(SETUPS);
    // Asked again, the same answer; nothing more is run.
    const again = await keyedTrigger(m, profileId, setupIds, key);
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: retried.body });
    expect((await pool.query('SELECT 1 FROM simulation.jobs WHERE account_id = $1', [m.accountId])).rowCount).toBe(SETUPS);
  }, 180_000);
});
