import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { FilesystemBlobStore, S3BlobStore, type BlobStore } from '../src';

/** A backend under test, with a look behind it: every key it holds, temporary names included. */
export interface BackendUnderTest {
  store: BlobStore;
  allKeys(): Promise<string[]>;
  /** Puts bytes under a name of the backend's own, past the store (what an operator or another tool might leave). */
  putStray(name: string, bytes: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startFilesystemBackend(): Promise<BackendUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-blobs-'));
  const store = new FilesystemBlobStore(dir);
  const list = (area: string): string[] => {
    try {
      return readdirSync(join(dir, area)).map((name) => `${area}/${name}`);
    } catch {
      return [];
    }
  };
  return {
    store,
    allKeys: async () => [...list('sha256'), ...list('staging')].sort(),
    putStray: async (name, bytes) => {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), bytes);
    },
    stop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** An S3 protocol server on a free port with its own directory and a fresh bucket. */
export async function startS3Backend(): Promise<BackendUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-s3rver-'));
  const bucket = `pitwall-test-${randomUUID().slice(0, 8)}`;
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const store = new S3BlobStore({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  });
  return {
    store,
    allKeys: async () => {
      const listed = await store.client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    },
    putStray: async (name, bytes) => void (await store.client.send(new PutObjectCommand({ Bucket: bucket, Key: name, Body: bytes }))),
    stop: async () => {
      await store.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
