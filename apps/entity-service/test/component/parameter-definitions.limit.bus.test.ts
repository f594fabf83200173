import { randomUUID } from 'node:crypto';
import { ENTITY_COMMANDS, SERVICES, type CallerContext } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';

type Entity = { Id: string; Parameters: Record<string, unknown> };

// Every request of an account reads all its parameter definitions, and an entity read in full writes each of its type's.
describe('entity.create of ParameterDefinitions under MAX_PARAMETER_DEFINITIONS set in the environment (in-process, real PostgreSQL)', () => {
  let stack: InProcessStack;
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService, { MAX_PARAMETER_DEFINITIONS: '2' });
  });
  afterAll(() => stack.stop());

  const create = (type: string, name: string) =>
    stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.create, {
      caller,
      type: 'ParameterDefinitions',
      parentIds: {},
      body: { ParameterUpdates: [{ Name: 'EntityType', Value: type }, { Name: 'Name', Value: name }, { Name: 'ParameterType', Value: 'Text' }] },
    });
  const definitions = () => stack.bus.request<Entity[]>(SERVICES.entity, ENTITY_COMMANDS.list, { caller, type: 'ParameterDefinitions', parentIds: {} });

  test('when the account holds as many as the variable allows (all types together), then the next create is a 409 naming it and nothing is created; one deleted makes room', async () => {
    const first = await create('Laps', 'Comment');
    await create('Drivers', 'Nickname');
    await expect(create('Cars', 'Livery')).rejects.toMatchObject({ status: 409, message: 'The account already has 2 parameter definitions, the most it may hold (MAX_PARAMETER_DEFINITIONS is 2): delete one first' });
    expect((await definitions()).map((d) => d.Parameters['Name']).sort()).toEqual(['Comment', 'Nickname']);
    await stack.bus.request(SERVICES.entity, ENTITY_COMMANDS.delete, { caller, type: 'ParameterDefinitions', id: first.Id });
    expect((await create('Cars', 'Livery')).Parameters['Name']).toBe('Livery');
  });
});
