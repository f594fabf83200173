import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDirectory, makeDirectorySync, writableDirectory } from '../src';

// Node's mkdir with { recursive: true } never returns for these (a thread spins at full CPU): the test's timeout is the check.
const UNDER_PROCFS = ['/proc/pitwall-no-such-folder', '/proc/pitwall-no-such-folder/data'];

describe('makeDirectory and makeDirectorySync (mkdir -p that always ends)', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'pitwall-dirs-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test.each(UNDER_PROCFS)('when the folder cannot exist under procfs (%s), then both refuse with ENOENT instead of spinning for ever', async (dir) => {
    await expect(makeDirectory(dir)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => makeDirectorySync(dir)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  }, 10_000);

  test('when the parents are missing, then each is made; made again, nothing changes', async () => {
    const dir = join(root, 'a', 'b', 'c');
    await makeDirectory(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    await makeDirectory(dir);
    const sync = join(root, 'x', 'y', 'z');
    makeDirectorySync(sync);
    makeDirectorySync(sync);
    expect(statSync(sync).isDirectory()).toBe(true);
  });

  test('when a file is in the way, then its EEXIST or ENOTDIR, as mkdir -p says', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    await expect(makeDirectory(file)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(() => makeDirectorySync(file)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    await expect(makeDirectory(join(file, 'sub', 'dir'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(() => makeDirectorySync(join(file, 'sub'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  test('when many make the same new folders at once, then all succeed', async () => {
    const dir = join(root, 'many', 'at', 'once');
    await Promise.all(Array.from({ length: 16 }, () => makeDirectory(dir)));
    expect(existsSync(dir)).toBe(true);
  });

  test('when a service is configured with a folder under procfs, then its start stops naming the variable', async () => {
    await expect(writableDirectory('/proc/pitwall-no-such-folder/data', 'DATA_DIR')).rejects.toThrow('Invalid configuration:\n  DATA_DIR: cannot be created or written by this process (ENOENT); it must be a directory it may write');
  }, 10_000);
});
