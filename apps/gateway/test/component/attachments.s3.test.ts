import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { S3BlobStore, UrlSigner } from '@pitwall/blob-store';
import { entityService } from '@pitwall/entity-service';
import { compressLz4 } from '@pitwall/formats';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { authHeaders, fakeAuth } from '../support/gateway-harness';

// s3rver is the S3 protocol server available here; the backend itself holds nothing specific to it.
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

const SECRET = 'component-test-signing-secret';
const json = { ...authHeaders, 'Content-Type': 'application/json' };

describe('attached files with the S3 backend (s3rver on port 0): the bytes go to the store, not through the services', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-s3-attachments-'));
  const bucket = `pitwall-${randomUUID().slice(0, 8)}`;
  let server: { close(): Promise<void> };
  let s3: S3BlobStore;
  let stack: InProcessStack;
  let http: HttpEntryPoint;
  let base: string;

  beforeAll(async () => {
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
    const { port } = await (server as unknown as { run(): Promise<{ port: number }> }).run();
    const endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3BlobStore({ endpoint, region: 'us-east-1', bucket, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, forcePathStyle: true });
    stack = await startInProcessStack();
    http = await listen(buildGateway({ bus: stack.bus, auth: fakeAuth, logger: createLogger('gateway-test', 'silent'), attachments: { blobs: s3, signer: new UrlSigner(SECRET), maxUploadBytes: 1024 * 1024 } }), 0, '127.0.0.1');
    base = http.address;
    await stack.start(entityService, {
      BLOB_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      URL_SIGNING_SECRET: SECRET,
      PUBLIC_BASE_URL: base,
      DATA_DIR: dir,
    });
  });
  afterAll(async () => {
    await http?.stop();
    await stack?.stop();
    await s3?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function championship(): Promise<string> {
    const res = await fetch(`${base}/Championships`, { method: 'POST', headers: json, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: 'S3 Cup' }] }) });
    return ((await res.json()) as { Id: string }).Id;
  }
  async function prepare(id: string): Promise<{ AttachedFileId: string; Url: string }> {
    const res = await fetch(`${base}/Championships/${id}/Attachments`, { method: 'POST', headers: json, body: JSON.stringify({ FileName: 'rules.pdf', UseCompression: true }) });
    expect(res.status).toBe(200);
    return (await res.json()) as { AttachedFileId: string; Url: string };
  }
  const finalise = (id: string, fileId: string) =>
    fetch(`${base}/Championships/${id}/Attachments/${fileId}`, { method: 'PUT', headers: json, body: JSON.stringify({ ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] }) });

  test('when a file is uploaded to the presigned URL and finalised, then it is promoted with its hash and size and downloads from the store', async () => {
    const id = await championship();
    const prepared = await prepare(id);
    expect(prepared.Url.startsWith(base)).toBe(false);
    expect(new URL(prepared.Url).pathname).toContain(`/${bucket}/staging/${prepared.AttachedFileId}`);
    // A file as one compresses (within LZ4_MAX_RATIO: a text repeated 2,000 times compressed 240:1, refused as a bomb).
    const frame = Buffer.from(await compressLz4(Buffer.concat([Buffer.from('regulations '.repeat(200)), randomBytes(20_000)])));
    expect((await fetch(prepared.Url, { method: 'PUT', body: frame })).status).toBe(200);

    const done = await finalise(id, prepared.AttachedFileId);
    expect(done.status).toBe(200);
    const record = (await done.json()) as { Parameters: Record<string, unknown>; SignedURL: string };
    expect(record.Parameters).toMatchObject({ FileSize: frame.length, ServerAttachedFileState: 2 });
    expect(record.SignedURL.startsWith(base)).toBe(false);
    expect(Buffer.from(await (await fetch(record.SignedURL)).arrayBuffer()).equals(frame)).toBe(true);
    expect(await s3.exists(s3.stagingKey(prepared.AttachedFileId))).toBe(false);

    expect((await fetch(`${base}/Championships/${id}/Attachments/${prepared.AttachedFileId}`, { method: 'DELETE', headers: authHeaders })).status).toBe(204);
    const keys = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(keys.Contents ?? []).toEqual([]);
  });

  test('when the upload decompresses past LZ4_MAX_RATIO times its size, then the finalise is 409 naming it, on S3 as on the filesystem, and the file stays unavailable', async () => {
    const id = await championship();
    const prepared = await prepare(id);
    const bomb = Buffer.from(await compressLz4(Buffer.from('regulations '.repeat(2000))));
    expect((await fetch(prepared.Url, { method: 'PUT', body: bomb })).status).toBe(200);
    const res = await finalise(id, prepared.AttachedFileId);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/would decompress too far .*LZ4_MAX_RATIO/);
  });

  test('when a file is finalised before anything was uploaded, or its upload is not an LZ4 frame, then it is 409 and stays below 2', async () => {
    const id = await championship();
    const prepared = await prepare(id);
    expect((await finalise(id, prepared.AttachedFileId)).status).toBe(409);
    await fetch(prepared.Url, { method: 'PUT', body: Buffer.from('not a frame at all') });
    const res = await finalise(id, prepared.AttachedFileId);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/not a valid LZ4 frame/);
    const listed = (await (await fetch(`${base}/Championships/${id}/Attachments`, { headers: authHeaders })).json()) as { Parameters: Record<string, unknown>; SignedURL: string | null }[];
    expect(listed[0]).toMatchObject({ Parameters: { ServerAttachedFileState: 0 }, SignedURL: null });
  });
});
