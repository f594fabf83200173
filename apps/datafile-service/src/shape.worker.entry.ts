import { move, transferableSymbol, valueSymbol } from 'piscina';
import { lapTraces, type LapTraceTask } from './workers/lap-traces';
import { evaluateMathChannel, type MathTask } from './workers/math-channels';
import { shapeChannels, type ShapeTask } from './workers/shape-channels';
import type { catalogueOf, eventsOf, storedOf, WholeFiles } from './workers/whole-files';

/** The readers of whole files, loaded by the first task that needs them: a thread (re)started for reads of `.ld` ranges stays as light to start as before. */
const wholeFiles = () => import('./workers/whole-files');

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

/** A math channel over the read's window (`run(task, { name: 'math' })`): its slice of physical values; its buffers move to the caller. */
export function math(task: MathTask): ReturnType<typeof evaluateMathChannel> {
  const result = evaluateMathChannel(task);
  const buffers = [result.samples.buffer, ...(result.times ? [result.times.buffer] : []), ...(result.gaps ? [result.gaps.buffer] : [])];
  return move({ [transferableSymbol]: buffers, [valueSymbol]: result } as never) as unknown as ReturnType<typeof evaluateMathChannel>;
}

/** The catalogue of files read whole (`run(task, { name: 'catalogue' })`), parsed here, off the event loop. */
export async function catalogue(task: WholeFiles): Promise<ReturnType<typeof catalogueOf>> {
  const result = (await wholeFiles()).catalogueOf(task);
  if ('refused' in result) return result;
  return move({ [transferableSymbol]: [result.channelsJson.buffer], [valueSymbol]: result } as never) as unknown as ReturnType<typeof catalogueOf>;
}

/** One channel of files read whole (`run(task, { name: 'stored' })`), decoded here; its buffers move to the caller. */
export async function stored(task: WholeFiles & { channel: string }): Promise<ReturnType<typeof storedOf>> {
  const result = (await wholeFiles()).storedOf(task);
  if ('refused' in result) return result;
  const buffers = [result.samples.buffer, ...(result.time.kind === 'explicit' ? [result.time.timestamps.buffer] : []), ...(result.gaps ? [result.gaps.buffer] : [])];
  return move({ [transferableSymbol]: buffers, [valueSymbol]: result } as never) as unknown as ReturnType<typeof storedOf>;
}

/** The events of a text or byte channel of files read whole (`run(task, { name: 'events' })`); its buffers move to the caller. */
export async function events(task: WholeFiles & { channel: string }): Promise<ReturnType<typeof eventsOf>> {
  const result = (await wholeFiles()).eventsOf(task);
  if ('refused' in result) return result;
  const buffers = [result.offsets.buffer, result.bytes.buffer, ...(result.time.kind === 'explicit' ? [result.time.timestamps.buffer] : []), ...(result.gaps ? [result.gaps.buffer] : [])];
  return move({ [transferableSymbol]: buffers, [valueSymbol]: result } as never) as unknown as ReturnType<typeof eventsOf>;
}
