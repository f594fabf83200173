import { randomUUID } from 'node:crypto';
import { ENTITY_COMMANDS, SERVICES, type CallerContext } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';

type Entity = { Id: string; Parameters: Record<string, unknown> };

describe('entity.update with LastModifiedTimeMaxAllowedValue (in-process, real PostgreSQL)', () => {
  let stack: InProcessStack;
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService);
  });
  afterAll(() => stack.stop());

  const name = (value: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: value }] });
  const update = (id: string, stamp: string, value: string) =>
    stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.update, { caller, type: 'Championships', id, body: { LastModifiedTimeMaxAllowedValue: stamp, ...name(value) } });
  const read = async (id: string) => (await stack.bus.requestEncoded(SERVICES.entity, ENTITY_COMMANDS.get, { caller, type: 'Championships', id })).parse() as Entity;

  test('when the stamp is older than the last write, then it is a 409 naming the field and nothing is written', async () => {
    const created = await stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type: 'Championships', parentIds: {}, body: name('Before') });
    const stale = new Date(Date.now() - 60_000).toISOString();

    await expect(update(created.Id, stale, 'Stale')).rejects.toMatchObject({ status: 409, message: expect.stringContaining('after LastModifiedTimeMaxAllowedValue') });
    expect((await read(created.Id)).Parameters['Name']).toBe('Before');
  });

  test('when the stamp is at or after the last write, then the update is applied, and the same stamp is stale once it is', async () => {
    const created = await stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type: 'Championships', parentIds: {}, body: name('One') });
    // A second before the update: a client that read the championship then, and writes after this update.
    const readBefore = new Date(Date.now() - 1000).toISOString();
    const stamp = new Date(Date.now() + 60_000).toISOString();
    expect((await update(created.Id, stamp, 'Two')).Parameters['Name']).toBe('Two');

    await expect(update(created.Id, readBefore, 'Three')).rejects.toMatchObject({ status: 409 });
    expect((await read(created.Id)).Parameters['Name']).toBe('Two');
  });
});
