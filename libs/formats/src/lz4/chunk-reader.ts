import { Lz4FrameError } from './lz4-frame-error';

/**
 * Pulls exact byte counts out of an (async) iterable of chunks, holding only what the caller asked for plus
 * the rest of the last chunk received.
 */
export class ChunkReader {
  private readonly iterator: AsyncIterator<Uint8Array> | Iterator<Uint8Array>;
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private head = 0; // bytes already consumed from chunks[0]
  private done = false;
  /** Bytes consumed so far: the offset of the next byte in the stream. */
  offset = 0;

  constructor(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
    this.iterator =
      Symbol.asyncIterator in source
        ? (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
        : (source as Iterable<Uint8Array>)[Symbol.iterator]();
  }

  /** True when the stream has no byte left. */
  async atEnd(): Promise<boolean> {
    if (this.buffered > 0) return false;
    await this.fill(1);
    return this.buffered === 0;
  }

  /**
   * Exactly n bytes (a view, valid until the next read), or a TRUNCATED error naming `what` and the bytes it misses:
   * these n and the `after` bytes `what` still has past them, `after` being a lower bound unless `afterKnown`.
   */
  async read(n: number, what: string, after = 0, afterKnown = true): Promise<Uint8Array> {
    // A stored block of 0 bytes asks for nothing, and there may be no chunk buffered to take it from.
    if (n === 0) return new Uint8Array(0);
    if (this.buffered < n) await this.fill(n);
    if (this.buffered < n) {
      const missing = n - this.buffered + after;
      throw new Lz4FrameError('TRUNCATED', `truncated: the stream ends inside ${what} (${afterKnown ? '' : 'at least '}${missing} byte${missing === 1 ? '' : 's'} missing)`, this.offset + this.buffered);
    }
    const first = this.chunks[0]!;
    let out: Uint8Array;
    if (first.length - this.head >= n) {
      out = first.subarray(this.head, this.head + n);
      this.head += n;
    } else {
      out = new Uint8Array(n);
      let filled = 0;
      while (filled < n) {
        const chunk = this.chunks[0]!;
        const take = Math.min(n - filled, chunk.length - this.head);
        out.set(chunk.subarray(this.head, this.head + take), filled);
        filled += take;
        this.head += take;
        if (this.head === chunk.length) {
          this.chunks.shift();
          this.head = 0;
        }
      }
    }
    if (this.chunks.length > 0 && this.head === this.chunks[0]!.length) {
      this.chunks.shift();
      this.head = 0;
    }
    this.buffered -= n;
    this.offset += n;
    return out;
  }

  /** Closes the source early (an error was found): lets a file or network stream release its resources. */
  async close(): Promise<void> {
    if (!this.done) await this.iterator.return?.();
    this.done = true;
  }

  private async fill(n: number): Promise<void> {
    while (this.buffered < n && !this.done) {
      const next = await this.iterator.next();
      if (next.done) {
        this.done = true;
        break;
      }
      const chunk = next.value;
      if (chunk.length === 0) continue;
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
  }
}
