import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { takeChunks } from '@pitwall/bus/port-chunks';
import { decodeLz4Frames, Lz4FrameError, lz4Refusal, type Lz4Limits, type Lz4Refusal } from '@pitwall/formats';

/** One LZ4 blob decompressed into a new file: its compressed bytes come over `port` (`feedChunks`). */
export interface Lz4DecompressTask {
  port: MessagePort;
  /** The file written (created: it must not exist), fsynced before the task resolves. */
  path: string;
  limits: Lz4Limits;
}

/** The bytes written, or what is wrong with the stream. */
export type Lz4DecompressResult = { bytes: number } | { refused: Lz4Refusal };

/**
 * Decompresses on the pool's thread, not the service's event loop: a 4 GiB file takes seconds of CPU, which there
 * held every request and the claim port's answers for tens of milliseconds at a time.
 */
export async function decompressLz4(task: Lz4DecompressTask): Promise<Lz4DecompressResult> {
  let fd: number | undefined;
  let bytes = 0;
  try {
    fd = openSync(task.path, 'wx');
    for await (const block of decodeLz4Frames(takeChunks(task.port), undefined, task.limits)) {
      for (let at = 0; at < block.byteLength; ) at += writeSync(fd, block, at, block.byteLength - at);
      bytes += block.byteLength;
    }
    fsyncSync(fd);
    return { bytes };
  } catch (err) {
    if (err instanceof Lz4FrameError) return { refused: lz4Refusal(err) };
    throw err;
  } finally {
    if (fd !== undefined) closeSync(fd);
    task.port.close();
  }
}
