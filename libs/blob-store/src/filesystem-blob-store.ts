import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, link, open, readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { makeDirectory, syncPath } from '@pitwall/service-kit';
import { BlobNotFoundError, BlobRangeError, BlobStoreUnavailableError, BlobTooLargeError, isFilesystemOutage } from './errors';
import { checkKey, checkRange, contentKey, isBlobKeyOf, stagingKeyOf } from './keys';
import { metered, readThrough } from './metered-source';
import type { BlobKey, BlobStat, BlobStore, ByteRange, ListedBlob, ByteSource, ContentDigest, PromoteOptions, PutOptions, ReadOptions, StoredBlob } from './types';

/** Chunk size of a whole-blob read-through (promotion): fewer, larger reads and stream steps than the 64 KiB default. */
export const READ_THROUGH_CHUNK_BYTES = 1 << 20;

/** Temporary files start with this; no key can (keys start with letters), so they are never served as blobs. */
const TEMP_PREFIX = '.tmp-';

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Blobs as files under one directory: `<dir>/sha256/<hex>` and `<dir>/staging/<upload id>`. Every write goes to a
 * temporary name in the target directory, is fsynced, then renamed, and the directory fsynced: a crash leaves at
 * most a `.tmp-*` file (removed by sweepTemporaries), never a partial blob under a final name.
 */
export class FilesystemBlobStore implements BlobStore {
  readonly kind = 'fs' as const;

  /** Probes not yet settled: one may be making the directory (readiness probes at start without waiting for it). */
  private readonly probing = new Set<Promise<void>>();

  constructor(readonly dir: string) {}

  async putStream(source: ByteSource, options: PutOptions = {}): Promise<StoredBlob> {
    return this.guard('put', async () => {
      const { temp, meter } = await this.writeTemporary('sha256', source, options.maxBytes);
      return this.settle(temp, meter);
    });
  }

  async putStaged(stagingKey: BlobKey, source: ByteSource, options: PutOptions = {}): Promise<ContentDigest> {
    return this.guard('put', async () => {
      const target = this.path(checkKey(stagingKey, 'staging'));
      const { temp, meter } = await this.writeTemporary('staging', source, options.maxBytes);
      await rename(temp, target);
      await syncPath(dirname(target));
      return meter;
    });
  }

  stagingKey(uploadId: string): BlobKey {
    return stagingKeyOf(uploadId);
  }

  async presignPut(stagingKey: BlobKey): Promise<string | null> {
    checkKey(stagingKey, 'staging');
    return null;
  }

  async presignGet(key: BlobKey): Promise<string | null> {
    checkKey(key);
    return null;
  }

  async promoteStaged(stagingKey: BlobKey, options: PromoteOptions = {}): Promise<StoredBlob> {
    return this.guard('promote', async () => {
      const staged = this.path(checkKey(stagingKey, 'staging'));
      const size = await this.sizeOf(stagingKey);
      if (size === null) throw new BlobNotFoundError(stagingKey);
      if (options.maxBytes !== undefined && size > options.maxBytes) {
        await this.delete(stagingKey);
        throw new BlobTooLargeError(options.maxBytes);
      }
      // One sequential read-through (hashing, and the caller's inspection): large chunks.
      const source = createReadStream(staged, { highWaterMark: READ_THROUGH_CHUNK_BYTES });
      try {
        const { chunks, result } = metered(source);
        await readThrough(chunks, size, options.inspect);
        return await this.settle(staged, result(), options.keepStaged);
      } finally {
        source.destroy();
      }
    });
  }

  async stat(key: BlobKey): Promise<BlobStat | null> {
    return this.guard('stat', async () => {
      const size = await this.sizeOf(checkKey(key));
      return size === null ? null : { size };
    });
  }

  async exists(key: BlobKey): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async openRead(key: BlobKey, options: ReadOptions = {}): Promise<Readable> {
    return this.guard('read', async () => {
      checkRange(options);
      const size = await this.sizeOf(checkKey(key));
      if (size === null) throw new BlobNotFoundError(key);
      const { start, end } = resolveRange(key, size, options);
      // An empty blob is an empty stream; createReadStream cannot express end < start.
      return end < start ? emptyStream() : createReadStream(this.path(key), { start, end, ...(options.chunkBytes ? { highWaterMark: options.chunkBytes } : {}) });
    });
  }

  async readRange(key: BlobKey, offset: number, length: number): Promise<Buffer> {
    return this.guard('read', async () => {
      checkRange({ start: offset, end: offset + length });
      let handle;
      try {
        handle = await open(this.path(checkKey(key)), 'r');
      } catch (error) {
        if (isMissing(error)) throw new BlobNotFoundError(key);
        throw error;
      }
      try {
        const buffer = Buffer.alloc(length);
        let filled = 0;
        while (filled < length) {
          const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return buffer.subarray(0, filled);
      } finally {
        await handle.close();
      }
    });
  }

  async delete(key: BlobKey): Promise<void> {
    return this.guard('delete', async () => {
      try {
        await unlink(this.path(checkKey(key)));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    });
  }

  async *list(area: 'sha256' | 'staging'): AsyncIterable<ListedBlob> {
    const names = await this.guard('list', () => readdir(join(this.dir, area)).catch((error: unknown) => (isMissing(error) ? [] : Promise.reject(error))));
    for (const name of names) {
      // Our temporaries, and whatever else was put there (a README, an rsync temporary): not blobs, never swept.
      if (name.startsWith(TEMP_PREFIX) || !isBlobKeyOf(area, `${area}/${name}`)) continue;
      const info = await this.guard('list', () => stat(join(this.dir, area, name)).catch((error: unknown) => (isMissing(error) ? null : Promise.reject(error))));
      if (info?.isFile()) yield { key: `${area}/${name}`, size: info.size, modifiedAt: info.mtime };
    }
  }

  async probe(): Promise<void> {
    const probe = this.guard('probe', async () => {
      await makeDirectory(this.dir);
      await access(this.dir, constants.W_OK);
    });
    this.probing.add(probe);
    try {
      await probe;
    } finally {
      this.probing.delete(probe);
    }
  }

  /** Removes temporary files older than `olderThanMs` (left by a crash mid-write); returns how many. */
  async sweepTemporaries(olderThanMs = 24 * 3600 * 1000): Promise<number> {
    let removed = 0;
    for (const area of ['sha256', 'staging']) {
      const names = await readdir(join(this.dir, area)).catch((error: unknown) => (isMissing(error) ? [] : Promise.reject(error)));
      for (const name of names.filter((n) => n.startsWith(TEMP_PREFIX))) {
        const file = join(this.dir, area, name);
        const info = await stat(file).catch(() => null);
        if (info && Date.now() - info.mtimeMs >= olderThanMs) {
          await unlink(file).catch(() => undefined);
          removed++;
        }
      }
    }
    return removed;
  }

  /**
   * Nothing is held open between calls; a probe still in flight (the readiness check's first, which nobody awaits) is
   * waited for, so that nothing makes the directory after a stop: a folder removed right after would meet ENOTEMPTY.
   */
  async close(): Promise<void> {
    await Promise.allSettled(this.probing);
  }

  /** A directory that cannot be used (unwritable, a file in its path, a full disk) is BlobStoreUnavailableError; a missing key stays itself. */
  private async guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isFilesystemOutage(error)) throw new BlobStoreUnavailableError(operation, error);
      throw error;
    }
  }

  private path(key: BlobKey): string {
    return join(this.dir, key);
  }

  private async sizeOf(key: BlobKey): Promise<number | null> {
    try {
      const info = await stat(this.path(key));
      return info.isFile() ? info.size : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** Writes the source to a fsynced temporary file in `area`; on any failure the temporary file is removed. */
  private async writeTemporary(area: 'sha256' | 'staging', source: ByteSource, maxBytes?: number) {
    await makeDirectory(join(this.dir, area));
    const temp = join(this.dir, area, `${TEMP_PREFIX}${randomUUID()}`);
    const handle = await open(temp, 'wx');
    try {
      const { chunks, result } = metered(source, maxBytes);
      for await (const chunk of chunks) await handle.write(chunk);
      await handle.sync();
      await handle.close();
      return { temp, meter: result() };
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  /** Gives verified bytes at `from` their content name, unless that content is already stored (then drops them). */
  private async settle(from: string, meter: { sha256: string; size: number }, keepSource = false): Promise<StoredBlob> {
    const key = contentKey(meter.sha256);
    const target = this.path(key);
    await makeDirectory(dirname(target));
    // The content's age renewed when it is already stored (the sweep of unreferenced blobs leaves young ones to the
    // writer about to refer to them), and these bytes dropped only then: the stored copy may have been removed (by the
    // sweep, or a release) since it was looked at, and then these bytes are put in its place.
    const now = new Date();
    const renewed = (await this.sizeOf(key)) !== null && (await utimes(target, now, now).then(() => true, (error: unknown) => (isMissing(error) ? false : Promise.reject(error))));
    if (renewed) {
      if (!keepSource) await unlink(from);
    } else {
      // Kept: a second name for the same file (same directory tree, so a hard link), the staged one stays.
      await (keepSource ? link(from, target).catch((error: unknown) => ((error as NodeJS.ErrnoException).code === 'EEXIST' ? undefined : Promise.reject(error))) : rename(from, target));
      await syncPath(dirname(target));
    }
    return { ...meter, key };
  }
}


/** Inclusive [start, end] inside a blob of `size` bytes; an end past the blob is clamped, as HTTP does. */
export function resolveRange(key: string, size: number, range: ByteRange): { start: number; end: number } {
  const start = range.start ?? 0;
  const end = Math.min(range.end ?? size - 1, size - 1);
  const whole = range.start === undefined && range.end === undefined;
  if (!whole && (start >= size || start > end)) throw new BlobRangeError(key, size, range);
  return { start, end };
}

const emptyStream = (): Readable => Readable.from([]);
