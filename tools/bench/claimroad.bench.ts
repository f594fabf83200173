// The streamed claim road, stage by stage (issues 38 and 40): where the per-byte rate of an answer encoded as it is
// sent (JSON of a whole 1 kHz channel, 3.6 M int16 samples; the Arrow stream of it) goes. Rounds in turn, one sitting:
//   a. the encoder alone on this thread (`shapedChunks` / `arrowChunks`, every chunk pulled);
//   b. a. on the datafile-service's Piscina pool, posted through port-chunks to this thread, taken as fast as possible;
//   c. b. through a ClaimDesk (`reply`, then its HTTP endpoint), read by a plain http client in another process;
//   r. c. through a ClaimRedeemer in a third process piping it to its own client (the gateway's road without express
//      and the bus);
//   d. the same channel through the five-process stack's gateway (BENCH_CLAIMROAD_STACK=0 skips it).
// Needs the datafile-service's bundles in dist/ (`node tools/build-all.mjs`). BENCH_CLAIMROAD_RUNS rounds (default 7).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MessageChannel } from 'node:worker_threads';
import pino from 'pino';
import { Piscina } from 'piscina';
import { ClaimDesk, ClaimRedeemer, JSON_MEDIA_TYPE, receiveChunks, signClaimToken, type BulkAnswer, type Claim } from '@pitwall/bus';
import { ARROW_STREAM_MEDIA_TYPE } from '@pitwall/contracts';
import { shapedChunks, type ShapeTask, type StoredSlice } from '../../apps/datafile-service/src/workers/shape-channels';
import { arrowChunks } from '../../apps/datafile-service/src/workers/arrow-channels';
import { generateLdFile } from '../gen-ld/gen-ld';
import { createBenchRunSheet, startBenchStack, uploadDataFile } from './stack-fixture';

const stagesAll = process.env['BENCH_CLAIMROAD_STAGES'] !== 'd';
const RUNS = Number(process.env['BENCH_CLAIMROAD_RUNS'] ?? 7);
const SAMPLES = 3_600_000;
const MB = 1e6;
const SECRET = 'claimroad-bench-secret-0123456789';
const ACCOUNT = 'account-1';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The bench's channel: a wave of int16 codes scaled by 1/10, like gen-ld's `Synthetic 000 1000Hz`. */
function storedChannel(): StoredSlice {
  const samples = new Int16Array(SAMPLES);
  for (let i = 0; i < SAMPLES; i++) samples[i] = Math.round(1000 * Math.sin((2 * Math.PI * i) / 10_000));
  return { name: 'Synthetic 000 1000Hz', unit: 'u', frequency: 1000, dimension: 1, startTime: 0, samples, conversion: { numerator: 1, denominator: 10, offset: 0 } };
}

type Kind = 'json' | 'arrow';
const arrowMeta = { timeColumn: 'time', schema: { dataset: 'bench' }, fields: [{ dataType: 'int16' }] };
function taskOf(kind: Kind, channel: StoredSlice): ShapeTask {
  const slice = { ...channel, samples: channel.samples.slice() };
  return kind === 'json' ? { channels: [slice], binary: false, bare: true } : { channels: [slice], binary: false, arrow: arrowMeta };
}

function encodeAlone(kind: Kind, channel: StoredSlice): number {
  const task = taskOf(kind, channel);
  const { chunks } = kind === 'json' ? shapedChunks(task) : arrowChunks({ ...task, arrow: arrowMeta });
  let bytes = 0;
  for (const c of chunks) bytes += c.byteLength;
  return bytes;
}

/** As `readChannels` does: the task on the pool with a port, its chunks received on this thread. */
async function pooled(pool: Piscina, kind: Kind, channel: StoredSlice): Promise<BulkAnswer> {
  const task = taskOf(kind, channel);
  const { port1, port2 } = new MessageChannel();
  const stop = new AbortController();
  const run = pool.run({ ...task, port: port2 }, { transferList: [(task.channels[0] as StoredSlice).samples.buffer as ArrayBuffer, port2 as unknown as ArrayBuffer], signal: stop.signal });
  const { head, chunks } = receiveChunks(port1, run, (reason) => stop.abort(reason));
  const { length } = await head;
  return { contentType: kind === 'json' ? JSON_MEDIA_TYPE : ARROW_STREAM_MEDIA_TYPE, ...(length !== undefined ? { length } : {}), chunks: () => chunks };
}

// ---- the client and redeemer processes (this file forked with CLAIMROAD_ROLE) ----

const clientAgent = new Agent({ keepAlive: true });
function fetchCounted(url: string, headers: Record<string, string>): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: clientAgent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('error', reject);
      res.on('end', () => (res.statusCode === 200 ? resolve({ ms: performance.now() - t, bytes }) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function clientRole(): void {
  process.on('message', (m: { id: number; url: string; headers: Record<string, string> }) => {
    fetchCounted(m.url, m.headers).then(
      (r) => process.send?.({ id: m.id, ...r }),
      (err: unknown) => process.send?.({ id: m.id, error: (err as Error).message }),
    );
  });
}

/** A gateway's claim road without express and the bus: GET /?claim=<json> redeems it and pipes it to the client. */
function redeemerRole(): void {
  const redeemer = new ClaimRedeemer({ secret: SECRET, inProcess: false, logger: pino({ level: 'silent' }) });
  const server = createServer((req, res) => {
    const claim = JSON.parse(new URL(req.url ?? '/', 'http://x').searchParams.get('claim') ?? '{}') as Claim;
    redeemer.redeem(claim, ACCOUNT).then(
      async (answer) => {
        res.writeHead(200, { 'Content-Type': answer.contentType, ...(answer.length !== undefined ? { 'Content-Length': String(answer.length) } : {}) });
        await pipeline(answer.body, res).catch(() => res.destroy());
      },
      () => res.writeHead(502).end(),
    );
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
}

class Child {
  private next = 0;
  private readonly waiting = new Map<number, (r: { ms: number; bytes: number; error?: string }) => void>();
  constructor(readonly child: ChildProcess) {
    child.on('message', (m: { id: number; ms: number; bytes: number; error?: string }) => this.waiting.get(m.id)?.(m));
  }
  static start(role: string): Child {
    return new Child(fork(process.argv[1] as string, [], { env: { ...process.env, CLAIMROAD_ROLE: role }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  }
  get(url: string, headers: Record<string, string> = {}): Promise<{ ms: number; bytes: number }> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (r) => {
        this.waiting.delete(id);
        if (r.error) reject(new Error(r.error));
        else resolve(r);
      });
      this.child.send({ id, url, headers });
    });
  }
}

// ---- the stages ----

interface Row {
  ms: number[];
  bytes: number;
}
const rows = new Map<string, Row>();
function record(name: string, ms: number, bytes: number): void {
  const row = rows.get(name) ?? { ms: [], bytes };
  row.ms.push(ms);
  row.bytes = bytes;
  rows.set(name, row);
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const cpuRows = new Map<string, number[]>();
function cpu(name: string, ms: number): void {
  cpuRows.set(name, [...(cpuRows.get(name) ?? []), ms]);
}
/** CPU time (user + system, every thread) of the stack's gateway and datafile-service, in ms. */
function stackCpu(stack: { procs: { name: string; child: ChildProcess }[] }): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of stack.procs) {
    if (p.name !== 'gateway' && p.name !== 'datafile-service') continue;
    const fields = readFileSync(`/proc/${p.child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    out[p.name] = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  }
  return out;
}

async function main(): Promise<void> {
  const channel = storedChannel();
  const pool = new Piscina({ filename: path.join(process.cwd(), 'dist/apps/datafile-service/shape.worker.entry.js'), maxThreads: 2 });
  const desk = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 256 * 1024, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }) });
  await desk.start();
  const client = Child.start('client');
  const redeemerChild = Child.start('redeemer');
  const redeemerPort = await new Promise<number>((resolve) => redeemerChild.child.once('message', (m: { port: number }) => resolve(m.port)));
  const claimOf = async (kind: Kind): Promise<Claim> => {
    const reply = await desk.reply(await pooled(pool, kind, channel), ACCOUNT);
    const claim = reply.claim;
    if (!claim) throw new Error('the answer came inline');
    return claim;
  };
  const redeemHeaders = (claim: Claim) => ({ authorization: `Claim ${signClaimToken(SECRET, claim.id, ACCOUNT, claim.expiresAt)}`, 'x-claim-account': ACCOUNT });

  let stack: Awaited<ReturnType<typeof startBenchStack>> | undefined;
  let stackUrl: string | undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'pitwall-bench-claimroad-'));
  const stackAgent = new Agent({ keepAlive: true });
  try {
    if (process.env['BENCH_CLAIMROAD_STACK'] !== '0') {
      const ld = path.join(dir, 'bulk.ld');
      generateLdFile(ld, { duration: 3600, rates: [{ hz: 1000, count: 1 }] });
      stack = await startBenchStack({ env: { DATA_DIR: path.join(dir, 'data'), BUS_TIMEOUT_MS: '60000' } });
      const runSheet = await createBenchRunSheet(stack);
      await uploadDataFile(stack, runSheet, ld, { fileName: 'bulk.ld', compressed: false });
      stackUrl = `${stack.baseUrl}/RunSheets/${runSheet}/DataFileAccess/DataFile/channel?channel=${encodeURIComponent('Synthetic 000 1000Hz')}`;
    }
    const stackRead = (kind: Kind) => {
      const s = stack as NonNullable<typeof stack>;
      const headers = kind === 'json' ? s.headers : { ...s.headers, Accept: ARROW_STREAM_MEDIA_TYPE };
      const t = performance.now();
      return new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
        const req = request(stackUrl as string, { agent: stackAgent, headers }, (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => (res.statusCode === 200 ? resolve({ ms: performance.now() - t, bytes }) : reject(new Error(`stack answered ${res.statusCode}`))));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    };

    for (let round = -1; round < RUNS; round++) {
      const keep = round >= 0; // round -1 warms every stage up
      for (const kind of (process.env['BENCH_CLAIMROAD_KINDS'] ?? 'json,arrow').split(',') as Kind[]) {
        let t = performance.now();
        if (stagesAll) {
        const encoded = encodeAlone(kind, channel);
        if (keep) record(`${kind} a. encoder alone`, performance.now() - t, encoded);
        }

        if (!stagesAll) {
          // BENCH_CLAIMROAD_STAGES=d: the stack alone
        } else {
        let used = process.cpuUsage();
        t = performance.now();
        let bytes = 0;
        for await (const c of (await pooled(pool, kind, channel)).chunks(new AbortController().signal)) bytes += c.byteLength;
        if (keep) record(`${kind} b. pool + port`, performance.now() - t, bytes);
        if (keep) cpu(`${kind} b. CPU this process`, cpuMs(process.cpuUsage(used)));
        used = process.cpuUsage();

        t = performance.now();
        let claim = await claimOf(kind);
        const c = await client.get(`${claim.address}/claims/${claim.id}`, redeemHeaders(claim));
        if (keep) record(`${kind} c. + claim desk HTTP`, performance.now() - t, c.bytes);
        if (keep) cpu(`${kind} c. CPU this process`, cpuMs(process.cpuUsage(used)));

        t = performance.now();
        claim = await claimOf(kind);
        const r = await client.get(`http://127.0.0.1:${redeemerPort}/?claim=${encodeURIComponent(JSON.stringify(claim))}`);
        if (keep) record(`${kind} r. + redeemer hop`, performance.now() - t, r.bytes);
        }

        if (stack) {
          const before = stackCpu(stack);
          const d = await stackRead(kind);
          const after = stackCpu(stack);
          if (keep) {
            record(`${kind} d. five-process stack`, d.ms, d.bytes);
            for (const [name, ms] of Object.entries(after)) cpu(`${kind} d. CPU ${name}`, ms - (before[name] ?? 0));
          }
        }
      }
    }
    const load = (await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ');
    console.log(`claim road by stage, ${RUNS} rounds in turn, load average ${load}`);
    for (const [name, row] of rows) {
      const p50 = median(row.ms);
      console.log(`  ${name.padEnd(32)} p50 ${p50.toFixed(1).padStart(7)} ms  min ${Math.min(...row.ms).toFixed(1).padStart(7)} ms  ${(row.bytes / MB).toFixed(1)} MB  ${(row.bytes / MB / (p50 / 1000)).toFixed(0).padStart(5)} MB/s`);
    }
    for (const [name, ms] of cpuRows) console.log(`  ${name.padEnd(32)} mean ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(0).padStart(7)} ms of CPU a read`);
    // BENCH_CLAIMROAD_DUMP=<dir>: each app's output kept there (with STACK_NODE_ARGS=--trace-gc, say).
    const dump = process.env['BENCH_CLAIMROAD_DUMP'];
    if (dump && stack) for (const p of stack.procs) writeFileSync(path.join(dump, `${p.name}.log`), p.output);
  } finally {
    client.child.kill();
    redeemerChild.child.kill();
    await desk.stop();
    await pool.destroy();
    await stack?.stop();
    stackAgent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

const role = process.env['CLAIMROAD_ROLE'];
if (role === 'client') clientRole();
else if (role === 'redeemer') redeemerRole();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
