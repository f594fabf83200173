import { readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { BlobStoreUnavailableError, FilesystemBlobStore, type BlobStore } from '@pitwall/blob-store';
import { DEFAULT_LZ4_LIMITS, Lz4FrameError, compressLz4 } from '@pitwall/formats';
import { lz4Bomb } from '@pitwall/formats/testing';
import { DecompressedCache } from '../../src/domain/decompressed-cache';
import type { TaskPool } from '../../src/domain/fair-pool';
import { bundleShapeWorker } from '../support/worker-bundle';
import { workspaceTempDir } from '../support/workspace-tmp';

// LZ4 blobs are decompressed on the service's pool (its bytes fed from the service's thread over a port), not on the
// event loop that answers the claim port and the bus: seconds of CPU for a file of gigabytes.
describe('DecompressedCache on the pool', () => {
  const dir = workspaceTempDir('datafile-lz4-pool-');
  const blobs = new FilesystemBlobStore(join(dir, 'blobs'));
  let piscina: Piscina;
  const names: string[] = [];
  let pool: TaskPool;
  beforeAll(async () => {
    piscina = new Piscina({ filename: await bundleShapeWorker(join(dir, 'worker')), maxThreads: 1 });
    pool = { run: (task, options) => (names.push(String(options?.name)), piscina.run(task, options)) } as TaskPool;
  });
  afterAll(async () => {
    await piscina?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const cacheDir = (name: string) => join(dir, name);
  /** Telemetry-like bytes: compressible, not a bomb. */
  const telemetry = (samples: number) => Buffer.concat(Array.from({ length: samples }, (_, i) => Buffer.from(`${i},${Math.round(Math.sin(i / 50) * 1e6)},${i % 17}\n`)));

  test('when an LZ4 blob is read, then the pool\'s task decompresses it: the copy holds its bytes, fsynced and renamed, no partial left', async () => {
    const data = telemetry(200_000);
    const blob = await blobs.putStream([Buffer.from(await compressLz4(data))]);
    const cache = new DecompressedCache(cacheDir('ok'), 1e9, DEFAULT_LZ4_LIMITS, pool);

    const path = await cache.pathOf(blobs, blob.key);

    expect(names).toContain('decompressLz4');
    expect((await readFile(path)).equals(data)).toBe(true);
    expect(readdirSync(cacheDir('ok'))).toEqual([path.slice(cacheDir('ok').length + 1)]);
  });

  test('when the blob is not a valid LZ4 frame, then the read fails with the frame error (a 422 for the reader) and leaves no copy', async () => {
    const frame = Buffer.from(await compressLz4(telemetry(20_000)));
    frame[frame.length - 100] = (frame[frame.length - 100] as number) ^ 0xff;
    const blob = await blobs.putStream([frame]);
    const cache = new DecompressedCache(cacheDir('corrupt'), 1e9, DEFAULT_LZ4_LIMITS, pool);

    const error = await cache.pathOf(blobs, blob.key).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Lz4FrameError);
    expect(readdirSync(cacheDir('corrupt'))).toEqual([]);
  });

  test('when the blob would decompress past LZ4_MAX_RATIO, then it is refused naming that limit, and no copy is left', async () => {
    const blob = await blobs.putStream([Buffer.from(await compressLz4(Buffer.alloc(8 * 1024 * 1024)))]);
    const cache = new DecompressedCache(cacheDir('bomb'), 1e9, { maxBytes: DEFAULT_LZ4_LIMITS.maxBytes, maxRatio: 64 }, pool);

    const error = await cache.pathOf(blobs, blob.key).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'TOO_LARGE', limit: 'maxRatio' });
    expect(error).toBeInstanceOf(Lz4FrameError);
    expect(readdirSync(cacheDir('bomb'))).toEqual([]);
  });

  test('when the frame declares more than LZ4_MAX_DECOMPRESSED_BYTES, then it is refused at once naming that limit, the rest of its bytes not fed, and no copy is left', async () => {
    const bomb = lz4Bomb(8, { declare: 32 * 1024 * 1024 });
    const frame = new Uint8Array(bomb.length + 8 + 600_000);
    frame.set(bomb);
    new DataView(frame.buffer).setUint32(bomb.length, 0x184d2a50, true);
    new DataView(frame.buffer).setUint32(bomb.length + 4, 600_000, true);
    const blob = await blobs.putStream([frame]);
    // The chunks read of the blob (64 KiB each: 12 in all).
    let pulled = 0;
    const counting: BlobStore = Object.assign(Object.create(blobs) as BlobStore, {
      openRead: async (key: string) =>
        (async function* () {
          for await (const chunk of await blobs.openRead(key)) {
            pulled++;
            yield chunk as Uint8Array;
          }
        })(),
    });
    const cache = new DecompressedCache(cacheDir('declared'), 1e9, { maxBytes: 16 * 1024 * 1024, maxRatio: 64 }, pool);

    const error = await cache.pathOf(counting, blob.key).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'TOO_LARGE', limit: 'maxBytes' });
    expect(readdirSync(cacheDir('declared'))).toEqual([]);
    // Refused at its first chunk: at most the task's window was read after it.
    expect(pulled).toBeLessThanOrEqual(6);
  });

  test('when the task itself fails (its file cannot be written), then that failure is the one reported, not the feeding it stopped', async () => {
    const blob = await blobs.putStream([Buffer.from(await compressLz4(telemetry(50_000)))]);
    // The task is told a file in a folder that does not exist: its open fails in the worker.
    const misdirected = { run: (task: { path: string }, options: unknown) => piscina.run({ ...task, path: join(dir, 'no-such-folder', 'x.partial') }, options as never) } as unknown as TaskPool;
    const cache = new DecompressedCache(cacheDir('unwritable'), 1e9, DEFAULT_LZ4_LIMITS, misdirected);

    const error = await cache.pathOf(blobs, blob.key).catch((e: unknown) => e);

    // (An error's own fields do not cross threads: its message does.)
    expect(String(error)).toMatch(/ENOENT: no such file or directory, open .*no-such-folder/);
  });

  test('when the blob store fails while its bytes are fed, then the read fails with the store\'s outage (a 503), and no copy is left', async () => {
    const data = telemetry(200_000);
    const blob = await blobs.putStream([Buffer.from(await compressLz4(data))]);
    const failing: BlobStore = Object.assign(Object.create(blobs) as BlobStore, {
      openRead: async () =>
        (async function* () {
          const all = await blobs.readRange(blob.key, 0, 64 * 1024);
          yield all;
          throw new BlobStoreUnavailableError('GetObject', new Error('connection reset'));
        })(),
    });
    const cache = new DecompressedCache(cacheDir('outage'), 1e9, DEFAULT_LZ4_LIMITS, pool);

    const error = await cache.pathOf(failing, blob.key).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BlobStoreUnavailableError);
    expect(readdirSync(cacheDir('outage'))).toEqual([]);
    // The pool's thread was freed: the next blob is decompressed.
    expect((await readFile(await cache.pathOf(blobs, blob.key))).equals(data)).toBe(true);
  });
});
