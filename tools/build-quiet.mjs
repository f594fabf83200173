// `npm start` / `npm run admin` / `npm run bench` build first; show the build's output only when it fails.
import { spawnSync } from 'node:child_process';

const r = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], {
  encoding: 'utf8',
  env: { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false' },
  maxBuffer: 64 * 1024 * 1024,
});
if (r.status !== 0) {
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  process.stderr.write('\nThe build failed (output above).\n');
  process.exit(r.status ?? 1);
}
process.stderr.write('build ok\n');
