// The whole build of `npm run build`, `npm test` and `npm start`: the repository type-checked once
// (tools/typecheck.mjs: one TypeScript program per set of compiler options, not one per project), then every app
// bundled into dist/apps/<name>/ (tools/build-app.mjs) and the viewer's assets into dist/apps/viewer.
// `nx run <app>:build` still builds one app alone (its own typecheck target, then its bundle), as docker/Dockerfile does.
// `--quiet` prints only failures and one "build ok" line. A build that passed is recorded (tools/build-fingerprint.mjs),
// so `npm start` after it does not build again.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bundleApp } from './build-app.mjs';
import { forgetBuild, inputFingerprint, recordBuild } from './build-fingerprint.mjs';
import { buildViewer } from './build-viewer.mjs';
import { typecheck } from './typecheck.mjs';

/** The apps that bundle into a process: those with a `src/main.ts` run by node (the viewer's is the page's code). */
export const bundledApps = () => readdirSync('apps').filter((name) => name !== 'viewer' && existsSync(join('apps', name, 'src', 'main.ts'))).sort();

const quiet = process.argv.includes('--quiet');
const started = Date.now();
// Of the inputs as they are now: an edit during the build builds again next time.
const fingerprint = inputFingerprint();
forgetBuild();
const errors = typecheck();
if (errors) {
  process.stderr.write(`\nThe build failed: ${errors} type error(s) (above).\n`);
  process.exit(1);
}
const typechecked = Date.now();
const apps = bundledApps();
try {
  await Promise.all([...apps.map((app) => bundleApp(app)), buildViewer(join('dist', 'apps', 'viewer'))]);
} catch (e) {
  process.stderr.write(`\nThe build failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
recordBuild(fingerprint);
const took = (ms) => `${(ms / 1000).toFixed(1)} s`;
if (quiet) process.stderr.write('build ok\n');
else process.stdout.write(`typecheck ${took(typechecked - started)}, bundles ${took(Date.now() - typechecked)}: ${apps.join(', ')}, viewer\n`);
