import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { connect, type ChannelModel } from 'amqplib';
import { coalesceFrameWrites } from '../src/coalesce-writes';

const AMQP_URL = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
const MESSAGES = 40;

/** Counts the socket writes (system calls, one TCP segment each with noDelay) the connection makes from here on. */
function countSocketWrites(model: ChannelModel): () => number {
  type Method = (this: Writable, ...args: unknown[]) => void;
  const socket = (model as unknown as { connection: { stream: Writable & { _write: Method; _writev?: Method } } }).connection.stream;
  let writes = 0;
  const write = socket._write;
  const writev = socket._writev;
  socket._write = function (...args: unknown[]) {
    writes++;
    return write.apply(this, args);
  };
  if (writev) {
    socket._writev = function (...args: unknown[]) {
      writes++;
      return writev.apply(this, args);
    };
  }
  return () => writes;
}

/** Publishes MESSAGES messages in one tick on a fresh connection; returns the socket writes they took and what arrived. */
async function publishBurst(coalesce: boolean): Promise<{ applied: boolean; writes: number; received: string[] }> {
  const model = await connect(AMQP_URL, { noDelay: true });
  try {
    const applied = coalesce ? coalesceFrameWrites(model) : false;
    const channel = await model.createChannel();
    const { queue } = await channel.assertQueue(`pitwall-test.coalesce.${randomUUID().slice(0, 8)}`, { exclusive: true, autoDelete: true });
    const received: string[] = [];
    const all = new Promise<void>((resolve) => {
      void channel.consume(queue, (m) => {
        if (!m) return;
        received.push(m.content.toString());
        if (received.length === MESSAGES) resolve();
      }, { noAck: true });
    });
    // Let the consume's own frames go out before counting.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const writes = countSocketWrites(model);
    for (let i = 0; i < MESSAGES; i++) channel.sendToQueue(queue, Buffer.from(`message ${i}`));
    await all;
    return { applied, writes: writes(), received };
  } finally {
    await model.close();
  }
}

describe('coalesceFrameWrites', () => {
  const expected = Array.from({ length: MESSAGES }, (_, i) => `message ${i}`);

  test('when messages are published in one tick, then they leave in one socket write, in order', async () => {
    const burst = await publishBurst(true);
    expect(burst.applied).toBe(true);
    expect(burst.received).toEqual(expected);
    expect(burst.writes).toBe(1);
  });

  test('without it, amqplib writes each message on its own (what the change is for)', async () => {
    const burst = await publishBurst(false);
    expect(burst.received).toEqual(expected);
    expect(burst.writes).toBe(MESSAGES);
  });

  test('when the connection is not the amqplib one it knows, then it changes nothing and says so', () => {
    expect(coalesceFrameWrites({} as ChannelModel)).toBe(false);
    expect(coalesceFrameWrites({ connection: { stream: {}, muxer: {} } } as unknown as ChannelModel)).toBe(false);
  });
});
