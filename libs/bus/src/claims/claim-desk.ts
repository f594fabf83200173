import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { Readable } from 'node:stream';
import { AppError, DEFAULT_SHUTDOWN_GRACE_MS, GracefulStop, listenRefusal, type Logger } from '@pitwall/service-kit';
import { EncodedJson } from '../encoded-json';
import { JSON_MEDIA_TYPE, concatBytes, type BulkAnswer } from './bulk-answer';
import { CLAIM_ACCOUNT_HEADER, CLAIM_AUTH_SCHEME, CLAIM_DESK_HEADER, CLAIM_OTHER_DESK_STATUS, REPLY_CLAIM, verifyClaimToken, type Claim } from './claim';
import { REPLY_ANSWER_HELD, REPLY_ANSWER_TAG } from './held-answer';

export interface ClaimDeskOptions {
  /** Shared secret of the redemption tokens. */
  secret: string;
  /** Secrets still accepted during a rotation (CLAIM_SECRET_PREVIOUS): a redeemer not yet given the new one signs with it. */
  previousSecrets?: readonly string[];
  /** Answers up to this many bytes are replied inline. */
  inlineMaxBytes: number;
  /** An unredeemed claim is dropped after this (ms). */
  ttlMs: number;
  /**
   * Claims waiting for their redemption at once, at most (CLAIM_MAX_WAITING, default DEFAULT_CLAIM_MAX_WAITING): each
   * holds what was pulled before it (up to inlineMaxBytes and a chunk) and its producer; past it an answer is a 503
   * with Retry-After, its producer stopped.
   */
  maxWaiting?: number;
  /** Internal port (0: a free one) and interface of the claim endpoint. */
  port: number;
  host: string;
  /** Host name the claims give (default: `host`, or the machine's name when `host` is a wildcard). */
  advertiseHost?: string;
  logger: Logger;
}

/** Claims waiting to be fetched at once by default (CLAIM_MAX_WAITING). */
export const DEFAULT_CLAIM_MAX_WAITING = 256;

/** A claim waiting for its redemption: the bytes pulled so far and the rest of its producer. */
interface Waiting {
  claim: Claim;
  head: Uint8Array[];
  rest: AsyncIterator<Uint8Array> | undefined;
  /** All of its bytes when they were in memory already (`BulkAnswer.bytes`): sent in one write. */
  whole?: Uint8Array;
  abort: AbortController;
  timer: NodeJS.Timeout;
}

/** The desks of this process, by id: a claim one of them made is redeemed in-process, without HTTP. */
const desksInProcess = new Map<string, ClaimDesk>();

/** A claim's refusal at its desk: status and why. */
export class ClaimRefusal extends AppError {}

/**
 * The issuing side of the claim check, one per service instance. `reply` answers a bulk answer inline when it is
 * small, else keeps it (its producer held back by backpressure) and replies a `Claim` naming this instance's internal
 * endpoint (`GET /claims/<id>`), where it is streamed once, to the account it was made for, before its expiry.
 */
export class ClaimDesk {
  readonly id = randomUUID();
  private readonly waiting = new Map<string, Waiting>();
  /** Claims redeemed or dropped, until their expiry: a second redemption is told so (410), not "unknown". */
  private readonly spent = new Map<string, { accountId: string; reason: string; timer: NodeJS.Timeout }>();
  private server: Server | undefined;
  private graceful: GracefulStop | undefined;
  /** Told when the last waiting claim is redeemed or dropped (a stop waits for it). */
  private allSettled: (() => void) | undefined;
  private base = '';

  constructor(private readonly options: ClaimDeskOptions) {}

  /** Listens on the internal port; returns its base URL as the claims give it. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      // Stopping: a redemption pipelined behind its connection's last answer is not taken (see GracefulStop).
      if (graceful.take(req, res)) void this.serve(req, res);
    });
    const graceful = new GracefulStop(server, { logger: this.options.logger, what: 'claim port' });
    // A redeemer that stops reading (its client stalled) frees the producer once the socket idles this long.
    server.setTimeout(this.options.ttlMs);
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      // A host that is not this machine's, or a port in use, names the setting (CLAIM_HOST, CLAIM_PORT).
      server.once('error', (err) => reject(listenRefusal(err, { port: 'CLAIM_PORT', host: 'CLAIM_HOST' })));
      server.listen(this.options.port, this.options.host, () => resolve());
    });
    this.server = server;
    this.graceful = graceful;
    const { port } = server.address() as AddressInfo;
    const wildcard = this.options.host === '0.0.0.0' || this.options.host === '::';
    const host = this.options.advertiseHost ?? (wildcard ? hostname() : this.options.host);
    this.base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    desksInProcess.set(this.id, this);
    return this.base;
  }

  /**
   * Stops once what it gave out is fetched: the claims it replied are the answers of reads it took, so it keeps
   * listening until every waiting claim is redeemed (or dropped: expired, its redeemer gone), then stops taking
   * connections and lets the transfers in progress end (`GracefulStop`: the last answer on each connection says
   * `Connection: close`). At `deadline` (ms since the epoch; default SHUTDOWN_GRACE_MS's default from now) the claims
   * still waiting are dropped (their producers stop) and the transfers still running are cut, which is logged.
   */
  async stop(deadline = Date.now() + DEFAULT_SHUTDOWN_GRACE_MS): Promise<void> {
    // Its redeemers' kept connections close after their answers (a redeemer sends on a new one what it sent on a
    // connection closed idle: ClaimRedeemer.redeem).
    this.graceful?.closeConnections();
    if (this.waiting.size > 0) {
      const settled = new Promise<void>((resolve) => (this.allSettled = resolve));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
      await Promise.race([settled, late]);
      clearTimeout(timer);
      this.allSettled = undefined;
      if (this.waiting.size > 0) this.options.logger.warn({ claims: this.waiting.size }, 'claim port: the shutdown grace (SHUTDOWN_GRACE_MS) passed with claims not redeemed; they are dropped');
    }
    desksInProcess.delete(this.id);
    for (const id of [...this.waiting.keys()]) this.drop(id, 'the service stopped');
    for (const s of this.spent.values()) clearTimeout(s.timer);
    this.spent.clear();
    const graceful = this.graceful;
    this.server = undefined;
    this.graceful = undefined;
    await graceful?.stop(deadline);
  }

  /** A waiting claim left the desk (redeemed or dropped): a stop waiting for the last one goes on. */
  private settled(): void {
    if (this.waiting.size === 0) this.allSettled?.();
  }

  /** Claims waiting for redemption (tests and the bench watch it). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /**
   * The bus reply of `answer`, made for `accountId`: its bytes when they come to at most CLAIM_INLINE_MAX_BYTES
   * (pulled until they pass it, or known from its length), else a claim on the rest.
   */
  async reply(answer: BulkAnswer, accountId: string): Promise<EncodedJson> {
    // The asker holds this very answer: a header says so, nothing is kept or sent.
    if (answer.held) {
      if (!answer.tag) throw new Error('a held answer without its tag: the asker could not tell which');
      return EncodedJson.of(null, { [REPLY_ANSWER_HELD]: answer.tag });
    }
    const tagged: Record<string, string> = answer.tag !== undefined ? { [REPLY_ANSWER_TAG]: answer.tag } : {};
    const abort = new AbortController();
    const limit = this.options.inlineMaxBytes;
    const head: Uint8Array[] = [];
    let rest: AsyncIterator<Uint8Array> | undefined;
    if (answer.bytes) {
      if (answer.bytes.byteLength <= limit) return inline(answer.bytes, answer.contentType, tagged);
    } else if (answer.length === undefined || answer.length <= limit) {
      const iterator = answer.chunks(abort.signal)[Symbol.asyncIterator]();
      // A producer that stalls before its first CLAIM_INLINE_MAX_BYTES is stopped, as an unredeemed claim would be.
      const stalled = setTimeout(() => abort.abort(AppError.timeout(`The answer did not come within ${this.options.ttlMs} ms`)), this.options.ttlMs);
      const stopped = aborted(abort.signal);
      stopped.catch(() => undefined);
      let pulled = 0;
      try {
        while (pulled <= limit) {
          const next = await Promise.race([iterator.next(), stopped]);
          if (next.done) return inline(concatBytes(head, pulled), answer.contentType, tagged);
          head.push(next.value);
          pulled += next.value.byteLength;
        }
      } catch (err) {
        abort.abort(err);
        void iterator.return?.().catch(() => undefined);
        throw err;
      } finally {
        clearTimeout(stalled);
      }
      rest = iterator;
    }
    return EncodedJson.of(this.keep(answer, accountId, head, rest, abort), { [REPLY_CLAIM]: '1', ...tagged });
  }

  private keep(answer: BulkAnswer, accountId: string, head: Uint8Array[], rest: AsyncIterator<Uint8Array> | undefined, abort: AbortController): Claim {
    if (!this.server) throw new Error('the claim desk is not started');
    const max = this.options.maxWaiting ?? DEFAULT_CLAIM_MAX_WAITING;
    if (this.waiting.size >= max) {
      const full = new AppError(503, `This instance holds ${this.waiting.size} large answers waiting to be fetched, as many as CLAIM_MAX_WAITING (${max}) allows; retry the read`, { retryAfterSeconds: 1 });
      abort.abort(full);
      void rest?.return?.().catch(() => undefined);
      this.options.logger.warn({ waiting: this.waiting.size, max }, 'a large answer was refused: CLAIM_MAX_WAITING claims wait to be fetched');
      throw full;
    }
    const id = randomBytes(16).toString('base64url');
    const claim: Claim = { id, desk: this.id, address: this.base, accountId, expiresAt: Date.now() + this.options.ttlMs, contentType: answer.contentType, ...(answer.length !== undefined ? { length: answer.length } : {}) };
    const timer = setTimeout(() => this.drop(id, 'it expired unredeemed'), this.options.ttlMs);
    timer.unref();
    // A length known up front starts the producer only at the redemption.
    this.waiting.set(id, { claim, head, rest: rest ?? lazily(answer, abort.signal), ...(answer.bytes ? { whole: answer.bytes } : {}), abort, timer });
    return claim;
  }

  /** Drops a waiting claim: its producer stops, its bytes go. */
  private drop(id: string, reason: string): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    this.settled();
    clearTimeout(w.timer);
    w.abort.abort(new Error(`claim dropped: ${reason}`));
    void w.rest?.return?.().catch(() => undefined);
    this.remember(w.claim, `it was dropped: ${reason}`);
    this.options.logger.debug({ claim: id, reason }, 'claim dropped');
  }

  private remember(claim: Claim, reason: string): void {
    const timer = setTimeout(() => this.spent.delete(claim.id), Math.max(0, claim.expiresAt - Date.now()) + 1000);
    timer.unref();
    this.spent.set(claim.id, { accountId: claim.accountId, reason, timer });
  }

  /**
   * Takes a claim for its one redemption by `accountId`: 404 when this desk never made it, 410 when it was redeemed
   * or dropped already, 403 for another account. Returns its bytes as a stream; ending it early stops the producer.
   */
  take(claimId: string, accountId: string): { claim: Claim; body: Readable } {
    const { claim, bytes } = this.takeBytes(claimId, accountId);
    return { claim, body: Readable.from(bytes, { objectMode: false, highWaterMark: 1 }) };
  }

  private takeBytes(claimId: string, accountId: string): { claim: Claim; bytes: AsyncGenerator<Buffer>; whole: Uint8Array | undefined; abort: AbortController } {
    const w = this.waiting.get(claimId);
    if (!w) {
      const spent = this.spent.get(claimId);
      if (spent && spent.accountId === accountId) throw new ClaimRefusal(410, `The claim ${claimId} is spent: ${spent.reason}`);
      if (spent) throw new ClaimRefusal(403, `The claim ${claimId} was made for another account`);
      throw new ClaimRefusal(404, `No claim ${claimId} was made here`);
    }
    if (w.claim.accountId !== accountId) throw new ClaimRefusal(403, `The claim ${claimId} was made for another account`);
    this.waiting.delete(claimId);
    this.settled();
    clearTimeout(w.timer);
    this.remember(w.claim, 'it was redeemed');
    return { claim: w.claim, bytes: checkedBytes(w), whole: w.whole, abort: w.abort };
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const claimId = /^\/claims\/([A-Za-z0-9_-]{1,64})$/.exec(req.url ?? '')?.[1];
    try {
      if (req.method !== 'GET' || !claimId) throw new ClaimRefusal(404, 'Not a claim');
      const accountId = String(req.headers[CLAIM_ACCOUNT_HEADER] ?? '');
      const [scheme, token] = (req.headers.authorization ?? '').split(' ');
      if (scheme !== CLAIM_AUTH_SCHEME || !token) throw new ClaimRefusal(401, 'A claim is redeemed with its token (Authorization: Claim <token>)');
      const verified = verifyClaimToken([this.options.secret, ...(this.options.previousSecrets ?? [])], token, claimId, accountId);
      if (verified === 'invalid') {
        // Logged here too (a redeemer with another CLAIM_SECRET is a deployment's mistake the desk can see first).
        this.options.logger.warn({ claim: claimId }, 'a claim redemption was refused: its token is not signed with this instance\'s CLAIM_SECRET (or CLAIM_SECRET_PREVIOUS) for the claim and account');
        throw new ClaimRefusal(401, 'The token is not one signed for this claim and account');
      }
      if (verified === 'expired') throw new ClaimRefusal(410, `The token of claim ${claimId} has expired`);
      // A claim of the instance that was here before (a restart at the same address): it is gone, not refused.
      const desk = req.headers[CLAIM_DESK_HEADER];
      if (typeof desk === 'string' && desk !== this.id) throw new ClaimRefusal(CLAIM_OTHER_DESK_STATUS, `The claim ${claimId} was made by another instance at this address (restarted since)`);
      const { claim, bytes, whole, abort } = this.takeBytes(claimId, accountId);
      // Node refuses a write past the Content-Length (a backstop to checkedBytes's own check).
      if (claim.length !== undefined) res.strictContentLength = true;
      res.writeHead(200, { 'Content-Type': claim.contentType, ...(claim.length !== undefined ? { 'Content-Length': String(claim.length) } : {}) });
      if (whole) {
        // In memory already: one write, which the socket drains at the redeemer's pace (no producer to hold back).
        void bytes.return(undefined);
        res.end(Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength));
        return;
      }
      // A redeemer that goes stops the producer at once, even while it is making the next chunk.
      const gone = new Promise<never>((_, reject) =>
        res.once('close', () => {
          if (res.writableFinished) return;
          const err = new Error('the redeemer went before the end of the answer');
          abort.abort(err);
          reject(err);
        }),
      );
      gone.catch(() => undefined);
      // Backpressure: the producer is pulled only as the socket drains. A producer that fails (or a redeemer that goes)
      // destroys the response: the redeemer sees an aborted transfer, never a complete shorter body.
      try {
        for await (const chunk of bytes) {
          if (res.destroyed) throw new Error('the redeemer went before the end of the answer');
          if (!res.write(chunk)) await Promise.race([once(res, 'drain'), gone]);
        }
        res.end();
      } catch (err) {
        res.destroy();
        this.options.logger.warn({ claim: claimId, reason: (err as Error).message }, 'claimed answer not delivered whole');
      }
    } catch (err) {
      const refusal = err instanceof AppError ? err : new AppError(500, 'The claim could not be served');
      if (!(err instanceof AppError)) this.options.logger.error({ err }, 'claim endpoint failed');
      if (res.headersSent) return void res.destroy();
      res.writeHead(refusal.status, { 'Content-Type': 'application/problem+json' }).end(JSON.stringify({ status: refusal.status, title: refusal.title, detail: refusal.message }));
    }
  }

  /** The desk of this process that made `claim`, if any. */
  static inProcess(claim: Claim): ClaimDesk | undefined {
    return desksInProcess.get(claim.desk);
  }
}

/** Rejects with the signal's reason once it aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** A bus reply carrying bytes as they are: JSON, or another media type with its reply header. */
function inline(bytes: Uint8Array, contentType: string, headers: Record<string, string>): EncodedJson {
  if (contentType === JSON_MEDIA_TYPE) return new EncodedJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), headers);
  return EncodedJson.binary(bytes, contentType, headers);
}

function lazily(answer: BulkAnswer, signal: AbortSignal): AsyncIterator<Uint8Array> {
  let inner: AsyncIterator<Uint8Array> | undefined;
  const open = () => (inner ??= answer.chunks(signal)[Symbol.asyncIterator]());
  return {
    next: () => open().next(),
    return: async (value?: unknown) => (inner?.return ? inner.return(value) : { done: true, value: undefined }),
  };
}

/**
 * The claim's bytes: those pulled before the claim, then the rest of its producer; a producer that ends short of the
 * announced length (or past it) is a failure, so the transfer aborts rather than look complete.
 */
async function* checkedBytes(w: Waiting): AsyncGenerator<Buffer> {
  const length = w.claim.length;
  let sent = 0;
  let whole = false;
  const pastLength = (more: number) => new Error(`the answer came to more than the ${length} bytes announced (${sent + more} at least)`);
  try {
    const rest = w.rest;
    const chunks = async function* (): AsyncGenerator<Uint8Array> {
      yield* w.head.splice(0);
      for (let next = await rest?.next(); next && !next.done; next = await rest?.next()) yield next.value;
    };
    const source = chunks();
    for (let next = await source.next(); !next.done; next = await source.next()) {
      const chunk = next.value;
      if (length !== undefined && sent + chunk.byteLength > length) throw pastLength(chunk.byteLength);
      // The chunk that completes the announced length is written only once the producer has ended: bytes past a
      // Content-Length would be read, on a kept-alive connection, as the start of the next answer on it (another
      // account's claim); past it now, the transfer ends short of its length instead, an aborted one.
      if (length !== undefined && sent + chunk.byteLength === length) {
        const after = await source.next();
        if (!after.done) throw pastLength(chunk.byteLength + after.value.byteLength);
      }
      sent += chunk.byteLength;
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
    if (length !== undefined && sent !== length) throw new Error(`the answer came to ${sent} bytes, not the ${length} announced`);
    whole = true;
  } finally {
    // Ended early (the redeemer went) or failed: the producer stops. One that finished is left to end by itself (its
    // pool task returns; aborting it now would end its worker thread).
    if (!whole) {
      if (!w.abort.signal.aborted) w.abort.abort(new Error('the claimed answer was not sent whole'));
      await w.rest?.return?.().catch(() => undefined);
    }
  }
}
