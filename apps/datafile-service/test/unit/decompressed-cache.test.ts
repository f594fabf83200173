import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import { DEFAULT_LZ4_LIMITS, compressLz4 } from '@pitwall/formats';
import { DecompressedCache, STALE_PARTIAL_MS } from '../../src/domain/decompressed-cache';

// A decompression killed midway (the process killed -9, the host restarted) leaves its `.partial`: it must not stay
// for ever outside DATAFILE_CACHE_BYTES. One still being written (another process sharing the folder) is left alone.
describe('DecompressedCache', () => {
  const root = mkdtempSync(join(tmpdir(), 'pitwall-decompressed-'));
  const dir = join(root, 'decompressed');
  const blobs = new FilesystemBlobStore(join(root, 'blobs'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const partial = (name: string, ageMs: number) => {
    const path = join(dir, name);
    writeFileSync(path, Buffer.alloc(4096, 1));
    const at = new Date(Date.now() - ageMs);
    utimesSync(path, at, at);
    return name;
  };

  test('when the service starts on a folder with partial copies a dead process left, then they are removed and one being written stays', async () => {
    const cache = new DecompressedCache(dir, 1e9, DEFAULT_LZ4_LIMITS);
    await cache.trim();
    const dead = partial(`sha256_${'a'.repeat(64)}.raw.0d7c7e0e-0000-4000-8000-000000000001.partial`, STALE_PARTIAL_MS + 60_000);
    const live = partial(`sha256_${'b'.repeat(64)}.raw.0d7c7e0e-0000-4000-8000-000000000002.partial`, 1000);

    await new DecompressedCache(dir, 1e9, DEFAULT_LZ4_LIMITS).trim();

    expect(readdirSync(dir).sort()).toEqual([live]);
    expect(readdirSync(dir)).not.toContain(dead);
  });

  test('when a copy is made later, then a partial copy left meanwhile goes too, and the copy holds the decompressed bytes', async () => {
    const cache = new DecompressedCache(dir, 1e9, DEFAULT_LZ4_LIMITS);
    const dead = partial(`sha256_${'c'.repeat(64)}.raw.0d7c7e0e-0000-4000-8000-000000000003.partial`, STALE_PARTIAL_MS + 60_000);
    const data = Buffer.concat(Array.from({ length: 200 }, (_, i) => Buffer.from(`sample ${i} ${Math.sin(i) * 1e6}\n`)));
    const blob = await blobs.putStream([Buffer.from(await compressLz4(data))]);

    const path = await cache.pathOf(blobs, blob.key);

    expect(await readFile(path)).toEqual(data);
    expect(readdirSync(dir)).not.toContain(dead);
  });
});
