import { Agent, request, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError, type Logger } from '@pitwall/service-kit';
import { CLAIM_ACCOUNT_HEADER, CLAIM_AUTH_SCHEME, CLAIM_DESK_HEADER, CLAIM_OTHER_DESK_STATUS, signClaimToken, type Claim } from './claim';
import { ClaimDesk } from './claim-desk';

export interface ClaimRedeemerOptions {
  /** Shared secret of the redemption tokens (the desks'). */
  secret: string;
  /** Redeem claims of a desk in this process without HTTP (`npm start`). */
  inProcess: boolean;
  logger: Logger;
}

/** A redeemed claim: the answer's media type, its length when known, and its bytes as they come. */
export interface RedeemedAnswer {
  contentType: string;
  length?: number;
  body: Readable;
}

/** Seconds after which a read whose claim could not be fetched may be retried. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The redeeming side of the claim check (the gateway): fetches a claimed answer once from the instance that made it,
 * with a token for the caller's account signed by the shared secret; from a desk in this process without HTTP.
 */
export class ClaimRedeemer {
  // Keep-alive connections to the services' claim ports: a redemption costs no TCP handshake. Not a handful per
  // instance: at 64, 64 slow clients' transfers held every other large read through this gateway in the agent's queue
  // (the reads are bounded by the gateways' per-user limits, not here); 64 idle ones are kept.
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 64 });

  constructor(private readonly options: ClaimRedeemerOptions) {}

  /**
   * The claimed bytes. Rejects with 503 (Retry-After) when the instance cannot be reached (it went since it replied)
   * and 502 when it refuses the claim (spent, expired, another account, a token it does not accept). Destroying the
   * body (the client went) stops the producer at the other end.
   */
  async redeem(claim: Claim, accountId: string): Promise<RedeemedAnswer> {
    const local = this.options.inProcess ? ClaimDesk.inProcess(claim) : undefined;
    if (local) {
      try {
        const { body } = local.take(claim.id, accountId);
        return { contentType: claim.contentType, ...(claim.length !== undefined ? { length: claim.length } : {}), body };
      } catch (err) {
        throw this.refused(claim, (err as AppError).status, (err as Error).message);
      }
    }
    const token = signClaimToken(this.options.secret, claim.id, accountId, claim.expiresAt);
    const unreachable = (err: unknown) =>
      new AppError(503, isTimeout(err) ? 'The answer could not be fetched in time from the service instance that made it (it was busy or out of reach); nothing was sent, retry the read' : 'The service instance that made the answer could not be reached; nothing was sent, retry the read', { cause: err, retryAfterSeconds: RETRY_AFTER_SECONDS });
    let lost: unknown;
    const res = await this.fetch(claim, accountId, token).catch((err: unknown) => {
      // A kept connection the desk closed while it sat idle (its keep-alive timeout) fails the request before the desk
      // read it, so the claim is unspent: once more on a new connection (Node's advice for `reusedSocket`).
      if ((err as { reusedSocket?: boolean }).reusedSocket) {
        lost = err;
        return this.fetch(claim, accountId, token);
      }
      throw err;
    }).catch((err: unknown) => {
      throw unreachable(err);
    });
    // The desk had taken the claim after all (its producer failed before the first byte and the desk closed the
    // connection): the retry finds it spent, and the read is the first attempt's retryable failure, not a refusal.
    if (lost !== undefined && res.statusCode === 410) {
      res.resume();
      throw unreachable(lost);
    }
    // Another instance answers at the claim's address (the one that made it restarted): gone, as an unreachable one.
    if (res.statusCode === CLAIM_OTHER_DESK_STATUS) {
      res.resume();
      throw unreachable(new Error(`the instance at ${claim.address} is not the one that made the claim (restarted since)`));
    }
    if (res.statusCode !== 200) {
      const detail = await problemDetail(res);
      throw this.refused(claim, res.statusCode ?? 0, detail);
    }
    const length = res.headers['content-length'];
    return { contentType: res.headers['content-type'] ?? 'application/octet-stream', ...(length !== undefined ? { length: Number(length) } : {}), body: res };
  }

  close(): void {
    this.agent.destroy();
  }

  /** A refused claim: the desk's words logged (they name the claim and the instance's state), the client told less. */
  private refused(claim: Claim, status: number, detail: string): AppError {
    this.options.logger.warn({ claim: claim.id, status, detail }, 'a claimed answer was refused by the instance that made it');
    return new AppError(502, `The answer could not be fetched from the service that made it (its claim was refused: ${status}); retry the read`);
  }

  /**
   * The claim's GET; a failure before any answer carries whether it went on a kept connection (`reusedSocket`). Until
   * its answer's head comes it waits at most the claim's life as this clock sees it (a claim past it is gone at the
   * desk), and at least REDEEM_MIN_WAIT_MS (the clocks of two hosts may differ): queued behind busy connections or
   * at an address that drops packets, the read is a 503 to retry, not a wait of minutes.
   */
  private fetch(claim: Claim, accountId: string, token: string): Promise<IncomingMessage> {
    const wait = Math.min(REDEEM_MAX_WAIT_MS, Math.max(REDEEM_MIN_WAIT_MS, claim.expiresAt - Date.now()));
    return new Promise<IncomingMessage>((resolve, reject) => {
      const timer = setTimeout(() => req.destroy(Object.assign(new Error(`no answer from the claim port within ${wait} ms`), { code: 'ETIMEDOUT' })), wait);
      const req = request(`${claim.address}/claims/${claim.id}`, { agent: this.agent, headers: { authorization: `${CLAIM_AUTH_SCHEME} ${token}`, [CLAIM_ACCOUNT_HEADER]: accountId, [CLAIM_DESK_HEADER]: claim.desk } }, (res) => {
        clearTimeout(timer);
        resolve(res);
      });
      req.on('close', () => clearTimeout(timer));
      req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket && isConnectionLoss(err) })));
      req.end();
    });
  }
}

/** The errors of a connection the other side closed before it answered (not a refusal, not a timeout). */
function isConnectionLoss(err: Error): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED';
}

/** The longest and the shortest wait for a claim's answer to begin (a claim lives CLAIM_TTL_MS, 30 s by default). */
const REDEEM_MAX_WAIT_MS = 120_000;
const REDEEM_MIN_WAIT_MS = 5_000;

function isTimeout(err: unknown): boolean {
  return (err as { code?: string } | undefined)?.code === 'ETIMEDOUT';
}

async function problemDetail(res: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of res) if (text.length < 2000) text += String(chunk);
  try {
    return String((JSON.parse(text) as { detail?: unknown }).detail ?? text);
  } catch {
    return text.slice(0, 200);
  }
}
