// Bundles the telemetry viewer (apps/viewer) into static assets: index.html, viewer.js (the page's code with uPlot)
// and viewer.css (uPlot's styles with the page's). No CDN at run time: everything the page loads is in this folder.
// `node tools/build-viewer.mjs [outdir]` (default dist/apps/viewer); tools/build-app.mjs puts a copy beside the
// gateway's and the standalone bundle's main.js, where the gateway serves it from (VIEWER_DIR).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function buildViewer(outdir) {
  const src = join('apps', 'viewer', 'src');
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { viewer: join(src, 'main.ts') },
    outdir,
    bundle: true,
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    format: 'iife',
    minify: true,
    // Written beside the assets for local debugging, named by no asset, and not served (the gateway serves .html, .js, .css).
    sourcemap: 'external',
    tsconfig: join('apps', 'viewer', 'tsconfig.json'),
    logLevel: 'warning',
  });
  copyFileSync(join(src, 'index.html'), join(outdir, 'index.html'));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildViewer(process.argv[2] ?? join('dist', 'apps', 'viewer'));
