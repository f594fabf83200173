import { type DataFile, openDataFile } from '../src';
import { buildMdf3File, buildMdf4File, type Mdf3FileSpec, type Mdf4FileSpec } from '../src/testing';

/** `count` records of `size` bytes, record i written by `write` (a view of all the records, where record i starts, i). */
export function writeRecords(count: number, size: number, write: (view: DataView, at: number, i: number) => void): Uint8Array {
  const bytes = new Uint8Array(count * size);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < count; i++) write(view, i * size, i);
  return bytes;
}

/** A built MDF 3 file, opened as a user's bytes are. */
export const openMdf3 = (spec: Mdf3FileSpec): DataFile => openDataFile(buildMdf3File(spec));

/** A built MDF 4 file, opened as a user's bytes are. */
export const openMdf4 = (spec: Mdf4FileSpec): DataFile => openDataFile(buildMdf4File(spec));
