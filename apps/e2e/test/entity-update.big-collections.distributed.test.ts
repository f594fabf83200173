import pino from 'pino';
import { AmqpBus } from '@pitwall/bus';
import { uniquePrefix } from '@pitwall/testing';
import type { EntityChangedEvent } from '@pitwall/contracts';
import { AMQP_URL, DistributedStack } from './support/distributed';
import { Api, EntityFactory, updates } from './support/entities';

// A big collection update is written set-based; its events still go out one per item, in item order.
let stack: DistributedStack;
let bus: AmqpBus;
let api: Api;
let factory: EntityFactory;
const received: { routingKey: string; payload: EntityChangedEvent }[] = [];

beforeAll(async () => {
  // How fast the write is, is the bench's question (tools/bench/bigwrites.bench.ts); on a machine shared by many test
  // runs the test must not turn into a 504, so the gateway waits longer than its default 10 s. Only the apps the write
  // passes through: the other three would add nothing but their start.
  stack = await DistributedStack.start({ apps: ['entity-service', 'gateway'], env: { BUS_TIMEOUT_MS: '60000' } });
  bus = new AmqpBus({ url: AMQP_URL, prefix: `${stack.prefix}.`, logger: pino({ level: 'silent' }) });
  await bus.subscribe('entity.events', uniquePrefix('e2e-big-writes'), ['entity.#'], async (m) => void received.push({ routingKey: m.routingKey, payload: m.payload as EntityChangedEvent }));
  api = new Api(stack.baseUrl, await stack.member('admin'));
  factory = new EntityFactory(api);
});
afterAll(async () => {
  if (bus) {
    const { queues } = bus.declaredTopology();
    await bus.close();
    const amqp = await import('amqplib');
    const conn = await amqp.connect(AMQP_URL);
    const ch = await conn.createChannel();
    for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
    await conn.close();
  }
  await stack?.stop();
});

async function waitFor(check: () => boolean, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting for events');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('PUT /RunSheets/{id} with 10,000 CollectionUpdateModels items', () => {
  test('when one PUT adds 10,000 laps, then it answers 200, the laps list in StintLapNumber order, and each has its created event in item order after the run sheet\'s', async () => {
    const runSheet = await factory.build('RunSheets', { allParameters: false });
    const count = 10_000;
    // Item i is lap count-1-i: the list must come back ordered by StintLapNumber, the events in item order.
    const items = Array.from({ length: count }, (_, i) => ({ ParameterUpdates: updates({ StintLapNumber: String(count - 1 - i) }) }));
    const res = await api.update('RunSheets', runSheet.entity.Id, { CollectionUpdateModels: { Laps: items } });
    expect(res.status).toBe(200);

    const laps = (await api.list('Laps', { runSheetId: runSheet.entity.Id }, 'StintLapNumber')).body as { Id: string; Parameters: { StintLapNumber: number } }[];
    expect(laps.map((l) => l.Parameters.StintLapNumber)).toEqual(Array.from({ length: count }, (_, i) => i));

    const lapNumber = new Map(laps.map((l) => [l.Id, l.Parameters.StintLapNumber]));
    // Delivery is at least once (docs/events.md): a retry may repeat an event, so each event counts at its first arrival.
    const firstArrivals = () => {
      const seen = new Set<string>();
      return received.filter((e) => {
        const key = `${e.routingKey}:${e.payload.entityId}`;
        if (seen.has(key) || (e.payload.entityId !== runSheet.entity.Id && e.payload.parentIds['runSheetId'] !== runSheet.entity.Id)) return false;
        seen.add(key);
        return true;
      });
    };
    await waitFor(() => firstArrivals().length >= count + 2, 90_000);
    const forIt = firstArrivals();
    expect(forIt).toHaveLength(count + 2);
    expect(forIt[0]?.routingKey).toBe('entity.RunSheet.created');
    expect(forIt[1]?.routingKey).toBe('entity.RunSheet.updated');
    const lapEvents = forIt.slice(2);
    expect(new Set(lapEvents.map((e) => e.routingKey))).toEqual(new Set(['entity.Lap.created']));
    expect(lapEvents.map((e) => lapNumber.get(e.payload.entityId))).toEqual(items.map((_, i) => count - 1 - i));
  }, 180_000);
});
