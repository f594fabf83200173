import { randomUUID } from 'node:crypto';
import { ENTITY_COMMANDS, SERVICES, type CallerContext } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';

type Entity = { Id: string; Parameters: Record<string, unknown> };

describe('entity.create of MathChannels under MAX_MATH_CHANNELS set in the environment (in-process, real PostgreSQL)', () => {
  let stack: InProcessStack;
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService, { MAX_MATH_CHANNELS: '1' });
  });
  afterAll(() => stack.stop());

  const create = (name: string) =>
    stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type: 'MathChannels', parentIds: {}, body: { ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'Expression', Value: '1' }] } });

  test('when the account holds as many as the variable allows, then the next create is a 409 naming it', async () => {
    await create('one');
    await expect(create('two')).rejects.toMatchObject({ status: 409, message: 'The account already has 1 math channel, the most it may hold (MAX_MATH_CHANNELS is 1): delete one first' });
  });
});
