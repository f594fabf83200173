// Telemetry reader throughput: open (catalogue only) against full decode, on Sample1.ld and on a generated
// ~490 MB .ld file (tmp/bench-large.ld, created on first run); the MDF 4.3 codecs (zstd, transposed LZ4) in output
// bytes per second; an unsorted MDF4 file of 1,000,000 samples against the same data sorted. Single thread, one core.
// FORMATS_BENCH_LARGE=0 skips the large .ld (and its generation).
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { openDataFile } from '@pitwall/formats';
import { buildMdf4File, type Mdf4GroupSpec } from '@pitwall/formats/testing';
import { generateLdFile } from '../gen-ld/gen-ld';

const root = process.cwd();
const fixtures = path.resolve(root, 'libs/formats/test/fixtures/telemetry');
const large = path.join(root, 'tmp', 'bench-large.ld');
const FLOOR_OPEN_MS = 50;
const FLOOR_MB_S = 300;
/** MDF 4.3 codecs: decompressed record bytes per second of one core (issue 39). */
const FLOOR_CODEC_MB_S = 200;
const withLarge = process.env['FORMATS_BENCH_LARGE'] !== '0';
/** Unsorted MDF4: open + read every channel within this factor of the same data sorted (issue 39). */
const CEILING_UNSORTED = 1.5;

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
      // Text and byte channels are read as their events (readChannel refuses them), counted as one sample each.
      for (const c of file.channels) if (!c.unsupported) n += c.kind ? file.readEvents(c.name).offsets.length - 1 : file.readChannel(c.name).samples.length;
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

/**
 * 1,000,000 records at 1 kHz (time, two floats, an int16, a byte) and 100,000 at 100 Hz (time, a float), with a VLSD
 * record after every 50: one unsorted data group with 1-byte record ids, against the same groups sorted.
 */
function unsortedPair(): { sorted: Uint8Array; unsorted: Uint8Array } {
  const group = (n: number, rate: number, size: number, fill: (v: DataView, at: number, i: number) => void, channels: Mdf4GroupSpec['channels']): Mdf4GroupSpec => {
    const records = new Uint8Array(n * size);
    const v = new DataView(records.buffer);
    for (let i = 0; i < n; i++) {
      v.setFloat64(i * size, i / rate, true);
      fill(v, i * size, i);
    }
    return { dataBytes: size, cycleCount: n, records, channels: [{ name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 }, ...channels] };
  };
  const groups = [
    group(1_000_000, 1000, 23, (v, at, i) => {
      v.setFloat64(at + 8, Math.sin(i / 1000), true);
      v.setFloat32(at + 16, i % 977, true);
      v.setInt16(at + 20, i % 30_000, true);
      v.setUint8(at + 22, i & 0xff);
    }, [
      { name: 'Damper FL', dataType: 4, bitCount: 64, byteOffset: 8 },
      { name: 'Speed', dataType: 4, bitCount: 32, byteOffset: 16 },
      { name: 'RPM', dataType: 2, bitCount: 16, byteOffset: 20 },
      { name: 'Gear', dataType: 0, bitCount: 8, byteOffset: 22 },
    ]),
    group(100_000, 100, 12, (v, at, i) => v.setFloat32(at + 8, 90 + (i % 100) / 10, true), [{ name: 'Oil Temp', dataType: 4, bitCount: 32, byteOffset: 8 }]),
  ];
  const payloads = ['pit lane', 'green flag', 'lap 12'].map((t) => new TextEncoder().encode(t));
  return { sorted: buildMdf4File({ groups }), unsorted: buildMdf4File({ groups, unsorted: { recordIdSize: 1, vlsd: { every: 50, payloads } } }) };
}

/** Open plus read of every channel; the two files in turn, best of N each (a busy machine slows both alike). */
function openAndReadAll(files: Uint8Array[], repeats: number): number[] {
  const best = files.map(() => Infinity);
  for (let r = 0; r < repeats; r++) {
    files.forEach((bytes, f) => {
      (globalThis as { gc?: () => void }).gc?.();
      const run = time(() => {
        const file = openDataFile(bytes);
        for (const c of file.channels) file.readChannel(c.name);
      });
      best[f] = Math.min(best[f], run.ms);
    });
  }
  return best;
}

{
  const { sorted, unsorted } = unsortedPair();
  const [sortedMs, unsortedMs] = openAndReadAll([sorted, unsorted], 15);
  const ratio = unsortedMs / sortedMs;
  console.log(`MDF4 1 M samples, sorted        ${(sorted.length / 1e6).toFixed(1).padStart(7)} MB  open + read all ${sortedMs.toFixed(1).padStart(8)} ms`);
  console.log(`MDF4 1 M samples, unsorted      ${(unsorted.length / 1e6).toFixed(1).padStart(7)} MB  open + read all ${unsortedMs.toFixed(1).padStart(8)} ms  (${ratio.toFixed(2)}x sorted)`);
  console.log(`ceiling: unsorted within ${CEILING_UNSORTED}x of sorted: ${ratio <= CEILING_UNSORTED ? 'PASS' : 'FAIL'} (${ratio.toFixed(2)}x)`);
  if (ratio > CEILING_UNSORTED) process.exitCode = 1;
}

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
