import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3BlobStore, contentKey } from '@pitwall/blob-store';
import { AttachmentStatus } from '@pitwall/client';
import { compressLz4, decodeLz4Frames } from '@pitwall/formats';
import { telemetry, type Listing } from './support/attachments';
import { DistributedStack, type Member } from './support/distributed';

// s3rver is the S3 protocol server available here; the apps hold nothing specific to it. It accepts a presigned PUT
// with a tampered signature and answers a ranged GET through a presigned URL with 416, so tampering and ranges are
// tested on the gateway's own signed URLs (attachments.distributed.test.ts), not here.
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

describe('attached files on the five-process stack with an S3 blob store (s3rver): the bytes go to the store, not through the services', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-e2e-s3-'));
  const bucket = `pitwall-${randomUUID().slice(0, 8)}`;
  let server: { close(): Promise<void> };
  let endpoint: string;
  let s3: S3BlobStore;
  let stack: DistributedStack;
  let m: Member;

  beforeAll(async () => {
    const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: bucket }] });
    server = s3rver;
    endpoint = `http://127.0.0.1:${(await s3rver.run()).port}`;
    const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    s3 = new S3BlobStore({ endpoint, region: 'us-east-1', bucket, credentials, forcePathStyle: true });
    stack = await DistributedStack.start({
      env: {
        DATA_DIR: join(dir, 'data'),
        BLOB_STORE: 's3',
        S3_ENDPOINT: endpoint,
        S3_BUCKET: bucket,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: credentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    m = await stack.member('admin');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await s3?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

  test.each([
    ['Championship', 'Championships'],
    ['Car', 'Cars'],
    ['Event', 'Events'],
  ])('when a %s file is prepared, PUT to the presigned URL, finalised, listed and downloaded, then the store holds it under its hash and gives it back byte for byte', async (name) => {
    const c = m.client as unknown as Record<string, (...args: unknown[]) => Promise<{ statusCode: number; returnValue?: unknown }>>;
    let id: string;
    if (name === 'Event') {
      const champ = (await m.client.addChampionship({ ParameterUpdates: [{ Name: 'Name', Value: 'Series' }] })).returnValue?.Id as string;
      id = (await m.client.addEvent(champ, { ParameterUpdates: [{ Name: 'Name', Value: 'Spa' }] })).returnValue?.Id as string;
    } else {
      id = ((await c[`add${name}`]?.({ ParameterUpdates: [{ Name: 'Name', Value: `${name} on S3` }] })) as { returnValue: { Id: string } }).returnValue.Id;
    }
    const frame = Buffer.from(await compressLz4(telemetry(256 * 1024)));

    const prepared = (await c[`prepare${name}Attachment`]?.(id, { FileName: 'stint2.ld', UseCompression: true, AttachedFileGroupName: 'DataFile' })) as { statusCode: number; returnValue: { AttachedFileId: string; Url: string } };
    expect(prepared.statusCode).toBe(200);
    // The store's own presigned PUT: the bytes never pass through the gateway.
    expect(prepared.returnValue.Url.startsWith(`${endpoint}/${bucket}/staging/${prepared.returnValue.AttachedFileId}?`)).toBe(true);
    const put = await fetch(prepared.returnValue.Url, { method: 'PUT', body: frame });
    expect(put.status).toBe(200);

    const finalised = (await c[`update${name}Attachment`]?.(id, prepared.returnValue.AttachedFileId, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] })) as { statusCode: number; returnValue: Listing };
    expect(finalised.statusCode).toBe(200);
    expect(finalised.returnValue.Parameters).toMatchObject({ ServerAttachedFileState: 2, FileSize: frame.length });
    const key = contentKey(sha256(frame));
    expect(await s3.exists(key)).toBe(true);
    expect(await s3.exists(`staging/${prepared.returnValue.AttachedFileId}`)).toBe(false);

    const listed = (await c[`get${name}Attachments`]?.(id))?.returnValue as Listing[];
    expect(listed.map((f) => f.Id)).toEqual([prepared.returnValue.AttachedFileId]);
    expect(listed[0]?.SignedURL?.startsWith(`${endpoint}/${bucket}/${key}?`)).toBe(true);
    const got = await fetch(listed[0]?.SignedURL as string);
    expect(got.status).toBe(200);
    // A download of the file's name, as from the gateway: a browser saves it rather than showing it.
    expect([got.headers.get('content-disposition'), got.headers.get('content-type')]).toEqual([`attachment; filename="stint2.ld"; filename*=UTF-8''stint2.ld`, 'application/octet-stream']);
    expect(Buffer.from(await got.arrayBuffer()).equals(frame)).toBe(true);

    expect((await c[`delete${name}Attachment`]?.(id, prepared.returnValue.AttachedFileId))?.statusCode).toBe(204);
    expect(await s3.exists(key)).toBe(false);
  });

  test('when the client library uploads in one call, then it goes through the presigned URL and the stored frame decodes to the file', async () => {
    const car = (await m.client.addCar({ ParameterUpdates: [{ Name: 'Name', Value: 'Client on S3' }] })).returnValue?.Id as string;
    const original = telemetry(200 * 1024);

    const result = await m.client.addAttachmentToCar(m.accountId, car, { FileName: 'stint3.ld', UseCompression: true, AttachedFileGroupName: 'DataFile' }, original);

    expect(result).toMatchObject({ status: AttachmentStatus.Success, attachedFileId: expect.any(String) });
    expect(result.uploadUrl?.startsWith(`${endpoint}/`)).toBe(true);
    const stored = Buffer.from(await (await fetch(result.attachedFile?.SignedURL as string)).arrayBuffer());
    const parts: Uint8Array[] = [];
    for await (const part of decodeLz4Frames([stored])) parts.push(part);
    expect(Buffer.concat(parts).equals(original)).toBe(true);
  });

  test('when the bytes PUT to the store are not a valid LZ4 frame, then the finalise is a 409 with the reason and the file stays unavailable', async () => {
    const car = (await m.client.addCar({ ParameterUpdates: [{ Name: 'Name', Value: 'Corrupt on S3' }] })).returnValue?.Id as string;
    const prepared = (await m.client.prepareCarAttachment(car, { FileName: 'bad.ld', UseCompression: true })).returnValue as { AttachedFileId: string; Url: string };
    const frame = Buffer.from(await compressLz4(telemetry(64 * 1024)));
    frame[frame.length - 20] = (frame[frame.length - 20] as number) ^ 0xff;
    expect((await fetch(prepared.Url, { method: 'PUT', body: frame })).status).toBe(200);

    const finalised = await m.client.updateCarAttachment(car, prepared.AttachedFileId, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] });

    expect(finalised.statusCode).toBe(409);
    expect(finalised.message).toMatch(/not a valid LZ4 frame/);
    const listed = (await m.client.getCarAttachments(car)).returnValue ?? [];
    expect(listed.map((f) => [f.Id, f.Parameters['ServerAttachedFileState'], f.SignedURL])).toEqual([[prepared.AttachedFileId, 0, null]]);
  });
});
