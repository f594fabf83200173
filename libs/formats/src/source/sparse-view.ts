import { CorruptDataFileError } from '../errors';
import type { BinaryView } from '../binary-view';
import type { ByteSource } from './byte-source';

/** The field reads the `.ld` catalogue parser needs; BinaryView (whole file) and SparseView (loaded ranges) both give them. */
export type FieldReader = Pick<BinaryView, 'length' | 'require' | 'corrupt' | 'u16' | 'i16' | 'u32' | 'latin1'>;

/** Thrown by SparseView when a parser touches bytes not loaded yet; `parseFromSource` loads them and parses again. */
class NeedBytes {
  constructor(
    readonly offset: number,
    readonly size: number,
  ) {}
}

/** The unit of loading: a load reads whole pages, and a page once loaded is never read again. */
export const SPARSE_PAGE_BYTES = 64 * 1024;
/** Pages one read may take ahead (4 MiB), doubling from one while each read continues where the last one ended. */
const MAX_READ_PAGES = 64;
const latin1 = new TextDecoder('latin1');

/** A range a parser is about to read: a walk (see walkFromSource) yields it before reading it. */
export interface ByteRange {
  offset: number;
  size: number;
}

interface Page {
  bytes: Uint8Array;
  view: DataView;
}

/**
 * Absolute-offset field reads over the pages of a ByteSource loaded so far. Bounds are checked against the whole
 * source (a bad pointer is a CorruptDataFileError, as with BinaryView); a read of a range not loaded asks for it.
 * Pages are SPARSE_PAGE_BYTES, aligned, held by index: a field is found in one lookup, and a load reads only pages
 * not loaded yet, so however a channel list is laid out (backwards, scattered) the bytes read are at most the file's
 * and the reads at most its pages.
 */
export class SparseView implements FieldReader {
  private readonly pages = new Map<number, Page>();
  /** The page after the last read's, and how many pages that read took: a read starting there takes twice as many. */
  private nextPage = -1;
  private readPages = 0;
  readonly length: number;

  constructor(
    private readonly source: ByteSource,
    private readonly format: string,
  ) {
    this.length = source.size;
  }

  corrupt(reason: string, offset: number): CorruptDataFileError {
    return new CorruptDataFileError(this.format, reason, offset);
  }

  require(offset: number, size: number, what: string): void {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || offset < 0 || size < 0 || offset + size > this.length) {
      throw this.corrupt(`${what} (${size} bytes) runs past the end of the file (${this.length} bytes)`, Number.isSafeInteger(offset) ? offset : -1);
    }
  }

  /**
   * Loads the pages of [offset, offset + size) not loaded yet, each run of missing pages in one read. A read that
   * continues where the last one ended takes twice as many pages (up to 4 MiB), so a long list laid out forwards costs
   * few reads; read-ahead never passes a page already loaded nor the end of the source.
   */
  async load(offset: number, size: number): Promise<void> {
    const first = Math.floor(offset / SPARSE_PAGE_BYTES);
    const last = Math.floor((Math.min(this.length, offset + Math.max(size, 1)) - 1) / SPARSE_PAGE_BYTES);
    const pageCount = Math.ceil(this.length / SPARSE_PAGE_BYTES);
    for (let page = first; page <= last; ) {
      if (this.pages.has(page)) {
        page++;
        continue;
      }
      this.readPages = page === this.nextPage ? Math.min(MAX_READ_PAGES, this.readPages * 2) : 1;
      let end = page + 1;
      while (end < pageCount && end < Math.max(last + 1, page + this.readPages) && !this.pages.has(end)) end++;
      const from = page * SPARSE_PAGE_BYTES;
      const bytes = await this.source.read(from, Math.min(this.length, end * SPARSE_PAGE_BYTES) - from);
      for (let p = page; p < end; p++) {
        const piece = bytes.subarray((p - page) * SPARSE_PAGE_BYTES, (p - page + 1) * SPARSE_PAGE_BYTES);
        this.pages.set(p, { bytes: piece, view: new DataView(piece.buffer, piece.byteOffset, piece.byteLength) });
      }
      this.nextPage = end;
      page = end;
    }
  }

  private at(offset: number, size: number): { bytes: Uint8Array; view: DataView; local: number } {
    this.require(offset, size, 'field');
    const index = Math.floor(offset / SPARSE_PAGE_BYTES);
    const local = offset - index * SPARSE_PAGE_BYTES;
    const page = this.pages.get(index);
    if (page && local + size <= page.bytes.byteLength) return { bytes: page.bytes, view: page.view, local };
    if (!page) throw new NeedBytes(offset, size);
    // A field across a page boundary (at most a 1 KiB text): copied out of its pages.
    const joined = new Uint8Array(size);
    for (let done = 0; done < size; ) {
      const piece = this.pages.get(Math.floor((offset + done) / SPARSE_PAGE_BYTES));
      if (!piece) throw new NeedBytes(offset, size);
      const from = (offset + done) % SPARSE_PAGE_BYTES;
      const n = Math.min(size - done, piece.bytes.byteLength - from);
      joined.set(piece.bytes.subarray(from, from + n), done);
      done += n;
    }
    return { bytes: joined, view: new DataView(joined.buffer), local: 0 };
  }

  u16(offset: number, little = true): number {
    const { view, local } = this.at(offset, 2);
    return view.getUint16(local, little);
  }
  i16(offset: number, little = true): number {
    const { view, local } = this.at(offset, 2);
    return view.getInt16(local, little);
  }
  u32(offset: number, little = true): number {
    const { view, local } = this.at(offset, 4);
    return view.getUint32(local, little);
  }
  latin1(offset: number, size: number): string {
    const { bytes, local } = this.at(offset, size);
    const field = bytes.subarray(local, local + size);
    const nul = field.indexOf(0);
    return latin1.decode(nul >= 0 ? field.subarray(0, nul) : field).trim();
  }
}

/**
 * Runs a synchronous parser over a SparseView, loading what it asks for and running it again until it completes: for
 * parsers that touch a few ranges (a header and the blocks it points to), each run cheap next to a read. Every pointer
 * is still checked before it is followed. A parser that walks a list as long as the file allows is a walk instead
 * (walkFromSource), which is never run twice.
 */
export async function parseFromSource<T>(view: SparseView, parse: (view: SparseView) => T): Promise<T> {
  for (;;) {
    try {
      return parse(view);
    } catch (e) {
      if (!(e instanceof NeedBytes)) throw e;
      await view.load(e.offset, e.size);
    }
  }
}

/**
 * Runs a parser written as a walk: a generator that yields each range before it reads it. Each range is loaded, then
 * the walk resumes where it stopped, so a list of n blocks is parsed once, whatever its layout, never once per load.
 */
export async function walkFromSource<T>(view: SparseView, walk: Generator<ByteRange, T>): Promise<T> {
  for (;;) {
    const step = walk.next();
    if (step.done) return step.value;
    await view.load(step.value.offset, step.value.size);
  }
}

/** Runs a walk over bytes all in memory (a BinaryView): nothing to load, the ranges it yields are passed over. */
export function walkInMemory<T>(walk: Generator<ByteRange, T>): T {
  for (;;) {
    const step = walk.next();
    if (step.done) return step.value;
  }
}
