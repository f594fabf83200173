import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const MAIN = join(__dirname, '..', '..', '..', '..', 'dist', 'apps', 'standalone', 'main.js');

export interface Embedded {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  output: () => string;
  /** SIGTERM, resolving with the exit code. */
  stop(): Promise<number | null>;
}

/** Runs `npm start`'s process (the standalone bundle) with no external server and reads the printed key. */
export async function startEmbedded(dataDir: string, port: number, overrides: NodeJS.ProcessEnv = {}): Promise<Embedded> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...overrides };
  for (const k of ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL']) delete env[k];
  const child: ChildProcess = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c) => (output += c.toString()));
  child.stderr?.on('data', (c) => (output += c.toString()));
  // Generous: PGlite compiles its WebAssembly and runs initdb on a fresh data dir, slow on a loaded 2-core machine.
  const deadline = Date.now() + 120_000;
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
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
