import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A claim check: what a service replies on the bus instead of a large answer. The bytes stay with the instance that
 * makes them; the claim names that instance's internal address, and whoever holds it (the gateway, for the account
 * the answer was made for) fetches them once, before `expiresAt`, with a token signed by the shared `CLAIM_SECRET`.
 */
export interface Claim {
  /** Random id of this answer at its desk. */
  id: string;
  /** The issuing desk (one per service instance): a desk in the redeemer's own process is redeemed without HTTP. */
  desk: string;
  /** Base URL of the issuing instance's internal claim port, e.g. `http://10.0.3.7:41234`. */
  address: string;
  /** The account the answer was made for; only a redemption for it is served. */
  accountId: string;
  /** Epoch ms after which the claim is gone (its producer stopped, its bytes freed). */
  expiresAt: number;
  /** Media type of the answer's bytes. */
  contentType: string;
  /** Its length in bytes when known before it is made (a binary body): the HTTP answer's Content-Length. */
  length?: number;
}

/** Reply header marking a reply whose JSON body is a `Claim`, not the answer. */
export const REPLY_CLAIM = 'claim';
/** Request headers of a redemption over HTTP. */
export const CLAIM_ACCOUNT_HEADER = 'x-claim-account';
/** The desk the redeemer expects to answer (the claim's `desk`): another at the same address (a restart) says so. */
export const CLAIM_DESK_HEADER = 'x-claim-desk';
/** The status a desk answers for a claim of another desk: the instance that made it is gone (421 Misdirected Request). */
export const CLAIM_OTHER_DESK_STATUS = 421;
export const CLAIM_AUTH_SCHEME = 'Claim';

const TOKEN_VERSION = 'v1';

function mac(secret: string, claimId: string, accountId: string, expiresAt: number): Buffer {
  return createHmac('sha256', secret).update(`${TOKEN_VERSION}\n${claimId}\n${accountId}\n${expiresAt}`).digest();
}

/** The redemption token of `claimId` for `accountId`, valid until `expiresAt` (epoch ms): `v1.<expiresAt>.<hmac>`. */
export function signClaimToken(secret: string, claimId: string, accountId: string, expiresAt: number): string {
  return `${TOKEN_VERSION}.${expiresAt}.${mac(secret, claimId, accountId, expiresAt).toString('base64url')}`;
}

/**
 * Checks a token for `claimId` and `accountId`: `invalid` when it is not one made with the secret for them,
 * `expired` when it is but its time is past, else its expiry.
 */
export function verifyClaimToken(secret: string, token: string, claimId: string, accountId: string, now = Date.now()): { expiresAt: number } | 'invalid' | 'expired' {
  const [version, at, signature] = token.split('.');
  if (version !== TOKEN_VERSION || !at || !/^\d{1,15}$/.test(at) || !signature) return 'invalid';
  const expiresAt = Number(at);
  const expected = mac(secret, claimId, accountId, expiresAt);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return expiresAt < now ? 'expired' : { expiresAt };
}
