import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { build } from 'esbuild';

/** The tsconfig.json nearest above `file` (its project's: its path aliases resolve the workspace's libraries). */
function projectTsconfig(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'tsconfig.json'))) return join(dir, 'tsconfig.json');
    if (dirname(dir) === dir) throw new Error(`no tsconfig.json above ${file}`);
  }
}

/**
 * Bundles a pool worker entry (`src/<name>.worker.entry.ts`) as tools/build-app.mjs does (one CommonJS file, packages
 * external) into `outdir`, named `<name>.worker.entry.js` as the host expects it; returns the bundle's absolute path.
 * Component tests run the sources, not dist/, so a pool needs its worker bundled first. `outdir` must be inside the
 * repository (e.g. under its tmp/): the bundle resolves the external packages from the repository's node_modules.
 */
export async function bundleWorkerEntry(entry: string, outdir: string): Promise<string> {
  const source = resolve(entry);
  await build({
    entryPoints: [source],
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    packages: 'external',
    tsconfig: projectTsconfig(source),
    logLevel: 'warning',
    entryNames: '[name]',
  });
  return join(resolve(outdir), `${basename(source, extname(source))}.js`);
}
