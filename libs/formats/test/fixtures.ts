import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository's telemetry fixtures (read-only; SOURCES.md beside them records origin, licence and sha256). */
export const FIXTURES = path.resolve(__dirname, 'fixtures/telemetry');

export const SHA256: Record<string, string> = {
  'Sample1.ld': 'cc794689b8937d9b4eff18fa5926674b7334c9bf2fc51be06dfd1b0ce8afdeb1',
  'simple.mf4': 'edfd00447b7b4b016290110541e9abd5695f9428f04df915180b09a395c083b5',
  'asammdf_dimensional_demo.mf4': '088beb5ea3df95a68403ad6b958cf1b331aac8123838129f9ea08125700085c0',
  'csv_sample.csv': '280d46247b62c980275cc08e303794cfdfcce8110c072e473a4b6ef1deefaf57',
  'f11_v330.mdf': 'e15d6fb0495bbd95246afecb5c9bb5b5fe283ef3efa837bd75055d0b4de00244',
  'f03_conversions_410.mf4': '8788ce550134a4400027d3aa80311ad04dd2c58f8f5e7f8fe61a532cc56c2907',
  'f12_strings_arrays_structs_410.mf4': '18b1101fe0051b07f801b9d82d2d3abd84f2a4cba3dc444bcda7603b2803c251',
  'f14_430_zstd.mf4': '5887cc1e6b915ce74691ea332b2a09a47bbbed88b48e763e11729039d7cf867e',
  'f14_430_transposed_lz4.mf4': '337ded041160c402f86a66e84ee77480755cad6053f3a4d57fddef844a0f2f63',
};

export function readFixture(name: keyof typeof SHA256 | string): Uint8Array {
  const bytes = readFileSync(path.join(FIXTURES, name));
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function max(values: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i] > m) m = values[i];
  return m;
}
