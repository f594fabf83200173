import { build } from 'esbuild';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

/** Bundles the service's pool worker as tools/build-app.mjs does, into `outdir`; returns the bundle's absolute path. */
export async function bundleShapeWorker(outdir: string): Promise<string> {
  await build({
    entryPoints: [join(root, 'apps', 'datafile-service', 'src', 'shape.worker.entry.ts')],
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    tsconfig: join(root, 'apps', 'datafile-service', 'tsconfig.json'),
    logLevel: 'warning',
    entryNames: '[name]',
  });
  return join(outdir, 'shape.worker.entry.js');
}
