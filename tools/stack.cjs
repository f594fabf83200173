// The process-level twin of docker/compose.yaml: starts the five apps from their bundles (dist/apps/*) as
// separate processes against real PostgreSQL, RabbitMQ and Redis, waits until the gateway is ready, restarts a
// process that exits (`supervise`, with backoff: what compose's restart policy does; `npm run start:distributed`
// supervises) and stops them with SIGTERM; they stop by themselves when it dies (an IPC channel each), and a start
// refuses a gateway port already in use. Used by `npm run start:distributed` and by the end-to-end tests. Like
// compose, it gives the gateway, the entity-service and the datafile-service one blob directory, and the first two
// one signing secret. It reads PORT (0: a free one it chooses), HEALTH_PORT (the first app's, the others following)
// and STARTUP_WAIT_S (its wait for the stack outlasts the apps' own) with the apps' rules (docs/operations.md#supervision).
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const apps = require('../apps/standalone/apps.json');
/** The deployable apps in start order, from apps/standalone/apps.json (the one list, shared with the one-process stack). */
const APPS = [...apps.services, apps.gateway];

/** Ports for the apps (tools/free-port.cjs: below the ephemeral range, where outgoing connections take theirs). */
const { freePort, freePortRun } = require('./free-port.cjs');

/** As docker/compose.yaml: the apps given the blob directory (x-blob-env) and the signed-URL settings (x-signed-url-env). */
const BLOB_APPS = new Set(['entity-service', 'datafile-service', 'gateway']);
const SIGNED_URL_APPS = new Set(['entity-service', 'gateway']);
/** As compose's x-claim-env: the apps that issue and redeem claims of large answers share CLAIM_SECRET. */
const CLAIM_APPS = new Set(['datafile-service', 'gateway']);

/**
 * What compose's shared `blobs` volume and URL_SIGNING_SECRET are for the containers, for processes on one machine:
 * one absolute blob directory, and one signing secret (URL_SIGNING_SECRET, else the one kept in
 * DATA_DIR/url-signing-secret, made once here before any app starts, so two apps never race to create it).
 */
function attachmentEnv(env) {
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  const blobs = env.BLOB_STORE === 's3' ? {} : { BLOB_DIR: path.resolve(env.BLOB_DIR ?? path.join(dataDir, 'blobs')) };
  if (env.URL_SIGNING_SECRET) return { blobs, signedUrls: { URL_SIGNING_SECRET: env.URL_SIGNING_SECRET } };
  const file = path.join(dataDir, 'url-signing-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, randomBytes(32).toString('base64url'), { mode: 0o600 });
    try {
      fs.linkSync(tmp, file); // atomic, and never replaces a secret another start made meanwhile
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    } finally {
      fs.unlinkSync(tmp);
    }
  }
  return { blobs, signedUrls: { URL_SIGNING_SECRET: fs.readFileSync(file, 'utf8').trim() } };
}

/** A line longer than this (a child writing without newlines) is written in pieces of it, each prefixed. */
const MAX_LINE_CHARS = 1 << 20;

/**
 * `write` gets every line of a child's stream with `[name] ` before it: a chunk may end mid-line and hold many lines,
 * so the partial line is held until its end comes (`end()` writes what is left when the stream ends).
 */
function linePrefixer(name, write) {
  let partial = '';
  const prefixed = (lines) => lines.map((line) => `[${name}] ${line}\n`).join('');
  return {
    push(text) {
      const lines = (partial + text).split('\n');
      partial = lines.pop();
      while (partial.length > MAX_LINE_CHARS) {
        lines.push(partial.slice(0, MAX_LINE_CHARS));
        partial = partial.slice(MAX_LINE_CHARS);
      }
      if (lines.length) write(prefixed(lines));
    },
    end() {
      if (partial) write(prefixed([partial]));
      partial = '';
    },
  };
}

/** Codes of a listen on a host that is not an address of this machine. */
const NOT_THIS_MACHINE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EADDRNOTAVAIL']);

/**
 * Refuses a port something already listens on (another stack, or the apps of a supervisor that died), rather than
 * trusting whatever answers the readiness check there; `what` names the setting, `hostVariable` the interface's.
 */
async function assertPortFree(port, host, what, hostVariable) {
  await new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', (err) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`port ${port} (${what}) is already in use on ${host}: another stack, or the apps of a supervisor that died, may still run there; stop them, or choose another port`)
          : NOT_THIS_MACHINE.has(err.code)
            ? new Error(`Invalid configuration:\n  ${hostVariable}: is not an address of this machine (${err.code}); it must be one such as 127.0.0.1, 0.0.0.0 or ::, or a name of one`)
            : err,
      ),
    );
    srv.listen(port, host, () => srv.close(resolve));
  });
}

/** A setting the supervisor reads itself, refused as the apps refuse theirs (decimal digits, bounds, the variable named). */
function wholeNumberSetting(env, name, fallback, min, max, message) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new Error(`Invalid configuration:\n  ${name}: ${message}`);
  return Number(raw);
}

const PORT_RULE = 'must be a port number from 0 (a free one) to 65535';
/** How much longer than an app's own wait for its database (STARTUP_WAIT_S) the supervisor waits for the stack. */
const READY_MARGIN_S = 60;

/**
 * The supervisor's own reading of the settings it acts on: PORT (0: a free one, chosen here), HEALTH_PORT (0: free
 * ports; else the first app's, the others' following it), and STARTUP_WAIT_S, which its wait for the stack outlasts.
 */
function stackSettings(env) {
  const port = wholeNumberSetting(env, 'PORT', 8080, 0, 65535, PORT_RULE);
  const lastFirst = 65536 - APPS.length;
  const healthPort = wholeNumberSetting(env, 'HEALTH_PORT', 0, 0, lastFirst, `must be 0 (free ports) or a port number up to ${lastFirst}: the ${APPS.length} apps take it and the ports after it`);
  const startupWaitS = wholeNumberSetting(env, 'STARTUP_WAIT_S', 60, 0, 2147483, 'must be a whole number of seconds from 0 to 2147483');
  return { port, healthPort, startupWaitS, readyTimeoutMs: (startupWaitS + READY_MARGIN_S) * 1000 };
}

/** Each app's health port: HEALTH_PORT plus its place in APPS (stable across starts, for Prometheus), else a free one. */
async function healthPortOf(name, healthPort) {
  return healthPort ? healthPort + APPS.indexOf(name) : freePort();
}

/** An address of the interface HEALTH_HOST names, to reach the health ports from this machine. */
function healthAddress(env) {
  const host = env.HEALTH_HOST;
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** What a readiness endpoint says: ready, the parts it reports down, or that nothing answers there. */
async function readinessOf(url) {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(1500) });
    const body = await r.text();
    if (r.ok) return { ready: true, body };
    let dependencies = {};
    try {
      dependencies = JSON.parse(body).dependencies ?? {};
    } catch {
      // not a readiness answer: said as its status alone
    }
    const down = Object.entries(dependencies).filter(([, state]) => state === 'down').map(([name]) => name);
    return { ready: false, status: r.status, body, down };
  } catch (err) {
    return { ready: false, unreachable: err.cause?.code ?? err.name ?? String(err) };
  }
}

/** The last thing an app wrote (its `msg` when it logs JSON), shortened: where a start that is not listening yet is. */
function lastLine(output) {
  const line = output.trimEnd().split('\n').pop() || '(nothing yet)';
  let said = line;
  try {
    const parsed = JSON.parse(line);
    if (typeof parsed.msg === 'string') said = parsed.msg;
  } catch {
    // a pretty or plain line, as it is
  }
  return said.length > 200 ? `${said.slice(0, 200)}…` : said;
}

/**
 * What the stack still waits for, app by app: the dependencies its readiness (its health port's `/health/ready`) says
 * are down, or, for one whose health port does not answer yet, its last line (a start waiting for its database says
 * so there).
 */
async function waitingFor(procs, env) {
  const host = healthAddress(env);
  const parts = [];
  for (const p of procs) {
    const state = await readinessOf(`http://${host}:${p.healthPort}/health/ready`);
    if (state.ready) continue;
    if (state.down?.length) parts.push(`${p.name} (its /health/ready: ${state.down.map((d) => `${d} down`).join(', ')})`);
    else if (state.status) parts.push(`${p.name} (its /health/ready: ${state.status})`);
    else parts.push(`${p.name} (not listening yet; its last line: ${JSON.stringify(lastLine(p.output))})`);
  }
  return parts.join('; ');
}

/**
 * Ready when the gateway says so; a stack of only some apps (a test's, a restart's) is ready when every part its
 * readiness reports down is a service this stack did not start. Past the deadline the error says what the apps still
 * wait for.
 */
async function waitReady(url, deadlineMs, procs, started, env, why) {
  const until = Date.now() + deadlineMs;
  let last;
  while (Date.now() < until) {
    const dead = procs.find((p) => p.child.exitCode !== null);
    if (dead) throw new Error(`${dead.name} exited with code ${dead.child.exitCode}:\n${dead.output.slice(-2000)}`);
    last = await readinessOf(url);
    if (last.ready || (last.status === 503 && onlyOthersDown(last.body, started))) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  const gateway = last?.down?.length ? `its /health/ready says ${last.down.map((d) => `${d} down`).join(', ')}` : last?.status ? `its /health/ready answers ${last.status}` : `nothing answers there (${last?.unreachable ?? 'no answer'})`;
  const apps = await waitingFor(procs, env);
  throw new Error(`the stack was not ready within ${Math.round(deadlineMs / 1000)} s${why ? ` (${why})` : ''}: ${url}: ${gateway}${apps ? `; waiting for ${apps}` : ''}`);
}

/** Whether a readiness answer's down parts are all apps of the stack that this start did not include. */
function onlyOthersDown(body, started) {
  let dependencies;
  try {
    dependencies = JSON.parse(body).dependencies ?? {};
  } catch {
    return false;
  }
  const down = Object.entries(dependencies).filter(([, state]) => state !== 'up').map(([name]) => name);
  return down.length > 0 && down.every((name) => APPS.includes(name) && !started.includes(name));
}

/** Restart delays of a supervised stack: doubling from the first to the last; reset once a process stayed up a while. */
const RESTART_BACKOFF = { firstMs: 500, maxMs: 30_000, stableAfterMs: 60_000 };

/**
 * @param {{ env?: Record<string,string>, port?: number, apps?: string[], echo?: boolean, readyTimeoutMs?: number, readyPath?: string, supervise?: boolean, backoff?: { firstMs?: number, maxMs?: number, stableAfterMs?: number } }} options
 * env must carry DATABASE_URL, AMQP_URL and REDIS_URL (and BUS_PREFIX/REDIS_PREFIX to isolate a run).
 * supervise: once the stack is ready, a process that exits is started again after a delay that doubles while it keeps
 * exiting (backoff), each exit and restart logged (`stack.supervision`, and on stderr with echo), as compose's restart
 * policy does for the containers. Off by default: the tests that kill a process start its replacement themselves.
 */
async function startStack(options = {}) {
  const env = { ...process.env, ...options.env };
  const settings = stackSettings({ HEALTH_PORT: env.HEALTH_PORT, STARTUP_WAIT_S: env.STARTUP_WAIT_S });
  const port = options.port ?? (await freePort());
  const procs = [];
  const attachments = attachmentEnv(env);
  // One secret per stack (kept by each process's environment across restarts); the claim ports stay on loopback.
  const claimSecret = env.CLAIM_SECRET ?? randomBytes(32).toString('base64url');
  const started = options.apps ?? APPS;
  const backoff = { ...RESTART_BACKOFF, ...options.backoff };
  /** What supervision did, one line each (also on stderr with echo). */
  const supervision = [];
  let stopping = false;
  let supervising = false;
  const say = (line) => {
    supervision.push(line);
    if (options.echo) process.stderr.write(`[stack] ${line}\n`);
  };
  const launch = (proc) => {
    // apps.json's nodeArgs (what every app process starts with), then STACK_NODE_ARGS: node options for every app
    // (profiling: "--cpu-prof --cpu-prof-dir=/tmp/prof", which NODE_OPTIONS refuses).
    const nodeArgs = [...apps.nodeArgs, ...(env.STACK_NODE_ARGS ?? '').split(' ').filter(Boolean)];
    // The IPC channel ends with this process, whatever ends it (a kill -9 too): each app then stops as on SIGTERM
    // (runMain's process handlers), rather than live on unsupervised. Containers start the apps without one.
    const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'dist', 'apps', proc.name, 'main.js')], { env: proc.env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8'); // a character split between two chunks is decoded whole
      const echo = options.echo ? linePrefixer(proc.name, (text) => process.stdout.write(text)) : undefined;
      stream.on('data', (text) => {
        proc.output = (proc.output + text).slice(-200_000);
        echo?.push(text);
      });
      stream.once('end', () => echo?.end());
    }
    proc.child = child;
    proc.startedAt = Date.now();
    child.once('exit', (code, signal) => {
      if (!supervising || stopping) return;
      const upMs = Date.now() - proc.startedAt;
      if (upMs >= backoff.stableAfterMs) proc.failures = 0;
      const delayMs = Math.min(backoff.maxMs, backoff.firstMs * 2 ** proc.failures);
      proc.failures += 1;
      say(`${proc.name} (pid ${child.pid}) exited (${signal ? `signal ${signal}` : `code ${code}`}) after ${(upMs / 1000).toFixed(1)} s; restarting in ${(delayMs / 1000).toFixed(1)} s (restart ${proc.restarts + 1})`);
      proc.restartTimer = setTimeout(() => {
        proc.restartTimer = undefined;
        if (stopping) return;
        proc.restarts += 1;
        launch(proc);
        say(`${proc.name} restarted (pid ${proc.child.pid})`);
      }, delayMs);
    });
  };
  // What only this stack may listen on: the gateway's port (else an orphan's readiness could pass for its own), and a
  // fixed claim port.
  if (started.includes(apps.gateway)) await assertPortFree(port, env.HOST || '0.0.0.0', 'PORT, the gateway\'s', 'HOST');
  if (started.includes('datafile-service') && Number(env.CLAIM_PORT)) await assertPortFree(Number(env.CLAIM_PORT), env.CLAIM_HOST || '127.0.0.1', 'CLAIM_PORT, the datafile-service\'s', 'CLAIM_HOST');
  // Fixed health ports (HEALTH_PORT set): each app's must be free too, for the same reason.
  if (settings.healthPort) for (const name of started) await assertPortFree(await healthPortOf(name, settings.healthPort), env.HEALTH_HOST || '127.0.0.1', `HEALTH_PORT + ${APPS.indexOf(name)}, the ${name}'s health port`, 'HEALTH_HOST');
  for (const name of started) {
    // Signed attachment URLs point at this stack's gateway unless PUBLIC_BASE_URL says otherwise.
    const appEnv = {
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      ...env,
      ...(BLOB_APPS.has(name) ? attachments.blobs : {}),
      ...(SIGNED_URL_APPS.has(name) ? attachments.signedUrls : {}),
      ...(CLAIM_APPS.has(name) ? { CLAIM_SECRET: claimSecret } : {}),
      HEALTH_PORT: String(await healthPortOf(name, settings.healthPort)),
      PORT: String(port),
    };
    const proc = { name, child: undefined, output: '', healthPort: Number(appEnv.HEALTH_PORT), env: appEnv, restarts: 0, failures: 0 };
    launch(proc);
    procs.push(proc);
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    stopping = true;
    for (const p of procs) clearTimeout(p.restartTimer);
    await Promise.all(
      procs.map(
        (p) =>
          new Promise((resolve) => {
            if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve(p.child.exitCode);
            const timer = setTimeout(() => p.child.kill('SIGKILL'), 12_000);
            // 'close', not 'exit': its output is read to the end first (its last line says how it stopped).
            p.child.once('close', (code) => {
              clearTimeout(timer);
              resolve(code);
            });
            p.child.kill('SIGTERM');
          }),
      ),
    );
    return procs.map((p) => ({ name: p.name, exitCode: p.child.exitCode, signal: p.child.signalCode }));
  };
  try {
    // As long as the apps themselves wait for their database, and a margin for the rest of their start.
    const readyTimeoutMs = options.readyTimeoutMs ?? settings.readyTimeoutMs;
    const why = options.readyTimeoutMs === undefined ? `STARTUP_WAIT_S ${settings.startupWaitS} s + ${READY_MARGIN_S} s` : '';
    await waitReady(`${baseUrl}${options.readyPath ?? '/health/ready'}`, readyTimeoutMs, procs, started, env, why);
  } catch (err) {
    await stop();
    throw err;
  }
  // A process that dies before the stack was ever ready stops the start (above): a wrong setting, not a crash.
  supervising = options.supervise === true;
  return { baseUrl, port, procs, stop, supervision };
}

/** Removes a run's queues and exchanges (`BUS_PREFIX` = busPrefix) so repeated runs leave nothing on the broker. */
async function deleteBusTopology(amqpUrl, busPrefix) {
  const amqp = require('amqplib');
  // The names come from the contracts, through a small bundle of the standalone app (built with it).
  const topology = require(path.join(ROOT, 'dist', 'apps', 'standalone', 'bus-topology.entry.js')).busTopology(busPrefix, Number(process.env.TIMING_PARTITIONS) || undefined);
  const conn = await amqp.connect(amqpUrl);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    for (const q of topology.queues) await ch.deleteQueue(q).catch(() => undefined);
    for (const x of topology.exchanges) await ch.deleteExchange(x).catch(() => undefined);
    await ch.close().catch(() => undefined);
  } finally {
    await conn.close();
  }
}

/** The supervisor's last line: how each app ended (a clean stop is exit 0; the deadline's kill says SIGKILL), and its own exit code. */
function stoppedLine(reason, ended) {
  const clean = ended.every((e) => e.exitCode === 0);
  const each = ended.map((e) => `${e.name} ${e.signal ? `killed (${e.signal})` : `exit ${e.exitCode}`}`).join(', ');
  return { line: `[stack] stopped (${reason}): ${each}; exiting ${clean ? 0 : 1}`, exitCode: clean ? 0 : 1 };
}

module.exports = { startStack, freePort, freePortRun, deleteBusTopology, linePrefixer, stackSettings, stoppedLine, lastLine, APPS };

if (require.main === module) {
  const missing = ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL'].filter((k) => !process.env[k]);
  if (missing.length) {
    console.error(`start-distributed needs ${missing.join(', ')} (the real servers); for the embedded stack use npm start`);
    process.exit(2);
  }
  let settings;
  try {
    settings = stackSettings(process.env);
  } catch (err) {
    console.error(err.message);
    process.exit(2);
  }
  // PORT=0: a free port chosen here, given to the gateway and kept across its restarts (the line below names it).
  startStack({ ...(settings.port ? { port: settings.port } : {}), echo: true, supervise: true }).then(
    (stack) => {
      console.log(`Pitwall (distributed: ${APPS.length} processes) on ${stack.baseUrl}`);
      // Each app's internal port: /health, /health/ready and /metrics (docs/operations.md#metrics).
      const host = healthAddress(process.env);
      console.log(`Health and metrics: ${stack.procs.map((p) => `${p.name} http://${host}:${p.healthPort}/metrics`).join(', ')}`);
      let stopping;
      const stopAll = (signal) => {
        stopping ??= stack.stop().then((ended) => {
          const { line, exitCode } = stoppedLine(signal, ended);
          console.error(line);
          process.exit(exitCode);
        });
      };
      process.on('SIGTERM', () => stopAll('SIGTERM'));
      process.on('SIGINT', () => stopAll('SIGINT'));
    },
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
