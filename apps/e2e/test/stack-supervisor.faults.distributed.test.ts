import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { uniquePrefix } from '@pitwall/testing';
import { AMQP_URL, REDIS_URL } from './support/distributed';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort, deleteBusTopology, APPS } = require('../../../tools/stack.cjs') as { freePort(): Promise<number>; deleteBusTopology(amqpUrl: string, busPrefix: string): Promise<void>; APPS: string[] };

const ROOT = join(__dirname, '..', '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `npm run start:distributed` as a user runs it (less its build step): `node tools/stack.cjs`, its output gathered. */
interface Supervisor {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

function startDistributed(env: Record<string, string>): Supervisor {
  const child = spawn(process.execPath, [join(ROOT, 'tools', 'stack.cjs')], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Supervisor = { child, stdout: '', stderr: '', exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (run.stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (run.stderr += text));
  return run;
}

async function until(probe: () => boolean, limitMs: number, what: string, run?: Supervisor): Promise<number> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs} ms${run ? `\nstderr: ${run.stderr.slice(-3000)}\nstdout: ${run.stdout.slice(-3000)}` : ''}`);
    await sleep(50);
  }
  return Date.now() - started;
}

/** A process's state letter from /proc (`Z` a zombie: ended, not yet reaped), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}
const running = (pid: number) => ![undefined, 'Z', 'X'].includes(stateOf(pid));

/** The processes whose parent is `pid` (the apps a supervisor started). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether something listens on `port` (on every interface, as the gateway binds). */
async function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(false)));
  });
}

describe('npm run start:distributed (tools/stack.cjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-supervisor-'));
  let db: TestDatabase;
  let env: Record<string, string>;
  let prefix: string;
  /** Every app process a supervisor of these tests started: ended by the tests' clean-up if the supervisor's death did not. */
  const apps: number[] = [];
  const supervisors: Supervisor[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    prefix = uniquePrefix('e2e');
    env = { DATABASE_URL: db.url, AMQP_URL, REDIS_URL, BUS_PREFIX: `${prefix}.`, REDIS_PREFIX: `${prefix}:`, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
  });
  afterAll(async () => {
    for (const s of supervisors) {
      if (s.child.exitCode !== null || s.child.signalCode !== null) continue;
      apps.push(...childrenOf(s.child.pid as number));
      s.child.kill('SIGKILL');
    }
    for (const pid of apps.filter(running)) process.kill(pid, 'SIGKILL');
    await deleteBusTopology(AMQP_URL, `${prefix}.`);
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when it runs, then every line it echoes names its app, whole (a chunk of many lines, or one split between chunks, too); and when it is killed -9, then its apps stop within a few seconds and leave the port free', async () => {
    const port = await freePort();
    const run = startDistributed({ ...env, PORT: String(port) });
    supervisors.push(run);
    await until(() => run.stdout.includes(`on http://127.0.0.1:${port}`), 90_000, 'the stack to start', run);
    // Some traffic, so the apps log while they serve as well as while they start.
    for (let i = 0; i < 20; i++) expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    await sleep(500);

    const lines = run.stdout.split('\n').slice(0, -1);
    // The supervisor's own two lines: where the stack answers, and each app's internal port, whose metrics answer.
    const banner = `Pitwall (distributed: ${APPS.length} processes) on http://127.0.0.1:${port}`;
    const internal = lines.find((line) => line.startsWith('Health and metrics: ')) ?? '';
    const metricsUrls = [...internal.matchAll(/(\S+) (http:\/\/127\.0\.0\.1:\d+\/metrics)/g)].map((m) => [m[1], m[2]] as const);
    expect(metricsUrls.map(([name]) => name).sort()).toEqual([...APPS].sort());
    for (const [, url] of metricsUrls) {
      const scrape = await fetch(url);
      expect([url, scrape.status, (await scrape.text()).includes('process_cpu_user_seconds_total')]).toEqual([url, 200, true]);
    }
    const own = (line: string) => line === banner || line === internal;
    const unnamed = lines.filter((line) => !own(line) && !new RegExp(`^\\[(${APPS.join('|')})\\] \\{.*\\}$`).test(line));
    expect(unnamed).toEqual([]);
    // Each echoed line is one whole JSON log line of the app it names.
    for (const line of lines.filter((l) => !own(l))) {
      const [, name, json] = /^\[([^\]]+)\] (.*)$/.exec(line) as RegExpExecArray;
      expect({ name, app: (JSON.parse(json as string) as { app: string }).app }).toEqual({ name, app: name });
    }
    expect(lines.length).toBeGreaterThan(APPS.length * 3);

    const started = childrenOf(run.child.pid as number);
    apps.push(...started);
    expect(started).toHaveLength(APPS.length);
    run.child.kill('SIGKILL');
    await run.exited;
    const took = await until(() => !started.some(running), 15_000, 'the apps of the killed supervisor to stop');
    expect(took).toBeLessThan(5_000);
    expect(await portTaken(port)).toBe(false);
  }, 180_000);

  describe("when the gateway's port is already taken (by an orphaned gateway that answers ready)", () => {
    let taken: Server;
    afterAll(async () => {
      await new Promise((resolve) => taken?.close(resolve));
    });

    test('then the start is refused at once naming the port, nothing is started, and it never says the stack is up', async () => {
      taken = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}'));
      const port = await freePort();
      await new Promise<void>((resolve) => taken.listen(port, '0.0.0.0', resolve));

      const run = startDistributed({ ...env, PORT: String(port) });
      supervisors.push(run);
      let children: number[] = [];
      const watching = setInterval(() => (children = [...new Set([...children, ...childrenOf(run.child.pid as number)])]), 20);
      let bound: NodeJS.Timeout | undefined;
      const code = await Promise.race([run.exited, new Promise((resolve) => (bound = setTimeout(resolve, 20_000, 'still running')))]);
      clearTimeout(bound);
      clearInterval(watching);
      apps.push(...children);

      expect({ code, stderr: run.stderr.trim() }).toEqual({
        code: 1,
        stderr: `port ${port} (PORT, the gateway's) is already in use on 0.0.0.0: another stack, or the apps of a supervisor that died, may still run there; stop them, or choose another port`,
      });
      expect(run.stdout).not.toContain('Pitwall (distributed');
      expect(children).toEqual([]);
    }, 60_000);
  });
});
