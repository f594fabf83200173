// What tells a build already done from one to do (tools/build-quiet.mjs asks; tools/build-all.mjs records): the
// inputs' fingerprint (every file's path, size and mtime under apps/, libs/ and tools/ (the simulation stand-in is
// bundled too), the root configs, the node version), kept in dist/.build-fingerprint after a build that passed, so a
// type error is never skipped (a failed build leaves none).
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

/** True when the last build that passed was of these inputs and its outputs are there. */
export const builtFrom = (fingerprint) => existsSync(STAMP) && readFileSync(STAMP, 'utf8') === fingerprint && OUTPUTS.every((f) => existsSync(f));
/** A build begins: what it replaces is no longer a build of anything. */
export const forgetBuild = () => rmSync(STAMP, { force: true });
/** A build that passed, of the inputs as they were when it started (an edit during it builds again). */
export const recordBuild = (fingerprint) => writeFileSync(STAMP, fingerprint);
