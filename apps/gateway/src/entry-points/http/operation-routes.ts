import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { UrlSigner } from '@pitwall/blob-store';
import { EncodedJson, REPLY_ANSWER_HELD, REPLY_ANSWER_TAG, REQUEST_HELD_ANSWER, type Bus, type Claim, type ClaimRedeemer } from '@pitwall/bus';
import { AppError, endedForIdleness, METRICS_ROUTE, TIMER_MAX_MS } from '@pitwall/service-kit';
import { ENTITY_REPLY_HEADERS, isBusTarget, partitionOf, partitionService, type BoundRequest, type BusTarget, type HttpMethod, type Operation } from '@pitwall/contracts';
import { callerContext, type AuthenticatedCaller, type Authenticator } from '../../domain/caller';
import { HeldAnswers } from '../../domain/held-answers';
import type { ReadLimiter } from '../../domain/read-limiter';
import { authenticate, authenticateFor, permit } from './authentication';
import { commandHeaders, refuseIdempotencyKey } from './idempotency-key';
import { malformedPathParameters, malformedQueryParameters, percentEncodingRefusal } from './percent-encoding';
import { jsonBodyBytes, jsonBodyReader, requestBinding } from './request-binding';
import { compressor, ResponseEncoder } from './response-encoding';

/**
 * An operation the gateway answers itself (`target: { gateway: name }`). `caller` is undefined on signed-URL
 * operations (the signature is the authority); `http` is the exchange itself, for handlers that stream.
 */
export type GatewayHandler = (caller: AuthenticatedCaller, request: BoundRequest, http: { req: Request; res: Response }) => Promise<unknown>;

/** A gateway handler's streamed answer (a download): its status, headers and body. */
export class StreamReply {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: Readable,
  ) {}
}

export interface OperationRoutesDeps {
  bus: Bus;
  auth: Authenticator;
  /** The handlers of the table's gateway-local operations, by name. */
  handlers: Record<string, GatewayHandler>;
  /** JSON body limit, e.g. '1mb'. */
  bodyLimit?: string;
  /** Per-user concurrency of the table's `limitedRead` operations; unlimited without one. */
  readLimiter?: ReadLimiter;
  /** Verifies the signed URLs of `permission: 'signature'` operations; without it they are not mounted. */
  signer?: UrlSigner;
  /** Partition queues per service whose operations carry an ordering key (`TIMING_PARTITIONS`); none: its one queue. */
  partitions?: Readonly<Record<string, number>>;
  /**
   * A write's wait for its service grows with its JSON body: `baseMs` (the operation's own, else `BUS_TIMEOUT_MS`)
   * plus `perMbMs` per MiB (`BUS_TIMEOUT_MS_PER_MB`). Absent: the operation's own or the bus's timeout.
   */
  commandTimeout?: { baseMs: number; perMbMs: number };
  /** Fetches the answers a service replied with a claim for (large data file reads); without it such a reply is a 502. */
  claims?: ClaimRedeemer;
  /** Large read answers fetched by claim, kept for the same request's next time (HELD_ANSWERS_BYTES; absent: none kept). */
  heldAnswers?: HeldAnswers;
  /** The content coding of the answers (RESPONSE_COMPRESSION); absent: compressed with the defaults. */
  encoder?: ResponseEncoder;
}

/**
 * How long the gateway waits for a command: a big write (10,000 laps in one PUT) queued behind others of its size
 * needs longer than a small one, and answering it at its commit beats a 504 whose outcome the client must find out.
 */
export function commandTimeoutMs(op: Operation, bodyBytes: number | undefined, timeout: OperationRoutesDeps['commandTimeout']): number | undefined {
  if (!timeout || op.method === 'get' || !bodyBytes) return op.busTimeoutMs;
  // No longer than a timer keeps: past it the timer would fire at once and every big write answer 504.
  return Math.min(TIMER_MAX_MS, (op.busTimeoutMs ?? timeout.baseMs) + Math.round((bodyBytes / (1024 * 1024)) * timeout.perMbMs));
}

const METHOD_ORDER: readonly HttpMethod[] = ['get', 'post', 'put', 'delete'];
/** A path segment an entity type answers only when it declares the operation; otherwise it is not an id. */
const SEARCH_SEGMENT = 'Search';

/**
 * Every operation of the table as a route: the API key is checked first (before any body is read), then the
 * permission, then the body is read as its kind says, bound and validated once, and the operation's command is
 * sent on the bus; its reply's JSON bytes go to the client unparsed. Other methods on a known path are a 405.
 */
export function operationRoutes(operations: readonly Operation[], deps: OperationRoutesDeps): RequestHandler & { stack: unknown[] } {
  const jsonBody = jsonBodyReader(deps.bodyLimit);
  // One router per first path segment (one per entity type), found by a map lookup: a request is matched against its
  // own few routes only, not walked past every other group's mount first (the last groups were 60 matches deep).
  // Matched case-insensitively, as express matches paths.
  const groups = new Map<string, Operation[]>();
  for (const op of operations) {
    const base = `/${op.path.split('/')[1]}`;
    groups.set(base, [...(groups.get(base) ?? []), op]);
  }
  const routers = new Map<string, express.Router>();
  // The methods each path answers, as its 405 lists them (`Allow`).
  const allowOf = new Map<string, string>();
  for (const [base, ops] of groups) {
    const r = express.Router();
    routers.set(base.slice(1).toLowerCase(), r);
    const paths = [...new Set(ops.map((op) => routePath(op.path)))];
    // Literal paths before parameterised ones: /Tyres/Search is not the Tyre with id 'Search'.
    paths.sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
    const hasIdPath = paths.some((p) => p.includes(':'));
    if (hasIdPath && !paths.includes(`${base}/${SEARCH_SEGMENT}`)) {
      const name = base.slice(1);
      r.all(`${base}/${SEARCH_SEGMENT}`, authenticate(deps.auth), () => {
        throw AppError.notFound(`${name} cannot be searched`);
      });
    }
    for (const path of paths) {
      const onPath = ops.filter((op) => routePath(op.path) === path).sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
      // The operation's path template (`/RunSheets/{id}`) names its series in the metrics, whatever ids are asked for.
      const named: RequestHandler = (_req, res, next) => {
        res.locals[METRICS_ROUTE] = (onPath[0] as Operation).path;
        next();
      };
      for (const op of onPath) r[op.method](path, named, authenticateFor(op, deps), permit(op), ...(op.refusal ? [refuse(op.refusal)] : []), ...(op.limitedRead && deps.readLimiter ? [limitReads(deps.readLimiter)] : []), ...(op.bodyKind === 'stream' ? [refuseIdempotencyKey(op)] : jsonBody), handle(op, deps));
      // Express answers HEAD wherever it answers GET (and OPTIONS lists both): so does the 405.
      allowOf.set(path, onPath.flatMap((op) => (op.method === 'get' ? ['GET', 'HEAD'] : [op.method.toUpperCase()])).join(', '));
      r.all(path, named, authenticateFor(onPath[0] as Operation, deps), methodNotAllowed(allowOf.get(path) as string));
    }
  }
  // The groups of signed URLs: their query carries the signature, which no answer echoes.
  const signed = new Set([...groups].filter(([, ops]) => ops.some((op) => op.permission === 'signature')).map(([base]) => base.slice(1).toLowerCase()));
  // Literal paths first, as the routes are matched.
  const opsOf = new Map([...groups].map(([base, ops]) => [base.slice(1).toLowerCase(), [...ops].sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')))]));
  const dispatch: RequestHandler = (req, res, next) => {
    const end = req.path.indexOf('/', 1);
    const first = (end < 0 ? req.path.slice(1) : req.path.slice(1, end)).toLowerCase();
    const r = routers.get(first);
    if (!r) return next();
    // A problem names the path only: a URL with its signature and expiry is a credential (logs, bug reports).
    if (signed.has(first)) req.problemInstance = req.originalUrl.split('?', 1)[0];
    if (refuseMalformedEncoding(opsOf.get(first) ?? [], allowOf, deps, req, res, next)) return;
    r(req, res, next);
  };
  // Mounted as it is (no router around it to walk first); its routes, as a router shows its own (`stack`), for
  // whoever lists what is mounted.
  return Object.assign(dispatch, { stack: [...routers.values()].flatMap((r) => r.stack) });
}

const routePath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * A path or query value that is not valid percent-encoding (`50%`, `%E0%A4%A`) is a 400 naming it by its parameter,
 * refused here for every operation of the table before its route would fail to decode it: after the API key and the
 * permission, as the other values are (a signed URL's signature covers a GUID, so it is not checked first). A path
 * that is no operation's is left to the routes (404). Returns whether the request was answered.
 */
function refuseMalformedEncoding(ops: readonly Operation[], allowOf: ReadonlyMap<string, string>, deps: OperationRoutesDeps, req: Request, res: Response, next: NextFunction): boolean {
  const queryAt = req.url.indexOf('?');
  if (!req.path.includes('%') && (queryAt < 0 || !req.url.includes('%', queryAt))) return false;
  if (req.method === 'OPTIONS') return false;
  // The first path that matches, as the routes are tried (literal paths first); then its operation of this method.
  let matched: Operation | undefined;
  let inPath: ReturnType<typeof malformedPathParameters>;
  for (const candidate of ops) {
    inPath = malformedPathParameters(candidate.path, req.path);
    if (inPath) {
      matched = candidate;
      break;
    }
  }
  if (!matched || !inPath) return false;
  const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
  const op = ops.find((o) => o.path === matched.path && o.method === method);
  if (!op) {
    // No operation of this method there: a 405, as the route answers, whatever the encoding of its values.
    if (inPath.length === 0) return false;
    runThen([authenticateFor(matched, deps), methodNotAllowed(allowOf.get(routePath(matched.path)) as string)], req, res, next, () => next());
    return true;
  }
  const malformed = [...inPath, ...(op.query && queryAt >= 0 ? malformedQueryParameters(req.url.slice(queryAt + 1)) : [])];
  if (malformed.length === 0) return false;
  const checks = op.permission === 'signature' ? [] : [authenticateFor(op, deps), permit(op)];
  runThen(checks, req, res, next, () => next(percentEncodingRefusal(malformed)));
  return true;
}

/** Runs middleware one after the other (a throw or a rejection goes to `next`), then `done`. */
function runThen(handlers: readonly RequestHandler[], req: Request, res: Response, next: NextFunction, done: () => void): void {
  const step =
    (i: number) =>
    (err?: unknown): void => {
      if (err) return next(err);
      const handler = handlers[i];
      if (!handler) return done();
      try {
        Promise.resolve(handler(req, res, step(i + 1))).catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
  step(0)();
}

/** An operation the table always refuses (a write of a read-only type): its problem, before the body is read. */
function refuse(refusal: NonNullable<Operation['refusal']>): RequestHandler {
  return () => {
    throw new AppError(refusal.status, refusal.detail);
  };
}

const timeoutOption = (timeoutMs: number | undefined) => (timeoutMs ? { timeoutMs } : {});

function handle(op: Operation, deps: OperationRoutesDeps): RequestHandler {
  const target = op.target;
  const local = isBusTarget(target) ? undefined : deps.handlers[target.gateway];
  if (!isBusTarget(target) && !local && !(op.permission === 'signature' && !deps.signer)) throw new Error(`${op.operationId}: the gateway has no handler ${target.gateway}`);
  const bind = requestBinding(op);
  const encoder = deps.encoder ?? new ResponseEncoder();
  return async (req, res) => {
    // A limited read's slot is kept until this settles (its bus reply came and its claim was spent), not only until
    // the client goes: a client that left at once would otherwise start any number of reads at the service.
    const slot = res.locals[READ_SLOT] as ReadSlot | undefined;
    // Its client gone before it was asked (its slot given back then): not asked at all.
    if (slot && res.destroyed) return;
    slot?.begin();
    try {
      await answer(req, res);
    } finally {
      slot?.settle();
    }
  };

  async function answer(req: Request, res: Response): Promise<void> {
    const bound = bind(req, res);
    if (local) return sendLocal(op, req, res, await local(req.caller, bound, { req, res }), encoder);
    if (!isBusTarget(target)) return;
    const message = target.toMessage(bound);
    const service = serviceOf(target, message, deps.partitions);
    // A large read answered before may be held here: the service is asked whether it is still the answer (held-answers.ts).
    const holding = op.limitedRead ? deps.heldAnswers : undefined;
    const heldKey = holding ? HeldAnswers.keyOf(service, target.name, message) : '';
    const held = holding?.get(heldKey);
    const reply = await deps.bus
      .requestEncoded(service, target.name, { caller: callerContext(req.caller), ...message }, { headers: { requestId: req.requestId, ...commandHeaders(op, req, message), ...(held ? { [REQUEST_HELD_ANSWER]: held.tag } : {}) }, ...timeoutOption(commandTimeoutMs(op, jsonBodyBytes(req), deps.commandTimeout)) })
      .catch((err: unknown) => {
        // A refused or failed read leaves nothing held for it (a deleted file's bytes are not kept on).
        holding?.delete(heldKey);
        throw err;
      });
    if (op.responseKind === 'empty') {
      res.status(op.response.status).end();
      return;
    }
    const modified = reply.headers[ENTITY_REPLY_HEADERS.lastModifiedTime];
    if (modified) res.setHeader('X-Last-Modified-Time', modified);
    const id = reply.headers[ENTITY_REPLY_HEADERS.entityId];
    if (op.response.location && id) res.setHeader('Location', `${op.path}/${id}`);
    const heldTag = reply.headers[REPLY_ANSWER_HELD];
    if (heldTag !== undefined) {
      if (!held || heldTag !== held.tag) throw new AppError(502, 'The service answered with an answer this gateway does not hold');
      res.status(op.response.status).type(held.contentType);
      return encoder.send(req, res, held.bytes);
    }
    // Another answer than the one held (kept in its place below when it can be).
    holding?.delete(heldKey);
    const claim = reply.claim;
    const tag = reply.headers[REPLY_ANSWER_TAG];
    if (claim) return sendClaimed(claim, op, req, res, deps.claims, encoder, tag ? holding?.keeper(heldKey, tag, claim.contentType, claim.length) : undefined);
    // The service rendered the body: its bytes are passed on as they are (compressed when asked), never parsed and re-serialised.
    res.status(op.response.status).type(reply.contentType ?? 'application/json');
    return encoder.send(req, res, reply.json);
  }
}

/** The most listeners of one event on a claimed answer's response (see sendClaimed). */
const CLAIMED_ANSWER_MAX_LISTENERS = 32;

/**
 * A large answer the service kept (the claim check): fetched once from the instance that made it and streamed to the
 * client as it comes, with its length when known (a binary body), else chunked; compressed on the way when the client
 * accepts it (chunked then: the compressed length is known only at the end), the held copy kept of the bytes before.
 * A client that goes stops the fetch (and the producer behind it); a fetch that breaks off ends this answer as aborted
 * (its socket destroyed: no last chunk, a compressed stream never finished), never as a shorter body that looks complete.
 */
async function sendClaimed(claim: Claim, op: Operation, req: Request, res: Response, claims: ClaimRedeemer | undefined, encoder: ResponseEncoder, keeper?: Transform): Promise<void> {
  if (!claims) throw new AppError(502, 'The service answered with a claim this gateway cannot redeem');
  // HTTP/1.0 has no chunked framing: a body without a Content-Length (a JSON read, a compressed one) ends by closing the
  // connection, as a transfer that broke off also ends, so a client (or a proxy hop speaking 1.0, as nginx does by
  // default) could not tell the two apart. Such an answer is refused before it is fetched; its claim is spent, so its
  // producer stops; one of known length goes as it is, never compressed.
  const http10 = req.httpVersionMajor === 1 && req.httpVersionMinor === 0;
  if (http10 && claim.length === undefined) {
    await claims.redeem(claim, callerContext(req.caller).accountId).then(
      (spent) => spent.body.destroy(),
      () => undefined,
    );
    throw new AppError(505, 'This answer is streamed without a length known beforehand, which HTTP/1.0 can end only by closing the connection, as a transfer that broke off also ends: ask over HTTP/1.1 (behind a proxy, have it speak HTTP/1.1 to the gateway: nginx proxy_http_version 1.1), or read the binary body, whose length is known');
  }
  const answer = await claims.redeem(claim, callerContext(req.caller).accountId);
  if (res.destroyed) {
    answer.body.destroy();
    return;
  }
  if (req.method === 'HEAD') {
    // The head alone: the claim spent and its producer stopped, not the whole answer made and read to be thrown away.
    answer.body.destroy();
    res.status(op.response.status).type(answer.contentType);
    if (answer.length !== undefined) res.setHeader('Content-Length', String(answer.length));
    res.end();
    return;
  }
  res.status(op.response.status).type(answer.contentType);
  const coding = http10 ? undefined : encoder.encodingFor(req, res, answer.contentType, answer.length);
  if (!coding && answer.length !== undefined) {
    res.setHeader('Content-Length', String(answer.length));
    // Node refuses a write past it: bytes past a Content-Length would be read as the next answer on the connection.
    res.strictContentLength = true;
  }
  // Whose doing an end before the last byte is: the client's when its side of the connection closed on its own (its
  // FIN, or a reset: a socket error that is not the pipeline's own, which destroying the response passes to the
  // socket); the service's when its answer broke off.
  const socket = req.socket;
  let clientEnded = false;
  let socketError: unknown;
  const ended = (): void => void (clientEnded = true);
  const failed = (err: unknown): void => void (socketError ??= err);
  socket.once('end', ended).once('error', failed);
  const stages: Transform[] = [...(keeper ? [keeper] : []), ...(coding ? [compressor(coding, answer.length)] : [])];
  if (coding) res.setHeader('Content-Encoding', coding);
  // The pipeline's own 'close' listeners on the response (end-of-stream's, pipe's) beside the gateway's four (its drain,
  // the metrics timer, the idle timer, the read slot) pass Node's default of 10, and Node printed a
  // MaxListenersExceededWarning for every claimed answer: a fixed few per response, which ends with it, not a leak.
  res.setMaxListeners(CLAIMED_ANSWER_MAX_LISTENERS);
  await pipeline([answer.body, ...stages, res])
    .catch((err: unknown) => {
      res.destroy();
      if (clientEnded || endedForIdleness(res) || (socketError !== undefined && socketError !== err)) req.log.info({ claim: claim.id }, 'the client went before the claimed answer ended; its producer is stopped');
      else req.log.warn({ claim: claim.id, reason: (err as Error).message }, 'claimed answer broke off before its end: the transfer was aborted');
    })
    .finally(() => socket.off('end', ended).off('error', failed));
}

/** The queue a message goes to: with an ordering key and partitions, the partition its key hashes to. */
function serviceOf(target: BusTarget, message: ReturnType<BusTarget['toMessage']>, partitions: OperationRoutesDeps['partitions']): string {
  const count = partitions?.[target.service];
  if (!target.orderingKey || !count) return target.service;
  return partitionService(target.service, partitionOf(target.orderingKey(message), count));
}

/** A gateway handler's answer; a download (StreamReply: an attached file's stored bytes, whole or a range) is never compressed. */
async function sendLocal(op: Operation, req: Request, res: Response, result: unknown, encoder: ResponseEncoder): Promise<void> {
  if (result instanceof StreamReply) {
    res.status(result.status).set(result.headers);
    // Either side ending early ends both: a client gone mid-body closes the file (or the store's response) it read.
    pipeline(result.body, res).catch((err: unknown) => {
      // A client that left is its own doing; a source that failed mid-body (the store) is told.
      if ((err as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') res.req.log?.warn({ err }, 'a streamed answer failed part-way; its transfer was aborted');
      res.destroy();
    });
  } else if (op.responseKind === 'empty') res.status(op.response.status).end();
  else if (result instanceof EncodedJson) await encoder.send(req, res.status(op.response.status).type('application/json'), result.json);
  else if (Buffer.isBuffer(result)) await encoder.send(req, res.status(op.response.status).type(op.response.contentTypes.find((t) => !t.includes('json')) ?? 'application/octet-stream'), result);
  else if (result === undefined) res.status(op.response.status).json(result);
  else await encoder.send(req, res.status(op.response.status).type('application/json'), Buffer.from(JSON.stringify(result)));
}

/** Where a limited read's slot waits for its handler (res.locals): begun when the handler starts, settled when it ends. */
const READ_SLOT = 'pitwallReadSlot';

interface ReadSlot {
  begin(): void;
  settle(): void;
}

/**
 * Holds a slot of the caller's concurrent reads for the request's life: released once the response has closed (sent,
 * or the client went) and, when its handler began, that handler has settled (the service answered or failed, the claim
 * was spent); the body is read only once admitted. Beyond the queue: 429 with Retry-After.
 */
function limitReads(limiter: ReadLimiter): RequestHandler {
  return async (req, res, next) => {
    const gone = new AbortController();
    const onClose = () => gone.abort(new AppError(499, 'The client closed the request'));
    res.on('close', onClose);
    let release: () => Promise<void>;
    try {
      release = await limiter.acquire(req.caller.userId, gone.signal);
    } catch (err) {
      // A ReadLimitError carries its Retry-After; the central problem handler sets the header.
      res.off('close', onClose);
      throw err;
    }
    res.off('close', onClose);
    // The client went while the places were being taken: given back at once (its close event has passed).
    if (gone.signal.aborted || res.destroyed) {
      await release();
      return;
    }
    let begun = false;
    let settled = false;
    let closed = false;
    let released = false;
    const releaseOnce = (): void => {
      if (released || !closed || (begun && !settled)) return;
      released = true;
      void release();
    };
    const slot: ReadSlot = {
      begin: () => void (begun = true),
      settle: () => {
        settled = true;
        releaseOnce();
      },
    };
    res.locals[READ_SLOT] = slot;
    res.on('close', () => {
      closed = true;
      releaseOnce();
    });
    next();
  };
}

/** Another method on a path that exists: 405 with the methods it has (`Allow`), not a 404 saying it does not exist. */
function methodNotAllowed(allow: string): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    res.setHeader('Allow', allow);
    throw new AppError(405, `${req.method} is not supported on ${req.baseUrl}${req.path === '/' ? '' : req.path}; it answers ${allow}`);
  };
}

