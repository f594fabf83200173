import { Transform } from 'node:stream';
import { answerTag } from '@pitwall/bus';
import { ByteLru } from '@pitwall/formats';

/** A large answer this gateway sent, kept by the request it answered: its tag (held-answer.ts in @pitwall/bus), media type and bytes. */
export interface HeldAnswer {
  tag: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * The large answers this gateway fetched by claim lately, each by the request it answered (the service, name and
 * message, hashed; never the caller), bounded in bytes (HELD_ANSWERS_BYTES), least recently used first out. An answer
 * over an eighth of the bound is not kept, and the copies being made of answers in transfer count against the bound
 * too (a transfer that would pass it keeps nothing). The next such request names the held answer's tag; the service
 * checks the caller may read it and replies that the answer is the held one, or sends another. Nothing held is served
 * without that reply, so nothing held can be stale or reach a caller the service would refuse.
 */
export class HeldAnswers {
  private readonly lru: ByteLru<HeldAnswer>;
  /** Bytes the keepers of answers in transfer may still copy (each reserves its most when it starts). */
  private reserved = 0;

  constructor(readonly maxBytes: number) {
    this.lru = new ByteLru(maxBytes);
  }

  /** The key of a request: what the service is asked, whoever asks it (a hash: a batch may name thousands of channels). */
  static keyOf(service: string, command: string, message: unknown): string {
    return answerTag(service, command, JSON.stringify(message));
  }

  get(key: string): HeldAnswer | undefined {
    return this.lru.get(key);
  }

  /** Forgets the answer of a request (its read was refused, failed, or answered otherwise). */
  delete(key: string): void {
    this.lru.delete(key);
  }

  get heldBytes(): number {
    return this.lru.bytes;
  }

  /** Bytes reserved now by the keepers of answers in transfer. */
  get reservedBytes(): number {
    return this.reserved;
  }

  /**
   * A pass-through of a claimed answer's body that keeps a copy once all of it passed (`length` when known, and then
   * exactly that many bytes), unless it comes to more than an eighth of the bound; undefined when it cannot be kept
   * (too long, or the copies in transfer already reserve the bound). An answer that breaks off keeps nothing.
   */
  keeper(key: string, tag: string, contentType: string, length: number | undefined): Transform | undefined {
    const most = Math.floor(this.maxBytes / 8);
    if (most === 0 || (length !== undefined && length > most)) return undefined;
    const reserve = length ?? most;
    if (this.reserved + reserve > this.maxBytes) return undefined;
    this.reserved += reserve;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.reserved -= reserve;
    };
    let chunks: Buffer[] | undefined = [];
    let total = 0;
    const keeper = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (chunks) {
          total += chunk.byteLength;
          if (total > most) chunks = undefined;
          else chunks.push(chunk);
        }
        done(null, chunk);
      },
      // Copied into one buffer of its own: the chunks may be views into larger buffers (the socket's, the desk's).
      flush: (done) => {
        if (chunks && (length === undefined || total === length)) this.lru.set(key, { tag, contentType, bytes: Buffer.concat(chunks, total) }, total, key);
        chunks = undefined;
        release();
        done();
      },
    });
    keeper.once('close', release);
    return keeper;
  }
}
