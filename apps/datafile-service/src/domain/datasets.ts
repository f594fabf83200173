import { open, type FileHandle } from 'node:fs/promises';
import type { BlobStore } from '@pitwall/blob-store';
import { ATTACHMENT_COMMANDS, SERVICES, type CallerContext, type DatasetFile } from '@pitwall/contracts';
import type { Bus } from '@pitwall/bus';
import type { TaskPool } from './fair-pool';
import { channelFor, CorruptDataFileError, DataFileLimitError, fileHandleSource, isLdFile, LDX_FORMAT, openLdSource, sliceStored, type ByteSource, type DecompressionLimits, type RandomAccessDataFile, type ScopedEvents, type StoredChannel } from '@pitwall/formats';
import { AppError } from '@pitwall/service-kit';
import { blobSource } from './blob-source';
import { toReadError } from './read-errors';
import type { DecompressedCache } from './decompressed-cache';
import { isRefusal, reviveRefusal, type Catalogue, type Refusal, type WholeFiles } from '../workers/whole-files';

/** How datasets are opened: the bounds of what a file may make this service do, and the pool whole files are parsed on. */
export interface DatasetReading {
  /** Parses and decodes the files read whole (everything but a single `.ld`), off the event loop. */
  pool: TaskPool;
  /** MAX_CHANNELS_PER_FILE: more channels in a file (or a per-lap group) is a 422. */
  maxChannels: number;
  /** MAX_LAPS_PER_FILE: more laps in a file (or files in a per-lap group) is a 422. */
  maxLaps: number;
  /** DATAFILE_MAX_CATALOGUE_LABELS: text labels a catalogue's channels may carry together; more is a 422 (default DEFAULT_MAX_CATALOGUE_LABELS). */
  maxLabels?: number;
  /** DATAFILE_MAX_CATALOGUE_CHARS: characters of a catalogue's names, units and labels together; more is a 422 (default DEFAULT_MAX_CATALOGUE_CHARS). */
  maxChars?: number;
  /** MAX_IN_MEMORY_FILE_BYTES: files read whole (and an .ldx) larger than this together are a 422. */
  maxInMemoryBytes: number;
  /** LZ4_MAX_DECOMPRESSED_BYTES and LZ4_MAX_RATIO: how far an MDF4 file's compressed data blocks may unpack (a 422 past it). */
  decompression?: DecompressionLimits;
}

/** Pieces a whole file is read in from the store (small: large transient buffers bring the main heap's collections on). */
const WHOLE_READ_CHUNK = 1024 * 1024;

/** A refusal of a group of files, with the index of the first that does not open alone. */
class GroupRefusal extends Error {
  constructor(
    readonly refusal: Error,
    readonly culprit: number | undefined,
  ) {
    super(refusal.message);
  }
}

/** A dataset opened for reads: its catalogue and lazy channel reads, and the key its cached channels go under. */
export interface OpenDataset {
  file: RandomAccessDataFile;
  /** The blob keys of its files in order: identical bytes are the same dataset, whoever attached them. */
  contentKey: string;
  /** The metadata record's `channels`, encoded on the pool when the catalogue was parsed there. */
  channelsJson?: Uint8Array;
}

interface Entry {
  dataset: Promise<OpenDataset>;
  handles: FileHandle[];
  /** Bytes of its files held whole in memory (0 for a .ld read in ranges). */
  wholeBytes: number;
}

/**
 * Files held whole by all open datasets together, in MAX_IN_MEMORY_FILE_BYTES: past it the least recently used are
 * dropped (a few dozen large CSV or MDF files would otherwise stay resident, each under the per-dataset bound).
 */
export const WHOLE_BYTES_HELD = 2;

/** Which dataset a read names. */
export interface DatasetRef {
  caller: CallerContext;
  type: string;
  id: string;
  group: string;
}

const isLdx = (name: string) => /\.ldx$/i.test(name);

/**
 * Resolves a dataset through the entity-service (the caller's read permission, the group's available files in
 * created order), then opens it over the blob store: a `.ldx` beside a single file gives its laps; several files
 * are a per-lap dataset; compressed blobs are read from their decompressed local copy. Opened datasets are kept
 * (LRU, by content) so a warm read costs no catalogue parsing.
 */
export class Datasets {
  private readonly opened = new Map<string, Entry>();
  /** The content keys opened for each entity (most recently opened last, bounded), for invalidation by entity. */
  private readonly byEntity = new Map<string, Set<string>>();
  /** The blob keys of each content key's LZ4-compressed files: their decompressed copies go with it. */
  private readonly compressedOf = new Map<string, string[]>();

  constructor(
    private readonly bus: Bus,
    private readonly blobs: BlobStore,
    private readonly decompressed: DecompressedCache,
    private readonly reading: DatasetReading,
    private readonly maxOpen = 32,
    private readonly maxIndexed = 10_000,
  ) {}

  async open(ref: DatasetRef, requestId?: string): Promise<OpenDataset> {
    const message = { caller: ref.caller, type: ref.type, id: ref.id, group: ref.group };
    const files = await this.bus.request<DatasetFile[]>(SERVICES.entity, ATTACHMENT_COMMANDS.dataset, message, requestId ? { headers: { requestId } } : {});
    const data = files.filter((f) => !isLdx(f.fileName));
    if (data.length === 0 && files[0]) throw new AppError(415, `${files[0].fileName}: an .ldx holds the laps of a .ld beside it in the group; the group has no data file to read`);
    if (data.length === 0) throw AppError.notFound(`${ref.type} ${ref.id} has no data file dataset '${ref.group}'`);
    const ldx = data.length === 1 ? files.find((f) => isLdx(f.fileName)) : undefined;
    const contentKey = [...data.map((f) => f.blobKey), ...(ldx ? [`ldx:${ldx.blobKey}`] : [])].join('+');
    this.index(ref.id, contentKey, [...data, ...(ldx ? [ldx] : [])]);
    const hit = this.opened.get(contentKey);
    if (hit) {
      this.opened.delete(contentKey);
      this.opened.set(contentKey, hit);
      return hit.dataset;
    }
    const entry: Entry = { handles: [], wholeBytes: 0, dataset: Promise.resolve(undefined as never) };
    entry.dataset = this.openFiles(data, ldx, contentKey, entry);
    this.opened.set(contentKey, entry);
    // A dataset that failed to open is not kept: the next read tries again (and answers the same 415/422).
    entry.dataset.catch(() => this.forget(contentKey, entry));
    this.evictPast(this.maxOpen, Infinity);
    return entry.dataset;
  }

  /** Drops the least recently used datasets while more than `count` are open or their whole files pass `wholeBytes`. */
  private evictPast(count: number, wholeBytes: number): void {
    let held = wholeBytes === Infinity ? 0 : [...this.opened.values()].reduce((n, e) => n + e.wholeBytes, 0);
    // The most recently used stays whatever its size (it was checked against MAX_IN_MEMORY_FILE_BYTES alone).
    while (this.opened.size > 1 && (this.opened.size > count || held > wholeBytes)) {
      const [oldest, old] = this.opened.entries().next().value as [string, Entry];
      held -= old.wholeBytes;
      this.forget(oldest, old);
    }
  }

  /**
   * Forgets what was opened for an entity (its file changed, went, or the entity did): its open datasets are closed
   * and dropped. Returns their content keys (the keys of their cached channels) and the blob keys of their
   * decompressed copies, for the caller to drop too. Forgetting twice is harmless (an event may come again).
   * With `keepBlobKey`, datasets made of that blob stay (it is the file that just became available).
   */
  invalidate(entityId: string, keepBlobKey?: string): { contentKeys: string[]; compressedBlobKeys: string[] } {
    const indexed = this.byEntity.get(entityId) ?? new Set<string>();
    const contentKeys = [...indexed].filter((key) => keepBlobKey === undefined || !key.split('+').some((part) => part === keepBlobKey || part === `ldx:${keepBlobKey}`));
    for (const key of contentKeys) indexed.delete(key);
    if (indexed.size === 0) this.byEntity.delete(entityId);
    const compressedBlobKeys: string[] = [];
    for (const key of contentKeys) {
      const entry = this.opened.get(key);
      if (entry) this.forget(key, entry);
      compressedBlobKeys.push(...(this.compressedOf.get(key) ?? []));
      this.compressedOf.delete(key);
    }
    return { contentKeys, compressedBlobKeys };
  }

  private index(entityId: string, contentKey: string, files: DatasetFile[]): void {
    const keys = this.byEntity.get(entityId) ?? new Set<string>();
    this.byEntity.delete(entityId);
    this.byEntity.set(entityId, keys.add(contentKey));
    const compressed = files.filter((f) => f.useCompression).map((f) => f.blobKey);
    if (compressed.length) this.compressedOf.set(contentKey, compressed);
    while (this.byEntity.size > this.maxIndexed) {
      const [oldest] = this.byEntity.keys();
      this.byEntity.delete(oldest as string);
    }
  }

  /** Closes every open file. */
  async close(): Promise<void> {
    for (const [key, entry] of [...this.opened]) this.forget(key, entry);
  }

  private forget(key: string, entry: Entry): void {
    if (this.opened.get(key) === entry) this.opened.delete(key);
    // In-flight reads of this dataset finish before the handles close.
    setTimeout(() => void Promise.all(entry.handles.splice(0).map((h) => h.close().catch(() => undefined))), 60_000).unref();
  }

  private async openFiles(data: DatasetFile[], ldx: DatasetFile | undefined, contentKey: string, entry: Entry): Promise<OpenDataset> {
    const { handles } = entry;
    const sources = await Promise.all(data.map((f) => this.named(f, () => this.sourceOf(f, handles))));
    const ldxBytes = ldx ? await this.named(ldx, () => this.readWhole(ldx, handles)) : undefined;
    const { maxChannels, maxLaps } = this.reading;
    try {
      const only = sources.length === 1 ? (sources[0] as ByteSource) : undefined;
      // A single .ld is read in ranges: its catalogue (at most maxChannels blocks) here, its samples as they are asked
      // for; the text of an .ldx beside it is parsed on the pool (its size grows with what an editor uploads).
      if (only && isLdFile(await only.read(0, Math.min(8, only.size)))) {
        const beacons = ldxBytes ? await this.ldxBeacons(ldxBytes) : undefined;
        return { file: await openLdSource(only, { maxChannels, maxLaps, ...(beacons ? { beaconTimes: beacons } : {}) }), contentKey };
      }
      const whole = await this.openWhole(data, sources, ldxBytes, contentKey);
      entry.wholeBytes = whole.bytes;
      this.evictPast(this.maxOpen, WHOLE_BYTES_HELD * this.reading.maxInMemoryBytes);
      return { file: whole.file, channelsJson: whole.channelsJson, contentKey };
    } catch (err) {
      // Which file of the group it is: the .ldx when its markers are damaged or make too many laps; alone it is the one; of several, the first
      // that does not open by itself (the pool says which).
      const refusal = err instanceof GroupRefusal ? err.refusal : err;
      if (ldx && (refusal instanceof CorruptDataFileError || refusal instanceof DataFileLimitError) && refusal.format === LDX_FORMAT) throw inFile(refusal, ldx);
      const culprit = data.length === 1 ? data[0] : err instanceof GroupRefusal && err.culprit !== undefined ? data[err.culprit] : undefined;
      throw culprit ? inFile(refusal, culprit) : refusal;
    }
  }

  /**
   * Files read whole: their bytes (at most MAX_IN_MEMORY_FILE_BYTES together) in shared memory, their catalogue parsed
   * and their channels decoded on the pool.
   */
  private async openWhole(data: DatasetFile[], sources: ByteSource[], ldx: Uint8Array | undefined, key: string): Promise<{ file: RandomAccessDataFile; channelsJson: Uint8Array; bytes: number }> {
    const { pool, maxChannels, maxLaps, maxLabels, maxChars, maxInMemoryBytes, decompression } = this.reading;
    const total = sources.reduce((n, s) => n + s.size, 0) + (ldx?.byteLength ?? 0);
    if (total > maxInMemoryBytes) {
      const what = data.length === 1 ? `${data[0]?.fileName} is ${total} bytes` : `the group's ${data.length} files are ${total} bytes together`;
      throw new AppError(422, `The data file could not be read: ${what}, more than MAX_IN_MEMORY_FILE_BYTES (${maxInMemoryBytes}), the most this service reads whole (only a single MoTeC .ld is read in ranges)`);
    }
    const files = await Promise.all(sources.map(sharedCopy));
    // The .ldx in shared memory too: the task goes with every channel read of the dataset, and a plain array is copied each time.
    const task: WholeFiles = { key, files, maxChannels, maxLaps, ...(maxLabels ? { maxLabels } : {}), ...(maxChars ? { maxChars } : {}), ...(decompression ? { decompression } : {}), ...(ldx ? { ldx: sharedBytes(ldx) } : {}) };
    const catalogue = (await pool.run(task, { name: 'catalogue' })) as Catalogue | Refusal;
    if (isRefusal(catalogue)) throw new GroupRefusal(reviveRefusal(catalogue), catalogue.culprit);
    const { channelsJson, ...opened } = catalogue;
    const file: RandomAccessDataFile = {
      ...opened,
      async readStored(name, range) {
        channelFor(opened, name);
        const stored = (await pool.run({ ...task, channel: name }, { name: 'stored' })) as StoredChannel | Refusal;
        if (isRefusal(stored)) throw reviveRefusal(stored);
        return range ? sliceStored(stored, range.from, range.to) : stored;
      },
      async readEvents(name, window = { whole: true }) {
        channelFor(opened, name);
        // Decoded, sliced to the window and timed on the pool: nothing here grows with the events.
        const scoped = (await pool.run({ ...task, channel: name, window }, { name: 'events' })) as ScopedEvents | Refusal;
        if (isRefusal(scoped)) throw reviveRefusal(scoped);
        return scoped;
      },
    };
    return { file, channelsJson, bytes: total };
  }

  /** An .ldx's beacon times, parsed on the pool (undefined when it has none: the .ld's lap channel gives the laps). */
  private async ldxBeacons(ldx: Uint8Array): Promise<number[] | undefined> {
    const parsed = (await this.reading.pool.run({ ldx }, { name: 'ldxBeacons' })) as { times?: number[] } | Refusal;
    if (isRefusal(parsed)) throw reviveRefusal(parsed);
    return parsed.times;
  }

  /** A read error of one file of the group, named by its file. */
  private async named<T>(f: DatasetFile, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw inFile(err, f);
    }
  }

  private async sourceOf(f: DatasetFile, handles: FileHandle[]): Promise<ByteSource> {
    if (f.useCompression) {
      const handle = await open(await this.decompressed.pathOf(this.blobs, f.blobKey), 'r');
      handles.push(handle);
      return fileHandleSource(handle);
    }
    const stat = await this.blobs.stat(f.blobKey);
    if (!stat) throw AppError.notFound(`The bytes of attached file ${f.attachedFileId} are not in the store`);
    return blobSource(this.blobs, f.blobKey, stat.size);
  }

  private async readWhole(f: DatasetFile, handles: FileHandle[]): Promise<Uint8Array> {
    const source = await this.sourceOf(f, handles);
    if (source.size > this.reading.maxInMemoryBytes) throw new AppError(422, `The data file could not be read: it is ${source.size} bytes, more than MAX_IN_MEMORY_FILE_BYTES (${this.reading.maxInMemoryBytes})`);
    return source.read(0, source.size);
  }
}

/** The API's answer to a file's read error (415, 422), its detail naming the file of the group it came from. */
function inFile(err: unknown, f: DatasetFile): unknown {
  const answer = toReadError(err);
  if (!(answer instanceof AppError) || (answer.status !== 415 && answer.status !== 422)) return answer;
  return new AppError(answer.status, `${f.fileName}: ${answer.message}`, { ...(answer.errors ? { errors: answer.errors } : {}), cause: err });
}

/** Bytes in a SharedArrayBuffer (once), which the pool's threads read without a copy. */
function sharedBytes(bytes: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}

/** The whole bytes of a source in a SharedArrayBuffer, read in pieces: the pool's threads read it without a copy. */
async function sharedCopy(source: ByteSource): Promise<Uint8Array> {
  const bytes = new Uint8Array(new SharedArrayBuffer(source.size));
  for (let at = 0; at < source.size; at += WHOLE_READ_CHUNK) bytes.set(await source.read(at, Math.min(WHOLE_READ_CHUNK, source.size - at)), at);
  return bytes;
}
