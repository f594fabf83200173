import { workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { sendChunks } from '@pitwall/bus/port-chunks';
import { analyse, type AnalysisTask } from './workers/analysis';
import { lapTraces, type LapTraceTask, type Stationary } from './workers/lap-traces';
import { evaluateMathChannels, withMathChannels, type MathTask, type ShapeWithMathTask } from './workers/math-channels';
import { DEFAULT_SCRATCH_BYTES, ScratchArrays, type ShapeWorkerData } from './workers/scratch-arrays';
import { shapeChannels, shapedChunks, type ShapeTask } from './workers/shape-channels';
import { trackMapOf, type TrackMapTask } from './workers/track-map';
import type { catalogueOf, eventsOf, ldxBeaconsOf, storedOf, WholeFiles } from './workers/whole-files';
import type { Lz4DecompressResult, Lz4DecompressTask } from './workers/lz4-decompress';

/** The readers of whole files, loaded by the first task that needs them: a thread (re)started for reads of `.ld` ranges stays as light to start as before. */
const wholeFiles = () => import('./workers/whole-files');
/** The Arrow encoder (and apache-arrow), loaded by the first Arrow read. */
const arrowStreams = () => import('./workers/arrow-channels');

/**
 * The arrays the math channels of a read are evaluated into, lent to each read's task and kept for the next one up to
 * `DATAFILE_SCRATCH_BYTES` per worker (the service's validated setting, given as the pool's workerData; a pool made
 * without it, as in some tests, keeps the default).
 */
const scratch = new ScratchArrays((workerData as Partial<ShapeWorkerData> | undefined)?.scratchBytes ?? DEFAULT_SCRATCH_BYTES);

/**
 * The datafile-service's pool worker (its own bundle, `shape.worker.entry.js`): converts, downsamples and encodes one
 * read, after evaluating its math channels when it has some (`ShapeWithMathTask`). With a port, the body is streamed
 * over it chunk by chunk as the reader takes them (resolving to its bytes), the Arrow stream's too; without, it goes
 * back whole as a transferable (its buffer moves to the caller, no copy).
 */
export default function shape(task: ShapeTask | ShapeWithMathTask): Uint8Array | Promise<number> {
  if (!('math' in task && task.math)) return shapeEvaluated(task as ShapeTask);
  const lease = scratch.lend();
  try {
    const done = shapeEvaluated(withMathChannels(task, lease));
    // The arrays are read until the last chunk is made: given back once the body is sent (or has failed).
    if (done instanceof Promise) return done.finally(lease.giveBack);
    lease.giveBack();
    return done;
  } catch (error) {
    lease.giveBack();
    throw error;
  }
}

function shapeEvaluated(task: ShapeTask): Uint8Array | Promise<number> {
  const { arrow, port } = task;
  if (arrow) {
    if (!port) throw new Error('an Arrow read is streamed over its port');
    return arrowStreams().then(({ arrowChunks }) => {
      const { head, chunks } = arrowChunks({ ...task, arrow });
      return sendChunks(port, head, chunks);
    });
  }
  if (task.port) {
    const { head, chunks } = shapedChunks(task);
    return sendChunks(task.port, head, chunks);
  }
  return move(shapeChannels(task).body) as unknown as Uint8Array;
}

/** An LZ4 blob decompressed into a file (`run(task, { name: 'decompressLz4', transferList: [task.port] })`), its bytes fed over the port. */
export async function decompressLz4(task: Lz4DecompressTask): Promise<Lz4DecompressResult> {
  const { decompressLz4: decompress } = await import('./workers/lz4-decompress');
  return decompress(task);
}

/** The lap trace reads (`run(task, { name: 'laps' })`): a lap's distance, or its delta against a reference, as JSON (or which lap of a delta never moves). */
export function laps(task: LapTraceTask): Uint8Array | Stationary {
  const answer = lapTraces(task);
  return answer instanceof Uint8Array ? (move(answer) as unknown as Uint8Array) : answer;
}

/** The analysis reads (`run(task, { name: 'analysis' })`): lap statistics, a scatter or a histogram, as JSON. */
export function analysis(task: AnalysisTask): Uint8Array {
  return move(analyse(task)) as unknown as Uint8Array;
}

/** The track map read (`run(task, { name: 'trackMap' })`): a lap's path from GPS or dead reckoning, as JSON. */
export function trackMap(task: TrackMapTask): Uint8Array {
  return move(trackMapOf(task)) as unknown as Uint8Array;
}

/** The math channels of one time base over the read's window (`run(task, { name: 'math' })`): a slice of physical values each; their buffers move to the caller. */
export function math(task: MathTask): ReturnType<typeof evaluateMathChannels> {
  const results = evaluateMathChannels(task);
  const buffers = results.flatMap((result) => [result.samples.buffer, ...(result.times ? [result.times.buffer] : []), ...(result.gaps ? [result.gaps.buffer] : [])]);
  return move({ [transferableSymbol]: buffers, [valueSymbol]: results } as never) as unknown as ReturnType<typeof evaluateMathChannels>;
}

/** The catalogue of files read whole (`run(task, { name: 'catalogue' })`), parsed here, off the event loop. */
export async function catalogue(task: WholeFiles): Promise<ReturnType<typeof catalogueOf>> {
  const result = (await wholeFiles()).catalogueOf(task);
  if ('refused' in result) return result;
  return move({ [transferableSymbol]: [result.channelsJson.buffer], [valueSymbol]: result } as never) as unknown as ReturnType<typeof catalogueOf>;
}

/** The beacon times of a `.ldx` beside a single `.ld` (`run(task, { name: 'ldxBeacons' })`), parsed here, off the event loop. */
export async function ldxBeacons(task: { ldx: Uint8Array }): Promise<ReturnType<typeof ldxBeaconsOf>> {
  return (await wholeFiles()).ldxBeaconsOf(task);
}

/** One channel of files read whole (`run(task, { name: 'stored' })`), decoded here; its buffers move to the caller. */
export async function stored(task: WholeFiles & { channel: string }): Promise<ReturnType<typeof storedOf>> {
  const result = (await wholeFiles()).storedOf(task);
  if ('refused' in result) return result;
  const buffers = [result.samples.buffer, ...(result.time.kind === 'explicit' ? [result.time.timestamps.buffer] : []), ...(result.gaps ? [result.gaps.buffer] : [])];
  return move({ [transferableSymbol]: buffers, [valueSymbol]: result } as never) as unknown as ReturnType<typeof storedOf>;
}

/** The events of a text or byte channel of files read whole (`run(task, { name: 'events' })`); its buffers move to the caller. */
export async function events(task: Parameters<typeof eventsOf>[0]): Promise<ReturnType<typeof eventsOf>> {
  const result = (await wholeFiles()).eventsOf(task);
  if ('refused' in result) return result;
  const { events: scoped } = result;
  const buffers = [scoped.offsets.buffer, scoped.bytes.buffer, scoped.time.timestamps.buffer, ...(scoped.gaps ? [scoped.gaps.buffer] : [])];
  return move({ [transferableSymbol]: buffers, [valueSymbol]: result } as never) as unknown as ReturnType<typeof eventsOf>;
}
