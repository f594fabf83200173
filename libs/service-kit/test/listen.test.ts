import { connect } from 'node:net';
import express from 'express';
import { MAX_HEADER_BYTES, listen, type HttpEntryPoint } from '../src';

/** Sends `raw` on a fresh connection and resolves with everything the server wrote before closing it. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end(raw);
  });
}

/** Status, headers (lower-case names) and body of one HTTP/1.1 answer. */
function parse(answer: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('listen: the HTTP server every service answers on', () => {
  let server: HttpEntryPoint;
  let health: HttpEntryPoint;
  beforeAll(async () => {
    const app = express();
    app.get('/echo', (req, res) => void res.json({ length: String(req.query['channel'] ?? '').length }));
    // An answer written in two parts, 50 ms apart.
    app.get('/slow', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '20' });
      res.write('0123456789');
      setTimeout(() => res.end('abcdefghij'), 50);
    });
    server = await listen(app, 0, '127.0.0.1', undefined, { maxHeaderSize: MAX_HEADER_BYTES });
    health = await listen(app, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await server?.stop();
    await health?.stop();
  });

  test('when a URL carries a 16,383-character name percent-encoded at 9 bytes a character, then it is read', async () => {
    const name = encodeURIComponent('…'.repeat(16_383));
    expect(name.length).toBe(147_447);
    const answer = parse(await exchange(server.port, `GET /echo?channel=${name} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { length: 16_383 }]);
  });

  test('when a client asks for a tunnel (CONNECT), then it is a 405 problem+json naming it, and the connection closes', async () => {
    for (const target of ['localhost:22', '/echo']) {
      const answer = parse(await exchange(server.port, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
      expect(answer.status).toBe(405);
      expect(answer.headers).toMatchObject({ 'content-type': 'application/problem+json', allow: 'GET, HEAD, POST, PUT, DELETE, OPTIONS', connection: 'close' });
      expect(JSON.parse(answer.body)).toMatchObject({ status: 405, detail: 'CONNECT is not supported: this server is not a proxy', traceId: answer.headers['x-request-id'] });
    }
    // The server still answers.
    expect(parse(await exchange(server.port, 'GET /echo?channel=ab HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(200);
  });

  test('when the request line and headers pass the limit, then it is a 431 problem+json with a request id, not a bare status line', async () => {
    const answer = parse(await exchange(server.port, `GET /echo HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, title: 'Request Header Fields Too Large', detail: 'The request line and headers are longer than this server takes', traceId: answer.headers['x-request-id'] });
  });

  test("when a server keeps Node's header limit (a health port), then the same URL is a 431 problem+json", async () => {
    const answer = parse(await exchange(health.port, `GET /echo?channel=${encodeURIComponent('…'.repeat(16_383))} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect([answer.status, answer.headers['content-type']]).toEqual([431, 'application/problem+json']);
  });

  test('when bytes that are not HTTP follow a request whose answer is being written, then that answer is not cut into: the connection closes after its first part', async () => {
    // The bad bytes go once the answer's first part has come (while its second is due).
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.once('data', () => socket.write('HELLO THERE\r\n\r\n'));
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).not.toContain('HTTP/1.1 400');
    expect(answer.endsWith('0123456789')).toBe(true);
  });

  test('when the bytes are not HTTP, then it is a 400 problem+json', async () => {
    const answer = parse(await exchange(server.port, 'HELLO THERE\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, detail: expect.stringMatching(/^The request is not valid HTTP\/1\.1/) });
  });
});
