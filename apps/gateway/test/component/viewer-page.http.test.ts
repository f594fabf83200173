import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { InProcessBus } from '@pitwall/bus';
import { createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { StaticBody } from '../../src/entry-points/http/response-encoding';
import { fakeAuth } from '../support/gateway-harness';

const root = join(__dirname, '..', '..', '..', '..');

describe('GET /viewer (the telemetry viewer page and its assets)', () => {
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const built = mkdtempSync(join(root, 'tmp', 'viewer-page-'));
  const empty = mkdtempSync(join(root, 'tmp', 'viewer-page-empty-'));
  writeFileSync(join(built, 'index.html'), '<!doctype html><title>viewer</title><script src="/viewer/viewer.js"></script>');
  writeFileSync(join(built, 'viewer.js'), 'console.log(1)');
  writeFileSync(join(built, 'viewer.css'), 'body{}');
  writeFileSync(join(built, 'notes.txt'), 'not an asset type the page serves');
  writeFileSync(join(built, 'viewer.js.map'), '{"version":3,"sourcesContent":["the sources"]}');
  // An asset worth compressing (over RESPONSE_COMPRESSION_MIN_BYTES).
  const large = `/* ${'uPlot and the page '.repeat(2000)} */`;
  writeFileSync(join(built, 'large.js'), large);
  const logger = createLogger('gateway-test', 'silent');
  const bus = new InProcessBus({ logger });
  let withViewer: HttpEntryPoint;
  let unbuilt: HttpEntryPoint;

  beforeAll(async () => {
    withViewer = await listen(buildGateway({ bus, auth: fakeAuth, logger, viewerDir: built }), 0, '127.0.0.1');
    unbuilt = await listen(buildGateway({ bus, auth: fakeAuth, logger, viewerDir: empty }), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await withViewer.stop();
    await unbuilt.stop();
    await bus.close();
    rmSync(built, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  test('when the page is read without an API key, then it is the built HTML with a strict Content-Security-Policy', async () => {
    const res = await fetch(`${withViewer.address}/viewer`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect([res.headers.get('cross-origin-opener-policy'), res.headers.get('x-frame-options'), res.headers.get('permissions-policy')]).toEqual([
      'same-origin',
      'DENY',
      'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), midi=(), display-capture=()',
    ]);
    expect(await res.text()).toContain('<script src="/viewer/viewer.js">');
    expect((await fetch(`${withViewer.address}/viewer/`)).status).toBe(200);
  });

  test('when an asset is read, then it comes with its content type; HEAD answers the headers alone', async () => {
    const js = await fetch(`${withViewer.address}/viewer/viewer.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log(1)');
    expect((await fetch(`${withViewer.address}/viewer/viewer.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const head = await fetch(`${withViewer.address}/viewer/viewer.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  test('when an asset is read again with its ETag, then 304 with no body; with another, the asset', async () => {
    const first = await fetch(`${withViewer.address}/viewer/viewer.js`);
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{32}"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    for (const method of ['GET', 'HEAD']) {
      const again = await fetch(`${withViewer.address}/viewer/viewer.js`, { method, headers: { 'If-None-Match': `"other", ${etag}` } });
      expect([again.status, again.headers.get('etag'), again.headers.get('cache-control'), await again.text()]).toEqual([304, etag, 'no-cache', '']);
    }
    const other = await fetch(`${withViewer.address}/viewer/viewer.js`, { headers: { 'If-None-Match': 'W/"not-this-build"' } });
    expect([other.status, await other.text()]).toEqual([200, 'console.log(1)']);
    expect((await fetch(`${withViewer.address}/viewer/viewer.css`)).headers.get('etag')).not.toBe(etag);
  });

  test.each(['gzip', 'br', 'zstd'])('when an asset is read %s-coded, again and by HEAD, then each answer is the same coded bytes with their length', async (coding) => {
    const lengths: string[] = [];
    for (const method of ['GET', 'GET', 'HEAD']) {
      const res = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = request(`${withViewer.address}/viewer/large.js`, { method, headers: { 'Accept-Encoding': coding } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve({ status: r.statusCode as number, headers: r.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
      expect([res.status, res.headers['content-encoding']]).toEqual([200, coding]);
      lengths.push(res.headers['content-length'] as string);
      if (method === 'GET') {
        const decoded = coding === 'gzip' ? gunzipSync(res.body) : coding === 'br' ? brotliDecompressSync(res.body) : zstdDecompressSync(res.body);
        expect(decoded.toString('utf8')).toBe(large);
        expect(res.body.byteLength).toBe(Number(res.headers['content-length']));
      }
    }
    expect(new Set(lengths).size).toBe(1);
    expect(Number(lengths[0])).toBeLessThan(large.length / 10);
  });

  test('when a static body is asked for in one coding twice, then its compressed bytes are made once and kept (the same buffer)', async () => {
    const body = new StaticBody(Buffer.from(large));
    for (const coding of ['gzip', 'br', 'zstd'] as const) {
      const first = await body.bytes(coding);
      expect(await body.bytes(coding)).toBe(first);
    }
    expect(await body.bytes(undefined)).toBe(body.body);
  });

  test('when a file the viewer does not serve is asked for, then 404 problem+json', async () => {
    for (const path of ['/viewer/missing.js', '/viewer/notes.txt', '/viewer/..%2Fpackage.json', '/viewer/viewer.js.map']) {
      const res = await fetch(`${withViewer.address}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  test('when a long file name is asked for, then the 404 repeats it cut to 64 characters', async () => {
    const res = await fetch(`${withViewer.address}/viewer/${'x'.repeat(5000)}.js`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toBe(`The viewer has no file "${'x'.repeat(64)}…"`);
  });

  test('when an asset name is not valid percent-encoding, then 400 problem+json says so, no-store and nosniff', async () => {
    const res = await fetch(`${withViewer.address}/viewer/%zz.js`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect([res.headers.get('x-content-type-options'), res.headers.get('cache-control')]).toEqual(['nosniff', 'no-store']);
    expect(await res.json()).toMatchObject({ detail: "The path segment '%zz.js' is not valid percent-encoding (write % itself as %25)", errors: { path: ['is not valid percent-encoding'] } });
  });

  test('when the page is written to, then 405 with Allow: GET, HEAD', async () => {
    const res = await fetch(`${withViewer.address}/viewer`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect([res.headers.get('x-content-type-options'), res.headers.get('cache-control')]).toEqual(['nosniff', 'no-store']);
    expect(((await res.json()) as { status: number }).status).toBe(405);
  });

  test.each(['/health', '/health/ready', '/swagger', '/swagger/v1/swagger.json'])('when %s is written to, without a key or with one, then 405 problem+json with Allow: GET, HEAD', async (path) => {
    for (const headers of [{}, { ApiKey: '00000000-0000-4000-8000-000000000001', AccountId: '00000000-0000-4000-8000-000000000002' }]) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await fetch(`${withViewer.address}${path}`, { method, headers });
        expect([res.status, res.headers.get('allow'), res.headers.get('content-type'), res.headers.get('x-content-type-options'), res.headers.get('cache-control')]).toEqual([405, 'GET, HEAD', 'application/problem+json; charset=utf-8', 'nosniff', 'no-store']);
        expect(((await res.json()) as { detail: string }).detail).toMatch(new RegExp(`^${method} is not supported on the (health endpoint|API description); it answers GET, HEAD$`));
      }
    }
  });

  test.each(['/swagger', '/swagger/v1/swagger.json'])('when %s is read again with its ETag, then 304 with no body', async (path) => {
    const first = await fetch(`${withViewer.address}${path}`);
    expect([first.status, first.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    const again = await fetch(`${withViewer.address}${path}`, { headers: { 'If-None-Match': first.headers.get('etag') as string } });
    expect([again.status, await again.text()]).toEqual([304, '']);
  });

  test('when the API is called beside the page, then it still needs the key (401)', async () => {
    expect((await fetch(`${withViewer.address}/Championships`)).status).toBe(401);
  });

  test('when the viewer was not built, then /viewer says how to build it (404, plain text)', async () => {
    const res = await fetch(`${unbuilt.address}/viewer`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toContain('node tools/build-viewer.mjs');
  });
});
