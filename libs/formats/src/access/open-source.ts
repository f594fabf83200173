import { isLdFile } from '../ld/ld-reader';
import { openDataFile, type OpenOptions } from '../open';
import type { ByteSource } from '../source/byte-source';
import { openLdSource } from './ld-source-reader';
import { fromDataFile, type RandomAccessDataFile } from './random-access';

/**
 * Opens a data file over a source: `.ld` lazily (a few small reads for the catalogue), other formats whole. Several
 * sources are a per-lap dataset (one lap each, in order), read whole and joined as `openDataFile` does.
 */
export async function openDataFileFromSource(input: ByteSource | readonly ByteSource[], options: OpenOptions = {}): Promise<RandomAccessDataFile> {
  if (Array.isArray(input)) {
    const sources = input as readonly ByteSource[];
    if (sources.length === 1) return openDataFileFromSource(sources[0], options);
    const parts = await Promise.all(sources.map((s) => s.read(0, s.size)));
    return fromDataFile(openDataFile(parts, options));
  }
  const source = input as ByteSource;
  const head = await source.read(0, Math.min(8, source.size));
  if (isLdFile(head)) return openLdSource(source, options);
  return fromDataFile(openDataFile(await source.read(0, source.size), options));
}
