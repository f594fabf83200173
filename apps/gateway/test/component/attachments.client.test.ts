import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemBlobStore, UrlSigner } from '@pitwall/blob-store';
import { AttachmentStatus, PitwallClient, type AttachmentResult, type AttachmentSource } from '@pitwall/client';
import type { PrepareAttachmentBody } from '@pitwall/contracts';
import { entityService } from '@pitwall/entity-service';
import { decodeLz4Frames } from '@pitwall/formats';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { ACCOUNT_ID, API_KEY, fakeAuth } from '../support/gateway-harness';

const SECRET = 'client-test-signing-secret';
const MAX_UPLOAD_BYTES = 256 * 1024;

type Add = (accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource) => Promise<AttachmentResult>;
type Retry = (result: AttachmentResult, file?: AttachmentSource) => Promise<AttachmentResult>;

/** The client library's one-call upload and its retry, through a real gateway and entity-service (filesystem blobs). */
describe('client: addAttachmentTo<Entity> and retry<Entity>Attachment through the gateway', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-client-attachments-'));
  const blobDir = join(dir, 'blobs');
  let stack: InProcessStack;
  let http: HttpEntryPoint;
  let client: PitwallClient;

  beforeAll(async () => {
    stack = await startInProcessStack();
    const logger = createLogger('gateway-test', 'silent');
    http = await listen(buildGateway({ bus: stack.bus, auth: fakeAuth, logger, attachments: { blobs: new FilesystemBlobStore(blobDir), signer: new UrlSigner(SECRET), maxUploadBytes: MAX_UPLOAD_BYTES } }), 0, '127.0.0.1');
    await stack.start(entityService, { BLOB_DIR: blobDir, URL_SIGNING_SECRET: SECRET, PUBLIC_BASE_URL: http.address, MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), UPLOAD_URL_TTL_S: '600' });
    client = new PitwallClient({ baseUrl: http.address, apiKey: API_KEY, accountId: ACCOUNT_ID });
  });
  afterAll(async () => {
    await http?.stop();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const methods = (singular: string): { add: Add; retry: Retry; list: (id: string) => Promise<{ Id: string; Parameters: Record<string, unknown> }[]> } => {
    const c = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    return {
      add: (...args) => c[`addAttachmentTo${singular}`]!.apply(client, args) as Promise<AttachmentResult>,
      retry: (...args) => c[`retry${singular}Attachment`]!.apply(client, args) as Promise<AttachmentResult>,
      list: async (id) => ((await c[`get${singular}Attachments`]!.apply(client, [id])) as { returnValue: { Id: string; Parameters: Record<string, unknown> }[] }).returnValue,
    };
  };

  async function championship(): Promise<string> {
    const created = await client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: `Cup ${randomUUID().slice(0, 8)}` }] });
    expect(created.success).toBe(true);
    return created.returnValue!.Id;
  }

  /** A telemetry-like file: compressible, with a random head so each test's bytes are its own. */
  const content = (size = 40_000): Buffer => {
    const out = Buffer.alloc(size);
    for (let i = 0; i < size; i++) out[i] = (Math.sin(i / 50) * 100 + 128) & 0xff;
    randomBytes(64).copy(out, 0);
    return out;
  };

  async function downloaded(result: AttachmentResult): Promise<Buffer> {
    const url = result.attachedFile?.SignedURL;
    expect(url).toEqual(expect.any(String));
    const res = await fetch(url as string);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  async function lz4Decoded(bytes: Buffer): Promise<Buffer> {
    const parts: Uint8Array[] = [];
    for await (const part of decodeLz4Frames([bytes])) parts.push(part);
    return Buffer.concat(parts);
  }

  /** A source that opens a fresh stream per read; the first read breaks off after a few bytes (a failed PUT). */
  const failingOnce = (bytes: Buffer): (() => AsyncIterable<Uint8Array>) => {
    let opened = 0;
    return () => {
      const first = opened++ === 0;
      return (async function* () {
        yield bytes.subarray(0, 1000);
        if (first) throw new Error('the disk went away');
        yield bytes.subarray(1000);
      })();
    };
  };

  const options = (more: Partial<PrepareAttachmentBody> = {}): PrepareAttachmentBody => ({ FileName: 'outing.ld', AttachedFileGroupName: 'DataFile', UseCompression: false, ...more });

  describe('when the upload goes through', () => {
    test.each([['Championship'], ['Car']])('when bytes are attached to a %s in one call, then the result is Success and the record downloads the same bytes', async (singular) => {
      const id = singular === 'Championship' ? await championship() : (await client.addCar({ ParameterUpdates: [{ Name: 'Name', Value: 'Car 7' }] })).returnValue!.Id;
      const bytes = content();

      const result = await methods(singular).add(ACCOUNT_ID, id, options(), bytes);

      expect(result).toMatchObject({ status: AttachmentStatus.Success, success: true, statusCode: 200, entityId: id, attachedFileId: expect.any(String) });
      expect(result.attachedFile?.Parameters).toMatchObject({ FileName: 'outing.ld', ServerAttachedFileState: 2, UseCompression: false, FileSize: bytes.length });
      expect((await downloaded(result)).equals(bytes)).toBe(true);
    });

    test('when UseCompression is set and a file path is given, then the stored bytes are one LZ4 frame that decodes to the file', async () => {
      const id = await championship();
      const bytes = content(300_000);
      const path = join(dir, `${randomUUID()}.ld`);
      writeFileSync(path, bytes);

      const result = await client.addAttachmentToChampionship(ACCOUNT_ID, id, options({ UseCompression: true }), path);

      expect(result.status).toBe(AttachmentStatus.Success);
      expect(result.attachedFile?.Parameters['UseCompression']).toBe(true);
      const stored = await downloaded(result);
      expect(stored.length).toBeLessThan(bytes.length);
      expect((await lz4Decoded(stored)).equals(bytes)).toBe(true);
      // What the client library compressed, the reference lz4 tool decompresses to the original bytes.
      expect(execFileSync('lz4', ['-d', '-c'], { input: stored, maxBuffer: 4 * bytes.length }).equals(bytes)).toBe(true);
    });

    test('when UseCompression is set and the source is a stream, then it is compressed on the way and stored as one valid frame', async () => {
      const id = await championship();
      const bytes = content(100_000);
      async function* stream() {
        for (let at = 0; at < bytes.length; at += 7_000) yield bytes.subarray(at, at + 7_000);
      }

      const result = await client.addAttachmentToChampionship(ACCOUNT_ID, id, options({ UseCompression: true }), stream());

      expect(result.status).toBe(AttachmentStatus.Success);
      expect((await lz4Decoded(await downloaded(result))).equals(bytes)).toBe(true);
    });
  });

  describe('when a step fails, then the status names it and a retry resumes from it', () => {
    test('when the PUT of the bytes breaks off, then FailedToUpload (the record waits in state 0), and a retry uploads to the same URL and finalises', async () => {
      const id = await championship();
      const bytes = content();

      const failed = await client.addAttachmentToChampionship(ACCOUNT_ID, id, options({ UseCompression: true }), failingOnce(bytes));

      expect(failed).toMatchObject({ status: AttachmentStatus.FailedToUpload, success: false, statusCode: 0, attachedFileId: expect.any(String) });
      expect(failed.message).toMatch(/upload did not complete/);
      expect((await methods('Championship').list(id)).map((f) => [f.Id, f.Parameters['ServerAttachedFileState']])).toEqual([[failed.attachedFileId, 0]]);

      const retried = await client.retryChampionshipAttachment(failed);

      expect(retried).toMatchObject({ status: AttachmentStatus.Success, attachedFileId: failed.attachedFileId });
      expect((await lz4Decoded(await downloaded(retried))).equals(bytes)).toBe(true);
      expect((await methods('Championship').list(id)).map((f) => f.Id)).toEqual([failed.attachedFileId]);
    });

    test('when the failed PUT read a one-shot stream, then a retry without the bytes says to pass them again, and with them succeeds', async () => {
      const id = await championship();
      const bytes = content();
      const failed = await client.addAttachmentToChampionship(ACCOUNT_ID, id, options(), failingOnce(bytes)());
      expect(failed.status).toBe(AttachmentStatus.FailedToUpload);

      const withoutBytes = await client.retryChampionshipAttachment(failed);
      expect(withoutBytes).toMatchObject({ status: AttachmentStatus.FailedToUpload, statusCode: 0 });
      expect(withoutBytes.message).toMatch(/pass the bytes again/);

      const retried = await client.retryChampionshipAttachment(withoutBytes, bytes);
      expect(retried.status).toBe(AttachmentStatus.Success);
      expect((await downloaded(retried)).equals(bytes)).toBe(true);
    });

    test('when the retried PUT had reached the server but its answer was lost, then the refused URL is recognised as used and the retry finalises', async () => {
      const id = await championship();
      const bytes = content();
      const failed = await client.addAttachmentToChampionship(ACCOUNT_ID, id, options(), failingOnce(bytes));
      // The bytes arrive, but the client never hears so.
      expect((await fetch(failed.uploadUrl as string, { method: 'PUT', body: bytes })).status).toBe(200);

      const retried = await client.retryChampionshipAttachment(failed);

      expect(retried).toMatchObject({ status: AttachmentStatus.Success, attachedFileId: failed.attachedFileId });
      expect((await downloaded(retried)).equals(bytes)).toBe(true);
    });

    test('when the upload URL is refused and nothing was uploaded (expired), then the retry replaces the stale record with a new one', async () => {
      const id = await championship();
      const bytes = content();
      const failed = await client.addAttachmentToChampionship(ACCOUNT_ID, id, options(), failingOnce(bytes));
      // As if the URL had expired while the client was away: the gateway refuses it with 403.
      const expired: AttachmentResult = { ...failed, uploadUrl: (failed.uploadUrl as string).replace(/sig=[^&]+/, 'sig=expired') };

      const retried = await client.retryChampionshipAttachment(expired);

      expect(retried.status).toBe(AttachmentStatus.Success);
      expect(retried.attachedFileId).not.toBe(failed.attachedFileId);
      expect((await methods('Championship').list(id)).map((f) => f.Id)).toEqual([retried.attachedFileId]);
      expect((await downloaded(retried)).equals(bytes)).toBe(true);
    });

    test('when the finalise answer was lost after it took effect, then the retry of the finalised file answers Success for the same single record', async () => {
      const id = await championship();
      const bytes = content();
      const done = await client.addAttachmentToChampionship(ACCOUNT_ID, id, options(), bytes);
      expect(done.status).toBe(AttachmentStatus.Success);

      const lostReply = await client.retryChampionshipAttachment({ ...done, status: AttachmentStatus.FailedToUpdateServerStatus, success: false });
      const again = await client.retryChampionshipAttachment(done);

      expect(lostReply).toMatchObject({ status: AttachmentStatus.Success, attachedFileId: done.attachedFileId });
      expect(lostReply.attachedFile?.Parameters['ServerAttachedFileState']).toBe(2);
      expect(again).toEqual(done);
      expect((await methods('Championship').list(id)).map((f) => f.Id)).toEqual([done.attachedFileId]);
      expect((await downloaded(lostReply)).equals(bytes)).toBe(true);
    });
  });

  describe('when a prepare is sent again with its Idempotency-Key', () => {
    test('then the repeat answers the same record (its URL signed afresh) and only one record exists', async () => {
      const id = await championship();
      const key = randomUUID();
      const prepare = () =>
        fetch(`${http.address}/Championships/${id}/Attachments`, {
          method: 'POST',
          headers: { ApiKey: API_KEY, AccountId: ACCOUNT_ID, 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify(options()),
        });

      const first = (await (await prepare()).json()) as { AttachedFileId: string; Url: string };
      const second = (await (await prepare()).json()) as { AttachedFileId: string; Url: string };

      expect(second.AttachedFileId).toBe(first.AttachedFileId);
      expect(new URL(second.Url).pathname).toBe(new URL(first.Url).pathname);
      expect((await methods('Championship').list(id)).map((f) => f.Id)).toEqual([first.AttachedFileId]);
    });
  });

  describe('when the server refuses, then the result carries its status and reason', () => {
    test('when the entity does not exist, then FailedToAdd with 404 and the reason', async () => {
      const result = await client.addAttachmentToChampionship(ACCOUNT_ID, randomUUID(), options(), content());

      expect(result).toMatchObject({ status: AttachmentStatus.FailedToAdd, success: false, statusCode: 404, attachedFileId: null });
      expect(result.message).toMatch(/not found/i);
    });

    test('when the options do not validate, then FailedToAdd with 400 and the field errors', async () => {
      const result = await client.addAttachmentToChampionship(ACCOUNT_ID, await championship(), options({ FileName: '' }), content());

      expect(result).toMatchObject({ status: AttachmentStatus.FailedToAdd, statusCode: 400 });
      expect(result.problem?.errors).toHaveProperty('FileName');
    });

    test('when an account the caller is not a member of is named, then FailedToAdd with 404 (the entity is not there for it)', async () => {
      const otherAccount = randomUUID();
      const result = await client.addAttachmentToChampionship(otherAccount, await championship(), options(), content());

      expect(result).toMatchObject({ status: AttachmentStatus.FailedToAdd, statusCode: 404, accountId: otherAccount });
    });

    test('when the file is over the upload cap, then FailedToUpload with 413 and its reason; a retry is refused the same way', async () => {
      const id = await championship();
      const result = await client.addAttachmentToChampionship(ACCOUNT_ID, id, options(), randomBytes(MAX_UPLOAD_BYTES + 1));

      expect(result).toMatchObject({ status: AttachmentStatus.FailedToUpload, statusCode: 413 });
      expect(result.message).toMatch(/larger than the limit/);
      expect(await client.retryChampionshipAttachment(result)).toMatchObject({ status: AttachmentStatus.FailedToUpload, statusCode: 413, attachedFileId: result.attachedFileId });
    });

    test('when the finalise is refused (no bytes arrived), then FailedToUpdateServerStatus with 409 and the reason', async () => {
      const id = await championship();
      const failed = await client.addAttachmentToChampionship(ACCOUNT_ID, id, options(), failingOnce(content()));

      const result = await client.retryChampionshipAttachment({ ...failed, status: AttachmentStatus.FailedToUpdateServerStatus });

      expect(result).toMatchObject({ status: AttachmentStatus.FailedToUpdateServerStatus, statusCode: 409, success: false });
      expect(result.message).toMatch(/No bytes were uploaded/);
    });
  });

  describe('when the prepare itself fails on the way (FailedToAdd), then the retry starts again', () => {
    let proxy: Server;
    let proxied: string;
    let refusals = 0;
    beforeAll(async () => {
      // In front of the gateway: the first prepare is answered 503 (as a gateway that lost its broker answers); every
      // other request goes through unchanged.
      proxy = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          if (req.method === 'POST' && /\/Attachments$/.test(req.url ?? '') && refusals++ === 0) {
            res.writeHead(503, { 'Content-Type': 'application/problem+json' }).end(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'the entity-service is not reachable' }));
            return;
          }
          const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)).map(([name, value]) => [name, String(value)]));
          void fetch(`${http.address}${req.url ?? ''}`, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }).then(async (answer) => {
            res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([name]) => !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))));
            res.end(Buffer.from(await answer.arrayBuffer()));
          });
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const address = proxy.address();
      proxied = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

    test('when the prepare is answered 503, then FailedToAdd with no record, and the retry prepares, uploads and finalises', async () => {
      const id = await championship();
      const through = new PitwallClient({ baseUrl: proxied, apiKey: API_KEY, accountId: ACCOUNT_ID });
      const bytes = content();

      const failed = await through.addAttachmentToChampionship(ACCOUNT_ID, id, options(), bytes);
      expect(failed).toMatchObject({ status: AttachmentStatus.FailedToAdd, success: false, statusCode: 503, attachedFileId: null });
      expect(await methods('Championship').list(id)).toEqual([]);

      const retried = await through.retryChampionshipAttachment(failed, bytes);
      expect(retried).toMatchObject({ status: AttachmentStatus.Success, success: true, entityId: id, attachedFileId: expect.any(String) });
      expect((await downloaded(retried)).equals(bytes)).toBe(true);
      expect((await methods('Championship').list(id)).map((f) => f.Id)).toEqual([retried.attachedFileId]);
    });
  });
});
