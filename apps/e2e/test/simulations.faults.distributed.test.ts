import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import { startSimulationStandIn, type SimulationStandIn } from '@pitwall/simulation-standin';
import { tcpProxy, type TcpProxy } from '@pitwall/testing';
import { until } from './support/broker-faults';
import { countRows, terminateEveryBackend } from './support/database';
import { AMQP_URL, DistributedStack, readJson } from './support/distributed';
import { buildSimulationFixture } from './support/simulations';

// Simulation jobs running while the stack loses PostgreSQL, then the broker. The stack's AMQP_URL goes through a TCP
// proxy the test cuts and opens again; the database loss is `pg_terminate_backend` of the stack's own database. The
// stand-in keeps its studies running until the test lets them complete (during the broker's outage).
const JOBS = 3;
/** How long the broker stays unreachable: past the bus's reconnect attempts, short for the suite. */
const BROKER_OUTAGE_MS = 7000;
/** Status reads a study answers `running` until the test sets it to 0 (then the next read answers `completed`). */
const HELD = 1_000_000;

describe('simulation jobs while the stack loses PostgreSQL and then the broker', () => {
  let amqpProxy: TcpProxy;
  let standIn: SimulationStandIn;
  let stack: DistributedStack | undefined;
  beforeAll(async () => {
    standIn = await startSimulationStandIn({ scenario: 'slow', slowPolls: HELD });
    const broker = new URL(AMQP_URL);
    amqpProxy = await tcpProxy({ host: broker.hostname, port: Number(broker.port || 5672) });
    await amqpProxy.open();
    const proxied = new URL(AMQP_URL);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(amqpProxy.port);
    // The egress policy refuses loopback: the stand-in's host:port is allowed, as an operator allows a private system.
    const env = { AMQP_URL: proxied.toString(), SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_POLL_INTERVAL_MS: '100', EGRESS_ALLOW: new URL(standIn.url).host };
    stack = await DistributedStack.start({ apps: ['entity-service', 'simulation-service', 'gateway'], env, readyTimeoutMs: 90_000 });
  }, 120_000);
  afterAll(async () => {
    // The proxy open for the stack's stop; then closed, with the stand-in, even when the stop reports a crash.
    await amqpProxy?.open();
    try {
      await stack?.stop();
    } finally {
      await amqpProxy?.cut();
      await standIn?.stop();
    }
  });

  test('when every database connection is terminated three times and then the broker is unreachable for seconds while jobs run and their studies complete, then every job reaches Processing completed with one study each, its setup says so, nothing is dead-lettered or left in the outbox, and no process exits', async () => {
    const s = stack as DistributedStack;
    const m = await s.member('admin');
    const { profileId, setupIds } = await buildSimulationFixture(m.client, standIn.url, JOBS);
    expect((await m.client.putExternalSimulationConnection({ clientId: 'team', clientSecret: 'secret', username: 'engineer', password: 'pw', baseUrl: standIn.url })).statusCode).toBe(204);
    const triggered = await m.client.triggerExternalSimulations({ externalProfileId: profileId, setupIds });
    expect(triggered.returnValue?.results.map((r) => r.accepted)).toEqual(setupIds.map(() => true));

    let seen: unknown = [];
    const statuses = async () => {
      const answer = await m.client.getExternalSimulationStatus(profileId, setupIds).catch((err: Error) => ({ statusCode: 0, returnValue: null, problem: err.message }));
      seen = answer.returnValue?.results.map((r) => [r.status, r.message]) ?? `${answer.statusCode}`;
      return answer.returnValue?.results ?? [];
    };
    const every = async (status: string) => {
      const now = await statuses();
      return now.length === JOBS && now.every((r) => r.status === status);
    };
    const polls = () => standIn.calls.filter((c) => c.method === 'GET' && /^\/studies\/[^/]+$/.test(c.path)).length;
    await until('every job to be Running', () => every('Running'), 30_000).catch((err: Error) => {
      throw new Error(`${err.message}; statuses: ${JSON.stringify(seen)}`);
    });
    expect(standIn.studies.size).toBe(JOBS);

    // The database: every connection of the stack's database terminated, three times; after each, the jobs go on
    // reading their studies' status (each read also checks in the database that the job is still the setup's latest).
    const terminated: number[] = [];
    for (let round = 0; round < 3; round++) {
      terminated.push(await terminateEveryBackend(s.databaseUrl));
      const before = polls();
      await until(() => `the jobs to read their studies again after termination ${round + 1} (${polls() - before} reads since)`, () => polls() >= before + JOBS * 3, 30_000);
    }

    // The broker: unreachable for seconds; meanwhile the studies complete (their results wait to be recorded).
    await amqpProxy.cut();
    standIn.options.slowPolls = 0;
    await new Promise((resolve) => setTimeout(resolve, BROKER_OUTAGE_MS));
    // (Normally each job has read its study's results by now: its polls go on without the broker; the step waits.)
    const resultsReadInOutage = standIn.calls.filter((c) => c.method === 'GET' && c.path.endsWith('/results')).length;
    await amqpProxy.open();

    await until('every job to reach Processing completed', () => every('Processing completed'), 90_000).catch((err: Error) => {
      const output = s.stack.procs.find((p) => p.name === 'simulation-service')?.output.slice(-3000);
      throw new Error(`${err.message}; statuses: ${JSON.stringify(seen)}; studies: ${standIn.studies.size}; the simulation-service's last output:\n${output}`);
    });
    process.stdout.write(`simulation faults: terminated ${terminated.join(', ')} backends; ${polls()} status reads, ${resultsReadInOutage} results read while the broker was away; ${standIn.calls.filter((c) => c.method === 'POST' && c.path === '/studies').length} study creates\n`);
    expect(terminated.map((n) => n > 0)).toEqual([true, true, true]);

    // One study per job, the one each job's status names.
    const results = await statuses();
    expect(standIn.studies.size).toBe(JOBS);
    expect(new Set(results.map((r) => r.studyId))).toEqual(new Set(standIn.studies.keys()));
    // The setups in the entity store say so too (written through the entity-service after the broker returned).
    const setupSays = async (setupId: string) => (await readJson(await fetch(`${s.baseUrl}/Setups/${setupId}?parametersToInclude=SimStatus,SimStudyId`, { headers: { ApiKey: m.apiKey, AccountId: m.accountId } }))).Parameters;
    let setups: unknown[] = [];
    await until(() => `every setup to hold its completed status and study (${JSON.stringify(setups)})`, async () => {
      setups = await Promise.all(setupIds.map(setupSays));
      return JSON.stringify(setups) === JSON.stringify(setupIds.map((id) => ({ SimStatus: 'Processing completed', SimStudyId: results.find((r) => r.setupId === id)?.studyId })));
    }, 30_000);

    // Nothing given up: no job dead-lettered, no event left unpublished, every process still up.
    const connection = await amqp.connect(AMQP_URL);
    try {
      const channel = await connection.createChannel();
      expect((await channel.checkQueue(`${s.prefix}.dlq`)).messageCount).toBe(0);
    } finally {
      await connection.close();
    }
    let outbox = -1;
    await until(() => `the simulation outbox drained (${outbox} rows left)`, async () => (outbox = await countRows(s.databaseUrl, 'simulation.outbox')) === 0, 30_000);
    expect(s.stack.procs.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null).map((p) => p.name)).toEqual([]);
  }, 240_000);
});
