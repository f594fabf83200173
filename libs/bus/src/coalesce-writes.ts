import type { ChannelModel } from 'amqplib';
import type { Writable } from 'node:stream';

/** The amqplib 2.x internals this relies on: the connection's socket and the muxer that writes every channel's frames to it. */
interface AmqplibConnectionInternals {
  stream?: Writable;
  muxer?: { _readIncoming?: () => void };
}

/**
 * Sends the frames that amqplib writes in one pass as one socket write.
 *
 * amqplib queues each channel's frames and its muxer, on a `setImmediate`, writes whatever queued since, one
 * `socket.write` per message: with `noDelay` that is one system call and one TCP segment per message. A gateway
 * with 32 requests in flight wrote each request on its own, and RabbitMQ read each on its own. Corking the socket
 * for the length of the muxer's pass sends everything the pass writes in one `writev`. Nothing waits longer: the
 * socket is uncorked as the pass ends, in the same tick (measured in docs/benchmarks.md, session 11).
 *
 * This reaches into amqplib's connection (`connection.muxer`, `connection.stream`). When those are not there (another
 * amqplib), nothing is changed and it returns false; `coalesce-writes.test.ts` keeps it applied with the installed one.
 */
export function coalesceFrameWrites(model: ChannelModel): boolean {
  const connection = (model as unknown as { connection?: AmqplibConnectionInternals }).connection;
  const socket = connection?.stream;
  const muxer = connection?.muxer;
  const pass = muxer?._readIncoming;
  if (!muxer || !socket || typeof pass !== 'function' || typeof socket.cork !== 'function' || typeof socket.uncork !== 'function') return false;
  muxer._readIncoming = function corkedPass(this: unknown) {
    socket.cork();
    try {
      pass.call(muxer);
    } finally {
      socket.uncork();
    }
  };
  return true;
}
