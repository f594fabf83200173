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
 * Checks a token for `claimId` and `accountId` against the secrets a desk accepts (its CLAIM_SECRET and, during a
 * rotation, CLAIM_SECRET_PREVIOUS): `invalid` when it is not one made with one of them for these, or not exactly
 * `v1.<expiry>.<43 base64url characters>`; `expired` when it is but its time is past; else its expiry.
 */
export function verifyClaimToken(secrets: string | readonly string[], token: string, claimId: string, accountId: string, now = Date.now()): { expiresAt: number } | 'invalid' | 'expired' {
  const parts = token.split('.');
  const [version, at, signature] = parts;
  if (parts.length !== 3 || version !== TOKEN_VERSION || !at || !/^[1-9]\d{0,14}$/.test(at) || !signature || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return 'invalid';
  const expiresAt = Number(at);
  const given = Buffer.from(signature, 'base64url');
  const signed = (typeof secrets === 'string' ? [secrets] : secrets).some((secret) => {
    const expected = mac(secret, claimId, accountId, expiresAt);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!signed) return 'invalid';
  return expiresAt < now ? 'expired' : { expiresAt };
}
