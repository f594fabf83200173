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

const CHUNK = 64 * 1024;
const MAX_CHUNK = 4 * 1024 * 1024;
const latin1 = new TextDecoder('latin1');

/**
 * Absolute-offset field reads over the ranges of a ByteSource loaded so far. Bounds are checked against the whole
 * source (a bad pointer is a CorruptDataFileError, as with BinaryView); a read of a range not loaded asks for it.
 */
export class SparseView implements FieldReader {
  private readonly chunks: { offset: number; bytes: Uint8Array; view: DataView }[] = [];
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
   * Loads at least [offset, offset + size), in chunks of 64 KiB so neighbouring blocks come with one read, doubling
   * with each further load (up to 4 MiB) so that a long, scattered channel list costs few reads and few re-parses.
   */
  async load(offset: number, size: number): Promise<void> {
    const chunk = Math.min(MAX_CHUNK, CHUNK * 2 ** this.chunks.length);
    const length = Math.min(this.length - offset, Math.max(size, chunk));
    const bytes = await this.source.read(offset, length);
    this.chunks.push({ offset, bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  }

  private at(offset: number, size: number): { bytes: Uint8Array; view: DataView; local: number } {
    this.require(offset, size, 'field');
    for (const c of this.chunks) {
      if (offset >= c.offset && offset + size <= c.offset + c.bytes.byteLength) return { bytes: c.bytes, view: c.view, local: offset - c.offset };
    }
    throw new NeedBytes(offset, size);
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
 * Runs a synchronous parser over a SparseView, loading what it asks for and running it again until it completes.
 * Parsers are cheap next to I/O, and every pointer is still checked before it is followed.
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
