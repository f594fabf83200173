import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pino from 'pino';
import { AmqpBus } from '@pitwall/bus';
import { DEFAULT_TIMING_PARTITIONS, SERVICES, TIMING_COMMANDS, partitionOf, partitionService, timingPartitionKey, type TimingLevel } from '@pitwall/contracts';
import { activeConsumerProcesses, closeBrokerConnections, until } from './support/broker-faults';
import { freePort } from '@pitwall/testing';
import { AMQP_URL, DistributedStack, readJson, type Member } from './support/distributed';
import { expectedTiming, storedTiming, timingFeed, timingSession, type FeedItem, type TimingSession } from './support/timing';

describe('timing integration on the five-process stack, with two timing-service instances', () => {
  let stack: DistributedStack;
  beforeAll(async () => {
    stack = await DistributedStack.start({ apps: ['entity-service', 'timing-service', 'timing-service', 'gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const send = async (m: Member, method: string, p: string, body?: unknown) => {
    const res = await fetch(`${stack.baseUrl}${p}`, { method, headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await readJson(res) };
  };
  const create = async (m: Member, plural: string, query: string, parameters: Record<string, string> = {}): Promise<string> => {
    const res = await send(m, 'POST', `/${plural}${query}`, { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) });
    expect(res.status).toBe(201);
    return res.body.Id as string;
  };
  const session = (m: Member, cars: number) => timingSession(send, m, cars);
  const feed = timingFeed;
  const stored = (m: Member, s: TimingSession, car: number) => storedTiming(send, m, s, car);
  const expected = expectedTiming;

  /** Plays one car's feed in order, each update after the answer to the previous; a 5xx (a lost instance) is retried. */
  async function play(m: Member, s: TimingSession, car: number, items: FeedItem[], onEach?: () => void): Promise<void> {
    for (const item of items) {
      // While no timing-service runs, the gateway answers 503 at once: a client retries until one is back.
      for (const started = Date.now(); ; ) {
        const res = await send(m, 'PUT', `/TimingIntegration/${item.path}`, { ...s.ids, carId: s.cars[car], ...item.body });
        if (res.status === 200) break;
        if (res.status < 500 || Date.now() - started > 60_000) throw new Error(`${item.path} answered ${res.status}: ${JSON.stringify(res.body)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      onEach?.();
    }
  }

  test('when the generated client updates a run, a lap, a sector and a speed trap, then each answer is the entity addressed', async () => {
    const m = await stack.member('editor');
    const s = await session(m, 1);
    const at = { ...s.ids, carId: s.cars[0] as string, runIndex: 0 };
    const run = await m.client.updateTimingRun({ ...at, driverId: s.drivers[0], pitOutTime: '2026-04-12T14:00:00+02:00' });
    expect(run.statusCode).toBe(200);
    expect(run.returnValue?.Parameters).toMatchObject({ Name: 'Run 1', DriverId: s.drivers[0], PitOutTime: '2026-04-12T12:00:00.000Z' });
    const lap = await m.client.updateTimingLap({ ...at, stintLapNumber: 0, properties: [{ name: 'LapTime', value: '101.5' }] });
    expect(lap.returnValue?.Parameters).toMatchObject({ Name: 'Out Lap', StintLapNumber: 0, LapTime: 101.5 });
    const sector = await m.client.updateTimingSector({ ...at, stintLapNumber: 0, sectorId: s.sectors[2] as string });
    expect(sector.returnValue?.Parameters).toMatchObject({ Name: 'S3', TrackSectorDefinitionId: s.sectors[2] });
    const trap = await m.client.updateTimingSpeedTrap({ ...at, stintLapNumber: 0, speedTrapId: s.speedTraps[1] as string });
    expect(trap.returnValue?.Parameters).toMatchObject({ Name: 'ST2', TrackSpeedTrapDefinitionId: s.speedTraps[1] });
  });

  test('when an update is refused at the edge or in the service, then the status says why and nothing is written', async () => {
    const m = await stack.member('editor');
    const s = await session(m, 1);
    const at = { ...s.ids, carId: s.cars[0], runIndex: 0 };
    const unknown = await send(m, 'PUT', '/TimingIntegration/Laps', { ...at, stintLapNumber: 1, pitInTime: '2026-04-12T12:00:00Z' });
    expect(unknown).toMatchObject({ status: 400, body: { errors: { pitInTime: ['is not a field of /TimingIntegration/Laps: only null (the same as absent) is accepted'] } } });
    const missing = await send(m, 'PUT', '/TimingIntegration/Sectors', { ...at, stintLapNumber: 1 });
    expect(missing).toMatchObject({ status: 400, body: { errors: { sectorId: ['is required'] } } });
    const notEntered = await send(m, 'PUT', '/TimingIntegration/Runs', { ...at, carId: await create(m, 'Cars', '') });
    expect(notEntered).toMatchObject({ status: 400, body: { errors: { carId: [expect.stringContaining('not entered')] } } });

    const outsider = await stack.member('admin');
    expect((await send({ ...outsider, accountId: m.accountId }, 'PUT', '/TimingIntegration/Runs', at)).status).toBe(404);
    const reader = await stack.member('reader', m.accountId);
    expect((await send(reader, 'PUT', '/TimingIntegration/Runs', at)).status).toBe(403);

    // The gateway's own refusals, as the OpenAPI document lists them for these PUTs.
    const raw = (method: string, headers: Record<string, string>, body?: string) =>
      fetch(`${stack.baseUrl}/TimingIntegration/Runs`, { method, headers: { ApiKey: m.apiKey, AccountId: m.accountId, ...headers }, body });
    const notJson = await raw('PUT', { 'Content-Type': 'text/plain' }, JSON.stringify(at));
    expect([notJson.status, (await readJson(notJson)).detail]).toEqual([415, 'Content-Type text/plain is not supported; send application/json']);
    const huge = JSON.stringify({ ...at, properties: [{ name: 'Notes', value: 'x'.repeat(1_100_000) }] });
    const tooLarge = await raw('PUT', { 'Content-Type': 'application/json' }, huge);
    expect([tooLarge.status, (await readJson(tooLarge)).detail]).toEqual([413, `The request body of ${Buffer.byteLength(huge)} bytes is larger than the limit of 1048576 bytes (1 MiB, BODY_LIMIT)`]);
    const wrongMethod = await raw('GET', {});
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'PUT']);
    expect((await send(m, 'GET', `/RunSheets?sessionId=${s.ids.sessionId}`)).body).toEqual([]);
  });

  test('when an Idempotency-Key is sent again with the same update, then the first answer comes back; with another update, then 422 and nothing changes', async () => {
    const m = await stack.member('editor');
    const s = await session(m, 1);
    const at = { ...s.ids, carId: s.cars[0], runIndex: 0, stintLapNumber: 1 };
    const put = (key: string, lapTime: string) =>
      fetch(`${stack.baseUrl}/TimingIntegration/Laps`, {
        method: 'PUT',
        headers: { ApiKey: m.apiKey, AccountId: m.accountId, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ ...at, properties: [{ name: 'LapTime', value: lapTime }] }),
      });
    const key = `lap-${randomUUID()}`;
    const first = await readJson(await put(key, '91.5'));
    const again = await put(key, '91.5');
    expect([again.status, (await readJson(again)).Id]).toEqual([200, first.Id]);
    const reused = await put(key, '99.9');
    expect(reused.status).toBe(422);
    expect(await readJson(reused)).toMatchObject({ type: 'urn:pitwall:problem:idempotency-key-reused' });
    expect((await send(m, 'GET', `/Laps/${first.Id as string}`)).body.Parameters).toMatchObject({ LapTime: 91.5 });
  });

  test('when four cars are fed at once through two instances, then every car holds exactly its feed, runs created by pit-ins included', async () => {
    const m = await stack.member('editor');
    const s = await session(m, 4);
    await Promise.all(s.cars.map((_, car) => play(m, s, car, feed(s, car, 2, 3))));
    for (const car of s.cars.keys()) expect(await stored(m, s, car)).toEqual(expected(s, car, 2, 3));
  });

  test('when the broker closes the connections of both timing-service instances in the middle of a feed, then neither exits, they consume every partition again, and the store holds the feed exactly (nothing lost, nothing doubled)', async () => {
    const m = await stack.member('editor');
    const s = await session(m, 3);
    const feeds = s.cars.map((_, car) => feed(s, car, 2, 4));
    const total = feeds.reduce((n, f) => n + f.length, 0);
    const instances = stack.stack.procs.filter((p) => p.name === 'timing-service');
    let done = 0;
    const closing = (async () => {
      while (done < total / 3) await new Promise((r) => setTimeout(r, 10));
      let closed = 0;
      for (const instance of instances) closed += await closeBrokerConnections(instance.child.pid as number, stack.prefix);
      return closed;
    })();
    await Promise.all(feeds.map((items, car) => play(m, s, car, items, () => void done++)));
    expect(await closing).toBeGreaterThanOrEqual(instances.length);
    expect(instances.map((p) => [p.child.exitCode, p.child.signalCode])).toEqual(instances.map(() => [null, null]));
    await until('every timing partition consumed again', async () => (await activeConsumerProcesses(`${stack.prefix}.svc.timing.p`)).size === DEFAULT_TIMING_PARTITIONS);
    for (const car of s.cars.keys()) expect(await stored(m, s, car)).toEqual(expected(s, car, 2, 4));
  });

  test("when interleaved updates of eight cars are sent at once to the partitions and the instance consuming them is killed -9 mid-feed, then the other instance takes over: each car's updates are applied in the order sent, none lost or doubled", async () => {
    const m = await stack.member('editor');
    const s = await session(m, 8);
    const runs = 3;
    const laps = 4;
    // Per car, in order: each run's pit out, each lap's time set twice (the second must win), the pit in, and only
    // then shouldCreateNextRun, which is refused unless that pit in was applied before it.
    const steps = (car: number): { type: TimingLevel; body: Record<string, unknown> }[] => {
      const out: { type: TimingLevel; body: Record<string, unknown> }[] = [];
      for (let run = 0; run < runs; run++) {
        out.push({ type: 'RunSheets', body: { runIndex: run, driverId: s.drivers[run % 2], pitOutSessionTime: run * 1000 + car } });
        for (let lap = 0; lap < laps; lap++) {
          for (const time of [50 + car + lap / 10, 90 + car + run + lap / 100]) out.push({ type: 'Laps', body: { runIndex: run, stintLapNumber: lap, properties: [{ name: 'LapTime', value: String(time) }] } });
        }
        if (run < runs - 1) {
          out.push({ type: 'RunSheets', body: { runIndex: run, pitInSessionTime: run * 1000 + 900 + car } });
          out.push({ type: 'RunSheets', body: { runIndex: run, shouldCreateNextRun: true } });
        }
      }
      return out;
    };
    const perCar = s.cars.map((_, car) => steps(car));
    // Round robin over the cars: step i of every car, then step i + 1 of every car, …
    const interleaved = Array.from({ length: steps(0).length }, (_, i) => perCar.map((items, car) => ({ car, ...(items[i] as (typeof items)[number]) }))).flat();
    const partitionOfCar = (car: number) => partitionService(SERVICES.timing, partitionOf(timingPartitionKey({ sessionId: s.ids.sessionId, carId: s.cars[car] as string }), DEFAULT_TIMING_PARTITIONS));

    const partitions = `${stack.prefix}.svc.timing.p`;
    const before = await activeConsumerProcesses(partitions);
    const instances = stack.stack.procs.filter((p) => p.name === 'timing-service');
    const victim = instances.find((p) => p.child.pid === [...before.values()][0]);
    const survivor = instances.find((p) => p !== victim);
    expect(before.size).toBe(DEFAULT_TIMING_PARTITIONS);
    expect(victim && survivor).toBeTruthy();

    const bus = new AmqpBus({ url: AMQP_URL, prefix: `${stack.prefix}.`, logger: pino({ level: 'silent' }) });
    try {
      const caller = { accountId: m.accountId, userId: m.userId, role: 'editor' as const };
      let answered = 0;
      let answeredAtKill: number | undefined;
      const exited = new Promise((resolve) => victim?.child.once('exit', resolve));
      // Sent as the gateway sends them (to the car's partition, a command id each), all at once, in this order. The
      // victim is killed on the answer that makes a third (not on a poll: the rest can be answered within one).
      const replies = interleaved.map(({ car, type, body }, i) =>
        bus
          .request(partitionOfCar(car), TIMING_COMMANDS.update, { caller, type, body: { ...s.ids, carId: s.cars[car], ...body } }, { timeoutMs: 120_000, headers: { commandId: `request:${randomUUID()}`, commandHash: `hash-${i}` } })
          .finally(() => {
            answered++;
            if (answeredAtKill === undefined && answered >= interleaved.length / 3) {
              answeredAtKill = answered;
              victim?.child.kill('SIGKILL');
            }
          }),
      );

      const outcomes = await Promise.allSettled(replies);
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      await exited;
      expect(victim?.child.signalCode).toBe('SIGKILL');
      expect(answeredAtKill).toBeLessThan(interleaved.length);
      const after = await activeConsumerProcesses(partitions);
      expect(after.size).toBe(DEFAULT_TIMING_PARTITIONS);
      expect(new Set(after.values())).toEqual(new Set([survivor?.child.pid]));
      for (const car of s.cars.keys()) {
        expect(await stored(m, s, car)).toEqual(
          Array.from({ length: runs }, (_, run) => ({
            name: `Run ${run + 1}`,
            driver: s.drivers[run % 2],
            pitIn: run < runs - 1 ? run * 1000 + 900 + car : undefined,
            pitOut: run * 1000 + car,
            laps: Array.from({ length: laps }, (_, lap) => ({ n: lap, time: 90 + car + run + lap / 100, sectors: [], traps: [] })),
          })),
        );
      }
    } finally {
      await bus.close();
    }
  });

  test('when a timing-service process is killed -9 in the middle of a feed and another is started, then the feed completes and the store holds it exactly (nothing lost, nothing doubled)', async () => {
    const m = await stack.member('editor');
    const s = await session(m, 3);
    const feeds = s.cars.map((_, car) => feed(s, car, 3, 4));
    const total = feeds.reduce((n, f) => n + f.length, 0);
    let done = 0;
    let replacement: ChildProcess | undefined;
    const victims = stack.stack.procs.filter((p) => p.name === 'timing-service');
    const kill = (async () => {
      while (done < total / 3) await new Promise((r) => setTimeout(r, 10));
      for (const victim of victims) victim.child.kill('SIGKILL');
      replacement = await startTimingService(stack);
    })();
    try {
      await Promise.all(feeds.map((items, car) => play(m, s, car, items, () => void done++)));
      await kill;
      expect(victims.every((v) => v.child.signalCode === 'SIGKILL')).toBe(true);
      for (const car of s.cars.keys()) expect(await stored(m, s, car)).toEqual(expected(s, car, 3, 4));
    } finally {
      replacement?.kill('SIGTERM');
    }
  });
});

/** Starts one more timing-service process on the stack's bus and waits until it is ready. */
async function startTimingService(stack: DistributedStack): Promise<ChildProcess> {
  const healthPort = await freePort();
  const child = spawn(process.execPath, [path.join(__dirname, '..', '..', '..', 'dist', 'apps', 'timing-service', 'main.js')], {
    env: { ...process.env, AMQP_URL, BUS_PREFIX: `${stack.prefix}.`, HEALTH_PORT: String(healthPort), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (const until = Date.now() + 30_000; Date.now() < until; ) {
    const ready = await fetch(`http://127.0.0.1:${healthPort}/health/ready`).then((r) => r.ok).catch(() => false);
    if (ready) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the replacement timing-service did not get ready');
}
