import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@pitwall/db/testing';
import { uniquePrefix } from '@pitwall/testing';
import { AMQP_URL, REDIS_URL } from './support/distributed';

// eslint-disable-next-line @nx/enforce-module-boundaries
const { freePort, freePortRun, deleteBusTopology, startStack, APPS } = require('../../../tools/stack.cjs') as {
  freePort(): Promise<number>;
  freePortRun(count: number): Promise<number>;
  deleteBusTopology(amqpUrl: string, busPrefix: string): Promise<void>;
  startStack(options: { env: Record<string, string>; readyTimeoutMs?: number }): Promise<unknown>;
  APPS: string[];
};

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

  test('when PORT is 0 and HEALTH_PORT is set, then the gateway is on a free port the supervisor names and each app\'s health port is HEALTH_PORT plus its place; and when it is sent SIGTERM, then every app\'s last line and its own say they stopped, with exit code 0', async () => {
    // Below the ephemeral range, where no outgoing connection of a test alongside takes one of them before the apps bind
    // (CI on 1 December: a health port at 54895 was refused).
    const healthPort = await freePortRun(APPS.length);
    const run = startDistributed({ ...env, PORT: '0', HEALTH_PORT: String(healthPort) });
    supervisors.push(run);
    await until(() => /on http:\/\/127\.0\.0\.1:\d+\n/.test(run.stdout), 90_000, 'the stack to start', run);
    const port = Number(/ on http:\/\/127\.0\.0\.1:(\d+)\n/.exec(run.stdout)?.[1]);
    expect(port).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    // Stable addresses for a scraper: the first app's is HEALTH_PORT, the others follow in the order apps.json gives.
    const internal = run.stdout.split('\n').find((line) => line.startsWith('Health and metrics: ')) ?? '';
    expect(internal).toBe(`Health and metrics: ${APPS.map((name, i) => `${name} http://127.0.0.1:${healthPort + i}/metrics`).join(', ')}`);
    for (let i = 0; i < APPS.length; i++) expect((await fetch(`http://127.0.0.1:${healthPort + i}/health`)).status).toBe(200);
    const started = childrenOf(run.child.pid as number);
    apps.push(...started);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(`[stack] stopped (SIGTERM): ${APPS.map((name) => `${name} exit 0`).join(', ')}; exiting 0`);
    for (const name of APPS) {
      const last = run.stdout.split('\n').filter((line) => line.startsWith(`[${name}] `)).at(-1) ?? '';
      expect({ name, last: JSON.parse(last.slice(name.length + 3)) }).toMatchObject({ name, last: { msg: 'stopped (SIGTERM); exiting 0', exitCode: 0 } });
    }
  }, 180_000);

  test.each([
    ['PORT', 'abc', 'must be a port number from 0 (a free one) to 65535'],
    ['STARTUP_WAIT_S', '-1', 'must be a whole number of seconds from 0 to 2147483'],
  ])('when %s is %s, then it stops at once naming it, with exit code 2, and starts nothing', async (name, value, message) => {
    const run = startDistributed({ ...env, [name]: value });
    supervisors.push(run);
    expect({ code: await run.exited, stderr: run.stderr.trim(), stdout: run.stdout }).toEqual({ code: 2, stderr: `Invalid configuration:\n  ${name}: ${message}`, stdout: '' });
  }, 30_000);

  test('when HOST is a name that is not this machine\'s, then it stops at once naming HOST (not "getaddrinfo ENOTFOUND" alone) and starts nothing', async () => {
    const run = startDistributed({ ...env, PORT: String(await freePort()), HOST: 'nohost.invalid' });
    supervisors.push(run);
    const code = await run.exited;
    expect({ code, stderr: run.stderr.trim() }).toEqual({ code: 1, stderr: expect.stringMatching(/^Invalid configuration:\n {2}HOST: is not an address of this machine \((ENOTFOUND|EAI_AGAIN)\); it must be one such as 127\.0\.0\.1, 0\.0\.0\.0 or ::, or a name of one$/) });
    expect(run.stdout).toBe('');
  }, 30_000);

  test('when the apps wait for a dependency that never comes (the broker), then the start ends naming it, as each app\'s readiness or last line says', async () => {
    const prefixHere = uniquePrefix('e2e');
    // The start's whole wait is spent: long enough for every app to be waiting for the broker (the entity-service says
    // so within 5 s at a load of 8, 15 s on a database not yet migrated; the tests above migrated this one).
    const refused = (await startStack({ env: { ...env, AMQP_URL: `amqp://127.0.0.1:${await freePort()}`, BUS_PREFIX: `${prefixHere}.` }, readyTimeoutMs: 20_000 }).then(
      () => 'started',
      (err: Error) => err.message,
    )) as string;
    expect(refused).toMatch(/^the stack was not ready within 20 s: http:\/\/127\.0\.0\.1:\d+\/health\/ready: (its \/health\/ready says [^;]*bus down[^;]*|nothing answers there \(ECONNREFUSED\)); waiting for /);
    // Each app that is not ready says why: its readiness names the bus, or its last line does.
    for (const name of APPS) expect(refused).toMatch(new RegExp(`${name} \\((its /health/ready: bus down|not listening yet; its last line: "[^"]*")\\)`));
    expect(refused).toMatch(/entity-service \((its \/health\/ready: bus down|not listening yet; its last line: "bus could not connect to the broker")\)/);
  }, 90_000);

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
