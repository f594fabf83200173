// Shared by the stack benches: the five apps as separate processes (tools/stack.cjs) on a fresh database with
// random bus and Redis prefixes, one account/user/key, autocannon with a typed wrapper, and cleanup of everything.
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { AuthStore } from '@pitwall/auth';
import { FilesystemBlobStore } from '@pitwall/blob-store';
import { RedisCache } from '@pitwall/cache';
import { createPool } from '@pitwall/db';
import { createTestDatabase } from '@pitwall/db/testing';
import { httpSend } from '../timing-replay/replay';

export const AMQP_URL = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

interface StackProc {
  name: string;
  output: string;
  child: import('node:child_process').ChildProcess;
}
interface Stack {
  baseUrl: string;
  port: number;
  procs: StackProc[];
  stop(): Promise<{ name: string; exitCode: number | null; signal: string | null }[]>;
}
// tools/stack.cjs is plain CommonJS beside this folder; the bundle keeps the require relative to the repo root.
const { startStack, deleteBusTopology } = require(path.join(process.cwd(), 'tools', 'stack.cjs')) as {
  startStack(options: { env: Record<string, string>; readyTimeoutMs?: number; apps?: string[]; port?: number }): Promise<Stack>;
  deleteBusTopology(amqpUrl: string, busPrefix: string): Promise<void>;
};

// autocannon 8 ships no types: the subset the benches use.
export interface AutocannonOptions {
  url: string;
  connections?: number;
  duration?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeout?: number;
}
interface Histogram {
  average: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
}
export interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  throughput: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
  '2xx': number;
}
const autocannon = require('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>;

export function load(opts: AutocannonOptions): Promise<AutocannonResult> {
  return autocannon({ timeout: 10, ...opts });
}

export interface LoadSummary {
  label: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  kbPerReq: number;
}

export function summarise(label: string, r: AutocannonResult): LoadSummary {
  const ok = r['2xx'];
  return {
    label,
    reqPerSec: ok / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    kbPerReq: ok ? r.throughput.total / ok / 1024 : 0,
  };
}

export function printSummary(s: LoadSummary): void {
  console.log(
    `${s.label.padEnd(40)} ${s.reqPerSec.toFixed(0).padStart(6)} req/s  p50 ${String(s.p50).padStart(4)} ms  p99 ${String(s.p99).padStart(4)} ms  ` +
      `errors ${s.errors}  non-2xx ${s.non2xx}  ${s.kbPerReq.toFixed(1)} kB/resp`,
  );
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface BenchStack {
  baseUrl: string;
  prefix: string;
  databaseUrl: string;
  /** The bench's own auth store on the stack's database and Redis prefix (the gateway's cache keys). */
  auth: AuthStore;
  pool: import('pg').Pool;
  accountId: string;
  userId: string;
  apiKey: string;
  headers: Record<string, string>;
  procs: StackProc[];
  send(method: string, path: string, body?: unknown): Promise<Answer>;
  /** Creates and returns the entity's id; throws on anything but 201. */
  create(plural: string, parentIds: Record<string, string>, parameters: Record<string, string>): Promise<string>;
  /** Stops one app and starts it again with `env` added to the stack's, on the same database, bus and account. */
  restartApp(name: string, env: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the stack on a fresh database with random prefixes and creates one admin member. `env` is added to every
 * app's environment (NODE_OPTIONS for profiling). stop() stops the apps, then removes the queues, exchanges,
 * Redis keys and the database.
 */
export async function startBenchStack(options: { env?: Record<string, string> } = {}): Promise<BenchStack> {
  const db = await createTestDatabase();
  const prefix = `bench${randomBytes(4).toString('hex')}`;
  // One CLAIM_SECRET for the stack's life: an app restarted by restartApp must still redeem and issue the others' claims.
  const env: Record<string, string> = { DATABASE_URL: db.url, AMQP_URL, REDIS_URL, BUS_PREFIX: `${prefix}.`, REDIS_PREFIX: `${prefix}:`, LOG_LEVEL: 'warn', CLAIM_SECRET: randomBytes(32).toString('base64url'), ...options.env };
  // For experiments on the apps without touching them (e.g. a --require preload): added to their NODE_OPTIONS.
  const extra = process.env['BENCH_APP_NODE_OPTIONS'];
  if (extra) env['NODE_OPTIONS'] = [env['NODE_OPTIONS'], extra].filter(Boolean).join(' ');
  const cleanups: (() => Promise<unknown>)[] = [() => deleteBusTopology(AMQP_URL, `${prefix}.`), () => db.drop()];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0)) await fn().catch((err: unknown) => console.error('cleanup failed:', (err as Error).message));
  };
  let stack: Stack;
  try {
    stack = await startStack({ env, readyTimeoutMs: 60_000 });
  } catch (err) {
    await cleanup();
    throw err;
  }
  const silent = pino({ level: 'silent' });
  const pool = createPool({ url: db.url, applicationName: 'bench', logger: silent });
  const cache = new RedisCache(REDIS_URL, `${prefix}:`);
  cleanups.unshift(
    () => stack.stop(),
    async () => {
      await cache.clear();
      await cache.close();
    },
    () => pool.end(),
  );
  try {
    const auth = new AuthStore(pool, cache, silent);
    const account = await auth.createAccount(`Bench ${prefix}`);
    const user = await auth.createUser(`bench-${prefix}`);
    await auth.addMembership(account.id, user.id, 'admin');
    const { apiKey } = await auth.createApiKey(user.id, 'bench');
    // Identity, said explicitly: fetch (undici) sends `gzip, deflate`, and every figure so far, and the bare servers the
    // benches compare with, measure uncompressed answers (the bulk bench measures compression on its own line).
    const headers = { ApiKey: apiKey, AccountId: account.id, 'Content-Type': 'application/json', 'Accept-Encoding': 'identity' };
    const send: BenchStack['send'] = httpSend(stack.baseUrl, headers);
    const create = async (plural: string, parentIds: Record<string, string>, parameters: Record<string, string>) => {
      const qs = new URLSearchParams(parentIds).toString();
      const r = await send('POST', `/${plural}${qs ? `?${qs}` : ''}`, { ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) });
      if (r.status !== 201) throw new Error(`POST /${plural} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body.Id as string;
    };
    const restartApp = async (name: string, extraEnv: Record<string, string>) => {
      const index = stack.procs.findIndex((p) => p.name === name);
      const old = stack.procs[index];
      if (!old) throw new Error(`no app ${name} in the stack`);
      await new Promise((resolve) => {
        if (old.child.exitCode !== null || old.child.signalCode !== null) return resolve(null);
        old.child.once('exit', resolve);
        old.child.kill('SIGTERM');
      });
      // Ready once the gateway's readiness check reaches the new instance; its process joins the stack's list, so
      // the stack's stop() stops it.
      const started = await startStack({ env: { ...env, ...extraEnv }, apps: [name], port: stack.port, readyTimeoutMs: 60_000 });
      stack.procs[index] = started.procs[0] as StackProc;
    };
    return { baseUrl: stack.baseUrl, prefix, databaseUrl: db.url, auth, pool, accountId: account.id, userId: user.id, apiKey, headers, procs: stack.procs, send, create, restartApp, stop: cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** A run sheet on a championship, event, session and car (entered in the event) of its own; its id. */
export async function createBenchRunSheet(stack: BenchStack): Promise<string> {
  const championshipId = await stack.create('Championships', {}, { Name: 'Bench' });
  const eventId = await stack.create('Events', { championshipId }, { Name: 'Bench event' });
  const sessionId = await stack.create('Sessions', { eventId }, { Name: 'Bench session' });
  const carId = await stack.create('Cars', {}, { Name: 'Bench car' });
  await stack.create('EventCars', { eventId, carId }, { Name: 'Bench car' });
  return stack.create('RunSheets', { sessionId, carId }, { Name: 'Bench run' });
}

/** PUTs the file's bytes to a signed upload URL, streamed from disk; the answer's status. */
function putFile(url: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(url), { method: 'PUT', agent: false, headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(statSync(file).size) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(req);
  });
}

/**
 * Attaches `file` to the run sheet in the group DataFile by the upload flow (prepare, PUT to the signed URL, finalise
 * with ServerAttachedFileState 2); `compressed`: the file is an LZ4 frame, uploaded with UseCompression.
 */
export async function uploadDataFile(stack: BenchStack, runSheet: string, file: string, options: { fileName: string; compressed: boolean }): Promise<void> {
  const prepared = await stack.send('POST', `/RunSheets/${runSheet}/Attachments`, { FileName: options.fileName, UseCompression: options.compressed, AttachedFileGroupName: 'DataFile' });
  if ((await putFile(prepared.body.Url, file)) !== 200) throw new Error('upload failed');
  const done = await stack.send('PUT', `/RunSheets/${runSheet}/Attachments/${prepared.body.AttachedFileId}`, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] });
  if (done.status !== 200) throw new Error(`finalise answered ${done.status}: ${JSON.stringify(done.body)}`);
}

/**
 * Attaches the file `ld` to the run sheet in the group DataFile as the upload flow leaves it, without the upload: the
 * bytes in the blob store under `blobDir` (the stack's BLOB_DIR), the record in state 2, named bench-large.ld.
 */
export async function attachStoredDataFile(stack: BenchStack, blobDir: string, runSheet: string, ld: string): Promise<void> {
  const blob = await new FilesystemBlobStore(blobDir).putStream(createReadStream(ld));
  await stack.pool.query(
    `INSERT INTO entity.attached_files (id, account_id, entity_id, file_name, group_name, use_compression, state, file_size, created_time, modified_at, blob_key, blob_sha256)
     VALUES ($1, $2, $3, 'bench-large.ld', 'DataFile', false, 2, $4, clock_timestamp(), now(), $5, $6)`,
    [randomUUID(), stack.accountId, runSheet, statSync(ld).size, blob.key, blob.sha256],
  );
}

/** Runs `fn` over `items` with at most `concurrency` in flight; returns the elapsed seconds. */
export async function inParallel<T>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return (performance.now() - start) / 1000;
}

// --- CPU profiles (NODE_OPTIONS=--cpu-prof): self time per function, summed over the profile's samples.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A span of the monotonic clock in microseconds (the clock of V8 profiles and of process.hrtime). */
export type Window = [number, number];

export function nowMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** The profile's samples as (node id, self ms), only those inside `window` when given. */
function samplesOf(profile: CpuProfile, window?: Window): [number, number][] {
  const out: [number, number][] = [];
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (!window || (t >= window[0] && t <= window[1])) out.push([id, delta / 1000]);
  });
  return out;
}

function readProfile(dir: string, pid: number): CpuProfile | null {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${pid}.`));
  return file ? (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile) : null;
}

// Node 20 refuses --cpu-prof in NODE_OPTIONS, so a --require preload runs the same V8 profiler (1 ms sampling)
// through the inspector and writes CPU.<pid>.cpuprofile when the process exits.
const PROFILER_PRELOAD = `
const inspector = require('node:inspector');
const fs = require('node:fs');
const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 1000 });
session.post('Profiler.start');
process.on('exit', () => {
  session.post('Profiler.stop', (err, result) => {
    if (!err) fs.writeFileSync(require('node:path').join(__dirname, 'CPU.' + process.pid + '.cpuprofile'), JSON.stringify(result.profile));
  });
});
`;

/** NODE_OPTIONS that make every app write a V8 CPU profile into `dir` when it exits. */
function cpuProfileEnv(dir: string): Record<string, string> {
  const preload = path.join(dir, 'profile-preload.cjs');
  writeFileSync(preload, PROFILER_PRELOAD);
  return { NODE_OPTIONS: `--require ${preload}` };
}

/** Top self-time entries of the profile written by process `pid` in `dir`, with the share of busy (non-idle) time. */
export function topSelfTime(dir: string, pid: number, top = 15, window?: Window): { busyMs: number; totalMs: number; rows: { name: string; ms: number; share: number }[] } | null {
  const profile = readProfile(dir, pid);
  if (!profile) return null;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  for (const [id, ms] of samplesOf(profile, window)) selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
  const byName = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, ms] of selfMs) {
    const f = (byId.get(id) as ProfileNode).callFrame;
    totalMs += ms;
    if (f.functionName === '(idle)') idleMs += ms;
    const where = f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : '';
    const name = `${f.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    byName.set(name, (byName.get(name) ?? 0) + ms);
  }
  const busyMs = totalMs - idleMs;
  const rows = [...byName.entries()]
    .filter(([name]) => !name.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, ms, share: ms / busyMs }));
  return { busyMs, totalMs, rows };
}

/** Self time grouped by package or app source folder: where a process spends its busy time at a glance. */
export function selfTimeByArea(dir: string, pid: number, window?: Window): { area: string; share: number }[] {
  const profile = readProfile(dir, pid);
  if (!profile) return [];
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areas = new Map<string, number>();
  let busy = 0;
  for (const [id, ms] of samplesOf(profile, window)) {
    const f = (byId.get(id) as ProfileNode).callFrame;
    if (f.functionName === '(idle)') continue;
    busy += ms;
    const area = areaOf(f);
    areas.set(area, (areas.get(area) ?? 0) + ms);
  }
  return [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([area, ms]) => ({ area, share: ms / busy }));
}

function areaOf(f: { functionName: string; url: string }): string {
  if (!f.url) return f.functionName.startsWith('(') ? f.functionName : '(native/builtin)';
  const nm = f.url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return nm[1] as string;
  if (f.url.startsWith('node:')) return f.url.replace(/^node:(internal\/)?/, 'node:').split('/').slice(0, 2).join('/');
  if (f.url.includes('dist/apps/')) return 'app bundle (own code, bundled libs)';
  return shortUrl(f.url);
}

function shortUrl(url: string): string {
  return url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '').replace(/^.*dist\/apps\//, 'dist/apps/');
}

function printProfile(title: string, dir: string, pid: number | undefined, top = 12, window?: Window): void {
  if (pid === undefined) return;
  const p = topSelfTime(dir, pid, top, window);
  if (!p) {
    console.log(`${title}: no profile found for pid ${pid}`);
    return;
  }
  console.log(`\n${title} (pid ${pid}): busy ${(p.busyMs / 1000).toFixed(1)} s of ${(p.totalMs / 1000).toFixed(1)} s profiled`);
  console.log('  by area: ' + selfTimeByArea(dir, pid, window).slice(0, 8).map((a) => `${a.area} ${(a.share * 100).toFixed(0)}%`).join(', '));
  for (const r of p.rows) console.log(`  ${(r.share * 100).toFixed(1).padStart(5)}%  ${r.ms.toFixed(0).padStart(6)} ms  ${r.name}`);
}

/** The CPU profiles of a profiled stack's apps, written when they exit: print them after `stack.stop()`. */
export interface BenchProfiles {
  /** Prints the top `top` self-time functions of the app named `app` within `window` (all of its profile without). */
  print(app: string, top: number, window?: Window): void;
  /** Deletes the profiles. */
  remove(): void;
}

/** `startBenchStack`, with every app under a CPU profiler when `profile` is set (BENCH_PROFILE=1). */
export async function startProfiledBenchStack(profile: boolean): Promise<{ stack: BenchStack; profiles?: BenchProfiles }> {
  if (!profile) return { stack: await startBenchStack() };
  const dir = mkdtempSync(path.join(tmpdir(), 'pitwall-prof-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const stack = await startBenchStack({ env: cpuProfileEnv(dir) }).catch((err: unknown) => {
    remove();
    throw err;
  });
  const pids = new Map(stack.procs.map((p) => [p.name, p.child.pid]));
  return { stack, profiles: { print: (app, top, window) => printProfile(`${app} self time`, dir, pids.get(app), top, window), remove } };
}

// --- CPU accounting from /proc: where a loaded run's CPU went, per process, in ms per request.

const CLOCK_TICKS_PER_S = 100; // USER_HZ on Linux

/** utime + stime of one process in ms, or undefined when it is gone. */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/** Pids of every process whose command name is `comm` (PostgreSQL backends, RabbitMQ's beam.smp, redis-server). */
function pidsNamed(comm: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) out.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return out;
}

export type CpuSnapshot = Map<string, number>;

/**
 * CPU used so far by each app of the stack, by all PostgreSQL, RabbitMQ and Redis processes, and by this process
 * (autocannon runs here). PostgreSQL backends that start or end between two snapshots are not counted whole, so
 * compare snapshots around a steady load on persistent connections (what the apps' pools hold).
 */
export function cpuSnapshot(stack: { procs: StackProc[] }): CpuSnapshot {
  const snap: CpuSnapshot = new Map();
  for (const p of stack.procs) if (p.child.pid !== undefined) snap.set(p.name, processCpuMs(p.child.pid) ?? 0);
  for (const [label, comm] of [['postgresql', 'postgres'], ['rabbitmq', 'beam.smp'], ['redis', 'redis-server']] as const) {
    snap.set(label, pidsNamed(comm).reduce((sum, pid) => sum + (processCpuMs(pid) ?? 0), 0));
  }
  const self = process.cpuUsage();
  snap.set('bench (autocannon)', (self.user + self.system) / 1000);
  return snap;
}

/** Prints the CPU each process spent per completed request between two snapshots, and the total. */
export function printCpuPerRequest(label: string, before: CpuSnapshot, after: CpuSnapshot, requests: number): void {
  if (requests <= 0) return;
  const rows = [...after.entries()].map(([name, ms]) => ({ name, ms: (ms - (before.get(name) ?? 0)) / requests })).filter((r) => r.ms >= 0.005);
  const total = rows.reduce((sum, r) => sum + r.ms, 0);
  rows.sort((a, b) => b.ms - a.ms);
  console.log(`CPU per request, ${label}: ${total.toFixed(2)} ms in all — ` + rows.map((r) => `${r.name} ${r.ms.toFixed(2)} (${((r.ms / total) * 100).toFixed(0)}%)`).join(', '));
}

/**
 * Runs a bench's `main` and ends the process when it is done (the stack's clients would keep it alive): with the exit
 * code `main` set (1 where a floor was missed), or 1 when it throws.
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
