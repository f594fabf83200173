import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { FilesystemBlobStore, UrlSigner } from '@pitwall/blob-store';
import { entityService } from '@pitwall/entity-service';
import { startInProcessStack, type InProcessStack } from '@pitwall/service-host/testing';
import { listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { authHeaders, fakeAuth } from '../support/gateway-harness';

const SECRET = 'component-test-signing-secret';
const MAX_UPLOAD_BYTES = 1024 * 1024;
const json = { ...authHeaders, 'Content-Type': 'application/json' };

interface LogLine {
  level: number;
  msg: string;
  status?: number;
}

describe('PUT /blobs/{attachedFileId} (a signed upload) that its client aborts mid-body', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pitwall-aborted-upload-'));
  const blobDir = join(dir, 'blobs');
  const lines: LogLine[] = [];
  // The gateway's log as its lines, to see what it said of the abort.
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    }),
  );
  let stack: InProcessStack;
  let http: HttpEntryPoint;
  let base: string;

  beforeAll(async () => {
    stack = await startInProcessStack();
    http = await listen(buildGateway({ bus: stack.bus, auth: fakeAuth, logger, attachments: { blobs: new FilesystemBlobStore(blobDir), signer: new UrlSigner(SECRET), maxUploadBytes: MAX_UPLOAD_BYTES } }), 0, '127.0.0.1');
    base = http.address;
    await stack.start(entityService, { BLOB_DIR: blobDir, URL_SIGNING_SECRET: SECRET, PUBLIC_BASE_URL: base, MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), UPLOAD_URL_TTL_S: '600' });
  });
  afterAll(async () => {
    await http?.stop();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when the connection closes after part of the body, then the gateway logs a warning (no error, no 500) and the URL stays usable', async () => {
    const car = await fetch(`${base}/Cars`, { method: 'POST', headers: json, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: `Car ${randomUUID().slice(0, 8)}` }] }) });
    const carId = ((await car.json()) as { Id: string }).Id;
    const prepared = await fetch(`${base}/Cars/${carId}/Attachments`, { method: 'POST', headers: json, body: JSON.stringify({ FileName: 'run.ld', UseCompression: false, AttachedFileGroupName: 'DataFile' }) });
    const { Url } = (await prepared.json()) as { Url: string };
    const url = new URL(Url);

    // Half of a declared 200,000 bytes, then the client goes away.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/octet-stream\r\nContent-Length: 200000\r\n\r\n`);
        socket.write(Buffer.alloc(100_000, 7));
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 300);
      });
      socket.on('error', reject);
    });
    const deadline = Date.now() + 5000;
    while (!lines.some((l) => l.msg.includes('aborted')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

    expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toContain('upload aborted by the client before it was stored; nothing was kept');
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.filter((l) => l.status !== undefined && l.status >= 500)).toEqual([]);

    // Nothing was used up: the whole file goes up on the same URL.
    const whole = await fetch(Url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.alloc(200_000, 7) });
    expect(whole.status).toBeLessThan(300);
  });

  test('when the client half-closes its connection right after the whole body (its FIN), then it is taken as gone: a warning, no 5xx, nothing kept, the URL still usable', async () => {
    lines.length = 0;
    const car = await fetch(`${base}/Cars`, { method: 'POST', headers: json, body: JSON.stringify({ ParameterUpdates: [{ Name: 'Name', Value: `Car ${randomUUID().slice(0, 8)}` }] }) });
    const carId = ((await car.json()) as { Id: string }).Id;
    const prepared = await fetch(`${base}/Cars/${carId}/Attachments`, { method: 'POST', headers: json, body: JSON.stringify({ FileName: 'run.ld', UseCompression: false, AttachedFileGroupName: 'DataFile' }) });
    const { Url, AttachedFileId } = (await prepared.json()) as { Url: string; AttachedFileId: string };
    const url = new URL(Url);

    // The whole body, then the client's sending side shut (its reading side stays open for an answer).
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true }, () => {
        socket.end(Buffer.concat([Buffer.from(`PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/octet-stream\r\nContent-Length: 5\r\n\r\n`), Buffer.from('hello')]));
      });
      let received = '';
      socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    const deadline = Date.now() + 5000;
    while (!lines.some((l) => l.msg.includes('aborted')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

    expect(answer).toBe('');
    expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toContain('upload aborted by the client before it was stored; nothing was kept');
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.filter((l) => l.status !== undefined && l.status >= 500)).toEqual([]);
    const listed = await fetch(`${base}/Cars/${carId}/Attachments`, { headers: authHeaders });
    expect((await listed.json()) as unknown[]).toMatchObject([{ Id: AttachedFileId, Parameters: { FileSize: null, ServerAttachedFileState: 0 } }]);
    const whole = await fetch(Url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: 'hello' });
    expect(whole.status).toBeLessThan(300);
  });
});
