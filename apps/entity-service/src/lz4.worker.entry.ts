import type { MessagePort } from 'node:worker_threads';
import { takeChunks } from '@pitwall/bus/port-chunks';
import { Lz4FrameError, lz4Refusal, validateLz4Frames, type Lz4Limits, type Lz4Refusal } from '@pitwall/formats';

/** An upload's LZ4 frames checked: its bytes come over `port` (`feedChunks`). */
export interface Lz4CheckTask {
  port: MessagePort;
  limits: Lz4Limits;
}

/** Checked, or what is wrong with the stream. */
export type Lz4CheckResult = { ok: true } | { refused: Lz4Refusal };

/**
 * The entity-service's pool worker (its own bundle, `lz4.worker.entry.js`): the finalise of an LZ4 upload decompresses
 * (and counts, keeping nothing) every frame here, not on the event loop, where a file of gigabytes held every command
 * (in npm start, every HTTP request) 20 to 90 ms at a time for seconds.
 */
export default async function check(task: Lz4CheckTask): Promise<Lz4CheckResult> {
  try {
    await validateLz4Frames(takeChunks(task.port), task.limits);
    return { ok: true };
  } catch (err) {
    if (err instanceof Lz4FrameError) return { refused: lz4Refusal(err) };
    throw err;
  } finally {
    task.port.close();
  }
}
