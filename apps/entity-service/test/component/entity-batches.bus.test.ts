import { randomUUID } from 'node:crypto';
import type { BusEvent } from '@pitwall/bus';
import { ENTITY_COMMANDS, EXCHANGES, SERVICES, type CallerContext, type EntityChangedEvent, type EntityUpdateManyOutcome } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';

interface Entity {
  Id: string;
  Parameters: Record<string, unknown>;
}

/**
 * entity.getMany and entity.updateMany: the commands another service sends to read or write many entities of one type
 * at once (the simulation-service's Trigger of 1,000 setups), each item answered on its own.
 */
describe('entity.getMany and entity.updateMany through the bus', () => {
  let stack: InProcessStack;
  const events: BusEvent[] = [];

  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService);
    await stack.bus.subscribe(EXCHANGES.entityEvents, `test.entity-batches.${randomUUID()}`, ['#'], async (e) => void events.push(e));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const caller = (role: CallerContext['role'] = 'editor', accountId: string = randomUUID()): CallerContext => ({ accountId, userId: randomUUID(), role });
  const command = () => ({ headers: { commandId: `request:${randomUUID()}`, commandHash: randomUUID() } });
  const championship = async (who: CallerContext, name: string, year = '2026'): Promise<string> =>
    (await stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.create, { caller: who, type: 'Championships', parentIds: {}, body: { ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'Year', Value: year }] } })).Id;
  const get = (who: CallerContext, id: string) => stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.get, { caller: who, type: 'Championships', id });
  const getMany = (who: CallerContext, ids: string[], type = 'Championships') => stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.getMany, { caller: who, type, ids });
  const updateMany = (who: CallerContext, items: { id: string; parameterUpdates: { Name: string; Value: string | null }[] }[], sent = command()) =>
    stack.bus.request<EntityUpdateManyOutcome[]>(SERVICES.entity, ENTITY_COMMANDS.updateMany, { caller: who, type: 'Championships', items }, sent);
  const updatedEventsOf = (id: string) => events.filter((e) => (e.payload as EntityChangedEvent).entityId === id && (e.payload as EntityChangedEvent).action === 'updated');

  test('when many ids are asked for, then the readable ones of the type come back and missing, foreign and other-type ids are left out', async () => {
    const me = caller();
    const a = await championship(me, 'A');
    const b = await championship(me, 'B');
    const foreign = await championship(caller(), 'Not mine');
    const car = (await stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.create, { caller: me, type: 'Cars', parentIds: {}, body: { ParameterUpdates: [{ Name: 'Name', Value: 'Car 7' }] } })).Id;

    const found = await getMany(me, [a, b.toUpperCase(), foreign, car, randomUUID(), a]);

    expect(found.map((e) => e.Id).sort()).toEqual([a, b].sort());
    // Rendered as entity.get renders one.
    expect(found.find((e) => e.Id === a)).toEqual(await get(me, a));
    expect(await getMany(me, [])).toEqual([]);
  });

  test('when many entities are updated, then each item is applied or refused on its own, in order, and only real changes are events', async () => {
    const me = caller();
    const a = await championship(me, 'A');
    const b = await championship(me, 'B');
    const unchanged = await championship(me, 'Same');
    const missing = randomUUID();

    const outcomes = await updateMany(me, [
      { id: a, parameterUpdates: [{ Name: 'Year', Value: '2027' }] },
      { id: missing, parameterUpdates: [{ Name: 'Year', Value: '2027' }] },
      { id: b, parameterUpdates: [{ Name: 'Year', Value: 'next year' }] },
      { id: unchanged, parameterUpdates: [{ Name: 'Name', Value: 'Same' }] },
      { id: b, parameterUpdates: [{ Name: 'Description', Value: 'second item of b' }] },
    ]);

    expect(outcomes.map((o) => [o.id, o.ok, o.ok ? undefined : o.status])).toEqual([
      [a, true, undefined],
      [missing, false, 404],
      [b, false, 400],
      [unchanged, true, undefined],
      [b, true, undefined],
    ]);
    expect(outcomes[2]).toMatchObject({ errors: { 'ParameterUpdates[0].Value': [expect.any(String)] } });
    expect((await get(me, a)).Parameters['Year']).toBe(2027);
    expect((await get(me, b)).Parameters).toMatchObject({ Year: 2026, Description: 'second item of b' });
    await waitFor(() => updatedEventsOf(a).length > 0 && updatedEventsOf(b).length > 0);
    expect((updatedEventsOf(a)[0]?.payload as EntityChangedEvent).changedParameters).toEqual(['Year']);
    expect(updatedEventsOf(unchanged)).toHaveLength(0);
  });

  test('when the same updateMany command is delivered twice, then the repeat answers as the first and writes nothing', async () => {
    const me = caller();
    const a = await championship(me, 'A');
    const sent = command();

    const first = await updateMany(me, [{ id: a, parameterUpdates: [{ Name: 'Year', Value: '2030' }] }], sent);
    const modified = (await get(me, a)).Parameters;
    const second = await updateMany(me, [{ id: a, parameterUpdates: [{ Name: 'Year', Value: '2030' }] }], sent);

    expect(second).toEqual(first);
    expect((await get(me, a)).Parameters).toEqual(modified);
    await waitFor(() => updatedEventsOf(a).length > 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(updatedEventsOf(a)).toHaveLength(1);
  });

  test('when a reader sends updateMany, then it is refused (403) and nothing changes', async () => {
    const me = caller();
    const a = await championship(me, 'A');

    await expect(updateMany(caller('reader', me.accountId), [{ id: a, parameterUpdates: [{ Name: 'Year', Value: '1999' }] }])).rejects.toMatchObject({ status: 403 });
    expect((await get(me, a)).Parameters['Year']).toBe(2026);
  });

  test('when the message is not the command\'s shape or names an unknown type, then it is a 400/404 and nothing changes', async () => {
    const me = caller();
    await expect(stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.updateMany, { caller: me, type: 'Championships', items: 'all of them' })).rejects.toMatchObject({ status: 400 });
    await expect(stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.getMany, { caller: me, type: 'Championships', ids: ['not-a-guid'] })).rejects.toMatchObject({ status: 400 });
    await expect(getMany(me, [randomUUID()], 'Spaceships')).rejects.toMatchObject({ status: 404 });
  });
});

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
