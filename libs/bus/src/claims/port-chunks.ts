import { MessageChannel, type MessagePort } from 'node:worker_threads';

/**
 * Bytes streamed from a worker thread over a MessagePort, with credit-based backpressure: the worker posts a head,
 * then chunks (their buffers transferred, no copy), at most `window` ahead of what the receiving side took, then an
 * end. The worker's side imports nothing but this file (`@pitwall/bus/port-chunks`), so a pool bundle stays small.
 */
export interface ChunkHead {
  /** Bytes in all, when known before the first chunk. */
  length?: number;
  /** The producer refused the answer before its first chunk (none follow): what the caller answers instead. */
  refusal?: ChunkRefusal;
  /** The producer's window (set by `sendChunks`): with that many chunks untaken, it waits for credit. */
  window?: number;
}

/** A refusal a producer found only once it had planned the answer (an HTTP status and its problem's text). */
export interface ChunkRefusal {
  status: number;
  detail: string;
  /** The request field's error (the caller names the field). */
  reason: string;
  extensions?: Record<string, number | string>;
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
  const credit = creditOn(port, window);
  let sent = 0;
  try {
    // The window travels with the head: the reader knows when this side waits for credit, whatever it was told.
    port.postMessage({ head: { ...head, window } } satisfies Message);
    for (const chunk of chunks) {
      await credit.take(() => new Error('the receiver stopped reading'));
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
 * A stream as its watch sees it (`StreamWatch`): whether its reader keeps up, and how to end it. A reader that stops
 * taking chunks holds its producer, and with it a pool thread, for as long as it does: the watch decides how long.
 */
export interface WatchedStream {
  /**
   * Since when (epoch ms) the reader has had a chunk to take and took none; undefined while it keeps up, while the
   * producer is still making what comes next, and once the stream was given up.
   */
  readonly idleSince: number | undefined;
  /** Bytes the reader took so far. */
  readonly taken: number;
  /**
   * Ends the stream for `reason`: the port is closed, so the producer's task ends by itself (its thread freed, not
   * ended), and the reader's next chunk fails with `reason`: its transfer is aborted, never taken for a whole one.
   */
  giveUp(reason: Error): void;
}

/** Watches streams while their producers run: `watch` is called when one starts and its result when the producer ended. */
export interface StreamWatch {
  watch(stream: WatchedStream): () => void;
}

export interface ReceiveOptions {
  /** The watch of the streams of a pool: a stream is watched from its start until its producer's task settled. */
  watch?: StreamWatch;
  /** The producer's window until its head says it (`sendChunks` sends it there): with that many chunks untaken, it waits for credit. */
  window?: number;
}

/**
 * The receiving side: the head once it came, and the chunks as they come, each taken one giving the worker one
 * credit. `task` is the worker's task: its failure fails the stream. Ending the iteration early, or `cancel`, closes
 * the port and, unless the worker is waiting for credit (then the close ends its task by itself, its thread kept),
 * calls `stop` (abort the task, which ends its thread: it may be busy making a chunk). `options.watch` may give the
 * stream up while its reader takes nothing.
 */
export function receiveChunks(port: MessagePort, task: Promise<unknown>, stop: (reason: unknown) => void, options: ReceiveOptions = {}): { head: Promise<ChunkHead>; chunks: AsyncIterable<Uint8Array>; cancel: (reason: unknown) => void } {
  // The producer's own window once its head came (it says); until then, the one the caller gives.
  let window = options.window ?? DEFAULT_CHUNK_WINDOW;
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
  // Chunks received and taken, and since when one has been waiting untaken (the watch's idleSince).
  let received = 0;
  let taken = 0;
  let takenBytes = 0;
  let waitingSince: number | undefined;
  let gaveUp = false;
  /** Given up or cancelled: the reader's next chunk fails, whatever is still queued. */
  let stopped = false;
  let read = false;
  const fail = (err: unknown) => {
    if (ended) return;
    failure ??= err;
    headFailed(err);
    wake?.();
  };
  const end = (reason: unknown) => {
    stopped = true;
    failure ??= reason;
    headFailed(reason);
    wake?.();
    port.close();
  };
  port.on('message', (m: Message) => {
    if ('head' in m) {
      if (typeof m.head.window === 'number') window = m.head.window;
      onHead(m.head);
    }
    else if ('chunk' in m) {
      if (queue.length === 0) waitingSince = Date.now();
      queue.push(m.chunk);
      received += 1;
    } else ended = true;
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
  if (options.watch) {
    const stream: WatchedStream = {
      get idleSince() {
        return stopped || ended || failure !== undefined || queue.length === 0 ? undefined : waitingSince;
      },
      get taken() {
        return takenBytes;
      },
      giveUp(reason) {
        if (stopped || ended || failure !== undefined) return;
        gaveUp = true;
        end(reason);
      },
    };
    const unwatch = options.watch.watch(stream);
    task.then(unwatch, unwatch);
  }
  // The reader stops before the end: with `window` chunks untaken the worker waits for credit, and the port's close
  // ends its task by itself (its thread kept); otherwise it may be making a chunk, and its task is aborted.
  const cancel = (reason: unknown) => {
    const waitsForCredit = received - taken >= window;
    const settled = read || ended || gaveUp;
    if (!stopped) end(reason);
    if (!settled && !waitsForCredit) stop(reason);
  };
  const chunks = async function* (): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        // A stream given up or cancelled fails at once, whatever it still holds: its producer is gone, the rest would
        // never come.
        if (stopped) throw failure;
        const chunk = queue.shift();
        if (chunk) {
          taken += 1;
          takenBytes += chunk.byteLength;
          waitingSince = queue.length ? Date.now() : undefined;
          port.postMessage(1);
          yield chunk;
          continue;
        }
        if (ended) {
          read = true;
          return;
        }
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      cancel(new Error('the answer was not read to its end'));
    }
  };
  return { head, chunks: { [Symbol.asyncIterator]: chunks }, cancel };
}

/** What the feeding side posts to a worker: chunks, then the end, or why the source failed. */
type FeedMessage = { chunk: Uint8Array } | { end: true } | { failed: string };

/** The worker stopped taking the bytes (its task ended: refused the stream, or failed): the task's outcome says why. */
export class FeedStopped extends Error {
  constructor() {
    super('the worker stopped reading');
    this.name = 'FeedStopped';
  }
}

/**
 * The other way round: the caller's side feeds a source (a blob's bytes) to a worker's task over `port`. The source is
 * opened only once the task has started (its first credit: a task waiting for a pool thread holds no open stream,
 * which a store's idle timeout would cut), and read at most the window the task grants ahead of what it took; each
 * chunk is copied into a buffer of its own, which is transferred. Resolves once every chunk and the end were posted.
 * A source that fails tells the task (its iteration throws, it ends) and rejects with the source's error; a task that
 * closes the port before the end (it refused the stream, or failed) stops the feeding and the reading of the source,
 * which rejects with FeedStopped (the task's own outcome is the cause to report).
 */
export async function feedChunks(port: MessagePort, open: () => Promise<AsyncIterable<Uint8Array>> | AsyncIterable<Uint8Array>): Promise<void> {
  const credit = creditOn(port, 0);
  const stopped = () => new FeedStopped();
  await credit.granted(stopped);
  try {
    for await (const piece of await open()) {
      await credit.take(stopped);
      const chunk = new Uint8Array(piece);
      port.postMessage({ chunk } satisfies FeedMessage, [chunk.buffer]);
    }
  } catch (err) {
    if (!credit.closed && !(err instanceof FeedStopped)) port.postMessage({ failed: err instanceof Error ? err.message : String(err) } satisfies FeedMessage);
    throw err;
  }
  // The worker closes the port once it took the end (messages posted before a close still arrive).
  if (!credit.closed) port.postMessage({ end: true } satisfies FeedMessage);
}

/**
 * Runs a worker task fed `open`'s bytes over a channel of its own: `run` starts the task with its end of the channel (to
 * transfer), which it reads with `takeChunks`. Resolves to the task's result. The failure thrown is the first cause:
 * the source's (its store failing), else the task's own (the FeedStopped its end caused is a consequence).
 */
export async function runFed<R>(run: (port: MessagePort) => Promise<R>, open: () => Promise<AsyncIterable<Uint8Array>> | AsyncIterable<Uint8Array>): Promise<R> {
  const { port1, port2 } = new MessageChannel();
  // The task's end closes this side too: the worker's close reaches it late (seconds, seen), and the feeding waiting
  // for credit would wait that long.
  const task = run(port2).finally(() => port1.close());
  const [fed, done] = await Promise.allSettled([feedChunks(port1, open), task]);
  if (done.status === 'fulfilled') return done.value;
  if (fed.status === 'rejected' && !(fed.reason instanceof FeedStopped)) throw fed.reason;
  throw done.reason;
}

/** The credit the other side of `port` grants (a number per message, `initial` to begin with), and whether it closed. */
function creditOn(port: MessagePort, initial: number) {
  let credit = initial;
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
  /** Resolves once there is credit; throws what `stopped` makes when the port closed first. */
  const granted = async (stopped: () => Error): Promise<void> => {
    while (credit <= 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
    if (closed) throw stopped();
  };
  return {
    get closed() {
      return closed;
    },
    granted,
    /** Waits for one credit and takes it. */
    take: async (stopped: () => Error): Promise<void> => {
      await granted(stopped);
      credit -= 1;
    },
  };
}

/**
 * The worker's side of `feedChunks`: the chunks as they come. Starting, it grants the feeder `window` chunks, then one
 * more for each it takes. Throws when the feeder's source failed, or the port closed before the end. The port is
 * closed once the iteration ends, so a task that stops early (a refused stream) stops the feeding too.
 */
export function takeChunks(port: MessagePort, window = DEFAULT_CHUNK_WINDOW): AsyncIterable<Uint8Array> {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  port.on('message', (m: FeedMessage) => {
    if ('chunk' in m) queue.push(m.chunk);
    else if ('end' in m) ended = true;
    else failure = new Error(`the bytes could not be read: ${m.failed}`);
    wake?.();
  });
  port.on('close', () => {
    if (!ended) failure ??= new Error('the feeder closed before the end of the bytes');
    wake?.();
  });
  port.postMessage(window);
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const chunk = queue.shift();
          if (chunk) {
            port.postMessage(1);
            yield chunk;
            continue;
          }
          if (failure) throw failure;
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        port.close();
      }
    },
  };
}
