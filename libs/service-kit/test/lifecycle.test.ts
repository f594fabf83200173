import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(__dirname, '..', '..', '..');

/** The app of support/stopping-app.ts, bundled as the build bundles an app (packages external), run under `env`. */
async function startApp(bundle: string, env: Record<string, string>): Promise<{ lines: () => Record<string, unknown>[]; stop: (signal: NodeJS.Signals) => Promise<number | null> }> {
  const child = spawn(process.execPath, [bundle], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = () => out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  while (!lines().some((l) => l['msg'] === 'ready')) {
    if (child.exitCode !== null) throw new Error(`the app exited before it was ready: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { lines, stop: (signal) => (child.kill(signal), exited) };
}

describe('installProcessHandlers: the last line of a stop', () => {
  // Inside the repository (its tmp/): the bundle finds its packages in the repository's node_modules.
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'tmp', 'lifecycle-'));
  let bundle: string;
  beforeAll(async () => {
    await build({ entryPoints: [join(__dirname, 'support', 'stopping-app.ts')], outdir: dir, bundle: true, platform: 'node', target: 'node24', format: 'cjs', packages: 'external', logLevel: 'warning' });
    bundle = join(dir, 'stopping-app.js');
  }, 30_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('when SIGTERM comes and the stop ends in time, then its last line says stopped with exit code 0, and it exits 0', async () => {
    const app = await startApp(bundle, { CLOSE_MS: '50', DEADLINE_MS: '10000' });
    expect(await app.stop('SIGTERM')).toBe(0);
    expect(app.lines().at(-1)).toMatchObject({ level: 30, msg: 'stopped (SIGTERM); exiting 0', reason: 'SIGTERM', exitCode: 0 });
  }, 30_000);

  test('when the stop outlasts its deadline, then its last line is the deadline\'s error with exit code 1, never "stopped", and it exits 1', async () => {
    const app = await startApp(bundle, { CLOSE_MS: '60000', DEADLINE_MS: '300' });
    expect(await app.stop('SIGTERM')).toBe(1);
    expect(app.lines().at(-1)).toMatchObject({ level: 50, msg: 'shutdown deadline passed (300 ms): exiting 1 with work left undone', exitCode: 1 });
    expect(app.lines().some((l) => String(l['msg']).startsWith('stopped'))).toBe(false);
  }, 30_000);
});
