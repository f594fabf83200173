import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemBlobStore, UrlSigner } from '@pitwall/blob-store';
import type { BusEvent } from '@pitwall/bus';
import { ATTACHMENT_COMMANDS, EXCHANGES, SERVICES } from '@pitwall/contracts';
import { entityService } from '@pitwall/entity-service';
import type { Piscina } from 'piscina';
import { compressLz4 } from '@pitwall/formats';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { ACCOUNT_ID, authHeaders, fakeAuth, send } from '../support/gateway-harness';

const SECRET = 'component-test-signing-secret';
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
const json = { ...authHeaders, 'Content-Type': 'application/json' };

interface Prepared {
  AttachedFileId: string;
  Url: string;
  AccountId: string;
  UserId: string;
  UseCompression: boolean;
}
interface Listing {
  Id: string;
  Parameters: Record<string, unknown>;
  SignedURL: string | null;
}

describe('attached files through the gateway (entity-service in-process, real PostgreSQL, filesystem blob store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-attachments-'));
  const blobDir = join(dir, 'blobs');
  const blobs = new FilesystemBlobStore(blobDir);
  const signer = new UrlSigner(SECRET);
  let stack: InProcessStack;
  /** The entity-service's pool that checks the LZ4 frames of an upload at finalise. */
  let lz4Checks: Piscina;
  let http: HttpEntryPoint;
  let base: string;
  const events: BusEvent[] = [];

  beforeAll(async () => {
    stack = await startInProcessStack();
    const logger = createLogger('gateway-test', 'silent');
    http = await listen(buildGateway({ bus: stack.bus, auth: fakeAuth, logger, attachments: { blobs, signer, maxUploadBytes: MAX_UPLOAD_BYTES } }), 0, '127.0.0.1');
    base = http.address;
    const entity = await stack.start(entityService, { BLOB_DIR: blobDir, URL_SIGNING_SECRET: SECRET, PUBLIC_BASE_URL: base, MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), UPLOAD_URL_TTL_S: '600' });
    lz4Checks = entity.parts.attachments.lz4Pool as Piscina;
    await stack.bus.subscribe(EXCHANGES.entityEvents, `test.attachments.${randomUUID()}`, ['attachment.available', 'attachment.deleted'], async (e) => void events.push(e));
  });
  afterAll(async () => {
    await http?.stop();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every file under the blob directory (content, staging and temporaries). */
  const storedFiles = (): string[] => {
    try {
      return readdirSync(blobDir, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => join(d.parentPath, d.name));
    } catch {
      return [];
    }
  };

  async function create(plural: string, query = '', name = `Item ${randomUUID().slice(0, 8)}`): Promise<string> {
    const res = await fetch(`${base}/${plural}${query}`, { method: 'POST', headers: json, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: name }] }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { Id: string }).Id;
  }

  async function prepare(plural: string, id: string, body: Record<string, unknown> = {}): Promise<Prepared> {
    const res = await fetch(`${base}/${plural}/${id}/Attachments`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ FileName: 'run.ld', CustomPropertyAttachedFileName: null, IfSingleOverwriteExisting: false, AutoDownload: false, UseCompression: true, AttachedFileGroupName: 'DataFile', ...body }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Prepared;
  }

  const upload = (url: string, bytes: Uint8Array) => send(url, 'PUT', url, { body: Buffer.from(bytes), headers: { 'Content-Type': 'application/octet-stream' } });

  const finalise = (plural: string, id: string, fileId: string, value = '2') =>
    fetch(`${base}/${plural}/${id}/Attachments/${fileId}`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ LastModifiedTimeMaxAllowedValue: null, ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: value }], CollectionUpdateModels: {} }),
    });

  async function list(plural: string, id: string, ids?: string[]): Promise<Listing[]> {
    const res = await fetch(`${base}/${plural}/${id}/Attachments${ids ? `?attachedFileIds=${ids.join(',')}` : ''}`, { headers: authHeaders });
    expect(res.status).toBe(200);
    return (await res.json()) as Listing[];
  }

  async function download(url: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
    const res = await fetch(url, { headers });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
  }

  /** A telemetry-like file: compressible, with a random part so each test's bytes are its own. */
  const content = (size = 20_000): Buffer => {
    const out = Buffer.alloc(size);
    for (let i = 0; i < size; i++) out[i] = (Math.sin(i / 50) * 100 + 128) & 0xff;
    randomBytes(64).copy(out, 0);
    return out;
  };

  const lz4 = async (bytes: Uint8Array): Promise<Buffer> => Buffer.from(await compressLz4(bytes));

  /**
   * A refused upload kept nothing: no bytes stored, the record still pending, and the URL not used up (the file can
   * still be uploaded within the cap).
   */
  async function expectRefusedUploadLeftNoTrace(carId: string, url: string, fileId: string, storedBefore: string[]): Promise<void> {
    expect(storedFiles()).toEqual(storedBefore);
    expect(await stateOf('Cars', carId, fileId)).toBe(0);
    expect((await upload(url, Buffer.from('small enough'))).status).toBe(200);
  }

  async function stateOf(plural: string, id: string, fileId: string): Promise<unknown> {
    return (await list(plural, id, [fileId]))[0]?.Parameters['ServerAttachedFileState'];
  }

  describe.each([
    ['Championships', ''],
    ['Cars', ''],
    ['TrackConfigurations', 'track'],
  ])('the whole flow on %s', (plural, parent) => {
    test('when a file is prepared, uploaded, finalised, listed, downloaded (whole and by range) and deleted, then each step answers as wire.md §7 says', async () => {
      const query = parent === 'track' ? `?trackId=${await create('Tracks')}` : '';
      const id = await create(plural, query);
      const original = content();
      const frame = await lz4(original);

      const prepared = await prepare(plural, id);
      expect(prepared).toEqual({ AttachedFileId: expect.any(String), Url: expect.stringMatching(new RegExp(`^${base}/blobs/${prepared.AttachedFileId}\\?expires=\\d+&sig=`)), AccountId: ACCOUNT_ID, UserId: expect.any(String), UseCompression: true });
      expect(await stateOf(plural, id, prepared.AttachedFileId)).toBe(0);

      expect((await upload(prepared.Url, frame)).status).toBe(200);
      const uploaded = (await list(plural, id))[0] as Listing;
      expect(uploaded).toMatchObject({ Id: prepared.AttachedFileId, Parameters: { FileName: 'run.ld', FileSize: frame.length, UseCompression: true, ServerAttachedFileState: 1, AttachedFileGroupName: 'DataFile' }, SignedURL: null });

      const done = await finalise(plural, id, prepared.AttachedFileId);
      expect(done.status).toBe(200);
      expect(((await done.json()) as Listing).Parameters['ServerAttachedFileState']).toBe(2);

      const [listed] = await list(plural, id, [prepared.AttachedFileId]);
      expect(listed?.SignedURL).toMatch(new RegExp(`^${base}/blobs/${prepared.AttachedFileId}\\?expires=\\d+&sig=`));
      const whole = await download(listed?.SignedURL as string);
      expect(whole.status).toBe(200);
      expect(whole.bytes.equals(frame)).toBe(true);
      const part = await download(listed?.SignedURL as string, { Range: 'bytes=4-99' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 4-99/${frame.length}`);
      expect(part.bytes.equals(frame.subarray(4, 100))).toBe(true);
      const tail = await download(listed?.SignedURL as string, { Range: 'bytes=-10' });
      expect(tail.bytes.equals(frame.subarray(frame.length - 10))).toBe(true);
      const outside = await download(listed?.SignedURL as string, { Range: `bytes=${frame.length}-` });
      expect(outside.status).toBe(416);
      expect(outside.headers.get('content-range')).toBe(`bytes */${frame.length}`);

      // The entity read shows the record too (wire.md §4 AttachedFiles.*).
      const read = (await (await fetch(`${base}/${plural}/${id}?parametersToInclude=AttachedFiles.*`, { headers: authHeaders })).json()) as { AttachedFiles: { Id: string }[] };
      expect(read.AttachedFiles.map((f) => f.Id)).toEqual([prepared.AttachedFileId]);

      const before = storedFiles().length;
      expect((await fetch(`${base}/${plural}/${id}/Attachments/${prepared.AttachedFileId}`, { method: 'DELETE', headers: authHeaders })).status).toBe(204);
      expect(await list(plural, id)).toEqual([]);
      expect(storedFiles().length).toBe(before - 1);
      expect((await download(listed?.SignedURL as string)).status).toBe(404);
    });
  });

  describe('GET /blobs/{id} with a Range', () => {
    /** An available file: its download URL, its bytes and the ETag their SHA-256 makes. */
    async function available(): Promise<{ url: string; bytes: Buffer; etag: string }> {
      const id = await create('Cars');
      const bytes = content(1000);
      const prepared = await prepare('Cars', id, { UseCompression: false });
      await upload(prepared.Url, bytes);
      expect((await finalise('Cars', id, prepared.AttachedFileId)).status).toBe(200);
      return { url: (await list('Cars', id))[0]?.SignedURL as string, bytes, etag: `"${createHash('sha256').update(bytes).digest('hex')}"` };
    }

    test.each(['gzip, deflate, br, zstd', 'gzip, identity;q=0'])('when the client accepts compressed answers (%s), then the whole file and a range of it are its stored bytes as they are, never compressed', async (accepting) => {
      const id = await create('Cars');
      const bytes = content(40_000);
      const prepared = await prepare('Cars', id, { UseCompression: false });
      await upload(prepared.Url, bytes);
      expect((await finalise('Cars', id, prepared.AttachedFileId)).status).toBe(200);
      const url = (await list('Cars', id))[0]?.SignedURL as string;
      // node:http decodes nothing: the bytes as the gateway sent them.
      const whole = await send(url, 'GET', url, { headers: { 'Accept-Encoding': accepting } });
      const part = await send(url, 'GET', url, { headers: { 'Accept-Encoding': accepting, Range: 'bytes=100-20099' } });
      expect([whole.status, part.status]).toEqual([200, 206]);
      for (const got of [whole, part]) {
        expect(got.headers['content-encoding']).toBeUndefined();
        expect(String(got.headers['vary'] ?? '')).not.toContain('Accept-Encoding');
        expect(got.headers['accept-ranges']).toBe('bytes');
      }
      expect(whole.headers['content-length']).toBe(String(bytes.length));
      expect(part.headers['content-range']).toBe(`bytes 100-20099/${bytes.length}`);
      expect((await download(url, { 'Accept-Encoding': accepting, Range: 'bytes=100-20099' })).bytes.equals(bytes.subarray(100, 20100))).toBe(true);
      expect((await download(url, { 'Accept-Encoding': accepting })).bytes.equals(bytes)).toBe(true);
    });

    test.each([
      ['a range whose last position is before its first', 'bytes=4-2'],
      ['a set with one such range', 'bytes=0-1,9-3'],
      ['not a range', 'bytes=abc'],
      ['not a range either', 'bytes=1-2-3'],
      ['not a range header at all', 'garbage'],
      ['several ranges (no multipart answers), over 200 characters long', `bytes=${'0-1,'.repeat(100)}5-`],
    ])('when the Range is %s (%s), then it is ignored: 200 with the whole file', async (_what, range) => {
        const { url, bytes } = await available();
        const res = await download(url, { Range: range });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-range')).toBeNull();
        expect(res.headers.get('content-length')).toBe(String(bytes.length));
        expect(res.bytes.equals(bytes)).toBe(true);
    });

    test.each([['bytes=1000-'], ['bytes=5000-6000'], ['bytes=1000-1100,2000-'], ['bytes=-0']])(
      'when the Range is valid but no range of it overlaps the file (%s), then it is 416 with Content-Range bytes */size',
      async (range) => {
        const { url, bytes } = await available();
        const res = await fetch(url, { headers: { Range: range } });
        expect(res.status).toBe(416);
        expect(res.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(((await res.json()) as { status: number }).status).toBe(416);
      },
    );

    test('when a file is downloaded, then its ETag is the SHA-256 of its bytes, and a Range under an If-Range naming it is a 206', async () => {
      const { url, bytes, etag } = await available();
      const whole = await download(url);
      const head = await fetch(url, { method: 'HEAD' });
      const part = await download(url, { Range: 'bytes=10-19', 'If-Range': etag });
      expect([whole.headers.get('etag'), head.headers.get('etag'), part.headers.get('etag')]).toEqual([etag, etag, etag]);
      expect(part.status).toBe(206);
      expect(part.bytes.equals(bytes.subarray(10, 20))).toBe(true);
    });

    test.each([
      ['another file\'s tag', `"${'0'.repeat(64)}"`, 'bytes=10-19'],
      ['its own tag made weak (If-Range compares strongly)', 'W/"<tag>"', 'bytes=10-19'],
      ['a date (no Last-Modified is sent, so no date can validate)', new Date(Date.now() + 86_400_000).toUTCString(), 'bytes=10-19'],
      ['another tag, with a Range past the end (not a 416: the Range is ignored)', '"other"', 'bytes=5000-'],
    ])('when the If-Range is %s, then the Range is ignored: 200 with the whole file', async (_what, ifRange, range) => {
      const { url, bytes } = await available();
      const tag = createHash('sha256').update(bytes).digest('hex');
      const res = await download(url, { Range: range, 'If-Range': ifRange.replace('<tag>', tag) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-range')).toBeNull();
      expect(res.bytes.equals(bytes)).toBe(true);
    });

    test.each([
      ['its tag', '<tag>'],
      ['its tag made weak (If-None-Match compares weakly)', 'W/<tag>'],
      ['a list holding its tag', '"a", <tag> , "b,c"'],
      ['*', '*'],
    ])('when If-None-Match is %s, then a GET and a HEAD are 304 with the ETag and no body', async (_what, header) => {
      const { url, etag } = await available();
      for (const method of ['GET', 'HEAD']) {
        const res = await send(url, method, url, { headers: { 'If-None-Match': header.replace('<tag>', etag), Range: 'bytes=0-9' } });
        expect(res.status).toBe(304);
        expect(res.headers['etag']).toBe(etag);
        expect(res.body.length).toBe(0);
      }
    });

    test('when If-None-Match names other tags only, then the GET is 200 with the file', async () => {
      const { url, bytes } = await available();
      const res = await download(url, { 'If-None-Match': `"${'0'.repeat(64)}", W/"other"` });
      expect(res.status).toBe(200);
      expect(res.bytes.equals(bytes)).toBe(true);
    });

    test('when a file is downloaded, then it comes as an attachment under its name (an ASCII stand-in and the name itself, RFC 6266) in a sandbox, whatever its bytes', async () => {
      const id = await create('Cars');
      const bytes = Buffer.from('<script>alert(document.domain)</script>');
      const prepared = await prepare('Cars', id, { UseCompression: false, FileName: 'Spa "quali" ü (1)😀.html' });
      await upload(prepared.Url, bytes);
      expect((await finalise('Cars', id, prepared.AttachedFileId)).status).toBe(200);
      const url = (await list('Cars', id))[0]?.SignedURL as string;
      for (const res of [await download(url), await download(url, { Range: 'bytes=0-3' })]) {
        expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Spa _quali_ _ (1)_.html"; filename*=UTF-8''Spa%20%22quali%22%20%C3%BC%20%281%29%F0%9F%98%80.html`);
        expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
        expect(res.headers.get('content-type')).toBe('application/octet-stream');
      }
    });

    describe('with If-Match', () => {
      test.each([
        ['its tag', '<tag>', 'bytes=0-9', 206],
        ['a list holding its tag', '"a", <tag>', undefined, 200],
        ['*', '*', undefined, 200],
      ])('when If-Match is %s, then the download answers as without it', async (_what, header, range, status) => {
        const { url, bytes, etag } = await available();
        const res = await download(url, { 'If-Match': header.replace('<tag>', etag), ...(range ? { Range: range } : {}) });
        expect(res.status).toBe(status);
        expect(res.bytes.equals(range ? bytes.subarray(0, 10) : bytes)).toBe(true);
      });

      test.each([
        ['another file\'s tag', `"${'0'.repeat(64)}"`],
        ['its own tag made weak (If-Match compares strongly)', 'W/<tag>'],
        ['empty', ''],
      ])('when If-Match is %s, then a GET and a HEAD are 412 problem+json, before any If-None-Match or Range, and no byte is sent', async (_what, header) => {
        const { url, etag } = await available();
        for (const method of ['GET', 'HEAD']) {
          const res = await send(url, method, url, { headers: { 'If-Match': header.replace('<tag>', etag), 'If-None-Match': etag, Range: 'bytes=0-9' } });
          expect({ method, status: res.status, type: String(res.headers['content-type']).split(';')[0] }).toEqual({ method, status: 412, type: 'application/problem+json' });
          if (method === 'GET') {
            const problem = JSON.parse(res.body.toString()) as { status: number; detail: string };
            expect(problem.status).toBe(412);
            expect(problem.detail).toContain(etag);
          } else expect(res.body.length).toBe(0);
        }
      });

      test('when If-Unmodified-Since is any date, then it is ignored (no Last-Modified is kept): 200 with the file', async () => {
        const { url, bytes } = await available();
        const res = await download(url, { 'If-Unmodified-Since': new Date(0).toUTCString() });
        expect(res.status).toBe(200);
        expect(res.headers.get('last-modified')).toBeNull();
        expect(res.bytes.equals(bytes)).toBe(true);
      });
    });
  });

  describe('downloads a client leaves, and HEAD', () => {
    /** Files this process (the gateway's) holds open under the blob directory. */
    const openBlobFiles = (): string[] =>
      readdirSync('/proc/self/fd')
        .map((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`);
          } catch {
            return '';
          }
        })
        .filter((target) => target.startsWith(blobDir));

    async function available(size: number): Promise<{ url: string; bytes: Buffer }> {
      const id = await create('Cars');
      const bytes = content(size);
      const prepared = await prepare('Cars', id, { UseCompression: false });
      await upload(prepared.Url, bytes);
      expect((await finalise('Cars', id, prepared.AttachedFileId)).status).toBe(200);
      return { url: (await list('Cars', id))[0]?.SignedURL as string, bytes };
    }

    test('when clients close downloads of a large file after its first bytes, then the file is closed each time (nothing stays open)', async () => {
      const { url } = await available(16 * 1024 * 1024);
      for (let i = 0; i < 20; i++) {
        const gone = new AbortController();
        const res = await fetch(url, { signal: gone.signal, headers: i % 2 ? { Range: 'bytes=100-' } : {} });
        expect(res.status).toBe(i % 2 ? 206 : 200);
        await res.body?.getReader().read();
        gone.abort();
      }
      await waitFor(() => openBlobFiles().length === 0).catch(() => {
        throw new Error(`files left open: ${openBlobFiles().length}`);
      });
    });

    test("when a file's bytes are gone from the store, then HEAD answers as GET does, not 200", async () => {
      const before = storedFiles();
      const { url } = await available(50_000);
      const added = storedFiles().filter((f) => !before.includes(f));
      expect(added).toHaveLength(1);
      rmSync(added[0] as string);
      const get = await fetch(url);
      const head = await fetch(url, { method: 'HEAD' });
      expect(get.status).toBe(404);
      expect(((await get.json()) as { detail: string }).detail).toMatch(/^The bytes of attached file [0-9a-f-]{36} are not in the store/);
      expect(head.status).toBe(get.status);
    });

    test('when a download is asked with HEAD, then it answers the headers of the GET without reading the file', async () => {
      const { url, bytes } = await available(200_000);
      const reads = jest.spyOn(blobs, 'openRead');
      try {
        const head = await fetch(url, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(head.headers.get('content-length')).toBe(String(bytes.length));
        const part = await fetch(url, { method: 'HEAD', headers: { Range: 'bytes=10-19' } });
        expect([part.status, part.headers.get('content-range'), part.headers.get('content-length')]).toEqual([206, `bytes 10-19/${bytes.length}`, '10']);
        expect(reads).not.toHaveBeenCalled();
        expect((await download(url)).bytes.equals(bytes)).toBe(true);
        expect(reads).toHaveBeenCalledTimes(1);
      } finally {
        reads.mockRestore();
      }
    });
  });

  test('when a file becomes available, then attachment.available is published with its entity, group, hash and size', async () => {
    const id = await create('Championships');
    const frame = await lz4(content());
    const prepared = await prepare('Championships', id, { AttachedFileGroupName: 'DataFile_Logged' });
    await upload(prepared.Url, frame);
    expect((await finalise('Championships', id, prepared.AttachedFileId)).status).toBe(200);
    await waitFor(() => events.some((e) => (e.payload as { attachedFileId: string }).attachedFileId === prepared.AttachedFileId));
    const event = events.find((e) => (e.payload as { attachedFileId: string }).attachedFileId === prepared.AttachedFileId) as BusEvent;
    expect(event.payload).toEqual({
      accountId: ACCOUNT_ID,
      entityType: 'Championship',
      entityId: id,
      attachedFileId: prepared.AttachedFileId,
      attachedFileGroupName: 'DataFile_Logged',
      blobSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      size: frame.length,
      occurredAt: expect.any(String),
    });
  });

  test('when a file is deleted, then attachment.deleted is published with its entity, group and hash', async () => {
    const id = await create('Championships');
    const prepared = await prepare('Championships', id, { AttachedFileGroupName: 'DataFile', UseCompression: false });
    await upload(prepared.Url, content());
    expect((await finalise('Championships', id, prepared.AttachedFileId)).status).toBe(200);
    const available = events.find((e) => e.routingKey === 'attachment.available' && (e.payload as { attachedFileId: string }).attachedFileId === prepared.AttachedFileId);
    expect((await fetch(`${base}/Championships/${id}/Attachments/${prepared.AttachedFileId}`, { method: 'DELETE', headers: authHeaders })).status).toBe(204);
    const deleted = () => events.find((e) => e.routingKey === 'attachment.deleted' && (e.payload as { attachedFileId: string }).attachedFileId === prepared.AttachedFileId);
    await waitFor(() => deleted() !== undefined);
    expect(deleted()?.payload).toEqual({
      accountId: ACCOUNT_ID,
      entityType: 'Championship',
      entityId: id,
      attachedFileId: prepared.AttachedFileId,
      attachedFileGroupName: 'DataFile',
      blobSha256: available ? (available.payload as { blobSha256: string }).blobSha256 : expect.stringMatching(/^[0-9a-f]{64}$/),
      occurredAt: expect.any(String),
    });
  });

  test('when the blob directory cannot be used, then the signed PUT and GET are 503 with Retry-After (the PUT closing its connection), and once it is back the same URL uploads', async () => {
    const id = await create('Cars');
    const kept = await prepare('Cars', id, { UseCompression: false });
    await upload(kept.Url, content());
    expect((await finalise('Cars', id, kept.AttachedFileId)).status).toBe(200);
    const listed = (await (await fetch(`${base}/Cars/${id}/Attachments`, { headers: authHeaders })).json()) as Listing[];
    const prepared = await prepare('Cars', id, { UseCompression: false });
    // Tests run as root, for whom chmod stops nothing: a file where the directory was does.
    renameSync(blobDir, `${blobDir}.away`);
    writeFileSync(blobDir, 'not a directory');
    try {
      const put = await upload(prepared.Url, content());
      expect([put.status, put.headers['retry-after'], put.headers['connection'], put.headers['content-type']]).toEqual([503, '5', 'close', 'application/problem+json; charset=utf-8']);
      const got = await send(base, 'GET', listed[0]?.SignedURL as string);
      expect([got.status, got.headers['retry-after']]).toEqual([503, '5']);
    } finally {
      rmSync(blobDir);
      renameSync(`${blobDir}.away`, blobDir);
    }
    expect((await upload(prepared.Url, content())).status).toBe(200);
    expect((await finalise('Cars', id, prepared.AttachedFileId)).status).toBe(200);
  });

  describe('refusals', () => {
    test('when the upload URL has expired, then the PUT is 403 and nothing is written', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id);
      const path = `/blobs/${prepared.AttachedFileId}`;
      const expired = `${base}${path}?${signer.query({ method: 'PUT', path, attachedFileId: prepared.AttachedFileId, expires: Math.floor(Date.now() / 1000) - 1 })}`;
      const before = storedFiles();
      const res = await upload(expired, await lz4(content()));
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).detail).toMatch(/expired/);
      expect(storedFiles()).toEqual(before);
      expect(await stateOf('Cars', id, prepared.AttachedFileId)).toBe(0);
    });

    test('when the upload URL is tampered with (signature, expiry or file id), then the PUT is 403 and nothing is written', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id);
      const other = await prepare('Cars', id);
      const url = new URL(prepared.Url);
      const sig = url.searchParams.get('sig') as string;
      const tampered = [
        prepared.Url.replace(`sig=${sig}`, `sig=${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`),
        prepared.Url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`),
        prepared.Url.replace(prepared.AttachedFileId, other.AttachedFileId),
        `${base}/blobs/${prepared.AttachedFileId}`,
      ];
      const before = storedFiles();
      for (const bad of tampered) expect((await upload(bad, await lz4(content()))).status).toBe(403);
      expect(storedFiles()).toEqual(before);
      expect(await stateOf('Cars', id, prepared.AttachedFileId)).toBe(0);
      expect(await stateOf('Cars', id, other.AttachedFileId)).toBe(0);
    });

    test('when an upload URL is used a second time, then the PUT is 403 and the first bytes stay', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id);
      const first = await lz4(content());
      expect((await upload(prepared.Url, first)).status).toBe(200);
      const before = storedFiles();
      const again = await upload(prepared.Url, await lz4(content()));
      expect(again.status).toBe(403);
      expect(JSON.parse(again.body).detail).toMatch(/already used/);
      expect(storedFiles()).toEqual(before);
      expect((await finalise('Cars', id, prepared.AttachedFileId)).status).toBe(200);
      const [listed] = await list('Cars', id);
      expect((await download(listed?.SignedURL as string)).bytes.equals(first)).toBe(true);
    });

    test('when a download URL is used to upload, then it is 403', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id);
      await upload(prepared.Url, await lz4(content()));
      await finalise('Cars', id, prepared.AttachedFileId);
      const [listed] = await list('Cars', id);
      expect((await upload(listed?.SignedURL as string, Buffer.from('overwrite'))).status).toBe(403);
    });

    test('when an upload is over the cap, then it is 413, nothing is kept and the record stays pending', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const before = storedFiles();
      const res = await upload(prepared.Url, randomBytes(MAX_UPLOAD_BYTES + 4096));
      expect(res.status).toBe(413);
      await expectRefusedUploadLeftNoTrace(id, prepared.Url, prepared.AttachedFileId, before);
    });

    test('when an upload declares a Content-Length over the cap, then it is 413 at once, before its body is sent, and nothing is kept', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const before = storedFiles();
      // Only the head is sent: the answer cannot wait for the body.
      const exchange = await rawExchange(prepared.Url, `PUT ${new URL(prepared.Url).pathname}${new URL(prepared.Url).search} HTTP/1.1\r\nHost: x\r\nContent-Length: ${MAX_UPLOAD_BYTES + 1}\r\n\r\n`);
      expect(exchange.head).toMatch(/^HTTP\/1\.1 413 /);
      expect(exchange.head).toMatch(/\r\nconnection: close\r\n/i);
      expect(exchange.head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
      expect(JSON.parse(exchange.body)).toMatchObject({ status: 413, detail: `The upload of ${MAX_UPLOAD_BYTES + 1} bytes is larger than the limit of ${MAX_UPLOAD_BYTES} bytes (MAX_UPLOAD_BYTES); nothing was kept`, instance: `/blobs/${prepared.AttachedFileId}` });
      expect(exchange.serverClosed).toBe(true);
      await expectRefusedUploadLeftNoTrace(id, prepared.Url, prepared.AttachedFileId, before);
    });

    test('when an upload says a Content-Encoding (gzip), then it is 415 before its body is read, and nothing is kept', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const before = storedFiles();
      const url = new URL(prepared.Url);
      const exchange = await rawExchange(prepared.Url, `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 100\r\n\r\n`);
      expect(exchange.head).toMatch(/^HTTP\/1\.1 415 /);
      expect(exchange.head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
      expect(JSON.parse(exchange.body)).toMatchObject({ status: 415, detail: expect.stringMatching(/^An upload is stored as sent, so a Content-Encoding \("gzip"\) is not taken: .*nothing was kept$/) });
      expect(exchange.serverClosed).toBe(true);
      // identity is the absence of a coding: taken as any upload.
      const plain = await fetch(prepared.Url, { method: 'PUT', body: Buffer.from('plain'), headers: { 'Content-Encoding': 'identity' } });
      expect(plain.status).toBe(200);
      const second = await prepare('Cars', id, { UseCompression: false });
      const secondBefore = storedFiles();
      expect((await fetch(second.Url, { method: 'PUT', body: Buffer.from('x'), headers: { 'Content-Encoding': 'br' } })).status).toBe(415);
      await expectRefusedUploadLeftNoTrace(id, second.Url, second.AttachedFileId, secondBefore);
      expect(before.length).toBeLessThan(secondBefore.length);
    });

    test.each([
      ['an upload', true],
      ['a JSON route', false],
    ])('when %s comes with a transfer coding other than chunked (gzip, chunked), then it is 501 and nothing is done', async (_what, isUpload) => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const before = storedFiles();
      const url = new URL(prepared.Url);
      const target = isUpload ? `PUT ${url.pathname}${url.search}` : `POST /api/Cars`;
      const exchange = await rawExchange(prepared.Url, `${target} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n`);
      expect(exchange.head).toMatch(/^HTTP\/1\.1 501 /);
      expect(exchange.head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
      expect(JSON.parse(exchange.body)).toMatchObject({ status: 501, detail: 'Transfer-Encoding "gzip, chunked": only chunked is taken (say a compressed body with Content-Encoding); nothing was done' });
      expect(exchange.serverClosed).toBe(true);
      await expectRefusedUploadLeftNoTrace(id, prepared.Url, prepared.AttachedFileId, before);
    });

    test('when a client goes on sending the body of an upload refused before it was read, then the connection stays open to take it until the client closes (no reset cuts the answer)', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const url = new URL(prepared.Url);
      // Half-open, as a client still sending its body is: the server's FIN does not end its writing.
      const socket = connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
      const errors: Error[] = [];
      socket.on('error', (err) => errors.push(err));
      let received = '';
      socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
      const ended = new Promise<void>((resolve, reject) => {
        socket.once('end', resolve);
        setTimeout(() => reject(new Error(`no answer within 3 s: ${JSON.stringify(received)}`)), 3000).unref();
      });
      socket.write(`PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: x\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`);
      await ended;
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      // The client had not seen the answer yet and keeps sending: its bytes are taken, not met with a reset.
      for (let i = 0; i < 8; i++) {
        socket.write(randomBytes(256 * 1024));
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(errors).toEqual([]);
      const closed = new Promise<boolean>((resolve) => socket.once('close', resolve));
      socket.end();
      expect(await closed).toBe(false);
      expect(errors).toEqual([]);
      expect(await stateOf('Cars', id, prepared.AttachedFileId)).toBe(0);
    });

    test('when a chunked upload (no Content-Length) streams past the cap, then it is 413, nothing is kept and the URL stays usable', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const before = storedFiles();
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(prepared.Url, { method: 'PUT', headers: { 'Transfer-Encoding': 'chunked' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        for (let sent = 0; sent <= MAX_UPLOAD_BYTES; sent += 16 * 1024) req.write(randomBytes(16 * 1024));
        req.end();
      });
      expect(status).toBe(413);
      await expectRefusedUploadLeftNoTrace(id, prepared.Url, prepared.AttachedFileId, before);
    });

    test('when the attached file is deleted while its bytes are arriving, then the PUT is 404 and the bytes it stored are not kept', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const before = storedFiles();
      let answered: (status: number) => void = () => undefined;
      const status = new Promise<number>((resolve) => (answered = resolve));
      const req = httpRequest(prepared.Url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(2 * 64 * 1024) } }, (res) => {
        res.resume();
        res.on('end', () => answered(res.statusCode ?? 0));
      });
      req.on('error', () => answered(-1));
      req.write(randomBytes(64 * 1024));
      // The gateway is reading the body (the record was found): the file is deleted, then the rest of the body sent.
      await waitFor(() => storedFiles().length > before.length);
      expect((await fetch(`${base}/Cars/${id}/Attachments/${prepared.AttachedFileId}`, { method: 'DELETE', headers: authHeaders })).status).toBe(204);
      req.end(randomBytes(64 * 1024));
      expect(await status).toBe(404);
      expect(storedFiles()).toEqual(before);
    });

    test('when a second PUT to one upload URL comes while the first is still arriving, then it is 409 before a byte of it is stored, and the first completes', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const before = storedFiles();
      const bytes = randomBytes(2 * 64 * 1024);
      let answered: (status: number) => void = () => undefined;
      const status = new Promise<number>((resolve) => (answered = resolve));
      const first = httpRequest(prepared.Url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes.length) } }, (res) => {
        res.resume();
        res.on('end', () => answered(res.statusCode ?? 0));
      });
      first.on('error', () => answered(-1));
      first.write(bytes.subarray(0, 64 * 1024));
      await waitFor(() => storedFiles().length > before.length);
      const during = storedFiles();
      const second = await upload(prepared.Url, randomBytes(64 * 1024));
      expect(second.status).toBe(409);
      expect(JSON.parse(second.body).detail).toMatch(/being received already: one upload at a time/);
      expect(storedFiles()).toEqual(during);
      first.end(bytes.subarray(64 * 1024));
      expect(await status).toBe(200);
      expect((await finalise('Cars', id, prepared.AttachedFileId)).status).toBe(200);
      const [listed] = await list('Cars', id);
      expect((await download(listed?.SignedURL as string)).bytes.equals(bytes)).toBe(true);
    });

    test('when an upload carries an Idempotency-Key, then it is 400 before a byte is read or stored and the URL stays usable', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const before = storedFiles();
      const res = await send(prepared.Url, 'PUT', prepared.Url, { body: content(), headers: { 'Content-Type': 'application/octet-stream', 'Idempotency-Key': randomUUID(), 'X-Request-Id': 'upload-with-key' } });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['connection']).toBe('close');
      expect(JSON.parse(res.body)).toMatchObject({
        status: 400,
        detail: 'Idempotency-Key is not supported on PUT /blobs/{attachedFileId}',
        errors: { 'Idempotency-Key': ['not supported on this operation'] },
        instance: `/blobs/${prepared.AttachedFileId}`,
        traceId: 'upload-with-key',
      });
      expect(storedFiles()).toEqual(before);
      expect(await stateOf('Cars', id, prepared.AttachedFileId)).toBe(0);
      // Refused before the body was read, also when only the head has been sent.
      const headOnly = await rawExchange(prepared.Url, `PUT ${new URL(prepared.Url).pathname}${new URL(prepared.Url).search} HTTP/1.1\r\nHost: x\r\nIdempotency-Key: k1\r\nContent-Length: 100\r\n\r\n`);
      expect(headOnly.head).toMatch(/^HTTP\/1\.1 400 /);
      expect(storedFiles()).toEqual(before);
      const bytes = content();
      expect((await upload(prepared.Url, bytes)).status).toBe(200);
      expect((await list('Cars', id, [prepared.AttachedFileId]))[0]?.Parameters).toMatchObject({ FileSize: bytes.length, ServerAttachedFileState: 1 });
    });

    test('when a signed URL is refused, then the problem names its path as instance, never its signature or expiry', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      const path = `/blobs/${prepared.AttachedFileId}`;
      const url = new URL(prepared.Url);
      const [sig, expires] = [url.searchParams.get('sig') as string, url.searchParams.get('expires') as string];
      const used = await prepare('Cars', id, { UseCompression: false });
      await upload(used.Url, content());
      const problems = [
        await upload(prepared.Url.replace(/expires=\d+/, `expires=${Number(expires) + 60}`), content()), // 403 tampered
        await upload(used.Url, content()), // 403 already used
        await upload(prepared.Url, randomBytes(MAX_UPLOAD_BYTES + 1)), // 413
        await send(prepared.Url, 'POST', prepared.Url), // 403: signed for PUT
        await send(prepared.Url, 'GET', `${prepared.Url}&note=100%`), // 400: not percent-encoding
        await send(prepared.Url, 'GET', prepared.Url), // 403: an upload URL does not download
      ];
      expect(problems.map((p) => p.status)).toEqual([403, 403, 413, 403, 400, 403]);
      for (const problem of problems) {
        expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(problem.body).not.toContain(sig);
        expect(JSON.parse(problem.body)).toMatchObject({ instance: problem === problems[1] ? `/blobs/${used.AttachedFileId}` : path, traceId: problem.headers['x-request-id'] });
      }

      // A download's 416 and a 404 after the file is gone likewise.
      expect((await finalise('Cars', id, used.AttachedFileId)).status).toBe(200);
      const signedUrl = (await list('Cars', id, [used.AttachedFileId]))[0]?.SignedURL as string;
      const downloadPath = new URL(signedUrl).pathname;
      const outside = await send(signedUrl, 'GET', signedUrl, { headers: { Range: 'bytes=99999999-' } });
      expect(outside.status).toBe(416);
      expect(JSON.parse(outside.body).instance).toBe(downloadPath);
      expect((await fetch(`${base}/Cars/${id}/Attachments/${used.AttachedFileId}`, { method: 'DELETE', headers: authHeaders })).status).toBe(204);
      const gone = await send(signedUrl, 'GET', signedUrl);
      expect(gone.status).toBe(404);
      expect(JSON.parse(gone.body).instance).toBe(downloadPath);
      expect(gone.body).not.toContain(new URL(signedUrl).searchParams.get('sig') as string);
    });

    test('when a file is finalised before its bytes were uploaded, then it is 409 and the state stays 0', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id);
      const res = await finalise('Cars', id, prepared.AttachedFileId);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/No bytes were uploaded/);
      expect(await stateOf('Cars', id, prepared.AttachedFileId)).toBe(0);
    });

    test.each([
      ['a flipped byte', (f: Buffer) => Buffer.from(f.map((b, i) => (i === Math.floor(f.length / 2) ? b ^ 0x40 : b)))],
      ['a truncated frame', (f: Buffer) => f.subarray(0, f.length - 7)],
      ['bytes that are no LZ4 frame', () => Buffer.from('plain text, not compressed')],
    ])('when a compressed upload has %s, then finalise is 409 with the reason and the state stays 1', async (_name, corrupt) => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id);
      await upload(prepared.Url, corrupt(await lz4(content())));
      const before = lz4Checks.completed;
      const res = await finalise('Cars', id, prepared.AttachedFileId);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/not a valid LZ4 frame/);
      expect(await stateOf('Cars', id, prepared.AttachedFileId)).toBe(1);
      // Checked on the entity-service's lz4 pool, off its event loop.
      expect(lz4Checks.completed).toBe(before + 1);
    });

    test("when another account's entity is named, then prepare, list, finalise and delete are 404", async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id);
      const stranger = { ...json, AccountId: randomUUID() };
      expect((await fetch(`${base}/Cars/${id}/Attachments`, { method: 'POST', headers: stranger, body: JSON.stringify({ FileName: 'x' }) })).status).toBe(404);
      expect((await fetch(`${base}/Cars/${id}/Attachments`, { headers: stranger })).status).toBe(404);
      // The service scopes by account as well, whoever sends the command.
      const caller = { accountId: randomUUID(), userId: randomUUID(), role: 'admin' as const };
      await expect(stack.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.prepare, { caller, type: 'Cars', id, body: { FileName: 'x' } })).rejects.toMatchObject({ status: 404 });
      await expect(stack.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.list, { caller, type: 'Cars', id })).rejects.toMatchObject({ status: 404 });
      await expect(stack.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.update, { caller, type: 'Cars', id, attachedFileId: prepared.AttachedFileId, body: { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] } })).rejects.toMatchObject({ status: 404 });
      await expect(stack.bus.request(SERVICES.entity, ATTACHMENT_COMMANDS.delete, { caller, type: 'Cars', id, attachedFileId: prepared.AttachedFileId })).rejects.toMatchObject({ status: 404 });
      expect(await stateOf('Cars', id, prepared.AttachedFileId)).toBe(0);
    });

    test('when a request is malformed, then it is a 400 naming what is wrong and nothing changes', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id);
      const noName = await fetch(`${base}/Cars/${id}/Attachments`, { method: 'POST', headers: json, body: JSON.stringify({ UseCompression: true }) });
      expect(noName.status).toBe(400);
      expect(((await noName.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty('FileName');
      expect((await fetch(`${base}/Cars/${id}/Attachments?attachedFileIds=nope`, { headers: authHeaders })).status).toBe(400);
      const unknown = await fetch(`${base}/Cars/${id}/Attachments/${prepared.AttachedFileId}`, { method: 'PUT', headers: json, body: JSON.stringify({ ParameterUpdates: [{ Name: 'FileSize', Value: '1' }, { Name: 'Colour', Value: 'red' }] }) });
      expect(unknown.status).toBe(400);
      expect(Object.keys(((await unknown.json()) as { errors: Record<string, string[]> }).errors)).toEqual(['ParameterUpdates[0].Name', 'ParameterUpdates[1].Name']);
      expect((await finalise('Cars', id, prepared.AttachedFileId, '7')).status).toBe(400);
      expect((await finalise('Cars', id, prepared.AttachedFileId, '1')).status).toBe(400);
      expect((await fetch(`${base}/Cars/${id}/Attachments/${randomUUID()}`, { method: 'DELETE', headers: authHeaders })).status).toBe(404);
      expect(await stateOf('Cars', id, prepared.AttachedFileId)).toBe(0);
    });

    test('when the finalise sets ServerAttachedFileState to anything but 2, then the 400 names that update by its ParameterUpdates path and nothing changes', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      await upload(prepared.Url, content());
      for (const [value, message] of [
        ['1', 'may only be set to 2 (AvailableOnServer); 0 and 1 follow from the upload'],
        ['0', 'may only be set to 2 (AvailableOnServer); 0 and 1 follow from the upload'],
        ['7', 'ServerAttachedFileState is 0, 1 or 2'],
        ['two', 'ServerAttachedFileState is 0, 1 or 2'],
      ]) {
        const res = await fetch(`${base}/Cars/${id}/Attachments/${prepared.AttachedFileId}`, {
          method: 'PUT',
          headers: json,
          body: JSON.stringify({ ParameterUpdates: [{ Name: 'FileName', Value: 'renamed.ld' }, { Name: 'ServerAttachedFileState', Value: value }] }),
        });
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(((await res.json()) as { errors: Record<string, string[]> }).errors).toEqual({ 'ParameterUpdates[1].Value': [message] });
      }
      expect((await list('Cars', id, [prepared.AttachedFileId]))[0]?.Parameters).toMatchObject({ FileName: 'run.ld', ServerAttachedFileState: 1 });
    });

    test('when the finalise renames the file or its group past what an upload may give, then 400 names each and the names stay', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      await upload(prepared.Url, content());
      const rename = (updates: { Name: string; Value: string | null }[]) =>
        fetch(`${base}/Cars/${id}/Attachments/${prepared.AttachedFileId}`, { method: 'PUT', headers: json, body: JSON.stringify({ ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }, ...updates] }) });

      // A group longer than a data file read may name (256) would hold files no read could reach.
      const refused = await rename([
        { Name: 'AttachedFileGroupName', Value: 'G'.repeat(257) },
        { Name: 'FileName', Value: `${'f'.repeat(1025)}.ld` },
      ]);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { errors: Record<string, string[]> }).errors).toEqual({
        'ParameterUpdates[1].Value': ['must be at most 256 characters long'],
        'ParameterUpdates[2].Value': ['is longer than 1024 characters'],
      });
      const nul = await rename([{ Name: 'AttachedFileGroupName', Value: 'Data\u0000File' }]);
      expect(((await nul.json()) as { errors: Record<string, string[]> }).errors).toEqual({ 'ParameterUpdates[1].Value': ['may not contain NUL characters or unpaired surrogates'] });
      // A group of '.' or '..' no read from a browser could reach (it removes such path segments before sending).
      for (const dots of ['.', '..']) {
        const refusedDots = await rename([{ Name: 'AttachedFileGroupName', Value: dots }]);
        expect(refusedDots.status).toBe(400);
        expect(((await refusedDots.json()) as { errors: Record<string, string[]> }).errors).toEqual({ 'ParameterUpdates[1].Value': ["may not be '.' or '..': the data file reads name the group in the URL's path, where browsers and most HTTP clients remove such segments"] });
      }
      expect(await stateOf('Cars', id, prepared.AttachedFileId)).toBe(1);
      expect((await list('Cars', id, [prepared.AttachedFileId]))[0]?.Parameters['AttachedFileGroupName']).toBe('DataFile');

      // At the limits (and a group taken away) it finalises.
      const accepted = await rename([
        { Name: 'AttachedFileGroupName', Value: 'G'.repeat(256) },
        { Name: 'FileName', Value: 'f'.repeat(1024) },
      ]);
      expect(accepted.status).toBe(200);
      expect((await list('Cars', id, [prepared.AttachedFileId]))[0]?.Parameters).toMatchObject({ AttachedFileGroupName: 'G'.repeat(256), FileName: 'f'.repeat(1024), ServerAttachedFileState: 2 });
    });

    test('when an attached file update carries CollectionUpdateModels, or renames FileName to empty, then it is a 400 naming each and the record stays', async () => {
      const id = await create('Cars');
      const prepared = await prepare('Cars', id, { UseCompression: false });
      await upload(prepared.Url, content());
      const update = (body: unknown) => fetch(`${base}/Cars/${id}/Attachments/${prepared.AttachedFileId}`, { method: 'PUT', headers: json, body: JSON.stringify(body) });
      for (const [body, errors] of [
        [{ ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }], CollectionUpdateModels: { Laps: [{ ParameterUpdates: [] }] } }, { CollectionUpdateModels: ['an attached file has no collections'] }],
        [{ ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }, { Name: 'FileName', Value: '' }] }, { 'ParameterUpdates[1].Value': ['FileName is required'] }],
        [{ ParameterUpdates: [{ Name: 'FileName', Value: null }] }, { 'ParameterUpdates[0].Value': ['FileName is required'] }],
      ] as const) {
        const res = await update(body);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(await res.json()).toMatchObject({ detail: 'The attached file update is not valid', errors });
      }
      expect((await list('Cars', id, [prepared.AttachedFileId]))[0]?.Parameters).toMatchObject({ FileName: 'run.ld', ServerAttachedFileState: 1 });
    });

    test('when an upload names its group . or .., then 400 names AttachedFileGroupName and nothing is prepared', async () => {
      const id = await create('Cars');
      for (const dots of ['.', '..']) {
        const res = await fetch(`${base}/Cars/${id}/Attachments`, { method: 'POST', headers: json, body: JSON.stringify({ FileName: 'run.csv', AttachedFileGroupName: dots }) });
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(((await res.json()) as { errors: Record<string, string[]> }).errors).toEqual({ AttachedFileGroupName: ["may not be '.' or '..': the data file reads name the group in the URL's path, where browsers and most HTTP clients remove such segments"] });
      }
      expect(await list('Cars', id)).toEqual([]);
    });

    test('when a wrapper sends an empty group name, then the file has no group, at the upload and at a rename', async () => {
      const id = await create('Cars');
      const empty = await prepare('Cars', id, { AttachedFileGroupName: '' });
      expect((await list('Cars', id, [empty.AttachedFileId]))[0]?.Parameters['AttachedFileGroupName']).toBeNull();

      const named = await prepare('Cars', id, { UseCompression: false });
      await upload(named.Url, content());
      const res = await fetch(`${base}/Cars/${id}/Attachments/${named.AttachedFileId}`, { method: 'PUT', headers: json, body: JSON.stringify({ ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }, { Name: 'AttachedFileGroupName', Value: '' }] }) });
      expect(res.status).toBe(200);
      expect((await list('Cars', id, [named.AttachedFileId]))[0]?.Parameters).toMatchObject({ AttachedFileGroupName: null, ServerAttachedFileState: 2 });
    });
  });

  describe('interoperability with the lz4 command-line tool', () => {
    const lz4Tool = (input: Buffer, args: string[]): Buffer => execFileSync('lz4', [...args, '-c'], { input, maxBuffer: 64 * 1024 * 1024 });

    test.each([
      ['defaults', []],
      ['content size', ['--content-size']],
      ['no content checksum', ['--no-frame-crc']],
      ['content size, no content checksum, linked 64 KiB blocks', ['--content-size', '--no-frame-crc', '-BD', '-B4']],
    ])('when the lz4 tool compressed the file (%s), then finalise accepts it and the download is its frame', async (_name, args) => {
      const id = await create('Tyres');
      const frame = lz4Tool(content(300_000), args);
      const p = await prepare('Tyres', id);
      expect((await upload(p.Url, frame)).status).toBe(200);
      expect((await finalise('Tyres', id, p.AttachedFileId)).status).toBe(200);
      const [listed] = await list('Tyres', id);
      expect((await download(listed?.SignedURL as string)).bytes.equals(frame)).toBe(true);
    });

    test('when the lz4 tool decompresses what the client library compressed and uploaded, then it gets the original bytes', async () => {
      const id = await create('Tyres');
      const original = content(300_000);
      const p = await prepare('Tyres', id);
      await upload(p.Url, await lz4(original));
      await finalise('Tyres', id, p.AttachedFileId);
      const [listed] = await list('Tyres', id);
      const downloaded = (await download(listed?.SignedURL as string)).bytes;
      expect(lz4Tool(downloaded, ['-d']).equals(original)).toBe(true);
    });
  });

  describe('reference counting', () => {
    test('when two identical files are uploaded, then their bytes are stored once and stay until the last record goes', async () => {
      const id = await create('Drivers');
      const frame = await lz4(content());
      const before = storedFiles().length;
      const a = await prepare('Drivers', id);
      const b = await prepare('Drivers', id);
      await upload(a.Url, frame);
      await upload(b.Url, frame);
      expect(storedFiles().length).toBe(before + 1);
      await finalise('Drivers', id, a.AttachedFileId);
      await finalise('Drivers', id, b.AttachedFileId);

      await fetch(`${base}/Drivers/${id}/Attachments/${a.AttachedFileId}`, { method: 'DELETE', headers: authHeaders });
      expect(storedFiles().length).toBe(before + 1);
      const [left] = await list('Drivers', id);
      expect((await download(left?.SignedURL as string)).bytes.equals(frame)).toBe(true);
      await fetch(`${base}/Drivers/${id}/Attachments/${b.AttachedFileId}`, { method: 'DELETE', headers: authHeaders });
      expect(storedFiles().length).toBe(before);
    });

    test('when the owning entity is deleted, then its files and their bytes go', async () => {
      const championship = await create('Championships');
      const event = await create('Events', `?championshipId=${championship}`);
      const before = storedFiles().length;
      for (const [plural, id] of [['Championships', championship], ['Events', event]] as const) {
        const p = await prepare(plural, id);
        await upload(p.Url, await lz4(content()));
        expect((await finalise(plural, id, p.AttachedFileId)).status).toBe(200);
      }
      expect(storedFiles().length).toBe(before + 2);
      expect((await fetch(`${base}/Championships/${championship}`, { method: 'DELETE', headers: authHeaders })).status).toBe(204);
      expect(storedFiles().length).toBe(before);
    });

    test('when an entity is copied with CopyAll, then the copy references the same bytes, which stay when the source is deleted', async () => {
      const car = await create('Cars');
      const frame = await lz4(content());
      const p = await prepare('Cars', car);
      await upload(p.Url, frame);
      await finalise('Cars', car, p.AttachedFileId);
      const before = storedFiles().length;
      const copy = await fetch(`${base}/Cars`, { method: 'POST', headers: json, body: JSON.stringify({ CopyFromId: car, CopyAll: true, ParameterUpdates: [] }) });
      const copyId = ((await copy.json()) as { Id: string }).Id;
      expect(storedFiles().length).toBe(before);
      await fetch(`${base}/Cars/${car}`, { method: 'DELETE', headers: authHeaders });
      expect(storedFiles().length).toBe(before);
      const [copied] = await list('Cars', copyId);
      expect(copied?.Parameters['ServerAttachedFileState']).toBe(2);
      expect((await download(copied?.SignedURL as string)).bytes.equals(frame)).toBe(true);
    });

    test('when a file is prepared with IfSingleOverwriteExisting under a custom property, then it replaces the earlier one once available', async () => {
      const car = await create('Cars');
      const single = { CustomPropertyAttachedFileName: 'SetupSheet', IfSingleOverwriteExisting: true, UseCompression: false };
      const first = await prepare('Cars', car, single);
      await upload(first.Url, Buffer.from('first setup sheet'));
      await finalise('Cars', car, first.AttachedFileId);
      const second = await prepare('Cars', car, single);
      await upload(second.Url, Buffer.from('second setup sheet'));
      // Until the new one is available, the earlier file stays.
      expect((await list('Cars', car)).map((f) => f.Id)).toEqual([first.AttachedFileId, second.AttachedFileId]);
      await finalise('Cars', car, second.AttachedFileId);
      const listed = await list('Cars', car);
      expect(listed.map((f) => f.Id)).toEqual([second.AttachedFileId]);
      expect((await download(listed[0]?.SignedURL as string)).bytes.toString()).toBe('second setup sheet');
    });

    test('when a file under a custom property is finalised while another is still uploading, then the upload in progress is kept and finalises in its turn', async () => {
      const car = await create('Cars');
      const single = { CustomPropertyAttachedFileName: 'SetupSheet', IfSingleOverwriteExisting: true, UseCompression: false };
      const first = await prepare('Cars', car, single);
      const second = await prepare('Cars', car, single);
      await upload(second.Url, Buffer.from('second setup sheet'));
      expect((await finalise('Cars', car, second.AttachedFileId)).status).toBe(200);
      // The first was prepared earlier but not uploaded yet: it is no earlier file, and its upload still works.
      expect((await upload(first.Url, Buffer.from('first setup sheet'))).status).toBe(200);
      expect((await finalise('Cars', car, first.AttachedFileId)).status).toBe(200);
      const listed = await list('Cars', car);
      expect(listed.map((f) => f.Id)).toEqual([first.AttachedFileId]);
      expect((await download(listed[0]?.SignedURL as string)).bytes.toString()).toBe('first setup sheet');
    });

    test('when files under one custom property are finalised at the same time, then each finalise answers 200 and one file is left', async () => {
      const single = { CustomPropertyAttachedFileName: 'SetupSheet', IfSingleOverwriteExisting: true, UseCompression: false };
      const cars = await Promise.all(Array.from({ length: 6 }, () => create('Cars')));
      const files = await Promise.all(
        cars.map(async (car) => {
          const pair = [await prepare('Cars', car, single), await prepare('Cars', car, single)];
          for (const [i, p] of pair.entries()) await upload(p.Url, Buffer.from(`setup sheet ${i}`));
          return { car, ids: pair.map((p) => p.AttachedFileId) };
        }),
      );
      // Each finalise marks its own record and removes the other: done at once, two of them met in a deadlock.
      const answers = await Promise.all(files.flatMap(({ car, ids }) => ids.map((id) => finalise('Cars', car, id))));
      expect(await Promise.all(answers.map(async (a) => `${a.status} ${a.status === 200 ? '' : await a.text()}`))).toEqual(answers.map(() => '200 '));
      for (const { car, ids } of files) {
        const listed = await list('Cars', car);
        expect(listed).toHaveLength(1);
        expect(ids).toContain(listed[0]?.Id);
        expect(listed[0]?.Parameters['ServerAttachedFileState']).toBe(2);
      }
    });
  });
});

/**
 * Sends `head` (a request without its body) on a raw connection and reads the answer: its head, its body and whether
 * the server closed its side after it. Fails when no answer comes within `ms` (an answer that waits for the body).
 */
function rawExchange(url: string, head: string, ms = 3000): Promise<{ head: string; body: string; serverClosed: boolean }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${ms} ms: ${JSON.stringify(received)}`));
    }, ms);
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => {
      clearTimeout(timer);
      socket.destroy();
      const at = received.indexOf('\r\n\r\n');
      resolve({ head: received.slice(0, at + 2), body: received.slice(at + 4), serverClosed: true });
    });
    socket.write(head);
  });
}

async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
