// Bundles one app into dist/apps/<name>/ (CommonJS, node_modules left external): `node tools/build-app.mjs <app>`.
// Every file matching src/*.entry.ts or src/main.ts becomes its own bundle (e.g. the Piscina worker).
import { build } from 'esbuild';
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildViewer } from './build-viewer.mjs';

export async function bundleApp(name) {
  const src = join('apps', name, 'src');
  const entries = readdirSync(src).filter((f) => f === 'main.ts' || f.endsWith('.entry.ts')).map((f) => join(src, f));
  if (!existsSync(join(src, 'main.ts'))) throw new Error(`${src}/main.ts missing`);
  // The composition runs every service's definition in one process: their pool workers (src/*.worker.entry.ts) are
  // bundled beside its main.js, where a relative pool entry resolves.
  if (name === 'standalone') {
    const { services } = JSON.parse(readFileSync(join('apps', 'standalone', 'apps.json'), 'utf8'));
    for (const app of services) {
      const dir = join('apps', app, 'src');
      entries.push(...readdirSync(dir).filter((f) => f.endsWith('.worker.entry.ts')).map((f) => join(dir, f)));
    }
  }

  await build({
    entryPoints: entries,
    outdir: join('dist', 'apps', name),
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    tsconfig: join('apps', name, 'tsconfig.json'),
    logLevel: 'warning',
    entryNames: '[name]',
  });
  // The gateway serves the telemetry viewer's static assets from `viewer/` beside its bundle (VIEWER_DIR's default), in
  // its own image and in the one-process stack.
  if (name === 'gateway' || name === 'standalone') await buildViewer(join('dist', 'apps', name, 'viewer'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!process.argv[2]) throw new Error('usage: build-app.mjs <app>');
  await bundleApp(process.argv[2]);
}
