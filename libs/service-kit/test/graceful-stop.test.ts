import { connect, type Socket } from 'node:net';
import express from 'express';
import { listen, requestContext, type HttpEntryPoint } from '../src';

/** A keep-alive connection that sends raw requests and collects the answers it reads, and whether the server closed it. */
class Connection {
  readonly socket: Socket;
  private text = '';
  closed = false;
  readonly ready: Promise<void>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('error', () => undefined);
    this.socket.setEncoding('latin1');
    this.socket.on('data', (chunk: string) => void (this.text += chunk));
    this.socket.on('close', () => void (this.closed = true));
  }

  send(path: string): void {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  }

  /** The answers read so far: status, headers (lower-case names) and body (each body is short and has a Content-Length). */
  answers(): { status: number; headers: Record<string, string>; body: string }[] {
    const out: { status: number; headers: Record<string, string>; body: string }[] = [];
    let rest = this.text;
    while (rest.includes('\r\n\r\n')) {
      const end = rest.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      if (rest.length < end + 4 + length) break;
      out.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
      rest = rest.slice(end + 4 + length);
    }
    return out;
  }
}

async function until(what: string, check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Whether a new connection to `port` is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('listen: a graceful stop (SIGTERM)', () => {
  const warn = jest.fn();
  /** Requests held until the test lets them go, by name. */
  let held: Map<string, () => void>;
  let server: HttpEntryPoint;
  let app: express.Express;
  const started = (name: string) => held.has(name);

  beforeEach(async () => {
    warn.mockClear();
    held = new Map();
    app = express();
    app.use(requestContext({ child: () => ({ info: () => undefined }) } as never));
    app.get('/held/:name', (req, res) => void held.set(req.params['name'] as string, () => void (res.headersSent || res.json({ name: req.params['name'] }))));
    app.get('/now', (_req, res) => void res.json({ now: true }));
    // Its head goes out at once, its end when let go.
    app.get('/streaming/:name', (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '4' });
      res.write('ab');
      held.set(req.params['name'] as string, () => void (res.writableEnded || res.end('cd')));
    });
    server = await listen(app, 0, '127.0.0.1', 1500, { logger: { warn } as never });
  });
  afterEach(async () => {
    for (const release of held.values()) release();
    await server.stop();
  });

  test('when a request is in flight on a keep-alive connection, then it is answered whole saying Connection: close, its connection closes after it, and the stop ends only then', async () => {
    const busy = new Connection(server.port);
    busy.send('/now');
    await until('the first answer', () => busy.answers().length === 1);
    expect(busy.answers()[0]?.headers['connection']).toBe('keep-alive');
    busy.send('/held/a');
    await until('the request to be taken', () => started('a'));

    let stopped = false;
    const stopping = server.stop().then(() => void (stopped = true));
    expect(await refused(server.port)).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect({ stopped, closed: busy.closed, inFlight: server.inFlight }).toEqual({ stopped: false, closed: false, inFlight: 1 });

    held.get('a')?.();
    await stopping;
    await until('the connection to close', () => busy.closed);
    expect(busy.answers().map((a) => [a.status, a.headers['connection'], a.body])).toEqual([
      [200, 'keep-alive', '{"now":true}'],
      [200, 'close', '{"name":"a"}'],
    ]);
    expect(warn).not.toHaveBeenCalled();
  });

  test('when a keep-alive connection is idle at the stop, then it is closed at once, while a busy one is still answered', async () => {
    const idle = new Connection(server.port);
    idle.send('/now');
    const busy = new Connection(server.port);
    busy.send('/held/b');
    await until('the idle one answered, the busy one taken', () => idle.answers().length === 1 && started('b'));

    const stopping = server.stop();
    await until('the idle connection to close', () => idle.closed);
    expect(busy.closed).toBe(false);
    held.get('b')?.();
    await stopping;
    await until('the busy connection to close', () => busy.closed);
    expect(busy.answers().map((a) => a.headers['connection'])).toEqual(['close']);
  });

  test('when an answer began before the stop (its head said keep-alive), then it ends whole and its connection closes after it, long before the grace', async () => {
    // A grace far longer than the wait below: the connection must close because its answer ended, not at the grace.
    const patient = await listen(app, 0, '127.0.0.1', 60_000, { logger: { warn } as never });
    const streaming = new Connection(patient.port);
    streaming.send('/streaming/c');
    await until('the head to be sent', () => started('c'));
    const stopping = patient.stop();
    await new Promise((r) => setTimeout(r, 100));
    expect(streaming.closed).toBe(false);
    held.get('c')?.();
    await until('the connection to close', () => streaming.closed);
    await stopping;
    expect(streaming.answers().map((a) => [a.headers['connection'], a.body])).toEqual([['keep-alive', 'abcd']]);
  });

  test('when two requests are pipelined on a connection at the stop, then both are answered, the second saying Connection: close; one pipelined after that is not taken', async () => {
    const piped = new Connection(server.port);
    piped.send('/held/d');
    piped.send('/held/e');
    await until('both taken', () => started('d') && started('e'));
    const stopping = server.stop();
    held.get('e')?.();
    held.get('d')?.();
    piped.send('/held/f');
    await stopping;
    await until('the connection to close', () => piped.closed);
    expect(piped.answers().map((a) => [a.headers['connection'], a.body])).toEqual([
      ['keep-alive', '{"name":"d"}'],
      ['close', '{"name":"e"}'],
    ]);
    expect(started('f')).toBe(false);
  });

  test('when a request is still unanswered as the grace passes, then its connection is cut and the cut is logged at warn with the request count and id, naming SHUTDOWN_GRACE_MS', async () => {
    const slow = new Connection(server.port);
    await slow.ready;
    slow.socket.write('GET /held/g HTTP/1.1\r\nHost: x\r\nX-Request-Id: slow-one\r\n\r\n');
    await until('the request to be taken', () => started('g'));
    await server.stop();
    await until('the connection to be cut', () => slow.closed);
    expect(slow.answers()).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]).toEqual([
      expect.objectContaining({ graceMs: 1500, requestsCut: 1, requestIds: ['slow-one'] }),
      'HTTP server: the shutdown grace (SHUTDOWN_GRACE_MS, 1500 ms) passed with 1 request unanswered; their connections are cut',
    ]);
  });
});
