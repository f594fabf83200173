import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { BlobStoreUnavailableError, S3BlobStore, createBlobStore } from '../src';

// A store that accepts connections and then stalls: with no bound on an answer, each call never settled and held one
// of the client's 50 sockets, and past fifty every later call failed. S3_TIMEOUT_MS cuts each attempt.
type Behaviour = 'silent' | 'head-then-stall';

async function stallingServer(behaviour: Behaviour): Promise<{ url: string; connections: () => number; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => {
      // A HEAD (stat) is answered at once with the object's size; a GET gets its head and 3 bytes of a million.
      if (behaviour === 'head-then-stall') socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\nContent-Type: application/octet-stream\r\nETag: "x"\r\nLast-Modified: Mon, 30 Nov 2026 00:00:00 GMT\r\n\r\nabc');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const KEY = `sha256/${'a'.repeat(64)}`;
const storeAt = (url: string, timeoutMs: number) => new S3BlobStore({ endpoint: url, region: 'us-east-1', bucket: 'stalled', credentials: { accessKeyId: 'k', secretAccessKey: 's' }, forcePathStyle: true, timeoutMs });

describe('the S3 store against a store that stalls (S3_TIMEOUT_MS)', () => {
  test('when the store accepts connections and never answers, then every call is an outage (503) after its attempts time out, sixty at once included', async () => {
    const server = await stallingServer('silent');
    const store = storeAt(server.url, 300);
    try {
      const calls = [store.probe(), store.stat(KEY), store.readRange(KEY, 0, 10), ...Array.from({ length: 60 }, () => store.stat(KEY))];
      const settled = await Promise.allSettled(calls);
      expect(settled.map((s) => (s.status === 'rejected' && s.reason instanceof BlobStoreUnavailableError ? 'unavailable' : s.status))).toEqual(calls.map(() => 'unavailable'));
      // Each call was given its attempts (the SDK's three), each on a connection of its own that was cut.
      expect(server.connections()).toBeGreaterThanOrEqual(63);
    } finally {
      await store.close();
      await server.stop();
    }
  }, 60_000);

  test('when the store answers a read\'s head and then its body stops, then the read fails as an outage instead of waiting for the rest', async () => {
    const server = await stallingServer('head-then-stall');
    const store = storeAt(server.url, 300);
    try {
      await expect(store.readRange(KEY, 0, 1_000_000)).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      const stream = await store.openRead(KEY);
      await expect((async () => {
        for await (const _chunk of stream) {
          // reading until the cut
        }
      })()).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    } finally {
      await store.close();
      await server.stop();
    }
  }, 60_000);

  test('when a reader pauses longer than S3_TIMEOUT_MS between chunks, then it is not cut: only the store\'s silence counts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pitwall-s3-pause-'));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'paused' }] });
    const { port } = await server.run();
    const store = new S3BlobStore({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket: 'paused', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, forcePathStyle: true, timeoutMs: 300 });
    try {
      const bytes = randomBytes(8 * 1024 * 1024);
      const blob = await store.putStream([bytes]);
      const parts: Buffer[] = [];
      for await (const part of await store.openRead(blob.key)) {
        parts.push(part as Buffer);
        // A reader busy elsewhere (a pool thread deciding what to do with the chunk) for three times the bound.
        if (parts.length === 1) await new Promise((resolve) => setTimeout(resolve, 900));
      }
      expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    } finally {
      await store.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('when S3_TIMEOUT_MS is not a number of milliseconds, then the configuration is refused naming it', () => {
    expect(() => createBlobStore({ BLOB_STORE: 's3', S3_BUCKET: 'bucket', S3_TIMEOUT_MS: 'soon' })).toThrow(/S3_TIMEOUT_MS: must be a whole number of milliseconds/);
  });
});
