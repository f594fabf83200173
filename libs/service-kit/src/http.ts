import { randomUUID } from 'node:crypto';
import { STATUS_CODES, createServer, maxHeaderSize as httpMaxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import * as zlib from 'node:zlib';
import type { AddressInfo, Socket } from 'node:net';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { AppError, causeFields, toAppError } from './app-error';
import { DEFAULT_SHUTDOWN_GRACE_MS, GracefulStop } from './graceful-stop';
import type { Logger } from './logger';
import { inRequestScope } from './request-scope';
import { METRICS_CONTENT_TYPE, type Metrics } from './metrics';
import { toProblem } from './problem';

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    log: Logger;
    /** The problem's `instance` when the URL must not be echoed whole (a signed URL's signature); else the URL. */
    problemInstance?: string;
    /** Who made the request, once known (the gateway's authentication sets the user, key and account): on its access line. */
    logFields?: Record<string, string>;
  }
}

/**
 * A caller's request id is echoed as sent when it is printable ASCII (spaces, `=`, `/` included: `Root=1-5759e988-…`,
 * `feed/car7/000123`) of at most 1,024 characters; anything else (control characters, other bytes, longer) is replaced
 * by a fresh id rather than carried into logs, replies and event headers.
 */
const REQUEST_ID = /^[\x20-\x7e]{1,1024}$/;

/**
 * Carries `X-Request-Id` from the caller (or a new one) onto the request, the response and a child logger; with
 * `metrics`, each answer's time goes into its HTTP histogram once the connection is done with it.
 */
export function requestContext(logger: Logger, metrics?: Metrics): RequestHandler {
  return (req, res, next) => {
    const incoming = req.header('x-request-id');
    req.requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.log = logger.child({ requestId: req.requestId });
    res.setHeader('X-Request-Id', req.requestId);
    const started = process.hrtime.bigint();
    // One access line per request, written when the answer has gone out: with the peer's address (the TCP peer: a
    // proxy's when one is in front) and who asked, once authenticated, so a noisy caller or a run of 401s is traced.
    const client = req.socket.remoteAddress;
    res.once('finish', () => {
      req.log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, ...(client ? { client } : {}), ...req.logFields }, 'request');
    });
    metrics?.timeHttp(req, res);
    // What the request reaches (a pooled database connection) logs its own failures with the request's id.
    inRequestScope(req.requestId, next);
  };
}

/** The central HTTP error handler: every error becomes problem+json, logged once. */
export function problemHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = fromExpressError(err, req.headers['content-encoding']);
    const log = req.log ?? logger;
    // An unexpected error (a 500) with its stack; an expected 5xx (a dependency's loss: a 503 or 504 whose cause its own
    // state-change line logs once) as a warning with its detail and, when known, the dependency and the cause in its
    // own words (the client's detail names neither), so that an outage is not a thousand stacks.
    if (appError.catastrophic || appError.status === 500) log.error({ err: appError.cause ?? appError, status: appError.status }, appError.message);
    else if (appError.status >= 500) log.warn({ status: appError.status, detail: appError.message, ...causeFields(appError) }, 'request answered with a server error');
    else log.info({ status: appError.status, detail: appError.message }, 'request rejected');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (appError.status === 401) res.setHeader('WWW-Authenticate', 'ApiKey');
    if (appError.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
    res.status(appError.status).type('application/problem+json').send(JSON.stringify(toProblem(appError, req.problemInstance ?? req.originalUrl, req.requestId ?? '')));
  };
}

/** The reason and the hint of a URL value that does not decode, in the router's refusal and the gateway's. */
export const NOT_PERCENT_ENCODED = 'is not valid percent-encoding';
export const PERCENT_ENCODING_HINT = '(write % itself as %25)';

/** body-parser's strict JSON refuses a body that is valid JSON but a scalar (`null`, `3`, `"x"`): what it is, to say so. */
function scalarOf(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(body);
    if (value === null) return 'null';
    return typeof value === 'object' ? undefined : `a ${typeof value}`;
  } catch {
    return undefined;
  }
}

/**
 * The 413 of a JSON body over the parser's limit, with the limit and the variable that sets it (only the gateway reads
 * JSON bodies: its BODY_LIMIT), and the size when the request declared it.
 */
function tooLarge(length: unknown, limit: unknown): string {
  if (typeof limit !== 'number') return 'The request body is larger than allowed (BODY_LIMIT)';
  const mib = limit % 1_048_576 === 0 ? ` (${limit / 1_048_576} MiB, BODY_LIMIT)` : ' (BODY_LIMIT)';
  const size = typeof length === 'number' && length > limit ? ` of ${length} bytes` : '';
  return `The request body${size} is larger than the limit of ${limit} bytes${mib}`;
}

/**
 * Where and why a body is not JSON, from the parser's message (`: Expected ',' or '}' after property value in JSON at
 * position 6 (line 1 column 7)`), without the stretch of the body some messages quote; '' when there is none.
 */
function jsonFaultOf(message: string | undefined): string {
  const reason = (message ?? '').replace(/, ".*" is not valid JSON$/s, '').trim();
  return reason ? `: ${reason.slice(0, 200)}` : '';
}

/**
 * body-parser and other express errors carry `status`/`type`; map them to precise 4xx answers. `contentEncoding` is the
 * request's: a body that does not decompress reaches here as the decompressor's own error (`incorrect header check`).
 */
function fromExpressError(err: unknown, contentEncoding?: string): AppError {
  if (err instanceof AppError) return err;
  const e = err as { status?: number; statusCode?: number; type?: string; message?: string; expose?: boolean; body?: unknown; length?: unknown; limit?: unknown; code?: unknown; errno?: unknown };
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (e.type === 'entity.parse.failed') {
      const scalar = scalarOf(e.body);
      // Every body the API takes is a JSON object (the gateway's binding refuses an array the same way).
      if (scalar) return AppError.badRequest(`The request body must be a JSON object, not ${scalar}`, { '(body)': ['must be a JSON object'] });
      return AppError.badRequest(`The request body is not valid JSON${jsonFaultOf(e.message)}`);
    }
    if (e.type === 'entity.too.large') return new AppError(413, tooLarge(e.length, e.limit));
    if (e.type === 'encoding.unsupported') return unsupportedEncoding(String((e as { encoding?: unknown }).encoding ?? contentEncoding ?? ''));
    if (e.type === 'charset.unsupported') return unsupportedCharset(String((e as { charset?: unknown }).charset ?? ''));
    // zlib's, brotli's and zstd's errors: a code and an errno, no body-parser type.
    const encoding = contentEncoding?.trim().toLowerCase();
    if (e.type === undefined && typeof e.code === 'string' && typeof e.errno === 'number' && encoding && encoding !== 'identity') {
      const name = encoding.slice(0, 32);
      return AppError.badRequest(`The request body is not valid ${name} (Content-Encoding: ${name}): ${e.message ?? e.code}`, { 'Content-Encoding': [`is ${name}, and the body does not decompress as ${name}`] });
    }
    // A route's parameter that does not decode (the router's own refusal; the gateway's operations name theirs first).
    const undecodable = err instanceof URIError ? /^Failed to decode param '(.*)'$/s.exec(err.message)?.[1] : undefined;
    if (undecodable !== undefined) return AppError.badRequest(`The path segment '${undecodable.slice(0, 64)}' ${NOT_PERCENT_ENCODED} ${PERCENT_ENCODING_HINT}`, { path: [NOT_PERCENT_ENCODED] });
    return new AppError(status, e.expose && e.message ? e.message : 'Bad request');
  }
  return toAppError(err);
}

/** The encodings body-parser decompresses (zstd where the runtime has it, as Node 24 does). */
const READ_ENCODINGS = ['gzip', 'deflate', 'br', ...(typeof zlib.createZstdDecompress === 'function' ? ['zstd'] : [])];

/** body-parser's `unsupported content encoding "compress"`, said as what to send instead, naming the header. */
function unsupportedEncoding(encoding: string): AppError {
  const name = encoding.trim().toLowerCase().slice(0, 32);
  const readable = `${READ_ENCODINGS.join(', ')}, or none (identity)`;
  return new AppError(415, `The request body's Content-Encoding ${name} is not supported: send it as ${readable}`, { errors: { 'Content-Encoding': [`is ${name}; the body may be ${readable}`] } });
}

/** body-parser's `unsupported charset "LATIN1"`: JSON is UTF-8 (RFC 8259 §8.1), said so, naming the header. */
function unsupportedCharset(charset: string): AppError {
  const name = charset.trim().toLowerCase().slice(0, 32);
  return new AppError(415, `The request body's charset ${name} is not supported: send JSON in UTF-8 (Content-Type: application/json, or charset=utf-8)`, { errors: { 'Content-Type': [`charset ${name} is not supported; JSON is UTF-8`] } });
}

export const notFoundHandler: RequestHandler = (req, _res, next) => next(AppError.notFound(`No route for ${req.method} ${req.path}`));

/** Up (true), down (false), or `degraded`: unavailable, but the process serves without it (a cache). */
export type HealthState = boolean | 'degraded';

export interface HealthChecks {
  [dependency: string]: () => Promise<HealthState>;
}

/**
 * Answers a method a page or document does not have: 405 problem+json with `Allow: GET, HEAD` (`what` names the page
 * in the detail). Mounted after the page's GET routes with `router.all` on the same paths.
 */
export function onlyGetAndHead(what: string): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Allow', 'GET, HEAD');
    next(new AppError(405, `${req.method} is not supported on ${what}; it answers GET, HEAD`));
  };
}

/**
 * `/health` answers while the process runs; `/health/ready` only when no dependency is down (degraded ones are named)
 * and the process is not `stopping` (503 `stopping`: a load balancer sends it nothing more while it finishes what it
 * took); with `metrics`, `/metrics` answers their Prometheus text (only on an internal port: the public one never has it).
 */
export function healthRouter(checks: HealthChecks, metrics?: Metrics, stopping?: () => boolean): express.Router {
  const router = express.Router();
  if (metrics) {
    router.get('/metrics', async (_req, res) => {
      const text = await metrics.text();
      res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
      res.end(text);
    });
    router.all('/metrics', onlyGetAndHead('the metrics endpoint'));
  }
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/health/ready', async (_req, res) => {
    const results: Record<string, string> = {};
    let ok = true;
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        const state = await withTimeout(check(), 2000).catch(() => false);
        results[name] = state === 'degraded' ? 'degraded' : state ? 'up' : 'down';
        ok &&= state !== false;
      }),
    );
    if (stopping?.()) return void res.status(503).json({ status: 'stopping', dependencies: results });
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready', dependencies: results });
  });
  router.all(['/health', '/health/ready'], onlyGetAndHead('the health endpoint'));
  return router;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

export interface HttpEntryPoint {
  /** Base URL to reach the server from this machine, e.g. http://127.0.0.1:41234 (loopback when bound to every interface). */
  address: string;
  /** What the socket is bound to, as the system says, for the log: http://0.0.0.0:8080, http://[::]:8080, http://127.0.0.1:41234. */
  bound: string;
  port: number;
  /**
   * Stops accepting connections and resolves once every request taken is answered, the last answer on each connection
   * saying `Connection: close` (idle keep-alive connections close at once); at `deadline` (ms since the epoch; default:
   * the server's grace from now) the connections still open are cut, which is logged with the requests cut.
   */
  stop(deadline?: number): Promise<void>;
  /** Requests taken and not yet answered. */
  readonly inFlight: number;
}

/**
 * The most bytes of a request line and headers at the public entry (the gateway). Node's default (16 KiB, kept on the
 * services' health ports) is below the longest URL the API promises to read: a channel name of 16,383 characters,
 * percent-encoded at up to 9 bytes a character (`%E2%80%A6`), is 147,447 bytes.
 */
export const MAX_HEADER_BYTES = 192 * 1024;

/**
 * What a 431 says of the limit: its size and what sets it. `MAX_HEADER_BYTES` is a constant (no variable changes it);
 * a server given no limit keeps Node's, which its `--max-http-header-size` option sets.
 */
export function headerLimitText(maxHeaderSize: number | undefined): string {
  const bytes = maxHeaderSize ?? httpMaxHeaderSize;
  const size = bytes % 1024 === 0 ? `${bytes / 1024} KiB (${bytes.toLocaleString('en-US')} bytes)` : `${bytes.toLocaleString('en-US')} bytes`;
  const source = maxHeaderSize === undefined ? "Node's limit, set by its --max-http-header-size option" : maxHeaderSize === MAX_HEADER_BYTES ? 'MAX_HEADER_BYTES, fixed: no variable changes it' : 'this server\'s maxHeaderSize';
  return `at most ${size} together (${source})`;
}

/** The longest request path a problem answered on the socket repeats as its `instance`; a longer one is left out. */
const MAX_INSTANCE_PATH = 2048;

/**
 * The path of the request a parser error was raised on, when the bytes it held (`rawPacket`, the last chunk read)
 * start with its request line and the path ends within them; else undefined. A request longer than one read (64 KiB)
 * has its start in an earlier chunk, which Node does not keep: its path cannot be read.
 */
export function requestPathOf(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  const head = rawPacket.toString('latin1', 0, Math.min(rawPacket.length, MAX_INSTANCE_PATH + 32));
  return /^[A-Z]{1,16} (\/[\x21-\x7e]*?)[ ?#]/.exec(head)?.[1];
}

/**
 * A request that never became one (headers past the limit, bytes that are not HTTP, a request not in within Node's
 * timeouts) is answered as every error is, problem+json with an `X-Request-Id`, instead of Node's bare status line;
 * otherwise as Node answers it: only when no answer to an earlier request on the connection has begun (its bytes must
 * not be cut into), and the connection is then destroyed, so the request goes no further. A 431 names the limit
 * (`maxHeaderSize`: Node's when undefined) and what sets it; the problem's `instance` is the request's path when it
 * can be read, else empty.
 */
function clientErrorAnswer(maxHeaderSize: number | undefined): (err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex) => void {
  return (err, socket) => {
    // Answered already and closing lingering: the parser's later errors on the bytes it still held change nothing.
    if (socket.writableEnded) return;
    const answering = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } })._httpMessage;
    if (err.code !== 'ECONNRESET' && socket.writable && !answering?._headerSent) {
      const [status, detail] =
        err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, `The request line and headers are longer than this server takes: ${headerLimitText(maxHeaderSize)}; shorten the URL or the headers`]
          : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'The request did not arrive in time']
            : [400, `The request is not valid HTTP/1.1 (${err.code ?? 'parse error'})`];
      // The rest of an over-long request is still coming: destroyed at once, the unread bytes would reset the connection
      // and the client could lose the answer before reading it. The parser is detached first, so those bytes are dropped
      // instead of raising this error again.
      socket.removeAllListeners('data');
      answerOnSocket(socket, new AppError(status, detail), '', requestPathOf(err.rawPacket));
      return;
    }
    socket.destroy();
  };
}

/**
 * CONNECT asks for a tunnel, which only a proxy makes: Node hands it to the server's 'connect' listeners, never to the
 * app, and with none it closed the socket without a word. It is a 405 problem+json like any method a path does not
 * answer (`Allow` the methods an HTTP API here answers), then the connection closes.
 */
function answerConnect(req: IncomingMessage, socket: Duplex): void {
  // Its target is `host:port`, not a path: repeated as given when short, as any instance.
  const target = req.url && req.url.length <= MAX_INSTANCE_PATH ? req.url : undefined;
  answerOnSocket(socket, new AppError(405, 'CONNECT is not supported: this server is not a proxy'), 'Allow: GET, HEAD, POST, PUT, DELETE, OPTIONS\r\n', target);
}

/**
 * Writes `error` as problem+json with an `X-Request-Id` straight on a socket the app never saw (Node's parser or its
 * CONNECT handling has it), `headers` (whole lines) before the others, then closes the connection lingering. The
 * problem's `instance` is the request target when one was read, else empty (the wire's problem always has one).
 */
function answerOnSocket(socket: Duplex, error: AppError, headers = '', instance?: string): void {
  const requestId = randomUUID();
  const body = JSON.stringify(toProblem(error, instance ?? '', requestId));
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${headers}Content-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      // As every other problem answer: never sniffed as another type, never kept by a cache on the way.
      `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
  closeLingering(socket);
}

/** How long a connection closed after an early answer stays open for the rest of what the client sends. */
export const LINGER_MS = 2000;

/**
 * Closes our side of a connection whose answer is written, as RFC 9112 §9.6 has it: what the client still sends is
 * read and dropped until it closes its side or `lingerMs` pass. Closed at once instead, the client's next bytes would
 * meet a reset, which can discard the answer before the client has read it.
 */
export function closeLingering(socket: Duplex, lingerMs = LINGER_MS): void {
  socket.end();
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
}

/**
 * An answer given before the request's body was read (a refused upload, a body that stopped arriving): it says
 * `Connection: close`, so the client stops sending (RFC 9112 §9.3), and the connection is torn down as RFC 9112 §9.6
 * has it: our side is closed once the answer is written, and what the client still sends is read and dropped until it
 * closes its side or `lingerMs` pass. Closed at once instead, the client's next bytes would meet a reset, which can
 * discard the answer before the client has read it (a client sending `Expect: 100-continue` is the usual case).
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse, lingerMs = LINGER_MS): void {
  res.setHeader('Connection', 'close');
  const socket = req.socket as Duplex & { destroySoon?: () => void };
  // Node's HTTP server calls destroySoon once the last answer of a closing connection is written (and dumps the body).
  socket.destroySoon = function lingeringClose(this: Duplex) {
    // Node dumps a body nobody began to read; one read in part (an upload past its cap) is drained here.
    req.resume();
    closeLingering(this, lingerMs);
  };
}

export interface ListenOptions {
  /** The most bytes of a request line and headers (default: Node's, 16 KiB). */
  maxHeaderSize?: number;
  /**
   * While a request's body is coming, the longest pause in it (ms; 0 or unset: none): a client that stops sending
   * part-way (a declared `Content-Length` never reached, a chunked body never ended) is answered 408 and its
   * connection closed, instead of holding it for ever. A pause the app makes (not reading) is not the client's.
   */
  bodyIdleTimeoutMs?: number;
  /**
   * While a response is being sent, the longest the client may accept none of its bytes (ms; 0 or unset: none): past
   * it the connection is closed, so the client sees the transfer aborted (a `Content-Length` not reached, a chunked
   * body never ended), and what the response held (a producer, its buffers) is let go. A pause of the app's own (its
   * answer still being made, nothing waiting to be sent) is not the client's; a client that takes bytes slowly is not
   * idle.
   */
  responseIdleTimeoutMs?: number;
  /** Where `responseIdleTimeoutMs`'s closes, and the requests a stop cuts at its grace, are told (at warn). */
  logger?: Logger;
  /**
   * Connections open at once at most (`HTTP_MAX_CONNECTIONS`; 0 or unset: none), and from one client address
   * (`HTTP_MAX_CONNECTIONS_PER_CLIENT`, enforced once the server holds half its most): a connection past either is
   * answered at once, 503 or 429 with Retry-After naming the variable, and closed, before any of its request is read
   * (at most `MAX_LINGERING_REFUSALS` such answers wait to be read at once; past it a refused connection is just
   * closed). Connections that never finish their headers
   * (each held up to the headers timeout) would otherwise take every file descriptor of the process.
   */
  connectionLimits?: { total: number; perClient: number };
  /** Names the server in the log line of a stop whose grace passed (`GracefulStop`; default: HTTP server). */
  what?: string;
}

/** The variables that set `connectionLimits` at the public entry, named in their refusals. */
export const CONNECTION_LIMIT_VARIABLES = { total: 'HTTP_MAX_CONNECTIONS', perClient: 'HTTP_MAX_CONNECTIONS_PER_CLIENT' } as const;

/**
 * Counts the server's open connections, in all and per client address, and refuses one past a limit: answered at once
 * on its socket (its request is never read) and closed.
 */
function limitConnections(server: Server, limits: { total: number; perClient: number }, refused: WeakSet<Duplex>): void {
  let open = 0;
  let lingering = 0;
  const byClient = new Map<string, number>();
  // Before Node's own listener: the refusal is written before any byte of the request is parsed.
  server.prependListener('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? '';
    const mine = byClient.get(client) ?? 0;
    // One address's share is enforced once the server holds half its most (or always, with no total): until then
    // many users behind one NAT or proxy address are not refused for sharing it.
    const pressed = limits.total === 0 || open >= limits.total / 2;
    const refusal =
      limits.total > 0 && open >= limits.total
        ? new AppError(503, `This server has ${open} connections open, its most (${CONNECTION_LIMIT_VARIABLES.total}); retry shortly`)
        : limits.perClient > 0 && pressed && mine >= limits.perClient
          ? new AppError(429, `This client has ${mine} connections open, the most one client may while the server is busy (${CONNECTION_LIMIT_VARIABLES.perClient}); reuse them or close some`)
          : undefined;
    if (refusal) {
      refused.add(socket);
      socket.on('error', () => socket.destroy());
      // A refusal lingers (its answer read before the close) only while few do: a client reconnecting as fast as it
      // can would otherwise hold a descriptor per refusal for the linger's length, past every bound.
      if (lingering >= MAX_LINGERING_REFUSALS) {
        socket.destroy();
        return;
      }
      lingering++;
      socket.once('close', () => lingering--);
      answerOnSocket(socket, refusal, 'Retry-After: 2\r\n');
      return;
    }
    open++;
    byClient.set(client, mine + 1);
    socket.once('close', () => {
      open--;
      const left = (byClient.get(client) ?? 1) - 1;
      if (left > 0) byClient.set(client, left);
      else byClient.delete(client);
    });
  });
}

/** Refused connections left open at once for their answer to be read; past it one more is closed without a word. */
export const MAX_LINGERING_REFUSALS = 256;

/** The variable that sets `bodyIdleTimeoutMs` at the public entry, named in its 408. */
export const BODY_IDLE_TIMEOUT_VARIABLE = 'BODY_IDLE_TIMEOUT_MS';
/** The variable that sets `responseIdleTimeoutMs` at the public entry, named in its log. */
export const RESPONSE_IDLE_TIMEOUT_VARIABLE = 'RESPONSE_IDLE_TIMEOUT_MS';

/**
 * The responses `responseIdleTimeoutMs` ended (their clients stopped reading): told at warn with the reason already, so
 * what was sending them sees the client's doing, not a failure of its own.
 */
const endedForIdleClient = new WeakSet<ServerResponse>();

/** Whether `res` was ended because its client accepted none of its bytes for `responseIdleTimeoutMs`. */
export function endedForIdleness(res: ServerResponse): boolean {
  return endedForIdleClient.has(res);
}

/**
 * Closes a response's connection once its client accepted none of its bytes for `idleMs`. It is the socket's own
 * inactivity timeout, which Node does not fire while a write in progress moves (the kernel takes the bytes as the
 * client reads them, however slowly), set for this response alone (Node sets the keep-alive timeout once it is sent).
 * When it fires with nothing waiting to be sent, the pause is the app's (making its answer, reading the body), and the
 * response goes on; with bytes waiting, the client stopped taking them. Its first firing during a write only takes the
 * write's measure (Node compares the bytes queued with those of the last look), so a stalled client is cut after
 * between once and twice `idleMs`.
 */
function watchResponseIdle(req: IncomingMessage, res: ServerResponse, idleMs: number, logger: Logger | undefined): void {
  res.setTimeout(idleMs, () => {
    const socket = res.socket ?? req.socket;
    if (socket.destroyed || socket.writableLength === 0) return;
    endedForIdleClient.add(res);
    // The path alone: a signed URL's query (its signature) is a credential, never logged.
    logger?.warn({ method: req.method, url: instanceOf(req), requestId: res.getHeader('X-Request-Id'), idleMs, bytesWaiting: socket.writableLength, reason: `the client accepted none of the response's bytes for ${idleMs} ms (${RESPONSE_IDLE_TIMEOUT_VARIABLE})` }, 'response ended before its end: the client stopped reading it, its connection is closed');
    socket.destroy();
  });
}

/**
 * Watches a request's body for `idleMs` without a byte from the client (its socket's bytes read), and then answers
 * 408 problem+json with `Connection: close` (or, an answer begun, destroys the connection). The app's own stall does
 * not count: while the request's buffer is full (the app is not reading), the client is held back by us.
 */
function watchBodyIdle(req: IncomingMessage, res: ServerResponse, idleMs: number): void {
  const declared = req.headers['content-length'];
  if (req.complete || (req.headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0'))) return;
  const socket = req.socket;
  const step = Math.max(10, Math.floor(idleMs / 4));
  let seen = socket.bytesRead;
  let idleSince = Date.now();
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed || res.writableEnded) return clearInterval(timer);
    // Not the client's pause: the app is not reading (the request's buffer is full), or Node holds the connection's
    // reading while an earlier answer on it is backed up (pipelining).
    const appHolds = req.readableLength >= req.readableHighWaterMark || (socket as Duplex & { isPaused(): boolean }).isPaused();
    if (socket.bytesRead !== seen || appHolds) {
      seen = socket.bytesRead;
      idleSince = Date.now();
      return;
    }
    if (Date.now() - idleSince < idleMs) return;
    clearInterval(timer);
    if (res.headersSent) return void socket.destroy();
    // The 408 says the request was not done: what the app was reading of the body is let go, so a rest that comes while
    // the connection lingers never completes a parse and runs the request after all.
    req.removeAllListeners('data');
    req.removeAllListeners('end');
    const requestId = String(res.getHeader('X-Request-Id') ?? randomUUID());
    answerUnread(req, res, new AppError(408, `The request body stopped arriving: nothing came for ${idleMs} ms (${BODY_IDLE_TIMEOUT_VARIABLE}), so the request was not read; send it again whole`), requestId);
  }, step);
  timer.unref();
  res.once('close', () => clearInterval(timer));
}

/**
 * A problem's `instance` for a request answered outside the app: the one the app set (a signed URL's path), else the
 * request's path without its query (a signed upload's signature is a credential), empty past MAX_INSTANCE_PATH.
 */
function instanceOf(req: IncomingMessage): string {
  const set = (req as IncomingMessage & { problemInstance?: string }).problemInstance;
  if (set !== undefined) return set;
  const path = (req.url ?? '').split(/[?#]/, 1)[0] as string;
  return path.length <= MAX_INSTANCE_PATH ? path : '';
}

/**
 * An `Expect` other than `100-continue` (Node answers that one itself when nothing listens for it): RFC 9110 §10.1.1
 * has a server that does not meet an expectation answer 417. Node wrote a bare 417 with no body; here it is
 * problem+json with an `X-Request-Id` as every error, the request's body unread and the connection closed after it.
 */
function answerExpectation(req: IncomingMessage, res: ServerResponse): void {
  const expectation = String(req.headers.expect ?? '').slice(0, 100);
  answerUnread(req, res, new AppError(417, `The expectation ${JSON.stringify(expectation)} is not met: this server meets only 100-continue (the request was not read; send it without Expect)`), randomUUID());
}

/**
 * Answers a request the app never finished reading (or never saw) with `error` as problem+json and its request id,
 * its `instance` as instanceOf gives it; the connection closes after the answer, lingering for the rest of the body.
 */
function answerUnread(req: IncomingMessage, res: ServerResponse, error: AppError, requestId: string): void {
  const body = JSON.stringify(toProblem(error, instanceOf(req), requestId));
  closeAfterAnswer(req, res);
  res.writeHead(error.status, { 'Content-Type': 'application/problem+json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store', 'X-Request-Id': requestId });
  res.end(body);
}

/**
 * Listens on `port` (0 picks a free one) and returns the address plus a graceful stop (`GracefulStop`) bounded by
 * `graceMs` (`SHUTDOWN_GRACE_MS`; default `DEFAULT_SHUTDOWN_GRACE_MS`).
 */
export function listen(app: Express, port: number, host = '0.0.0.0', graceMs: number | undefined = undefined, options: ListenOptions = {}): Promise<HttpEntryPoint> {
  return new Promise((resolve, reject) => {
    const refused = new WeakSet<Duplex>();
    const { bodyIdleTimeoutMs: bodyIdleMs, responseIdleTimeoutMs: responseIdleMs } = options;
    // A connection refused for the limits is answered on its socket: a request it still sends reaches no handler; nor
    // does one pipelined behind a stopping connection's last answer.
    const serve = (req: IncomingMessage, res: ServerResponse) => {
      if (refused.has(req.socket)) return;
      if (!stopper.take(req, res)) return;
      app(req, res);
      if (bodyIdleMs) watchBodyIdle(req, res, bodyIdleMs);
      if (responseIdleMs) watchResponseIdle(req, res, responseIdleMs, options.logger);
    };
    const server: Server = createServer({ ...(options.maxHeaderSize ? { maxHeaderSize: options.maxHeaderSize } : {}), connectionsCheckingInterval: 5_000 }, serve);
    const stopper = new GracefulStop(server, { ...(options.logger ? { logger: options.logger } : {}), graceMs: graceMs ?? DEFAULT_SHUTDOWN_GRACE_MS, what: options.what ?? 'HTTP server' });
    server.on('clientError', clientErrorAnswer(options.maxHeaderSize || undefined));
    if (options.connectionLimits) limitConnections(server, options.connectionLimits, refused);
    // A body that keeps arriving is not cut however long it takes (an upload over a slow link); one that stops is
    // answered 408 by the idle watch. Node's own bound on a whole request (300 s) would cut a 10 GiB upload at 34 MB/s.
    if (bodyIdleMs) server.requestTimeout = 0;
    server.on('connect', answerConnect);
    server.on('checkExpectation', answerExpectation);
    server.listen(port, host);
    // Idle keep-alive connections stay open for a minute (as load balancers expect): a client that pauses for CPU work
    // between two requests must not reuse a socket the server closed meanwhile (the request would fail unsent).
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    server.once('error', reject);
    server.once('listening', () => {
      const addr = server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host;
      resolve({
        address: `http://${shownHost}:${addr.port}`,
        bound: `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`,
        port: addr.port,
        stop: (deadline?: number) => stopper.stop(deadline),
        get inFlight() {
          return stopper.inFlight;
        },
      });
    });
  });
}
