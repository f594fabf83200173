import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRefusal } from '@pitwall/service-host/testing';
import { datafileService } from '../../src/definition';
import { bundleShapeWorker } from '../support/worker-bundle';
import { workspaceTempDir } from '../support/workspace-tmp';

const start = (env: Record<string, string>) => startRefusal(datafileService, env);

describe('the datafile-service refuses a setting that cannot work, naming it', () => {
  test.each([
    ['DATAFILE_READ_TIMEOUT_MS', '0', 'must be a whole number of milliseconds from 1 to 2147483647'],
    ['DATAFILE_READ_TIMEOUT_MS', '3000000000', 'must be a whole number of milliseconds from 1 to 2147483647'],
    ['DATAFILE_STREAM_MAX_STALL_MS', '3000000000', 'must be a whole number of milliseconds from 100 to 2147483647'],
    ['READ_SAMPLE_BUDGET', '0', 'must be a whole number of 1 or more'],
    ['DATAFILE_CACHE_BYTES', '0', 'must be a whole number of 1 or more'],
    ['CLAIM_TTL_MS', '50', 'must be a whole number of milliseconds from 100 to 2147483647'],
    ['CLAIM_TTL_MS', '3000000000', 'must be a whole number of milliseconds from 100 to 2147483647'],
    ['CLAIM_PORT', '65536', 'must be a port number from 0 (a free one) to 65535'],
  ])('when %s is %s, then the start stops with a message naming it', async (name, value, message) => {
    expect(await start({ [name]: value })).toBe(`Invalid configuration:\n  ${name}: ${message}`);
  });

  test('when WORKER_DIR holds no bundle of its worker pool, then the start stops naming it (not "Cannot find module" at the first read)', async () => {
    expect(await start({ WORKER_DIR: '/nonexistent' })).toBe(
      "Invalid configuration:\n  WORKER_DIR: holds no shape.worker.entry.js (the bundle of the shape worker pool); it must be the folder the build writes it to, beside the app's main.js",
    );
  });

  describe('where it writes and listens (its worker bundled, as the build does)', () => {
    const dir = workspaceTempDir('datafile-config-');
    const file = join(dir, 'a-file');
    let workerDir: string;
    beforeAll(async () => {
      workerDir = join(dir, 'worker');
      await bundleShapeWorker(workerDir);
      writeFileSync(file, '');
    }, 60_000);
    // Removed at once: the service's stop waits for its blob store's first readiness probe, which makes DATA_DIR/blobs
    // (blob-store's filesystem-close test shows the wait; CI on 1 December met ENOTEMPTY here before it).
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    test('when DATAFILE_CACHE_DIR cannot be made or written, then the start stops naming it (not at the first compressed read)', async () => {
      expect(await start({ WORKER_DIR: workerDir, DATA_DIR: dir, DATAFILE_CACHE_DIR: join(file, 'decompressed') })).toBe(
        'Invalid configuration:\n  DATAFILE_CACHE_DIR: cannot be created or written by this process (ENOTDIR); it must be a directory it may write',
      );
    });

    test('when DATA_DIR (the cache\'s default place) cannot be made, then the start stops naming it', async () => {
      expect(await start({ WORKER_DIR: workerDir, DATA_DIR: join(file, 'data'), BLOB_DIR: join(dir, 'blobs') })).toBe(
        'Invalid configuration:\n  DATA_DIR (its decompressed/ folder, DATAFILE_CACHE_DIR unset): cannot be created or written by this process (ENOTDIR); it must be a directory it may write',
      );
    });

    test('when CLAIM_HOST resolves to no address of this machine, then the start stops naming it, not "getaddrinfo ENOTFOUND" alone', async () => {
      expect(await start({ WORKER_DIR: workerDir, DATA_DIR: dir, CLAIM_HOST: 'nohost.invalid' })).toMatch(/^Invalid configuration:\n {2}CLAIM_HOST: is not an address of this machine \((ENOTFOUND|EAI_AGAIN)\)/);
    });

    test('when the directories and the claim port are good, then it starts', async () => {
      expect(await start({ WORKER_DIR: workerDir, DATA_DIR: dir })).toBe('started');
    });
  });
});
