import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { bytesAnswer, ClaimDesk, ClaimRedeemer, InProcessBus, type BulkAnswer } from '@pitwall/bus';
import { SERVICES } from '@pitwall/contracts';
import { createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
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
      const done = (complete: boolean) => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, complete, body: Buffer.concat(chunks).toString() });
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (chunks.length < 4) chunks.push(c);
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

  beforeAll(async () => {
    bus = new InProcessBus({ logger });
    desk = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 4096, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
    await desk.start();
    await bus.serve(SERVICES.datafile, async (request) => {
      const accountId = (request.payload as { caller: { accountId: string } }).caller.accountId;
      const reply = await desk.reply(await next(), claimAccount ?? accountId);
      if (reply.claim && afterReply) await afterReply(reply.claim.id);
      return reply;
    });
    redeemer = new ClaimRedeemer({ secret: SECRET, inProcess: false, logger });
    http = await listen(buildGateway({ bus, auth: fakeAuth, logger, claims: redeemer }), 0, '127.0.0.1');
    bare = await listen(buildGateway({ bus, auth: fakeAuth, logger }), 0, '127.0.0.1');
  });
  beforeEach(() => {
    afterReply = undefined;
    claimAccount = undefined;
  });
  afterAll(async () => {
    await http.stop();
    await bare.stop();
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

  test('when the client goes mid-answer, then the producer at the service is stopped', async () => {
    const { answer, state } = produced(4096);
    next = () => answer;
    const got = await read(http.address, path, { goAfterBytes: CHUNK });
    expect(got.complete).toBe(false);
    await expect(state.aborted).resolves.toBeDefined();
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
});
