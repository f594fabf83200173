import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { bytesAnswer, ClaimDesk, ClaimRedeemer, heldAnswer, InProcessBus, REQUEST_HELD_ANSWER, type BulkAnswer } from '@pitwall/bus';
import { SERVICES } from '@pitwall/contracts';
import { AppError, createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { HeldAnswers } from '../../src/domain/held-answers';
import { ReadLimiter } from '../../src/domain/read-limiter';
import { MemoryCache } from '@pitwall/cache';
import { authHeaders, fakeAuth, send } from '../support/gateway-harness';

const SECRET = 'gateway-claims-test-secret';
const logger = createLogger('gateway-claims-test', 'silent');
const CHUNK = 64 * 1024;

/** `count` chunks of CHUNK bytes (byte k of chunk i is (i + k) % 251), failing after `failAfter`; `aborted` when stopped. */
function produced(count: number, options: { length?: boolean; failAfter?: number; onChunk?: (i: number) => Promise<void> | void } = {}) {
  const state = { aborted: undefined as Promise<unknown> | undefined };
  const answer: BulkAnswer = {
    contentType: 'application/x-service-channels',
    ...(options.length === false ? {} : { length: count * CHUNK }),
    async *chunks(signal) {
      state.aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
      for (let i = 0; i < count; i++) {
        if (i === options.failAfter) throw new Error('the datafile-service died');
        await options.onChunk?.(i);
        yield Uint8Array.from({ length: CHUNK }, (_, k) => (i + k) % 251);
      }
    },
  };
  return { answer, state };
}

/** What the client got: status, headers, bytes, and whether the transfer ended complete or was aborted. */
function read(baseUrl: string, path: string, options: { goAfterBytes?: number } = {}): Promise<{ status: number; headers: Record<string, unknown>; bytes: number; complete: boolean; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseUrl), { headers: { ...authHeaders, Accept: 'application/x-service-channels' } }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      // The body's first 4 chunks' worth of bytes (however the transfer split them).
      const done = (complete: boolean) => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, complete, body: Buffer.concat(chunks).subarray(0, 4 * CHUNK).toString('latin1') });
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (bytes - c.length < 4 * CHUNK) chunks.push(c);
        if (options.goAfterBytes !== undefined && bytes >= options.goAfterBytes) {
          req.destroy();
          done(false);
        }
      });
      res.on('end', () => done(true));
      res.on('error', () => done(false));
    });
    req.on('error', (err) => (options.goAfterBytes === undefined ? reject(err) : undefined));
    req.end();
  });
}

describe('a data file read answered with a claim: the gateway fetches it from the instance that made it', () => {
  let bus: InProcessBus;
  let desk: ClaimDesk;
  let http: HttpEntryPoint;
  let bare: HttpEntryPoint;
  let redeemer: ClaimRedeemer;
  /** What the stand-in datafile-service answers the next read with. */
  let next: () => Promise<BulkAnswer> | BulkAnswer;
  /** Run in the stand-in after it made its reply (e.g. spend the claim before the gateway can). */
  let afterReply: ((claimId: string) => Promise<void>) | undefined;
  /** The account the stand-in makes its claims for (default: the caller's). */
  let claimAccount: string | undefined;
  /** The headers of the stand-in's last request. */
  let asked: Record<string, string | undefined> = {};
  /** A gateway that holds large answers (HELD_ANSWERS_BYTES). */
  let holding: HttpEntryPoint;
  /** A gateway whose log lines (JSON) are kept in `logged`. */
  let logging: HttpEntryPoint;
  const logged: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    bus = new InProcessBus({ logger });
    desk = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 4096, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
    await desk.start();
    await bus.serve(SERVICES.datafile, async (request) => {
      const accountId = (request.payload as { caller: { accountId: string } }).caller.accountId;
      asked = request.headers;
      const reply = await desk.reply(await next(), claimAccount ?? accountId);
      if (reply.claim && afterReply) await afterReply(reply.claim.id);
      return reply;
    });
    redeemer = new ClaimRedeemer({ secret: SECRET, inProcess: false, logger });
    http = await listen(buildGateway({ bus, auth: fakeAuth, logger, claims: redeemer }), 0, '127.0.0.1');
    bare = await listen(buildGateway({ bus, auth: fakeAuth, logger }), 0, '127.0.0.1');
    holding = await listen(buildGateway({ bus, auth: fakeAuth, logger, claims: redeemer, heldAnswers: new HeldAnswers(64 * 1024 * 1024) }), 0, '127.0.0.1');
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line) as { level: number; msg: string });
        done();
      },
    });
    logging = await listen(buildGateway({ bus, auth: fakeAuth, logger: createLogger('gateway-claims-logged', 'info', 'json', sink), claims: redeemer }), 0, '127.0.0.1');
  });
  beforeEach(() => {
    afterReply = undefined;
    claimAccount = undefined;
  });
  afterAll(async () => {
    await http.stop();
    await bare.stop();
    await holding.stop();
    await logging.stop();
    redeemer.close();
    await desk.stop();
    await bus.close();
  });

  const path = `/RunSheets/${randomUUID()}/DataFileAccess/DataFile/channel?channel=Speed`;

  test('when the answer is claimed, then the client gets it whole, streamed with its Content-Length', async () => {
    next = () => produced(64).answer;
    const got = await read(http.address, path);
    expect(got).toMatchObject({ status: 200, bytes: 64 * CHUNK, complete: true });
    expect(got.headers['content-length']).toBe(String(64 * CHUNK));
    expect(got.headers['content-type']).toBe('application/x-service-channels');
    expect(desk.waitingCount).toBe(0);
  });

  test('when the answer\'s length is not known, then it is sent chunked and ends with its terminating chunk', async () => {
    next = () => produced(16, { length: false }).answer;
    const got = await read(http.address, path);
    expect(got).toMatchObject({ status: 200, bytes: 16 * CHUNK, complete: true });
    expect(got.headers['transfer-encoding']).toBe('chunked');
  });

  test('when a small answer rides the bus inline, then it is answered as before', async () => {
    next = () => bytesAnswer(Uint8Array.from([1, 2, 3]), 'application/x-service-channels');
    const got = await read(http.address, path);
    expect(got).toMatchObject({ status: 200, bytes: 3, complete: true });
  });

  test.each([
    ['with a Content-Length', true],
    ['chunked', false],
  ])('when the service dies mid-answer (%s), then the client\'s transfer is aborted, never a complete shorter body', async (_name, length) => {
    next = () => produced(64, { length, failAfter: 20 }).answer;
    const got = await read(http.address, path);
    expect(got.status).toBe(200);
    expect(got.complete).toBe(false);
    expect(got.bytes).toBeLessThan(64 * CHUNK);
  });

  /** A request line of HTTP/1.0 (as curl -0, or nginx's default proxy_http_version): the raw answer until the gateway closes. */
  const asHttp10 = (baseUrl: string, extra: Record<string, string> = {}): Promise<string> =>
    new Promise((resolve, reject) => {
      const { hostname, port } = new URL(baseUrl);
      const socket = connect(Number(port), hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
      const headers = { ...authHeaders, Accept: 'application/x-service-channels', ...extra };
      socket.write(`GET ${path} HTTP/1.0\r\nHost: ${hostname}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
    });

  test('when an answer of unknown length is asked over HTTP/1.0, whose only end is the connection closing (as an aborted transfer\'s), then 505 before it is fetched, and its producer is stopped', async () => {
    const { answer, state } = produced(4096, { length: false });
    next = () => answer;
    const raw = await asHttp10(http.address);
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 505 HTTP Version Not Supported');
    expect(raw).toContain('application/problem+json');
    expect(raw).toContain('ask over HTTP/1.1');
    expect(await state.aborted).toBeInstanceOf(Error);
    expect(desk.waitingCount).toBe(0);
  });

  test('when an answer of known length is asked over HTTP/1.0, even accepting gzip, then it comes whole with its Content-Length, not compressed', async () => {
    next = () => produced(8).answer;
    const raw = await asHttp10(http.address, { 'Accept-Encoding': 'gzip' });
    const end = raw.indexOf('\r\n\r\n');
    const [head, body] = [raw.slice(0, end), raw.slice(end + 4)];
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head.toLowerCase()).toContain(`content-length: ${8 * CHUNK}`);
    expect(head.toLowerCase()).not.toContain('content-encoding');
    expect(body.length).toBe(8 * CHUNK);
  });

  test('when a claimed answer is asked with HEAD, then its head comes with its length, and the producer is stopped rather than read to its end', async () => {
    const { answer, state } = produced(4096);
    next = () => answer;
    const head = await fetch(new URL(path, http.address), { method: 'HEAD', headers: { ...authHeaders, Accept: 'application/x-service-channels' } });
    expect({ status: head.status, length: head.headers.get('content-length'), type: head.headers.get('content-type') }).toEqual({ status: 200, length: String(4096 * CHUNK), type: 'application/x-service-channels' });
    await expect(state.aborted).resolves.toBeDefined();
    expect(desk.waitingCount).toBe(0);
  });

  test('when a client leaves a limited read before its answer, then its read slot is held until the service answered and the claim was spent (leaving does not start reads without bound)', async () => {
    const limiter = new ReadLimiter(new MemoryCache(), { perUser: 1, queue: 0 });
    const limited = await listen(buildGateway({ bus, auth: fakeAuth, logger, claims: redeemer, readLimiter: limiter }), 0, '127.0.0.1');
    try {
      let answerA!: () => void;
      const asked = new Promise<void>((resolve) => {
        next = () =>
          new Promise<BulkAnswer>((done) => {
            resolve();
            answerA = () => done(produced(64).answer);
          });
      });
      // Read A: sent, then its client leaves while the service is still making it.
      const a = request(new URL(path, limited.address), { headers: { ...authHeaders, Accept: 'application/x-service-channels' } });
      a.on('error', () => undefined);
      a.end();
      await asked;
      a.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Its read is still running at the service: the user's one slot is still taken.
      const b = await send(limited.address, 'GET', path, { headers: authHeaders });
      expect(b.status).toBe(429);
      next = () => produced(2).answer;
      answerA();
      // Once A's answer came (and its claim was spent), the slot is free again.
      let c = await send(limited.address, 'GET', path, { headers: authHeaders });
      for (let i = 0; i < 50 && c.status === 429; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        c = await send(limited.address, 'GET', path, { headers: authHeaders });
      }
      expect(c.status).toBe(200);
      expect(desk.waitingCount).toBe(0);
    } finally {
      await limited.stop();
      await limiter.close();
    }
  });

  test('when the client goes mid-answer, then the producer at the service is stopped', async () => {
    const { answer, state } = produced(4096);
    next = () => answer;
    const got = await read(http.address, path, { goAfterBytes: CHUNK });
    expect(got.complete).toBe(false);
    await expect(state.aborted).resolves.toBeDefined();
  });

  test('when the client goes mid-answer, then the gateway logs it as the client\'s doing (info); when the service breaks off, as a warning', async () => {
    const until = async (msg: string) => {
      for (let i = 0; i < 100 && !logged.some((l) => l.msg === msg); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      return logged.filter((l) => l.msg === msg).map((l) => l.level);
    };
    logged.length = 0;
    next = () => produced(4096).answer;
    await read(logging.address, path, { goAfterBytes: CHUNK });
    expect(await until('the client went before the claimed answer ended; its producer is stopped')).toEqual([30]);
    next = () => produced(64, { failAfter: 20 }).answer;
    expect((await read(logging.address, path)).complete).toBe(false);
    expect(await until('claimed answer broke off before its end: the transfer was aborted')).toEqual([40]);
    expect(logged.filter((l) => l.msg === 'the client went before the claimed answer ended; its producer is stopped')).toHaveLength(1);
  });

  test('when the claim cannot be fetched (spent before the gateway came: expired, redeemed, refused), then 502 problem+json', async () => {
    next = () => produced(64).answer;
    afterReply = async (claimId) => {
      desk.take(claimId, authHeaders.AccountId).body.destroy();
    };
    const got = await send(http.address, 'GET', path, { headers: authHeaders });
    expect(got.status).toBe(502);
    expect(got.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(got.body).detail).toContain('410');
  });

  test('when the claim was made for another account than the caller\'s, then it is not served: 502 naming the 403', async () => {
    next = () => produced(64).answer;
    claimAccount = randomUUID();
    const got = await send(http.address, 'GET', path, { headers: authHeaders });
    expect(got.status).toBe(502);
    expect(JSON.parse(got.body).detail).toContain('403');
  });

  test('when the instance that made the claim is gone before the gateway fetches it, then 503 with Retry-After', async () => {
    const gone = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 4096, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
    await gone.start();
    next = () => produced(64).answer;
    const claimed = await gone.reply(produced(64).answer, authHeaders.AccountId);
    await gone.stop();
    const spy = jest.spyOn(desk, 'reply').mockResolvedValueOnce(claimed);
    try {
      const got = await send(http.address, 'GET', path, { headers: authHeaders });
      expect(got.status).toBe(503);
      expect(got.headers['retry-after']).toBe('1');
    } finally {
      spy.mockRestore();
    }
  });

  test('when a gateway without a redeemer gets a claim, then 502', async () => {
    next = () => produced(64).answer;
    const got = await send(bare.address, 'GET', path, { headers: authHeaders });
    expect(got.status).toBe(502);
  });

  describe('a gateway that holds large answers', () => {
    const heldPath = `/RunSheets/${randomUUID()}/DataFileAccess/DataFile/channel?channel=Held`;
    /** The stand-in as the datafile-service answers: the held answer when the request names its tag, else the tagged bytes. */
    const tagged = (tag: string, count = 16) => () => (asked[REQUEST_HELD_ANSWER] === tag ? heldAnswer(tag, 'application/x-service-channels') : { ...produced(count).answer, tag });

    test('when the service says the held answer still is the answer, then the gateway sends it again itself, whole with its Content-Length', async () => {
      next = tagged('t1');
      const first = await read(holding.address, heldPath);
      expect(first).toMatchObject({ status: 200, bytes: 16 * CHUNK, complete: true });
      expect(asked[REQUEST_HELD_ANSWER]).toBeUndefined();
      const produce = jest.fn(tagged('t1'));
      next = produce;
      const waiting = desk.waitingCount;
      const again = await read(holding.address, heldPath);
      expect(asked[REQUEST_HELD_ANSWER]).toBe('t1');
      expect(produce.mock.results[0]?.value).toMatchObject({ held: true });
      expect(again).toMatchObject({ status: 200, bytes: 16 * CHUNK, complete: true, body: first.body });
      expect(again.headers['content-length']).toBe(String(16 * CHUNK));
      expect(again.headers['content-type']).toBe('application/x-service-channels');
      // No claim was made for it.
      expect(desk.waitingCount).toBe(waiting);
    });

    test('when the answer changed, then the new one is sent and held in its place', async () => {
      next = tagged('t1');
      await read(holding.address, heldPath);
      next = tagged('t2', 8);
      expect(await read(holding.address, heldPath)).toMatchObject({ status: 200, bytes: 8 * CHUNK });
      expect(asked[REQUEST_HELD_ANSWER]).toBe('t1');
      await read(holding.address, heldPath);
      expect(asked[REQUEST_HELD_ANSWER]).toBe('t2');
    });

    test('when the service cannot answer, then its problem is the answer: the held bytes are never sent without its word', async () => {
      next = tagged('t3');
      await read(holding.address, heldPath);
      next = () => {
        throw new AppError(503, 'The datafile-service is overloaded', { retryAfterSeconds: 2 });
      };
      const got = await send(holding.address, 'GET', heldPath, { headers: authHeaders });
      expect(got.status).toBe(503);
      expect(got.headers['content-type']).toContain('application/problem+json');
    });

    test('when the service says the answer is one this gateway does not hold, then 502', async () => {
      next = () => heldAnswer('never-held', 'application/x-service-channels');
      const got = await send(holding.address, 'GET', `/RunSheets/${randomUUID()}/DataFileAccess/DataFile/channel?channel=Other`, { headers: authHeaders });
      expect(got.status).toBe(502);
      expect(JSON.parse(got.body).detail).toBe('The service answered with an answer this gateway does not hold');
    });

    test('when a held answer broke off mid-transfer the first time, then nothing was held: the next read asks for the whole answer', async () => {
      next = () => ({ ...produced(16, { failAfter: 8 }).answer, tag: 't4' });
      const broken = `/RunSheets/${randomUUID()}/DataFileAccess/DataFile/channel?channel=Broken`;
      expect((await read(holding.address, broken)).complete).toBe(false);
      next = tagged('t4');
      expect(await read(holding.address, broken)).toMatchObject({ status: 200, complete: true, bytes: 16 * CHUNK });
      expect(asked[REQUEST_HELD_ANSWER]).toBeUndefined();
    });
  });
});
