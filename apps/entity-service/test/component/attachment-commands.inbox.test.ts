import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import type { BusEvent } from '@pitwall/bus';
import { ATTACHMENT_COMMANDS, ENTITY_COMMANDS, EXCHANGES, SERVICES, type CallerContext } from '@pitwall/contracts';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { entityService } from '../../src/definition';
import { testPool } from '@pitwall/db/testing';

interface Prepared {
  AttachedFileId: string;
  Url: string;
}
interface Listing {
  Id: string;
  Parameters: Record<string, unknown>;
  SignedURL: string | null;
}

/**
 * Attachment commands redelivered by the broker (the same command id and request hash, as the gateway sent them) take
 * effect once: the repeat answers as the first did and writes nothing.
 */
describe('attachment commands through the bus: a redelivered command takes effect once (inbox)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-attachment-inbox-'));
  const blobDir = join(dir, 'blobs');
  const blobs = new FilesystemBlobStore(blobDir);
  let stack: InProcessStack;
  let db: pg.Pool;
  const events: BusEvent[] = [];

  beforeAll(async () => {
    stack = await startInProcessStack();
    await stack.start(entityService, { BLOB_DIR: blobDir, URL_SIGNING_SECRET: 'inbox-test-secret', PUBLIC_BASE_URL: 'http://gateway.test' });
    await stack.bus.subscribe(EXCHANGES.entityEvents, `test.attachment-inbox.${randomUUID()}`, ['attachment.available'], async (e) => void events.push(e));
    db = testPool(stack.databaseUrl);
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const editor = (): CallerContext => ({ accountId: randomUUID(), userId: randomUUID(), role: 'editor' });
  /** The headers the gateway puts on a state-changing command; a redelivery carries the same. */
  const command = () => ({ headers: { commandId: `request:${randomUUID()}`, commandHash: randomUUID() } });

  async function championship(caller: CallerContext): Promise<string> {
    const created = await stack.bus.request<{ Id: string }>(SERVICES.entity, ENTITY_COMMANDS.create, { caller, type: 'Championships', parentIds: {}, body: { ParameterUpdates: [{ Name: 'Name', Value: 'Inbox Cup' }] } });
    return created.Id;
  }
  const recordsOf = async (entityId: string): Promise<string[]> =>
    (await db.query<{ id: string }>(`SELECT id FROM entity.attached_files WHERE entity_id = $1 ORDER BY id`, [entityId])).rows.map((r) => r.id);

  const prepare = (caller: CallerContext, id: string, sent = command()) =>
    stack.bus.request<Prepared>(SERVICES.entity, ATTACHMENT_COMMANDS.prepare, { caller, type: 'Championships', id, body: { FileName: 'outing.ld', AttachedFileGroupName: 'DataFile' } }, sent);
  const uploaded = async (attachedFileId: string, bytes: Buffer, sent = command()) => {
    const blob = await blobs.putStream([bytes]);
    return stack.bus.request<{ state: number }>(SERVICES.entity, ATTACHMENT_COMMANDS.uploaded, { attachedFileId, blob }, sent);
  };
  /** The finalise as the client sends it, refusing to overwrite a record modified after `notModifiedAfter`. */
  const finalise = (caller: CallerContext, id: string, attachedFileId: string, sent = command(), notModifiedAfter = new Date()) =>
    stack.bus.request<Listing>(
      SERVICES.entity,
      ATTACHMENT_COMMANDS.update,
      { caller, type: 'Championships', id, attachedFileId, body: { LastModifiedTimeMaxAllowedValue: notModifiedAfter.toISOString(), ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] } },
      sent,
    );
  const remove = (caller: CallerContext, id: string, attachedFileId: string, sent = command()) =>
    stack.bus.request<null>(SERVICES.entity, ATTACHMENT_COMMANDS.delete, { caller, type: 'Championships', id, attachedFileId }, sent);

  test('when a prepare is delivered twice, then both answers name one record and only one exists', async () => {
    const caller = editor();
    const id = await championship(caller);
    const sent = command();

    const first = await prepare(caller, id, sent);
    const second = await prepare(caller, id, sent);

    expect(second.AttachedFileId).toBe(first.AttachedFileId);
    expect(second.Url).toContain(`/blobs/${first.AttachedFileId}?`);
    expect(await recordsOf(id)).toEqual([first.AttachedFileId]);
    // Another command (another request) is another record.
    await prepare(caller, id);
    expect(await recordsOf(id)).toHaveLength(2);
  });

  test('when the gateway\'s "uploaded" is delivered twice, then the repeat answers as the first, not as a reused URL (403)', async () => {
    const caller = editor();
    const id = await championship(caller);
    const { AttachedFileId } = await prepare(caller, id);
    const bytes = randomBytes(4096);
    const sent = command();

    expect(await uploaded(AttachedFileId, bytes, sent)).toEqual({ state: 1 });
    expect(await uploaded(AttachedFileId, bytes, sent)).toEqual({ state: 1 });
    // A second upload under a command of its own is the reused URL it is.
    await expect(uploaded(AttachedFileId, bytes)).rejects.toMatchObject({ status: 403 });
  });

  test('when a finalise is delivered twice, then the repeat answers the same record and attachment.available is published once', async () => {
    const caller = editor();
    const id = await championship(caller);
    const { AttachedFileId } = await prepare(caller, id);
    await uploaded(AttachedFileId, randomBytes(4096));
    const sent = command();
    // Past the upload's modified time (PostgreSQL keeps microseconds, a Date milliseconds).
    const before = new Date(Date.now() + 1);

    const first = await finalise(caller, id, AttachedFileId, sent, before);
    // Run again, the write would be refused: the first moved the record's modified time past `before`.
    const second = await finalise(caller, id, AttachedFileId, sent, before);

    expect(second.Id).toBe(first.Id);
    expect(second.Parameters).toEqual(first.Parameters);
    expect(second.SignedURL).toContain(`/blobs/${AttachedFileId}?`);
    // One more file finalised after both: once its event is in, every earlier event of the queue is.
    const { AttachedFileId: marker } = await prepare(caller, id);
    await uploaded(marker, randomBytes(4096));
    await finalise(caller, id, marker);
    await waitFor(() => events.some((e) => (e.payload as { attachedFileId?: string }).attachedFileId === marker));
    expect(events.filter((e) => (e.payload as { attachedFileId?: string }).attachedFileId === AttachedFileId)).toHaveLength(1);
  });

  test('when a delete is delivered twice, then the repeat answers as the first (not 404) and the record is gone', async () => {
    const caller = editor();
    const id = await championship(caller);
    const { AttachedFileId } = await prepare(caller, id);
    const sent = command();

    expect(await remove(caller, id, AttachedFileId, sent)).toBeNull();
    expect(await remove(caller, id, AttachedFileId, sent)).toBeNull();

    expect(await recordsOf(id)).toEqual([]);
    // The same delete as a new command finds nothing to delete.
    await expect(remove(caller, id, AttachedFileId)).rejects.toMatchObject({ status: 404 });
  });

  test('when a refused command is delivered again, then it is refused again: a refusal records nothing', async () => {
    const caller = editor();
    const id = await championship(caller);
    const { AttachedFileId } = await prepare(caller, id);
    const sent = command();

    await expect(finalise(caller, id, AttachedFileId, sent)).rejects.toMatchObject({ status: 409 });
    await uploaded(AttachedFileId, randomBytes(4096));
    // Rolled back with its write: the same command, now that the bytes are there, runs.
    expect((await finalise(caller, id, AttachedFileId, sent)).Parameters['ServerAttachedFileState']).toBe(2);
  });
});

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
