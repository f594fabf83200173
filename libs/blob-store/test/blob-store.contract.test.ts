import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { BlobNotFoundError, BlobRangeError, BlobTooLargeError, InvalidBlobKeyError, type BlobStore } from '../src';
import { startFilesystemBackend, startS3Backend, type BackendUnderTest } from './support';

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** A stream delivering the bytes in chunks, as an HTTP request body would. */
function streamOf(data: Buffer, chunkSize = 64 * 1024): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let i = 0; i < data.length; i += chunkSize) yield data.subarray(i, i + chunkSize);
  }
  return Readable.from(chunks());
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const backends: [string, () => Promise<BackendUnderTest>][] = [
  ['fs', startFilesystemBackend],
  ['s3', startS3Backend],
];

describe.each(backends)('BlobStore contract (%s)', (kind, start) => {
  let backend: BackendUnderTest;
  let store: BlobStore;
  beforeAll(async () => {
    backend = await start();
    store = backend.store;
  });
  afterAll(() => backend.stop());

  describe('putStream', () => {
    test('when bytes are streamed in, then they are stored under their SHA-256 and come back exactly', async () => {
      // Over one 8 MiB multipart part, so the S3 backend uploads in several parts.
      const data = randomBytes(9 * 1024 * 1024 + 17);
      const stored = await store.putStream(streamOf(data));
      expect(stored).toEqual({ sha256: sha256(data), size: data.length, key: `sha256/${sha256(data)}` });
      expect(await store.stat(stored.key)).toEqual({ size: data.length });
      expect(await store.exists(stored.key)).toBe(true);
      expect(Buffer.compare(await readAll(await store.openRead(stored.key)), data)).toBe(0);
    });

    test('when the same bytes are uploaded twice, then they are stored once', async () => {
      const data = randomBytes(100_000);
      const before = await backend.allKeys();
      const first = await store.putStream(streamOf(data));
      const second = await store.putStream(streamOf(data, 999));
      expect(second).toEqual(first);
      const added = (await backend.allKeys()).filter((k) => !before.includes(k));
      expect(added).toEqual([first.key]);
    });

    test('when the content is empty, then it is stored and reads back empty', async () => {
      const stored = await store.putStream(Readable.from([]));
      expect(stored.size).toBe(0);
      expect(stored.sha256).toBe(sha256(Buffer.alloc(0)));
      expect((await readAll(await store.openRead(stored.key))).length).toBe(0);
    });

    test('when more bytes than maxBytes arrive, then it is refused and nothing is kept', async () => {
      const before = await backend.allKeys();
      const data = randomBytes(10 * 1024 * 1024);
      await expect(store.putStream(streamOf(data), { maxBytes: 9 * 1024 * 1024 })).rejects.toBeInstanceOf(BlobTooLargeError);
      await expect(store.putStream(streamOf(data.subarray(0, 1001)), { maxBytes: 1000 })).rejects.toThrow(/exceeds the limit of 1000 bytes/);
      expect(await backend.allKeys()).toEqual(before);
      expect(await store.exists(`sha256/${sha256(data)}`)).toBe(false);
    });

    test('when a request body is over maxBytes, then it is left open so the caller can still answer 413', async () => {
      const body = streamOf(randomBytes(5000), 1000);
      await expect(store.putStream(body, { maxBytes: 2500 })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(body.destroyed).toBe(false);
      body.destroy();
    });

    test('when exactly maxBytes arrive, then it is accepted', async () => {
      const data = randomBytes(1000);
      expect((await store.putStream(streamOf(data), { maxBytes: 1000 })).size).toBe(1000);
    });

    test('when the source fails midway, then the error comes through and nothing is kept', async () => {
      const before = await backend.allKeys();
      async function* failing(): AsyncGenerator<Buffer> {
        yield randomBytes(1000);
        throw new Error('client went away');
      }
      await expect(store.putStream(Readable.from(failing()))).rejects.toThrow('client went away');
      expect(await backend.allKeys()).toEqual(before);
    });
  });

  describe('reading', () => {
    const data = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
    let key: string;
    beforeAll(async () => {
      key = (await store.putStream(streamOf(data))).key;
    });

    test('when a range is asked for, then exactly those bytes (inclusive end) come back', async () => {
      expect(Buffer.compare(await readAll(await store.openRead(key, { start: 100, end: 199 })), data.subarray(100, 200))).toBe(0);
      expect(Buffer.compare(await readAll(await store.openRead(key, { start: 9_990 })), data.subarray(9_990))).toBe(0);
      expect(Buffer.compare(await readAll(await store.openRead(key, { end: 9 })), data.subarray(0, 10))).toBe(0);
    });

    test('when a range ends past the blob, then it is cut at the end; when it starts past the end, then it is refused', async () => {
      expect(Buffer.compare(await readAll(await store.openRead(key, { start: 9_000, end: 20_000 })), data.subarray(9_000))).toBe(0);
      await expect(store.openRead(key, { start: 10_000 })).rejects.toBeInstanceOf(BlobRangeError);
      await expect(store.openRead(key, { start: 50, end: 10 })).rejects.toBeInstanceOf(BlobRangeError);
    });

    test('when readRange is called, then it returns the bytes at that offset, fewer at the end', async () => {
      expect(Buffer.compare(await store.readRange(key, 4096, 300), data.subarray(4096, 4396))).toBe(0);
      expect(Buffer.compare(await store.readRange(key, 9_900, 300), data.subarray(9_900))).toBe(0);
      expect((await store.readRange(key, 20_000, 10)).length).toBe(0);
    });

    test('when a blob does not exist, then stat is null, reads say not found and delete is harmless', async () => {
      const missing = `sha256/${sha256(randomBytes(8))}`;
      expect(await store.stat(missing)).toBeNull();
      expect(await store.exists(missing)).toBe(false);
      await expect(store.openRead(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.readRange(missing, 0, 10)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.delete(missing)).resolves.toBeUndefined();
    });

    test('when a blob is deleted, then it is gone and deleting it again is harmless', async () => {
      const other = await store.putStream(streamOf(randomBytes(500)));
      await store.delete(other.key);
      expect(await store.exists(other.key)).toBe(false);
      await expect(store.delete(other.key)).resolves.toBeUndefined();
    });

    test('when the store holds entries that are not blob keys beside blobs, then a listing yields the blobs alone', async () => {
      const blob = await store.putStream(streamOf(randomBytes(100)));
      const staged = store.stagingKey(randomUUID());
      await store.putStaged(staged, streamOf(randomBytes(10)));
      for (const stray of ['sha256/README', 'sha256/.notes.txt.x8Yq2z', `sha256/${'A'.repeat(64)}`, 'staging/has space', 'staging/a.b']) await backend.putStray(stray, 'not a blob');
      const listed = async (area: 'sha256' | 'staging') => {
        const keys: string[] = [];
        for await (const b of store.list(area)) keys.push(b.key);
        return keys;
      };
      expect(await listed('sha256')).toContain(blob.key);
      expect((await listed('sha256')).every((k) => /^sha256\/[0-9a-f]{64}$/.test(k))).toBe(true);
      expect(await listed('staging')).toContain(staged);
      expect((await listed('staging')).every((k) => /^staging\/[A-Za-z0-9_-]+$/.test(k))).toBe(true);
    });

    test('when a key is not a blob key, then it is refused before reaching the backend', async () => {
      for (const bad of ['../etc/passwd', 'sha256/../../x', 'sha256/ABC', 'staging/a/b', '']) {
        await expect(store.stat(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(store.delete(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      }
      expect(() => store.stagingKey('has space')).toThrow(InvalidBlobKeyError);
    });
  });

  describe('staged uploads', () => {
    test('when bytes are staged and promoted, then they move to their content key and the staged copy is gone', async () => {
      const data = randomBytes(300_000);
      const staging = store.stagingKey(randomUUID());
      expect(await store.putStaged(staging, streamOf(data))).toEqual({ sha256: sha256(data), size: data.length });
      expect(await store.stat(staging)).toEqual({ size: data.length });
      const promoted = await store.promoteStaged(staging);
      expect(promoted).toEqual({ sha256: sha256(data), size: data.length, key: `sha256/${sha256(data)}` });
      expect(await store.exists(staging)).toBe(false);
      expect(Buffer.compare(await store.readRange(promoted.key, 0, data.length), data)).toBe(0);
    });

    test('when the promoted content is already stored, then it is kept once', async () => {
      const data = randomBytes(2000);
      const existing = await store.putStream(streamOf(data));
      const before = await backend.allKeys();
      const staging = store.stagingKey(randomUUID());
      await store.putStaged(staging, streamOf(data));
      expect(await store.promoteStaged(staging)).toEqual(existing);
      expect(await backend.allKeys()).toEqual(before);
    });

    test('when an inspector reads the staged bytes during promotion, then it sees them all in the same pass', async () => {
      const data = randomBytes(200_000);
      const staging = store.stagingKey(randomUUID());
      await store.putStaged(staging, streamOf(data));
      let seen = Buffer.alloc(0);
      let told: number | undefined;
      const promoted = await store.promoteStaged(staging, {
        // Told the size of what it reads (an LZ4 frame's ratio bound needs it).
        inspect: async (bytes, size) => {
          told = size;
          for await (const chunk of bytes) seen = Buffer.concat([seen, chunk]);
        },
      });
      expect(Buffer.compare(seen, data)).toBe(0);
      expect(told).toBe(data.length);
      expect(promoted.sha256).toBe(sha256(data));
    });

    test('when the inspector refuses the staged bytes, then nothing is promoted and they stay staged', async () => {
      const data = randomBytes(50_000);
      const staging = store.stagingKey(randomUUID());
      await store.putStaged(staging, streamOf(data));
      const refuse = async (bytes: AsyncIterable<Buffer>): Promise<void> => {
        for await (const _chunk of bytes) throw new Error('not an LZ4 frame');
      };
      await expect(store.promoteStaged(staging, { inspect: refuse })).rejects.toThrow('not an LZ4 frame');
      expect(await store.exists(staging)).toBe(true);
      expect(await store.exists(`sha256/${sha256(data)}`)).toBe(false);
      await store.delete(staging);
    });

    test('when nothing was staged, then promote says not found', async () => {
      await expect(store.promoteStaged(store.stagingKey(randomUUID()))).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    test('when the staged bytes exceed maxBytes, then promote refuses and removes them', async () => {
      const staging = store.stagingKey(randomUUID());
      await store.putStaged(staging, streamOf(randomBytes(5000)));
      await expect(store.promoteStaged(staging, { maxBytes: 4999 })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await store.exists(staging)).toBe(false);
    });

    if (kind === 'fs') {
      test('when URLs are asked for, then the fs backend has none (the gateway signs its own)', async () => {
        expect(await store.presignPut(store.stagingKey('u1'), 60)).toBeNull();
        expect(await store.presignGet(`sha256/${sha256(Buffer.from('x'))}`, 60)).toBeNull();
      });
    } else {
      test('when a client PUTs to the presigned URL, then the bytes land in staging without passing through the store', async () => {
        const data = randomBytes(70_000);
        const staging = store.stagingKey(randomUUID());
        const url = await store.presignPut(staging, 300);
        expect(url).toMatch(/X-Amz-Signature=/);
        const put = await fetch(url!, { method: 'PUT', body: data });
        expect(put.status).toBe(200);
        const promoted = await store.promoteStaged(staging);
        expect(promoted.sha256).toBe(sha256(data));
        const get = await fetch((await store.presignGet(promoted.key, 300))!);
        expect(get.status).toBe(200);
        expect(Buffer.compare(Buffer.from(await get.arrayBuffer()), data)).toBe(0);
      });

      test('when the presigned PUT is used again while its upload is being promoted, then the content key holds the bytes that were hashed, not the later ones', async () => {
        const first = randomBytes(70_000);
        const later = randomBytes(70_000);
        const staging = store.stagingKey(randomUUID());
        const url = (await store.presignPut(staging, 300))!;
        expect((await fetch(url, { method: 'PUT', body: first })).status).toBe(200);
        const promoted = await store.promoteStaged(staging, {
          keepStaged: true,
          // Mid-way through the check, the same URL takes other bytes.
          inspect: async (bytes) => {
            let replaced = false;
            for await (const _chunk of bytes) {
              if (!replaced) {
                replaced = true;
                expect((await fetch(url, { method: 'PUT', body: later })).status).toBe(200);
              }
            }
          },
        });
        expect(promoted).toEqual({ sha256: sha256(first), size: first.length, key: `sha256/${sha256(first)}` });
        expect(Buffer.compare(await store.readRange(promoted.key, 0, first.length), first)).toBe(0);
        await store.delete(staging);
      });

      test('when the upload was PUT with its own Content-Encoding and Content-Type, then the stored content answers neither', async () => {
        const data = randomBytes(10_000);
        const staging = store.stagingKey(randomUUID());
        const url = (await store.presignPut(staging, 300))!;
        expect((await fetch(url, { method: 'PUT', body: data, headers: { 'Content-Encoding': 'gzip', 'Content-Type': 'text/html' } })).status).toBe(200);
        const promoted = await store.promoteStaged(staging);
        const get = await fetch((await store.presignGet(promoted.key, 300))!);
        expect([get.headers.get('content-encoding'), get.headers.get('content-type')]).toEqual([null, 'application/octet-stream']);
        expect(Buffer.compare(Buffer.from(await get.arrayBuffer()), data)).toBe(0);
      });

      test('when a download URL is signed with a download name, then the store answers the bytes as a download of that name (the overrides are in the signed query: SigV4 signs all of it)', async () => {
        const data = Buffer.from('<script>alert(1)</script>');
        const stored = await store.putStream(streamOf(data));
        const url = (await store.presignGet(stored.key, 300, { downloadName: 'Spa "quali" ü.html' }))!;

        const get = await fetch(url);
        expect(get.status).toBe(200);
        expect([get.headers.get('content-disposition'), get.headers.get('content-type')]).toEqual([`attachment; filename="Spa _quali_ _.html"; filename*=UTF-8''Spa%20%22quali%22%20%C3%BC.html`, 'application/octet-stream']);
        expect(Buffer.compare(Buffer.from(await get.arrayBuffer()), data)).toBe(0);
      });
    }
  });
});
