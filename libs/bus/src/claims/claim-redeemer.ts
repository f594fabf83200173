import { Agent, request, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError, type Logger } from '@pitwall/service-kit';
import { CLAIM_ACCOUNT_HEADER, CLAIM_AUTH_SCHEME, signClaimToken, type Claim } from './claim';
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
  // Keep-alive connections to the services' claim ports: a redemption costs no TCP handshake.
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

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
        throw refused((err as AppError).status, (err as Error).message);
      }
    }
    const token = signClaimToken(this.options.secret, claim.id, accountId, claim.expiresAt);
    const unreachable = (err: unknown) => new AppError(503, 'The service instance that made the answer could not be reached; nothing was sent, retry the read', { cause: err, retryAfterSeconds: RETRY_AFTER_SECONDS });
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
    if (res.statusCode !== 200) {
      const detail = await problemDetail(res);
      throw refused(res.statusCode ?? 0, detail);
    }
    const length = res.headers['content-length'];
    return { contentType: res.headers['content-type'] ?? 'application/octet-stream', ...(length !== undefined ? { length: Number(length) } : {}), body: res };
  }

  close(): void {
    this.agent.destroy();
  }

  /** The claim's GET; a failure before any answer carries whether it went on a kept connection (`reusedSocket`). */
  private fetch(claim: Claim, accountId: string, token: string): Promise<IncomingMessage> {
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${claim.address}/claims/${claim.id}`, { agent: this.agent, headers: { authorization: `${CLAIM_AUTH_SCHEME} ${token}`, [CLAIM_ACCOUNT_HEADER]: accountId } }, resolve);
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

function refused(status: number, detail: string): AppError {
  return new AppError(502, `The answer could not be fetched from the service that made it (${status}: ${detail})`);
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
