/**
 * A large answer, made as it is sent: its media type, its length when known before it is made, and its bytes in
 * chunks pulled one after another (a consumer that stops pulling holds its producer back: backpressure).
 */
export interface BulkAnswer {
  contentType: string;
  /** Bytes in all, when known up front (a binary body): sent as Content-Length. */
  length?: number;
  /**
   * The chunks, pulled once. A producer stops and frees what it holds when `signal` aborts or the iteration is
   * ended early (`return`); a failure thrown from it ends the transfer as aborted, never as a shorter complete body.
   * A chunk yielded is the consumer's: its producer never writes into it again.
   */
  chunks(signal: AbortSignal): AsyncIterable<Uint8Array>;
  /**
   * All of its bytes, when they are in memory already (a kept answer): written to the socket at once, not pulled
   * chunk by chunk (the same bytes as `chunks`).
   */
  bytes?: Uint8Array;
  /** The answer's identity when its bytes are content-addressed (held-answer.ts): the same tag, the same bytes. */
  tag?: string;
  /**
   * Nothing to send: the asker holds the answer tagged `tag` already (its request named it). Its chunks are none; a
   * claim desk replies it as a header alone.
   */
  held?: true;
}

export const JSON_MEDIA_TYPE = 'application/json';

/** Bytes already made, as a bulk answer (served in views of `chunkBytes`, no copy: they are in memory anyway). */
export function bytesAnswer(bytes: Uint8Array, contentType: string, chunkBytes = 1024 * 1024): BulkAnswer {
  return {
    contentType,
    length: bytes.byteLength,
    bytes,
    async *chunks(signal) {
      // Like a streamed answer, one whose signal aborted fails at its next chunk rather than passing for a whole one.
      for (let at = 0; at < bytes.byteLength; at += chunkBytes) {
        signal.throwIfAborted();
        yield bytes.subarray(at, Math.min(bytes.byteLength, at + chunkBytes));
      }
      signal.throwIfAborted();
    },
  };
}

/** The answer the asker holds already (`tag`): no bytes, replied as a header (held-answer.ts). */
export function heldAnswer(tag: string, contentType: string): BulkAnswer {
  return {
    contentType,
    tag,
    held: true,
    // eslint-disable-next-line require-yield
    async *chunks() {
      return;
    },
  };
}

/**
 * `answer` between a head and a tail (a JSON document around an array streamed as it is made). Its tag, when it has
 * one, must already account for the frame (the maker of the tag knows it).
 */
export function framedAnswer(head: Uint8Array, answer: BulkAnswer, tail: Uint8Array): BulkAnswer {
  if (answer.held) return answer;
  return {
    contentType: answer.contentType,
    ...(answer.tag !== undefined ? { tag: answer.tag } : {}),
    ...(answer.length !== undefined ? { length: head.byteLength + answer.length + tail.byteLength } : {}),
    async *chunks(signal) {
      yield head;
      yield* answer.chunks(signal);
      yield tail;
    },
  };
}

/**
 * Keeps a copy of the answer's bytes while they pass, when all of them come to at most `maxBytes`, and hands it to
 * `done` once the last one passed (a result cache); a longer or interrupted answer, or one not of its announced
 * length, keeps nothing.
 */
export function keptAnswer(answer: BulkAnswer, maxBytes: number, done: (bytes: Uint8Array) => void): BulkAnswer {
  if (maxBytes <= 0 || (answer.length !== undefined && answer.length > maxBytes)) return answer;
  // Without `bytes`: the copy is made as the chunks pass.
  const { bytes: _whole, ...rest } = answer;
  return {
    ...rest,
    async *chunks(signal) {
      let kept: Uint8Array[] | undefined = [];
      let total = 0;
      for await (const chunk of answer.chunks(signal)) {
        total += chunk.byteLength;
        if (kept) {
          if (total > maxBytes) kept = undefined;
          else kept.push(chunk);
        }
        yield chunk;
      }
      // Only an answer of the length it announced is kept: one that came short (or long) is a failed transfer, never a
      // cached answer served whole to the next reader of the same content.
      if (kept && (answer.length === undefined || total === answer.length)) done(concatBytes(kept, total));
    },
  };
}

export function concatBytes(chunks: readonly Uint8Array[], total = chunks.reduce((sum, c) => sum + c.byteLength, 0)): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** All of an answer's bytes, in one buffer (for what needs them whole: a test, a small answer). */
export async function answerBytes(answer: BulkAnswer, signal: AbortSignal = new AbortController().signal): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of answer.chunks(signal)) chunks.push(chunk);
  return concatBytes(chunks);
}
