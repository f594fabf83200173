import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The repository's root. */
export const REPO_ROOT = join(__dirname, '..', '..', '..');
const MAIN = join(REPO_ROOT, 'dist', 'apps', 'standalone', 'main.js');

export interface Embedded {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  /** The embedded database's URL the banner prints (its password is new on every start); undefined with DATABASE_URL. */
  databaseUrl: string | undefined;
  output: () => string;
  /** SIGTERM, resolving with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, like a crash or the OOM killer: resolves once the process is gone. */
  kill(): Promise<void>;
}

/**
 * A port nothing listens on, for a server a test starts: tools/free-port.cjs (below the ephemeral range, so that no
 * outgoing connection of a test alongside takes it before the server binds it).
 */
export const freePort: () => Promise<number> = require(join(REPO_ROOT, 'tools', 'free-port.cjs')).freePort;

/**
 * Runs `npm start`'s process (the standalone bundle, built into dist/apps/standalone) on `port` with no external
 * server (DATABASE_URL, AMQP_URL, REDIS_URL and VIEWER_DIR are dropped unless `overrides` sets them) and reads the
 * printed key.
 */
export async function startEmbedded(dataDir: string, port: number, overrides: NodeJS.ProcessEnv = {}): Promise<Embedded> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...overrides };
  for (const k of ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'VIEWER_DIR']) if (!(k in overrides)) delete env[k];
  const child: ChildProcess = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c) => (output += c.toString()));
  child.stderr?.on('data', (c) => (output += c.toString()));
  // Generous: PGlite compiles its WebAssembly and runs initdb on a fresh data dir, slow on a loaded machine.
  const deadline = Date.now() + 150_000;
  while (!/^ApiKey: \S+$/m.test(output)) {
    if (child.exitCode !== null) throw new Error(`standalone exited ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`standalone printed no ApiKey in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const pick = (label: string) => (new RegExp(`^${label}: (\\S+)$`, 'm').exec(output) as RegExpExecArray)[1] as string;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    accountId: pick('AccountId'),
    apiKey: pick('ApiKey'),
    databaseUrl: /^Embedded PostgreSQL \(PGlite\): (\S+)$/m.exec(output)?.[1],
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
