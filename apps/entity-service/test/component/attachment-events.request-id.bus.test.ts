import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import type { BusEvent } from '@pitwall/bus';
import { ATTACHMENT_COMMANDS, ENTITY_COMMANDS, EXCHANGES, SERVICES, type CallerContext } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';

/** docs/api.md: the request id travels to the events a request causes; a subscriber reads it in the `requestId` header. */
describe('attachment events carry the request id of the command that caused them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-attachment-events-'));
  const blobDir = join(dir, 'blobs');
  const blobs = new FilesystemBlobStore(blobDir);
  let stack: InProcessStack;
  const events: BusEvent[] = [];

  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService, { BLOB_DIR: blobDir, URL_SIGNING_SECRET: 'request-id-test-secret', PUBLIC_BASE_URL: 'http://gateway.test' });
    await stack.bus.subscribe(EXCHANGES.entityEvents, `test.attachment-events.${randomUUID()}`, ['attachment.*'], async (e) => void events.push(e));
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const caller: CallerContext = { accountId: randomUUID(), userId: randomUUID(), role: 'editor' };
  const sent = (requestId: string) => ({ headers: { requestId } });
  const eventOf = async (routingKey: string, attachedFileId: string): Promise<BusEvent> => {
    const found = () => events.find((e) => e.routingKey === routingKey && (e.payload as { attachedFileId?: string }).attachedFileId === attachedFileId);
    for (let i = 0; i < 100 && !found(); i++) await new Promise((r) => setTimeout(r, 50));
    return found() as BusEvent;
  };

  test('when a file is finalised and then deleted, then attachment.available and attachment.deleted each carry their request id', async () => {
    const { Id: id } = await stack.bus.request<{ Id: string }>(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type: 'Championships', parentIds: {}, body: { ParameterUpdates: [] } });
    const { AttachedFileId } = await stack.bus.request<{ AttachedFileId: string }>(SERVICES.entity, ATTACHMENT_COMMANDS.prepare, { caller, type: 'Championships', id, body: { FileName: 'outing.ld' } }, sent('req-prepare'));
    await stack.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.uploaded, { attachedFileId: AttachedFileId, blob: await blobs.putStream([randomBytes(1024)]) });
    await stack.bus.request(
      SERVICES.entity,
      ATTACHMENT_COMMANDS.update,
      { caller, type: 'Championships', id, attachedFileId: AttachedFileId, body: { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] } },
      sent('req-finalise'),
    );
    expect((await eventOf('attachment.available', AttachedFileId))?.headers.requestId).toBe('req-finalise');

    await stack.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.delete, { caller, type: 'Championships', id, attachedFileId: AttachedFileId }, sent('req-delete'));
    expect((await eventOf('attachment.deleted', AttachedFileId))?.headers.requestId).toBe('req-delete');
  });
});
