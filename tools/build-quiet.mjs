// `npm start` / `npm run admin` / `npm run bench` build first (tools/build-all.mjs); only failures and "build ok" show.
// A tree unchanged since the last successful build (`node tools/build-all.mjs` or this) is not built again
// (tools/build-fingerprint.mjs). `--force` builds whatever the fingerprint says.
import { spawnSync } from 'node:child_process';
import { builtFrom, inputFingerprint } from './build-fingerprint.mjs';

if (builtFrom(inputFingerprint()) && !process.argv.includes('--force')) {
  process.stderr.write('build ok (unchanged since the last build)\n');
  process.exit(0);
}
// A first build takes about a minute on two cores, with nothing else to show meanwhile.
process.stderr.write('building: type-checking the repository and bundling every app (about a minute the first time)...\n');
const r = spawnSync(process.execPath, ['tools/build-all.mjs', '--quiet'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
