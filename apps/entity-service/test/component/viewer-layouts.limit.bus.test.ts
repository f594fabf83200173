import { randomUUID } from 'node:crypto';
import { ENTITY_COMMANDS, SERVICES, type CallerContext } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';

type Entity = { Id: string; Parameters: Record<string, unknown> };

describe('entity.create of ViewerLayouts under MAX_VIEWER_LAYOUT_LENGTH and MAX_VIEWER_LAYOUTS set in the environment (in-process, real PostgreSQL)', () => {
  let stack: InProcessStack;
  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService, { MAX_VIEWER_LAYOUT_LENGTH: '20', MAX_VIEWER_LAYOUTS: '2' });
  });
  afterAll(() => stack.stop());

  const create = (name: string, layout: string, by = caller) =>
    stack.bus.request<Entity>(SERVICES.entity, ENTITY_COMMANDS.create, { caller: by, type: 'ViewerLayouts', parentIds: {}, body: { ParameterUpdates: [{ Name: 'Name', Value: name }, { Name: 'Layout', Value: layout }] } });

  test('when a Layout is longer than the variable allows, then the create is a 400 naming it; one as long is saved', async () => {
    await create('short', 'v=1&ch=Ground%20Spee');
    await expect(create('long', 'v=1&ch=Ground%20Speed')).rejects.toMatchObject({ status: 400, errors: { Layout: ['must be at most 20 characters (MAX_VIEWER_LAYOUT_LENGTH), not 21'] } });
  });

  test('when the account holds as many layouts as MAX_VIEWER_LAYOUTS allows, then the next create is a 409 naming it', async () => {
    const editor: CallerContext = { ...caller, accountId: randomUUID() };
    await create('first', 'v=1', editor);
    await create('second', 'v=1', editor);
    await expect(create('third', 'v=1', editor)).rejects.toMatchObject({ status: 409, message: 'The account already has 2 viewer layouts, the most it may hold (MAX_VIEWER_LAYOUTS is 2): delete one first' });
  });

  test('when MAX_VIEWER_LAYOUT_LENGTH is set above 32,768 (the longest link the viewer reads), then the service does not start, naming it', async () => {
    const other = await startInProcessStack();
    try {
      await expect(other.start(entityService, { MAX_VIEWER_LAYOUT_LENGTH: '32769' })).rejects.toThrow(/MAX_VIEWER_LAYOUT_LENGTH: must be a whole number from 1 to 32768/);
    } finally {
      await other.stop();
    }
  });
});
