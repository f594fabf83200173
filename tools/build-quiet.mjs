// `npm start` / `npm run admin` / `npm run bench` build first (tools/build-all.mjs); only failures and "build ok" show.
import { spawnSync } from 'node:child_process';

const r = spawnSync(process.execPath, ['tools/build-all.mjs', '--quiet'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
