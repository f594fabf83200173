import type { WatchedStream } from '@pitwall/bus';
import { loadConfig } from '@pitwall/service-kit';
import { DatafileConfig } from '../../src/definition';
import { StalledStreams, streamStallBounds } from '../../src/domain/stalled-streams';

const NOW = 1_000_000;
const BOUNDS = { stallMs: 300, maxStallMs: 3000 };

/** A stream whose reader has taken nothing for `idleMs` (undefined: it keeps up), remembering why it was given up. */
function streamIdle(idleMs: number | undefined): WatchedStream & { reason?: string } {
  const stream: WatchedStream & { reason?: string } = {
    idleSince: idleMs === undefined ? undefined : NOW - idleMs,
    taken: 0,
    giveUp(reason) {
      stream.reason = reason.message;
    },
  };
  return stream;
}

function watching(queueSize: number, ...streams: WatchedStream[]) {
  const pool = { queueSize };
  const watch = new StalledStreams(pool, BOUNDS);
  const unwatch = streams.map((s) => watch.watch(s));
  return { pool, watch, unwatch: () => unwatch.forEach((u) => u()) };
}

describe('stalled streams: a client that takes nothing of a streamed answer does not keep its pool thread', () => {
  test('when no work waits for the pool, then a stream idle past DATAFILE_STREAM_STALL_MS keeps its thread, and one idle past DATAFILE_STREAM_MAX_STALL_MS gives it up naming the variable', () => {
    const stalled = streamIdle(2000);
    const dead = streamIdle(3000);
    const w = watching(0, stalled, dead);
    w.watch.check(NOW);
    expect(stalled.reason).toBeUndefined();
    expect(dead.reason).toBe('the client took none of the answer for 3000 ms (DATAFILE_STREAM_MAX_STALL_MS is 3000): its pool thread was freed and the transfer aborted');
    w.unwatch();
  });

  test('when two tasks wait for the pool, then the two streams idle longest past DATAFILE_STREAM_STALL_MS give their threads up, and not a third, nor one idle less, nor one keeping up', () => {
    const streams = [streamIdle(400), streamIdle(1200), streamIdle(800), streamIdle(299), streamIdle(undefined)];
    const w = watching(2, ...streams);
    w.watch.check(NOW);
    expect(streams.map((s) => s.reason !== undefined)).toEqual([false, true, true, false, false]);
    expect(streams[1]?.reason).toBe('the client took none of the answer for 1200 ms (DATAFILE_STREAM_STALL_MS is 300) while 2 other pool tasks waited for a thread: its thread went to them and the transfer was aborted');
    w.unwatch();
  });

  test('when a stream given up has not ended yet, then its thread counts for the waiting task: no other stream is given up for it', () => {
    const first = streamIdle(1000);
    const second = streamIdle(900);
    const w = watching(1, first, second);
    w.watch.check(NOW);
    expect([first.reason !== undefined, second.reason]).toEqual([true, undefined]);
    // Still one task in the queue (the freed thread has not taken it yet), the first stream not ended: nothing more.
    w.watch.check(NOW + 100);
    expect(second.reason).toBeUndefined();
    w.unwatch();
    expect(w.watch.running).toBe(0);
  });

  test('when a stream is past DATAFILE_STREAM_MAX_STALL_MS while a task waits, then its thread is the one that serves it', () => {
    const dead = streamIdle(5000);
    const stalled = streamIdle(1000);
    const w = watching(1, dead, stalled);
    w.watch.check(NOW);
    expect([dead.reason !== undefined, stalled.reason]).toEqual([true, undefined]);
    w.unwatch();
  });
});

describe('DATAFILE_STREAM_STALL_MS and DATAFILE_STREAM_MAX_STALL_MS', () => {
  test('when they are not given, then they are 10 s and 2 min', () => {
    expect(streamStallBounds(loadConfig(DatafileConfig, {}))).toEqual({ stallMs: 10_000, maxStallMs: 120_000 });
  });

  test.each([
    ['DATAFILE_STREAM_STALL_MS', '50'],
    ['DATAFILE_STREAM_STALL_MS', 'ten'],
    ['DATAFILE_STREAM_MAX_STALL_MS', '-1'],
    ['DATAFILE_STREAM_MAX_STALL_MS', '1.5'],
  ])('when %s is %s, then the configuration is refused naming it', (name, value) => {
    expect(() => loadConfig(DatafileConfig, { [name]: value })).toThrow(new RegExp(`Invalid configuration:\\n  ${name}: `));
  });

  test('when DATAFILE_STREAM_MAX_STALL_MS is shorter than DATAFILE_STREAM_STALL_MS, then the service does not start, naming both', () => {
    expect(() => streamStallBounds(loadConfig(DatafileConfig, { DATAFILE_STREAM_STALL_MS: '20000', DATAFILE_STREAM_MAX_STALL_MS: '15000' }))).toThrow('Invalid configuration:\n  DATAFILE_STREAM_MAX_STALL_MS: must be at least DATAFILE_STREAM_STALL_MS (20000 ms), got 15000');
  });
});
