import { readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import express from 'express';
import { AppError, onlyGetAndHead } from '@pitwall/service-kit';
import { ResponseEncoder, StaticBody } from './response-encoding';

/**
 * The telemetry viewer's page and assets (apps/viewer, bundled by tools/build-viewer.mjs) at `/viewer`: GET and HEAD
 * only, no API key (the page asks for one and sends it with its own API calls), a strict Content-Security-Policy
 * (scripts, styles and API calls from this origin only; no inline script, no framing, no form posts).
 */
export const VIEWER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Every powerful feature the page never uses, turned off for it and anything it might embed. */
export const VIEWER_PERMISSIONS = ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()', 'serial=()', 'midi=()', 'display-capture=()'].join(', ');

/** What is served: the page and its code and styles. The build's source maps stay on disk (local debugging only). */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** `dir` holds the built assets; when it has none (the viewer was not built), `/viewer` answers a plain 404. */
export function viewerPage(dir: string, encoder = new ResponseEncoder()): express.Router {
  const router = express.Router();
  let files: Map<string, { body: StaticBody; type: string }> | undefined;
  const load = (): Map<string, { body: StaticBody; type: string }> => {
    if (files) return files;
    const found = new Map<string, { body: StaticBody; type: string }>();
    try {
      for (const name of readdirSync(dir)) {
        const type = TYPES[extname(name)];
        if (type) found.set(name, { body: new StaticBody(readFileSync(join(dir, name))), type });
      }
    } catch {
      // No build: nothing to serve.
    }
    // Read once: the assets do not change while the process runs (a rebuild restarts it).
    if (found.size) files = found;
    return found;
  };
  const send = (name: string) => async (req: express.Request, res: express.Response) => {
    const file = load().get(name);
    res.setHeader('Content-Security-Policy', VIEWER_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    // The page holds an API key: a page that opened it keeps no handle on it (it could set its #link), an older browser
    // that knows no frame-ancestors frames it nowhere, and it asks for no device.
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Permissions-Policy', VIEWER_PERMISSIONS);
    res.setHeader('Cache-Control', 'no-cache');
    if (!file && name === 'index.html') {
      res.status(404).type('text/plain').send('The viewer is not built: run `npm run build` (or `node tools/build-viewer.mjs`).\n');
      return;
    }
    // The name repeated cut: a request line may be as long as the header limit.
    if (!file) throw new AppError(404, `The viewer has no file ${JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name)}`);
    res.type(file.type);
    await encoder.sendStatic(req, res, file.body);
  };
  router.get(['/viewer', '/viewer/'], send('index.html'));
  router.get('/viewer/:file', (req, res) => send(String(req.params['file']))(req, res));
  router.all(['/viewer', '/viewer/', '/viewer/:file'], onlyGetAndHead('the viewer'));
  return router;
}
