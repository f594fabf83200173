// Issue 10: upload and finalise of a 200 MB telemetry file through a gateway signed URL (filesystem blob store,
// five processes), against a bare node:http handler in this process that streams the same body to a file with
// SHA-256 and fsync, in the same run. Prints MB/s of both and their ratio, the finalise time (the LZ4 frame is read
// through and checked), and the gateway's peak RSS above idle during the upload (sampled from /proc).
// BENCH_UPLOAD_MB (default 200).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBenchStack } from './stack-fixture';

const SIZE_MB = Number(process.env['BENCH_UPLOAD_MB'] ?? 200);

/** Telemetry-like float32 channels with noise: compresses a little, as logged data does. */
function writeTelemetry(file: string, bytes: number, seed0: number): void {
  const out = Buffer.alloc(bytes);
  const view = new Float32Array(out.buffer, out.byteOffset, bytes / 4);
  let seed = seed0;
  for (let i = 0; i < view.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    view[i] = Math.sin(i / 200) * 100 + (seed % 1000) / 100;
  }
  writeFileSync(file, out);
}

function put(url: string, file: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(new URL(url), { method: 'PUT', agent: false, headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(statSync(file).size) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(req);
  });
}

/** The bare handler: the body to a file with SHA-256 on the way, then fsync, then 200. */
async function bareServer(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  const server = createServer((req: IncomingMessage, res) => {
    const target = path.join(dir, `bare-${n++}`);
    const hash = createHash('sha256');
    const out = createWriteStream(target);
    req.on('data', (chunk: Buffer) => hash.update(chunk));
    req.pipe(out);
    out.on('finish', async () => {
      hash.digest('hex');
      const fh = await open(target, 'r+');
      await fh.sync();
      await fh.close();
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`, close: () => new Promise((r) => server.close(() => r())) };
}

const rssKb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pitwall-bench-attach-'));
  const raw = path.join(dir, 'telemetry.bin');
  const frame = path.join(dir, 'telemetry.lz4');
  writeTelemetry(raw, SIZE_MB * 1024 * 1024, 12345);
  execFileSync('lz4', ['-1', '-f', raw, frame], { stdio: 'ignore' });
  const frameBytes = statSync(frame).size;
  const stack = await startBenchStack({ env: { DATA_DIR: path.join(dir, 'data'), MAX_UPLOAD_BYTES: String(2 * frameBytes) } });
  const bare = await bareServer(dir);
  try {
    const gateway = stack.procs.find((p) => p.name === 'gateway')?.child.pid as number;
    const carId = await stack.create('Cars', {}, { Name: 'Bench car' });
    const mbps = (ms: number) => frameBytes / 1024 / 1024 / (ms / 1000);

    const results: { gateway: number[]; bare: number[]; finalise: number[]; peak: number[] } = { gateway: [], bare: [], finalise: [], peak: [] };
    for (let round = 0; round < 2; round++) {
      const bareRun = await put(bare.url, frame);
      results.bare.push(mbps(bareRun.ms));

      const prepared = await stack.send('POST', `/Cars/${carId}/Attachments`, { FileName: `telemetry-${round}.ld`, UseCompression: true, AttachedFileGroupName: 'DataFile' });
      const { AttachedFileId, Url } = prepared.body as { AttachedFileId: string; Url: string };
      const idle = rssKb(gateway);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssKb(gateway))), 25);
      const up = await put(Url, frame);
      clearInterval(sampler);
      if (up.status !== 200) throw new Error(`upload answered ${up.status}`);
      results.gateway.push(mbps(up.ms));
      results.peak.push((peak - idle) / 1024);

      const started = performance.now();
      const done = await stack.send('PUT', `/Cars/${carId}/Attachments/${AttachedFileId}`, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] });
      if (done.status !== 200) throw new Error(`finalise answered ${done.status}: ${JSON.stringify(done.body)}`);
      results.finalise.push(performance.now() - started);
      // The next round uploads other bytes (a blob already stored would be the same content).
      if (round === 0) {
        writeTelemetry(raw, SIZE_MB * 1024 * 1024, 67890);
        execFileSync('lz4', ['-1', '-f', raw, frame], { stdio: 'ignore' });
      }
    }
    const best = (xs: number[]) => Math.max(...xs);
    console.log(`body: ${(frameBytes / 1024 / 1024).toFixed(1)} MB LZ4 frame of ${SIZE_MB} MB telemetry; 2 rounds, best of each`);
    console.log(`bare node:http handler (stream, SHA-256, fsync): ${best(results.bare).toFixed(0)} MB/s  (rounds: ${results.bare.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`gateway signed URL (five processes, fs blob store): ${best(results.gateway).toFixed(0)} MB/s  (rounds: ${results.gateway.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`ratio gateway / bare: ${(best(results.gateway) / best(results.bare)).toFixed(2)}x  (floor 0.6x)`);
    console.log(`finalise (LZ4 frame read through and checked): ${Math.min(...results.finalise).toFixed(0)} ms  (rounds: ${results.finalise.map((x) => x.toFixed(0)).join(', ')}; floor < 1500 ms)`);
    console.log(`gateway peak RSS above idle during the upload: ${Math.max(...results.peak).toFixed(1)} MB  (floor < 64 MB)`);
  } finally {
    await bare.close();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
