import { randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type AppError } from '@pitwall/service-kit';
import { answerBytes, answerTag, bytesAnswer, ClaimDesk, ClaimRedeemer, claimSecret, framedAnswer, heldAnswer, keptAnswer, REPLY_ANSWER_HELD, REPLY_ANSWER_TAG, signClaimToken, type BulkAnswer, type Claim, type EncodedJson } from '../src';

const SECRET = 'claim-check-test-secret';
const logger = createLogger('claim-check-test', 'silent');
const MiB = 1024 * 1024;

/** A producer of `count` chunks of `size` bytes (byte k of chunk i is (i + k) % 251), watching how far it was pulled. */
function counted(count: number, size: number, options: { length?: boolean; failAfter?: number } = {}) {
  const state = { pulled: 0, aborted: undefined as Promise<unknown> | undefined, finished: false };
  const answer: BulkAnswer = {
    contentType: 'application/octet-stream',
    ...(options.length === false ? {} : { length: count * size }),
    async *chunks(signal) {
      state.aborted = new Promise((resolve) => (signal.aborted ? resolve(signal.reason) : signal.addEventListener('abort', () => resolve(signal.reason), { once: true })));
      for (let i = 0; i < count; i++) {
        if (options.failAfter !== undefined && i === options.failAfter) throw new Error('the producer died');
        state.pulled += 1;
        yield Uint8Array.from({ length: size }, (_, k) => (i + k) % 251);
      }
      state.finished = true;
    },
  };
  return { answer, state };
}

function expected(count: number, size: number): Buffer {
  const out = Buffer.alloc(count * size);
  for (let i = 0; i < count; i++) for (let k = 0; k < size; k++) out[i * size + k] = (i + k) % 251;
  return out;
}

/** A redemption over HTTP as the gateway sends it, with the token and account given (or made right). */
function fetchClaim(claim: Claim, options: { accountId?: string; token?: string | null; path?: string } = {}): Promise<{ res: IncomingMessage; body: Promise<Buffer> }> {
  const accountId = options.accountId ?? claim.accountId;
  const token = options.token === undefined ? signClaimToken(SECRET, claim.id, accountId, claim.expiresAt) : options.token;
  return new Promise((resolve, reject) => {
    const req = request(`${claim.address}${options.path ?? `/claims/${claim.id}`}`, { headers: { ...(token !== null ? { authorization: `Claim ${token}` } : {}), 'x-claim-account': accountId } }, (res) => {
      const body = new Promise<Buffer>((done, failed) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(Buffer.concat(chunks)));
        res.on('error', failed);
        res.on('aborted', () => failed(new Error('aborted')));
      });
      body.catch(() => undefined);
      resolve({ res, body });
    });
    req.on('error', reject);
    req.end();
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('the claim check: a large answer stays with its maker and is fetched once by reference', () => {
  let desk: ClaimDesk;
  let redeemer: ClaimRedeemer;
  const account = randomUUID();

  beforeAll(async () => {
    desk = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 64 * 1024, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
    await desk.start();
    redeemer = new ClaimRedeemer({ secret: SECRET, inProcess: false, logger });
  });
  afterAll(async () => {
    redeemer.close();
    // Claims some tests leave waiting are dropped at once: the grace has passed.
    await desk.stop(Date.now());
  });

  async function claimOf(answer: BulkAnswer, accountId = account): Promise<Claim> {
    const reply: EncodedJson = await desk.reply(answer, accountId);
    const claim = reply.claim;
    if (!claim) throw new Error('expected a claim');
    return claim;
  }

  test('when the signal of an answer already in memory aborts while it is read, then its chunks fail instead of ending as a whole answer', async () => {
    const answer = bytesAnswer(new Uint8Array(5 * 1024), 'application/octet-stream', 1024);
    const abort = new AbortController();
    const chunks = answer.chunks(abort.signal)[Symbol.asyncIterator]();
    expect((await chunks.next()).done).toBe(false);
    abort.abort(new Error('claim dropped'));
    await expect(chunks.next()).rejects.toThrow('claim dropped');
    // Read to its end with a signal that never aborts, the same answer is whole.
    let total = 0;
    for await (const chunk of answer.chunks(new AbortController().signal)) total += chunk.byteLength;
    expect(total).toBe(5 * 1024);
  });

  describe('reply', () => {
    test('when an answer is at most CLAIM_INLINE_MAX_BYTES, then its bytes ride the bus inline with their media type', async () => {
      const json = await desk.reply(bytesAnswer(Buffer.from('{"a":1}'), 'application/json'), account);
      expect(json.claim).toBeUndefined();
      expect(json.contentType).toBeUndefined();
      expect(json.parse()).toEqual({ a: 1 });
      const { answer } = counted(4, 16 * 1024, { length: false });
      const binary = await desk.reply(answer, account);
      expect(binary.claim).toBeUndefined();
      expect(binary.contentType).toBe('application/octet-stream');
      expect(binary.json.equals(expected(4, 16 * 1024))).toBe(true);
    });

    test('when an answer of known length is larger, then the reply is a claim naming this instance, the account, the length and an expiry, and nothing was produced yet', async () => {
      const { answer, state } = counted(8, 64 * 1024);
      const claim = await claimOf(answer);
      expect(claim).toMatchObject({ desk: desk.id, accountId: account, contentType: 'application/octet-stream', length: 8 * 64 * 1024 });
      expect(claim.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(claim.expiresAt).toBeGreaterThan(Date.now());
      expect(state.pulled).toBe(0);
      await readAll((await redeemer.redeem(claim, account)).body);
    });

    test('when an answer of unknown length passes the limit as it is pulled, then the reply is a claim on the rest', async () => {
      const { answer, state } = counted(100, 16 * 1024, { length: false });
      const claim = await claimOf(answer);
      expect(claim.length).toBeUndefined();
      expect(state.pulled).toBe(5);
      await readAll((await redeemer.redeem(claim, account)).body);
    });
  });

  describe('tagged answers (the copies a gateway holds)', () => {
    test('when an answer carries a tag, then its reply names it, inline or by claim', async () => {
      const small = await desk.reply({ ...bytesAnswer(Buffer.from('{"a":1}'), 'application/json'), tag: 'small-tag' }, account);
      expect(small.headers[REPLY_ANSWER_TAG]).toBe('small-tag');
      expect(small.parse()).toEqual({ a: 1 });
      const { answer } = counted(8, 64 * 1024);
      const large = await desk.reply({ ...answer, tag: 'large-tag' }, account);
      expect(large.headers[REPLY_ANSWER_TAG]).toBe('large-tag');
      const claim = large.claim as Claim;
      expect((await readAll((await redeemer.redeem(claim, account)).body)).equals(expected(8, 64 * 1024))).toBe(true);
      const untagged = await desk.reply(bytesAnswer(Buffer.from('{}'), 'application/json'), account);
      expect(untagged.headers[REPLY_ANSWER_TAG]).toBeUndefined();
    });

    test('when the asker holds the answer, then the reply says so alone: no bytes, no claim kept, and a frame around it changes nothing', async () => {
      const waiting = desk.waitingCount;
      const reply = await desk.reply(framedAnswer(Buffer.from('{"x":'), heldAnswer('held-tag', 'application/json'), Buffer.from('}')), account);
      expect(reply.headers[REPLY_ANSWER_HELD]).toBe('held-tag');
      expect(reply.claim).toBeUndefined();
      expect(reply.parse()).toBeNull();
      expect(desk.waitingCount).toBe(waiting);
    });

    test('the tag of the same parts is the same; of other parts, or the same text split otherwise, another', () => {
      expect(answerTag('a', 'b')).toBe(answerTag('a', 'b'));
      expect(answerTag('a', 'b')).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(answerTag('a', 'b')).not.toBe(answerTag('a', 'c'));
      expect(answerTag('ab', '')).not.toBe(answerTag('a', 'b'));
    });
  });

  describe('GET /claims/{id} on the claim port', () => {
    test('when redeemed with a token for its account, then the whole answer streams with its Content-Length, and the claim is spent', async () => {
      const { answer, state } = counted(40, 64 * 1024);
      const claim = await claimOf(answer);
      const { res, body } = await fetchClaim(claim);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBe(String(40 * 64 * 1024));
      expect((await body).equals(expected(40, 64 * 1024))).toBe(true);
      expect(state.finished).toBe(true);
      expect(desk.waitingCount).toBe(0);
    });

    test('when the answer was in memory already, then it is sent whole with its Content-Length, over HTTP and in-process alike, and the claim is spent', async () => {
      const bytes = expected(40, 64 * 1024);
      const claim = await claimOf(bytesAnswer(bytes, 'application/x-service-channels'));
      expect(claim).toMatchObject({ length: bytes.byteLength, contentType: 'application/x-service-channels' });
      const { res, body } = await fetchClaim(claim);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBe(String(bytes.byteLength));
      expect((await body).equals(bytes)).toBe(true);
      expect(desk.waitingCount).toBe(0);
      expect((await fetchClaim(claim)).res.statusCode).toBe(410);
      const local = new ClaimRedeemer({ secret: SECRET, inProcess: true, logger });
      const inProcess = await claimOf(bytesAnswer(bytes, 'application/x-service-channels'));
      expect((await readAll((await local.redeem(inProcess, account)).body)).equals(bytes)).toBe(true);
      local.close();
    });

    /** An answer announcing `length` bytes whose producer makes `chunks` (a length bug of an encoder). */
    const lying = (length: number, chunks: number[]): BulkAnswer => ({
      contentType: 'application/octet-stream',
      length,
      async *chunks() {
        for (const [k, n] of chunks.entries()) yield new Uint8Array(n).fill(65 + k);
      },
    });

    test.each([
      ['more bytes than it announced', [64 * 1024 + 10, 2]],
      ['the announced length, then more', [64 * 1024 + 10, 0, 5]],
      ['fewer bytes than it announced', [64 * 1024 + 2]],
    ])('when a producer makes %s, then the redemption fails as an aborted transfer (over HTTP and in-process), and the next claim on the same kept-alive connection gets its own bytes', async (_what, chunks) => {
      const local = new ClaimRedeemer({ secret: SECRET, inProcess: true, logger });
      try {
        for (const via of [redeemer, local]) {
          const claim = await claimOf(lying(64 * 1024 + 10, chunks));
          await expect((async () => readAll((await via.redeem(claim, account)).body))()).rejects.toThrow();
          // Right after, on the connection the redeemer keeps alive: this claim's bytes and nothing else.
          const next = expected(3, 64 * 1024);
          const after = await claimOf(bytesAnswer(next, 'application/octet-stream'));
          expect((await readAll((await via.redeem(after, account)).body)).equals(next)).toBe(true);
        }
      } finally {
        local.close();
      }
    });

    test('when the length was not known, then the answer streams chunked', async () => {
      const claim = await claimOf(counted(40, 64 * 1024, { length: false }).answer);
      const { res, body } = await fetchClaim(claim);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect((await body).equals(expected(40, 64 * 1024))).toBe(true);
    });

    test('when a claim is redeemed a second time, then it is 410 Gone', async () => {
      const claim = await claimOf(counted(2, 64 * 1024).answer);
      await (await fetchClaim(claim)).body;
      const again = await fetchClaim(claim);
      expect(again.res.statusCode).toBe(410);
      expect(JSON.parse((await again.body).toString())).toMatchObject({ status: 410, detail: expect.stringContaining('redeemed') });
    });

    test('when redeemed for another account (with a valid token for that account), then it is 403 and the claim stays for its own account', async () => {
      const claim = await claimOf(counted(2, 64 * 1024).answer);
      const other = await fetchClaim(claim, { accountId: randomUUID() });
      expect(other.res.statusCode).toBe(403);
      expect((await (await fetchClaim(claim)).body).length).toBe(2 * 64 * 1024);
    });

    test('when the token is missing or not signed with the shared secret for this claim and account, then it is 401', async () => {
      const claim = await claimOf(counted(2, 64 * 1024).answer);
      expect((await fetchClaim(claim, { token: null })).res.statusCode).toBe(401);
      expect((await fetchClaim(claim, { token: signClaimToken('another-secret-of-16+', claim.id, claim.accountId, claim.expiresAt) })).res.statusCode).toBe(401);
      // The account in the token is the one checked: a token of the claim's account presented for another is not valid.
      expect((await fetchClaim(claim, { token: signClaimToken(SECRET, claim.id, claim.accountId, claim.expiresAt), accountId: randomUUID() })).res.statusCode).toBe(401);
      expect((await fetchClaim(claim, { token: signClaimToken(SECRET, claim.id, claim.accountId, claim.expiresAt + 60_000) })).res.statusCode).toBe(200);
    });

    test('when a token is not exactly v1.<expiry>.<43 base64url characters>, then it is 401 even with a valid signature inside it', async () => {
      const claim = await claimOf(counted(2, 64 * 1024).answer);
      const good = signClaimToken(SECRET, claim.id, claim.accountId, claim.expiresAt);
      const [, at, signature] = good.split('.');
      for (const bad of [`${good}.extra`, `v1.${at}.${signature}==`, `v1.0${at}.${signature}`, `v1.${at}.${(signature as string).slice(0, 20)}*!${(signature as string).slice(20)}`]) {
        expect((await fetchClaim(claim, { token: bad })).res.statusCode).toBe(401);
      }
      expect((await fetchClaim(claim, { token: good })).res.statusCode).toBe(200);
    });

    test('when CLAIM_SECRET is being rotated, then a desk given CLAIM_SECRET_PREVIOUS takes tokens of either secret and no third', async () => {
      const rotating = new ClaimDesk({ secret: 'the-new-claim-secret', previousSecrets: [SECRET], inlineMaxBytes: 1024, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
      await rotating.start();
      try {
        const claimWith = async () => (await rotating.reply(counted(2, 64 * 1024).answer, account)).claim as Claim;
        const signed = (secret: string, claim: Claim) => signClaimToken(secret, claim.id, claim.accountId, claim.expiresAt);
        const [old, fresh, third] = [await claimWith(), await claimWith(), await claimWith()];
        expect((await fetchClaim(old, { token: signed(SECRET, old) })).res.statusCode).toBe(200);
        expect((await fetchClaim(fresh, { token: signed('the-new-claim-secret', fresh) })).res.statusCode).toBe(200);
        expect((await fetchClaim(third, { token: signed('a-third-claim-secret', third) })).res.statusCode).toBe(401);
      } finally {
        await rotating.stop(Date.now());
      }
    });

    test('when the token has expired, then it is 410', async () => {
      const claim = await claimOf(counted(2, 64 * 1024).answer);
      const { res } = await fetchClaim(claim, { token: signClaimToken(SECRET, claim.id, claim.accountId, Date.now() - 1) });
      expect(res.statusCode).toBe(410);
    });

    test('when no such claim was made here, or the path is not a claim, then it is 404', async () => {
      const claim = await claimOf(counted(2, 64 * 1024).answer);
      expect((await fetchClaim({ ...claim, id: 'never-issued' })).res.statusCode).toBe(404);
      expect((await fetchClaim(claim, { path: '/other' })).res.statusCode).toBe(404);
    });

    test('when the producer fails mid-answer, then the transfer is aborted, not ended short', async () => {
      for (const length of [true, false]) {
        const claim = await claimOf(counted(40, 64 * 1024, { length, failAfter: 20 }).answer);
        const { res, body } = await fetchClaim(claim);
        expect(res.statusCode).toBe(200);
        await expect(body).rejects.toThrow();
      }
    });

    test('when the redeemer stops reading, then the producer is held back instead of its answer being buffered', async () => {
      // 1 GiB announced; the socket's buffers hold a few MiB at most.
      const { answer, state } = counted(1024, MiB);
      const claim = await claimOf(answer);
      const { body } = await redeemer.redeem(claim, account);
      body.pause();
      let last = -1;
      while (state.pulled !== last) {
        last = state.pulled;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(state.pulled).toBeLessThan(64);
      body.destroy();
      await state.aborted;
    });

    test('when the redeemer goes mid-answer, then the producer is stopped', async () => {
      const { answer, state } = counted(1024, MiB);
      const claim = await claimOf(answer);
      const { body } = await redeemer.redeem(claim, account);
      await new Promise((resolve) => body.once('data', resolve));
      body.destroy();
      await expect(state.aborted).resolves.toBeDefined();
      expect(state.finished).toBe(false);
    });
  });

  describe('expiry', () => {
    test('when a claim is not redeemed within CLAIM_TTL_MS, then its producer is stopped, it is forgotten, and a late redemption is refused (410)', async () => {
      const short = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 1024, ttlMs: 100, port: 0, host: '127.0.0.1', logger });
      await short.start();
      try {
        const { answer, state } = counted(100, 16 * 1024, { length: false });
        const claim = (await short.reply(answer, account)).claim as Claim;
        await expect(state.aborted).resolves.toBeDefined();
        expect(short.waitingCount).toBe(0);
        // A token signed to outlive the claim is still refused: the claim is gone.
        const late = await fetchClaim(claim, { token: signClaimToken(SECRET, claim.id, account, Date.now() + 60_000) });
        expect(late.res.statusCode).toBe(410);
        expect(JSON.parse((await late.body).toString()).detail).toContain('expired');
      } finally {
        await short.stop();
      }
    });
  });

  test('when CLAIM_MAX_WAITING claims wait to be fetched, then the next large answer is a 503 with Retry-After and its producer is stopped; once one is fetched, another is taken', async () => {
    const full = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 1024, ttlMs: 30_000, maxWaiting: 2, port: 0, host: '127.0.0.1', logger });
    await full.start();
    try {
      const first = (await full.reply(counted(4, 64 * 1024).answer, account)).claim as Claim;
      await full.reply(counted(4, 64 * 1024).answer, account);
      const { answer, state } = counted(4, 64 * 1024, { length: false });
      const refusal = (await full.reply(answer, account).catch((err: unknown) => err)) as AppError;
      expect({ status: refusal.status, retryAfter: refusal.retryAfterSeconds, message: refusal.message }).toEqual({ status: 503, retryAfter: 1, message: expect.stringContaining('CLAIM_MAX_WAITING (2)') });
      expect(await state.aborted).toBeDefined();
      expect(full.waitingCount).toBe(2);
      // A small answer still rides the bus inline.
      expect((await full.reply(bytesAnswer(Uint8Array.of(1, 2, 3), 'application/octet-stream'), account)).claim).toBeUndefined();
      await readAll((await redeemer.redeem(first, account)).body);
      expect((await full.reply(counted(4, 64 * 1024).answer, account)).claim).toBeDefined();
    } finally {
      await full.stop(Date.now());
    }
  });

  test('when a producer stalls before its first CLAIM_INLINE_MAX_BYTES, then after CLAIM_TTL_MS the reply fails with 504 and the producer is stopped', async () => {
    const short = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 1024, ttlMs: 100, port: 0, host: '127.0.0.1', logger });
    await short.start();
    try {
      let stopped: Promise<unknown> | undefined;
      const stalling: BulkAnswer = {
        contentType: 'application/json',
        chunks(signal) {
          stopped = new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
          return { [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<Uint8Array>>(() => undefined) }) };
        },
      };
      await expect(short.reply(stalling, account)).rejects.toMatchObject({ status: 504 });
      await expect(stopped).resolves.toBeDefined();
    } finally {
      await short.stop();
    }
  });

  describe('the redeemer', () => {
    test('when the desk is in this process and in-process redemption is on, then the bytes come without HTTP, once', async () => {
      const local = new ClaimRedeemer({ secret: 'not-the-desk-secret!', inProcess: true, logger });
      const claim = await claimOf(counted(8, 64 * 1024).answer);
      expect((await readAll((await local.redeem(claim, account)).body)).equals(expected(8, 64 * 1024))).toBe(true);
      await expect(local.redeem(claim, account)).rejects.toMatchObject({ status: 502 });
      const other = await claimOf(counted(8, 64 * 1024).answer);
      await expect(local.redeem(other, randomUUID())).rejects.toMatchObject({ status: 502, message: expect.stringContaining('403') });
      local.close();
    });

    test('when redemptions follow one another on its kept connection, with a Content-Length or chunked and read by a reader that pauses, then each answer comes whole', async () => {
      const slowly = async (body: NodeJS.ReadableStream): Promise<Buffer> => {
        const chunks: Buffer[] = [];
        for await (const c of body) {
          chunks.push(c as Buffer);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        return Buffer.concat(chunks);
      };
      // A small answer comes in one read, more than the body holds unread: its connection is left paused by it.
      for (const [count, length, read] of [[48, false, slowly], [4, true, readAll], [48, false, readAll], [4, false, readAll], [48, true, slowly], [4, true, readAll]] as const) {
        const claim = await claimOf(counted(count, 64 * 1024 + 7, { length }).answer);
        const answer = await redeemer.redeem(claim, account);
        expect(answer.length).toBe(length ? count * (64 * 1024 + 7) : undefined);
        expect((await read(answer.body)).equals(expected(count, 64 * 1024 + 7))).toBe(true);
      }
    });

    test('when the producer fails mid-answer, then the redeemed body fails instead of ending short, with a Content-Length or chunked, and the next redemption is served', async () => {
      for (const length of [true, false]) {
        const claim = await claimOf(counted(40, 64 * 1024, { length, failAfter: 20 }).answer);
        const { body } = await redeemer.redeem(claim, account);
        // Node's own error for a body cut short ('aborted'): what matters is that it fails rather than ends short.
        await expect(readAll(body)).rejects.toThrow();
        const next = await claimOf(counted(4, 64 * 1024, { length }).answer);
        expect((await readAll((await redeemer.redeem(next, account)).body)).equals(expected(4, 64 * 1024))).toBe(true);
      }
    });

    test('when the desk closed the kept connection while it was idle, then the next redemption is sent on a new one', async () => {
      const restarting = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 1024, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
      await restarting.start();
      try {
        const first = (await restarting.reply(counted(4, 64 * 1024).answer, account)).claim as Claim;
        await readAll((await redeemer.redeem(first, account)).body);
        // Its idle keep-alive connection closed by the desk's side (as its keep-alive timeout does), the redeemer not
        // told yet when it sends the next request on it.
        (restarting as unknown as { server: import('node:http').Server }).server.closeIdleConnections();
        const second = (await restarting.reply(counted(4, 64 * 1024).answer, account)).claim as Claim;
        expect((await readAll((await redeemer.redeem(second, account)).body)).equals(expected(4, 64 * 1024))).toBe(true);
      } finally {
        await restarting.stop();
      }
    });

    test('when the desk refuses the claim, then the redemption fails with 502 naming its refusal\'s status, not the desk\'s words (the claim id, its state)', async () => {
      const claim = await claimOf(counted(2, 64 * 1024).answer);
      await readAll((await redeemer.redeem(claim, account)).body);
      const refusal = (await redeemer.redeem(claim, account).catch((err: unknown) => err)) as AppError;
      expect({ status: refusal.status, message: refusal.message }).toEqual({ status: 502, message: 'The answer could not be fetched from the service that made it (its claim was refused: 410); retry the read' });
    });

    test('when the instance that made the claim restarted at the same address, then the redemption fails with 503 and Retry-After (it is gone), not a 502 refusal', async () => {
      const before = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 1024, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
      await before.start();
      const claim = (await before.reply(counted(4, 64 * 1024).answer, account)).claim as Claim;
      await before.stop(Date.now());
      const after = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 1024, ttlMs: 30_000, port: Number(new URL(claim.address).port), host: '127.0.0.1', logger });
      await after.start();
      try {
        const refusal = (await redeemer.redeem(claim, account).catch((err: unknown) => err)) as AppError;
        expect({ status: refusal.status, retryAfter: refusal.retryAfterSeconds }).toEqual({ status: 503, retryAfter: 1 });
        // A claim of its own it serves.
        const own = (await after.reply(counted(2, 64 * 1024).answer, account)).claim as Claim;
        expect((await readAll((await redeemer.redeem(own, account)).body)).equals(expected(2, 64 * 1024))).toBe(true);
      } finally {
        await after.stop(Date.now());
      }
    });

    test('when the claim port takes the connection and never answers, then the redemption fails with 503 and Retry-After once the claim\'s life (at least 5 s) has passed, not after minutes', async () => {
      const silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const claim: Claim = { id: 'c1', desk: 'elsewhere', address: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, contentType: 'application/octet-stream', expiresAt: Date.now() + 100, accountId: account };
        const refusal = (await redeemer.redeem(claim, account).catch((err: unknown) => err)) as AppError;
        expect({ status: refusal.status, retryAfter: refusal.retryAfterSeconds, message: refusal.message }).toEqual({ status: 503, retryAfter: 1, message: expect.stringContaining('could not be fetched in time') });
      } finally {
        silent.closeAllConnections();
        silent.close();
      }
    }, 20_000);

    test('when the instance that made the claim cannot be reached, then the redemption fails with 503 and Retry-After', async () => {
      const gone = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 1024, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
      await gone.start();
      const claim = (await gone.reply(counted(2, 64 * 1024).answer, account)).claim as Claim;
      await gone.stop(Date.now());
      await expect(redeemer.redeem(claim, account)).rejects.toMatchObject({ status: 503, retryAfterSeconds: 1 });
    });
  });

  describe('a stop of the desk (its service stopping)', () => {
    test('when a claim it replied is still waiting, then the desk keeps serving until it is redeemed whole, the stop ends after it, and a new connection is then refused', async () => {
      const stopping = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 1024, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
      await stopping.start();
      const claim = (await stopping.reply(counted(40, 64 * 1024).answer, account)).claim as Claim;
      let stopped = false;
      const stop = stopping.stop(Date.now() + 10_000).then(() => void (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stopped).toBe(false);
      const { res, body } = await fetchClaim(claim);
      expect(res.statusCode).toBe(200);
      expect(res.headers['connection']).toBe('close');
      expect((await body).equals(expected(40, 64 * 1024))).toBe(true);
      await stop;
      await expect(fetchClaim(claim)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    });

    test('when a claim is not redeemed by the deadline, then it waits until then, is dropped (its producer stopped) and the stop ends', async () => {
      const stopping = new ClaimDesk({ secret: SECRET, inlineMaxBytes: 1024, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
      await stopping.start();
      const { answer, state } = counted(40, 64 * 1024, { length: false });
      await stopping.reply(answer, account);
      const stop = stopping.stop(Date.now() + 1000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stopping.waitingCount).toBe(1);
      await stop;
      expect(stopping.waitingCount).toBe(0);
      await expect(state.aborted).resolves.toMatchObject({ message: expect.stringContaining('the service stopped') });
    });
  });

  test('when an app runs as its own process without CLAIM_SECRET, then it does not start; sharing a process it needs none', () => {
    expect(() => claimSecret(undefined, true, 'datafile-service')).toThrow(/CLAIM_SECRET: is required/);
    expect(claimSecret(undefined, false, 'gateway')).toBe(claimSecret(undefined, false, 'datafile-service'));
    expect(claimSecret('configured-secret-16', true, 'gateway')).toBe('configured-secret-16');
  });

  test('when CLAIM_SECRET is docker/compose.yaml\'s public default, then it is taken with a warning; a secret of its own without one', () => {
    const warned: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => void warned.push(args) };
    expect(claimSecret('pitwall-compose-local-claim-secret', true, 'gateway', logger)).toBe('pitwall-compose-local-claim-secret');
    expect(warned).toHaveLength(1);
    expect(JSON.stringify(warned[0])).toContain('public default of docker/compose.yaml');
    claimSecret('configured-secret-16', true, 'gateway', logger);
    expect(warned).toHaveLength(1);
  });
});

describe('keptAnswer (the result cache\'s copy)', () => {
  test.each([
    [[6, 4], 10, true],
    [[6, 2], 10, false],
    [[6, 6], 10, false],
    [[6, 6], undefined, true],
  ])('when chunks of %j pass for an announced length of %s, then a copy is kept: %s', async (sizes, length, kept) => {
    const answer: BulkAnswer = { contentType: 'application/octet-stream', ...(length !== undefined ? { length } : {}), async *chunks() { for (const n of sizes) yield new Uint8Array(n).fill(n); } };
    const copies: Uint8Array[] = [];
    const passed = await answerBytes(keptAnswer(answer, 1024, (bytes) => copies.push(bytes)));
    expect(passed.byteLength).toBe(sizes.reduce((a, b) => a + b, 0));
    expect(copies.length).toBe(kept ? 1 : 0);
  });
});
