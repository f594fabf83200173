// `npm start` / `npm run admin` / `npm run bench` build first (tools/build-all.mjs); only failures and "build ok" show.
// A tree unchanged since the last successful build is not built again: the inputs' fingerprint (every file's path,
// size and mtime under apps/, libs/ and tools/ (the simulation stand-in is bundled too), the root configs, the node version) is kept in
// dist/.build-fingerprint after a build that passed, so a type error is never skipped (a failed build leaves none).
// `--force` builds whatever the fingerprint says.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = join('dist', '.build-fingerprint');
const ROOT_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.base.json'];
// What `npm start`, `npm run admin` and `npm run bench` run: a fingerprint alone does not prove them present.
const OUTPUTS = ['dist/apps/standalone/main.js', 'dist/apps/admin/main.js', 'dist/apps/gateway/main.js', 'dist/apps/viewer'];

function filesUnder(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

export function inputFingerprint() {
  const hash = createHash('sha256').update(process.version);
  const files = [...ROOT_INPUTS.filter((f) => existsSync(f)), ...filesUnder('apps', []), ...filesUnder('libs', []), ...filesUnder('tools', [])].sort();
  for (const file of files) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const fingerprint = inputFingerprint();
const built = existsSync(STAMP) && readFileSync(STAMP, 'utf8') === fingerprint && OUTPUTS.every((f) => existsSync(f));
if (built && !process.argv.includes('--force')) {
  process.stderr.write('build ok (unchanged since the last build)\n');
  process.exit(0);
}
rmSync(STAMP, { force: true });
const r = spawnSync(process.execPath, ['tools/build-all.mjs', '--quiet'], { stdio: 'inherit' });
// Kept only for a build that passed, and of the inputs as they were when it started (an edit during it builds again).
if (r.status === 0) writeFileSync(STAMP, fingerprint);
process.exit(r.status ?? 1);
