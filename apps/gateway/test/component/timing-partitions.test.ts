import { randomUUID } from 'node:crypto';
import { InProcessBus, EncodedJson } from '@pitwall/bus';
import { SERVICES, TIMING_COMMANDS, partitionOf, partitionService, timingPartitionKey } from '@pitwall/contracts';
import { createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { authHeaders, fakeAuth, send } from '../support/gateway-harness';

// PUT /TimingIntegration/* goes to the timing-service partition its (session, car) hashes to, so one car's updates
// always reach one queue (docs/timing.md#ordering).
describe('PUT /TimingIntegration/* with timing partitions', () => {
  const partitions = 4;
  const arrived: { queue: string; carId: string }[] = [];
  const bodies: Record<string, unknown>[] = [];
  let bus: InProcessBus;
  let http: HttpEntryPoint;
  beforeAll(async () => {
    bus = new InProcessBus({ logger: createLogger('gateway-test', 'silent') });
    for (let i = 0; i < partitions; i++) {
      const queue = partitionService(SERVICES.timing, i);
      await bus.serve(queue, async (request) => {
        expect(request.type).toBe(TIMING_COMMANDS.update);
        const body = (request.payload as { body: Record<string, unknown> & { carId: string } }).body;
        arrived.push({ queue, carId: body.carId });
        bodies.push(body);
        return new EncodedJson(Buffer.from('{}'), {});
      });
    }
    http = await listen(buildGateway({ bus, auth: fakeAuth, logger: createLogger('gateway-test', 'silent'), partitions: { [SERVICES.timing]: partitions } }), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await http.stop();
    await bus.close();
  });

  test("when updates of several cars are sent, then each goes to its car's partition queue, every time the same one", async () => {
    const ids = { accountId: authHeaders.AccountId, championshipId: randomUUID(), eventId: randomUUID(), sessionId: randomUUID() };
    const cars = Array.from({ length: 8 }, () => randomUUID().toUpperCase());
    for (const round of [0, 1]) {
      for (const carId of cars) {
        const res = await send(http.address, 'PUT', '/TimingIntegration/Laps', { headers: { ...authHeaders, 'Content-Type': 'application/json' }, body: JSON.stringify({ ...ids, carId, runIndex: 0, stintLapNumber: round }) });
        expect(res.status).toBe(200);
      }
    }

    // Sent upper-cased, the car ids travel lower-cased (GUIDs compare case-insensitively).
    const expected = cars.map((carId) => ({ queue: partitionService(SERVICES.timing, partitionOf(timingPartitionKey({ sessionId: ids.sessionId, carId }), partitions)), carId: carId.toLowerCase() }));
    expect(arrived).toEqual([...expected, ...expected]);
    // The key is case-insensitive (GUIDs): upper-case car ids land where their lower-case form hashes.
    expect(partitionOf(timingPartitionKey({ sessionId: ids.sessionId, carId: cars[0] as string }), partitions)).toBe(partitionOf(`${ids.sessionId}:${(cars[0] as string).toLowerCase()}`, partitions));
    expect(new Set(arrived.map((a) => a.queue)).size).toBeGreaterThan(1);
  });

  test('when a body carries the other endpoints\' fields and properties as null (one client model for the four), then it is taken as if they were absent; set to a value, they are 400 naming each', async () => {
    const ids = { accountId: authHeaders.AccountId, championshipId: randomUUID(), eventId: randomUUID(), sessionId: randomUUID(), carId: randomUUID(), runIndex: 0 };
    const all = { stintLapNumber: null, sectorId: null, speedTrapId: null, pitInTime: null, pitOutTime: null, pitInSessionTime: null, pitOutSessionTime: null, shouldCreateNextRun: null, driverId: null, properties: null };
    const put = (path: string, body: unknown) => send(http.address, 'PUT', path, { headers: { ...authHeaders, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const own = { Runs: {}, Laps: { stintLapNumber: 1 }, Sectors: { stintLapNumber: 1, sectorId: randomUUID() }, SpeedTraps: { stintLapNumber: 1, speedTrapId: randomUUID() } };
    for (const [path, fields] of Object.entries(own)) {
      bodies.length = 0;
      const res = await put(`/TimingIntegration/${path}`, { ...all, ...ids, ...fields });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      // What reaches the timing-service has no null field: its own fields only.
      expect(bodies).toEqual([{ ...ids, ...fields }]);
    }

    const refused = await put('/TimingIntegration/Laps', { ...ids, stintLapNumber: 1, pitInTime: '2026-04-12T12:00:00Z', sectorId: randomUUID(), properties: null });
    expect(refused.status).toBe(400);
    const errors = (JSON.parse(refused.body) as { errors: Record<string, string[]> }).errors;
    expect(errors).toEqual({
      pitInTime: ['is not a field of /TimingIntegration/Laps: only null (the same as absent) is accepted'],
      sectorId: ['is not a field of /TimingIntegration/Laps: only null (the same as absent) is accepted'],
    });
  });

  test('when the gateway counts more partitions than the timing-service serves, then an update hashed to a queue nobody declared is 503 at once', async () => {
    const wider = await listen(buildGateway({ bus, auth: fakeAuth, logger: createLogger('gateway-test', 'silent'), partitions: { [SERVICES.timing]: 64 } }), 0, '127.0.0.1');
    try {
      const sessionId = randomUUID();
      let carId = randomUUID();
      while (partitionOf(timingPartitionKey({ sessionId, carId }), 64) < partitions) carId = randomUUID();
      const body = { accountId: authHeaders.AccountId, championshipId: randomUUID(), eventId: randomUUID(), sessionId, carId, runIndex: 0 };

      const res = await send(wider.address, 'PUT', '/TimingIntegration/Runs', { headers: { ...authHeaders, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toContain('application/problem+json');
    } finally {
      await wider.stop();
    }
  });
});
