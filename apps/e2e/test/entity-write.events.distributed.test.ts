import pino from 'pino';
import { AmqpBus } from '@pitwall/bus';
import { uniquePrefix } from '@pitwall/testing';
import type { EntityChangedEvent } from '@pitwall/contracts';
import { AMQP_URL, DistributedStack, type Member } from './support/distributed';
import { Api, EntityFactory, updates } from './support/entities';

// Events arrive on the real broker: the test subscribes with the stack's prefix like any other consumer would.
let stack: DistributedStack;
let bus: AmqpBus;
let admin: Member;
let api: Api;
let factory: EntityFactory;
const received: { routingKey: string; payload: EntityChangedEvent; requestId?: string }[] = [];

beforeAll(async () => {
  stack = await DistributedStack.shared();
  bus = new AmqpBus({ url: AMQP_URL, prefix: `${stack.prefix}.`, logger: pino({ level: 'silent' }) });
  await bus.subscribe('entity.events', uniquePrefix('e2e-entity-events'), ['entity.#'], async (m) => {
    received.push({ routingKey: m.routingKey, payload: m.payload as EntityChangedEvent, requestId: m.headers.requestId });
  });
  admin = await stack.member('admin');
  api = new Api(stack.baseUrl, admin);
  factory = new EntityFactory(api);
});
afterAll(async () => {
  if (bus) {
    const { queues } = bus.declaredTopology();
    await bus.close();
    await deleteQueues(queues);
  }
  await stack?.stop();
});

async function deleteQueues(queues: string[]): Promise<void> {
  const amqp = await import('amqplib');
  const conn = await amqp.connect(AMQP_URL);
  const ch = await conn.createChannel();
  for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
  await conn.close();
}

/** Waits until an event for `entityId` with `action` has arrived (the only waiting in the suite, with a deadline). */
async function eventFor(entityId: string, action: EntityChangedEvent['action'], deadlineMs = 5000) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const found = received.find((e) => e.payload.entityId === entityId && e.payload.action === action);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no ${action} event for ${entityId}; got ${JSON.stringify(received.map((e) => e.routingKey))}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('entity.events on the bus', () => {
  test('when a championship is created, updated and deleted, then entity.Championship.created/updated/deleted arrive with account, id and changed parameters', async () => {
    const created = await api.create('Championships', {}, { ParameterUpdates: updates({ Name: 'WEC', Year: '2026' }) });
    const id = created.body.Id as string;
    await api.update('Championships', id, { ParameterUpdates: updates({ Year: '2027' }) });
    await api.delete('Championships', id);

    const c = await eventFor(id, 'created');
    expect(c.routingKey).toBe('entity.Championship.created');
    expect(c.payload).toMatchObject({ accountId: admin.accountId, entityType: 'Championship', entityId: id, parentIds: {} });
    expect(c.payload.changedParameters.sort()).toEqual(['Name', 'Year']);
    expect(Date.parse(c.payload.occurredAt)).toBeGreaterThan(0);
    const u = await eventFor(id, 'updated');
    expect(u.routingKey).toBe('entity.Championship.updated');
    expect(u.payload).toMatchObject({ accountId: admin.accountId, entityId: id, changedParameters: ['Year'] });
    const d = await eventFor(id, 'deleted');
    expect(d.routingKey).toBe('entity.Championship.deleted');
    expect(d.payload).toMatchObject({ accountId: admin.accountId, entityId: id, changedParameters: [] });
    const order = received.filter((e) => e.payload.entityId === id).map((e) => e.payload.action);
    expect(order).toEqual(['created', 'updated', 'deleted']);
  });

  test('when a run sheet is created, then its event carries both parent ids', async () => {
    const runSheet = await factory.build('RunSheets', { allParameters: false });
    const e = await eventFor(runSheet.entity.Id, 'created');
    expect(e.routingKey).toBe('entity.RunSheet.created');
    expect(e.payload.parentIds).toEqual(runSheet.parentIds);
  });

  test('when a write is rejected (400, 404, 409), then nothing is published for it', async () => {
    const c = (await api.create('Championships', {}, { ParameterUpdates: updates({ Name: 'Stable' }) })).body;
    await eventFor(c.Id, 'created');
    const stamp = (await api.get('Championships', c.Id)).headers.get('x-last-modified-time') as string;
    await api.update('Championships', c.Id, { ParameterUpdates: updates({ Name: 'First' }) });
    await eventFor(c.Id, 'updated');
    expect((await api.update('Championships', c.Id, { ParameterUpdates: updates({ Year: 'soon' }) })).status).toBe(400);
    expect((await api.update('Championships', c.Id, { LastModifiedTimeMaxAllowedValue: stamp, ParameterUpdates: updates({ Name: 'Stale' }) })).status).toBe(409);
    expect((await api.create('Events', { championshipId: c.Id }, { ParameterUpdates: updates({ StartDate: 'tomorrow' }) })).status).toBe(400);
    const foreign = new Api(stack.baseUrl, await stack.member('admin'));
    expect((await foreign.delete('Championships', c.Id)).status).toBe(404);

    // A later accepted write is the marker: events of one publisher arrive in order, so anything published by the
    // rejected writes would have arrived before it.
    await api.update('Championships', c.Id, { ParameterUpdates: updates({ Name: 'Marker' }) });
    await waitFor(() => received.filter((e) => e.payload.entityId === c.Id && e.payload.action === 'updated').length === 2);
    const forIt = received.filter((e) => e.payload.entityId === c.Id || e.payload.parentIds['championshipId'] === c.Id);
    expect(forIt.map((e) => [e.payload.action, e.payload.changedParameters])).toEqual([
      ['created', ['Name']],
      ['updated', ['Name']],
      ['updated', ['Name']],
    ]);
  });
  test('when a write carries X-Request-Id, then its event carries it, and an update lists only the parameters whose value changed', async () => {
    const res = await fetch(`${stack.baseUrl}/Championships`, {
      method: 'POST',
      headers: { ApiKey: admin.apiKey, AccountId: admin.accountId, 'Content-Type': 'application/json', 'X-Request-Id': 'evt-trace-1' },
      body: JSON.stringify({ ParameterUpdates: updates({ Name: 'IMSA', Year: '2026' }) }),
    });
    const id = ((await res.json()) as { Id: string }).Id;
    expect((await eventFor(id, 'created')).requestId).toBe('evt-trace-1');
    await api.update('Championships', id, { ParameterUpdates: updates({ Name: 'IMSA', Year: '2027' }) });
    expect((await eventFor(id, 'updated')).payload.changedParameters).toEqual(['Year']);
  });
});

async function waitFor(check: () => boolean, deadlineMs = 5000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting for events');
    await new Promise((r) => setTimeout(r, 25));
  }
}
