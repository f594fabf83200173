import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import amqp from 'amqplib';
import { startSimulationStandIn, type SimulationStandIn } from '@pitwall/simulation-standin';
import { verifyWebhook } from '@pitwall/testing';
import { AMQP_URL, DistributedStack } from './support/distributed';
import { closeBrokerConnections } from './support/broker-faults';
import { buildSimulationFixture, waitFor } from './support/simulations';

// The bundles are found from the repository root, not the working directory: `nx test e2e` runs jest in apps/e2e.
const ROOT = path.join(__dirname, '..', '..', '..');

interface StatusEvent {
  setupId: string;
  status: string;
  sequence: number;
}


describe('external simulations across processes (RabbitMQ)', () => {
  let stack: DistributedStack;
  let standIn: SimulationStandIn;
  let replacement: ChildProcess | undefined;
  let connection: amqp.ChannelModel;
  /** The callback receiver: started before the stack, so the egress policy can allow its host:port. */
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  beforeAll(async () => {
    // Slow studies: the simulation-service is killed while one is running.
    standIn = await startSimulationStandIn({ scenario: 'slow', slowPolls: 15 });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    // The egress policy refuses loopback: the stand-in's and the receiver's host:port are allowed, as an operator
    // allows a simulation system or a receiver on a private network.
    const allow = [new URL(standIn.url).host, `127.0.0.1:${(receiver.address() as AddressInfo).port}`].join(',');
    // The job of the killed process runs again once its lease lapses (TEST_RUN_LEASE_MS, given to the replacement too):
    // 20 s by default, waited for by the kill test; 6 s still leaves a renewal (every third of it) 4 s late under load.
    // Only the apps a simulation's requests pass through: the timing-service and the datafile-service would add
    // nothing but their start.
    stack = await DistributedStack.start({ apps: ['entity-service', 'simulation-service', 'gateway'], env: { SIMULATION_SECRET_KEY: randomBytes(32).toString('base64'), SIMULATION_POLL_INTERVAL_MS: '100', EGRESS_ALLOW: allow, TEST_RUN_LEASE_MS: '6000' } });
    connection = await amqp.connect(AMQP_URL);
  });
  afterAll(async () => {
    replacement?.kill('SIGKILL');
    await connection?.close();
    await stack?.stop();
    await standIn?.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  test('when the broker closes the simulation-service\'s connection while a triggered job runs, then the process stays up, the job completes with one study, and nothing is dead-lettered', async () => {
    const m = await stack.member('admin');
    const { profileId, setupId } = await buildSimulationFixture(m.client, standIn.url);
    expect((await m.client.putExternalSimulationConnection({ clientId: 'team', clientSecret: 'secret', username: 'engineer', password: 'pw', baseUrl: standIn.url })).statusCode).toBe(204);
    const studiesBefore = standIn.studies.size;
    expect((await m.client.triggerExternalSimulations({ externalProfileId: profileId, setupIds: [setupId] })).returnValue?.results).toEqual([expect.objectContaining({ setupId, accepted: true })]);
    const status = async () => (await m.client.getExternalSimulationStatus(profileId, [setupId])).returnValue?.results[0];
    await waitFor(async () => ((await status())?.status === 'Running' ? true : undefined), 'the job to be running', 20_000);

    const service = stack.stack.procs.find((p) => p.name === 'simulation-service')!;
    expect(await closeBrokerConnections(service.child.pid as number, stack.prefix)).toBeGreaterThan(0);
    const done = await waitFor(async () => {
      const seen = await status();
      return seen?.status === 'Processing completed' ? seen : undefined;
    }, 'the job to complete after the connection came back', 45_000);
    expect(done.studyId).toMatch(/^st-/);
    expect(standIn.studies.size - studiesBefore).toBe(1);
    expect([service.child.exitCode, service.child.signalCode]).toEqual([null, null]);
    const channel = await connection.createChannel();
    try {
      expect((await channel.checkQueue(`${stack.prefix}.dlq`)).messageCount).toBe(0);
    } finally {
      await channel.close();
    }
  }, 90_000);

  test('when the simulation-service is killed -9 while a triggered job runs, then after a restart the job completes, and a RabbitMQ subscriber saw every status of the setup in order', async () => {
    const m = await stack.member('admin');
    const { profileId, setupId } = await buildSimulationFixture(m.client, standIn.url);
    const channel = await connection.createChannel();
    const exchange = `${stack.prefix}.simulation.status`;
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true });
    await channel.bindQueue(queue, exchange, `${m.accountId}.${profileId}.*`);
    const events: StatusEvent[] = [];
    await channel.consume(queue, (msg) => {
      if (!msg) return;
      events.push(JSON.parse(msg.content.toString('utf8')) as StatusEvent);
      channel.ack(msg);
    });

    expect((await m.client.putExternalSimulationConnection({ clientId: 'team', clientSecret: 'secret', username: 'engineer', password: 'pw', baseUrl: standIn.url })).statusCode).toBe(204);
    const answer = await m.client.triggerExternalSimulations({ externalProfileId: profileId, setupIds: [setupId] });
    expect(answer.returnValue?.results).toEqual([{ setupId, accepted: true, studyId: null, message: null }]);

    await waitFor(() => events.find((e) => e.status === 'Running'), 'the job to be running', 20_000);
    const service = stack.stack.procs.find((p) => p.name === 'simulation-service')!;
    await new Promise((resolve) => {
      service.child.once('exit', resolve);
      service.child.kill('SIGKILL');
    });
    const started = spawn(process.execPath, [path.join(ROOT, 'dist', 'apps', 'simulation-service', 'main.js')], { env: { ...process.env, ...stack.env, HEALTH_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    replacement = started;
    let output = '';
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    started.stdout?.on('data', collect);
    started.stderr?.on('data', collect);

    // A replacement that cannot start fails the test at once, with its output, instead of waiting for the timeout.
    await waitFor(() => {
      if (started.exitCode !== null) throw new Error(`the restarted simulation-service exited with code ${started.exitCode}:\n${output}`);
      return events.find((e) => e.status === 'Processing completed');
    }, 'the job to complete after the restart', 45_000);
    const status = await m.client.getExternalSimulationStatus(profileId, [setupId]);
    expect(status.returnValue?.results).toEqual([{ setupId, setupFound: true, status: 'Processing completed', message: null, studyId: expect.stringMatching(/^st-/), lastUpdateTime: expect.any(String) }]);
    // In arrival order, each job step once (a step repeated after the crash carries the same status in order).
    const steps = events.map((e) => e.status).filter((s, i, all) => s !== all[i - 1]);
    expect(steps).toEqual(['Requested', 'Simulation started', 'Running', 'Processing completed']);
    expect(events.map((e) => e.sequence)).toEqual([...events.map((e) => e.sequence)].sort((a, b) => a - b));
    await channel.close();
  }, 90_000);

  test('when an admin registers a callback over HTTP, then each status change of a simulation reaches it signed, the list shows them delivered, and editors, bad URLs and unknown ids are refused', async () => {
    const m = await stack.member('admin');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/pitwall`;
    const created = await m.client.registerExternalSimulationCallback({ url, description: 'race engineer' });
    expect(created.statusCode).toBe(201);
    const secret = created.returnValue?.secret ?? '';
    expect(secret).toMatch(/^whsec_/);

    const editor = await stack.member('editor', m.accountId);
    expect((await editor.client.registerExternalSimulationCallback({ url })).statusCode).toBe(403);
    expect((await editor.client.getExternalSimulationCallbacks()).statusCode).toBe(403);
    const badUrl = await m.client.registerExternalSimulationCallback({ url: 'ftp://files.example/hook' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.problem?.errors).toMatchObject({ url: ['must be an absolute http:// or https:// URL'] });
    // Loopback on a port the egress policy does not name: a 400 naming url, over HTTP too.
    const loopback = await m.client.registerExternalSimulationCallback({ url: 'http://127.1:9/hook' });
    expect(loopback.statusCode).toBe(400);
    expect(loopback.problem?.errors).toMatchObject({ url: [expect.stringMatching(/^address not allowed: 127\.0\.0\.1 \(loopback\)/)] });
    expect((await m.client.deleteExternalSimulationCallback(randomUUID())).statusCode).toBe(404);

    const { profileId, setupId } = await buildSimulationFixture(m.client, standIn.url);
    expect((await m.client.putExternalSimulationConnection({ clientId: 'team', clientSecret: 'secret', username: 'engineer', password: 'pw', baseUrl: standIn.url })).statusCode).toBe(204);
    // Trigger and Reprocess are writes as a whole: a reader's call is a 403 problem, not per-setup results, and queues nothing.
    const reader = await stack.member('reader', m.accountId);
    const readerTrigger = await reader.client.triggerExternalSimulations({ externalProfileId: profileId, setupIds: [setupId] });
    expect(readerTrigger).toMatchObject({ statusCode: 403, returnValue: null, problem: { status: 403 } });
    expect((await reader.client.reprocessExternalSimulations({ externalProfileId: profileId, setupIds: [setupId], parameterNameForStudyId: 'SimStudyId' })).statusCode).toBe(403);
    expect((await m.client.triggerExternalSimulations({ externalProfileId: profileId, setupIds: [setupId] })).returnValue?.results[0]?.accepted).toBe(true);
    await waitFor(() => (received.some((r) => r.body.includes('Processing completed')) ? true : undefined), 'the last status at the receiver', 45_000);
    expect(received.every((r) => verifyWebhook(secret, r.headers, r.body))).toBe(true);
    const statuses = received.map((r) => JSON.parse(r.body) as { data: { status: string; sequence: number } }).sort((a, b) => a.data.sequence - b.data.sequence).map((b) => b.data.status);
    expect(statuses).toEqual(['Requested', 'Simulation started', 'Running', 'Processing completed']);
    const listed = await waitFor(async () => {
      const callbacks = (await m.client.getExternalSimulationCallbacks()).returnValue?.callbacks;
      return callbacks?.[0]?.deliveries.delivered === 4 ? callbacks : undefined;
    }, 'the deliveries recorded');
    expect(listed).toEqual([{ id: created.returnValue?.id, url, description: 'race engineer', createdAt: expect.any(String), deliveries: { delivered: 4, pending: 0, failed: 0 }, recentFailures: [] }]);
    expect((await m.client.deleteExternalSimulationCallback(created.returnValue?.id ?? '')).statusCode).toBe(204);
    expect((await m.client.getExternalSimulationCallbacks()).returnValue?.callbacks).toEqual([]);
  }, 90_000);
});
