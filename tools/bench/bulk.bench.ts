// Issue 38: bulk answers by claim. A generated .ld (one 1 kHz channel of one hour, 3.6 M int16 samples, and 20
// channels at 100 Hz) uploaded uncompressed to a run sheet; every read through the gateway of the five-process stack,
// twice in one sitting: with the claim check (CLAIM_INLINE_MAX_BYTES default 256 KiB: large answers are fetched from
// the datafile-service's claim port) and with every answer on the broker (CLAIM_INLINE_MAX_BYTES 2 GiB: the road
// before issue 38). Measured, not asserted:
//   - the whole-channel binary read (7.2 MB) against a bare node:http server in its own process serving the same
//     bytes (p50 of sequential reads, each after the bench collected its own garbage: `rested`; goal: claim road at
//     least 0.6 of the bare server's rate);
//   - the JSON of the same channel (about 19 MB, encoded for every read): MB/s at p50 (goal >= 100 MB/s);
//   - a warm lap read of 20 channels (binary, 353 KiB) and a small GET (autocannon, the run sheet): not slower;
//   - RSS growth (peak over the baseline, VmHWM reset before) of the gateway and the datafile-service for a 100 MB
//     answer, binary and JSON, read at full speed and by a slow client (goal < 32 MB each);
//   - reads compressed (Accept-Encoding zstd, gzip) against identity: bytes on the wire, p50 on loopback (the cost of
//     compressing), and that p50 plus what the bytes take at 20 Mbit/s (a remote engineer's VPN; computed, not
//     measured): the whole channel above (binary and JSON; the generator's channel is a repeating wave, which compresses
//     far better than a logged one) and every channel of Sample1.ld (a MoTeC log from a car, libs/formats' fixture).
//     Every other read of the bench asks identity (stack-fixture.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateLdFile } from '../gen-ld/gen-ld';
import { openDataFile } from '@pitwall/formats';
import { createBenchRunSheet, load, startBenchStack, summarise, uploadDataFile, type BenchStack } from './stack-fixture';

const RUNS = Number(process.env['BENCH_BULK_RUNS'] ?? 15);
/** Reads of each coding of the compression line. */
const CODING_RUNS = Math.max(3, Math.round(RUNS / 3));
const CODINGS = ['identity', 'zstd', 'gzip'] as const;
/** The link the compression line computes transfer times for: 20 Mbit/s, in bytes per ms. */
const SLOW_LINK_BYTES_PER_MS = 20e6 / 8 / 1000;
/** A MoTeC log from a car (libs/formats' test fixture): what logged channels compress to. */
const LOGGED_LD = path.join(process.cwd(), 'libs', 'formats', 'test', 'fixtures', 'telemetry', 'Sample1.ld');
const MB = 1e6;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const kib = (pid: number, field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** Pause of a `rested` read after the bench's own garbage collection, before its timer starts (ms). */
const REST_MS = 25;

/**
 * One read: its time to the response head and to the last byte, and its bytes (counted, not kept); `slow` pauses 20 ms
 * after each MiB. `rested`: the bench's own heap is collected first and left REST_MS to settle, outside the timed
 * window. Without it, the 14 MB that a whole-channel read and a bare read leave as garbage in this process (its HTTP
 * client copies every body chunk) were collected during the next read: a major GC, whose helper threads took both
 * cores of a 2-core machine from the stack's processes (every hop of the next read slowed, RabbitMQ's and the
 * entity-service's too) and from the bare server.
 */
async function timed(url: string, options: { method?: string; body?: string; headers?: Record<string, string>; slow?: boolean; keep?: boolean; rested?: boolean } = {}): Promise<{ ms: number; headMs: number; bytes: number; body?: Buffer }> {
  if (options.rested) {
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
  }
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : Buffer.from(options.body);
    const req = request(url, { method: options.method ?? 'GET', agent, headers: { ...options.headers, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}) } }, (res) => {
      const headMs = performance.now() - t;
      let bytes = 0;
      let sincePause = 0;
      const kept: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (options.keep || res.statusCode !== 200) kept.push(c);
        sincePause += c.length;
        if (options.slow && sincePause >= 1024 * 1024) {
          sincePause = 0;
          res.pause();
          setTimeout(() => res.resume(), 20);
        }
      });
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}: ${Buffer.concat(kept).toString().slice(0, 300)}`));
        resolve({ ms: performance.now() - t, headMs, bytes, ...(options.keep ? { body: Buffer.concat(kept) } : {}) });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A bare node:http server in its own process answering every GET with the file's bytes (Content-Length set). */
async function bareServer(file: string): Promise<{ url: string; child: ChildProcess }> {
  const script = `const http=require('node:http');const body=require('node:fs').readFileSync(${JSON.stringify(file)});
http.createServer((req,res)=>{res.writeHead(200,{'Content-Type':'application/x-service-channels','Content-Length':body.length});res.end(body);}).listen(0,'127.0.0.1',function(){process.stdout.write(String(this.address().port)+'\\n');});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout?.once('data', (d: Buffer) => resolve(d.toString().trim())));
  return { url: `http://127.0.0.1:${port}/`, child };
}

interface RoadResult {
  /** The bare server's p50 for the same bytes, read in turn with the stack's (the same moments of the machine). */
  bareMs: number;
  binaryMs: number;
  /** p50 of the binary reads' time to the response head: the stack's fixed path, before the bytes. */
  binaryHeadMs: number;
  binaryBytes: number;
  jsonMs: number;
  jsonBytes: number;
  lapMs: number;
  smallReqPerSec: number;
  smallP50: number;
  rss: Record<string, { gateway: number; datafile: number; bytes: number }>;
  /** The whole channel by coding: p50 on loopback and bytes on the wire ('binary zstd', 'JSON identity', ...). */
  codings: Record<string, { ms: number; bytes: number }>;
}

async function road(label: string, ld: string, dir: string, inlineMax: string | undefined, bareFile: string): Promise<RoadResult> {
  let stack: BenchStack | undefined;
  let bare: { url: string; child: ChildProcess } | undefined;
  try {
    // READ_SAMPLE_BUDGET above the 100 MB answers' samples (the channel named 6 and 14 times).
    stack = await startBenchStack({ env: { DATA_DIR: path.join(dir, `data-${label}`), BUS_TIMEOUT_MS: '60000', READ_SAMPLE_BUDGET: '64000000', ...(inlineMax ? { CLAIM_INLINE_MAX_BYTES: inlineMax } : {}) } });
    const s = stack;
    const runSheet = await createBenchRunSheet(s);
    await uploadDataFile(s, runSheet, ld, { fileName: 'bulk.ld', compressed: false });

    const dataset = `${s.baseUrl}/RunSheets/${runSheet}/DataFileAccess/DataFile`;
    const meta = (await (await fetch(`${dataset}/metadata`, { headers: s.headers })).json()) as { channels: { name: string; frequency: number }[] };
    const fast = (meta.channels.find((c) => c.frequency === 1000) as { name: string }).name;
    const lapChannels = meta.channels.filter((c) => c.frequency === 100 && c.name !== 'Ground Speed').slice(0, 20).map((c) => c.name);
    const binaryHeaders = { ...s.headers, Accept: 'application/x-service-channels' };
    // The bulk reads, and the bare server's, rested (the bench's garbage of the read before collected outside the window).
    const whole = (binary: boolean) => timed(`${dataset}/channel?channel=${encodeURIComponent(fast)}`, { headers: binary ? binaryHeaders : s.headers, rested: true });

    // Warm-up (the channel read from the file into the stored-channel cache), and the bytes the bare server serves.
    const first = await timed(`${dataset}/channel?channel=${encodeURIComponent(fast)}`, { headers: binaryHeaders, keep: true });
    writeFileSync(bareFile, first.body as Buffer);
    bare = await bareServer(bareFile);
    const bareUrl = bare.url;
    await timed(bareUrl);
    await whole(false);
    const binary: number[] = [];
    const binaryHead: number[] = [];
    const bareRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await whole(true);
      binary.push(r.ms);
      binaryHead.push(r.headMs);
      bareRuns.push((await timed(bareUrl, { rested: true })).ms);
    }
    const json: number[] = [];
    let jsonBytes = 0;
    for (let i = 0; i < Math.max(3, Math.round(RUNS / 2)); i++) {
      const r = await whole(false);
      json.push(r.ms);
      jsonBytes = r.bytes;
    }
    // The compression line: the same read in each coding, the bytes as they came on the wire (node:http decodes nothing).
    const loggedRunSheet = await createBenchRunSheet(s);
    await uploadDataFile(s, loggedRunSheet, LOGGED_LD, { fileName: 'Sample1.ld', compressed: false });
    const logged = JSON.stringify({ channels: openDataFile(new Uint8Array(readFileSync(LOGGED_LD))).channels.map((c) => c.name), mode: 0 });
    const loggedUrl = `${s.baseUrl}/RunSheets/${loggedRunSheet}/DataFileAccess/DataFile/channels`;
    const codings: RoadResult['codings'] = {};
    const reads: [string, string, { method?: string; body?: string; headers: Record<string, string> }][] = [
      ['whole channel binary', `${dataset}/channel?channel=${encodeURIComponent(fast)}`, { headers: binaryHeaders }],
      ['whole channel JSON', `${dataset}/channel?channel=${encodeURIComponent(fast)}`, { headers: s.headers }],
      ['Sample1.ld every channel binary', loggedUrl, { method: 'POST', body: logged, headers: binaryHeaders }],
      ['Sample1.ld every channel JSON', loggedUrl, { method: 'POST', body: logged, headers: s.headers }],
    ];
    for (const [what, url, options] of reads) {
      await timed(url, options);
      for (const coding of CODINGS) {
        const runs: number[] = [];
        let bytes = 0;
        for (let i = 0; i < CODING_RUNS; i++) {
          const r = await timed(url, { ...options, headers: { ...options.headers, 'Accept-Encoding': coding }, rested: true });
          runs.push(r.ms);
          bytes = r.bytes;
        }
        codings[`${what} ${coding}`] = { ms: median(runs), bytes };
      }
    }
    const lapBody = JSON.stringify({ channels: lapChannels, mode: 1, lapIndex: 5 });
    await timed(`${dataset}/channels`, { method: 'POST', body: lapBody, headers: binaryHeaders });
    const lap: number[] = [];
    for (let i = 0; i < RUNS * 2; i++) lap.push((await timed(`${dataset}/channels`, { method: 'POST', body: lapBody, headers: binaryHeaders })).ms);
    const small = summarise('small GET', await load({ url: `${s.baseUrl}/RunSheets/${runSheet}`, connections: 16, duration: Number(process.env['BENCH_DURATION'] ?? 5), headers: s.headers }));

    // RSS for 100 MB answers: the peak over the baseline of each process (VmHWM reset first: /proc/<pid>/clear_refs 5).
    const gatewayPid = s.procs.find((p) => p.name === 'gateway')?.child.pid as number;
    const datafilePid = s.procs.find((p) => p.name === 'datafile-service')?.child.pid as number;
    const rss: RoadResult['rss'] = {};
    const cases: [string, boolean, number, boolean][] = [
      ['binary 100 MB', true, 14, false],
      ['JSON 100 MB', false, 6, false],
      ['JSON 100 MB, slow client', false, 6, true],
    ];
    for (const [name, asBinary, copies, slow] of cases) {
      const body = JSON.stringify({ channels: Array.from({ length: copies }, () => fast), mode: 0 });
      global.gc?.();
      const base = { gateway: kib(gatewayPid, 'VmRSS'), datafile: kib(datafilePid, 'VmRSS') };
      writeFileSync(`/proc/${gatewayPid}/clear_refs`, '5');
      writeFileSync(`/proc/${datafilePid}/clear_refs`, '5');
      try {
        const r = await timed(`${dataset}/channels`, { method: 'POST', body, headers: asBinary ? binaryHeaders : s.headers, slow });
        rss[name] = { gateway: (kib(gatewayPid, 'VmHWM') - base.gateway) / 1024, datafile: (kib(datafilePid, 'VmHWM') - base.datafile) / 1024, bytes: r.bytes };
      } catch (err) {
        console.log(`  ${label}: ${name} failed: ${(err as Error).message}`);
      }
    }
    const result: RoadResult = { bareMs: median(bareRuns), binaryMs: median(binary), binaryHeadMs: median(binaryHead), binaryBytes: first.bytes, jsonMs: median(json), jsonBytes, lapMs: median(lap), smallReqPerSec: small.reqPerSec, smallP50: small.p50, rss, codings };
    console.log(`${label}: whole-channel binary p50 ${result.binaryMs.toFixed(1)} ms (${(result.binaryBytes / MB).toFixed(1)} MB, head at ${result.binaryHeadMs.toFixed(1)} ms; the bare server in turn ${result.bareMs.toFixed(1)} ms, ratio ${(result.bareMs / result.binaryMs).toFixed(2)}); JSON p50 ${result.jsonMs.toFixed(1)} ms (${(jsonBytes / MB).toFixed(1)} MB, ${(jsonBytes / MB / (result.jsonMs / 1000)).toFixed(0)} MB/s); lap p50 ${result.lapMs.toFixed(1)} ms; small GET ${small.reqPerSec.toFixed(0)} req/s p50 ${small.p50} ms`);
    for (const [name, r] of Object.entries(rss)) console.log(`  RSS growth, ${name} (${(r.bytes / MB).toFixed(0)} MB): gateway +${r.gateway.toFixed(1)} MB, datafile-service +${r.datafile.toFixed(1)} MB`);
    for (const [what] of reads) {
      const identity = codings[`${what} identity`] as { ms: number; bytes: number };
      const atSlowLink = (c: { ms: number; bytes: number }) => ((c.ms + c.bytes / SLOW_LINK_BYTES_PER_MS) / 1000).toFixed(2);
      const parts = CODINGS.map((coding) => {
        const c = codings[`${what} ${coding}`] as { ms: number; bytes: number };
        return `${coding} ${(c.bytes / MB).toFixed(2)} MB (ratio ${(identity.bytes / c.bytes).toFixed(2)}) p50 ${c.ms.toFixed(1)} ms, at 20 Mbit/s ${atSlowLink(c)} s`;
      });
      console.log(`  ${what} on the wire: ${parts.join('; ')}`);
    }
    return result;
  } finally {
    bare?.child.kill();
    await stack?.stop();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pitwall-bench-bulk-'));
  const bareFile = path.join(dir, 'whole-channel.bin');
  try {
    const ld = path.join(dir, 'bulk.ld');
    const gen = generateLdFile(ld, { duration: 3600, rates: [{ hz: 1000, count: 1 }, { hz: 100, count: 20 }] });
    console.log(`generated ${(gen.bytes / MB).toFixed(1)} MB .ld (${gen.channels} channels)`);
    const claim = await road('claim (default)', ld, dir, undefined, bareFile);
    // BENCH_BULK_CLAIM_ONLY=1: the claim road alone (e.g. with STACK_NODE_ARGS=--cpu-prof).
    if (process.env['BENCH_BULK_CLAIM_ONLY'] === '1') return;
    const onBus = await road('all on the broker (CLAIM_INLINE_MAX_BYTES=2147483647)', ld, dir, '2147483647', bareFile);
    console.log('\nsummary:');
    console.log(`  whole-channel binary, stack/bare rate: claim ${(claim.bareMs / claim.binaryMs).toFixed(2)} (goal >= 0.6); on the broker ${(onBus.bareMs / onBus.binaryMs).toFixed(2)}`);
    console.log(`  JSON of the channel: ${(claim.jsonBytes / MB / (claim.jsonMs / 1000)).toFixed(0)} MB/s (goal >= 100); on the broker: ${(onBus.jsonBytes / MB / (onBus.jsonMs / 1000)).toFixed(0)} MB/s`);
    console.log(`  lap read p50: claim ${claim.lapMs.toFixed(1)} ms, on the broker ${onBus.lapMs.toFixed(1)} ms; small GET: ${claim.smallReqPerSec.toFixed(0)} vs ${onBus.smallReqPerSec.toFixed(0)} req/s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
