import { move } from 'piscina';
import { shapeChannels, type ShapeTask } from './workers/shape-channels';

/**
 * The datafile-service's pool worker (its own bundle, `shape.worker.entry.js`): converts, downsamples and encodes one
 * read; the encoded body goes back as a transferable (its buffer moves to the caller, no copy).
 */
export default function shape(task: ShapeTask): Uint8Array {
  return move(shapeChannels(task).body) as unknown as Uint8Array;
}
