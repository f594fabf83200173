// `npm run bench before-after`: the platform refactor (issue 8) measured against the commit before it, in one run.
// Builds the "before" commit (BENCH_BEFORE, default 11c2be8) in its own directory (BENCH_BEFORE_DIR, default
// <tmp>/pitwall-before-<sha>: `git archive` of the commit, node_modules linked to this checkout's when the two
// package.json files name the same versions, else its own installed there with `npm ci`, each app bundled there with
// its own `tools/build-app.mjs`), then runs each comparison
// (BENCH_COMPARE, default `gateway,entities,tests`) as interleaved rounds (BENCH_ROUNDS, default 3): within a round
// both sides run back to back, the side that goes first alternating (ABBA), so a load that drifts over the run hits
// both sides alike. Prints every round, the medians and the ratios after/before.
//
// - gateway, entities: each side's own `node tools/bench/run.mjs <name>` (the two bench files are identical at both
//   commits), the five apps from that side's dist/. Entities runs the run-sheet read only (BENCH_READS, default
//   `runsheet`: seeding the search's 20,000 tyres takes minutes a side); BENCH_DURATION defaults to 5 s here.
// - timing: the same for `npm run bench timing` (BENCH_HOURS, BENCH_CONCURRENCY pass through): the replay's updates/s,
//   p50, p99 and CPU per update, and the p99 of the run sheet read while the replay feeds the account.
// - bigwrites: the same for `npm run bench bigwrites` (e.g. BENCH_BEFORE=<the commit before a big-writes change>
//   BENCH_COMPARE=bigwrites), which must exist at both commits. BENCH_SAME_BENCH=1 runs this checkout's bench bundle
//   (dist/bench/<name>.js) on both sides instead of each side's own (same measuring code, each side's apps).
//   Entities prints the run sheet answer's size per side: with the default projection (Laps.LapSectors.*) this
//   checkout's answer is 12% larger than 11c2be8's (issue 9's wire rules: every requested parameter present, null
//   when unset, and every entity's AttachedFiles collection).
//   BENCH_RUNSHEET_INCLUDE=Laps.LapTime,Laps.LapSectors.SectorTime,Laps.LapSectors.TrackSectorDefinitionId asks both
//   sides for a read whose answers are alike byte for byte (ids and lap times aside); the before tree's bench, which
//   has the projection written in, is made to read that variable (projectionFromEnvironment).
// - tests: wall time of `jest -c <project>/jest.config.cjs` of projects that existed before (BENCH_TEST_PROJECTS),
//   each side in its own directory; one unmeasured run per side first fills jest's transform cache.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = process.cwd();
const BEFORE = process.env['BENCH_BEFORE'] ?? '11c2be8';
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const COMPARE = (process.env['BENCH_COMPARE'] ?? 'gateway,entities,tests').split(',').map((s) => s.trim()).filter(Boolean);
const DURATION = process.env['BENCH_DURATION'] ?? '5';
const READS = process.env['BENCH_READS'] ?? 'runsheet';
const TEST_PROJECTS = (process.env['BENCH_TEST_PROJECTS'] ?? 'libs/contracts,libs/bus,libs/db,libs/auth,apps/entity-service').split(',').map((s) => s.trim());

type Side = 'before' | 'after';
type Metrics = Record<string, number>;

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { status: number | null; out: string; ms: number } {
  const start = performance.now();
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, ms: performance.now() - start };
}

function git(...args: string[]): string {
  const r = run('git', args, ROOT);
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed:\n${r.out}`);
  return r.out.trim();
}

/** Every dependency the before commit names, at the version this checkout names: then its node_modules serve both. */
function incompatibleDependencies(before: Record<string, Record<string, string>>, after: Record<string, Record<string, string>>): string[] {
  const mine = { ...after['dependencies'], ...after['devDependencies'] };
  const out: string[] = [];
  for (const section of ['dependencies', 'devDependencies']) {
    for (const [name, version] of Object.entries(before[section] ?? {})) if (mine[name] !== version) out.push(`${name} ${version} (here: ${mine[name] ?? 'absent'})`);
  }
  for (const [name, version] of Object.entries(before['overrides'] ?? {})) if (after['overrides']?.[name] !== version) out.push(`override ${name} ${String(version)}`);
  return out;
}

/** The before commit's tree, with node_modules and built apps, in its own directory (reused when already built). */
function prepareBefore(): string {
  const sha = git('rev-parse', '--verify', `${BEFORE}^{commit}`);
  const dir = process.env['BENCH_BEFORE_DIR'] ?? path.join(tmpdir(), `pitwall-before-${sha.slice(0, 7)}`);
  if (!existsSync(path.join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    const r = run('sh', ['-c', `git -C "${ROOT}" archive ${sha} | tar -x -C "${dir}"`], ROOT);
    if (r.status !== 0) throw new Error(`git archive ${sha} failed:\n${r.out}`);
  }
  const bad = incompatibleDependencies(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')), JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')));
  const modules = path.join(dir, 'node_modules');
  if (bad.length) {
    // Its own packages (e.g. ts-jest, which its tests ran on): installed once from its own lock file.
    if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) unlinkSync(modules);
    if (!existsSync(modules)) {
      console.log(`${BEFORE} names other packages than this checkout (${bad.join(', ')}): npm ci in ${dir} ...`);
      const r = run('npm', ['ci', '--no-audit', '--no-fund'], dir);
      if (r.status !== 0) throw new Error(`npm ci in ${dir} failed:\n${r.out.slice(-4000)}`);
    }
  } else if (!existsSync(modules)) symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), modules);
  const marker = path.join(dir, 'dist', '.built-from');
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== sha) {
    // The app bundles only (what the benches run): the commit's own type-check passed when it was made.
    const apps = readdirSync(path.join(dir, 'apps')).filter((a) => existsSync(path.join(dir, 'apps', a, 'src', 'main.ts')));
    console.log(`bundling ${apps.join(', ')} of ${sha.slice(0, 7)} in ${dir} ...`);
    for (const app of apps) {
      const r = run(process.execPath, ['tools/build-app.mjs', app], dir);
      if (r.status !== 0) throw new Error(`build of ${app} at ${sha} failed:\n${r.out.slice(-4000)}`);
    }
    writeFileSync(marker, sha);
  }
  projectionFromEnvironment(dir);
  console.log(`before: ${sha.slice(0, 10)} in ${dir}; after: ${git('rev-parse', 'HEAD').slice(0, 10)}${git('status', '--porcelain', '--untracked-files=no') ? ' (with uncommitted changes)' : ''} in ${ROOT}`);
  return dir;
}

const FIXED_INCLUDE = "const include = 'Laps.LapTime,Laps.LapSectors.*';";
/**
 * BENCH_RUNSHEET_INCLUDE reaches the before side's entities bench too: a bench from before that variable existed has
 * the run sheet read's projection written in, and that one line of the before tree's copy is made to read the variable
 * (the measuring code otherwise unchanged; the before tree is this harness's own extract, not a checkout).
 */
function projectionFromEnvironment(dir: string): void {
  if (process.env['BENCH_RUNSHEET_INCLUDE'] === undefined) return;
  const file = path.join(dir, 'tools', 'bench', 'entities.bench.ts');
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8');
  if (text.includes('BENCH_RUNSHEET_INCLUDE')) return;
  // Only the harness's own extract is edited, never a directory the caller named (it may be a working checkout).
  if (process.env['BENCH_BEFORE_DIR'] !== undefined) throw new Error(`${file} does not read BENCH_RUNSHEET_INCLUDE; unset BENCH_BEFORE_DIR to let the harness extract the before commit itself`);
  if (!text.includes(FIXED_INCLUDE)) throw new Error(`${file} neither reads BENCH_RUNSHEET_INCLUDE nor has the line ${FIXED_INCLUDE}`);
  writeFileSync(file, text.replace(FIXED_INCLUDE, "const include = process.env['BENCH_RUNSHEET_INCLUDE'] ?? 'Laps.LapTime,Laps.LapSectors.*';"));
  console.log(`${file}: the run sheet projection now read from BENCH_RUNSHEET_INCLUDE`);
}

const num = (re: RegExp, text: string): number => {
  const m = text.match(re);
  return m ? Number((m[1] as string).replace(/,/g, '')) : NaN;
};

function gatewayMetrics(out: string): Metrics {
  return {
    'full stack req/s': num(/full stack \(gateway -> bus -> entity\)\s+(\d+) req\/s/, out),
    'full stack p99 ms': num(/full stack \(gateway -> bus -> entity\)\s+\d+ req\/s\s+p50\s+\d+ ms\s+p99\s+(\d+) ms/, out),
    'bare express req/s': num(/bare express handler\s+(\d+) req\/s/, out),
    'full/bare %': num(/full\/bare throughput ([\d.]+)%/, out),
    'GET one at a time p50 ms': num(/GET via gateway \(fetch, full stack\)\s+p50\s+([\d.]+) ms/, out),
  };
}

function entitiesMetrics(out: string): Metrics {
  const m: Metrics = {
    'seed laps/s': num(/seeded \d+ laps in [\d.]+ s \((\d+)\/s\)/, out),
    'seed lap sectors/s': num(/lap sectors in [\d.]+ s \((\d+)\/s\)/, out),
  };
  // "<read> at 8 connections:" then "  cached N req/s, p50 N ms, p99 N ms | 10 writes/s ... | cache off ...".
  for (const block of out.matchAll(/^(.+) at \d+ connections:\n\s+cached (\d+) req\/s, p50 (\d+) ms, p99 \d+ ms \| \d+ writes\/s (\d+) req\/s, p50 (\d+) ms, p99 \d+ ms \| cache off (\d+) req\/s, p50 (\d+) ms/gm)) {
    const name = /Search/.test(block[1] as string) ? 'tyre search' : 'run sheet';
    m[`${name} cached req/s`] = Number(block[2]);
    m[`${name} cached p50 ms`] = Number(block[3]);
    m[`${name} 10 writes/s req/s`] = Number(block[4]);
    m[`${name} 10 writes/s p50 ms`] = Number(block[5]);
    m[`${name} cache off req/s`] = Number(block[6]);
    m[`${name} cache off p50 ms`] = Number(block[7]);
  }
  // The answer's size: two commits whose answers differ in size do different work for "the same" read.
  const size = num(/^GET run sheet .*, cache off, \d+ conn .* ([\d.]+) kB\/resp$/m, out);
  if (!Number.isNaN(size)) m['run sheet kB/answer'] = size;
  return m;
}

function bigwritesMetrics(out: string): Metrics {
  return {
    'PUT of BENCH_BIG laps median ms': num(/PUT adding \d+ laps:\s+median (\d+) ms/, out),
    'PUT 300 laps median ms': num(/PUT adding 300 laps:\s+median (\d+) ms/, out),
  };
}

function timingMetrics(out: string): Metrics {
  return {
    'replay updates/s': num(/replay at full speed, \d+ in flight[^:]*: (\d+) updates\/s/, out),
    'replay p50 ms': num(/replay at full speed.*?p50 ([\d.]+) ms/, out),
    'replay p99 ms': num(/replay at full speed.*?p99 ([\d.]+) ms/, out),
    'CPU ms per update': num(/CPU per request, replay update: ([\d.]+) ms in all/, out),
    'read while fed p99 ms': num(/while the replay feeds the account\s+\d+ req\/s\s+p50\s+\d+ ms\s+p99\s+(\d+) ms/, out),
  };
}

type BenchName = 'gateway' | 'entities' | 'bigwrites' | 'timing';
const METRICS: Record<BenchName, (out: string) => Metrics> = { gateway: gatewayMetrics, entities: entitiesMetrics, bigwrites: bigwritesMetrics, timing: timingMetrics };

/** BENCH_SAME_BENCH=1: both sides run this checkout's bench bundle (their own apps: tools/stack.cjs of the side's directory). */
const SAME_BENCH = process.env['BENCH_SAME_BENCH'] === '1';

function benchSide(name: BenchName, dir: string): Metrics {
  const env = { BENCH_DURATION: DURATION, ...(name === 'entities' ? { BENCH_READS: READS } : {}) };
  const bundle = path.join(ROOT, 'dist', 'bench', `${name}.js`);
  if (SAME_BENCH && !existsSync(bundle)) throw new Error(`${bundle} missing: run \`node tools/bench/run.mjs ${name}\` once first`);
  const r = SAME_BENCH ? run(process.execPath, ['--expose-gc', bundle], dir, env) : run(process.execPath, ['tools/bench/run.mjs', name], dir, env);
  const metrics = METRICS[name](r.out);
  if (r.status !== 0 || Object.values(metrics).some((v) => Number.isNaN(v))) {
    console.log(`  (the ${name} bench in ${dir} exited ${r.status}; its output's end:)\n${r.out.slice(-3000)}`);
  }
  return metrics;
}

function jestSide(project: string, dir: string): Metrics {
  const config = ['jest.config.cjs', 'jest.config.ts'].map((f) => path.join(project, f)).find((f) => existsSync(path.join(dir, f)));
  if (!config) return { 'wall s': NaN, tests: NaN };
  const r = run(process.execPath, [path.join(dir, 'node_modules', 'jest', 'bin', 'jest.js'), '-c', config, '--ci'], dir, { NX_NO_CLOUD: 'true', NX_DAEMON: 'false' });
  const passed = num(/Tests:.*?(\d+) passed/, r.out);
  const failed = num(/Tests:.*?(\d+) failed/, r.out);
  if (r.status !== 0) console.log(`  (jest ${config} in ${dir} exited ${r.status}: ${Number.isNaN(failed) ? '' : `${failed} failed`})\n${r.out.slice(-1500)}`);
  return { 'wall s': r.ms / 1000, tests: passed };
}

const median = (values: number[]): number => {
  const v = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? (v[mid] as number) : ((v[mid - 1] as number) + (v[mid] as number)) / 2;
};
const fmt = (v: number): string => (Number.isNaN(v) ? 'n/a' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));

/** ROUNDS rounds of both sides, alternating which goes first; prints each round, then medians and after/before. */
function interleaved(title: string, measure: (side: Side) => Metrics): void {
  console.log(`\n=== ${title}: ${ROUNDS} rounds, sides alternating (ABBA) ===`);
  const results: Record<Side, Metrics[]> = { before: [], after: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order: Side[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    for (const side of order) {
      const m = measure(side);
      results[side].push(m);
      console.log(`  round ${round + 1} ${side.padEnd(6)} ${Object.entries(m).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
    }
  }
  const keys = [...new Set([...results.before, ...results.after].flatMap((m) => Object.keys(m)))];
  console.log(`  ${'median'.padEnd(34)} ${'before'.padStart(9)} ${'after'.padStart(9)} ${'after/before'.padStart(13)}`);
  for (const k of keys) {
    const b = median(results.before.map((m) => m[k] ?? NaN));
    const a = median(results.after.map((m) => m[k] ?? NaN));
    console.log(`  ${k.padEnd(34)} ${fmt(b).padStart(9)} ${fmt(a).padStart(9)} ${(Number.isNaN(a / b) ? 'n/a' : `${(a / b).toFixed(2)}x`).padStart(13)}`);
  }
}

function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

function main(): void {
  const before = prepareBefore();
  const dirOf = (side: Side) => (side === 'before' ? before : ROOT);
  console.log(`node ${process.version}; load average at the start ${loadAverage()} (2 cores shared with everything else on this machine)`);
  for (const what of COMPARE) {
    if (what === 'gateway' || what === 'entities' || what === 'bigwrites' || what === 'timing') {
      interleaved(`npm run bench ${what}${what === 'entities' ? ` (BENCH_READS=${READS})` : ''}, BENCH_DURATION=${DURATION}`, (side) => benchSide(what, dirOf(side)));
    } else if (what === 'tests') {
      for (const project of TEST_PROJECTS) {
        for (const side of ['before', 'after'] as const) jestSide(project, dirOf(side)); // fills jest's transform cache
        interleaved(`jest -c ${project}/jest.config.cjs`, (side) => jestSide(project, dirOf(side)));
      }
    } else throw new Error(`BENCH_COMPARE: unknown comparison ${what} (gateway, entities, bigwrites, timing, tests)`);
    console.log(`  load average now ${loadAverage()}`);
  }
}

main();
