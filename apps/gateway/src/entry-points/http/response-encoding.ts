import { createHash } from 'node:crypto';
import type { Transform } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { weightText } from './accept';

/** The content codings the gateway answers in (RFC 9110 §8.4.1): zstd where Node's zlib has it (Node 24 does). */
export type ContentCoding = 'zstd' | 'gzip' | 'br';

/**
 * The codings offered, cheapest to encode first: the order that breaks a tie of q-values. `deflate` is not offered
 * (its name means zlib-wrapped data, which clients have long read either way): every client that sends it sends gzip too.
 */
export const OFFERED_CODINGS: readonly ContentCoding[] = typeof zlib.createZstdCompress === 'function' ? ['zstd', 'gzip', 'br'] : ['gzip', 'br'];

/** The response compression settings: `RESPONSE_COMPRESSION` and `RESPONSE_COMPRESSION_MIN_BYTES` (docs/operations.md). */
export interface ResponseCompressionSettings {
  enabled: boolean;
  /** Bodies of fewer bytes are sent as they are (unless the client refuses identity): the work would save no time. */
  minBytes: number;
}

/** The default: on, from 8 KiB (at 20 Mbit/s an 8 KiB JSON list saves about 2 ms of wire for 0.2 ms of compression). */
export const DEFAULT_RESPONSE_COMPRESSION: ResponseCompressionSettings = { enabled: true, minBytes: 8 * 1024 };

/**
 * Fast levels: the point is the transfer time of a remote client, not the smallest body (measured on channel JSON:
 * gzip 6 is 4× the time of gzip 1 for 6 % fewer bytes; brotli 4 is 4× quality 1 for 7 %).
 */
const ZSTD_LEVEL = 1;
const GZIP_LEVEL = 1;
const BROTLI_QUALITY = 1;

/** What an Accept-Encoding header leaves: the coding to send, or `undefined` when nothing is acceptable (identity refused too). */
export type ChosenCoding = ContentCoding | 'identity' | undefined;

/**
 * The coding of RFC 9110 §12.5.3 for the header: no header or an empty one is identity (curl without `--compressed`
 * reads what it is sent); a coding listed with q > 0, or matched by `*` with q > 0, is acceptable; the highest q wins,
 * a tie goes to the cheaper coding (`offered`'s order) and a coding beats identity at the same q. Identity is acceptable
 * unless `identity;q=0`, or `*;q=0` without an identity entry; when it is not listed (nor `*`) it comes after every
 * listed coding. `x-gzip` is gzip (§8.4.1.3). An element whose q is not a number is skipped; codings are case-insensitive.
 */
export function chooseCoding(header: string | undefined, offered: readonly ContentCoding[] = OFFERED_CODINGS): ChosenCoding {
  if (header === undefined) return 'identity';
  const weights = new Map<string, number>();
  for (const element of header.split(',')) {
    const [name = '', ...parameters] = element.split(';').map((part) => part.trim());
    if (!name) continue;
    const weight = weightText(parameters);
    const value = weight === undefined ? 1 : Number(weight);
    if (weight === '' || !Number.isFinite(value)) continue;
    const q = Math.min(1, Math.max(0, value));
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    // A coding listed twice: its higher weight.
    weights.set(coding, Math.max(q, weights.get(coding) ?? 0));
  }
  const any = weights.get('*');
  let best: { coding: ContentCoding; q: number } | undefined;
  for (const coding of offered) {
    const q = weights.get(coding) ?? any ?? 0;
    if (q > 0 && (!best || q > best.q)) best = { coding, q };
  }
  const identity = weights.get('identity') ?? any;
  if (identity === undefined) return best?.coding ?? 'identity';
  if (identity > 0 && (!best || identity > best.q)) return 'identity';
  return best?.coding;
}

/** Media types worth compressing: text, JSON, the binary channel body, Arrow (never an attached file's stored bytes). */
const COMPRESSIBLE = /^(?:text\/[^;]+|application\/(?:json|[^;]+\+json|javascript|x-service-channels|octet-stream|vnd\.apache\.arrow\.(?:stream|file)))\s*(?:;|$)/i;

export function compressibleType(contentType: string | undefined): boolean {
  return contentType !== undefined && COMPRESSIBLE.test(contentType);
}

const zstdParams = { [zlib.constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL };
/** Brotli's size hint is a 32-bit number: a body past 1 GiB goes without one. */
const brotliParams = (length: number | undefined) => ({ [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, ...(length !== undefined && length <= 2 ** 30 ? { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: length } : {}) });

/** A compressing stream of `coding` (zlib's work runs on libuv's threadpool, not the event loop). */
export function compressor(coding: ContentCoding, length?: number): Transform {
  if (coding === 'zstd') return zlib.createZstdCompress({ params: zstdParams });
  if (coding === 'gzip') return zlib.createGzip({ level: GZIP_LEVEL });
  return zlib.createBrotliCompress({ params: brotliParams(length) });
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const zstd = typeof zlib.zstdCompress === 'function' ? promisify(zlib.zstdCompress) : undefined;

/** A whole body compressed at once, on the threadpool. */
export function compressed(coding: ContentCoding, body: Buffer): Promise<Buffer> {
  if (coding === 'zstd' && zstd) return zstd(body, { params: zstdParams });
  if (coding === 'gzip') return gzip(body, { level: GZIP_LEVEL });
  return brotli(body, { params: brotliParams(body.byteLength) });
}

/**
 * The content coding of the gateway's answers. `encodingFor` decides an answer's coding from its request's
 * Accept-Encoding, its media type and length, and sets `Vary: Accept-Encoding` whenever its coding could have been
 * another (compressed or not); the answer's body is then sent through `send` (a whole body, with its Content-Length)
 * or through `compressor` (a stream, chunked) by a caller that names the coding (`Content-Encoding`) once nothing
 * before its first byte can fail (a problem answered instead must not carry it).
 */
export class ResponseEncoder {
  constructor(readonly settings: ResponseCompressionSettings = DEFAULT_RESPONSE_COMPRESSION) {}

  /**
   * The coding of this answer (undefined: identity). A body under `minBytes` is sent as it is, unless the client refused
   * identity: then it is compressed all the same. When nothing the client accepts is offered and identity is refused
   * too, identity is sent (RFC 9110 §12.5.3 leaves that case to the server; docs/api.md says why not 406).
   */
  encodingFor(req: Request, res: Response, contentType: string | undefined, length: number | undefined): ContentCoding | undefined {
    if (!this.settings.enabled || !compressibleType(contentType)) return undefined;
    res.vary('Accept-Encoding');
    const header = req.headers['accept-encoding'];
    const chosen = chooseCoding(header);
    if (chosen === undefined || chosen === 'identity') return undefined;
    const identityRefused = chooseCoding(header, []) === undefined;
    if (length !== undefined && length < this.settings.minBytes && !identityRefused) return undefined;
    return chosen;
  }

  /** A whole body: compressed when `encodingFor` says, with its Content-Length either way (`res`'s type already set). */
  async send(req: Request, res: Response, body: Buffer): Promise<void> {
    const coding = this.encodingFor(req, res, res.get('Content-Type'), body.byteLength);
    end(res, coding, coding ? await compressed(coding, body) : body);
  }

  /**
   * A StaticBody: its ETag always; `304 Not Modified` with no body when the request's If-None-Match names it (the
   * headers already set stay: Vary, Cache-Control); else as `send`, its compressed bytes made once per coding.
   */
  async sendStatic(req: Request, res: Response, body: StaticBody): Promise<void> {
    res.setHeader('ETag', body.etag);
    const coding = this.encodingFor(req, res, res.get('Content-Type'), body.body.byteLength);
    if (noneMatch(req.headers['if-none-match'], body.etag)) {
      res.status(304).end();
      return;
    }
    end(res, coding, await body.bytes(coding));
  }
}

/** Sends `bytes` (already in `coding`) as the whole body, with its Content-Length. */
function end(res: Response, coding: ContentCoding | undefined, bytes: Buffer): void {
  if (coding) res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', String(bytes.byteLength));
  res.end(bytes);
}

/**
 * Whether an If-None-Match header names `etag` (RFC 9110 §13.1.2: `*`, or a list of entity tags compared weakly),
 * whatever else the request says: Express's `req.fresh` also answers no when the request carries `Cache-Control:
 * no-cache`, which a fetch given If-None-Match adds (that directive is for caches on the way, not for the origin).
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const wanted = opaque(etag);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || opaque(t) === wanted;
  });
}

/**
 * A body that does not change while the process runs (a viewer asset, the API description). Its ETag is its hash (weak:
 * the same for each coding of it), and each coding's bytes are compressed once, when first asked for, and kept: an
 * asset requested again (or its HEAD) costs no compression, which unauthenticated requests could otherwise repeat at
 * will on the threadpool the blob store's reads and every answer's compression share.
 */
export class StaticBody {
  readonly etag: string;
  private readonly coded = new Map<ContentCoding, Promise<Buffer>>();

  constructor(readonly body: Buffer) {
    this.etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  }

  /** The bytes sent in `coding` (undefined: the body itself). A compression that failed is tried again next time. */
  bytes(coding: ContentCoding | undefined): Promise<Buffer> {
    if (!coding) return Promise.resolve(this.body);
    let kept = this.coded.get(coding);
    if (!kept) {
      kept = compressed(coding, this.body);
      this.coded.set(coding, kept);
      kept.catch(() => this.coded.delete(coding));
    }
    return kept;
  }
}
