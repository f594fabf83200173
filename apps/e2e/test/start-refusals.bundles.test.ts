import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// tools/stack.cjs reads the apps' list from apps/standalone/apps.json (services first, the gateway last).
// eslint-disable-next-line @nx/enforce-module-boundaries
const { APPS } = require('../../../tools/stack.cjs') as { APPS: string[] };

// Each app's built bundle started as a container or `npm start` starts it (dist/apps/<app>/main.js), with a setting
// that cannot work: the start is refused as every setting's is (docs/operations.md#configuration).
const ROOT = join(__dirname, '..', '..', '..');
const BUNDLES = [...APPS, 'standalone'];

/** Runs a bundle under `env` alone (no server addresses inherited) until it exits. */
function run(app: string, env: Record<string, string>, onOutput?: (stdout: string, stop: () => void) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', app, 'main.js')], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    onOutput?.(stdout, () => child.kill('SIGTERM'));
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('an app started with a setting that cannot work', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-refusals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each(BUNDLES.flatMap((app) => [
    [app, 'MAX_PARAMETER_UPDATES', '-3', 'must be a whole number of 1 or more'],
    [app, 'BUS_TIMEOUT_MS', '3000000000', 'must be a whole number of milliseconds from 1 to 2147483647'],
  ]))('when %s is started with %s=%s, then its only output is one JSON line (LOG_FORMAT=json) naming the variable, without its value or a stack trace, and it exits 1', async (app, name, value, message) => {
    const { code, stdout, stderr } = await run(app, { LOG_FORMAT: 'json', DATA_DIR: join(dir, app), [name]: value });
    expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const { time: _time, ...line } = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 60, err: `Invalid configuration:\n  ${name}: ${message}` });
    expect(JSON.stringify(line)).not.toContain(value);
    expect(stdout).not.toMatch(/\n\s+at /);
  }, 60_000);

  test('when npm start is given PORT=0, then it serves on a free port it names, its signed URLs (the demo\'s seeding) on that port too', async () => {
    let base = '';
    const { code, stdout } = await run('standalone', { LOG_FORMAT: 'json', LOG_LEVEL: 'warn', DATA_DIR: join(dir, 'port-0'), PORT: '0', SIMULATION_STANDIN_PORT: '-1' }, (out, stop) => {
      const banner = /^Pitwall is running on (http:\/\/localhost:(\d+))/m.exec(out);
      if (!banner || base) return;
      base = banner[1] as string;
      void fetch(`${base}/health/ready`).then(
        (r) => (base = `${base} ${r.status}`),
        () => (base = `${base} unreachable`),
      ).finally(stop);
    });
    expect(base).toMatch(/^http:\/\/localhost:[1-9]\d* 200$/);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ApiKey: \S+$/m);
  }, 180_000);
});
