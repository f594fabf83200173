// The process-level twin of docker/compose.yaml: starts the five apps from their bundles (dist/apps/*) as
// separate processes against real PostgreSQL, RabbitMQ and Redis, waits until the gateway is ready, and
// stops them with SIGTERM. Used by `npm run start:distributed` and by the end-to-end tests. Like compose, it gives
// the gateway, the entity-service and the datafile-service one blob directory, and the first two one signing secret.
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const apps = require('../apps/standalone/apps.json');
/** The deployable apps in start order, from apps/standalone/apps.json (the one list, shared with the one-process stack). */
const APPS = [...apps.services, apps.gateway];

/** Ports handed out by this process: a port is free again once its probe closes, so the OS may offer it twice. */
const handedOut = new Set();

/** A port nothing listens on now and that this process has not handed out before (for an app to bind shortly). */
async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const srv = net.createServer();
      srv.unref();
      srv.on('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const { port: p } = srv.address();
        srv.close(() => resolve(p));
      });
    });
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

/** As docker/compose.yaml: the apps given the blob directory (x-blob-env) and the signed-URL settings (x-signed-url-env). */
const BLOB_APPS = new Set(['entity-service', 'datafile-service', 'gateway']);
const SIGNED_URL_APPS = new Set(['entity-service', 'gateway']);

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

async function waitReady(url, deadlineMs, procs) {
  const until = Date.now() + deadlineMs;
  let last = '';
  while (Date.now() < until) {
    const dead = procs.find((p) => p.child.exitCode !== null);
    if (dead) throw new Error(`${dead.name} exited with code ${dead.child.exitCode}:\n${dead.output.slice(-2000)}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
      last = `${r.status} ${await r.text()}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${deadlineMs} ms (last: ${last})`);
}

/**
 * @param {{ env?: Record<string,string>, port?: number, apps?: string[], echo?: boolean, readyTimeoutMs?: number, readyPath?: string }} options
 * env must carry DATABASE_URL, AMQP_URL and REDIS_URL (and BUS_PREFIX/REDIS_PREFIX to isolate a run).
 */
async function startStack(options = {}) {
  const env = { ...process.env, ...options.env };
  const port = options.port ?? (await freePort());
  const procs = [];
  const attachments = attachmentEnv(env);
  for (const name of options.apps ?? APPS) {
    // Signed attachment URLs point at this stack's gateway unless PUBLIC_BASE_URL says otherwise.
    const appEnv = {
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      ...env,
      ...(BLOB_APPS.has(name) ? attachments.blobs : {}),
      ...(SIGNED_URL_APPS.has(name) ? attachments.signedUrls : {}),
      HEALTH_PORT: String(await freePort()),
      PORT: String(port),
    };
    // apps.json's nodeArgs (what every app process starts with), then STACK_NODE_ARGS: node options for every app
    // (profiling: "--cpu-prof --cpu-prof-dir=/tmp/prof", which NODE_OPTIONS refuses).
    const nodeArgs = [...apps.nodeArgs, ...(env.STACK_NODE_ARGS ?? '').split(' ').filter(Boolean)];
    const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'dist', 'apps', name, 'main.js')], { env: appEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = { name, child, output: '', healthPort: Number(appEnv.HEALTH_PORT) };
    const collect = (chunk) => {
      proc.output = (proc.output + chunk.toString()).slice(-200_000);
      if (options.echo) process.stdout.write(`[${name}] ${chunk}`);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    procs.push(proc);
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise((resolve) => {
            if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve(p.child.exitCode);
            const timer = setTimeout(() => p.child.kill('SIGKILL'), 12_000);
            p.child.once('exit', (code) => {
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
    await waitReady(`${baseUrl}${options.readyPath ?? '/health/ready'}`, options.readyTimeoutMs ?? 30_000, procs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl, port, procs, stop };
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

module.exports = { startStack, freePort, deleteBusTopology, APPS };

if (require.main === module) {
  const missing = ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL'].filter((k) => !process.env[k]);
  if (missing.length) {
    console.error(`start-distributed needs ${missing.join(', ')} (the real servers); for the embedded stack use npm start`);
    process.exit(2);
  }
  startStack({ port: Number(process.env.PORT ?? 8080), echo: true }).then(
    (stack) => {
      console.log(`Pitwall (distributed: ${APPS.length} processes) on ${stack.baseUrl}`);
      const stopAll = () => stack.stop().then(() => process.exit(0));
      process.on('SIGTERM', stopAll);
      process.on('SIGINT', stopAll);
    },
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
