// Issue 14: the time-delta trace of two laps through the gateway (five apps as separate processes on the real
// PostgreSQL, RabbitMQ and Redis) on the ~490 MB synthetic .ld of tools/gen-ld (200 channels, 1 h, 90 s laps, a
// 100 Hz Ground Speed integrated into distance). Issue 40: the track map of a lap (POST .../trackmap, dead reckoning
// from that Ground Speed and the file's 100 Hz Gyro Yaw Velocity; floor: under 100 ms warm). The file is generated into tmp/, attached to a RunSheet as the upload
// flow leaves it (blob + state-2 record), and deleted at the end. One request at a time, after a warm-up: p50 of
// GET .../delta (floor: under 50 ms warm), beside GET .../metadata of the same dataset (the cheapest read of the
// same path: gateway, read limit, bus, dataset resolution) as the ratio. BENCH_REQUESTS (default 200) per case.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileHandleSource, openDataFileFromSource, resolveScope, scopeSampleRange } from '@pitwall/formats';
import { lapTraces, type LapSlice } from '../../apps/datafile-service/src/workers/lap-traces';
import { trackMapOf, type TrackMapTask } from '../../apps/datafile-service/src/workers/track-map';
import { generateLdFile } from '../gen-ld/gen-ld';
import { attachStoredDataFile, runBench, startBenchStack, type BenchStack } from './stack-fixture';

const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 200);
const WARMUP = 20;
const FLOOR_P50_MS = 50;
const TRACK_MAP_FLOOR_P50_MS = 100;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

/** A GET, or a POST of `body` as JSON. */
async function timed(stack: BenchStack, url: string, json?: unknown): Promise<{ ms: number; status: number; bytes: number }> {
  const start = performance.now();
  const r = await fetch(`${stack.baseUrl}${url}`, json === undefined ? { headers: stack.headers } : { method: 'POST', headers: { ...stack.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(json) });
  const body = await r.arrayBuffer();
  return { ms: performance.now() - start, status: r.status, bytes: body.byteLength };
}

/** p50 and p90 of `REQUESTS` sequential requests (GETs, or POSTs of `body`) after `WARMUP`; throws on anything but 200. */
async function measure(stack: BenchStack, label: string, url: string, body?: unknown): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await timed(stack, url, body);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const r = await timed(stack, url, body);
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
    times.push(r.ms);
    bytes = r.bytes;
  }
  const p50 = percentile(times, 0.5);
  console.log(`  ${label.padEnd(58)} p50 ${p50.toFixed(1).padStart(6)} ms  p90 ${percentile(times, 0.9).toFixed(1).padStart(6)} ms  ${(bytes / 1024).toFixed(1).padStart(7)} kB`);
  return p50;
}

/**
 * The pool's share of a delta, alone: the worker's function on laps 2 and 3 of the file's Ground Speed (read from the
 * file as the service reads them), in this process, no I/O. What the rest of a request's time is not.
 */
async function computeOnly(ld: string): Promise<void> {
  const handle = await open(ld, 'r');
  try {
    const file = await openDataFileFromSource(await fileHandleSource(handle));
    const info = file.channels.find((c) => c.name === 'Ground Speed');
    if (!info) throw new Error('the synthetic file has no Ground Speed');
    const slice = async (lapIndex: number): Promise<LapSlice> => {
      const window = resolveScope({ mode: 'lap', lapIndex }, file);
      const { from, to } = scopeSampleRange(window, { kind: 'implicit', start: 0, frequency: info.frequency }, info.sampleCount);
      const stored = await file.readStored(info.name, { from, to });
      const lap = file.laps[lapIndex];
      const startTime = stored.time.kind === 'implicit' ? stored.time.start : 0;
      return {
        ref: { entityId: randomUUID(), entityType: 'RunSheets', attachedFileGroupName: 'DataFile', lapIndex, lapTime: lap.endTime - lap.startTime },
        lapStart: lap.startTime,
        source: { kind: 'integrated', channel: info.name },
        slice: { name: info.name, unit: info.unit, frequency: info.frequency, dimension: 1, startTime, samples: stored.samples, conversion: stored.conversion },
      };
    };
    const [lap, reference] = [await slice(2), await slice(3)];
    for (const maxPoints of [2000, undefined]) {
      for (let i = 0; i < 50; i++) lapTraces({ op: 'delta', lap, reference, ...(maxPoints ? { maxPoints } : {}) });
      const times: number[] = [];
      for (let i = 0; i < 500; i++) {
        const start = performance.now();
        lapTraces({ op: 'delta', lap, reference, ...(maxPoints ? { maxPoints } : {}) });
        times.push(performance.now() - start);
      }
      console.log(`  ${`compute only: the worker's delta, ${lap.slice.samples.length} + ${reference.slice.samples.length} samples${maxPoints ? `, maxPoints=${maxPoints}` : ', full grid'}`.padEnd(58)} p50 ${percentile(times, 0.5).toFixed(2).padStart(6)} ms`);
    }
    // The track map of lap 2: dead reckoning from Ground Speed and Gyro Yaw Velocity, coloured by Ground Speed.
    const yaw = file.channels.find((c) => c.name === 'Gyro Yaw Velocity');
    if (!yaw) throw new Error('the synthetic file has no Gyro Yaw Velocity');
    const lapSlice = async (name: string, frequency: number, sampleCount: number) => {
      const { from, to } = scopeSampleRange(resolveScope({ mode: 'lap', lapIndex: 2 }, file), { kind: 'implicit', start: 0, frequency }, sampleCount);
      const stored = await file.readStored(name, { from, to });
      return { name, unit: file.channels.find((c) => c.name === name)?.unit ?? '', frequency, dimension: 1, startTime: stored.time.kind === 'implicit' ? stored.time.start : 0, samples: stored.samples, conversion: stored.conversion };
    };
    const speed = await lapSlice(info.name, info.frequency, info.sampleCount);
    const turn = await lapSlice(yaw.name, yaw.frequency, yaw.sampleCount);
    const map = file.laps[2] as (typeof file.laps)[number];
    const task: TrackMapTask = {
      lap: { entityId: randomUUID(), entityType: 'RunSheets', attachedFileGroupName: 'DataFile', lapIndex: 2, lapTime: map.endTime - map.startTime },
      startTime: map.startTime,
      closed: true,
      source: 'yaw-rate',
      channels: [
        { role: 'speed', slice: speed, factor: 1 / 3.6 },
        { role: 'yawRate', slice: turn, factor: Math.PI / 180 },
      ],
      colour: { slice: speed, discrete: false },
      maxPoints: 2000,
    };
    for (let i = 0; i < 50; i++) trackMapOf(task);
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const start = performance.now();
      trackMapOf(task);
      times.push(performance.now() - start);
    }
    console.log(`  ${`compute only: the worker's track map, ${speed.samples.length} + ${turn.samples.length} samples, maxPoints=2000`.padEnd(58)} p50 ${percentile(times, 0.5).toFixed(2).padStart(6)} ms`);
  } finally {
    await handle.close();
  }
}

async function main(): Promise<void> {
  const root = process.cwd();
  mkdirSync(path.join(root, 'tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(root, 'tmp', 'bench-lap-delta-'));
  let stack: BenchStack | undefined;
  try {
    const ld = path.join(dir, 'bench-large.ld');
    const genStart = performance.now();
    const gen = generateLdFile(ld);
    console.log(`node ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} (2 cores); generated ${(gen.bytes / 1e6).toFixed(1)} MB, ${gen.channels} channels in ${((performance.now() - genStart) / 1000).toFixed(1)} s`);

    const blobDir = path.join(dir, 'blobs');
    stack = await startBenchStack({ env: { BLOB_DIR: blobDir, DATAFILE_CACHE_DIR: path.join(dir, 'decompressed') } });
    const runSheet = randomUUID();
    await stack.pool.query(`INSERT INTO entity.entities (id, account_id, type, parameters, created_at, modified_at) VALUES ($1, $2, 'RunSheets', $3, now(), now())`, [runSheet, stack.accountId, JSON.stringify({ Name: 'bench lap delta' })]);
    await attachStoredDataFile(stack, blobDir, runSheet, ld);
    console.log('\nin this process (the pool\'s work without the request around it), 50 warm-up then 500 each:');
    await computeOnly(ld);
    rmSync(ld);
    const base = `/RunSheets/${runSheet}/DataFileAccess/DataFile`;

    const meta = await timed(stack, `${base}/metadata`);
    if (meta.status !== 200) throw new Error(`metadata answered ${meta.status}`);
    const cold = await timed(stack, `${base}/delta?lapIndex=2&referenceLapIndex=3&maxPoints=2000`);
    const first = (await stack.send('GET', `${base}/delta?lapIndex=2&referenceLapIndex=3&maxPoints=2000`)).body;
    console.log(`cold (first) delta of laps 2 and 3: ${cold.ms.toFixed(1)} ms (status ${cold.status}); source ${JSON.stringify(first.source)}, ` +
      `lap times ${first.lap.lapTime} s / ${first.reference.lapTime} s, ${first.distance.length} points to ${first.distance.at(-1).toFixed(0)} m, final delta ${first.delta.at(-1).toFixed(3)} s`);

    console.log(`\none request at a time, ${WARMUP} warm-up then ${REQUESTS} each:`);
    const metadataP50 = await measure(stack, 'GET .../metadata (the same path\'s cheapest read)', `${base}/metadata`);
    const deltaP50 = await measure(stack, 'GET .../delta laps 2 vs 3, maxPoints=2000', `${base}/delta?lapIndex=2&referenceLapIndex=3&maxPoints=2000`);
    await measure(stack, 'GET .../delta laps 2 vs 3, full grid (one point per sample)', `${base}/delta?lapIndex=2&referenceLapIndex=3`);
    await measure(stack, 'GET .../distance lap 2, maxPoints=2000', `${base}/distance?lapIndex=2&maxPoints=2000`);

    const trackMap = { lapIndex: 2, colour: 'Ground Speed', maxPoints: 2000 };
    const coldMap = await timed(stack, `${base}/trackmap`, trackMap);
    const map = (await stack.send('POST', `${base}/trackmap`, trackMap)).body;
    console.log(`\ncold (first) track map of lap 2: ${coldMap.ms.toFixed(1)} ms (status ${coldMap.status}); source ${map.source} (${map.channels.map((c: { name: string }) => c.name).join(', ')}), ` +
      `${map.count} samples to ${map.points.x.length} points, ${map.points.distance.at(-1).toFixed(0)} m, closure error ${map.closureErrorMetres} m`);
    await measure(stack, 'POST .../trackmap lap 2, maxPoints=2000, no colour', `${base}/trackmap`, { lapIndex: 2, maxPoints: 2000 });
    const trackMapP50 = await measure(stack, 'POST .../trackmap lap 2, colour Ground Speed, maxPoints=2000', `${base}/trackmap`, trackMap);
    await measure(stack, 'POST .../trackmap lap 2, maxPoints=20000 (every sample)', `${base}/trackmap`, { lapIndex: 2, maxPoints: 20000 });
    const pass = deltaP50 < FLOOR_P50_MS;
    const mapPass = trackMapP50 < TRACK_MAP_FLOOR_P50_MS;
    console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(1)).join(', ')} (2 cores)`);
    console.log(`delta p50 ${deltaP50.toFixed(1)} ms (floor < ${FLOOR_P50_MS} ms), ${(deltaP50 / metadataP50).toFixed(2)}× the metadata read: ${pass ? 'PASS' : 'FAIL'}`);
    console.log(`track map p50 ${trackMapP50.toFixed(1)} ms (floor < ${TRACK_MAP_FLOOR_P50_MS} ms), ${(trackMapP50 / metadataP50).toFixed(2)}× the metadata read: ${mapPass ? 'PASS' : 'FAIL'}`);
    if (!pass || !mapPass) process.exitCode = 1;
  } finally {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
