// Issue 37: `npm start` as a newcomer meets it. The embedded process (dist/apps/standalone, as package.json's start runs
// it) on a fresh data directory, then again on the same one: the time until /health answers and until the banner
// (seeding done), and its resident memory once idle (goal: under 400 MB). The build check a second `npm start` runs
// first (tools/build-quiet.mjs on an unchanged tree) is timed too: with it, the second start should answer /health
// within 5 s. BENCH_IDLE_S (default 10) sets how long the process idles before its memory is read.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@pitwall/testing';

// tools/bench/run.mjs runs each bench from the repository's root.
const REPO_ROOT = process.cwd();

const IDLE_S = Number(process.env['BENCH_IDLE_S'] ?? 10);
const GOAL_RSS_MB = 400;
const GOAL_SECOND_START_S = 5;

/** The node flags package.json's start script gives the process (`node <flags> dist/apps/standalone/main.js`). */
function startFlags(): string[] {
  const start = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start'] as string;
  const command = start.split('&&').map((part) => part.trim()).find((part) => part.includes('dist/apps/standalone/main.js')) as string;
  return command.split(/\s+/).filter((word) => word.startsWith('--'));
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')) as string;
  return Math.round(Number(line.replace(/\D+/g, '')) / 1024);
}

interface StartFigures {
  healthS: number;
  bannerS: number;
  idleRssMb: number;
}

async function startOnce(dataDir: string): Promise<StartFigures> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...startFlags(), join(REPO_ROOT, 'dist', 'apps', 'standalone', 'main.js')], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  try {
    let healthS = 0;
    const deadline = Date.now() + 300_000;
    while (!/^ApiKey: \S+$/m.test(output)) {
      if (child.exitCode !== null) throw new Error(`standalone exited ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`standalone printed no banner in 300 s:\n${output}`);
      if (!healthS && (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false))) healthS = (performance.now() - started) / 1000;
      await new Promise((r) => setTimeout(r, 50));
    }
    const bannerS = (performance.now() - started) / 1000;
    if (!healthS) healthS = bannerS;
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    return { healthS, bannerS, idleRssMb: rssMb(child.pid as number) };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pitwall-startup-bench-'));
  try {
    const flags = startFlags();
    console.log(`node ${process.version}, start flags: ${flags.join(' ') || '(none)'}, idle ${IDLE_S} s before the memory is read`);
    const first = await startOnce(dataDir);
    console.log(`  first start (fresh DATA_DIR):  /health ${first.healthS.toFixed(1)} s, banner ${first.bannerS.toFixed(1)} s, idle RSS ${first.idleRssMb} MB`);
    const check = performance.now();
    const build = spawnSync(process.execPath, [join(REPO_ROOT, 'tools', 'build-quiet.mjs')], { cwd: REPO_ROOT, encoding: 'utf8' });
    const buildS = (performance.now() - check) / 1000;
    if (build.status !== 0) throw new Error(`tools/build-quiet.mjs failed:\n${build.stderr}`);
    const second = await startOnce(dataDir);
    const secondNpmStart = buildS + second.healthS;
    console.log(`  second start (same DATA_DIR):  /health ${second.healthS.toFixed(1)} s, banner ${second.bannerS.toFixed(1)} s, idle RSS ${second.idleRssMb} MB`);
    console.log(`  build check of an unchanged tree: ${buildS.toFixed(1)} s (${build.stderr.trim()})`);
    console.log(`  second npm start to /health: ${secondNpmStart.toFixed(1)} s (goal < ${GOAL_SECOND_START_S} s: ${secondNpmStart < GOAL_SECOND_START_S ? 'met' : 'NOT met'})`);
    const rss = Math.max(first.idleRssMb, second.idleRssMb);
    console.log(`  idle RSS: ${rss} MB (goal < ${GOAL_RSS_MB} MB: ${rss < GOAL_RSS_MB ? 'met' : 'NOT met'})`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
