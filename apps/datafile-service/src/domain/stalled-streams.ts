import type { StreamWatch, WatchedStream } from '@pitwall/bus';
import type { Logger } from '@pitwall/service-kit';

/** How long a streamed answer's client may take nothing before its pool thread is taken back (docs/operations.md). */
export interface StreamStallBounds {
  /** DATAFILE_STREAM_STALL_MS: while other work waits for a pool thread, a stream idle this long gives its own up. */
  stallMs: number;
  /** DATAFILE_STREAM_MAX_STALL_MS: a stream idle this long gives its thread up whether or not other work waits. */
  maxStallMs: number;
}

export const STREAM_STALL_DEFAULTS: StreamStallBounds = { stallMs: 10_000, maxStallMs: 120_000 };

/**
 * The bounds from the validated config: the longer one cannot be shorter than the other (each alone is checked by its
 * schema). Throws the start-up error naming the variable.
 */
export function streamStallBounds(config: { DATAFILE_STREAM_STALL_MS: number; DATAFILE_STREAM_MAX_STALL_MS: number }): StreamStallBounds {
  const { DATAFILE_STREAM_STALL_MS: stallMs, DATAFILE_STREAM_MAX_STALL_MS: maxStallMs } = config;
  if (maxStallMs < stallMs) throw new Error(`Invalid configuration:\n  DATAFILE_STREAM_MAX_STALL_MS: must be at least DATAFILE_STREAM_STALL_MS (${stallMs} ms), got ${maxStallMs}`);
  return { stallMs, maxStallMs };
}

/**
 * The streamed answers of a worker pool whose producers hold a thread each (a producer waits for its reader: the
 * backpressure of `@pitwall/bus/port-chunks`), watched for readers that take nothing. A slow or stalled client would
 * otherwise hold its thread as long as it likes, and the reads of everyone else queue behind it until they time out.
 *
 * - While work waits for a thread (`queueSize` of the pool), the streams whose reader took nothing for `stallMs` are
 *   given up, the longest idle first, one for each task waiting (less those already being freed).
 * - A stream whose reader took nothing for `maxStallMs` is given up whatever the queue: a dead client does not hold a
 *   thread, and what its producer holds, for ever.
 *
 * A stream given up has its port closed: its task ends by itself (the thread is freed, not ended) and its transfer is
 * aborted (never a shorter body that looks complete). Each is logged at warn with the reason.
 */
export class StalledStreams implements StreamWatch {
  private readonly streams = new Set<WatchedStream>();
  /** Streams given up whose tasks have not ended yet: their threads are about to take the waiting work. */
  private readonly freeing = new Set<WatchedStream>();
  private timer: NodeJS.Timeout | undefined;
  /** How often the streams are looked at: a few times within `stallMs`, at least once a second. */
  private readonly everyMs: number;

  constructor(
    private readonly pool: { readonly queueSize: number },
    private readonly bounds: StreamStallBounds = STREAM_STALL_DEFAULTS,
    private readonly logger?: Logger,
  ) {
    this.everyMs = Math.max(10, Math.min(1000, Math.floor(bounds.stallMs / 4)));
  }

  /** Streams whose producers still run (tests and the operators' questions watch it). */
  get running(): number {
    return this.streams.size;
  }

  watch(stream: WatchedStream): () => void {
    this.streams.add(stream);
    this.timer ??= setInterval(() => this.check(), this.everyMs).unref();
    return () => {
      this.streams.delete(stream);
      this.freeing.delete(stream);
      if (this.streams.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  /** Gives up the streams past their bounds (see the class). */
  check(now = Date.now()): void {
    const idle: { stream: WatchedStream; ms: number }[] = [];
    for (const stream of this.streams) {
      const since = stream.idleSince;
      if (since !== undefined && !this.freeing.has(stream)) idle.push({ stream, ms: now - since });
    }
    if (idle.length === 0) return;
    idle.sort((a, b) => b.ms - a.ms);
    const { stallMs, maxStallMs } = this.bounds;
    let waiting = this.pool.queueSize - this.freeing.size;
    for (const { stream, ms } of idle) {
      if (ms >= maxStallMs) this.giveUp(stream, ms, `the client took none of the answer for ${ms} ms (DATAFILE_STREAM_MAX_STALL_MS is ${maxStallMs}): its pool thread was freed and the transfer aborted`, waiting);
      else if (ms >= stallMs && waiting > 0) this.giveUp(stream, ms, `the client took none of the answer for ${ms} ms (DATAFILE_STREAM_STALL_MS is ${stallMs}) while ${waiting} other pool ${waiting === 1 ? 'task' : 'tasks'} waited for a thread: its thread went to them and the transfer was aborted`, waiting);
      else continue;
      // The thread freed takes a waiting task.
      waiting -= 1;
    }
  }

  private giveUp(stream: WatchedStream, idleMs: number, reason: string, waiting: number): void {
    this.freeing.add(stream);
    this.logger?.warn({ idleMs, waiting: Math.max(0, waiting), bytesTaken: stream.taken, reason }, 'a streamed answer whose client took nothing gave its pool thread up');
    stream.giveUp(new Error(reason));
  }
}
