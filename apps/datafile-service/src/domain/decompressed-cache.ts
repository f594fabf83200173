import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { BlobStore } from '@pitwall/blob-store';
import { runFed } from '@pitwall/bus';
import { decodeLz4Frames, Lz4FrameError, type Lz4Limits } from '@pitwall/formats';
import { makeDirectory, syncPath } from '@pitwall/service-kit';
import type { Lz4DecompressResult, Lz4DecompressTask } from '../workers/lz4-decompress';
import type { TaskPool } from './fair-pool';

/**
 * LZ4-compressed blobs decompressed once into a local file (keyed by the blob's hash) that readers then open for
 * random access. Bounded in bytes: the least recently used copies are removed when a new one would pass the bound
 * (a reader holding one open keeps reading it: unlinking leaves open handles valid). Concurrent requests for the
 * same blob share one decompression; a copy is renamed into place only once complete, so a crash leaves no half file.
 * Decompression stops at `limits` (LZ4_MAX_DECOMPRESSED_BYTES, LZ4_MAX_RATIO of the blob's size): a bomb leaves no copy.
 */
export class DecompressedCache {
  private readonly pending = new Map<string, Promise<string>>();

  /**
   * `pool`: where the decompression runs (the service's pool, `decompressLz4`), its bytes fed from this thread; without
   * one (some tests), on this thread.
   */
  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
    private readonly limits: Pick<Lz4Limits, 'maxBytes' | 'maxRatio'>,
    private readonly pool?: TaskPool,
  ) {}

  /** The path of the decompressed copy of `key` (`sha256/<hex>`), made now when absent. */
  async pathOf(blobs: BlobStore, key: string): Promise<string> {
    const path = join(this.dir, `${key.replace(/[^0-9a-zA-Z]/g, '_')}.raw`);
    if (await touch(path)) return path;
    let running = this.pending.get(path);
    if (!running) {
      running = this.decompress(blobs, key, path).finally(() => this.pending.delete(path));
      this.pending.set(path, running);
    }
    return running;
  }

  /** Removes the copy of `key` (when there is one); a reader holding it open keeps reading it. */
  async drop(key: string): Promise<void> {
    await rm(join(this.dir, `${key.replace(/[^0-9a-zA-Z]/g, '_')}.raw`), { force: true });
  }

  /** Whether the copy of `key` is present (tests and the benchmark's cold-read cases). */
  async has(key: string): Promise<boolean> {
    return (await stat(join(this.dir, `${key.replace(/[^0-9a-zA-Z]/g, '_')}.raw`)).catch(() => null)) !== null;
  }

  private async decompress(blobs: BlobStore, key: string, path: string): Promise<string> {
    await makeDirectory(this.dir);
    const partial = `${path}.${randomUUID()}.partial`;
    try {
      const compressedSize = (await blobs.stat(key))?.size;
      const limits: Lz4Limits = { ...this.limits, ...(compressedSize !== undefined ? { compressedSize } : {}) };
      if (this.pool) {
        await this.decompressOnPool(this.pool, () => blobs.openRead(key), partial, limits);
      } else {
        await pipeline(Readable.from(decodeLz4Frames(await blobs.openRead(key), undefined, limits)), createWriteStream(partial));
        // On disk before it has its name: after a power loss a copy is whole or absent, never short (a short one would
        // be trusted and read as a damaged file until evicted). The pool's task syncs its file itself.
        await syncPath(partial);
      }
      await rename(partial, path);
      await syncPath(this.dir);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    await this.evict(path);
    return path;
  }

  /**
   * The bytes fed to the pool's task, which decompresses them into `partial` and syncs it; the blob is opened once the
   * task runs (a task waiting for a thread holds no open stream). A refused stream is its Lz4FrameError.
   */
  private async decompressOnPool(pool: TaskPool, open: () => Promise<AsyncIterable<Uint8Array>>, partial: string, limits: Lz4Limits): Promise<void> {
    const result = await runFed((port) => pool.run({ port, path: partial, limits } satisfies Lz4DecompressTask, { name: 'decompressLz4', transferList: [port] }) as Promise<Lz4DecompressResult>, open);
    if ('refused' in result) throw Lz4FrameError.from(result.refused);
  }

  /**
   * At start: what a process killed while decompressing left (`.partial` files no one writes any more), and copies past
   * the bound (DATAFILE_CACHE_BYTES may have been lowered), removed.
   */
  async trim(): Promise<void> {
    await makeDirectory(this.dir);
    await this.evict();
  }

  /**
   * Removes the least recently used copies (by access time, refreshed on use) until the rest fit, keeping `keep`; and
   * any `.partial` left by a decompression that died (not written for STALE_PARTIAL_MS: one being written is younger,
   * and several processes may share the folder).
   */
  private async evict(keep?: string): Promise<void> {
    const all = await readdir(this.dir);
    for (const name of all.filter((n) => n.endsWith('.partial'))) {
      const s = await stat(join(this.dir, name)).catch(() => null);
      if (s && s.mtimeMs < Date.now() - STALE_PARTIAL_MS) await rm(join(this.dir, name), { force: true });
    }
    const names = all.filter((n) => n.endsWith('.raw'));
    const files = (await Promise.all(names.map(async (n) => ({ path: join(this.dir, n), s: await stat(join(this.dir, n)).catch(() => null) })))).filter((f) => f.s !== null);
    let total = files.reduce((sum, f) => sum + (f.s?.size ?? 0), 0);
    for (const f of files.sort((a, b) => (a.s?.atimeMs ?? 0) - (b.s?.atimeMs ?? 0))) {
      if (total <= this.maxBytes) break;
      if (f.path === keep) continue;
      await rm(f.path, { force: true });
      total -= f.s?.size ?? 0;
    }
  }
}

/** A `.partial` not written for this long was left by a process that died while decompressing (10 minutes). */
export const STALE_PARTIAL_MS = 10 * 60 * 1000;

/** Marks a copy as used now; false when it is not there. */
async function touch(path: string): Promise<boolean> {
  const now = new Date();
  return utimes(path, now, now).then(
    () => true,
    () => false,
  );
}
