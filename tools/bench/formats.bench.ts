// Telemetry reader throughput: open (catalogue only) against full decode, on Sample1.ld and on a generated
// ~490 MB .ld file (tmp/bench-large.ld, created on first run); the MDF 4.3 codecs (zstd, transposed LZ4) in output
// bytes per second. Single thread, one core. FORMATS_BENCH_LARGE=0 skips the large .ld (and its generation).
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { openDataFile } from '@pitwall/formats';
import { generateLdFile } from '../gen-ld/gen-ld';

const root = process.cwd();
const fixtures = path.resolve(root, 'libs/formats/test/fixtures/telemetry');
const large = path.join(root, 'tmp', 'bench-large.ld');
const FLOOR_OPEN_MS = 50;
const FLOOR_MB_S = 300;
/** MDF 4.3 codecs: decompressed record bytes per second of one core (issue 39). */
const FLOOR_CODEC_MB_S = 200;
const withLarge = process.env['FORMATS_BENCH_LARGE'] !== '0';

function time<T>(fn: () => T): { ms: number; value: T } {
  const start = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Best-of-N open and full decode of every channel; samples counted, arrays dropped between channels. */
function measure(label: string, bytes: Uint8Array, repeats: number): { openMs: number; decodeMs: number; mbPerS: number } {
  const opens: number[] = [];
  for (let i = 0; i < Math.max(5, repeats * 5); i++) opens.push(time(() => openDataFile(bytes)).ms);
  const decodes: number[] = [];
  let samples = 0;
  for (let r = 0; r < repeats; r++) {
    (globalThis as { gc?: () => void }).gc?.();
    const run = time(() => {
      const file = openDataFile(bytes);
      let n = 0;
      for (const c of file.channels) if (!c.unsupported) n += file.readChannel(c.name).samples.length;
      return n;
    });
    decodes.push(run.ms);
    samples = run.value;
  }
  const openMs = median(opens);
  const decodeMs = Math.min(...decodes);
  const mbPerS = bytes.length / 1e6 / (decodeMs / 1000);
  console.log(
    `${label.padEnd(30)} ${(bytes.length / 1e6).toFixed(1).padStart(7)} MB  open ${openMs.toFixed(2).padStart(8)} ms  ` +
      `decode all ${decodeMs.toFixed(1).padStart(8)} ms  ${mbPerS.toFixed(0).padStart(5)} MB/s  ${(samples / (decodeMs / 1000) / 1e6).toFixed(0).padStart(4)} M samples/s  ` +
      `decode/open ${(decodeMs / openMs).toFixed(0)}x`,
  );
  return { openMs, decodeMs, mbPerS };
}

/**
 * Best-of-N open of an MDF file whose only group is compressed: opening unpacks its records (the master channel is
 * decoded at open), so the time is the codec's, plus the master's decode; throughput in decompressed bytes.
 */
function measureCodec(label: string, bytes: Uint8Array, recordBytes: number, repeats: number): number {
  const opens: number[] = [];
  for (let i = 0; i < repeats; i++) opens.push(time(() => openDataFile(bytes)).ms);
  const best = Math.min(...opens);
  const mbPerS = recordBytes / 1e6 / (best / 1000);
  console.log(`${label.padEnd(30)} ${(bytes.length / 1e6).toFixed(1).padStart(7)} MB → ${(recordBytes / 1e6).toFixed(1)} MB  open ${best.toFixed(2).padStart(8)} ms (median ${median(opens).toFixed(2)})  ${mbPerS.toFixed(0).padStart(5)} MB/s out`);
  return mbPerS;
}

console.log(`node ${process.version}, ${process.arch}, one thread`);
const codecs = [
  measureCodec('f14_430_zstd.mf4 (zstd)', new Uint8Array(readFileSync(path.join(fixtures, 'f14_430_zstd.mf4'))), 3_600_000, 40),
  measureCodec('f14_430_transposed_lz4.mf4', new Uint8Array(readFileSync(path.join(fixtures, 'f14_430_transposed_lz4.mf4'))), 3_600_000, 40),
];
console.log(`floor: MDF 4.3 zstd and LZ4 >= ${FLOOR_CODEC_MB_S} MB/s out: ${codecs.every((c) => c >= FLOOR_CODEC_MB_S) ? 'PASS' : 'FAIL'} (${codecs.map((c) => c.toFixed(0)).join(', ')} MB/s)`);
if (codecs.some((c) => c < FLOOR_CODEC_MB_S)) process.exitCode = 1;

if (withLarge && !existsSync(large)) {
  mkdirSync(path.dirname(large), { recursive: true });
  const gen = time(() => generateLdFile(large));
  console.log(`generated ${large}: ${(gen.value.bytes / 1e6).toFixed(1)} MB, ${gen.value.channels} channels in ${(gen.ms / 1000).toFixed(1)} s`);
}

measure('Sample1.ld', new Uint8Array(readFileSync(path.join(fixtures, 'Sample1.ld'))), 20);
measure('simple.mf4 (DZ)', new Uint8Array(readFileSync(path.join(fixtures, 'simple.mf4'))), 20);
measure('asammdf_dimensional_demo.mf4', new Uint8Array(readFileSync(path.join(fixtures, 'asammdf_dimensional_demo.mf4'))), 20);
measure('csv_sample.csv', new Uint8Array(readFileSync(path.join(fixtures, 'csv_sample.csv'))), 5);
if (withLarge) {
  const big = measure(`bench-large.ld (${statSync(large).size > 4e8 ? '200 ch, 1 h' : 'custom'})`, new Uint8Array(readFileSync(large)), 3);
  console.log(`floor: catalogue of the large file < ${FLOOR_OPEN_MS} ms: ${big.openMs < FLOOR_OPEN_MS ? 'PASS' : 'FAIL'} (${big.openMs.toFixed(2)} ms)`);
  console.log(`floor: full decode >= ${FLOOR_MB_S} MB/s: ${big.mbPerS >= FLOOR_MB_S ? 'PASS' : 'FAIL'} (${big.mbPerS.toFixed(0)} MB/s)`);
  if (big.openMs >= FLOOR_OPEN_MS || big.mbPerS < FLOOR_MB_S) process.exitCode = 1;
}
