import { Transform } from 'node:stream';
import { ByteLru } from '@pitwall/formats';

/** A large answer this gateway sent, kept by the request it answered: its tag (held-answer.ts in @pitwall/bus), media type and bytes. */
export interface HeldAnswer {
  tag: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * The large answers this gateway fetched by claim lately, each by the request it answered (the service, name and
 * message: never the caller), bounded in bytes (HELD_ANSWERS_BYTES), least recently used first out. An answer over an
 * eighth of the bound is not kept. The next such request names the held answer's tag; the service checks the caller
 * may read it and replies that the answer is the held one, or sends another. Nothing held is served without that
 * reply, so nothing held can be stale or reach a caller the service would refuse.
 */
export class HeldAnswers {
  private readonly lru: ByteLru<HeldAnswer>;

  constructor(readonly maxBytes: number) {
    this.lru = new ByteLru(maxBytes);
  }

  /** The key of a request: what the service is asked, whoever asks it. */
  static keyOf(service: string, command: string, message: unknown): string {
    return `${service}\u0000${command}\u0000${JSON.stringify(message)}`;
  }

  get(key: string): HeldAnswer | undefined {
    return this.lru.get(key);
  }

  get heldBytes(): number {
    return this.lru.bytes;
  }

  /**
   * A pass-through of a claimed answer's body that keeps a copy once all of it passed (`length` when known), unless
   * it comes to more than an eighth of the bound; undefined when it cannot be kept at all. An answer that breaks
   * off keeps nothing (its stream never finishes).
   */
  keeper(key: string, tag: string, contentType: string, length: number | undefined): Transform | undefined {
    const most = Math.floor(this.maxBytes / 8);
    if (most === 0 || (length !== undefined && length > most)) return undefined;
    let chunks: Buffer[] | undefined = [];
    let total = 0;
    return new Transform({
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
        if (chunks) this.lru.set(key, { tag, contentType, bytes: Buffer.concat(chunks, total) }, total, key);
        chunks = undefined;
        done();
      },
    });
  }
}
