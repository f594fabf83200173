import { randomUUID } from 'node:crypto';
import type { BusEvent } from '@pitwall/bus';
import { ACCOUNT_MEMBERS_ROUTING_KEY, ENTITY_COMMANDS, EXCHANGES, SERVICES, type CallerContext } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';

const editor = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'editor' });

describe('entity-service through the bus (in-process, real PostgreSQL)', () => {
  let stack: InProcessStack;
  let address: string;
  const events: BusEvent[] = [];
  beforeAll(async () => {
    stack = await startInProcessStack();
    address = (await stack.start(entityService)).address;
    await stack.bus.subscribe(EXCHANGES.entityEvents, 'test.entity-events', ['entity.#'], async (e) => void events.push(e));
  });
  afterAll(() => stack.stop());

  test('when a championship is created and read back, then the reply carries its parameters and its event is published with the request id', async () => {
    const caller = editor();
    const created = await stack.bus.request<{ Id: string; Parameters: unknown }>(
      SERVICES.entity,
      ENTITY_COMMANDS.create,
      { caller, type: 'Championships', parentIds: {}, body: { ParameterUpdates: [{ Name: 'Name', Value: 'Component Cup' }] } },
      { headers: { requestId: 'req-component-1' } },
    );
    expect(created.Parameters).toEqual({ Name: 'Component Cup', Year: null, Description: null });

    const read = await stack.bus.requestEncoded(SERVICES.entity, ENTITY_COMMANDS.get, { caller, type: 'Championships', id: created.Id });
    expect(read.parse()).toMatchObject({ Id: created.Id, Parameters: { Name: 'Component Cup' } });
    expect(await stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.list, { caller, type: 'Championships', parentIds: {} })).toEqual([expect.objectContaining({ Id: created.Id })]);

    await waitFor(() => events.some((e) => (e.payload as { accountId?: string }).accountId === caller.accountId));
    const event = events.find((e) => (e.payload as { accountId?: string }).accountId === caller.accountId) as BusEvent;
    expect(event.routingKey).toBe('entity.Championship.created');
    expect(event.headers.requestId).toBe('req-component-1');
  });

  test('when a message breaks its contract, then the service answers 400 naming the field', async () => {
    await expect(stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.get, { caller: editor(), type: 'Championships', id: 'not-a-guid' })).rejects.toMatchObject({
      status: 400,
      errors: { id: expect.any(Array) },
    });
  });

  test('when an entity of another account is asked for, then it is not found', async () => {
    const owner = editor();
    const created = await stack.bus.request<{ Id: string }>(SERVICES.entity, ENTITY_COMMANDS.create, { caller: owner, type: 'Championships', parentIds: {}, body: { ParameterUpdates: [] } });
    await expect(stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.get, { caller: editor(), type: 'Championships', id: created.Id })).rejects.toMatchObject({ status: 404 });
  });

  test("when a write names another account's entity in a reference, then it is 400 naming the value as not found and nothing is written", async () => {
    const owner = editor();
    const theirs = await stack.bus.request<{ Id: string }>(SERVICES.entity, ENTITY_COMMANDS.create, { caller: owner, type: 'CarManufacturers', parentIds: {}, body: { ParameterUpdates: [] } });
    const caller = editor();
    const mine = await stack.bus.request<{ Id: string }>(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type: 'CarManufacturers', parentIds: {}, body: { ParameterUpdates: [] } });
    const create = (id: string) =>
      stack.bus.request<{ Id: string; Parameters: Record<string, unknown> }>(SERVICES.entity, ENTITY_COMMANDS.create, {
        caller,
        type: 'CarModels',
        parentIds: {},
        body: { ParameterUpdates: [{ Name: 'CarManufacturerId', Value: id }] },
      });

    await expect(create(theirs.Id)).rejects.toMatchObject({
      status: 400,
      errors: { 'ParameterUpdates[0].Value': [`CarManufacturerId references CarManufacturer ${theirs.Id}, which was not found`] },
    });
    expect(await stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.list, { caller, type: 'CarModels', parentIds: {} })).toEqual([]);
    // The same write naming the caller's own manufacturer is accepted: the refusal was the account, not the shape.
    expect((await create(mine.Id)).Parameters['CarManufacturerId']).toBe(mine.Id);
  });

  test('when another producer sends a write of a read-only type (Users) on the bus, then it is a 403 with the reason', async () => {
    const caller = editor();
    await expect(stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type: 'Users', parentIds: {}, body: { ParameterUpdates: [] } })).rejects.toMatchObject({
      status: 403,
      message: expect.stringMatching(/read-only/),
    });
    await expect(stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.delete, { caller, type: 'Users', id: randomUUID() })).rejects.toMatchObject({ status: 403 });
  });

  test('when membership snapshots arrive out of order or twice, then the Users show the newest one only', async () => {
    const caller = editor();
    const [ann, bob] = [randomUUID(), randomUUID()];
    const member = (userId: string, name: string) => ({ userId, name, email: `${name}@example.com`, role: 'editor' });
    const snapshot = (version: number, members: unknown[]) => stack.bus.publish(EXCHANGES.authEvents, ACCOUNT_MEMBERS_ROUTING_KEY, { accountId: caller.accountId, version: String(version), members });
    const users = async () =>
      ((await stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.list, { caller, type: 'Users', parentIds: {} })) as { Parameters: { Name: string } }[]).map((u) => u.Parameters.Name).sort();

    await snapshot(10, [member(ann, 'ann'), member(bob, 'bob')]);
    await waitForAsync(async () => (await users()).length === 2);
    await snapshot(12, [member(bob, 'bob')]);
    await waitForAsync(async () => (await users()).join() === 'bob');
    // Older (a left-over published late) and repeated (a redelivery): neither brings ann back.
    await snapshot(11, [member(ann, 'ann'), member(bob, 'bob')]);
    await snapshot(12, [member(ann, 'ann'), member(bob, 'bob')]);
    // A newer one that renames bob arrives after both: once it shows, the two before it were handled too.
    await snapshot(13, [member(bob, 'robert')]);
    await waitForAsync(async () => (await users()).join() === 'robert');
    expect(await users()).toEqual(['robert']);
  });

  test('when its health endpoint is asked, then the database, the bus and the blob store are up', async () => {
    const ready = await fetch(`${address}/health/ready`);
    expect(await ready.json()).toEqual({ status: 'ready', dependencies: { database: 'up', bus: 'up', blobStore: 'up' } });
  });
});

async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function waitForAsync(condition: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
