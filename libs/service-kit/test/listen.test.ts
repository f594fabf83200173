import { connect } from 'node:net';
import express from 'express';
import { MAX_HEADER_BYTES, listen, requestPathOf, type HttpEntryPoint } from '../src';
import { MAX_LINGERING_REFUSALS } from '../src/http';

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
      expect(answer.headers).toMatchObject({ 'content-type': 'application/problem+json; charset=utf-8', allow: 'GET, HEAD, POST, PUT, DELETE, OPTIONS', connection: 'close' });
      expect(JSON.parse(answer.body)).toMatchObject({ status: 405, detail: 'CONNECT is not supported: this server is not a proxy', traceId: answer.headers['x-request-id'] });
    }
    // The server still answers.
    expect(parse(await exchange(server.port, 'GET /echo?channel=ab HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(200);
  });

  test('when a request expects something other than 100-continue, then it is a 417 problem+json with a request id and its path (not its query), the request never handled, and the connection closes', async () => {
    for (const expectation of ['200-ok', 'x'.repeat(300)]) {
      const answer = parse(await exchange(server.port, `POST /echo?sig=secret HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: ${expectation}\r\n\r\n{}`));
      expect(answer.status).toBe(417);
      expect(answer.headers).toMatchObject({ 'content-type': 'application/problem+json; charset=utf-8', connection: 'close' });
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const problem = JSON.parse(answer.body) as Record<string, unknown>;
      expect(problem).toMatchObject({ status: 417, title: 'Expectation Failed', instance: '/echo', traceId: answer.headers['x-request-id'] });
      // The expectation is named, cut at 100 characters.
      expect(problem['detail']).toBe(`The expectation ${JSON.stringify(expectation.slice(0, 100))} is not met: this server meets only 100-continue (the request was not read; send it without Expect)`);
    }
    // 100-continue is met as before, and the server still answers.
    const continued = await exchange(server.port, 'GET /echo?channel=ab HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n');
    expect(continued.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n')).toBe(true);
  });

  test('when the request line and headers pass the limit, then it is a 431 problem+json with a request id, not a bare status line', async () => {
    const answer = parse(await exchange(server.port, `GET /echo HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.headers).toMatchObject({ 'content-type': 'application/problem+json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const problem = JSON.parse(answer.body) as Record<string, unknown>;
    expect(problem).toMatchObject({
      status: 431,
      title: 'Request Header Fields Too Large',
      detail: 'The request line and headers are longer than this server takes: at most 192 KiB (196,608 bytes) together (MAX_HEADER_BYTES, fixed: no variable changes it); shorten the URL or the headers',
      traceId: answer.headers['x-request-id'],
    });
    // Its start came in an earlier read than the one that passed the limit: the path cannot be read, and is left out.
    expect(problem).toHaveProperty('instance', '');
  });

  test("when a server keeps Node's header limit (a health port), then the same URL is a 431 problem+json naming Node's limit and the request's path", async () => {
    const answer = parse(await exchange(health.port, `GET /echo?channel=${encodeURIComponent('…'.repeat(16_383))} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect([answer.status, answer.headers['content-type']]).toEqual([431, 'application/problem+json; charset=utf-8']);
    const problem = JSON.parse(answer.body) as { instance: string; detail: string };
    expect(problem.detail).toBe("The request line and headers are longer than this server takes: at most 16 KiB (16,384 bytes) together (Node's limit, set by its --max-http-header-size option); shorten the URL or the headers");
    // The path when the read that passed the limit began with the request line (usual here), else empty: how the
    // kernel cut the bytes into reads is not the test's to choose (requestPathOf's own test below covers both).
    expect(['/echo', '']).toContain(problem.instance);
  });

  test("when a parser error's bytes start with the request line, then the path (not its query) is the problem's instance; else there is none (an empty instance)", () => {
    expect(requestPathOf(Buffer.from(`GET /Channels/a%20b?x=${'a'.repeat(100)} HTTP/1.1\r\nHost: x\r\n`))).toBe('/Channels/a%20b');
    expect(requestPathOf(Buffer.from('GET /plain HTTP/1.1\r\n'))).toBe('/plain');
    expect(requestPathOf(Buffer.from('aaaaaaaa'.repeat(100)))).toBeUndefined();
    expect(requestPathOf(Buffer.from(`GET /${'p'.repeat(5000)} HTTP/1.1\r\n`))).toBeUndefined();
    expect(requestPathOf(undefined)).toBeUndefined();
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
    expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, detail: expect.stringMatching(/^The request is not valid HTTP\/1\.1/) });
    // No request target was read: the problem's instance is empty (the wire's problem always has one).
    expect(JSON.parse(answer.body)).toHaveProperty('instance', '');
  });
});

describe('listen: where it says it is', () => {
  test.each([
    ['0.0.0.0', 'http://0.0.0.0:', 'http://127.0.0.1:'],
    ['127.0.0.1', 'http://127.0.0.1:', 'http://127.0.0.1:'],
  ])('when bound to %s, then bound names that interface (what the start logs) and address a URL to reach it here', async (host, bound, address) => {
    const server = await listen(express(), 0, host);
    try {
      expect(server.bound).toBe(`${bound}${server.port}`);
      expect(server.address).toBe(`${address}${server.port}`);
    } finally {
      await server.stop();
    }
  });
});

describe('listen with bodyIdleTimeoutMs: a request body that stops arriving', () => {
  const IDLE_MS = 300;
  let server: HttpEntryPoint;
  let bodiesRead = 0;
  let handled = 0;
  beforeAll(async () => {
    const app = express();
    app.post('/json', express.json(), (req, res) => {
      handled++;
      res.json({ keys: Object.keys(req.body as object).length });
    });
    // Reads its body only after three idle periods: the wait is the app's, not the client's.
    app.post('/late', (req, res) => {
      setTimeout(() => {
        let n = 0;
        req.on('data', (c: Buffer) => (n += c.length));
        req.on('end', () => {
          bodiesRead++;
          res.json({ bytes: n });
        });
      }, 3 * IDLE_MS);
    });
    server = await listen(app, 0, '127.0.0.1', undefined, { bodyIdleTimeoutMs: IDLE_MS });
  });
  afterAll(() => server?.stop());

  /** Sends `head` then `parts` one every `everyMs`, never ending its side; resolves with what the server wrote before closing. */
  function trickle(head: string, parts: string[], everyMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write(head);
      let i = 0;
      const timer = setInterval(() => (i < parts.length ? socket.write(parts[i++] as string) : clearInterval(timer)), everyMs);
      socket.on('close', () => clearInterval(timer));
    });
  }

  test('when a client sends 7 of 100 declared bytes and stops, then it is a 408 problem+json naming BODY_IDLE_TIMEOUT_MS, and the connection closes', async () => {
    const answer = parse(await trickle('POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a": 1', [], 50));
    expect(answer.status).toBe(408);
    expect(answer.headers).toMatchObject({ 'content-type': 'application/problem+json; charset=utf-8', connection: 'close' });
    expect(JSON.parse(answer.body)).toMatchObject({ status: 408, detail: expect.stringContaining('BODY_IDLE_TIMEOUT_MS'), traceId: answer.headers['x-request-id'] });
  });

  test('when a request with a query (a signed URL\'s signature) stops sending its body, then the 408 names its path alone', async () => {
    const answer = parse(await trickle('POST /json?signature=secret&expires=1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a": 1', [], 50));
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 408, instance: '/json' });
    expect(answer.body).not.toContain('secret');
  });

  test('when the client sends the rest of its body after the 408 came, then it still reads the 408 (the connection lingers) and the request is never handled', async () => {
    const before = handled;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('error', reject);
      socket.on('data', (c) => {
        chunks.push(c);
        // The 408 is here: the client, unaware, sends the rest of its body.
        if (chunks.length === 1) socket.write(' , "b": 2}');
      });
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write('POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{"a": 1');
    });
    expect(parse(answer).status).toBe(408);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(handled).toBe(before);
  });

  test('when a chunked body never sends its last chunk, then it is a 408 too', async () => {
    const answer = parse(await trickle('POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{"a\r\n', [], 50));
    expect(answer.status).toBe(408);
  });

  test('when a client sends slowly but never pauses as long as the bound, then its request is answered', async () => {
    const body = JSON.stringify({ a: 1, b: 2, c: 3 });
    const parts = body.match(/.{1,4}/g) as string[];
    const answer = parse(await trickle(`POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`, parts, IDLE_MS / 3));
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { keys: 3 }]);
  });

  test('when the app itself reads a 1 MiB body only after three times the bound, then the request is answered, not refused', async () => {
    const before = bodiesRead;
    const body = 'x'.repeat(1024 * 1024);
    const answer = parse(await exchange(server.port, `POST /late HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`));
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { bytes: body.length }]);
    expect(bodiesRead).toBe(before + 1);
  });
});

describe('listen with connectionLimits: connections a client holds open', () => {
  let handled = 0;
  const app = express();
  app.get('/ok', (_req, res) => {
    handled++;
    res.json({ ok: true });
  });

  /** A connection that sends the start of a request and never finishes its headers (held until the test closes it). */
  async function dangling(port: number): Promise<{ close(): Promise<void> }> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write('GET /ok HTTP/1.1\r\nHost: x\r\n');
    return { close: () => new Promise<void>((resolve) => socket.once('close', () => resolve()).destroy()) };
  }

  test.each([
    ['one client address', { total: 0, perClient: 3 }, 429, 'This client has 3 connections open, the most one client may while the server is busy (HTTP_MAX_CONNECTIONS_PER_CLIENT); reuse them or close some'],
    ['one client address of a server holding half its most', { total: 6, perClient: 2 }, 429, 'This client has 3 connections open, the most one client may while the server is busy (HTTP_MAX_CONNECTIONS_PER_CLIENT); reuse them or close some'],
    ['the whole server', { total: 3, perClient: 0 }, 503, 'This server has 3 connections open, its most (HTTP_MAX_CONNECTIONS); retry shortly'],
  ])('when %s holds its most connections open with unfinished headers, then one more is answered at once (its request never handled) and closed; once one closes, a new one is served', async (_who, limits, status, detail) => {
    const server = await listen(app, 0, '127.0.0.1', undefined, { connectionLimits: limits });
    try {
      const held = [await dangling(server.port), await dangling(server.port), await dangling(server.port)];
      const before = handled;
      const refused = parse(await exchange(server.port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
      expect(refused.status).toBe(status);
      expect(refused.headers).toMatchObject({ 'content-type': 'application/problem+json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
      expect(refused.headers['retry-after']).toBe('2');
      expect(JSON.parse(refused.body)).toMatchObject({ status, detail });
      expect(handled).toBe(before);

      await held[0]?.close();
      // The server counts the closed connection out once it sees the close (a moment after the client's).
      let served = parse('');
      for (let tries = 0; tries < 50 && served.status !== 200; tries++) {
        if (tries) await new Promise((r) => setTimeout(r, 20));
        served = parse(await exchange(server.port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
      }
      expect(served.status).toBe(200);
      expect(handled).toBe(before + 1);
      await Promise.all(held.slice(1).map((h) => h.close()));
    } finally {
      await server.stop();
    }
  });
});

describe('listen with connectionLimits: refusals a client never reads', () => {
  test('when a client keeps opening connections past the limit and reads none of the refusals, then only MAX_LINGERING_REFUSALS wait to be read; the others are closed without an answer', async () => {
    const server = await listen(express(), 0, '127.0.0.1', undefined, { connectionLimits: { total: 1, perClient: 0 } });
    // Half-open allowed: a client that reads the answer but never closes its side (the server's linger waits for it).
    const sockets: { socket: ReturnType<typeof connect>; bytes: number; ended: boolean }[] = [];
    try {
      const held = connect(server.port, '127.0.0.1');
      await new Promise<void>((resolve) => held.once('connect', () => resolve()));
      for (let i = 0; i < MAX_LINGERING_REFUSALS + 20; i++) {
        const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
        const entry = { socket, bytes: 0, ended: false };
        socket.on('data', (c: Buffer) => (entry.bytes += c.length));
        socket.on('error', () => undefined);
        socket.on('end', () => (entry.ended = true));
        sockets.push(entry);
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()).once('close', () => resolve()));
      }
      await new Promise((r) => setTimeout(r, 300));
      const unanswered = sockets.filter((s) => s.ended && s.bytes === 0).length;
      const answered = sockets.filter((s) => s.bytes > 0).length;
      expect(unanswered).toBeGreaterThanOrEqual(20);
      expect(answered).toBeLessThanOrEqual(MAX_LINGERING_REFUSALS);
      expect(answered).toBeGreaterThan(0);
      held.destroy();
    } finally {
      for (const s of sockets) s.socket.destroy();
      await server.stop();
    }
  });
});

describe('listen with responseIdleTimeoutMs: a client that stops reading its answer', () => {
  const IDLE_MS = 400;
  const MiB = 1024 * 1024;
  const BIG = 16 * MiB;
  const warn = jest.fn();
  let server: HttpEntryPoint;
  // The same app under a bound 16 times the slow reader's pause, so the process's own stalls (a loaded CI machine; the
  // reader and the server share this event loop) do not look like the reader's; the read lasts over twice the bound.
  let patient: HttpEntryPoint;
  let streamed = { chunks: 0, closedEarly: false };
  beforeAll(async () => {
    const app = express();
    // One write of 16 MiB (an answer held in memory, written at once).
    app.get('/big', (_req, res) => void res.set('Content-Length', String(BIG)).end(Buffer.alloc(BIG, 'x')));
    // 64 chunks of 1 MiB, each written once the last drained (a producer held back by its client).
    app.get('/streamed', (_req, res) => {
      streamed = { chunks: 0, closedEarly: false };
      res.once('close', () => void (streamed.closedEarly = !res.writableFinished));
      res.set('Content-Type', 'application/octet-stream');
      const next = (): void => {
        while (streamed.chunks < 64 && !res.destroyed) {
          streamed.chunks += 1;
          if (!res.write(Buffer.alloc(MiB, 'y'))) return void res.once('drain', next);
        }
        if (!res.destroyed) res.end();
      };
      next();
    });
    // The app's own pause: three times the bound before its first byte.
    app.get('/late', (_req, res) => void setTimeout(() => res.json({ late: true }), 3 * IDLE_MS));
    server = await listen(app, 0, '127.0.0.1', undefined, { responseIdleTimeoutMs: IDLE_MS, logger: { warn } as never });
    patient = await listen(app, 0, '127.0.0.1', undefined, { responseIdleTimeoutMs: 4 * IDLE_MS, logger: { warn } as never });
  });
  afterAll(async () => {
    await server?.stop();
    await patient?.stop();
  });
  beforeEach(() => warn.mockClear());

  /**
   * GETs `path` on a fresh connection and reads nothing until `readWhen` resolves (at once when not given), then
   * reads with a pause of `pace.pauseMs` after each `pace.everyBytes`; resolves with all it read once the server closed.
   */
  function get(path: string, options: { readWhen?: Promise<unknown>; pace?: { everyBytes: number; pauseMs: number }; from?: HttpEntryPoint } = {}): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const socket = connect((options.from ?? server).port, '127.0.0.1');
      const chunks: Buffer[] = [];
      let mark = 0;
      let total = 0;
      socket.pause();
      socket.on('data', (c: Buffer) => {
        chunks.push(c);
        total += c.byteLength;
        if (options.pace && total - mark >= options.pace.everyBytes) {
          mark = total;
          socket.pause();
          setTimeout(() => socket.resume(), options.pace.pauseMs);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks)));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      void (options.readWhen ?? Promise.resolve()).then(() => socket.resume());
    });
  }

  const warned = async () => {
    while (warn.mock.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const bodyOf = (answer: Buffer) => answer.subarray(answer.indexOf('\r\n\r\n') + 4);

  test('when a client stops reading a 16 MiB answer written at once, then its connection is closed: the transfer ends short of its Content-Length, and the reason is logged at warn naming RESPONSE_IDLE_TIMEOUT_MS', async () => {
    // Its query a signed URL's credential: the line names the path alone.
    const answer = await get('/big?expires=1&sig=a-signature', { readWhen: warned() });
    expect(answer.toString('latin1', 0, 15)).toBe('HTTP/1.1 200 OK');
    expect(bodyOf(answer).byteLength).toBeLessThan(BIG);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls[0]?.[0])).not.toContain('a-signature');
    expect(warn.mock.calls[0]?.[0]).toMatchObject({ url: '/big', idleMs: IDLE_MS, reason: `the client accepted none of the response's bytes for ${IDLE_MS} ms (RESPONSE_IDLE_TIMEOUT_MS)` });
  });

  test('when a client stops reading a streamed answer, then the answer ends aborted and its producer is let go', async () => {
    const answer = await get('/streamed', { readWhen: warned() });
    expect(answer.toString('latin1', 0, 15)).toBe('HTTP/1.1 200 OK');
    // Chunked: never its last chunk.
    expect(answer.subarray(-5).toString('latin1')).not.toBe('0\r\n\r\n');
    expect(streamed.closedEarly).toBe(true);
    expect(streamed.chunks).toBeLessThan(64);
  });

  test('when a client reads a 16 MiB answer written at once slowly, never pausing as long as the bound, then it gets all of it', async () => {
    const answer = await get('/big', { pace: { everyBytes: 256 * 1024, pauseMs: IDLE_MS / 4 }, from: patient });
    expect(bodyOf(answer).byteLength).toBe(BIG);
    expect(warn).not.toHaveBeenCalled();
  });

  test('when the app takes three times the bound to begin its answer, then the answer comes whole', async () => {
    const answer = await get('/late');
    expect(JSON.parse(bodyOf(answer).toString('utf8'))).toEqual({ late: true });
    expect(warn).not.toHaveBeenCalled();
  });
});
