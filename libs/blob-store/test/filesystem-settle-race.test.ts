import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The stored copy of content about to be put again is removed (by the sweep of unreferenced blobs, or a release)
// between the store's look at it and its renewal of that copy's age: the put must store these bytes in its place,
// not fail (the gateway answered 500) with the received bytes already dropped.
const removeBefore = new Set<string>();
jest.mock('node:fs/promises', () => {
  const actual = jest.requireActual<typeof import('node:fs/promises')>('node:fs/promises');
  return {
    ...actual,
    utimes: async (path: string, atime: Date, mtime: Date) => {
      if (removeBefore.delete(String(path))) await actual.unlink(path);
      return actual.utimes(path, atime, mtime);
    },
  };
});
// Required after the mock (this transform does not hoist jest.mock above the imports).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { FilesystemBlobStore } = require('../src') as typeof import('../src');

describe('FilesystemBlobStore when stored content goes while the same bytes are put again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-settle-race-'));
  const store = new FilesystemBlobStore(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each([
    ['a put', (bytes: Buffer) => store.putStream([bytes])],
    ['a promotion of staged bytes', async (bytes: Buffer) => {
      const staged = store.stagingKey(`race-${randomBytes(4).toString('hex')}`);
      await store.putStaged(staged, [bytes]);
      return store.promoteStaged(staged);
    }],
  ])('when it happens during %s, then the bytes are stored under their content key all the same', async (_what, put) => {
    const bytes = randomBytes(5000);
    const key = `sha256/${createHash('sha256').update(bytes).digest('hex')}`;
    await store.putStream([bytes]);
    removeBefore.add(join(dir, key));

    const stored = await put(bytes);

    expect(stored.key).toBe(key);
    expect(removeBefore.size).toBe(0);
    expect(await store.readRange(key, 0, 10_000)).toEqual(bytes);
  });
});
