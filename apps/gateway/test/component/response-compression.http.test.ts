import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import zlib from 'node:zlib';
import { bytesAnswer, ClaimDesk, ClaimRedeemer, EncodedJson, heldAnswer, InProcessBus, REQUEST_HELD_ANSWER, type BulkAnswer } from '@pitwall/bus';
import { SERVICES } from '@pitwall/contracts';
import { createLogger, listen, type HttpEntryPoint } from '@pitwall/service-kit';
import { buildGateway } from '../../src/app';
import { HeldAnswers } from '../../src/domain/held-answers';
import { authHeaders, fakeAuth } from '../support/gateway-harness';

const SECRET = 'gateway-compression-test-secret';
const logger = createLogger('gateway-compression-test', 'silent');
const CHUNK = 64 * 1024;
/** Answers up to this many bytes ride the bus; larger ones are fetched by claim and streamed. */
const INLINE_MAX = 64 * 1024;
const MIN_BYTES = 8 * 1024;

/** A telemetry-like body: the same bytes for the same seed, compressible (a slow wave of int16 codes with noise). */
function channelBytes(length: number, seed = 1): Buffer {
  const codes = new Int16Array(Math.ceil(length / 2));
  for (let i = 0; i < codes.length; i++) codes[i] = Math.round(6000 + 3000 * Math.sin((i + seed) / 500) + (((i * 7919 + seed) % 13) - 6));
  return Buffer.from(codes.buffer, 0, length);
}

/** A claimed answer of `count` CHUNK-byte chunks of `body`, failing after `failAfter`; `aborted` once its producer was stopped. */
function produced(body: Buffer, options: { length?: boolean; failAfter?: number; contentType?: string } = {}) {
  const state = { aborted: undefined as Promise<unknown> | undefined, yielded: 0 };
  const answer: BulkAnswer = {
    contentType: options.contentType ?? 'application/x-service-channels',
    ...(options.length === false ? {} : { length: body.byteLength }),
    async *chunks(signal) {
      state.aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
      for (let at = 0, i = 0; at < body.byteLength; at += CHUNK, i++) {
        if (i === options.failAfter) throw new Error('the datafile-service died');
        state.yielded = at + CHUNK;
        yield body.subarray(at, at + CHUNK);
      }
    },
  };
  return { answer, state };
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came on the wire (not decoded). */
  bytes: Buffer;
  /** Whether the transfer ended complete (its end), not aborted. */
  complete: boolean;
}

/** One request with node:http, which decodes nothing: the body as the gateway sent it. */
function raw(base: string, path: string, headers: Record<string, string>, options: { goAfterBytes?: number; method?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method: options.method ?? 'GET', headers: { ...authHeaders, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      let done = false;
      const end = (complete: boolean) => {
        if (done) return;
        done = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks), complete });
      };
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        bytes += c.length;
        if (options.goAfterBytes !== undefined && bytes >= options.goAfterBytes) {
          req.destroy();
          end(false);
        }
      });
      res.on('end', () => end(true));
      res.on('error', () => end(false));
      res.on('close', () => end(res.complete));
    });
    req.on('error', (err) => (options.goAfterBytes === undefined ? reject(err) : undefined));
    req.end();
  });
}

/** The request headers the answer says it varies by. */
const vary = (got: Raw): string[] => String(got.headers['vary'] ?? '').split(',').map((name) => name.trim()).filter(Boolean);

const decoders: Record<string, (bytes: Buffer) => Buffer> = {
  zstd: (bytes) => zlib.zstdDecompressSync(bytes),
  gzip: (bytes) => zlib.gunzipSync(bytes),
  br: (bytes) => zlib.brotliDecompressSync(bytes),
};

/** The body a client gets once it decodes the Content-Encoding the gateway named. */
const decoded = (got: Raw): Buffer => {
  const coding = got.headers['content-encoding'] as string | undefined;
  return coding ? (decoders[coding] as (b: Buffer) => Buffer)(got.bytes) : got.bytes;
};

describe('answers compressed as their Accept-Encoding asks (a stand-in datafile-service behind the gateway)', () => {
  let bus: InProcessBus;
  let desk: ClaimDesk;
  let redeemer: ClaimRedeemer;
  let http: HttpEntryPoint;
  let off: HttpEntryPoint;
  let holding: HttpEntryPoint;
  /** What the stand-in answers the next read with. */
  let next: () => Promise<BulkAnswer> | BulkAnswer;
  /** The headers of the stand-in's last request. */
  let asked: Record<string, string | undefined> = {};

  beforeAll(async () => {
    bus = new InProcessBus({ logger });
    desk = new ClaimDesk({ secret: SECRET, inlineMaxBytes: INLINE_MAX, ttlMs: 30_000, port: 0, host: '127.0.0.1', logger });
    await desk.start();
    await bus.serve(SERVICES.datafile, async (request) => {
      asked = request.headers;
      return desk.reply(await next(), (request.payload as { caller: { accountId: string } }).caller.accountId);
    });
    // The entity-service stand-in: every list is 500 Championships, as JSON.
    await bus.serve(SERVICES.entity, async () => EncodedJson.of(Array.from({ length: 500 }, (_, i) => ({ Id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, Name: `Championship ${i}`, Parameters: { Season: 2026, Rounds: 24 } }))));
    redeemer = new ClaimRedeemer({ secret: SECRET, inProcess: false, logger });
    const settings = { enabled: true, minBytes: MIN_BYTES };
    http = await listen(buildGateway({ bus, auth: fakeAuth, logger, claims: redeemer, responseCompression: settings }), 0, '127.0.0.1');
    off = await listen(buildGateway({ bus, auth: fakeAuth, logger, claims: redeemer, responseCompression: { enabled: false, minBytes: MIN_BYTES } }), 0, '127.0.0.1');
    holding = await listen(buildGateway({ bus, auth: fakeAuth, logger, claims: redeemer, responseCompression: settings, heldAnswers: new HeldAnswers(64 * 1024 * 1024) }), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await http.stop();
    await off.stop();
    await holding.stop();
    redeemer.close();
    await desk.stop();
    await bus.close();
  });

  const path = () => `/RunSheets/${randomUUID()}/DataFileAccess/DataFile/channel?channel=Speed`;
  const binary = { Accept: 'application/x-service-channels' };

  describe.each(['zstd', 'gzip', 'br'])('Accept-Encoding: %s', (coding) => {
    test.each([
      ['a claimed answer streamed with its length', () => produced(channelBytes(40 * CHUNK)).answer, 40 * CHUNK],
      ['a claimed answer of unknown length', () => produced(channelBytes(40 * CHUNK, 2), { length: false }).answer, 40 * CHUNK],
      ['an answer on the bus', () => bytesAnswer(channelBytes(32 * 1024, 3), 'application/x-service-channels'), 32 * 1024],
    ])('when %s is read, then it comes compressed, chunked or with its compressed length, and decodes to the same bytes', async (_what, answer, length) => {
      next = answer;
      const identity = await raw(http.address, path(), { ...binary, 'Accept-Encoding': 'identity' });
      next = answer;
      const got = await raw(http.address, path(), { ...binary, 'Accept-Encoding': coding });
      expect(identity).toMatchObject({ status: 200, complete: true });
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.bytes.byteLength).toBe(length);
      expect(got).toMatchObject({ status: 200, complete: true });
      expect(got.headers['content-encoding']).toBe(coding);
      expect(got.headers['content-type']).toBe('application/x-service-channels');
      expect(vary(got)).toContain('Accept-Encoding');
      expect(vary(identity)).toContain('Accept-Encoding');
      expect(got.bytes.byteLength).toBeLessThan(length);
      // The compressed length is known only at the end of a stream: chunked; a whole body has it.
      if (length > INLINE_MAX) expect([got.headers['content-length'], got.headers['transfer-encoding']]).toEqual([undefined, 'chunked']);
      else expect(got.headers['content-length']).toBe(String(got.bytes.byteLength));
      expect(decoded(got).equals(identity.bytes)).toBe(true);
    });

    test('when the service dies mid-answer, then the compressed transfer is aborted: fetch throws reading its body, and its stream never ends', async () => {
      const body = channelBytes(64 * CHUNK, 4);
      next = () => produced(body, { failAfter: 20 }).answer;
      const got = await raw(http.address, path(), { ...binary, 'Accept-Encoding': coding });
      expect(got.status).toBe(200);
      expect(got.headers['content-encoding']).toBe(coding);
      expect(got.complete).toBe(false);
      // What came is the start of a stream that does not end: decoding it to its end fails.
      expect(() => (decoders[coding] as (b: Buffer) => Buffer)(got.bytes)).toThrow();
      next = () => produced(body, { failAfter: 20 }).answer;
      const res = await fetch(new URL(path(), http.address), { headers: { ...authHeaders, ...binary, 'Accept-Encoding': coding } });
      expect(res.headers.get('content-encoding')).toBe(coding);
      await expect(res.arrayBuffer()).rejects.toThrow();
    });

    test('when the client goes mid-answer, then the producer at the service is stopped', async () => {
      // Bytes that do not compress: the compressed stream is as long as the answer, so the client has its part soon.
      const { answer, state } = produced(randomBytes(4096 * CHUNK));
      next = () => answer;
      const got = await raw(http.address, path(), { ...binary, 'Accept-Encoding': coding }, { goAfterBytes: CHUNK });
      expect(got.complete).toBe(false);
      expect(got.headers['content-encoding']).toBe(coding);
      await expect(state.aborted).resolves.toBeDefined();
    });
  });

  test('when a client reads nothing of a compressed answer, then the producer is held back (backpressure), and the answer ends whole once it reads', async () => {
    // 64 MiB that do not compress: twice what the buffers on the way held when measured (some 8.6 MB).
    const body = randomBytes(1024 * CHUNK);
    const { answer, state } = produced(body);
    next = () => answer;
    const got = await new Promise<Raw & { heldAt: number }>((resolve, reject) => {
      const req = request(new URL(path(), http.address), { headers: { ...authHeaders, ...binary, 'Accept-Encoding': 'zstd' } }, (res) => {
        res.pause();
        // The buffers on the way fill, then the producer waits: it is far from the end while nothing is read.
        setTimeout(() => {
          const heldAt = state.yielded;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks), complete: true, heldAt }));
          res.on('error', reject);
          res.resume();
        }, 500);
      });
      req.on('error', reject);
      req.end();
    });
    expect(got.headers['content-encoding']).toBe('zstd');
    expect(got.heldAt).toBeLessThan(body.byteLength / 2);
    expect(zlib.zstdDecompressSync(got.bytes).equals(body)).toBe(true);
  });

  test.each([
    ['no Accept-Encoding (curl without --compressed)', undefined],
    ['identity', 'identity'],
    ['an empty Accept-Encoding', ''],
    ['only deflate, which the gateway does not offer', 'deflate'],
    ['nothing acceptable at all, identity refused too (RFC 9110 §12.5.3 leaves it to the server: identity)', 'deflate, identity;q=0'],
    ['*;q=0', '*;q=0'],
  ])('when the request has %s, then the answer is sent as it is, with Vary', async (_what, header) => {
    const body = channelBytes(40 * CHUNK, 5);
    next = () => produced(body).answer;
    const got = await raw(http.address, path(), { ...binary, ...(header === undefined ? {} : { 'Accept-Encoding': header }) });
    expect(got).toMatchObject({ status: 200, complete: true });
    expect(got.headers['content-encoding']).toBeUndefined();
    expect(got.headers['content-length']).toBe(String(body.byteLength));
    expect(vary(got)).toContain('Accept-Encoding');
    expect(got.bytes.equals(body)).toBe(true);
  });

  test.each([
    ['the higher q', 'gzip;q=0.5, br;q=0.9', 'br'],
    ['a tie: the cheapest to encode', 'br, gzip, zstd', 'zstd'],
    ['a tie without zstd: gzip before br', 'br, gzip', 'gzip'],
    ['identity preferred by its q', 'gzip;q=0.2, identity;q=0.8', undefined],
    ['*', '*', 'zstd'],
  ])('when Accept-Encoding gives %s, then the answer is coded so', async (_what, header, coding) => {
    next = () => produced(channelBytes(40 * CHUNK, 6)).answer;
    const got = await raw(http.address, path(), { ...binary, 'Accept-Encoding': header });
    expect(got.headers['content-encoding']).toBe(coding);
    expect(decoded(got).equals(channelBytes(40 * CHUNK, 6))).toBe(true);
  });

  test('when an answer is under RESPONSE_COMPRESSION_MIN_BYTES, then it is sent as it is (with Vary), unless the client refuses identity', async () => {
    const small = channelBytes(MIN_BYTES - 1, 7);
    next = () => bytesAnswer(small, 'application/x-service-channels');
    const got = await raw(http.address, path(), { ...binary, 'Accept-Encoding': 'gzip' });
    expect(got.headers['content-encoding']).toBeUndefined();
    expect(vary(got)).toContain('Accept-Encoding');
    expect(got.bytes.equals(small)).toBe(true);
    next = () => bytesAnswer(small, 'application/x-service-channels');
    const insisting = await raw(http.address, path(), { ...binary, 'Accept-Encoding': 'gzip, identity;q=0' });
    expect(insisting.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(insisting.bytes).equals(small)).toBe(true);
  });

  test('when an answer is exactly RESPONSE_COMPRESSION_MIN_BYTES long, then it is compressed', async () => {
    next = () => bytesAnswer(channelBytes(MIN_BYTES, 8), 'application/x-service-channels');
    const got = await raw(http.address, path(), { ...binary, 'Accept-Encoding': 'zstd' });
    expect(got.headers['content-encoding']).toBe('zstd');
    expect(zlib.zstdDecompressSync(got.bytes).equals(channelBytes(MIN_BYTES, 8))).toBe(true);
  });

  test('when a large entity list is read as JSON, then it is compressed too, and fetch reads it as the same JSON', async () => {
    const got = await raw(http.address, '/Championships', { 'Accept-Encoding': 'gzip' });
    expect(got.status).toBe(200);
    expect(got.headers['content-encoding']).toBe('gzip');
    expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
    const identity = await raw(http.address, '/Championships', {});
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(decoded(got).equals(identity.bytes)).toBe(true);
    const viaFetch = await fetch(new URL('/Championships', http.address), { headers: authHeaders });
    expect(await viaFetch.json()).toEqual(JSON.parse(identity.bytes.toString('utf8')));
  });

  test('when a problem is answered (problem+json), then it is whole and parses whatever the Accept-Encoding', async () => {
    for (const header of ['gzip', 'zstd', 'br', 'identity']) {
      const res = await fetch(new URL(`/RunSheets/${randomUUID()}/DataFileAccess/DataFile/nothing-here`, http.address), { headers: { ...authHeaders, 'Accept-Encoding': header } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(((await res.json()) as { status: number }).status).toBe(404);
    }
  });

  test('when the API description is asked by fetch (gzip, deflate), then it comes compressed and parses', async () => {
    const res = await fetch(new URL('/swagger/v1/swagger.json', http.address));
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(((await res.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  test('when RESPONSE_COMPRESSION is off, then every answer is sent as it is, without Vary', async () => {
    const body = channelBytes(40 * CHUNK, 9);
    next = () => produced(body).answer;
    const claimed = await raw(off.address, path(), { ...binary, 'Accept-Encoding': 'zstd, gzip, br' });
    next = () => bytesAnswer(channelBytes(32 * 1024, 9), 'application/x-service-channels');
    const inline = await raw(off.address, path(), { ...binary, 'Accept-Encoding': 'gzip, identity;q=0' });
    const list = await raw(off.address, '/Championships', { 'Accept-Encoding': 'gzip' });
    for (const got of [claimed, inline, list]) {
      expect(got.status).toBe(200);
      expect(got.headers['content-encoding']).toBeUndefined();
      expect(vary(got)).not.toContain('Accept-Encoding');
    }
    expect(claimed.headers['content-length']).toBe(String(body.byteLength));
    expect(claimed.bytes.equals(body)).toBe(true);
  });

  describe('a gateway that holds large answers', () => {
    /** The stand-in as the datafile-service answers: the held answer when the request names its tag, else the tagged bytes. */
    const tagged = (tag: string, body: Buffer) => () => (asked[REQUEST_HELD_ANSWER] === tag ? heldAnswer(tag, 'application/x-service-channels') : { ...produced(body).answer, tag });

    test('when an answer was held from a compressed transfer, then it is sent again in each coding asked, each decoding to the same bytes', async () => {
      const body = channelBytes(16 * CHUNK, 10);
      const heldPath = path();
      next = tagged('c1', body);
      const first = await raw(holding.address, heldPath, { ...binary, 'Accept-Encoding': 'gzip' });
      expect(first.headers['content-encoding']).toBe('gzip');
      expect(asked[REQUEST_HELD_ANSWER]).toBeUndefined();
      for (const coding of ['zstd', 'br', 'identity', 'gzip']) {
        const again = await raw(holding.address, heldPath, { ...binary, 'Accept-Encoding': coding });
        // The service was asked whether the held answer still is the answer, and said so: the gateway sent it.
        expect(asked[REQUEST_HELD_ANSWER]).toBe('c1');
        expect(again.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
        expect(vary(again)).toContain('Accept-Encoding');
        // A whole body: its length, compressed or not.
        expect(again.headers['content-length']).toBe(String(again.bytes.byteLength));
        expect(decoded(again).equals(body)).toBe(true);
      }
      // No ETag: the answers are not cached on the way (Cache-Control: no-store), so no validator names a representation.
      expect(first.headers['etag']).toBeUndefined();
      expect(first.headers['cache-control']).toBe('no-store');
    });
  });
});
