import type { MessagePort } from 'node:worker_threads';

/**
 * Bytes streamed from a worker thread over a MessagePort, with credit-based backpressure: the worker posts a head,
 * then chunks (their buffers transferred, no copy), at most `window` ahead of what the receiving side took, then an
 * end. The worker's side imports nothing but this file (`@pitwall/bus/port-chunks`), so a pool bundle stays small.
 */
export interface ChunkHead {
  /** Bytes in all, when known before the first chunk. */
  length?: number;
}

type Message = { head: ChunkHead } | { chunk: Uint8Array } | { end: true };

/** Chunks posted ahead of the receiver's credit at most (4 MiB of 1 MiB chunks). */
export const DEFAULT_CHUNK_WINDOW = 4;

/**
 * The worker's side: posts `head`, then each chunk of `chunks` (each must own its whole buffer: it is transferred),
 * waiting for credit whenever `window` are not yet taken. Rejects when the receiver closes the port (it stopped
 * reading), which ends the task and frees the thread. Resolves to the bytes sent.
 */
export async function sendChunks(port: MessagePort, head: ChunkHead, chunks: Iterable<Uint8Array>, window = DEFAULT_CHUNK_WINDOW): Promise<number> {
  let credit = window;
  let wake: (() => void) | undefined;
  let closed = false;
  port.on('message', (n: number) => {
    credit += n;
    wake?.();
  });
  port.on('close', () => {
    closed = true;
    wake?.();
  });
  let sent = 0;
  try {
    port.postMessage({ head } satisfies Message);
    for (const chunk of chunks) {
      while (credit <= 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
      if (closed) throw new Error('the receiver stopped reading');
      credit -= 1;
      sent += chunk.byteLength;
      port.postMessage({ chunk } satisfies Message, [chunk.buffer as ArrayBuffer]);
    }
    port.postMessage({ end: true } satisfies Message);
    return sent;
  } finally {
    port.close();
  }
}

/**
 * The receiving side: the head once it came, and the chunks as they come, each taken one giving the worker one
 * credit. `task` is the worker's task: its failure fails the stream. Ending the iteration early closes the port (the
 * worker stops) and calls `stop` (abort the task).
 */
export function receiveChunks(port: MessagePort, task: Promise<unknown>, stop: (reason: unknown) => void): { head: Promise<ChunkHead>; chunks: AsyncIterable<Uint8Array> } {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  let onHead!: (head: ChunkHead) => void;
  let headFailed!: (err: unknown) => void;
  const head = new Promise<ChunkHead>((resolve, reject) => {
    onHead = resolve;
    headFailed = reject;
  });
  const fail = (err: unknown) => {
    if (ended) return;
    failure ??= err;
    headFailed(err);
    wake?.();
  };
  port.on('message', (m: Message) => {
    if ('head' in m) onHead(m.head);
    else if ('chunk' in m) queue.push(m.chunk);
    else ended = true;
    wake?.();
  });
  // A worker that dies fails the stream (its task rejects); one that closed the port short of its end did not finish.
  // Messages posted before a close arrive before it.
  task.catch((err: unknown) => {
    fail(err);
    port.close();
  });
  port.on('close', () => fail(new Error('the worker ended without finishing its answer')));
  head.catch(() => undefined);
  const chunks = async function* (): AsyncGenerator<Uint8Array> {
    let done = false;
    try {
      for (;;) {
        const chunk = queue.shift();
        if (chunk) {
          port.postMessage(1);
          yield chunk;
          continue;
        }
        if (ended) {
          done = true;
          return;
        }
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      port.close();
      if (!done) stop(new Error('the answer was not read to its end'));
    }
  };
  return { head, chunks: { [Symbol.asyncIterator]: chunks } };
}
