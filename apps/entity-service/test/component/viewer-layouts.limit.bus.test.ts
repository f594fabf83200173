import { randomUUID } from 'node:crypto';
import { ENTITY_COMMANDS, SERVICES, type CallerContext } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';

type Entity = { Id: string; Parameters: Record<string, unknown> };

describe('entity.create of ViewerLayouts under MAX_VIEWER_LAYOUT_LENGTH set in the environment (in-process, real PostgreSQL)', () => {
  let stack: InProcessStack;
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService, { MAX_VIEWER_LAYOUT_LENGTH: '20' });
  });
  afterAll(() => stack.stop());

  const create = (name: string, layout: string) =>
    stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type: 'ViewerLayouts', parentIds: {}, body: { ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'Layout', Value: layout }] } });

  test('when a Layout is longer than the variable allows, then the create is a 400 naming it; one as long is saved', async () => {
    await create('short', 'v=1&ch=Ground%20Spee');
    await expect(create('long', 'v=1&ch=Ground%20Speed')).rejects.toMatchObject({ status: 400, errors: { Layout: ['must be at most 20 characters (MAX_VIEWER_LAYOUT_LENGTH), not 21'] } });
  });
});
