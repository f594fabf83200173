import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@pitwall/service-kit';
import { FilesystemBlobStore, watchedBlobStore } from '../src';

describe('FilesystemBlobStore close', () => {
  const folders: string[] = [];
  const folder = () => {
    const made = mkdtempSync(join(tmpdir(), 'pitwall-blobs-close-'));
    folders.push(made);
    return made;
  };
  afterAll(() => folders.forEach((made) => rmSync(made, { recursive: true, force: true })));

  test('when the readiness check probed at start and nobody awaited it, then close waits for it: nothing makes the directory after a stop', async () => {
    const parent = folder();
    const dir = join(parent, 'blobs');
    const store = new FilesystemBlobStore(dir);
    watchedBlobStore(store, createLogger('blob-close-test'));
    await store.close();
    expect(existsSync(dir)).toBe(true);
    // Once closed, the folder around it can be removed at once (a test's teardown, a deployment's clean-up) and stays removed.
    rmSync(parent, { recursive: true });
    await sleep(50);
    expect(existsSync(parent)).toBe(false);
  });

  test('when a probe fails, then close still resolves', async () => {
    const file = join(folder(), 'a-file');
    writeFileSync(file, '');
    const store = new FilesystemBlobStore(join(file, 'blobs'));
    const probe = store.probe().catch((err: unknown) => err);
    await store.close();
    expect(await probe).toMatchObject({ name: 'BlobStoreUnavailableError' });
  });
});
