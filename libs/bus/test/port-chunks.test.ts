import { MessageChannel } from 'node:worker_threads';
import { receiveChunks, type StreamWatch, type WatchedStream } from '../src';
import { DEFAULT_CHUNK_WINDOW, FeedStopped, feedChunks, sendChunks, takeChunks } from '../src/claims/port-chunks';

/**
 * The two sides of a streamed answer over a MessagePort, both in this thread (the worker's side is the same code a
 * pool worker runs): `count` chunks of `size` bytes, byte k of chunk i being (i + k) % 251, and how far the producer
 * got ahead of its reader.
 */
const open: MessageChannel[] = [];
// A test that failed half-way leaves no producer waiting on its port (which would keep the process alive).
afterEach(() => {
  for (const channel of open.splice(0)) channel.port1.close();
});

function stream(count: number, size = 1024, watch?: StreamWatch, senderWindow?: number) {
  const channel = new MessageChannel();
  open.push(channel);
  const { port1, port2 } = channel;
  const state = { made: 0, ahead: 0 };
  let taken = 0;
  function* chunks(): Generator<Uint8Array> {
    for (let i = 0; i < count; i++) {
      state.made += 1;
      state.ahead = Math.max(state.ahead, state.made - taken);
      yield Uint8Array.from({ length: size }, (_, k) => (i + k) % 251);
    }
  }
  const task = senderWindow === undefined ? sendChunks(port2, {}, chunks()) : sendChunks(port2, {}, chunks(), senderWindow);
  task.catch(() => undefined);
  const stop = jest.fn();
  const received = receiveChunks(port1, task, stop, watch ? { watch } : {});
  const iterator = received.chunks[Symbol.asyncIterator]();
  const next = async () => {
    const r = await iterator.next();
    if (!r.done) taken += 1;
    return r;
  };
  return { task, stop, state, head: received.head, next, leave: () => iterator.return?.(undefined) };
}

const settled = (p: Promise<unknown>) => p.then(() => 'resolved' as const, (err: unknown) => err as Error);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A watch that holds the streams it is given, for the test to look at and give up. */
function heldWatch() {
  const streams: WatchedStream[] = [];
  const ended: WatchedStream[] = [];
  const watch: StreamWatch = {
    watch(stream) {
      streams.push(stream);
      return () => void ended.push(stream);
    },
  };
  return { watch, streams, ended };
}

describe('port chunks: an answer streamed from a worker with credit-based backpressure', () => {
  test('when the reader takes its chunks with pauses, then the producer waits for it (never more than its window ahead) and every byte comes in order', async () => {
    const s = stream(40);
    const bytes: number[] = [];
    for (let r = await s.next(); !r.done; r = await s.next()) {
      bytes.push(...r.value);
      if (bytes.length % (8 * 1024) === 0) await pause(20);
    }
    expect(await s.task).toBe(40 * 1024);
    expect(bytes).toEqual(Array.from({ length: 40 * 1024 }, (_, j) => (Math.floor(j / 1024) + (j % 1024)) % 251));
    // The one chunk made before it waits for credit is the only one past the window.
    expect(s.state.ahead).toBeLessThanOrEqual(DEFAULT_CHUNK_WINDOW + 1);
    expect(s.stop).not.toHaveBeenCalled();
  });

  test('when the reader leaves early while the producer waits for credit, then the closed port ends the producer by itself: its task is not aborted', async () => {
    const s = stream(100);
    await s.next();
    // The producer fills its window, then waits.
    while (s.state.made < DEFAULT_CHUNK_WINDOW + 2) await pause(5);
    await pause(20);
    await s.leave();
    expect(await settled(s.task)).toMatchObject({ message: 'the receiver stopped reading' });
    expect(s.stop).not.toHaveBeenCalled();
    expect(s.state.made).toBeLessThan(100);
  });

  test("when the producer's window is not the reader's default and the reader leaves while the producer waits for credit, then the producer still ends by itself (the head told the reader its window)", async () => {
    const s = stream(100, 1024, undefined, 2);
    await s.next();
    while (s.state.made < 2 + 2) await pause(5);
    await pause(20);
    await s.leave();
    expect(await settled(s.task)).toMatchObject({ message: 'the receiver stopped reading' });
    expect(s.stop).not.toHaveBeenCalled();
  });

  test('when the reader leaves early just after taking a chunk (its producer has credit again, and may be making the next one), then its task is aborted', async () => {
    const s = stream(100);
    await s.head;
    while (s.state.made < DEFAULT_CHUNK_WINDOW + 1) await pause(5);
    await pause(20);
    await s.next();
    await s.leave();
    expect(s.stop).toHaveBeenCalledTimes(1);
  });

  test('when chunks wait untaken, then the watch sees the stream idle since the first of them came; while the reader keeps up, not idle', async () => {
    const held = heldWatch();
    const before = Date.now();
    const s = stream(100, 1024, held.watch);
    await s.head;
    const [watched] = held.streams;
    if (!watched) throw new Error('the stream was not watched');
    while (s.state.made < DEFAULT_CHUNK_WINDOW) await pause(5);
    await pause(20);
    expect(watched.idleSince).toBeGreaterThanOrEqual(before);
    expect(watched.taken).toBe(0);
    for (let r = await s.next(); !r.done; r = await s.next()) void 0;
    expect(watched.idleSince).toBeUndefined();
    expect(watched.taken).toBe(100 * 1024);
    await s.task;
    await pause(0);
    expect(held.ended).toEqual([watched]);
  });

  test('when the watch gives a stream up, then its producer ends by itself (its thread kept, no abort) and the reader fails with the reason at its next chunk, even with chunks still held', async () => {
    const held = heldWatch();
    const s = stream(100, 1024, held.watch);
    await s.next();
    while (s.state.made < DEFAULT_CHUNK_WINDOW + 2) await pause(5);
    await pause(20);
    const watched = held.streams[0] as WatchedStream;
    expect(watched.idleSince).toBeDefined();
    watched.giveUp(new Error('the client took nothing'));
    expect(watched.idleSince).toBeUndefined();
    await expect(s.next()).rejects.toThrow('the client took nothing');
    expect(await settled(s.task)).toMatchObject({ message: 'the receiver stopped reading' });
    expect(s.stop).not.toHaveBeenCalled();
    await pause(0);
    expect(held.ended).toEqual([watched]);
  });
});

describe('port chunks: bytes fed to a worker (feedChunks, takeChunks)', () => {
  const bytes = (n: number, size = 1000) => Array.from({ length: n }, (_, i) => Uint8Array.from({ length: size }, (_, k) => (i * 7 + k) % 253));

  test('when the task has not started, then the source is not opened; once it takes the bytes, every byte comes in order, never more than its window ahead', async () => {
    const channel = new MessageChannel();
    open.push(channel);
    let opened = 0;
    let pulled = 0;
    const source = async function* () {
      for (const chunk of bytes(20)) {
        pulled++;
        yield chunk;
      }
    };
    const feeding = feedChunks(channel.port1, () => {
      opened++;
      return source();
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([opened, pulled]).toEqual([0, 0]);

    const received: Uint8Array[] = [];
    let ahead = 0;
    for await (const chunk of takeChunks(channel.port2, 3)) {
      received.push(chunk);
      ahead = Math.max(ahead, pulled - received.length);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await feeding;
    expect(opened).toBe(1);
    expect(Buffer.concat(received).equals(Buffer.concat(bytes(20)))).toBe(true);
    expect(ahead).toBeLessThanOrEqual(4);
  });

  test('when the task stops taking (it refused the bytes), then the feeding stops with FeedStopped and the source is read no further', async () => {
    const channel = new MessageChannel();
    open.push(channel);
    let pulled = 0;
    let closed = false;
    const source = async function* () {
      try {
        for (const chunk of bytes(50)) {
          pulled++;
          yield chunk;
        }
      } finally {
        closed = true;
      }
    };
    const feeding = feedChunks(channel.port1, source).catch((e: unknown) => e);
    for await (const _chunk of takeChunks(channel.port2, 2)) break;

    expect(await feeding).toBeInstanceOf(FeedStopped);
    expect(pulled).toBeLessThanOrEqual(4);
    expect(closed).toBe(true);
  });

  test('when the source fails, then the task\'s iteration fails saying so, and the feeding rejects with the source\'s own error', async () => {
    const channel = new MessageChannel();
    open.push(channel);
    const outage = new Error('the store went away');
    const source = async function* () {
      yield bytes(1)[0] as Uint8Array;
      throw outage;
    };
    const feeding = feedChunks(channel.port1, source).catch((e: unknown) => e);
    const taking = (async () => {
      for await (const _chunk of takeChunks(channel.port2)) {
        // taking
      }
    })().catch((e: unknown) => e);

    expect(await feeding).toBe(outage);
    expect(String(await taking)).toBe('Error: the bytes could not be read: the store went away');
  });
});
