// `npm run bench [name...]`: bundles each tools/bench/<name>.bench.ts with esbuild (workspace aliases resolved
// from tsconfig.base.json) into dist/bench/ and runs them one after another in fresh processes.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .filter((n) => wanted.length === 0 || wanted.includes(n));

for (const name of benches) {
  const outfile = join(root, 'dist', 'bench', `${name}.js`);
  await build({
    entryPoints: [join(here, `${name}.bench.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    packages: 'external',
    tsconfig: join(root, 'tsconfig.base.json'),
    logLevel: 'warning',
  });
  console.log(`\n=== bench: ${name} ===`);
  const r = spawnSync(process.execPath, ['--expose-gc', outfile], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exitCode = 1;
}
