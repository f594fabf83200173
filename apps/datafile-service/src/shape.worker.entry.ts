import { move } from 'piscina';
import { lapTraces, type LapTraceTask } from './workers/lap-traces';
import { shapeChannels, type ShapeTask } from './workers/shape-channels';

/**
 * The datafile-service's pool worker (its own bundle, `shape.worker.entry.js`): converts, downsamples and encodes one
 * read; the encoded body goes back as a transferable (its buffer moves to the caller, no copy).
 */
export default function shape(task: ShapeTask): Uint8Array {
  return move(shapeChannels(task).body) as unknown as Uint8Array;
}

/** The lap trace reads (`run(task, { name: 'laps' })`): a lap's distance, or its delta against a reference, as JSON. */
export function laps(task: LapTraceTask): Uint8Array {
  return move(lapTraces(task)) as unknown as Uint8Array;
}
