import { randomUUID } from 'node:crypto';
import { ENTITY_COMMANDS, ENTITY_TIMING_BATCH_COMMAND, ENTITY_TIMING_COMMAND, OPERATIONS, type CommandMessage, ATTACHMENT_COMMANDS } from '@pitwall/contracts';
import type { BusRequest } from '@pitwall/bus';
import { AppError } from '@pitwall/service-kit';
import { dispatchCommands, type ServiceCommandHandlers } from '../../src/dispatch';

const caller = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' as const };
const request = (type: string, payload: unknown): BusRequest => ({ type, payload, headers: {} });

/** Handlers for every entity command that record what they were given. */
function recordingHandlers(seen: { type: string; message: unknown }[]): ServiceCommandHandlers<'entity'> {
  const record = (type: string) => async (message: unknown) => {
    seen.push({ type, message });
    return 'ok';
  };
  return {
    [ENTITY_COMMANDS.get]: record(ENTITY_COMMANDS.get),
    [ENTITY_COMMANDS.list]: record(ENTITY_COMMANDS.list),
    [ENTITY_COMMANDS.create]: record(ENTITY_COMMANDS.create),
    [ENTITY_COMMANDS.update]: record(ENTITY_COMMANDS.update),
    [ENTITY_COMMANDS.delete]: record(ENTITY_COMMANDS.delete),
    [ENTITY_COMMANDS.search]: record(ENTITY_COMMANDS.search),
    [ENTITY_COMMANDS.getMany]: record(ENTITY_COMMANDS.getMany),
    [ENTITY_COMMANDS.updateMany]: record(ENTITY_COMMANDS.updateMany),
    [ENTITY_TIMING_COMMAND]: record(ENTITY_TIMING_COMMAND),
    [ENTITY_TIMING_BATCH_COMMAND]: record(ENTITY_TIMING_BATCH_COMMAND),
    [ATTACHMENT_COMMANDS.dataset]: record(ATTACHMENT_COMMANDS.dataset),
    [ATTACHMENT_COMMANDS.datasetSectors]: record(ATTACHMENT_COMMANDS.datasetSectors),
    [ATTACHMENT_COMMANDS.datasetConstants]: record(ATTACHMENT_COMMANDS.datasetConstants),
    [ATTACHMENT_COMMANDS.prepare]: record(ATTACHMENT_COMMANDS.prepare),
    [ATTACHMENT_COMMANDS.list]: record(ATTACHMENT_COMMANDS.list),
    [ATTACHMENT_COMMANDS.update]: record(ATTACHMENT_COMMANDS.update),
    [ATTACHMENT_COMMANDS.delete]: record(ATTACHMENT_COMMANDS.delete),
    [ATTACHMENT_COMMANDS.uploadTarget]: record(ATTACHMENT_COMMANDS.uploadTarget),
    [ATTACHMENT_COMMANDS.uploaded]: record(ATTACHMENT_COMMANDS.uploaded),
    [ATTACHMENT_COMMANDS.download]: record(ATTACHMENT_COMMANDS.download),
  };
}

describe('dispatchCommands', () => {
  test('when a command the table routes to the service has no handler, then building the dispatch fails', () => {
    const handlers: Partial<ServiceCommandHandlers<'entity'>> = recordingHandlers([]);
    delete handlers[ENTITY_COMMANDS.search];
    expect(() => dispatchCommands('entity', handlers as ServiceCommandHandlers<'entity'>)).toThrow(/no handler for entity\.search/);
  });

  test('when the table routes nothing to a command, then its handler is not required', () => {
    const handlers: Partial<ServiceCommandHandlers<'entity'>> = recordingHandlers([]);
    delete handlers[ENTITY_COMMANDS.search];
    const withoutSearch = OPERATIONS.filter((op) => !('name' in op.target && op.target.name === ENTITY_COMMANDS.search));
    expect(() => dispatchCommands('entity', handlers as ServiceCommandHandlers<'entity'>, { operations: withoutSearch })).not.toThrow();
  });

  test('when a well-formed command arrives, then its handler gets the message', async () => {
    const seen: { type: string; message: unknown }[] = [];
    const dispatch = dispatchCommands('entity', recordingHandlers(seen));
    const message: CommandMessage<typeof ENTITY_COMMANDS.get> = { caller, type: 'Cars', id: randomUUID() };
    expect(await dispatch(request(ENTITY_COMMANDS.get, message))).toBe('ok');
    expect(seen).toEqual([{ type: ENTITY_COMMANDS.get, message }]);
  });

  test('when the envelope has the wrong shape, then it is a 400 naming the field and no handler runs', async () => {
    const seen: { type: string; message: unknown }[] = [];
    const dispatch = dispatchCommands('entity', recordingHandlers(seen));
    const err = await dispatch(request(ENTITY_COMMANDS.get, { caller, type: 'Cars', id: 'nope', extra: 1 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect(Object.keys((err as AppError).errors ?? {})).toEqual(expect.arrayContaining(['id', 'extra']));
    expect(seen).toEqual([]);
  });

  test('when a create body arrives, then only its being an object is checked, not its contents again', async () => {
    const seen: { type: string; message: unknown }[] = [];
    const dispatch = dispatchCommands('entity', recordingHandlers(seen));
    // The gateway bound and proved the body; a second strict CreateModel check would refuse this unbound spelling.
    const body = { parameterUpdates: [{ name: 'Name', value: 'GT3' }] };
    await dispatch(request(ENTITY_COMMANDS.create, { caller, type: 'Cars', parentIds: {}, body }));
    expect(seen[0]?.message).toMatchObject({ body });
    const notAnObject = await dispatch(request(ENTITY_COMMANDS.create, { caller, type: 'Cars', parentIds: {}, body: 'text' })).catch((e: unknown) => e);
    expect((notAnObject as AppError).status).toBe(400);
  });

  test('when an unknown type arrives, then it is a 400; extra handlers answer their own types', async () => {
    const dispatch = dispatchCommands('entity', recordingHandlers([]), { extra: { ping: async () => 'pong' } });
    expect(await dispatch(request('ping', {}))).toBe('pong');
    expect(((await dispatch(request('entity.nothing', {})).catch((e: unknown) => e)) as AppError).status).toBe(400);
  });
});
