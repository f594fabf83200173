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

/** The unit of loading a parse's ranges (the header and the blocks it points to), and of the reads a walk takes ahead. */
export const SPARSE_PAGE_BYTES = 64 * 1024;
/** The most one read takes ahead (4 MiB): doubling from one page while a dense list continues where the last read ended. */
const MAX_READ_BYTES = 64 * SPARSE_PAGE_BYTES;
/**
 * A walk's reads: at most WALK_READ_FACTOR times the bytes it asks for (124 a channel block), plus WALK_READ_GRACE. The
 * bytes read to open a catalogue then grow with its blocks, never with the file, however the blocks are laid out.
 */
const WALK_READ_FACTOR = 4;
const WALK_READ_GRACE = SPARSE_PAGE_BYTES;
const latin1 = new TextDecoder('latin1');

/** A range a parser is about to read: a walk (see walkFromSource) yields it before reading it. */
export interface ByteRange {
  offset: number;
  size: number;
}

/** The bytes of one read, [from, end) of the source; `kept` while the view lives (a parse's), or until a walk passes it. */
interface Segment {
  from: number;
  end: number;
  bytes: Uint8Array;
  view: DataView;
  kept: boolean;
}

/**
 * Absolute-offset field reads over the ranges of a ByteSource loaded so far. Bounds are checked against the whole
 * source (a bad pointer is a CorruptDataFileError, as with BinaryView); a read of a range not loaded asks for it.
 * A parse (parseFromSource) loads the aligned pages of what it touches and they are kept; a walk (walkFromSource) moves
 * from range to range and never returns, so what it passed is dropped, and what it reads is paid for by what it asks:
 * a range near the last read takes that read's page, a dense list continuing the last read takes twice as much as it
 * (up to 4 MiB), a range far from it is read alone, all within WALK_READ_FACTOR times the bytes the walk asked for.
 * The view then holds the parse's pages, the reads the current range spans and the latest read: never more than a few
 * reads of at most 4 MiB, whatever the file's size.
 */
export class SparseView implements FieldReader {
  /** In offset order, none overlapping. */
  private segments: Segment[] = [];
  /** The latest read, and how many walk ranges lay in it: only a read that served several is continued with more. */
  private latest: Segment | null = null;
  private latestServed = 0;
  /** What the walk may still read: WALK_READ_FACTOR × the bytes it asked for, plus WALK_READ_GRACE, less what it read. */
  private walkCredit = WALK_READ_GRACE;
  /** The segment the last field was read from: the next field is most often in it. */
  private lastHeld: Segment | undefined;
  readonly length: number;

  constructor(
    private readonly source: ByteSource,
    private readonly format: string,
  ) {
    this.length = source.size;
  }

  /** The bytes of the reads the view holds now. */
  get heldBytes(): number {
    return this.segments.reduce((sum, s) => sum + s.bytes.byteLength, 0);
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
   * For a parse: loads the aligned pages of [offset, offset + size) not held yet, in one read, kept while the view
   * lives. A parse touches a few ranges (the header, event, venue and vehicle blocks: a few pages), so nothing is read
   * ahead.
   */
  async load(offset: number, size: number): Promise<void> {
    const [from, end] = this.clamp(offset, size);
    const missing = this.missing(from, end);
    if (!missing) return;
    const [a, b] = missing;
    await this.read(Math.floor(a / SPARSE_PAGE_BYTES) * SPARSE_PAGE_BYTES, Math.ceil(b / SPARSE_PAGE_BYTES) * SPARSE_PAGE_BYTES, a, b, true);
  }

  /**
   * For a walk, which never comes back to a range it passed: drops what neither this range nor the latest read (the
   * ranges ahead) holds, then loads what is missing of it. Near the latest read (within a page) it takes the range's
   * page; continuing a read that served several ranges, twice that read (up to 4 MiB); else the range alone. What it
   * reads stays within the walk's credit (never less than the range).
   */
  async advance(range: ByteRange): Promise<void> {
    const [from, end] = this.clamp(range.offset, range.size);
    this.walkCredit += WALK_READ_FACTOR * Math.max(0, range.size);
    const needed = (s: Segment) => s.from < end && from < s.end;
    const held = (s: Segment) => s.kept || s === this.latest || needed(s);
    if (!this.segments.every(held)) this.segments = this.segments.filter(held);
    const latest = this.latest;
    if (latest && needed(latest)) this.latestServed++;
    const missing = this.missing(from, end);
    if (!missing) return;
    const [a, b] = missing;
    if (latest && !latest.kept && !needed(latest)) this.segments = this.segments.filter((s) => s !== latest);

    let lo = a;
    let hi = b;
    if (latest && this.latestServed >= 2 && a >= latest.end && a - latest.end < SPARSE_PAGE_BYTES) {
      hi = Math.max(b, a + Math.min(MAX_READ_BYTES, Math.max(SPARSE_PAGE_BYTES, 2 * (latest.end - latest.from))));
    } else if (latest && Math.max(latest.from - b, a - latest.end) < SPARSE_PAGE_BYTES) {
      // The range's page, but not what the walk just passed (the latest read, dropped above when not needed).
      const page = Math.floor(a / SPARSE_PAGE_BYTES) * SPARSE_PAGE_BYTES;
      lo = Math.min(a, a >= latest.end ? Math.max(page, latest.end) : page);
      hi = Math.max(b, b <= latest.from ? Math.min(page + SPARSE_PAGE_BYTES, latest.from) : page + SPARSE_PAGE_BYTES);
    }
    [lo, hi] = this.around(lo, hi, a, b);
    // Within the credit: what lies ahead of the range goes first, then what lies before it.
    let spare = Math.max(0, this.walkCredit - (b - a));
    hi = b + Math.min(hi - b, spare);
    spare -= hi - b;
    lo = a - Math.min(a - lo, spare);
    this.walkCredit -= hi - lo;
    await this.read(lo, hi, a, b, false);
    this.latestServed = 1;
  }

  /** [offset, offset + size) within the source; an empty range is its first byte (as a field read of it would ask). */
  private clamp(offset: number, size: number): [number, number] {
    const from = Math.max(0, Math.min(offset, this.length));
    return [from, Math.min(this.length, from + Math.max(size, 1))];
  }

  /** The first byte of [from, end) not held and the end of the last one, or null when all of it is held. */
  private missing(from: number, end: number): [number, number] | null {
    let a = from;
    let b = end;
    for (const s of this.segments) if (s.from <= a && a < s.end) a = s.end;
    for (let k = this.segments.length - 1; k >= 0; k--) {
      const s = this.segments[k];
      if (s.from < b && b <= s.end) b = s.from;
    }
    return a < b ? [a, b] : null;
  }

  /** [lo, hi) cut so that it starts and ends in bytes not held (around the missing [a, b)) and within the source. */
  private around(lo: number, hi: number, a: number, b: number): [number, number] {
    let from = Math.max(0, lo);
    let to = Math.min(this.length, hi);
    for (const s of this.segments) {
      if (s.end <= a) from = Math.max(from, s.end);
      if (s.from >= b) to = Math.min(to, s.from);
    }
    return [from, to];
  }

  /** Reads [lo, hi) (which holds the missing [a, b)); what it covers of the segments held is dropped as it replaces them. */
  private async read(lo: number, hi: number, a: number, b: number, kept: boolean): Promise<void> {
    [lo, hi] = this.around(lo, hi, a, b);
    const bytes = await this.source.read(lo, hi - lo);
    const segment: Segment = { from: lo, end: hi, bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), kept };
    const inside = (s: Segment) => lo <= s.from && s.end <= hi;
    // A parse's segment this read covers (a tail page shorter than the range) stays kept, in it: a parse has few.
    if (this.segments.some((s) => inside(s) && s.kept)) segment.kept = true;
    this.segments = [...this.segments.filter((s) => !inside(s)), segment].sort((x, y) => x.from - y.from);
    this.latest = segment;
    this.latestServed = 0;
  }

  private at(offset: number, size: number): { bytes: Uint8Array; view: DataView; local: number } {
    this.require(offset, size, 'field');
    const segment = this.holding(offset);
    if (!segment) throw new NeedBytes(offset, size);
    const local = offset - segment.from;
    if (offset + size <= segment.end) return { bytes: segment.bytes, view: segment.view, local };
    // A field across the end of a read (at most a 1 KiB text): copied out of the reads it spans.
    const joined = new Uint8Array(size);
    for (let done = 0; done < size; ) {
      const piece = this.holding(offset + done);
      if (!piece) throw new NeedBytes(offset, size);
      const n = Math.min(size - done, piece.end - (offset + done));
      joined.set(piece.bytes.subarray(offset + done - piece.from, offset + done - piece.from + n), done);
      done += n;
    }
    return { bytes: joined, view: new DataView(joined.buffer), local: 0 };
  }

  /** The segment holding byte `offset`, if any: the view holds a few, so a scan is one lookup or two. */
  private holding(offset: number): Segment | undefined {
    const last = this.lastHeld;
    if (last && last.from <= offset && offset < last.end && this.segments.includes(last)) return last;
    this.lastHeld = this.segments.find((s) => s.from <= offset && offset < s.end);
    return this.lastHeld;
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
 * Runs a parser written as a walk: a generator that yields each range before it reads it, never reading a range it
 * yielded earlier. Each range is loaded (what the walk passed is dropped), then the walk resumes where it stopped, so a
 * list of n blocks is parsed once, whatever its layout, never once per load.
 */
export async function walkFromSource<T>(view: SparseView, walk: Generator<ByteRange, T>): Promise<T> {
  for (;;) {
    const step = walk.next();
    if (step.done) return step.value;
    await view.advance(step.value);
  }
}

/** Runs a walk over bytes all in memory (a BinaryView): nothing to load, the ranges it yields are passed over. */
export function walkInMemory<T>(walk: Generator<ByteRange, T>): T {
  for (;;) {
    const step = walk.next();
    if (step.done) return step.value;
  }
}
