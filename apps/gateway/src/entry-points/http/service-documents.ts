import { createHash } from 'node:crypto';
import express from 'express';
import { buildOpenApiDocument } from '@pitwall/contracts';
import { onlyGetAndHead } from '@pitwall/service-kit';
import { ResponseEncoder, StaticBody } from './response-encoding';

/** `/swagger/v1/swagger.json` (generated once from the contracts) and a browsable `/swagger` page. */
export function serviceDocuments(encoder = new ResponseEncoder()): express.Router {
  const router = express.Router();
  let document: StaticBody | undefined;
  const page = new StaticBody(Buffer.from(SWAGGER_PAGE));
  router.get('/swagger/v1/swagger.json', async (req, res) => {
    document ??= new StaticBody(Buffer.from(JSON.stringify(buildOpenApiDocument())));
    res.setHeaders(DOCUMENT_HEADERS);
    await encoder.sendStatic(req, res.type('application/json'), document);
  });
  router.get('/swagger', async (req, res) => {
    res.setHeaders(PAGE_HEADERS);
    await encoder.sendStatic(req, res.type('html'), page);
  });
  router.all(['/swagger', '/swagger/v1/swagger.json'], onlyGetAndHead('the API description'));
  return router;
}

// The page's own inline style and script (below), allowed by their hashes: no other script runs, nothing frames it.
const PAGE_STYLE = `
body{font-family:system-ui,sans-serif;margin:2rem;max-width:72rem;color:#1b1f24}
h1{margin-bottom:.2rem} .tag{margin-top:1.5rem;border-bottom:1px solid #ccd}
details{margin:.3rem 0;border:1px solid #dde;border-radius:4px;padding:.3rem .6rem}
summary{cursor:pointer;font-family:ui-monospace,monospace}
.m{display:inline-block;width:4.5rem;font-weight:bold;text-transform:uppercase}
.get{color:#0a6}.post{color:#06c}.put{color:#b60}.delete{color:#c22}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;font-size:.8rem}
`;

const PAGE_SCRIPT = `
fetch('/swagger/v1/swagger.json').then(r=>r.json()).then(doc=>{
  document.getElementById('info').innerHTML = doc.info.description + ' — <a href="/swagger/v1/swagger.json">OpenAPI ' + doc.openapi + ' document</a>';
  const byTag = {};
  for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) (byTag[(op.tags||['other'])[0]] ??= []).push([method, path, op]);
  const root = document.getElementById('ops');
  for (const [tag, list] of Object.entries(byTag)) {
    const h = document.createElement('h2'); h.className='tag'; h.textContent = tag; root.appendChild(h);
    for (const [method, path, op] of list) {
      const d = document.createElement('details');
      const s = document.createElement('summary');
      s.innerHTML = '<span class="m ' + method + '">' + method + '</span>';
      s.appendChild(document.createTextNode(path + '  ' + (op.summary || '')));
      d.appendChild(s);
      const pre = document.createElement('pre');
      pre.textContent = JSON.stringify({parameters: op.parameters, requestBody: op.requestBody, responses: op.responses}, null, 2);
      d.appendChild(pre); root.appendChild(d);
    }
  }
});
`;

// A dependency-free page: fetches the document and lists every operation with its parameters and responses.
const SWAGGER_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pitwall API</title>
<style>${PAGE_STYLE}</style></head><body>
<h1>Pitwall API</h1><p id="info">Loading <a href="/swagger/v1/swagger.json">/swagger/v1/swagger.json</a>…</p><div id="ops"></div>
<script>${PAGE_SCRIPT}</script></body></html>`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page: its inline script and style by hash, the document fetched from this origin, nothing else. */
export const SWAGGER_PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(PAGE_SCRIPT)}`,
  `style-src ${sha256(PAGE_STYLE)}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Never sniffed as another type; the document is data, never a page that runs anything. */
// Kept by a browser or a client generator, asked again each time (If-None-Match: a 304 while the build is the same).
const PAGE_HEADERS = new Map([
  ['Content-Security-Policy', SWAGGER_PAGE_CSP],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cache-Control', 'no-cache'],
]);
const DOCUMENT_HEADERS = new Map([
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['X-Content-Type-Options', 'nosniff'],
  ['Cache-Control', 'no-cache'],
]);
