import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import { compressLz4 } from '@pitwall/formats';
import { telemetry, type Listing } from './support/attachments';
import { DistributedStack, type Member } from './support/distributed';

/**
 * A PUT on a connection of its own: a refused upload is answered before its body is read and the connection closes,
 * which a pooled fetch connection may not notice before its next request.
 */
function putOnItsOwnConnection(url: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(url), { method: 'PUT', agent: false, headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.length) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Lets the event loop handle what arrived while a CPU-bound step held it (compressing in jest's sandbox takes
 * seconds): a kept-alive connection the gateway closed meanwhile is dropped by fetch instead of being reused by the
 * next request, which would then fail with "other side closed".
 */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1));
  await new Promise((resolve) => setImmediate(resolve));
}

describe('attached files on the five-process stack (filesystem blob store under DATA_DIR, generated signing secret)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pitwall-e2e-attachments-'));
  let stack: DistributedStack;
  let m: Member;
  beforeAll(async () => {
    stack = await DistributedStack.start({ env: { DATA_DIR: dataDir, MAX_UPLOAD_BYTES: String(64 * 1024 * 1024) } });
    m = await stack.member('admin');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Names under the content area: blobs are named by their hash; a write in progress is a `.tmp-*` file. */
  const contentArea = (): string[] => {
    try {
      return readdirSync(join(dataDir, 'blobs', 'sha256'));
    } catch {
      return [];
    }
  };
  const contentBlobs = (): string[] => contentArea().filter((name) => /^[0-9a-f]{64}$/.test(name));

  test.each([
    ['Championship', 'Championships'],
    ['Car', 'Cars'],
    ['Event', 'Events'],
  ])('when a %s file is uploaded through the client calls and the signed URLs, then it comes back byte for byte and goes on delete', async (name) => {
    const c = m.client as unknown as Record<string, (...args: unknown[]) => Promise<{ statusCode: number; returnValue?: unknown }>>;
    let id: string;
    if (name === 'Event') {
      const champ = (await m.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'Series' }] })).returnValue?.Id as string;
      id = (await m.client.addEvent(champ, { ParameterUpdates: [{ Name: 'Name', Value: 'Monza' }] })).returnValue?.Id as string;
    } else {
      id = ((await c[`add${name}`]?.({ ParameterUpdates: [{ Name: 'Name', Value: `${name} with files` }] })) as { returnValue: { Id: string } }).returnValue.Id;
    }
    const original = telemetry(3 * 1024 * 1024);
    const frame = Buffer.from(await compressLz4(original));
    await settle();

    const prepared = (await c[`prepare${name}Attachment`]?.(id, { FileName: 'stint1.ld', UseCompression: true, AttachedFileGroupName: 'DataFile' })) as { statusCode: number; returnValue: { AttachedFileId: string; Url: string } };
    expect(prepared.statusCode).toBe(200);
    expect(prepared.returnValue.Url.startsWith(`${stack.baseUrl}/blobs/`)).toBe(true);
    const put = await fetch(prepared.returnValue.Url, { method: 'PUT', body: frame, headers: { 'Content-Type': 'application/octet-stream' } });
    expect(put.status).toBe(200);
    expect(await putOnItsOwnConnection(prepared.returnValue.Url, frame)).toBe(403);

    const finalised = await c[`update${name}Attachment`]?.(id, prepared.returnValue.AttachedFileId, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] });
    expect(finalised?.statusCode).toBe(200);
    const listed = (await c[`get${name}Attachments`]?.(id))?.returnValue as Listing[];
    expect(listed).toHaveLength(1);
    expect(listed[0]?.Parameters).toMatchObject({ FileName: 'stint1.ld', FileSize: frame.length, ServerAttachedFileState: 2, UseCompression: true, AttachedFileGroupName: 'DataFile' });
    const got = Buffer.from(await (await fetch(listed[0]?.SignedURL as string)).arrayBuffer());
    expect(got.equals(frame)).toBe(true);
    const ranged = await fetch(listed[0]?.SignedURL as string, { headers: { Range: 'bytes=1000-1999' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(frame.subarray(1000, 2000))).toBe(true);

    const stored = contentBlobs().length;
    expect((await c[`delete${name}Attachment`]?.(id, prepared.returnValue.AttachedFileId))?.statusCode).toBe(204);
    expect(contentBlobs().length).toBe(stored - 1);
    expect((await fetch(listed[0]?.SignedURL as string)).status).toBe(404);
  });

  // Last: it kills the gateway.
  test('when the gateway is killed (SIGKILL) in the middle of an upload, then no partial blob is visible and the record stays pending', async () => {
    const id = (await m.client.addCar({ ParameterUpdates: [{ Name: 'Name', Value: 'Killed upload' }] })).returnValue?.Id as string;
    const prepared = (await m.client.prepareCarAttachment(id, { FileName: 'big.ld', UseCompression: false })).returnValue as { AttachedFileId: string; Url: string };
    const before = contentBlobs();
    const gateway = stack.stack.procs.find((p) => p.name === 'gateway');
    const url = new URL(prepared.Url);
    const chunk = telemetry(1024 * 1024);
    await new Promise<void>((resolve) => {
      const req = httpRequest(url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(64 * chunk.length) } });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      let sent = 0;
      const more = (): void => {
        if (sent === 8) {
          // 8 MiB of 64 are in: the gateway dies while it writes.
          gateway?.child.once('exit', () => setTimeout(() => req.destroy(), 100));
          gateway?.child.kill('SIGKILL');
          return;
        }
        sent++;
        if (req.write(chunk)) setTimeout(more, 20);
        else req.once('drain', more);
      };
      more();
    });
    expect(contentBlobs()).toEqual(before);
    // What the killed write left is a temporary, which the sweep removes.
    expect(contentArea().filter((name) => name.startsWith('.tmp-'))).toHaveLength(1);
    expect(await new FilesystemBlobStore(join(dataDir, 'blobs')).sweepTemporaries(0)).toBe(1);
    expect(contentArea().filter((name) => name.startsWith('.tmp-'))).toEqual([]);
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ state: number; blob_key: string | null }>('SELECT state, blob_key FROM entity.attached_files WHERE id = $1', [prepared.AttachedFileId]);
      expect(rows).toEqual([{ state: 0, blob_key: null }]);
    } finally {
      await client.end();
    }
  });
});
