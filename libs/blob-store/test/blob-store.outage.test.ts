import { randomUUID } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import S3rver from 's3rver';
import { causeFields } from '@pitwall/service-kit';
import { BlobStoreUnavailableError, FilesystemBlobStore, S3BlobStore, blobStoreReadiness, type BlobStore, type ListedBlob } from '../src';

/** A store with a way to take it away and bring it back: what an outage test needs. */
interface Outage {
  store: BlobStore;
  cut(): Promise<void>;
  restore(): Promise<void>;
  stop(): Promise<void>;
}

/** s3rver on a port of its own; cut closes it (connections included), restore starts it again on the same port and directory. */
async function s3Outage(): Promise<Outage> {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-s3rver-outage-'));
  const bucket = `pitwall-test-${randomUUID().slice(0, 8)}`;
  const start = async (port: number) => {
    const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
    const address = await server.run();
    return { server, port: address.port };
  };
  let running: { server: S3rver; port: number } | undefined = await start(0);
  const port = running.port;
  const close = async () => {
    const server = running?.server as unknown as { httpServer: { closeAllConnections(): void } } | undefined;
    server?.httpServer.closeAllConnections();
    await running?.server.close();
    running = undefined;
  };
  const store = new S3BlobStore({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, forcePathStyle: true });
  return {
    store,
    cut: close,
    restore: async () => void (running = await start(port)),
    stop: async () => {
      await store.close();
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A directory store; cut puts a file where its parent directory was (root writes through chmod, not through a file). */
async function filesystemOutage(): Promise<Outage> {
  const parent = mkdtempSync(join(tmpdir(), 'pitwall-blobs-outage-'));
  const home = join(parent, 'volume');
  const store = new FilesystemBlobStore(join(home, 'blobs'));
  return {
    store,
    cut: async () => {
      renameSync(home, `${home}.away`);
      writeFileSync(home, 'not a directory');
    },
    restore: async () => {
      rmSync(home);
      renameSync(`${home}.away`, home);
    },
    stop: async () => rmSync(parent, { recursive: true, force: true }),
  };
}

async function collect(listing: AsyncIterable<ListedBlob>): Promise<ListedBlob[]> {
  const out: ListedBlob[] = [];
  for await (const blob of listing) out.push(blob);
  return out;
}

describe.each([
  ['s3', s3Outage],
  ['fs', filesystemOutage],
] as const)('the blob store when it cannot be reached (%s)', (_kind, make) => {
  let outage: Outage;
  beforeAll(async () => {
    outage = await make();
  });
  afterAll(() => outage.stop());

  test('when the store goes away, then every operation fails with BlobStoreUnavailableError (503, Retry-After), the probe says so, and all works again once it returns', async () => {
    const { store } = outage;
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const ready = blobStoreReadiness(store, 0, logger);
    const kept = await store.putStream([Buffer.from('lap 1 telemetry')]);
    expect(await ready()).toBe(true);

    await outage.cut();
    const failures = await Promise.all([
      store.stat(kept.key).catch((e: unknown) => e),
      store.openRead(kept.key).catch((e: unknown) => e),
      store.readRange(kept.key, 0, 4).catch((e: unknown) => e),
      store.putStream([Buffer.from('lap 2 telemetry')]).catch((e: unknown) => e),
      store.putStaged(store.stagingKey(randomUUID()), [Buffer.from('staged')]).catch((e: unknown) => e),
      store.delete(kept.key).catch((e: unknown) => e),
      collect(store.list('sha256')).catch((e: unknown) => e),
      store.probe().catch((e: unknown) => e),
    ]);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(BlobStoreUnavailableError);
      expect(failure).toMatchObject({ status: 503, retryAfterSeconds: expect.any(Number) });
      // What the 503's log line says of its cause: the dependency, then the cause in its own words.
      expect(causeFields(failure as BlobStoreUnavailableError)).toMatchObject({ dependency: 'blob store', cause: expect.any(String) });
    }
    expect(await ready()).toBe(false);
    expect(await ready()).toBe(false);
    // Said once, with what readiness alone does not say: the dependency and the probe's cause.
    expect(lines.map((l) => [l['level'], l['msg'], l['dependency'], typeof l['cause']])).toEqual([[40, 'blob store unavailable: the routes that need it answer 503 until it answers again', 'blob store', 'string']]);

    await outage.restore();
    expect(await ready()).toBe(true);
    expect(lines.map((l) => l['msg'])).toEqual(['blob store unavailable: the routes that need it answer 503 until it answers again', 'blob store available again']);
    expect((await store.readRange(kept.key, 0, 3)).toString()).toBe('lap');
    expect((await collect(store.list('sha256'))).map((b) => b.key)).toEqual([kept.key]);
  }, 30_000);

  test('when content already stored is put again, then its age is renewed (the sweep leaves it to the writer about to refer to it)', async () => {
    const { store } = outage;
    const first = await store.putStream([Buffer.from(`stint ${randomUUID()}`)]);
    const before = (await collect(store.list('sha256'))).find((b) => b.key === first.key)!.modifiedAt;
    await new Promise((resolve) => setTimeout(resolve, 1100)); // S3 times have whole seconds
    const staged = store.stagingKey(randomUUID());
    await store.putStaged(staged, [Buffer.from((await store.readRange(first.key, 0, 1000)))]);
    expect((await store.promoteStaged(staged)).key).toBe(first.key);
    const after = (await collect(store.list('sha256'))).find((b) => b.key === first.key)!.modifiedAt;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
    expect(await store.exists(staged)).toBe(false);
  }, 30_000);

  test('when a staged upload is promoted with keepStaged, then its content is stored and the staged bytes stay for a second promotion', async () => {
    const { store } = outage;
    const staged = store.stagingKey(randomUUID());
    await store.putStaged(staged, [Buffer.from(`setup sheet ${randomUUID()}`)]);
    const promoted = await store.promoteStaged(staged, { keepStaged: true });
    expect(await store.exists(promoted.key)).toBe(true);
    expect(await store.exists(staged)).toBe(true);
    expect(await store.promoteStaged(staged)).toEqual(promoted);
    expect(await store.exists(staged)).toBe(false);
  });
});
